// Batches of small dense blocks for the emulated batched dense factorization
// kernel (core/dense/kernels/cuda/batched_dense_launch.cu, S2 §IV) and the runs
// of that kernel and of the reference kernel (reference::FactorDenseBatch)
// on them. Shared by the clean tests, the fault-injection tests and the
// real-device test.
#ifndef FACTORD_TESTS_CORE_DENSE_DENSE_BATCHED_CASES_H_
#define FACTORD_TESTS_CORE_DENSE_DENSE_BATCHED_CASES_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/dense/kernels/batched_dense_kernels.h"

namespace factord::emulation_testing {

using kernels::DenseBatchParams;
using kernels::DenseFactorKind;

// A batch that owns its arrays; blocks are column-major m x m. Outputs are
// preset to sentinels, so that an entry nobody wrote shows.
struct DenseBlocks {
  std::vector<int32_t> size;
  std::vector<int64_t> value_offset, index_offset;
  std::vector<double> values;
  std::vector<int32_t> row_perm, col_perm;
  std::vector<int8_t> pivot_size;
  std::vector<double> d_diag, d_off;
  std::vector<int8_t> status;
  std::vector<int32_t> step;

  void Add(int m, const std::vector<double>& col_major);
  int64_t num_blocks() const { return static_cast<int64_t>(size.size()); }
  kernels::DenseBatch View();
};

// Random m x m blocks (column-major): general with entries in (-1, 1) and a
// fraction of exact zeros; symmetric indefinite with a fraction of zero
// diagonals; symmetric positive definite (B B^T + m I).
std::vector<double> RandomGeneral(int m, std::mt19937_64& rng,
                                  double zero_fraction);
std::vector<double> RandomSymmetric(int m, std::mt19937_64& rng,
                                    double zero_diagonal_fraction);
std::vector<double> RandomSpd(int m, std::mt19937_64& rng);

// Planted edge cases for every kind: blocks of size 1 (positive, zero,
// negative), a zero leading pivot ([0 1; 1 0], a 2x2 pivot for LDL^T), a
// zero block, exactly singular blocks (a zero pivot mid-way, a rank-one
// block of ties), a tiny pivot, a KKT block with a zero (2,2) part, a NaN
// entry, a pivot that overflows to -inf, entries of equal magnitude
// (ties), and random general, indefinite and SPD blocks of 17 (a partially
// filled warp), 31 and 32 rows; 22 blocks, so the last CUDA block of 4
// warps has idle warps.
DenseBlocks PlantedDenseBlocks();

// num_blocks blocks of random sizes in [1, 32] suited to `kind` (SPD for
// LL^T, indefinite for LDL^T, general for LU).
DenseBlocks RandomDenseBlocks(DenseFactorKind kind, int num_blocks,
                              uint64_t seed);

// reference::FactorDenseBatch on a copy of `input`.
DenseBlocks RunReference(const DenseBlocks& input,
                         const DenseBatchParams& params);
// The emulated kernel on a copy of `input` (dense_batched_emulated_run.cc);
// a failed launch sets *error.
DenseBlocks RunEmulated(const DenseBlocks& input,
                        const DenseBatchParams& params, uint64_t seed,
                        std::string* error);

// The first output that differs bit for bit ("" when none does), e.g.
// "values[17]: 0.5 vs 0.25".
std::string FirstDifference(const DenseBlocks& got, const DenseBlocks& want);

// Every kind x pivoting the batched kernels accept, with a readable name.
struct NamedDenseParams {
  std::string name;
  DenseBatchParams params;
};
std::vector<NamedDenseParams> AllDenseParams();

}  // namespace factord::emulation_testing

#endif  // FACTORD_TESTS_CORE_DENSE_DENSE_BATCHED_CASES_H_
