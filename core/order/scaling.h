// Symmetric scaling for the LDL^T methods: Ruiz equilibration (Ruiz 2001),
// the cheap alternative, and the matching-based scaling of S1 §II (MC64
// symmetrized, Duff & Pralet). The scaled matrix S A S has every row's
// largest magnitude close to (Ruiz) or at most (matching) 1; scaling is
// recomputed at every factorization because it depends on the values.
#ifndef FACTORD_ORDER_SCALING_H_
#define FACTORD_ORDER_SCALING_H_

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/matrix/csr.h"

namespace factord {

// The Ruiz scaling vector s (a.rows entries, all > 0) of a symmetric-lower
// (or general, treated as symmetric through its stored entries) matrix
// whose values are `values` (a.nnz() entries, in a's order; pass a.values
// or shifted values). A row without a nonzero keeps s = 1. At most
// `max_sweeps` sweeps; stops when every row max is within `tolerance` of 1.
std::vector<double> RuizScaling(const CsrMatrix& a,
                                std::span<const double> values,
                                int max_sweeps = 20, double tolerance = 1e-2);

namespace internal {
// One sweep's rescaling: s[i] /= sqrt(row_max[i]) for every row whose
// maximum is positive and finite (others keep s[i]); returns the largest
// |1 - row_max[i]| over those rows (0 when none). RescaleRows uses AVX2
// when the processor has it and gives the same results bit for bit
// (division and square root are correctly rounded, max is exact);
// RescaleRowsReference is the scalar loop it is tested against.
double RescaleRows(std::span<const double> row_max, std::span<double> s);
double RescaleRowsReference(std::span<const double> row_max,
                            std::span<double> s);
}  // namespace internal

// The matching-based symmetric scaling and what the matching proposes.
struct MatchingScaling {
  std::vector<double> scaling;  // n, all > 0: |s_i a_ij s_j| <= 1
  // match[j]: the row matched to column j (a maximum-product transversal
  // of |A|), -1 when unmatched.
  std::vector<int32_t> match;
  int64_t matched = 0;  // the structural rank the matching found
  // Matched off-diagonal pairs (i < j) proposed as 2x2 pivots: 2-cycles of
  // the matching and pairs cut from its longer cycles. Method ldlt imposes
  // them at analysis (CompressedPairOrdering: consecutive, one front).
  std::vector<std::pair<int32_t, int32_t>> two_by_two;
  bool structurally_singular() const {
    return matched < static_cast<int64_t>(match.size());
  }
};

// Matching-based scaling of the symmetric-lower matrix `a` (each stored
// off-diagonal entry counts for both triangles) with `values`
// (a.nnz() entries, in a's order; exact zeros are not matchable). A
// structurally singular matrix is not an error: matched < n says so, and
// the unmatched indices are scaled from their matched neighbours.
MatchingScaling ComputeMatchingScaling(const CsrMatrix& a,
                                       std::span<const double> values);

}  // namespace factord

#endif  // FACTORD_ORDER_SCALING_H_
