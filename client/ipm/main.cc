// factord-ipm: solves an LP or convex QP from an MPS/QPS file with a
// Mehrotra interior-point method whose KKT solves all go through a factord
// daemon.
//
//   factord-ipm --server=HOST:PORT FILE.mps[.gz] [--json] [--method=ldlt]
//               [--max_iterations=N] [--tolerance=1e-8] [--ordering=auto]
//               [--max_attempts=5] [--iteration_delay_ms=0]
//               [--stop_after_iteration=-1]
//
// The flags, their defaults and checks are in ipm_flags.cc (`--help` lists
// them).
//
// The client re-uploads the KKT matrix under its ID when a daemon answers
// NOT_FOUND for it (a restart, or behind a proxy a daemon that died and
// whose matrices moved), and retries calls that failed in transit (the
// client library's RetryPolicy, on by default: a daemon restarting, a
// proxy's 502 or 503, a stream reset), with backoff; --max_attempts=1
// turns that off. --iteration_delay_ms and --stop_after_iteration are test
// aids (tests/fleet/ipm_failover.sh): a pause after each iteration's line,
// and a stop (SIGSTOP, until SIGCONT) after one, so that a script watching
// the output acts between two iterations.
//
// Prints one line per iteration (JSON with --json, with the KKT matrix's
// ID) and a final line with status, objective, iterations, the matrix ID
// and the client's retries and re-uploads. The final JSON line also
// reports the per-iteration byte budget, 1.1 (8 nnz + 16 dim) + 4 KiB for
// the KKT matrix (dim = N + m, nnz its stored lower triangle), the largest
// bytes and the most requests (round trips: 2, a Step and the corrector's
// Solve, one more per refactorization the inertia forced) any iteration after
// the first sent, whether every such iteration stayed within the budget (plus
// 1.1 (8 dim) for each refactorization: it re-sends the predictor's
// right-hand side rather than cost a round trip), and whether every
// factorization after the first reused the analysis. Exit code: 0 optimal,
// 3 not optimal, 1 error, 2 a command-line mistake (cli::kUsageExitCode, as
// in every client program).
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "client/factord_client.h"
#include "client/ipm/ipm.h"
#include "client/ipm/ipm_flags.h"
#include "client/ipm/mps_reader.h"
#include "client/ipm/remote_kkt_solver.h"

namespace {

// Quotes and control bytes escaped for a JSON string.
std::string JsonEscape(const std::string& text) {
  std::string out;
  for (unsigned char ch : text) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch < 0x20) {
      out += absl::StrFormat("\\u%04x", ch);
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out;
}

// "CODE: message [REASON]", as factorctl prints a failure (absl's
// ToString would append the details' serialized bytes).
std::string ErrorText(const absl::Status& status) {
  std::string text = absl::StrFormat(
      "%s: %s", absl::StatusCodeToString(status.code()), status.message());
  const std::string reason = factord::client::ErrorReason(status);
  return reason.empty() ? text : absl::StrFormat("%s [%s]", text, reason);
}

}  // namespace

int main(int argc, char** argv) {
  const factord::ipm::ParsedIpmFlags parsed =
      factord::ipm::ParseIpmFlags(argc, argv);
  if (parsed.exit_code) return *parsed.exit_code;
  const factord::ipm::IpmFlags& flags = parsed.flags;

  absl::StatusOr<factord::ipm::QpProblem> problem =
      factord::ipm::ReadMpsFile(flags.file);
  if (!problem.ok()) {
    std::fprintf(stderr, "%s\n", ErrorText(problem.status()).c_str());
    return 1;
  }
  factord::client::ConnectOptions connect;
  // A daemon restart mid-run costs a re-upload, not the run.
  connect.reupload_on_not_found = true;
  connect.retry.max_attempts = flags.max_attempts;
  absl::StatusOr<std::unique_ptr<factord::client::Client>> client =
      factord::client::Client::Connect(flags.server, connect);
  if (!client.ok()) {
    std::fprintf(stderr, "%s\n", ErrorText(client.status()).c_str());
    return 1;
  }
  factord::client::FactorizeOptions factorize;
  factorize.method = flags.method;
  factorize.ordering = flags.ordering;
  factord::client::SolveOptions solve;
  solve.krylov = flags.krylov;
  factord::ipm::RemoteKktSolver kkt(client->get(), factorize, solve);

  factord::ipm::IpmOptions options;
  options.max_iterations = flags.max_iterations;
  options.tolerance = flags.tolerance;
  if (flags.primal_regularization >= 0) {
    options.primal_regularization = flags.primal_regularization;
  }
  if (flags.dual_regularization >= 0) {
    options.dual_regularization = flags.dual_regularization;
  }
  // lu takes no diagonal shifts: its regularization goes into the values.
  options.regularization_in_shifts = flags.method != "lu";
  int64_t max_bytes_after_first = 0;
  int64_t max_round_trips_after_first = 0;
  // Bytes and factorizations of every iteration after the first.
  std::vector<std::pair<int64_t, int>> spent;
  bool all_reused = true;
  auto on_iteration = [&](const factord::ipm::IterationLog& log) {
    if (log.iteration > 0) {
      max_bytes_after_first = std::max(max_bytes_after_first, log.bytes_sent);
      max_round_trips_after_first =
          std::max(max_round_trips_after_first, log.round_trips);
      spent.emplace_back(log.bytes_sent, log.factorizations);
      all_reused = all_reused && log.analysis_reused;
    }
    if (flags.json) {
      std::printf(
          "{\"iteration\":%d,\"primal_infeasibility\":%.3e,"
          "\"dual_infeasibility\":%.3e,\"gap\":%.3e,\"mu\":%.3e,"
          "\"objective\":%.12e,\"step_primal\":%.4f,\"step_dual\":%.4f,"
          "\"factorizations\":%d,\"shift\":%.1e,\"factorize_s\":%.6f,"
          "\"solve_s\":%.6f,\"analysis_reused\":%s,\"inertia_known\":%s,"
          "\"bytes_sent\":%lld,\"round_trips\":%lld,\"matrix_id\":\"%s\"}\n",
          log.iteration, log.primal_infeasibility, log.dual_infeasibility,
          log.gap, log.mu, log.objective, log.step_primal, log.step_dual,
          log.factorizations, log.shift, log.factorize_s, log.solve_s,
          log.analysis_reused ? "true" : "false",
          log.inertia_known ? "true" : "false",
          static_cast<long long>(log.bytes_sent),
          static_cast<long long>(log.round_trips),
          JsonEscape(kkt.matrix_id()).c_str());
    } else {
      std::printf(
          "%4d  pinf %9.2e  dinf %9.2e  gap %9.2e  mu %9.2e  obj %20.12e  "
          "fact %8.4fs  solve %8.4fs  reused %d  bytes %lld\n",
          log.iteration, log.primal_infeasibility, log.dual_infeasibility,
          log.gap, log.mu, log.objective, log.factorize_s, log.solve_s,
          log.analysis_reused, static_cast<long long>(log.bytes_sent));
    }
    std::fflush(stdout);
    if (flags.iteration_delay_ms > 0) {
      std::this_thread::sleep_for(
          std::chrono::milliseconds(flags.iteration_delay_ms));
    }
    if (log.iteration == flags.stop_after_iteration) raise(SIGSTOP);
  };
  absl::StatusOr<factord::ipm::IpmResult> result =
      factord::ipm::SolveQp(*problem, kkt, options, on_iteration);
  if (!result.ok()) {
    std::fprintf(stderr, "%s\n", ErrorText(result.status()).c_str());
    return 1;
  }
  const double budget =
      1.1 * (8.0 * result->kkt_nnz + 16.0 * result->kkt_dim) + 4096;
  bool within_budget = true;
  for (const auto& [bytes, factorizations] : spent) {
    const double refactorizations = std::max(0, factorizations - 1);
    within_budget =
        within_budget &&
        bytes <= budget + 1.1 * 8.0 * result->kkt_dim * refactorizations;
  }
  const char* status = factord::ipm::IpmStatusName(result->status);
  if (flags.json) {
    std::printf(
        "{\"status\":\"%s\",\"objective\":%.12e,\"iterations\":%d,"
        "\"problem\":\"%s\",\"method\":\"%s\",\"kkt_dim\":%lld,"
        "\"kkt_nnz\":%lld,\"objective_constant\":%.12e,"
        "\"max_iteration_bytes\":%lld,\"max_iteration_round_trips\":%lld,"
        "\"iteration_byte_budget\":%.0f,\"within_budget\":%s,"
        "\"analysis_reused_after_first\":%s,\"matrix_id\":\"%s\","
        "\"retries\":%lld,\"reuploads\":%lld,\"message\":\"%s\"}\n",
        status, result->objective, result->iterations,
        JsonEscape(problem->name).c_str(),
        JsonEscape(kkt.method_used()).c_str(),
        static_cast<long long>(result->kkt_dim),
        static_cast<long long>(result->kkt_nnz), result->objective_constant,
        static_cast<long long>(max_bytes_after_first),
        static_cast<long long>(max_round_trips_after_first), budget,
        within_budget ? "true" : "false", all_reused ? "true" : "false",
        JsonEscape(kkt.matrix_id()).c_str(),
        static_cast<long long>((*client)->retries()),
        static_cast<long long>((*client)->reuploads()),
        JsonEscape(result->message).c_str());
  } else {
    std::printf(
        "status %s  objective %.12e  iterations %d  matrix %s  retries %lld  "
        "re-uploads %lld  %s\n",
        status, result->objective, result->iterations, kkt.matrix_id().c_str(),
        static_cast<long long>((*client)->retries()),
        static_cast<long long>((*client)->reuploads()),
        result->message.c_str());
  }
  return result->status == factord::ipm::IpmStatus::kOptimal ? 0 : 3;
}
