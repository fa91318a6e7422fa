// The analysis of method ldlt: the symbolic structure and, with the
// matching-based scaling, the 2x2 pivot candidates the ordering imposed
// (S1 §II). Taken from the values of the matrix given to Analyze and reused
// unchanged by every factorization made with it (new values, same pattern);
// the scaling itself is recomputed at each factorization.
#ifndef FACTORD_LDLT_LDLT_ANALYSIS_H_
#define FACTORD_LDLT_LDLT_ANALYSIS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/ldlt/ldlt_symbolic.h"
#include "core/solver/solver.h"

namespace factord::internal {

class LdltAnalysis final : public Analysis {
 public:
  // `pairs`: the imposed 2x2 candidates (original indices, i then j in the
  // elimination order), empty when none were.
  LdltAnalysis(Method method, int64_t nnz, LdltSymbolic sym,
               std::vector<std::pair<int32_t, int32_t>> pairs)
      : method_(method),
        nnz_(nnz),
        sym_(std::move(sym)),
        pairs_(std::move(pairs)) {}
  Method method() const override { return method_; }
  int64_t bytes() const override {
    return sym_.bytes() +
           static_cast<int64_t>(pairs_.size() * 2 * sizeof(int32_t));
  }
  int64_t factor_bytes_estimate() const override {
    // L and D, a margin for delayed pivots, the gathered values and the
    // largest front being factorized.
    return static_cast<int64_t>(1.25 * sym_.nnz_factor * sizeof(double)) +
           sym_.nnz_factor / 4 * sizeof(int32_t) +
           static_cast<int64_t>(sym_.col_rows.size()) * sizeof(double) +
           2 * sym_.max_front * sym_.max_front * int64_t{sizeof(double)};
  }
  int64_t nnz() const { return nnz_; }
  const LdltSymbolic& symbolic() const { return sym_; }
  const std::vector<std::pair<int32_t, int32_t>>& pairs() const {
    return pairs_;
  }
  // The fill-reducing ordering used (OrderingName) and why
  // (OrderingChoice::note), for FactorReport::ordering and ordering_note.
  void set_ordering(std::string name, std::string note) {
    ordering_ = std::move(name);
    ordering_note_ = std::move(note);
  }
  const std::string& ordering() const { return ordering_; }
  const std::string& ordering_note() const { return ordering_note_; }

 private:
  Method method_;
  int64_t nnz_;
  LdltSymbolic sym_;
  std::vector<std::pair<int32_t, int32_t>> pairs_;
  std::string ordering_;
  std::string ordering_note_;
};

}  // namespace factord::internal

#endif  // FACTORD_LDLT_LDLT_ANALYSIS_H_
