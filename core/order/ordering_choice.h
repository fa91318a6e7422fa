// The fill-reducing ordering of the complete LDL^T for ordering=auto:
// CHOLMOD's default strategy (cholmod_analyze with Common->nmethods = 0).
// AMD first; METIS nested dissection only when AMD's order is not good
// enough: METIS is skipped when fl < 500 lnz or lnz < 5 anz (CHOLMOD/
// Cholesky/cholmod_analyze.c, "determine if METIS is to be skipped"; fl and
// lnz are AMD's LL^T flops and nnz(L) with the diagonal, anz the nnz of the
// lower triangle of A + A^T with the diagonal). When both are computed, the
// one with fewer predicted flops is kept (CHOLMOD keeps the smaller lnz;
// flops are what the numeric phase pays for).
//
// The rule reads AMD's own statistics, as CHOLMOD does (amd Info, slight
// upper bounds, free). With 2x2 pairs AMD orders the compressed graph, so
// the rule reads the exact counts of the expanded order instead. The two
// orders are compared on exact counts of the "pure" factor (etree and
// row-subtree column counts, O(nnz(L)) each: no amalgamation, no delayed
// pivots), which cost little next to a factorization of >= 500 flops per
// entry of L.
#ifndef FACTORD_ORDER_ORDERING_CHOICE_H_
#define FACTORD_ORDER_ORDERING_CHOICE_H_

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/matrix/csr.h"
#include "core/solver/options.h"

namespace factord {

// The factor L of P A P^T predicted from the pattern, in CHOLMOD's terms
// (Common->fl, Common->lnz, Common->anz).
struct FactorPrediction {
  double flops = 0;       // LL^T flops: sum over columns of nnz(L(:,j))^2
  double nnz_factor = 0;  // nnz(L) with the diagonal
  double nnz_lower = 0;   // nnz(tril(A + A^T)) with the diagonal
};

// The exact prediction for the symmetric permutation `perm` (a.rows
// entries, perm[k] = original index of the k-th variable) of the square
// matrix `a`, symmetric-lower (a general matrix's nnz_lower counts (i, j)
// and (j, i) apart; values are not read). Neither argument is modified.
// InvalidArgument when `a` is not square or perm is not a permutation.
absl::StatusOr<FactorPrediction> PredictFactor(const CsrMatrix& a,
                                               std::span<const int32_t> perm);

// CHOLMOD's rule that skips METIS: the AMD prediction `amd` is good enough
// (fl < 500 lnz, or lnz < 5 anz; an empty matrix is).
bool AmdIsGoodEnough(const FactorPrediction& amd);

struct OrderingChoice {
  std::vector<int32_t> perm;           // as CompressedPairOrdering returns it
  Ordering ordering = Ordering::kAmd;  // the one used (never kAuto)
  // Why: for auto, both predictions and the choice ("amd 5.31e+10 flops,
  // metis 3.02e+10 flops: metis"); "requested" otherwise.
  std::string note;
};

// CompressedPairOrdering(a, pairs, ordering) for an explicit ordering; for
// kAuto, AMD or METIS (each on the compressed graph) by the rule above,
// predicted on the expanded order. Same arguments and errors as
// CompressedPairOrdering.
absl::StatusOr<OrderingChoice> ChooseLdltOrdering(
    const CsrMatrix& a, std::span<const std::pair<int32_t, int32_t>> pairs,
    Ordering ordering);

}  // namespace factord

#endif  // FACTORD_ORDER_ORDERING_CHOICE_H_
