// The Jacobi (fixed-point) block LDL^T of S2 §VI, Alg. 2, on the block
// pattern of block_ildlt's structure (S1 blocking and block level of fill).
//
// Each sweep has two phases, each embarrassingly parallel over blocks:
//   diagonal (Alg. 2 lines 4-8): B = A(I,I) - sum_K L'(I,K) D'_K L'(I,K)^T,
//     permuted by the previous inner pivot order p'(I) (so that the pivot
//     search starts where the last sweep ended), factorized by the batched
//     dense LDL^T (kernels/dense, S2 §IV) with pivots below eps*max|SAS|
//     perturbed; the new order is p''(I) = p'(I)(q) (line 7);
//   off-diagonal (lines 9-12): C = A(I,J) - sum_{K<J} L'(I,K) D'_K L'(J,K)^T,
//     L''(I,J) = C(:, p''(J)) L''(J,J)^{-T} D''(J)^{-1}.
// L' blocks keep their rows in the row block's analysis order and their
// columns in the column block's pivot order (block_ildlt's layout), and D'
// and p' are always read from the same sweep as L': the inner permutations
// are tracked in sync with the iterates (S2 §VI point (1)). eps is
// multiplied by delta after every sweep (line 13).
// Starting guess (line 1): L = tril(A), D = I, p = identity.
//
// Outer (push-back) pivoting of diagonal blocks (S2 §V-A) is layered on top
// in jacobi_ldlt_pushback.h. Limits: eps is relative to max|S A S| (the scaled
// matrix's largest entry), not to
// ||A||_1 as in Alg. 2 line 6 (on a Ruiz-scaled matrix ||A||_1 is the largest
// column count, which would perturb almost every pivot at eps = 0.1).
#ifndef FACTORD_JACOBI_LDLT_JACOBI_LDLT_SWEEPS_H_
#define FACTORD_JACOBI_LDLT_JACOBI_LDLT_SWEEPS_H_

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/base/exec_context.h"
#include "core/block_ildlt/block_ildlt.h"
#include "core/solver/options.h"

namespace factord::internal {

// A block LDL^T in block_ildlt's factor layout (see BlockIldltFactor).
struct BlockLdltIterate {
  std::vector<double> values;        // value_ptr.back()
  std::vector<int32_t> pivot_order;  // n: local pivot order per block
  std::vector<int8_t> pivot_size;    // n: 1, 2 (first of a pair), 0
  std::vector<double> d_diag;        // n
  std::vector<double> d_off;         // n
  int64_t perturbed_pivots = 0;      // in the last sweep
  int64_t two_by_two_pivots = 0;     // in the last sweep
  // Per block, the batched LDL^T status of the last sweep (DenseBlockStatus:
  // nonzero when a pivot of the diagonal block was perturbed).
  std::vector<int8_t> block_status;
};

// Symbolic part of the sweeps, built once per structure: for every
// off-diagonal slot (I,J), the slot pairs ((I,K), (J,K)) with K < J.
struct JacobiLdltPlan {
  std::vector<int32_t> column_of;      // per slot: its block column J
  std::vector<int64_t> offdiag_slots;  // the slots with I != J
  std::vector<int64_t> pair_ptr;       // offdiag_slots.size() + 1
  std::vector<std::pair<int64_t, int64_t>> pairs;
  int64_t bytes() const;
};

JacobiLdltPlan BuildJacobiLdltPlan(const BlockIldltStructure& s);

struct JacobiSweepOptions {
  int sweeps = 8;
  double epsilon = 0.1;  // S2 Alg. 2 threshold, relative to max|S A S|
  double delta = 0.95;   // eps <- eps * delta after every sweep
  Pivoting pivoting = Pivoting::kBunchKaufman;
  double pivot_threshold = 0.01;  // u of the blocks' pivot test
  // sweep_errors: BlockProductError (S2 Fig. 3, the default) or, when set,
  // BlockReconstructionError (the residual on the pattern).
  bool pattern_error = false;
  // RunJacobiLdlt only: record sweep_errors (each costs about a sweep).
  bool record_errors = true;
};

// Runs options.sweeps sweeps of S2 Alg. 2 on the scaled blocks `a_blocks`
// (ScatterScaledBlocks; value_ptr.back() entries) and returns the last
// iterate. sweep_errors (if not null) gets ||L D L^T - A||_inf / ||A||_inf
// after each sweep (see options.pattern_error). ctx.backend kReference runs the
// blocks serially, kCpu in parallel (same arithmetic per block, so the two
// agree bit for bit). Cancellation is checked between phases. `start`, if
// given, replaces the initial guess (a warm start from an earlier iterate of
// the same structure).
absl::StatusOr<BlockLdltIterate> RunJacobiLdltSweeps(
    const BlockIldltStructure& s, const JacobiLdltPlan& plan,
    std::span<const double> a_blocks, const JacobiSweepOptions& options,
    const ExecContext& ctx, std::vector<double>* sweep_errors,
    const BlockLdltIterate* start = nullptr);

// ||L D L^T - A||_inf / ||A||_inf of a factor in block_ildlt's layout on
// the scaled matrix `a_blocks`, restricted to the block pattern of `s` (both
// triangles): the residual of the fixed-point equations (S2 Eq. 2), zero for
// an unperturbed level-scheduled incomplete factor. Blocks with kept[t] == 0
// count as zero (kept may be empty: all kept). jacobi_ldlt_error.cc.
double BlockReconstructionError(
    const BlockIldltStructure& s, const JacobiLdltPlan& plan,
    std::span<const double> a_blocks, std::span<const double> values,
    std::span<const uint8_t> kept, std::span<const int32_t> pivot_order,
    std::span<const int8_t> pivot_size, std::span<const double> d_diag,
    std::span<const double> d_off, const ExecContext& ctx);

// The same ratio over every block of the product L D L^T (entries outside
// the pattern, which an incomplete factor cannot match, included): the
// reconstruction error of S2 §VII / Fig. 3.
double BlockProductError(
    const BlockIldltStructure& s, const JacobiLdltPlan& plan,
    std::span<const double> a_blocks, std::span<const double> values,
    std::span<const uint8_t> kept, std::span<const int32_t> pivot_order,
    std::span<const int8_t> pivot_size, std::span<const double> d_diag,
    std::span<const double> d_off, const ExecContext& ctx);

}  // namespace factord::internal

#endif  // FACTORD_JACOBI_LDLT_JACOBI_LDLT_SWEEPS_H_
