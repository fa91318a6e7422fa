#include "client/load/load_stats.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace factord::load {

const char* OpName(OpKind kind) {
  switch (kind) {
    case OpKind::kUpload:
      return "upload";
    case OpKind::kFactorize:
      return "factorize";
    case OpKind::kSolve:
      return "solve";
    case OpKind::kUpdate:
      return "update";
    case OpKind::kRelease:
      return "release";
  }
  return "?";
}

double Percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double rank = std::ceil(q * static_cast<double>(sorted.size()));
  const size_t index = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return sorted[std::min(index, sorted.size() - 1)];
}

void LoadStats::Record(OpKind kind, double seconds, const absl::Status& status,
                       bool allow_limits) {
  std::lock_guard<std::mutex> lock(mu_);
  const int k = static_cast<int>(kind);
  seconds_[k].push_back(seconds);
  if (status.ok()) return;
  if (allow_limits && absl::IsResourceExhausted(status)) {
    ++limited_;
    return;
  }
  ++errors_[k];
  ++error_codes_[absl::StatusCodeToString(status.code())];
  if (first_error_.empty()) {
    first_error_ = absl::StrCat(OpName(kind), ": ", status.ToString());
  }
}

LoadStats::Summary LoadStats::Summarize() const {
  std::lock_guard<std::mutex> lock(mu_);
  Summary summary;
  std::vector<double> all;
  for (int k = 0; k < kOpKinds; ++k) {
    std::vector<double> sorted = seconds_[k];
    std::sort(sorted.begin(), sorted.end());
    summary.count[k] = static_cast<int64_t>(sorted.size());
    summary.errors_by_kind[k] = errors_[k];
    summary.p50_by_kind[k] = Percentile(sorted, 0.5);
    summary.operations += summary.count[k];
    summary.errors += errors_[k];
    all.insert(all.end(), sorted.begin(), sorted.end());
  }
  std::sort(all.begin(), all.end());
  summary.p50_s = Percentile(all, 0.5);
  summary.p99_s = Percentile(all, 0.99);
  summary.max_s = all.empty() ? 0 : all.back();
  summary.limited = limited_;
  summary.error_codes = error_codes_;
  summary.first_error = first_error_;
  return summary;
}

}  // namespace factord::load
