// factord-ipm's command line on the client programs' conventions
// (client/cli/cli_app.h, CLI11): every flag, its default and its check in
// one place, so that the program and the tests build the same CLI::App.
// Both `--name=value` and `--name value` are accepted; a flag given twice
// keeps its last value.
#ifndef FACTORD_CLIENT_IPM_IPM_FLAGS_H_
#define FACTORD_CLIENT_IPM_IPM_FLAGS_H_

#include <optional>
#include <string>

#include "CLI/CLI.hpp"
#include "client/factord_client.h"
#include "client/ipm/ipm.h"

namespace factord::ipm {

// What the command line sets. The IPM's parameters default to IpmOptions';
// a negative regularization also means "IpmOptions' default".
struct IpmFlags {
  std::string server;  // HOST:PORT of the daemon (required)
  std::string file;    // the MPS/QPS file, optionally gzipped (required)
  bool json = false;
  std::string method = "ldlt";
  std::string ordering = "auto";
  std::string krylov = "none";
  int max_iterations = IpmOptions{}.max_iterations;
  double tolerance = IpmOptions{}.tolerance;
  double primal_regularization = IpmOptions{}.primal_regularization;
  double dual_regularization = IpmOptions{}.dual_regularization;
  // The client library's RetryPolicy (retries on by default); 1: no retry.
  int max_attempts = client::RetryPolicy{}.max_attempts;
  int iteration_delay_ms = 0;  // test aid: pause after each iteration
  // Test aid: stop (SIGSTOP) after this iteration's line; -1: never.
  int stop_after_iteration = -1;
};

// Makes `app` factord-ipm's command line: cli::ConfigureApp's conventions
// (--help with defaults, --version) and every flag, bound to `flags`, which
// must outlive `app` and hold the defaults to show (a default-constructed
// IpmFlags for the program).
void ConfigureIpmApp(CLI::App& app, IpmFlags& flags);

// The outcome of factord-ipm's command line: the flags to run with, or the
// code to exit with at once (0 after --help or --version, printed to
// stdout; cli::kUsageExitCode after a mistake, reported on stderr by
// cli::ReportParseOutcome).
struct ParsedIpmFlags {
  IpmFlags flags;
  std::optional<int> exit_code;
};

// Parses argv[1..argc) with ConfigureIpmApp. Does not keep `argv`.
ParsedIpmFlags ParseIpmFlags(int argc, const char* const* argv);

}  // namespace factord::ipm

#endif  // FACTORD_CLIENT_IPM_IPM_FLAGS_H_
