#include "client/ipm/ipm_flags.h"

#include <string>
#include <vector>

#include "client/cli/cli_app.h"

namespace factord::ipm {

void ConfigureIpmApp(CLI::App& app, IpmFlags& flags) {
  app.description(
      "Solves an LP (fixed MPS) or a convex QP (QPS), gzipped or not, with a "
      "Mehrotra interior-point method whose KKT solves all go through a "
      "factord daemon. Prints one line per iteration and a final line with "
      "the status and objective. Exit code: 0 optimal, 1 error, 2 a "
      "command-line mistake, 3 not optimal.");
  cli::ConfigureApp(app, "factord-ipm");
  app.add_option("file", flags.file, "the LP or QP (MPS/QPS, .gz too)")
      ->required()
      ->type_name("FILE.mps[.gz]");
  app.add_option("--server", flags.server, "factord (or proxy) address")
      ->required()
      ->type_name("HOST:PORT");
  app.add_flag("--json", flags.json,
               "print JSON lines (per iteration, with the KKT matrix's ID, "
               "and a final one with the figures)");
  app.add_option("--method", flags.method,
                 "factorization method of the KKT matrix (lu: the "
                 "regularization goes into the values)")
      ->type_name("NAME");
  app.add_option("--ordering", flags.ordering, "fill-reducing ordering")
      ->type_name("NAME");
  app.add_option("--krylov", flags.krylov,
                 "Krylov method of the solves (none: the factorization "
                 "alone, with the daemon's refinement)")
      ->type_name("NAME");
  app.add_option("--max_iterations", flags.max_iterations, "iteration limit")
      ->type_name("N");
  app.add_option("--tolerance", flags.tolerance,
                 "relative infeasibilities and gap for optimality")
      ->type_name("T");
  app.add_option("--primal_regularization", flags.primal_regularization,
                 "delta_p on the scaled problem (negative: the IPM's "
                 "default)")
      ->type_name("D");
  app.add_option("--dual_regularization", flags.dual_regularization,
                 "delta_d on the scaled problem (negative: the IPM's "
                 "default)")
      ->type_name("D");
  app.add_option("--max_attempts", flags.max_attempts,
                 "attempts per call: calls that failed in transit (a daemon "
                 "restarting, a proxy's 502 or 503, a stream reset) are "
                 "retried with backoff, 0.1 s doubling to 2 s, within 15 s "
                 "(the client library's policy; 1: no retry); a matrix the "
                 "daemon lost is uploaded again in any case")
      ->type_name("N")
      ->check(CLI::Range(1, 100));
  app.add_option("--iteration_delay_ms", flags.iteration_delay_ms,
                 "test aid: pause after each iteration's line, so that a "
                 "script watching the output acts between two iterations")
      ->type_name("MS")
      ->check(CLI::Range(0, 60000));
  app.add_option("--stop_after_iteration", flags.stop_after_iteration,
                 "test aid: after this iteration's line the program stops "
                 "itself (SIGSTOP) until it gets SIGCONT, so that a script "
                 "acts between this iteration and the next whatever the "
                 "machine's load (-1: never)")
      ->type_name("K")
      ->check(CLI::Range(-1, 1000000));
}

ParsedIpmFlags ParseIpmFlags(int argc, const char* const* argv) {
  ParsedIpmFlags parsed;
  CLI::App app;
  ConfigureIpmApp(app, parsed.flags);
  try {
    app.parse(argc, argv);
    // Given, but empty (--server=).
    if (parsed.flags.server.empty()) throw CLI::RequiredError("--server");
    if (parsed.flags.file.empty()) throw CLI::RequiredError("file");
  } catch (const CLI::RequiredError& error) {
    // CLI11 checks required flags before unknown ones: a misspelt flag
    // (--sever=...) is reported as such, not as the --server it missed.
    const std::vector<std::string> unknown = app.remaining();
    parsed.exit_code = unknown.empty() ? cli::ReportParseOutcome(app, error)
                                       : cli::ReportParseOutcome(
                                             app, CLI::ExtrasError(unknown));
  } catch (const CLI::ParseError& error) {
    parsed.exit_code = cli::ReportParseOutcome(app, error);
  }
  return parsed;
}

}  // namespace factord::ipm
