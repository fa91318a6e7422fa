// The cpu block-Jacobi kernels (S3 §3) against the serial reference on a
// matrix whose blocks are scattered rows (a permuted blocking) with planted
// cases: a 1 x 1 block, a block that needs pivoting, a singular block, a
// full 32 x 32 block, a 1 x 1 block with no diagonal entry, and a block with
// a tiny but regular pivot. Results must be identical and never NaN.
#include "core/block_jacobi/kernels/block_jacobi_kernels.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "core/block_jacobi/block_jacobi.h"
#include "gtest/gtest.h"

namespace factord::kernels {
namespace {

struct Planted {
  CsrMatrix a;
  BlockJacobiBlocking blocking;
  std::vector<std::vector<double>> dense_blocks;  // expected extraction
};

Planted MakePlanted() {
  const std::vector<int64_t> sizes = {1, 2, 3, 32, 1, 3};
  const int64_t n = std::accumulate(sizes.begin(), sizes.end(), int64_t{0});
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int64_t> block_ptr{0};
  for (int64_t s : sizes) block_ptr.push_back(block_ptr.back() + s);
  Planted p;
  p.blocking = *MakeBlockJacobiBlocking(order, block_ptr);
  // Dense n x n matrix: sparse couplings between blocks, planted blocks.
  std::vector<double> dense(n * n, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      if (rng() % 5 == 0) dense[i * n + j] = u(rng);
    }
  }
  std::vector<std::vector<double>> planted(sizes.size());
  planted[0] = {4.0};
  planted[1] = {0, 3,      //
                2, 0};     // zero diagonal: needs pivoting
  planted[2] = {1, 2, 3,   //
                2, 4, 6,   //
                1, 1, 1};  // rank 2: singular
  planted[3].resize(32 * 32);
  for (int i = 0; i < 32; ++i) {
    for (int j = 0; j < 32; ++j) planted[3][i * 32 + j] = u(rng);
    planted[3][i * 32 + i] += 4.0;
  }
  planted[4] = {0.0};             // no entry at all: extracted as 0, singular
  planted[5] = {1e-12, 0,   0,    //
                0,     1,   0.5,  //
                0,     0.5, 2};  // tiny diagonal in a badly scaled row: regular
  for (size_t b = 0; b < sizes.size(); ++b) {
    const int64_t m = sizes[b];
    for (int64_t li = 0; li < m; ++li) {
      for (int64_t lj = 0; lj < m; ++lj) {
        const int32_t i = order[block_ptr[b] + li],
                      j = order[block_ptr[b] + lj];
        dense[i * n + j] = planted[b][li * m + lj];
      }
    }
  }
  p.dense_blocks = planted;
  p.a.rows = p.a.cols = n;
  p.a.row_ptr.push_back(0);
  const int32_t no_entry_row = order[block_ptr[4]];
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      // Keep explicit zeros on the diagonal, except for the planted row
      // whose diagonal entry is missing from the pattern.
      const bool keep = dense[i * n + j] != 0 || (i == j && i != no_entry_row);
      if (!keep) continue;
      p.a.col_idx.push_back(static_cast<int32_t>(j));
      p.a.values.push_back(dense[i * n + j]);
    }
    p.a.row_ptr.push_back(p.a.nnz());
  }
  return p;
}

BlockLayout LayoutOf(const BlockJacobiBlocking& b) {
  return BlockLayout{b.block_ptr, b.block_rows, b.block_of_row, b.local_index,
                     b.value_ptr};
}

TEST(BlockJacobiKernels, ExtractionFindsThePlantedBlocks) {
  const Planted p = MakePlanted();
  const BlockLayout layout = LayoutOf(p.blocking);
  std::vector<double> blocks(p.blocking.value_ptr.back(), NAN);
  reference::ExtractDiagonalBlocks(ExecContext{}, p.a, layout, blocks);
  for (int64_t b = 0; b < layout.num_blocks(); ++b) {
    const std::vector<double> got(blocks.begin() + p.blocking.value_ptr[b],
                                  blocks.begin() + p.blocking.value_ptr[b + 1]);
    EXPECT_EQ(got, p.dense_blocks[b]) << "block " << b;
  }
}

TEST(BlockJacobiKernels, CpuMatchesReferenceExactly) {
  const Planted p = MakePlanted();
  const BlockLayout layout = LayoutOf(p.blocking);
  const int64_t values = p.blocking.value_ptr.back();
  const int64_t n = p.a.rows;
  std::vector<double> blocks_ref(values), inv_ref(values);
  std::vector<uint8_t> status_ref(layout.num_blocks());
  const ExecContext ref;
  reference::ExtractDiagonalBlocks(ref, p.a, layout, blocks_ref);
  reference::InvertDiagonalBlocks(ref, layout, blocks_ref, inv_ref, status_ref);
  std::vector<double> r(n), z_ref(n);
  for (int64_t i = 0; i < n; ++i) r[i] = std::sin(1.0 + i);
  reference::ApplyBlockDiagonal(ref, layout, inv_ref, r, z_ref);
  for (int threads : {1, 2, 3}) {
    ExecContext ctx;
    ctx.threads = threads;
    std::vector<double> blocks(values, NAN), inv(values, NAN), z(n, NAN);
    std::vector<uint8_t> status(layout.num_blocks(), 7);
    cpu::ExtractDiagonalBlocks(ctx, p.a, layout, blocks);
    cpu::InvertDiagonalBlocks(ctx, layout, blocks, inv, status);
    cpu::ApplyBlockDiagonal(ctx, layout, inv, r, z);
    EXPECT_EQ(blocks, blocks_ref);
    EXPECT_EQ(inv, inv_ref);
    EXPECT_EQ(status, status_ref);
    EXPECT_EQ(z, z_ref);
  }
  EXPECT_EQ(status_ref,
            (std::vector<uint8_t>{kBlockOk, kBlockOk, kBlockSingular, kBlockOk,
                                  kBlockSingular, kBlockOk}));
  for (double v : inv_ref) EXPECT_TRUE(std::isfinite(v));
  for (double v : z_ref) EXPECT_TRUE(std::isfinite(v));
}

TEST(BlockJacobiKernels, RegularBlocksAreInvertedAndSingularOnesFallBack) {
  const Planted p = MakePlanted();
  const BlockLayout layout = LayoutOf(p.blocking);
  const int64_t values = p.blocking.value_ptr.back();
  std::vector<double> blocks(values), inv(values);
  std::vector<uint8_t> status(layout.num_blocks());
  ExecContext ctx;
  ctx.threads = 2;
  cpu::ExtractDiagonalBlocks(ctx, p.a, layout, blocks);
  cpu::InvertDiagonalBlocks(ctx, layout, blocks, inv, status);
  for (int64_t b = 0; b < layout.num_blocks(); ++b) {
    const int64_t m = p.blocking.block_ptr[b + 1] - p.blocking.block_ptr[b];
    const double* block = blocks.data() + p.blocking.value_ptr[b];
    const double* inverse = inv.data() + p.blocking.value_ptr[b];
    if (status[b] == kBlockOk) {
      double error = 0;
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < m; ++j) {
          double sum = 0;
          for (int64_t k = 0; k < m; ++k)
            sum += block[i * m + k] * inverse[k * m + j];
          error = std::max(error, std::abs(sum - (i == j ? 1.0 : 0.0)));
        }
      }
      EXPECT_LT(error, 1e-10) << "block " << b;
    } else {  // fallback: inverse of the diagonal, 1 for a zero entry
      for (int64_t i = 0; i < m; ++i) {
        const double d = block[i * m + i];
        EXPECT_EQ(inverse[i * m + i], d != 0 ? 1.0 / d : 1.0);
      }
    }
  }
}

}  // namespace
}  // namespace factord::kernels
