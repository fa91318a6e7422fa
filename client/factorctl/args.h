// factorctl's command line: a command, its positional arguments and flags,
// in any order (`factorctl --json run m.mtx --method=ldlt`). Flags are
// `--name=value` or `--name value`; `--json` and `--keep` are switches.
// Parsed by hand (not absl flags) so that every mistake is reported as
// `INVALID_ARGUMENT: ...` on stderr like any other failure.
#ifndef FACTORD_CLIENT_FACTORCTL_ARGS_H_
#define FACTORD_CLIENT_FACTORCTL_ARGS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "client/factord_client.h"

namespace factord::factorctl {

struct CommandLine {
  std::string command;                  // upload | update | ... | info
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
  bool keep = false;  // run: keep the matrix on the server afterwards
  bool help = false;
  client::FactorizeOptions factorize;
  client::SolveOptions solve;
};

// Parses argv[1..argc). `default_server` is used when --server is absent.
absl::StatusOr<CommandLine> ParseCommandLine(int argc, const char* const* argv,
                                             const std::string& default_server);

// The --help text.
const char* Usage();

}  // namespace factord::factorctl

#endif  // FACTORD_CLIENT_FACTORCTL_ARGS_H_
