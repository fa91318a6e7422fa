// How factorctl reports a failure: its exit code, the human line for stderr
// and, with --json, the failure object for stdout (docs/factorctl_json.md).
//
// A failure's `reason` is factord's ErrorReason name when the status carries
// an ErrorInfo (sent by the daemon, or made by the client library with the
// same names, client/status_details.h). A failure factorctl finds itself,
// before or instead of a call, carries one of the local reasons below,
// kept on the status under kLocalReasonKey.
#ifndef FACTORD_CLIENT_FACTORCTL_FAILURE_H_
#define FACTORD_CLIENT_FACTORCTL_FAILURE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace factord::factorctl {

// The `schema` member of every JSON object factorctl prints.
inline constexpr char kJsonSchema[] = "factorctl/1";

// Exit codes: the command succeeded; it failed (the daemon refused it, a
// local file was bad, the daemon could not be reached); the command line is
// wrong (client/cli/cli_app.h's kUsageExitCode, checked in args.cc).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// Local reasons (never sent by a daemon):
// the command line is wrong (unknown flag or command, missing or bad value);
inline constexpr char kReasonUsage[] = "USAGE";
// a local input file (matrix, --rhs) cannot be opened or read;
inline constexpr char kReasonFileUnreadable[] = "FILE_UNREADABLE";
// the --solution file cannot be written;
inline constexpr char kReasonFileUnwritable[] = "FILE_UNWRITABLE";
// the matrix file is malformed, not square, or not symmetric for
// --structure=symmetric|spd (the daemon's name for an invalid matrix);
inline constexpr char kReasonInvalidMatrix[] = "INVALID_MATRIX";
// the --rhs file is malformed or of the wrong length (the daemon's name for
// a malformed request).
inline constexpr char kReasonInvalidRequest[] = "INVALID_REQUEST";

// The payload key of a local reason.
inline constexpr char kLocalReasonKey[] = "factorctl/reason";

// A failure found by factorctl: `code`, `message`, and the local `reason`.
absl::Status LocalError(absl::StatusCode code, absl::string_view reason,
                        absl::string_view message);

// The reason of `status`: its ErrorInfo reason, else its local reason, else
// "" (OK included). Does not modify `status`.
std::string FailureReason(const absl::Status& status);

// A failed command as exactly one JSON object (no trailing newline):
// "schema", "command" (when known), "id" (when given), "code" (the status
// code name, e.g. "NOT_FOUND"), "reason" (FailureReason, "" when none),
// "message", and when the error carries them "retry_delay_s", "metadata"
// (an object) and "field_violations" (an array of {"field",
// "description"}).
std::string FailureJson(const std::string& command, const std::string& id,
                        const absl::Status& status);

// A failed command as one line for stderr: "CODE: message", then
// " [REASON]" when the failure has a reason.
std::string FailureText(const absl::Status& status);

}  // namespace factord::factorctl

#endif  // FACTORD_CLIENT_FACTORCTL_FAILURE_H_
