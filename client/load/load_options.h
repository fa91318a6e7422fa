// Command-line options of factord-load on the client programs' conventions
// (client/cli/cli_app.h, CLI11): `--name=value` or `--name value`, a
// repeated flag keeps its last value (--matrices accumulates), switches
// take an optional `=true|false`.
#ifndef FACTORD_CLIENT_LOAD_LOAD_OPTIONS_H_
#define FACTORD_CLIENT_LOAD_LOAD_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "client/factord_client.h"

namespace factord::load {

// One matrix of the workload: `path` (Matrix Market), factorization method
// and Krylov method used with it. Spec syntax: path[:method[:krylov]].
struct MatrixSpec {
  std::string path;
  std::string method = "ldlt";
  std::string krylov = "auto";
};

struct LoadOptions {
  std::string server = "127.0.0.1:50051";
  std::string token;  // empty: $FACTORD_TOKEN (the client library's rule)
  int clients = 4;
  int operations = 50;  // per client (per round in soak mode)
  bool json = false;
  double soak_seconds = 0;  // > 0: repeat rounds this long
  int64_t daemon_pid = 0;   // > 0: sample /proc/PID/status VmRSS
  double sample_seconds = 5;
  bool allow_limits = false;  // RESOURCE_EXHAUSTED is not an error
  double rpc_timeout_s = 120;
  uint64_t seed = 1;
  // Behind a proxy with failover (docs/fleet.md): attempts per call (the
  // client library's RetryPolicy, on by default; 1 = no retry) and the
  // transparent re-upload after NOT_FOUND
  // (ConnectOptions::reupload_on_not_found).
  int max_attempts = client::RetryPolicy{}.max_attempts;
  bool reupload = false;
  std::vector<MatrixSpec> matrices;  // empty: the standard workload
};

// Makes `app` factord-load's command line: cli::ConfigureApp's conventions
// (--help with defaults, --version) and every flag, bound to `options`,
// which must outlive `app` and hold the defaults to show (a
// default-constructed LoadOptions for the program). --matrices appends to
// options.matrices.
void ConfigureLoadApp(CLI::App& app, LoadOptions& options);

// The outcome of factord-load's command line: the options to run with, or
// the code to exit with at once (0 after --help or --version, printed to
// stdout; cli::kUsageExitCode after a mistake, reported on stderr by
// cli::ReportParseOutcome).
struct ParsedLoadOptions {
  LoadOptions options;
  std::optional<int> exit_code;
};

// Parses argv[1..argc) with ConfigureLoadApp. Does not keep `argv`.
ParsedLoadOptions ParseLoadOptions(int argc, const char* const* argv);

// The standard workload, both from the source tree's tests/data
// (`tests_data_dir`): bcsstk13 (ldlt) and the KKT system
// kkt/cvxqp1_s/2x2/iter_0/K_0.mtx (n = 550, ldlt).
std::vector<MatrixSpec> StandardWorkload(const std::string& tests_data_dir);

}  // namespace factord::load

#endif  // FACTORD_CLIENT_LOAD_LOAD_OPTIONS_H_
