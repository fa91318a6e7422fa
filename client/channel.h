// The gRPC side of a Client: channel, stub, credentials (plaintext, TLS,
// mutual TLS), the bearer token, and the metadata every call carries.
// Internal to the client library.
#ifndef FACTORD_CLIENT_CHANNEL_H_
#define FACTORD_CLIENT_CHANNEL_H_

#include <atomic>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "client/factord_client.h"
#include "factord/v1/solver.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace factord::client::internal {

struct ClientChannel {
  std::string target;  // as given to Connect
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<::factord::v1::Solver::Stub> stub;
  std::string token;  // ConnectOptions::token, else $FACTORD_TOKEN
  absl::Duration rpc_timeout = absl::InfiniteDuration();
  // Set once the channel has been connected (first_contact.h): from then
  // on a failed connection is a daemon gone, to wait for, not a daemon
  // never there.
  std::atomic<bool> reached{false};
};

// A channel to `target` as `options` ask. InvalidArgument (INVALID_OPTION,
// naming the option) when a TLS file cannot be read. When
// options.connect_timeout is positive, waits for the first connection
// (AwaitFirstContact, first_contact.h): UNAVAILABLE when it fails or does
// not come in time.
absl::StatusOr<std::unique_ptr<ClientChannel>> OpenChannel(
    absl::string_view target, const ConnectOptions& options);

// Sets the deadline, the bearer token and, when `matrix_id` is not empty,
// the routing header kMatrixIdHeader of one call.
void PrepareCall(const ClientChannel& channel, absl::string_view matrix_id,
                 grpc::ClientContext* context);

}  // namespace factord::client::internal

#endif  // FACTORD_CLIENT_CHANNEL_H_
