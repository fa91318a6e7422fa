// factorctl: the command line client of factord (see args.cc for usage).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "client/factorctl/args.h"
#include "client/factorctl/commands.h"
#include "client/factord_client.h"

namespace {

// "INVALID_ARGUMENT: message [REASON]" on stderr and, with --json, the
// failure as one JSON object on stdout; exit status 1.
int Fail(const absl::Status& status, bool json, const std::string& command,
         const std::string& id) {
  std::fprintf(stderr, "%s\n", factord::factorctl::FailureText(status).c_str());
  if (json) {
    std::printf("%s\n",
                factord::factorctl::FailureJson(command, id, status).c_str());
  }
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace factord;
  const char* env_server = std::getenv("FACTORD_SERVER");
  const std::string default_server =
      env_server != nullptr && *env_server != '\0' ? env_server
                                                   : "127.0.0.1:50051";
  absl::StatusOr<factorctl::CommandLine> line =
      factorctl::ParseCommandLine(argc, argv, default_server);
  if (!line.ok()) {
    return Fail(line.status(), factorctl::JsonRequested(argc, argv), "", "");
  }
  if (line->help) {
    std::fputs(factorctl::Usage(), stdout);
    return 0;
  }

  client::ConnectOptions options;
  options.token = line->token;
  options.tls = line->tls;
  options.tls_ca_file = line->tls_ca;
  options.tls_cert_file = line->tls_cert;
  options.tls_key_file = line->tls_key;
  if (line->timeout_s) options.rpc_timeout = absl::Seconds(*line->timeout_s);
  absl::StatusOr<std::unique_ptr<client::Client>> client =
      client::Client::Connect(line->server, options);
  if (!client.ok()) {
    return Fail(client.status(), line->json, line->command, line->id);
  }

  factorctl::Outcome outcome;
  if (absl::Status s = factorctl::RunCommand(*line, **client, &outcome);
      !s.ok()) {
    return Fail(s, line->json, line->command, outcome.id);
  }
  const std::string text = line->json ? factorctl::OutcomeJson(outcome) + "\n"
                                      : factorctl::OutcomeText(outcome);
  std::fputs(text.c_str(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}
