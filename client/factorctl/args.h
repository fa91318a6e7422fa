// factorctl's command line, on CLI11 with the conventions every client
// program shares (client/cli/cli_app.h: --version, defaults in --help, one
// way to report a mistake, exit code 2). A command (a CLI11 subcommand), its
// FILE when it takes one, and flags in any position (`factorctl --json run
// m.mtx --method=ldlt`): every flag belongs to factorctl itself, and a
// command hands the flags it does not know back to it (CLI11's
// fallthrough). Flags are `--name=value` or `--name value`; switches
// (`--json`, `--keep`, ...) also take `=true|false`.
#ifndef FACTORD_CLIENT_FACTORCTL_ARGS_H_
#define FACTORD_CLIENT_FACTORCTL_ARGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
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
  // --max_attempts: attempts per call (the client library's RetryPolicy).
  int max_attempts = client::RetryPolicy{}.max_attempts;
  bool json = false;
  bool keep = false;     // run: keep the matrix on the server afterwards
  bool replace = false;  // upload/run: replace a matrix held under --id
  // update/factorize/solve (and run's): the generation the call expects
  // (0: no check).
  uint64_t expected_generation = 0;
  client::FactorizeOptions factorize;
  client::SolveOptions solve;
};

// A command line read by ParseCommandLine.
struct ParsedCommandLine {
  // The command line; on a mistake, as far as it was read (`command` is set
  // when the command was recognized).
  CommandLine line;
  // Set when factorctl is to exit without running a command: 0 after --help
  // or --version (printed on stdout), 2 (cli::kUsageExitCode) after a
  // mistake (reported on stderr).
  std::optional<int> exit_code;
  // The mistake: INVALID_ARGUMENT with the local reason USAGE (failure.h),
  // or with reason INVALID_OPTION and a BadRequest naming the request field
  // when an enumeration flag (--method, --krylov, --ordering, --pivoting,
  // --scaling, --blocking, --trisolve) has a value that is not one of the
  // wire contract's names (client/option_names.h), or when a flag of an
  // option set by name (--pivot_threshold, --deterministic) has a value not
  // of its field's type (client::CheckNamedOption). Its message is what
  // stderr shows after "factorctl: ". OK otherwise.
  absl::Status mistake;
};

// Parses argv[0..argc) (argv[0] is the program's name). `default_server` is
// --server's default. Prints --help, --version and a mistake itself
// (cli::ReportParseOutcome); a mistake's failure object (--json) is the
// caller's to print.
ParsedCommandLine ParseCommandLine(int argc, const char* const* argv,
                                   const std::string& default_server);

// Whether argv asks for JSON output (the last --json / --json=BOOL before a
// "--"), read without parsing the rest: so that a command line that does
// not parse still gets its failure as JSON.
bool JsonRequested(int argc, const char* const* argv);

// What `factorctl --help` prints; with `command`, what `factorctl COMMAND
// --help` prints.
std::string HelpText(const std::string& default_server,
                     const std::string& command = "");

}  // namespace factord::factorctl

#endif  // FACTORD_CLIENT_FACTORCTL_ARGS_H_
