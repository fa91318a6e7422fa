#include "capi/remote.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "absl/strings/str_cat.h"
#include "client/status_payloads.h"
#include "factord/factord.h"

namespace factord::capi {
namespace {

struct Loaded {
  factord_remote_connect_fn connect = nullptr;
  std::string error;
};

// libfactord_remote.so.1 from the directory of this library, else by name.
// Loaded once; never unloaded (its client threads may outlive a handle).
const Loaded& Load() {
  static const Loaded* const loaded = [] {
    auto* l = new Loaded;
    std::string beside;
    Dl_info self;
    if (dladdr(reinterpret_cast<void*>(&factord_connect), &self) != 0 &&
        self.dli_fname != nullptr) {
      std::string path = self.dli_fname;
      const size_t slash = path.rfind('/');
      if (slash != std::string::npos) {
        beside = path.substr(0, slash + 1) + kFactordRemoteLibrary;
      }
    }
    void* handle = nullptr;
    if (!beside.empty()) handle = dlopen(beside.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      handle = dlopen(kFactordRemoteLibrary, RTLD_NOW | RTLD_LOCAL);
    }
    if (handle == nullptr) {
      const char* why = dlerror();
      l->error = why != nullptr ? why : "not found";
      return l;
    }
    l->connect = reinterpret_cast<factord_remote_connect_fn>(
        dlsym(handle, kFactordRemoteConnectSymbol));
    if (l->connect == nullptr) {
      l->error = absl::StrCat(kFactordRemoteLibrary, " has no ",
                              kFactordRemoteConnectSymbol,
                              " (a different version of factord?)");
    }
    return l;
  }();
  return *loaded;
}

}  // namespace

absl::StatusOr<std::unique_ptr<client::Endpoint>> ConnectRemote(
    absl::string_view target, const client::ConnectOptions& options) {
  const Loaded& loaded = Load();
  if (loaded.connect == nullptr) {
    return client::internal::ClientError(
        absl::StatusCode::kInternal, "UNSUPPORTED",
        absl::StrCat(
            "cannot load ", kFactordRemoteLibrary,
            ", the part of libfactord_c that talks to a daemon: ", loaded.error,
            " (install it beside libfactord_c.so, or run in process "
            "with FACTORD_SERVER=local)"));
  }
  const std::string name(target);
  absl::Status status;
  client::Endpoint* endpoint = loaded.connect(name.c_str(), &options, &status);
  if (endpoint == nullptr) {
    if (status.ok()) status = absl::InternalError("connect failed");
    return status;
  }
  return std::unique_ptr<client::Endpoint>(endpoint);
}

}  // namespace factord::capi
