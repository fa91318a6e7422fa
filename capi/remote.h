// The daemon side of the C API: the gRPC client lives in a library of its
// own, libfactord_remote.so.1, beside libfactord_c.so, and is loaded the
// first time a handle connects to a daemon. A process that works in
// process only (FACTORD_SERVER=local, or none configured) never loads
// gRPC, which costs more to load (tens of milliseconds) than a small
// optimization problem takes to solve. Internal to libfactord_c.
#ifndef FACTORD_CAPI_REMOTE_H_
#define FACTORD_CAPI_REMOTE_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "client/factord_client.h"

// The entry point libfactord_remote.so.1 exports: connects a Client to
// `target` with `options` (as Client::Connect); on failure returns null
// and sets *status. The caller owns the result.
extern "C" {
using factord_remote_connect_fn =
    factord::client::Endpoint* (*)(const char* target,
                                   const factord::client::ConnectOptions*
                                       options,
                                   absl::Status* status);
}
inline constexpr char kFactordRemoteConnectSymbol[] =
    "factord_remote_connect_v1";
inline constexpr char kFactordRemoteLibrary[] = "libfactord_remote.so.1";

namespace factord::capi {

// A client of the daemon at `target`, from libfactord_remote.so.1 (looked
// for beside libfactord_c.so first, then on the library search path).
// UNAVAILABLE as Client::Connect gives it; INTERNAL (reason UNSUPPORTED)
// naming the library when it cannot be loaded.
absl::StatusOr<std::unique_ptr<client::Endpoint>> ConnectRemote(
    absl::string_view target, const client::ConnectOptions& options);

}  // namespace factord::capi

#endif  // FACTORD_CAPI_REMOTE_H_
