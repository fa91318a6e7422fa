// factorctl: the command line client of factord (args.h for the command
// line, docs/factorctl_json.md for --json output and exit codes).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "client/factorctl/args.h"
#include "client/factorctl/commands.h"
#include "client/factorctl/failure.h"
#include "client/factord_client.h"

namespace {

// "CODE: message [REASON]" on stderr and, with --json, the failure as one
// JSON object on stdout.
int Fail(const absl::Status& status, bool json, const std::string& command,
         const std::string& id) {
  std::fprintf(stderr, "%s\n", factord::factorctl::FailureText(status).c_str());
  if (json) {
    std::printf("%s\n",
                factord::factorctl::FailureJson(command, id, status).c_str());
  }
  return factord::factorctl::kExitFailure;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace factord;
  const char* env_server = std::getenv("FACTORD_SERVER");
  const std::string default_server =
      env_server != nullptr && *env_server != '\0' ? env_server
                                                   : "127.0.0.1:50051";
  factorctl::ParsedCommandLine parsed =
      factorctl::ParseCommandLine(argc, argv, default_server);
  if (parsed.exit_code) {
    // --help, --version, or a mistake already reported on stderr.
    if (!parsed.mistake.ok() && factorctl::JsonRequested(argc, argv)) {
      std::printf("%s\n", factorctl::FailureJson(parsed.line.command,
                                                 parsed.line.id, parsed.mistake)
                              .c_str());
    }
    return *parsed.exit_code;
  }
  const factorctl::CommandLine& line = parsed.line;

  client::ConnectOptions options;
  options.token = line.token;
  options.tls = line.tls;
  options.tls_ca_file = line.tls_ca;
  options.tls_cert_file = line.tls_cert;
  options.tls_key_file = line.tls_key;
  if (line.timeout_s) options.rpc_timeout = absl::Seconds(*line.timeout_s);
  options.retry.max_attempts = line.max_attempts;
  absl::StatusOr<std::unique_ptr<client::Client>> client =
      client::Client::Connect(line.server, options);
  if (!client.ok()) {
    return Fail(client.status(), line.json, line.command, line.id);
  }

  factorctl::Outcome outcome;
  if (absl::Status s = factorctl::RunCommand(line, **client, &outcome);
      !s.ok()) {
    return Fail(s, line.json, line.command, outcome.id);
  }
  const std::string text = line.json ? factorctl::OutcomeJson(outcome) + "\n"
                                     : factorctl::OutcomeText(outcome);
  std::fputs(text.c_str(), stdout);
  return std::fflush(stdout) == 0 ? factorctl::kExitOk
                                  : factorctl::kExitFailure;
}
