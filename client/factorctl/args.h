// factorctl's command line: a command, its positional arguments and flags,
// in any order (`factorctl --json run m.mtx --method=ldlt`). Flags are
// `--name=value` or `--name value`; `--json` and `--keep` are switches.
// Parsed by hand (not absl flags) so that every mistake is reported as
// `INVALID_ARGUMENT: ...` on stderr like any other failure.
#ifndef FACTORD_CLIENT_FACTORCTL_ARGS_H_
#define FACTORD_CLIENT_FACTORCTL_ARGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "client/factord_client.h"

namespace factord::factorctl {

struct CommandLine {
  std::string command;                  // upload | update | ... | get | info
  std::vector<std::string> positional;  // after the command (FILE)
  std::string server;                   // HOST:PORT
  std::string id;
  std::string token;
  bool tls = false;      // --tls: TLS with the system's roots
  std::string tls_ca;    // --tls_ca: CA of the server (implies TLS)
  std::string tls_cert;  // --tls_cert / --tls_key: client certificate
  std::string tls_key;
  std::string rhs_file;             // --rhs; empty: all ones
  std::string solution_file;        // --solution: write x, one value per line
  std::string structure = "auto";   // auto | general | symmetric | spd
  std::optional<double> timeout_s;  // --timeout: deadline of each RPC
  bool json = false;
  bool keep = false;     // run: keep the matrix on the server afterwards
  bool replace = false;  // upload/run: replace a matrix held under --id
  // update/factorize/solve (and run's): the generation the call expects
  // (0: no check).
  uint64_t expected_generation = 0;
  bool help = false;
  client::FactorizeOptions factorize;
  client::SolveOptions solve;
};

// Parses argv[1..argc). `default_server` is used when --server is absent.
// Enumeration flags (--method, --krylov, --ordering, --pivoting, --scaling,
// --blocking, --trisolve) take the names the client library derives from
// the wire contract (client/option_names.h); a wrong one is
// INVALID_ARGUMENT with reason INVALID_OPTION.
absl::StatusOr<CommandLine> ParseCommandLine(int argc, const char* const* argv,
                                             const std::string& default_server);

// Whether argv asks for JSON output (the last --json / --json=BOOL before a
// "--"), read without parsing the rest: so that a command line that does
// not parse still gets its failure as JSON.
bool JsonRequested(int argc, const char* const* argv);

// The --help text.
const char* Usage();

}  // namespace factord::factorctl

#endif  // FACTORD_CLIENT_FACTORCTL_ARGS_H_
