// Latency and error bookkeeping of factord-load: every operation records its
// kind, wall time and outcome; the summary gives per-kind counts, p50/p99
// latency over all operations (nearest-rank percentiles) and throughput.
#ifndef FACTORD_CLIENT_LOAD_LOAD_STATS_H_
#define FACTORD_CLIENT_LOAD_LOAD_STATS_H_

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace factord::load {

enum class OpKind { kUpload, kFactorize, kSolve, kUpdate, kRelease };
inline constexpr int kOpKinds = 5;
const char* OpName(OpKind kind);

// Thread-safe; one instance shared by all clients.
class LoadStats {
 public:
  // Records one operation taking `seconds`. A non-OK `status` (or a failed
  // numerical check, passed as a status by the caller) is an error, except
  // RESOURCE_EXHAUSTED when `allow_limits` is set (counted as `limited`).
  void Record(OpKind kind, double seconds, const absl::Status& status,
              bool allow_limits);

  struct Summary {
    int64_t operations = 0;
    int64_t errors = 0;
    int64_t limited = 0;  // RESOURCE_EXHAUSTED accepted by --allow_limits
    double p50_s = 0;
    double p99_s = 0;
    double max_s = 0;
    std::array<int64_t, kOpKinds> count{};
    std::array<int64_t, kOpKinds> errors_by_kind{};
    std::array<double, kOpKinds> p50_by_kind{};
    std::map<std::string, int64_t> error_codes;  // code name -> count
    std::string first_error;
  };
  Summary Summarize() const;

 private:
  mutable std::mutex mu_;
  std::array<std::vector<double>, kOpKinds> seconds_;
  std::array<int64_t, kOpKinds> errors_{};
  int64_t limited_ = 0;
  std::map<std::string, int64_t> error_codes_;
  std::string first_error_;
};

// Nearest-rank percentile q in [0, 1] of `sorted` (ascending); 0 if empty.
double Percentile(const std::vector<double>& sorted, double q);

}  // namespace factord::load

#endif  // FACTORD_CLIENT_LOAD_LOAD_STATS_H_
