// libfactord_remote.so.1's one export (remote.h): a Client of the daemon,
// for libfactord_c.so to use behind the Endpoint interface.
#include <memory>

#include "capi/remote.h"
#include "client/factord_client.h"

extern "C" __attribute__((visibility("default"))) factord::client::Endpoint*
factord_remote_connect_v1(const char* target,
                          const factord::client::ConnectOptions* options,
                          absl::Status* status) {
  absl::StatusOr<std::unique_ptr<factord::client::Client>> client =
      factord::client::Client::Connect(target, *options);
  if (!client.ok()) {
    *status = client.status();
    return nullptr;
  }
  *status = absl::OkStatus();
  return client->release();
}
