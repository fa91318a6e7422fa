// Pattern-only stage of ic / ilu (S4): the ordering, the level-of-fill
// pattern of ILU(k) / IC(k), the level sets of its two triangles (for the
// level-scheduled exact solves) and the supervariables of the ordered matrix
// (S4 §2.3, amalgamated into blocks for the block-Jacobi triangular solves at
// factorization time, where the block size is known). Computed once per
// pattern and options; reused when only the values change.
#ifndef FACTORD_INCOMPLETE_INCOMPLETE_SYMBOLIC_H_
#define FACTORD_INCOMPLETE_INCOMPLETE_SYMBOLIC_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/base/exec_context.h"
#include "core/matrix/csr.h"
#include "core/solver/solver.h"
#include "core/trisolve/kernels/trisolve_kernels.h"

namespace factord::internal {

// Level sets of one triangle, owning their arrays.
struct LevelSets {
  std::vector<int64_t> level_ptr{0};
  std::vector<int32_t> rows;
  kernels::LevelSchedule view() const { return {level_ptr, rows}; }
  int64_t bytes() const {
    return static_cast<int64_t>(level_ptr.size() * 8 + rows.size() * 4);
  }
};

// The combined pattern of L + U (unit L strictly lower, U upper with the
// diagonal), rows ascending; diag[i] is the position of (i, i).
struct IncompletePattern {
  std::vector<int64_t> row_ptr{0};
  std::vector<int32_t> col_idx;
  std::vector<int64_t> diag;
  int64_t n() const { return static_cast<int64_t>(diag.size()); }
  // A view for the trisolve kernels over `values` (col_idx.size() entries).
  kernels::TriangularFactor View(std::span<const double> values) const {
    return {row_ptr, col_idx, diag, values};
  }
};

// S4 §2.1 symbolic ILU(k) of the general (full-pattern) matrix `a`, k >= 0:
// lev = 0 for the entries of a and the diagonal, fill (i, j) from pivot p
// gets lev_ip + lev_pj + 1 and is kept when <= k. Cancelled through ctx.
absl::StatusOr<IncompletePattern> SymbolicIlu(const CsrMatrix& a, int k,
                                              const ExecContext& ctx);

// Level sets of one triangle of `pattern`: a row's level is one more than
// the highest level among the rows its strict part references.
LevelSets ComputeLevelSets(const IncompletePattern& pattern,
                           kernels::Triangle triangle);

// P A P^T of the general matrix `full`, perm[new] = old; rows sorted.
CsrMatrix PermuteSymmetric(const CsrMatrix& full,
                           const std::vector<int32_t>& perm);

class IncompleteAnalysis final : public Analysis {
 public:
  IncompleteAnalysis(Method method, IncompletePattern pattern,
                     std::vector<int32_t> perm, std::vector<int64_t> sv_ptr);
  Method method() const override { return method_; }
  int64_t bytes() const override;
  int64_t factor_bytes_estimate() const override;

  int64_t n() const { return pattern_.n(); }
  const IncompletePattern& pattern() const { return pattern_; }
  // perm[new] = old, n entries.
  const std::vector<int32_t>& perm() const { return perm_; }
  // Supervariables of P A P^T as position ranges (S4 §2.3).
  const std::vector<int64_t>& sv_ptr() const { return sv_ptr_; }
  const LevelSets& lower_levels() const { return lower_levels_; }
  const LevelSets& upper_levels() const { return upper_levels_; }

 private:
  Method method_;
  IncompletePattern pattern_;
  std::vector<int32_t> perm_;
  std::vector<int64_t> sv_ptr_;
  LevelSets lower_levels_;
  LevelSets upper_levels_;
};

}  // namespace factord::internal

#endif  // FACTORD_INCOMPLETE_INCOMPLETE_SYMBOLIC_H_
