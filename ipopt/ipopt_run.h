// Runs an NlpProblem through Ipopt's public C interface (IpStdCInterface.h:
// CreateIpoptProblem, AddIpopt*Option, SetIntermediateCallback, IpoptSolve)
// of the unmodified Ipopt that Debian ships (coinor-libipopt-dev, 3.11.9).
//
// The linear solver is Ipopt's own option: "mumps" is linked into Debian's
// Ipopt; "pardiso" makes Ipopt dlopen libpardiso.so, "ma57" and "ma27"
// libhsl.so, from the library search path (LD_LIBRARY_PATH), which with
// factord's libraries sends every KKT factorization to a factord daemon.
//
// Ipopt's intermediate callback reports, once per iteration, the size of
// the regularization delta_w (the lg(rg) column of Ipopt's log, 0 when the
// KKT matrix had the right inertia without it); RunIpopt counts the
// iterations where it was non-zero.
#ifndef FACTORD_IPOPT_IPOPT_RUN_H_
#define FACTORD_IPOPT_IPOPT_RUN_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "ipopt/nlp_problem.h"

namespace factord::ipopt {

struct IpoptSettings {
  std::string linear_solver = "mumps";  // Ipopt's linear_solver option
  // More Ipopt options, "key" and "value"; the value is given to Ipopt as
  // an integer, a number or a string, whichever Ipopt accepts for the key.
  std::vector<std::pair<std::string, std::string>> options;
  int print_level = 0;   // Ipopt's console log (stdout); 0 = silent
  std::string log_file;  // when set: Ipopt's log at log_level into it
  int log_level = 5;
  // A test hook for the robustness checks: when Ipopt reports iteration
  // hold_at_iteration, RunIpopt creates hold_file and waits (at most
  // hold_seconds) until someone deletes it, then lets Ipopt go on.
  int hold_at_iteration = -1;
  std::string hold_file;
  double hold_seconds = 120;
};

struct IpoptOutcome {
  int status = 0;           // Ipopt's ApplicationReturnStatus
  std::string status_name;  // "Solve_Succeeded", ...
  double objective = 0;  // in the source's sense (NlpProblem::SourceObjective)
  int iterations = 0;    // the largest iteration count Ipopt reported
  // Iterations whose step needed delta_w > 0, and the largest delta_w.
  int regularized_iterations = 0;
  double max_regularization = 0;
  double solve_seconds = 0;  // wall time of IpoptSolve
  std::vector<double> x;     // the final point, size n
};

// True for Solve_Succeeded and Solved_To_Acceptable_Level.
bool Solved(int status);

// The name of an ApplicationReturnStatus value ("Status_<code>" if unknown).
std::string StatusName(int status);

// Solves `problem` (not modified). Errors: InvalidArgument when Ipopt does
// not accept an option or the problem before the solve; everything IpoptSolve
// returns (Invalid_Option for a linear solver it cannot load included) is an
// outcome.
absl::StatusOr<IpoptOutcome> RunIpopt(const NlpProblem& problem,
                                      const IpoptSettings& settings);

}  // namespace factord::ipopt

#endif  // FACTORD_IPOPT_IPOPT_RUN_H_
