// One log line and one metrics observation per RPC: a request ID, the RPC,
// the matrix ID, the status code and the duration (docs/design.md, "Logs").
#ifndef FACTORD_SERVER_SERVICE_REQUEST_LOG_H_
#define FACTORD_SERVER_SERVICE_REQUEST_LOG_H_

#include <string>

#include "absl/strings/string_view.h"
#include "core/base/timer.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/status.h"
#include "server/metrics/metrics.h"

namespace factord::server {

// Writes a line to stderr, prefixed with the UTC time. Thread-safe.
void LogLine(absl::string_view line);

class RequestLog {
 public:
  // Starts the clock. The request ID is the client's `x-request-id`
  // metadata when given, else a process-unique counter. `metrics` is not
  // owned and must outlive this object.
  RequestLog(Metrics* metrics, absl::string_view rpc,
             const grpc::CallbackServerContext* context);
  ~RequestLog();  // a request never finished is logged as CANCELLED

  void set_matrix_id(absl::string_view id) { matrix_id_ = std::string(id); }
  // The authenticated tenant, logged (never the token) when not empty.
  void set_tenant(absl::string_view tenant) { tenant_ = std::string(tenant); }
  const std::string& request_id() const { return request_id_; }
  double seconds() const { return timer_.Seconds(); }

  // Logs the line and records the RPC's metrics; later calls do nothing.
  void Finish(const grpc::Status& status);

 private:
  Metrics* metrics_;
  std::string rpc_;
  std::string request_id_;
  std::string matrix_id_;
  std::string tenant_;
  Timer timer_;
  bool finished_ = false;
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_REQUEST_LOG_H_
