// Opening the channel and preparing each call (see channel.h).
#include "client/channel.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "client/first_contact.h"
#include "client/grpc_status.h"

namespace factord::client::internal {
namespace {

// The whole of a PEM file named by ConnectOptions::`option`.
absl::StatusOr<std::string> ReadPem(absl::string_view option,
                                    const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || text.str().empty()) {
    return ClientError(
        absl::StatusCode::kInvalidArgument, "INVALID_OPTION",
        absl::StrCat(option, ": cannot read '", path, "' (or it is empty)"),
        option);
  }
  return text.str();
}

// Plaintext, TLS, or TLS with a client certificate (mutual TLS).
absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> ChannelCredentialsFor(
    const ConnectOptions& o) {
  if (!o.tls && o.tls_ca_file.empty() && o.tls_cert_file.empty() &&
      o.tls_key_file.empty()) {
    return grpc::InsecureChannelCredentials();
  }
  if (o.tls_cert_file.empty() != o.tls_key_file.empty()) {
    return ClientError(
        absl::StatusCode::kInvalidArgument, "INVALID_OPTION",
        "tls_cert_file and tls_key_file go together (client certificate)",
        o.tls_cert_file.empty() ? "tls_cert_file" : "tls_key_file");
  }
  grpc::SslCredentialsOptions ssl;
  for (auto [option, path, field] :
       {std::tuple{"tls_ca_file", &o.tls_ca_file, &ssl.pem_root_certs},
        std::tuple{"tls_cert_file", &o.tls_cert_file, &ssl.pem_cert_chain},
        std::tuple{"tls_key_file", &o.tls_key_file, &ssl.pem_private_key}}) {
    if (path->empty()) continue;
    absl::StatusOr<std::string> pem = ReadPem(option, *path);
    if (!pem.ok()) return pem.status();
    *field = *std::move(pem);
  }
  return grpc::SslCredentials(ssl);
}

}  // namespace

absl::StatusOr<std::unique_ptr<ClientChannel>> OpenChannel(
    absl::string_view target, const ConnectOptions& options) {
  if (target.empty()) {
    return ClientError(absl::StatusCode::kInvalidArgument, "INVALID_OPTION",
                       "empty server target", "target");
  }
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(static_cast<int>(std::min<int64_t>(
      options.max_receive_message_bytes, std::numeric_limits<int>::max())));
  if (options.max_reconnect_backoff > absl::ZeroDuration()) {
    const int ms = static_cast<int>(std::clamp<int64_t>(
        absl::ToInt64Milliseconds(options.max_reconnect_backoff), 1,
        std::numeric_limits<int>::max()));
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, std::min(ms, 1000));
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, ms);
    // The channel reconnects after re-resolving its target, which the DNS
    // resolver otherwise allows only every 30 s.
    args.SetInt(GRPC_ARG_DNS_MIN_TIME_BETWEEN_RESOLUTIONS_MS, ms);
  }
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials =
      ChannelCredentialsFor(options);
  if (!credentials.ok()) return credentials.status();
  auto channel = std::make_unique<ClientChannel>();
  channel->channel =
      grpc::CreateCustomChannel(std::string(target), *credentials, args);
  channel->stub = ::factord::v1::Solver::NewStub(channel->channel);
  channel->rpc_timeout = options.rpc_timeout;
  channel->token = options.token;
  if (channel->token.empty()) {
    if (const char* env = std::getenv("FACTORD_TOKEN"); env != nullptr) {
      channel->token = env;
    }
  }
  channel->target = std::string(target);
  if (options.connect_timeout > absl::ZeroDuration()) {
    absl::Status reached =
        AwaitFirstContact(*channel, absl::Now() + options.connect_timeout);
    if (absl::IsDeadlineExceeded(reached)) {
      return ClientError(
          absl::StatusCode::kUnavailable, "UNAVAILABLE",
          absl::StrCat("cannot connect to ", target, " within ",
                       absl::FormatDuration(options.connect_timeout)));
    }
    if (!reached.ok()) return reached;
  }
  return channel;
}

void PrepareCall(const ClientChannel& channel, absl::string_view matrix_id,
                 grpc::ClientContext* context) {
  if (channel.rpc_timeout != absl::InfiniteDuration()) {
    context->set_deadline(
        absl::ToChronoTime(absl::Now() + channel.rpc_timeout));
  }
  if (!channel.token.empty()) {
    context->AddMetadata("authorization",
                         absl::StrCat("Bearer ", channel.token));
  }
  if (!matrix_id.empty()) {
    context->AddMetadata(kMatrixIdHeader, std::string(matrix_id));
  }
}

}  // namespace factord::client::internal
