// The client's own copies of the matrices it uploaded, for the transparent
// re-upload after NOT_FOUND (ConnectOptions::reupload_on_not_found): the
// pattern, the latest values, the generation the server last reported for
// them, and the options of the last Factorize. Thread-safe. Pattern and
// values are immutable once stored and shared, so a re-upload reads a
// snapshot without holding the lock, and an UpdateValues copies only the
// values. Internal to the client library.
#ifndef FACTORD_CLIENT_RETAINED_MATRICES_H_
#define FACTORD_CLIENT_RETAINED_MATRICES_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/strings/string_view.h"
#include "client/factord_client.h"

namespace factord::client::internal {

struct RetainedPattern {
  int64_t n = 0;
  std::string structure;
  std::vector<int64_t> row_ptr;
  std::vector<int32_t> col_idx;
};

struct RetainedMatrix {
  std::shared_ptr<const RetainedPattern> pattern;
  std::shared_ptr<const std::vector<double>> values;
  uint64_t generation = 0;  // of `values`, as the server last reported
  std::optional<FactorizeOptions> factorize;  // of the last Factorize
  bool factorized = false;  // `values` were factorized (not stale)

  // The copy as arrays borrowed from this object.
  CsrArrays arrays() const {
    return CsrArrays{.n = pattern->n,
                     .structure = pattern->structure,
                     .row_ptr = pattern->row_ptr,
                     .col_idx = pattern->col_idx,
                     .values = *values};
  }
};

class RetainedMatrices {
 public:
  // Copies `matrix` under `id` (replacing any copy) at `generation`.
  void Keep(absl::string_view id, const CsrArrays& matrix, uint64_t generation);

  // New values of `id` at `generation`; the factorization becomes stale.
  // False (nothing changed) when no copy is kept or the number of values is
  // not the copy's nnz.
  bool SetValues(absl::string_view id, std::span<const double> values,
                 uint64_t generation);

  // The server holds `id` at `generation` again (after a re-upload).
  void SetGeneration(absl::string_view id, uint64_t generation);

  // `id` was factorized with `options`; `generation` is the reply's (0 when
  // the server does not say), and the copy counts as factorized only when
  // it is the copy's.
  void SetFactorized(absl::string_view id, const FactorizeOptions& options,
                     uint64_t generation);

  // A snapshot of the copy of `id`, if one is kept.
  std::optional<RetainedMatrix> Find(absl::string_view id) const;

  void Forget(absl::string_view id);

  void CountReupload();
  int64_t reuploads() const;

 private:
  mutable std::mutex mu_;
  std::unordered_map<std::string, RetainedMatrix> matrices_;  // guarded by mu_
  int64_t reuploads_ = 0;                                     // guarded by mu_
};

}  // namespace factord::client::internal

#endif  // FACTORD_CLIENT_RETAINED_MATRICES_H_
