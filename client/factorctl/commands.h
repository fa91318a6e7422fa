// factorctl's commands: each gathers what it did into an Outcome, which is
// then printed once, as one JSON object (--json) or as a short summary.
#ifndef FACTORD_CLIENT_FACTORCTL_COMMANDS_H_
#define FACTORD_CLIENT_FACTORCTL_COMMANDS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "client/factorctl/args.h"
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
// InvalidArgument naming the file; server errors keep their code.
absl::Status RunCommand(const CommandLine& line, client::Client& client,
                        Outcome* outcome);

// The outcome as exactly one JSON object (no trailing newline).
std::string OutcomeJson(const Outcome& outcome);
// The outcome as a few readable lines.
std::string OutcomeText(const Outcome& outcome);

// A failed command as exactly one JSON object (no trailing newline):
// "command" (when known), "id" (when given), "code" (the status code name,
// e.g. "NOT_FOUND"), "reason" (the ErrorInfo reason, "" when none),
// "message", and when the error carries them "retry_delay_s", "metadata"
// (an object) and "field_violations" (an array of {"field",
// "description"}).
std::string FailureJson(const std::string& command, const std::string& id,
                        const absl::Status& status);

// A failed command as one line for stderr: "CODE: message", then
// " [REASON]" when the error has a reason.
std::string FailureText(const absl::Status& status);

}  // namespace factord::factorctl

#endif  // FACTORD_CLIENT_FACTORCTL_COMMANDS_H_
