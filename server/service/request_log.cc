#include "server/service/request_log.h"

#include <atomic>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "server/service/status_mapping.h"

namespace factord::server {
namespace {

std::string NextRequestId() {
  static std::atomic<uint64_t> next{1};
  return absl::StrFormat("r%08x", next.fetch_add(1, std::memory_order_relaxed));
}

// Keeps a log line on one line whatever the client sent.
std::string OneLine(absl::string_view text) {
  std::string out(text.substr(0, 300));
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

}  // namespace

void LogLine(absl::string_view line) {
  std::string out =
      absl::StrCat(absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ ", absl::Now(),
                                    absl::UTCTimeZone()),
                   line, "\n");
  // One fwrite per line: stdio locks the stream, so lines never interleave.
  std::fwrite(out.data(), 1, out.size(), stderr);
}

RequestLog::RequestLog(Metrics* metrics, absl::string_view rpc,
                       const grpc::CallbackServerContext* context)
    : metrics_(metrics), rpc_(rpc) {
  if (context != nullptr) {
    const auto& md = context->client_metadata();
    auto it = md.find("x-request-id");
    if (it != md.end() && !it->second.empty() && it->second.size() <= 64) {
      request_id_ =
          OneLine(absl::string_view(it->second.data(), it->second.size()));
    }
  }
  if (request_id_.empty()) request_id_ = NextRequestId();
  metrics_->InflightChange(+1);
}

RequestLog::~RequestLog() {
  if (!finished_) {
    Finish(grpc::Status(grpc::StatusCode::CANCELLED, "request abandoned"));
  }
}

void RequestLog::Finish(const grpc::Status& status) {
  if (finished_) return;
  finished_ = true;
  const double seconds = timer_.Seconds();
  const absl::string_view code = GrpcCodeName(status.error_code());
  metrics_->InflightChange(-1);
  metrics_->ObserveRpc(rpc_, code, seconds);
  metrics_->ObserveMatrixRpc(rpc_, code, tenant_, matrix_id_);
  std::string line = absl::StrFormat(
      "request=%s rpc=%s matrix=%s code=%s duration_s=%.6f", request_id_, rpc_,
      matrix_id_.empty() ? "-" : OneLine(matrix_id_), code, seconds);
  if (!tenant_.empty()) absl::StrAppend(&line, " tenant=", tenant_);
  if (!status.ok()) {
    absl::StrAppend(&line, " message=\"", OneLine(status.error_message()),
                    "\"");
  }
  LogLine(line);
}

}  // namespace factord::server
