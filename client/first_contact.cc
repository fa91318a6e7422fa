// Telling a daemon never reached from one gone (see first_contact.h).
#include "client/first_contact.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "client/grpc_status.h"
#include "factord/v1/solver.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace factord::client::internal {
namespace {

// How long the call that asks gRPC why the connection failed may take: it
// fails at once while the channel is in TRANSIENT_FAILURE.
constexpr absl::Duration kCauseProbeTimeout = absl::Seconds(1);

// The HOST:PORT of a gRPC target, for factord's --listen.
absl::string_view ListenAddress(absl::string_view target) {
  for (absl::string_view scheme : {"dns:///", "dns:", "ipv4:", "ipv6:"}) {
    if (absl::ConsumePrefix(&target, scheme)) break;
  }
  return target;
}

// After the first connection failed: gRPC's account of why, from a call
// that fails without being sent (the channel is in TRANSIENT_FAILURE and
// the call does not wait for it). OK when the call got an answer from the
// far end after all (the channel connected meanwhile).
absl::Status FirstConnectionFailure(const ClientChannel& channel) {
  grpc::ClientContext context;
  PrepareCall(channel, /*matrix_id=*/"", &context);
  context.set_deadline(absl::ToChronoTime(absl::Now() + kCauseProbeTimeout));
  ::factord::v1::ServerInfoReply reply;
  absl::Status status = FromGrpcStatus(channel.stub->ServerInfo(
      &context, ::factord::v1::ServerInfoRequest(), &reply));
  return WithoutServerDetails(status) ? status : absl::OkStatus();
}

}  // namespace

absl::Status AwaitFirstContact(ClientChannel& channel, absl::Time deadline) {
  if (channel.reached.load(std::memory_order_acquire)) return absl::OkStatus();
  grpc_connectivity_state state = channel.channel->GetState(true);
  while (state != GRPC_CHANNEL_READY) {
    if (state == GRPC_CHANNEL_TRANSIENT_FAILURE ||
        state == GRPC_CHANNEL_SHUTDOWN) {
      absl::Status failure = FirstConnectionFailure(channel);
      if (failure.ok()) break;
      return NeverReachedError(channel.target, failure.message());
    }
    if (!channel.channel->WaitForStateChange(state,
                                             absl::ToChronoTime(deadline))) {
      return ClientError(absl::StatusCode::kDeadlineExceeded,
                         "DEADLINE_EXCEEDED",
                         absl::StrCat("no connection to ", channel.target,
                                      " within the call's deadline"));
    }
    state = channel.channel->GetState(true);
  }
  channel.reached.store(true, std::memory_order_release);
  return absl::OkStatus();
}

bool AwaitConnection(ClientChannel& channel, absl::Time deadline) {
  return channel.channel->WaitForConnected(absl::ToChronoTime(deadline));
}

absl::Status NeverReachedError(absl::string_view target,
                               absl::string_view cause) {
  return ClientError(
      absl::StatusCode::kUnavailable, "UNAVAILABLE",
      absl::StrCat(
          "no factord daemon answers at ", target, " (", cause,
          "): start one with `factord --listen=", ListenAddress(target),
          "`, or give the address of one that runs"),
      /*field=*/"",
      {{"target", std::string(target)}, {"first_connection", "failed"}});
}

}  // namespace factord::client::internal
