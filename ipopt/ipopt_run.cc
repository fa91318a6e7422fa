#include "ipopt/ipopt_run.h"

#include <coin/IpStdCInterface.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace factord::ipopt {
namespace {

// Ipopt takes any bound beyond +-1e19 (nlp_*_bound_inf) as infinite.
constexpr double kIpoptInfinity = 2e19;

// What the callbacks see through Ipopt's user_data pointer.
struct RunState {
  const NlpProblem* problem;
  const IpoptSettings* settings;
  int last_iteration = 0;
  int regularized_iterations = 0;
  double max_regularization = 0;
  bool held = false;
};

RunState& State(UserDataPtr user_data) {
  return *static_cast<RunState*>(user_data);
}

Bool EvalObjective(Index n, Number* x, Bool new_x, Number* value,
                   UserDataPtr user_data) {
  *value = State(user_data).problem->Objective(x);
  return std::isfinite(*value);
}

Bool EvalGradient(Index n, Number* x, Bool new_x, Number* gradient,
                  UserDataPtr user_data) {
  State(user_data).problem->Gradient(x, gradient);
  return TRUE;
}

Bool EvalConstraints(Index n, Number* x, Bool new_x, Index m, Number* g,
                     UserDataPtr user_data) {
  State(user_data).problem->Constraints(x, g);
  return TRUE;
}

void CopyPattern(const SparsePattern& pattern, Index* rows, Index* cols) {
  for (int e = 0; e < pattern.nnz(); ++e) {
    rows[e] = pattern.row[e];
    cols[e] = pattern.col[e];
  }
}

// Ipopt first asks for the pattern (values == NULL), then for values.
Bool EvalJacobian(Index n, Number* x, Bool new_x, Index m, Index nele_jac,
                  Index* rows, Index* cols, Number* values,
                  UserDataPtr user_data) {
  const NlpProblem& problem = *State(user_data).problem;
  if (values == nullptr) {
    CopyPattern(problem.JacobianPattern(), rows, cols);
  } else {
    problem.JacobianValues(x, values);
  }
  return TRUE;
}

Bool EvalHessian(Index n, Number* x, Bool new_x, Number sigma, Index m,
                 Number* lambda, Bool new_lambda, Index nele_hess, Index* rows,
                 Index* cols, Number* values, UserDataPtr user_data) {
  const NlpProblem& problem = *State(user_data).problem;
  if (values == nullptr) {
    CopyPattern(problem.HessianPattern(), rows, cols);
  } else {
    problem.HessianValues(x, sigma, lambda, values);
  }
  return TRUE;
}

// The robustness hook: announce the iteration by creating hold_file, then
// wait for its removal.
void Hold(const IpoptSettings& settings) {
  std::ofstream(settings.hold_file) << getpid() << "\n";
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration<double>(settings.hold_seconds);
  while (access(settings.hold_file.c_str(), F_OK) == 0 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// Called once per iteration; regularization is the delta_w of the step
// that led to this iterate (Ipopt's lg(rg) column is its log10).
Bool OnIteration(Index alg_mod, Index iteration, Number objective,
                 Number inf_pr, Number inf_du, Number mu, Number d_norm,
                 Number regularization, Number alpha_du, Number alpha_pr,
                 Index ls_trials, UserDataPtr user_data) {
  RunState& state = State(user_data);
  // The restoration phase reports its own count: keep the largest.
  state.last_iteration = std::max(state.last_iteration, iteration);
  if (regularization > 0) {
    ++state.regularized_iterations;
    state.max_regularization =
        std::max(state.max_regularization, regularization);
  }
  const IpoptSettings& settings = *state.settings;
  if (!state.held && settings.hold_at_iteration >= 0 &&
      iteration >= settings.hold_at_iteration && !settings.hold_file.empty()) {
    state.held = true;
    Hold(settings);
  }
  return TRUE;
}

// Ipopt's C interface takes non-const char*.
Bool AddString(IpoptProblem ipopt, const std::string& key,
               const std::string& value) {
  std::string k = key, v = value;
  return AddIpoptStrOption(ipopt, k.data(), v.data());
}

// Extra options go through an options file, where Ipopt types each value by
// the option's registration (the C interface would need the type).
absl::StatusOr<std::string> WriteOptionsFile(const IpoptSettings& settings) {
  char path[] = "/tmp/factord-ipopt-options-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return absl::InternalError("cannot create an options file");
  close(fd);
  std::ofstream out(path);
  for (const auto& [key, value] : settings.options) {
    out << key << " " << value << "\n";
  }
  if (!out) return absl::InternalError("cannot write the options file");
  return std::string(path);
}

std::vector<double> Finite(std::vector<double> bounds) {
  for (double& b : bounds) {
    if (b >= kIpoptInfinity) b = kIpoptInfinity;
    if (b <= -kIpoptInfinity) b = -kIpoptInfinity;
  }
  return bounds;
}

}  // namespace

bool Solved(int status) {
  return status == Solve_Succeeded || status == Solved_To_Acceptable_Level;
}

std::string StatusName(int status) {
  // Every ApplicationReturnStatus of IpReturnCodes_inc.h (Ipopt 3.11).
  static constexpr struct {
    int code;
    const char* name;
  } kNames[] = {
      {Solve_Succeeded, "Solve_Succeeded"},
      {Solved_To_Acceptable_Level, "Solved_To_Acceptable_Level"},
      {Infeasible_Problem_Detected, "Infeasible_Problem_Detected"},
      {Search_Direction_Becomes_Too_Small,
       "Search_Direction_Becomes_Too_Small"},
      {Diverging_Iterates, "Diverging_Iterates"},
      {User_Requested_Stop, "User_Requested_Stop"},
      {Feasible_Point_Found, "Feasible_Point_Found"},
      {Maximum_Iterations_Exceeded, "Maximum_Iterations_Exceeded"},
      {Restoration_Failed, "Restoration_Failed"},
      {Error_In_Step_Computation, "Error_In_Step_Computation"},
      {Maximum_CpuTime_Exceeded, "Maximum_CpuTime_Exceeded"},
      {Not_Enough_Degrees_Of_Freedom, "Not_Enough_Degrees_Of_Freedom"},
      {Invalid_Problem_Definition, "Invalid_Problem_Definition"},
      {Invalid_Option, "Invalid_Option"},
      {Invalid_Number_Detected, "Invalid_Number_Detected"},
      {Unrecoverable_Exception, "Unrecoverable_Exception"},
      {NonIpopt_Exception_Thrown, "NonIpopt_Exception_Thrown"},
      {Insufficient_Memory, "Insufficient_Memory"},
      {Internal_Error, "Internal_Error"},
  };
  for (const auto& entry : kNames) {
    if (entry.code == status) return entry.name;
  }
  return absl::StrCat("Status_", status);
}

absl::StatusOr<IpoptOutcome> RunIpopt(const NlpProblem& problem,
                                      const IpoptSettings& settings) {
  const int n = problem.num_variables();
  const int m = problem.num_constraints();
  std::vector<double> x_lower, x_upper, g_lower, g_upper;
  problem.Bounds(&x_lower, &x_upper, &g_lower, &g_upper);
  x_lower = Finite(x_lower);
  x_upper = Finite(x_upper);
  g_lower = Finite(g_lower);
  g_upper = Finite(g_upper);

  IpoptProblem ipopt = CreateIpoptProblem(
      n, x_lower.data(), x_upper.data(), m, g_lower.data(), g_upper.data(),
      problem.JacobianPattern().nnz(), problem.HessianPattern().nnz(),
      /*index_style=*/0, EvalObjective, EvalConstraints, EvalGradient,
      EvalJacobian, EvalHessian);
  if (ipopt == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("Ipopt refused the problem ", problem.name()));
  }
  // Released on every path below.
  std::unique_ptr<IpoptProblemInfo, void (*)(IpoptProblem)> owner(
      ipopt, FreeIpoptProblem);

  std::string options_file;
  if (!settings.options.empty()) {
    absl::StatusOr<std::string> path = WriteOptionsFile(settings);
    if (!path.ok()) return path.status();
    options_file = *path;
  }
  // Without extra options no options file is read, so that a stray
  // ipopt.opt in the working directory cannot change a run.
  bool accepted = AddString(ipopt, "option_file_name", options_file) &&
                  AddString(ipopt, "linear_solver", settings.linear_solver) &&
                  AddString(ipopt, "sb", "yes") &&
                  AddIpoptIntOption(ipopt, const_cast<char*>("print_level"),
                                    settings.print_level);
  if (accepted && !settings.log_file.empty()) {
    std::string file = settings.log_file;
    accepted = OpenIpoptOutputFile(ipopt, file.data(), settings.log_level);
  }
  if (!accepted) {
    if (!options_file.empty()) std::remove(options_file.c_str());
    return absl::InvalidArgumentError("Ipopt did not accept an option");
  }
  SetIntermediateCallback(ipopt, OnIteration);

  RunState state{&problem, &settings};
  IpoptOutcome outcome;
  outcome.x = problem.StartingPoint();
  double objective = std::numeric_limits<double>::quiet_NaN();
  const auto start = std::chrono::steady_clock::now();
  const int status = IpoptSolve(ipopt, outcome.x.data(), nullptr, &objective,
                                nullptr, nullptr, nullptr, &state);
  outcome.solve_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!options_file.empty()) std::remove(options_file.c_str());
  outcome.status = status;
  outcome.status_name = StatusName(status);
  outcome.objective = problem.SourceObjective(objective);
  outcome.iterations = state.last_iteration;
  outcome.regularized_iterations = state.regularized_iterations;
  outcome.max_regularization = state.max_regularization;
  return outcome;
}

}  // namespace factord::ipopt
