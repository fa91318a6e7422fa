// Ordering choice for ldlt's ordering=auto: CHOLMOD's default strategy (AMD,
// then METIS only when AMD's fill is high), compared on predicted flops.
#include "core/order/ordering_choice.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/order/amd.h"
#include "core/order/compressed_ordering.h"
#include "core/order/elimination_tree.h"

namespace factord {
namespace {

std::string Flops(double flops) { return absl::StrFormat("%.3g", flops); }

// Why AMD was kept without trying METIS, in the rule's words.
std::string AmdKeptNote(const FactorPrediction& amd) {
  const double per_entry = amd.nnz_factor > 0 ? amd.flops / amd.nnz_factor : 0;
  const double fill = amd.nnz_lower > 0 ? amd.nnz_factor / amd.nnz_lower : 0;
  return absl::StrFormat(
      "amd %s flops (%.3g per entry of L, nnz(L)/nnz(A) %.3g): metis not "
      "tried (< 500 flops per entry or fill < 5): amd",
      Flops(amd.flops), per_entry, fill);
}

}  // namespace

absl::StatusOr<FactorPrediction> PredictFactor(const CsrMatrix& a,
                                               std::span<const int32_t> perm) {
  const int64_t n = a.rows;
  if (a.cols != n || static_cast<int64_t>(perm.size()) != n) {
    return absl::InvalidArgumentError(
        "a prediction needs a square matrix and a permutation of its order");
  }
  std::vector<int32_t> inverse(n, -1);
  for (int64_t k = 0; k < n; ++k) {
    if (perm[k] < 0 || perm[k] >= n || inverse[perm[k]] != -1) {
      return absl::InvalidArgumentError(
          absl::StrCat("not a permutation: entry ", k, " is ", perm[k]));
    }
    inverse[perm[k]] = static_cast<int32_t>(k);
  }
  const LowerRowPattern rows = PermutedLowerRows(a, inverse);
  const std::vector<int64_t> below =
      BelowDiagonalCounts(rows, EliminationTree(rows, n));
  FactorPrediction prediction;
  for (int64_t j = 0; j < n; ++j) {
    const double column = static_cast<double>(below[j] + 1);
    prediction.flops += column * column;
    prediction.nnz_factor += column;
  }
  prediction.nnz_lower = static_cast<double>(rows.ptr[n] + n);
  return prediction;
}

bool AmdIsGoodEnough(const FactorPrediction& amd) {
  // CHOLMOD/Cholesky/cholmod_analyze.c: "AMD found an ordering with less
  // than 500 flops per nonzero in L, or one with a fill-in ratio
  // (nnz(L)/nnz(A)) of less than 5 ... it's unlikely that METIS will do
  // better".
  return amd.nnz_factor == 0 || amd.flops < 500 * amd.nnz_factor ||
         amd.nnz_factor < 5 * amd.nnz_lower;
}

absl::StatusOr<OrderingChoice> ChooseLdltOrdering(
    const CsrMatrix& a, std::span<const std::pair<int32_t, int32_t>> pairs,
    Ordering ordering) {
  OrderingChoice choice;
  if (ordering != Ordering::kAuto) {
    auto perm = CompressedPairOrdering(a, pairs, ordering);
    if (!perm.ok()) return perm.status();
    choice.perm = *std::move(perm);
    choice.ordering = ordering;
    choice.note = "requested";
    return choice;
  }
  // AMD, with the statistics the rule reads: AMD's own without pairs (as
  // CHOLMOD), the exact counts of the expanded order with them.
  FactorPrediction amd;
  if (pairs.empty()) {
    AmdStatistics statistics;
    auto perm = AmdOrdering(a, &statistics);
    if (!perm.ok()) return perm.status();
    choice.perm = *std::move(perm);
    amd = {statistics.flops, statistics.nnz_factor, statistics.nnz_lower};
  } else {
    auto perm = CompressedPairOrdering(a, pairs, Ordering::kAmd);
    if (!perm.ok()) return perm.status();
    choice.perm = *std::move(perm);
    auto predicted = PredictFactor(a, choice.perm);
    if (!predicted.ok()) return predicted.status();
    amd = *predicted;
  }
  choice.ordering = Ordering::kAmd;
  if (AmdIsGoodEnough(amd)) {
    choice.note = AmdKeptNote(amd);
    return choice;
  }
  auto metis_perm = CompressedPairOrdering(a, pairs, Ordering::kMetis);
  if (!metis_perm.ok()) {
    // CHOLMOD too goes on with the orderings that succeeded.
    choice.note = absl::StrCat("amd ", Flops(amd.flops), " flops, metis ",
                               metis_perm.status().message(), ": amd");
    return choice;
  }
  // Both on the same exact counts (AMD's statistics are upper bounds).
  if (pairs.empty()) {
    auto predicted = PredictFactor(a, choice.perm);
    if (!predicted.ok()) return predicted.status();
    amd = *predicted;
  }
  auto metis = PredictFactor(a, *metis_perm);
  if (!metis.ok()) return metis.status();
  const bool use_metis = metis->flops < amd.flops;
  choice.note = absl::StrCat("amd ", Flops(amd.flops), " flops, metis ",
                             Flops(metis->flops),
                             " flops: ", use_metis ? "metis" : "amd");
  if (use_metis) {
    choice.perm = *std::move(metis_perm);
    choice.ordering = Ordering::kMetis;
  }
  return choice;
}

}  // namespace factord
