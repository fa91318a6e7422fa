// Block-Jacobi preconditioner (S3): M = blockdiag(D_1, ..., D_B) with the
// diagonal blocks of A on a supervariable blocking (S4 §2.3), extracted from
// CSR (S3 §3.2), inverted by batched Gauss-Jordan elimination with implicit
// pivoting (S3 §3.1) and applied as a block-diagonal multiply (S3 eq. 2).
//
// Stages: SupervariableOrder depends only on the pattern (RCM ordering and
// supervariables, S4 §2.3) and is reused when the values change;
// BlockJacobiBlocking merges supervariables into blocks of size <= 32,
// by default by coupling strength (S4 §2.5), which reads the values;
// BlockJacobiPreconditioner holds the inverted blocks of one set of values.
//
// Why priority amalgamation is the default: merging merely adjacent
// supervariables (S4 §2.3) leaves strong couplings between blocks on
// structural matrices; measured with CG to 1e-8 (b = 1), consecutive vs
// priority blocks: 494_bus 345 vs 44 iterations, 1138_bus 898 vs 81,
// bcsstk13 1269 vs 383.
//
// A singular diagonal block (no acceptable pivot, see
// core/dense/kernels/gauss_jordan.h) is counted and the first one named; its
// inverse is replaced by the inverse of the block's diagonal (1 where that
// diagonal entry is 0), so M^{-1} stays finite and symmetric for a
// symmetric A. The preconditioner is then still usable but weaker there.
#ifndef FACTORD_BLOCK_JACOBI_BLOCK_JACOBI_H_
#define FACTORD_BLOCK_JACOBI_BLOCK_JACOBI_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/base/exec_context.h"
#include "core/krylov/operator.h"
#include "core/matrix/csr.h"

namespace factord {

// Pattern-only blocking of an n x n matrix into B blocks.
struct BlockJacobiBlocking {
  std::vector<int64_t> block_ptr;     // B + 1 positions (of the new order)
  std::vector<int32_t> block_rows;    // n: matrix row at each position
  std::vector<int32_t> block_of_row;  // n: block of each matrix row
  std::vector<int32_t> local_index;   // n: position of a row in its block
  std::vector<int64_t> value_ptr;     // B + 1: offsets of the dense blocks
  int64_t supervariables = 0;         // before amalgamation
  int max_block = 0;                  // largest block size

  int64_t size() const { return static_cast<int64_t>(block_rows.size()); }
  int64_t num_blocks() const {
    return static_cast<int64_t>(block_ptr.size()) - 1;
  }
  int64_t bytes() const;
};

// Blocks given as consecutive positions of `order` (order[position] = row,
// a permutation of 0..n-1): block b is positions [block_ptr[b],
// block_ptr[b+1]). Sizes must be in [1, 32]: InvalidArgument otherwise.
absl::StatusOr<BlockJacobiBlocking> MakeBlockJacobiBlocking(
    std::vector<int32_t> order, std::vector<int64_t> block_ptr);

// How supervariables are merged into blocks of at most max_block_size.
enum class Amalgamation {
  kConsecutive,  // S4 §2.3: adjacent supervariables of the order, greedily
  kPriority,     // S4 §2.5 Alg. 1 on supervariables: strongest couplings
                 // first (core/block/priority_blocking.h); needs values
};

// The pattern-only stage: an order (RCM, or natural) and the supervariables
// found in it (S4 §2.3). Reusable while the pattern stays.
struct SupervariableOrder {
  std::vector<int32_t> order;   // n: order[position] = row
  std::vector<int64_t> sv_ptr;  // supervariables as position ranges
  int64_t bytes() const {
    return static_cast<int64_t>(order.size() * sizeof(int32_t) +
                                sv_ptr.size() * sizeof(int64_t));
  }
};

// `a`: square, full pattern (general or expanded). InvalidArgument if not
// square.
absl::StatusOr<SupervariableOrder> ComputeSupervariableOrder(const CsrMatrix& a,
                                                             bool use_rcm);

// Blocks of at most max_block_size (1..32, InvalidArgument otherwise) from
// the supervariables of `sv`; kPriority reads a's values (the same full
// pattern the order was computed on).
absl::StatusOr<BlockJacobiBlocking> AmalgamateBlocks(
    const CsrMatrix& a, const SupervariableOrder& sv, int max_block_size,
    Amalgamation amalgamation);

// Both stages at once.
absl::StatusOr<BlockJacobiBlocking> ComputeBlockJacobiBlocking(
    const CsrMatrix& a, int max_block_size, bool use_rcm,
    Amalgamation amalgamation = Amalgamation::kPriority);

class BlockJacobiPreconditioner final : public Preconditioner {
 public:
  // Extracts and inverts the diagonal blocks of `a` (general, the pattern
  // the blocking was made for) plus `shift` on the diagonal when non-empty
  // (size a.rows). Keeps `blocking` alive; copies the values it needs.
  static absl::StatusOr<std::unique_ptr<BlockJacobiPreconditioner>> Create(
      const CsrMatrix& a, std::shared_ptr<const BlockJacobiBlocking> blocking,
      const ExecContext& ctx, std::span<const double> shift = {});

  int64_t size() const override { return blocking_->size(); }
  // z = D^{-1} r through the backend's kernel.
  void Apply(const ExecContext& ctx, std::span<const double> r,
             std::span<double> z) const override;

  int64_t singular_blocks() const { return singular_blocks_; }
  int64_t first_singular_block() const { return first_singular_block_; }
  const BlockJacobiBlocking& blocking() const { return *blocking_; }
  // Bytes of the inverted blocks and status (the blocking not included).
  int64_t bytes() const;

 private:
  BlockJacobiPreconditioner() = default;

  std::shared_ptr<const BlockJacobiBlocking> blocking_;
  std::vector<double> inverses_;  // value_ptr[B] entries
  std::vector<uint8_t> status_;   // B entries, kernels::BlockStatus
  int64_t singular_blocks_ = 0;
  int64_t first_singular_block_ = -1;
};

}  // namespace factord

#endif  // FACTORD_BLOCK_JACOBI_BLOCK_JACOBI_H_
