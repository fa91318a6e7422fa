// factorctl's commands: each gathers what it did into an Outcome, which is
// then printed once, as one JSON object (--json) or as a short summary.
#ifndef FACTORD_CLIENT_FACTORCTL_COMMANDS_H_
#define FACTORD_CLIENT_FACTORCTL_COMMANDS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "client/factorctl/args.h"
#include "client/factorctl/failure.h"
#include "client/factord_client.h"

namespace factord::factorctl {

// What one command did; only the parts that apply are set.
struct Outcome {
  std::string command;
  std::string id;
  std::optional<client::MatrixInfo> matrix;       // upload, update, get, run
  std::optional<client::FactorizeResult> factor;  // factorize, run
  std::optional<client::SolveResult> solve;       // solve, run
  std::optional<int64_t> bytes_freed;             // release (run: freed)
  std::optional<std::vector<client::MatrixInfo>> matrices;  // list
  std::optional<client::ServerInfo> server;                 // info
  std::optional<double> read_s;    // reading local files
  std::optional<double> upload_s;  // Upload / UpdateValues, client wall time
  double total_s = 0;              // the whole command, client wall time
};

// Runs `line.command` against `client`. Local file problems are
// InvalidArgument naming the file, with a local reason (failure.h); server
// errors keep their code and details.
absl::Status RunCommand(const CommandLine& line, client::Client& client,
                        Outcome* outcome);

// The outcome as exactly one JSON object (no trailing newline), its first
// member "schema" (kJsonSchema); docs/factorctl_json.md lists the members.
std::string OutcomeJson(const Outcome& outcome);
// The outcome as a few readable lines.
std::string OutcomeText(const Outcome& outcome);

}  // namespace factord::factorctl

#endif  // FACTORD_CLIENT_FACTORCTL_COMMANDS_H_
