// factord_connect and factord_disconnect: where the work runs (a daemon,
// the in-process solver, or both with a size threshold: factord.h,
// "Connections"), and the options with their environment defaults
// (factord_connect_options) turned into the C++ client's ConnectOptions.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "capi/handle.h"
#include "capi/last_error.h"
#include "capi/remote.h"
#include "client/factord_client.h"
#include "factord/factord.h"
#if FACTORD_C_IN_PROCESS
#include "local/in_process_solver.h"
#endif

namespace factord::capi {
namespace {

// Where a build without the in-process solver goes when no server is
// configured.
constexpr char kDefaultAddress[] = "127.0.0.1:50051";
// The address that asks for the in-process solver.
constexpr char kLocalAddress[] = "local";
constexpr absl::Duration kDefaultConnectTimeout = absl::Seconds(10);
// With a daemon configured, matrices of order below this stay in process
// ($FACTORD_LOCAL_BELOW): below it a round trip to a loopback daemon costs
// more than the work it moves (docs/in_process.md, "Where the work runs").
constexpr int64_t kDefaultLocalBelowN = 20000;

// $name when it is set and not empty.
const char* Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && value[0] != '\0' ? value : nullptr;
}

// The caller's string, else $env, else "" ("" from the caller: none).
std::string StringOption(const char* value, const char* env) {
  if (value != nullptr) return value;
  const char* from_env = Env(env);
  return from_env != nullptr ? from_env : "";
}

// A duration option in milliseconds: > 0 that long, 0 `zero_means`, < 0
// $env in seconds if set, else `fallback`. False (with the failure
// recorded) when $env is not a non-negative number.
bool DurationOption(int64_t ms, const char* env, absl::Duration zero_means,
                    absl::Duration fallback, absl::Duration* out) {
  if (ms > 0) {
    *out = absl::Milliseconds(ms);
    return true;
  }
  if (ms == 0) {
    *out = zero_means;
    return true;
  }
  const char* text = Env(env);
  if (text == nullptr) {
    *out = fallback;
    return true;
  }
  char* end = nullptr;
  errno = 0;
  const double seconds = std::strtod(text, &end);
  if (errno != 0 || end == text || *end != '\0' || !std::isfinite(seconds) ||
      seconds < 0) {
    Fail(FACTORD_ERR_INVALID_ARGUMENT, "INVALID_OPTION",
         absl::StrCat(env, "='", text,
                      "' is not a number of seconds (e.g. 2.5)"));
    return false;
  }
  *out = seconds == 0 ? zero_means : absl::Seconds(seconds);
  return true;
}

// $name as a count >= 0 into *out (unset or empty: untouched). False (with
// the failure recorded) when it is not one.
bool CountOption(const char* name, int64_t* out) {
  const char* text = Env(name);
  if (text == nullptr) return true;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < 0) {
    Fail(FACTORD_ERR_INVALID_ARGUMENT, "INVALID_OPTION",
         absl::StrCat(name, "='", text,
                      "' is not a count of rows (0 or more, e.g. 20000)"));
    return false;
  }
  *out = value;
  return true;
}

// The in-process solver of this build, configured from the environment;
// null (with the failure recorded) when the environment is wrong, or when
// this build of the library has none and `required`.
std::unique_ptr<factord::client::Endpoint> InProcess(bool required,
                                                     factord_status* status) {
  *status = FACTORD_OK;
#if FACTORD_C_IN_PROCESS
  absl::StatusOr<factord::local::InProcessOptions> options =
      factord::local::InProcessOptionsFromEnvironment();
  if (!options.ok()) {
    *status = FailWith(options.status());
    return nullptr;
  }
  return std::make_unique<factord::local::InProcessSolver>(*options);
#else
  if (required) {
    *status = Fail(FACTORD_ERR_UNIMPLEMENTED, "UNSUPPORTED",
                   "this build of libfactord_c has no in-process solver "
                   "(a client-only build): set FACTORD_SERVER to a daemon's "
                   "host:port");
  }
  return nullptr;
#endif
}

}  // namespace
}  // namespace factord::capi

extern "C" {

FACTORD_C_EXPORT const char* factord_version(void) { return FACTORD_VERSION; }

FACTORD_C_EXPORT void factord_connect_options_init(
    factord_connect_options* options) {
  if (options == nullptr) return;
  *options = factord_connect_options{};
  options->rpc_timeout_ms = -1;
  options->connect_timeout_ms = -1;
  options->unavailable_retry_ms = -1;
}

FACTORD_C_EXPORT factord_status
factord_connect(const char* address, const factord_connect_options* options,
                factord_handle** handle) {
  using namespace factord::capi;
  return Guarded([&]() -> factord_status {
    if (handle == nullptr) return BadRequest("handle is NULL");
    *handle = nullptr;
    factord_connect_options o;
    factord_connect_options_init(&o);
    if (options != nullptr) o = *options;

    std::string target = address != nullptr ? address : "";
    if (target.empty()) {
      const char* env = Env("FACTORD_SERVER");
      target = env != nullptr ? env : "";
    }
    auto h = std::make_unique<factord_handle>();
    factord_status status = FACTORD_OK;
    if (target == kLocalAddress || target.empty()) {
      // No daemon: the in-process solver, when this build has one.
      h->local = InProcess(/*required=*/!target.empty(), &status);
      if (status != FACTORD_OK) return status;
      if (h->local != nullptr) {
        *handle = h.release();
        return FACTORD_OK;
      }
      target = kDefaultAddress;
    }
    h->local_below_n = kDefaultLocalBelowN;
    if (!CountOption("FACTORD_LOCAL_BELOW", &h->local_below_n)) {
      return factord_last_error_code();
    }
    if (h->local_below_n > 0) {
      h->local = InProcess(/*required=*/false, &status);
      if (status != FACTORD_OK) return status;
    }
    factord::client::ConnectOptions c;
    if (o.token != nullptr) c.token = o.token;  // "" -> $FACTORD_TOKEN
    c.tls_ca_file = StringOption(o.tls_ca_file, "FACTORD_TLS_CA");
    c.tls_cert_file = StringOption(o.tls_cert_file, "FACTORD_TLS_CERT");
    c.tls_key_file = StringOption(o.tls_key_file, "FACTORD_TLS_KEY");
    const char* tls_env = Env("FACTORD_TLS");
    c.tls = o.tls == 1 ||
            (o.tls == 0 && tls_env != nullptr && std::string(tls_env) == "1");
    if (!DurationOption(o.rpc_timeout_ms, "FACTORD_RPC_TIMEOUT",
                        absl::InfiniteDuration(), absl::InfiniteDuration(),
                        &c.rpc_timeout) ||
        !DurationOption(o.connect_timeout_ms, "FACTORD_CONNECT_TIMEOUT",
                        absl::ZeroDuration(), kDefaultConnectTimeout,
                        &c.connect_timeout)) {
      return factord_last_error_code();
    }
    absl::Duration retry = c.connect_timeout;
    if (o.unavailable_retry_ms >= 0) {
      retry = absl::Milliseconds(o.unavailable_retry_ms);
    }
    c.reupload_on_not_found = o.reupload != 0;
    // Calls that failed in transit are retried by the client for the retry
    // window (factord.h, unavailable_retry_ms): 50 ms doubling to 1 s
    // between attempts, as many as the window holds. A daemon never
    // reached is not retried (DaemonNeverReached).
    c.retry.total_timeout = retry;
    c.retry.max_attempts = retry > absl::ZeroDuration() ? 1000 : 1;
    c.retry.initial_backoff = absl::Milliseconds(50);
    c.retry.max_backoff = absl::Seconds(1);
    // Reconnect to a daemon that went away at least every second (gRPC's
    // backoff would grow to minutes), so that retries see a restarted
    // daemon soon.
    c.max_reconnect_backoff = absl::Seconds(1);
    if (o.max_chunk_bytes > 0) c.max_chunk_bytes = o.max_chunk_bytes;
    if (o.max_chunk_bytes < 0) {
      return BadRequest(absl::StrCat("max_chunk_bytes = ", o.max_chunk_bytes,
                                     " is negative"));
    }

    absl::StatusOr<std::unique_ptr<factord::client::Endpoint>> client =
        ConnectRemote(target, c);
    if (!client.ok()) return FailWith(client.status());
    h->remote = *std::move(client);
    *handle = h.release();
    return FACTORD_OK;
  });
}

FACTORD_C_EXPORT factord_status factord_disconnect(factord_handle* handle) {
  delete handle;
  return FACTORD_OK;
}

FACTORD_C_EXPORT size_t factord_matrix_location(factord_handle* handle,
                                                const char* id, char* buffer,
                                                size_t size) {
  std::string where;
  if (handle != nullptr) {
    const std::string name = id != nullptr ? id : "";
    factord::client::Endpoint* endpoint =
        name.empty() ? handle->EndpointOf(nullptr)
                     : handle->EndpointOf(handle->FindEntry(name).get());
    if (endpoint != nullptr) where = endpoint->location();
  }
  if (size > 0) {
    const size_t n = std::min(where.size(), size - 1);
    std::memcpy(buffer, where.data(), n);
    buffer[n] = '\0';
  }
  return where.size();
}

}  // extern "C"
