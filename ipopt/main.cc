// factord-ipopt-nlp: runs one NLP through Debian's unmodified Ipopt with a
// chosen linear solver and prints one JSON line (the last line of stdout).
//
//   factord-ipopt-nlp --problem=nonconvex_chain|poisson_control|FILE.SIF
//                     [--linear_solver=mumps|pardiso|ma57|ma27] [--grid=200]
//                     [--chain=8]
//                     [--option=KEY=VALUE ...] [--print_level=0]
//                     [--log_file=PATH] [--log_level=5]
//                     [--hold_at_iteration=K --hold_file=PATH]
//
// With --linear_solver=pardiso Ipopt loads libpardiso.so from
// LD_LIBRARY_PATH, with ma57 or ma27 libhsl.so; factord's (build/pardiso,
// build/hsl) read FACTORD_SERVER.
// The JSON line: problem, solver, status (Ipopt's), status_code, objective,
// iterations, wall_s (IpoptSolve), inertia_corrections (iterations whose
// step needed delta_w > 0), max_regularization, n, m, kkt_order (the
// order of the KKT matrix Ipopt factorizes).
// Exit code: 0 solved (or solved to acceptable level), 2 not solved,
// 1 bad arguments or unreadable problem.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "client/ipm/mps_reader.h"
#include "ipopt/ipopt_run.h"
#include "ipopt/nonconvex_chain.h"
#include "ipopt/poisson_control.h"
#include "ipopt/qp_nlp.h"

namespace {

namespace fi = factord::ipopt;

struct Flags {
  std::string problem;
  int grid = 200;
  int chain = 8;
  fi::IpoptSettings ipopt;
};

constexpr char kUsage[] =
    "usage: factord-ipopt-nlp --problem=nonconvex_chain|poisson_control|"
    "FILE.SIF [--linear_solver=mumps|pardiso|ma57|ma27] [--grid=N] "
    "[--chain=N] "
    "[--option=KEY=VALUE ...] [--print_level=N] [--log_file=PATH] "
    "[--log_level=N] [--hold_at_iteration=K --hold_file=PATH "
    "[--hold_seconds=S]]";

int Usage(const std::string& error) {
  std::fprintf(stderr, "%s\n%s\n", error.c_str(), kUsage);
  return 1;
}

// Parses --key=value arguments into `flags`; returns an error message or "".
std::string ParseFlags(int argc, char** argv, Flags* flags) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (arg.rfind("--", 0) != 0 || eq == std::string::npos) {
      return "unexpected argument " + arg;
    }
    const std::string key = arg.substr(2, eq - 2);
    const std::string value = arg.substr(eq + 1);
    bool ok = true;
    if (key == "problem") {
      flags->problem = value;
    } else if (key == "grid") {
      ok = absl::SimpleAtoi(value, &flags->grid) && flags->grid >= 1;
    } else if (key == "chain") {
      ok = absl::SimpleAtoi(value, &flags->chain) && flags->chain >= 3;
    } else if (key == "linear_solver") {
      flags->ipopt.linear_solver = value;
    } else if (key == "option") {
      const size_t sep = value.find('=');
      ok = sep != std::string::npos && sep > 0;
      if (ok) {
        flags->ipopt.options.emplace_back(value.substr(0, sep),
                                          value.substr(sep + 1));
      }
    } else if (key == "print_level") {
      ok = absl::SimpleAtoi(value, &flags->ipopt.print_level);
    } else if (key == "log_file") {
      flags->ipopt.log_file = value;
    } else if (key == "log_level") {
      ok = absl::SimpleAtoi(value, &flags->ipopt.log_level);
    } else if (key == "hold_at_iteration") {
      ok = absl::SimpleAtoi(value, &flags->ipopt.hold_at_iteration);
    } else if (key == "hold_file") {
      flags->ipopt.hold_file = value;
    } else if (key == "hold_seconds") {
      ok = absl::SimpleAtod(value, &flags->ipopt.hold_seconds);
    } else {
      return "unknown flag --" + key;
    }
    if (!ok) return "bad value in " + arg;
  }
  if (flags->problem.empty()) return "--problem is required";
  return "";
}

// The file's name without directory and extension: "HS21" for .../HS21.SIF.
std::string Stem(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  if (absl::EndsWith(name, ".gz")) name.resize(name.size() - 3);
  const size_t dot = name.find('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

absl::StatusOr<std::unique_ptr<fi::NlpProblem>> MakeProblem(
    const Flags& flags) {
  if (flags.problem == "nonconvex_chain") {
    return std::make_unique<fi::NonconvexChain>(flags.chain);
  }
  if (flags.problem == "poisson_control") {
    return std::make_unique<fi::PoissonControl>(flags.grid);
  }
  absl::StatusOr<factord::ipm::QpProblem> qp =
      factord::ipm::ReadMpsFile(flags.problem);
  if (!qp.ok()) return qp.status();
  return std::make_unique<fi::QpNlp>(*std::move(qp), Stem(flags.problem));
}

// The order of the KKT matrix Ipopt factorizes for `problem`: the
// variables it keeps (a fixed variable, x_lower == x_upper, is a parameter
// by Ipopt's default fixed_variable_treatment), one slack per inequality
// constraint (g_lower < g_upper), and one multiplier per constraint.
int KktOrder(const fi::NlpProblem& problem) {
  std::vector<double> x_lower, x_upper, g_lower, g_upper;
  problem.Bounds(&x_lower, &x_upper, &g_lower, &g_upper);
  int order = 0;
  for (size_t i = 0; i < x_lower.size(); ++i) order += x_lower[i] != x_upper[i];
  for (size_t j = 0; j < g_lower.size(); ++j) {
    order += 1 + (g_lower[j] != g_upper[j]);
  }
  return order;
}

// A JSON number, or null when not finite (Ipopt may stop on a NaN).
std::string JsonNumber(double value) {
  return std::isfinite(value) ? absl::StrFormat("%.17g", value) : "null";
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (const std::string error = ParseFlags(argc, argv, &flags);
      !error.empty()) {
    return Usage(error);
  }
  absl::StatusOr<std::unique_ptr<fi::NlpProblem>> problem = MakeProblem(flags);
  if (!problem.ok()) {
    std::fprintf(stderr, "%s\n", problem.status().ToString().c_str());
    return 1;
  }
  absl::StatusOr<fi::IpoptOutcome> outcome =
      fi::RunIpopt(**problem, flags.ipopt);
  if (!outcome.ok()) {
    std::fprintf(stderr, "%s\n", outcome.status().ToString().c_str());
    return 1;
  }
  std::fflush(stdout);  // Ipopt's log (--print_level) comes first
  absl::PrintF(
      "{\"problem\":\"%s\",\"solver\":\"%s\",\"status\":\"%s\","
      "\"status_code\":%d,\"objective\":%s,\"iterations\":%d,"
      "\"wall_s\":%.6f,\"inertia_corrections\":%d,"
      "\"max_regularization\":%.6g,\"n\":%d,\"m\":%d,\"kkt_order\":%d}\n",
      (*problem)->name(), flags.ipopt.linear_solver, outcome->status_name,
      outcome->status, JsonNumber(outcome->objective), outcome->iterations,
      outcome->solve_seconds, outcome->regularized_iterations,
      outcome->max_regularization, (*problem)->num_variables(),
      (*problem)->num_constraints(), KktOrder(**problem));
  return fi::Solved(outcome->status) ? 0 : 2;
}
