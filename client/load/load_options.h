// Command-line options of factord-load, parsed from `--name=value` (or
// `--name value`) arguments without any flags library.
#ifndef FACTORD_CLIENT_LOAD_LOAD_OPTIONS_H_
#define FACTORD_CLIENT_LOAD_LOAD_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

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
  // client's RetryPolicy; 1 = no retry) and the transparent re-upload after
  // NOT_FOUND (ConnectOptions::reupload_on_not_found).
  int max_attempts = 1;
  bool reupload = false;
  std::vector<MatrixSpec> matrices;  // empty: the standard workload
};

// The usage text printed by --help.
std::string LoadUsage();

// Parses argv[1..argc). Unknown flags and bad values are InvalidArgument.
// `--help` yields a NotFound status whose message is the usage text.
absl::StatusOr<LoadOptions> ParseLoadOptions(int argc, char** argv);

// The standard workload, both from the source tree's tests/data
// (`tests_data_dir`): bcsstk13 (ldlt) and the KKT system
// kkt/cvxqp1_s/2x2/iter_0/K_0.mtx (n = 550, ldlt).
std::vector<MatrixSpec> StandardWorkload(const std::string& tests_data_dir);

}  // namespace factord::load

#endif  // FACTORD_CLIENT_LOAD_LOAD_OPTIONS_H_
