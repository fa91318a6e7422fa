// Block-Jacobi (S3) on the supervariable blocking of S4 §2.3.
#include "core/block_jacobi/block_jacobi.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/block/priority_blocking.h"
#include "core/block/supervariables.h"
#include "core/block_jacobi/block_jacobi_dispatch.h"
#include "core/dense/kernels/gauss_jordan.h"
#include "core/order/rcm.h"

namespace factord {
namespace {

kernels::BlockLayout LayoutOf(const BlockJacobiBlocking& b) {
  return kernels::BlockLayout{b.block_ptr, b.block_rows, b.block_of_row,
                              b.local_index, b.value_ptr};
}

}  // namespace

int64_t BlockJacobiBlocking::bytes() const {
  return static_cast<int64_t>(
      (block_ptr.size() + value_ptr.size()) * sizeof(int64_t) +
      (block_rows.size() + block_of_row.size() + local_index.size()) *
          sizeof(int32_t));
}

absl::StatusOr<BlockJacobiBlocking> MakeBlockJacobiBlocking(
    std::vector<int32_t> order, std::vector<int64_t> block_ptr) {
  const int64_t n = static_cast<int64_t>(order.size());
  if (block_ptr.empty() || block_ptr.front() != 0 || block_ptr.back() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("block pointers must run from 0 to n = ", n));
  }
  BlockJacobiBlocking b;
  b.block_of_row.assign(n, -1);
  b.local_index.assign(n, 0);
  b.value_ptr.assign(1, 0);
  for (size_t k = 0; k + 1 < block_ptr.size(); ++k) {
    const int64_t m = block_ptr[k + 1] - block_ptr[k];
    if (m < 1 || m > kernels::kMaxGaussJordanSize) {
      return absl::InvalidArgumentError(
          absl::StrCat("block ", k, " has size ", m, ", outside 1..",
                       kernels::kMaxGaussJordanSize));
    }
    for (int64_t p = block_ptr[k]; p < block_ptr[k + 1]; ++p) {
      const int32_t row = order[p];
      if (row < 0 || row >= n || b.block_of_row[row] >= 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "block order is not a permutation (position ", p, ")"));
      }
      b.block_of_row[row] = static_cast<int32_t>(k);
      b.local_index[row] = static_cast<int32_t>(p - block_ptr[k]);
    }
    b.value_ptr.push_back(b.value_ptr.back() + m * m);
    b.max_block = std::max<int>(b.max_block, static_cast<int>(m));
  }
  b.block_rows = std::move(order);
  b.block_ptr = std::move(block_ptr);
  return b;
}

absl::StatusOr<SupervariableOrder> ComputeSupervariableOrder(const CsrMatrix& a,
                                                             bool use_rcm) {
  if (a.rows != a.cols) {
    return absl::InvalidArgumentError("block-Jacobi needs a square matrix");
  }
  SupervariableOrder sv;
  if (use_rcm) {
    sv.order = ReverseCuthillMcKee(a);
  } else {
    sv.order.resize(a.rows);
    for (int64_t i = 0; i < a.rows; ++i) sv.order[i] = static_cast<int32_t>(i);
  }
  sv.sv_ptr = FindSupervariables(a, sv.order);
  if (sv.sv_ptr.size() < 2) sv.sv_ptr.assign(1, 0);  // n == 0
  return sv;
}

absl::StatusOr<BlockJacobiBlocking> AmalgamateBlocks(
    const CsrMatrix& a, const SupervariableOrder& sv, int max_block_size,
    Amalgamation amalgamation) {
  if (max_block_size < 1 || max_block_size > kernels::kMaxGaussJordanSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("max_block_size ", max_block_size, " outside 1..",
                     kernels::kMaxGaussJordanSize));
  }
  if (static_cast<int64_t>(sv.order.size()) != a.rows) {
    return absl::InvalidArgumentError(
        "supervariable order made for another matrix size");
  }
  absl::StatusOr<BlockJacobiBlocking> blocking;
  if (amalgamation == Amalgamation::kPriority) {
    PriorityBlocks blocks =
        PriorityAmalgamation(a, sv.order, sv.sv_ptr, max_block_size);
    blocking = MakeBlockJacobiBlocking(std::move(blocks.order),
                                       std::move(blocks.block_ptr));
  } else {
    std::vector<int64_t> block_ptr =
        AmalgamateSupervariables(sv.sv_ptr, max_block_size);
    if (block_ptr.size() < 2) block_ptr.assign(1, 0);
    blocking = MakeBlockJacobiBlocking(sv.order, std::move(block_ptr));
  }
  if (blocking.ok()) {
    blocking->supervariables = static_cast<int64_t>(sv.sv_ptr.size()) - 1;
  }
  return blocking;
}

absl::StatusOr<BlockJacobiBlocking> ComputeBlockJacobiBlocking(
    const CsrMatrix& a, int max_block_size, bool use_rcm,
    Amalgamation amalgamation) {
  absl::StatusOr<SupervariableOrder> sv = ComputeSupervariableOrder(a, use_rcm);
  if (!sv.ok()) return sv.status();
  return AmalgamateBlocks(a, *sv, max_block_size, amalgamation);
}

absl::StatusOr<std::unique_ptr<BlockJacobiPreconditioner>>
BlockJacobiPreconditioner::Create(
    const CsrMatrix& a, std::shared_ptr<const BlockJacobiBlocking> blocking,
    const ExecContext& ctx, std::span<const double> shift) {
  if (blocking == nullptr || blocking->size() != a.rows || a.rows != a.cols ||
      IsSymmetric(a.structure)) {
    return absl::InvalidArgumentError(
        "block-Jacobi needs a general square matrix of the blocking's size");
  }
  std::unique_ptr<BlockJacobiPreconditioner> m(new BlockJacobiPreconditioner);
  m->blocking_ = std::move(blocking);
  const BlockJacobiBlocking& b = *m->blocking_;
  const kernels::BlockLayout layout = LayoutOf(b);
  std::vector<double> blocks(b.value_ptr.back());
  linalg::ExtractDiagonalBlocks(ctx, a, layout, blocks);  // S3 §3.2
  if (!shift.empty()) {
    for (int64_t row = 0; row < a.rows; ++row) {
      const int64_t block = b.block_of_row[row];
      const int64_t m_b = b.block_ptr[block + 1] - b.block_ptr[block];
      const int64_t local = b.local_index[row];
      blocks[b.value_ptr[block] + local * m_b + local] += shift[row];
    }
  }
  m->inverses_.resize(blocks.size());
  m->status_.resize(b.num_blocks());
  linalg::InvertDiagonalBlocks(ctx, layout, blocks, m->inverses_,
                               m->status_);  // S3 §3.1
  if (absl::Status s = ctx.CheckDevice(); !s.ok()) return s;
  for (int64_t k = 0; k < b.num_blocks(); ++k) {
    if (m->status_[k] != kernels::kBlockOk) {
      if (m->singular_blocks_++ == 0) m->first_singular_block_ = k;
    }
  }
  return m;
}

void BlockJacobiPreconditioner::Apply(const ExecContext& ctx,
                                      std::span<const double> r,
                                      std::span<double> z) const {
  linalg::ApplyBlockDiagonal(ctx, LayoutOf(*blocking_), inverses_, r, z);
}

int64_t BlockJacobiPreconditioner::bytes() const {
  return static_cast<int64_t>(inverses_.size() * sizeof(double) +
                              status_.size());
}

}  // namespace factord
