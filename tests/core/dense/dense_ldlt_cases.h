// Batches of small symmetric blocks for the emulated dense LDL^T kernel
// (core/dense/kernels/cuda/dense_ldlt_launch.cu) and the runs of that kernel
// and of the host routine DensePartialLdlt on them. Shared by the clean tests
// and the fault-injection tests.
#ifndef FACTORD_TESTS_CORE_DENSE_DENSE_LDLT_CASES_H_
#define FACTORD_TESTS_CORE_DENSE_DENSE_LDLT_CASES_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/dense/kernels/dense_ldlt.h"

namespace factord::emulation_testing {

using kernels::DenseLdltCounts;
using kernels::DenseLdltParams;

// Symmetric blocks, column-major with both triangles.
struct LdltBatch {
  std::vector<int64_t> value_ptr{0};
  std::vector<int64_t> pivot_ptr{0};
  std::vector<double> values;

  // lower_rows: the lower triangle row by row (m (m + 1) / 2 values).
  void Add(int m, const std::vector<double>& lower_rows);
  int64_t num_blocks() const { return int64_t(pivot_ptr.size()) - 1; }
};

// The lower triangle of a random symmetric m x m block, values in (-1, 1),
// each diagonal entry zero with probability zero_diagonal_fraction.
std::vector<double> RandomLower(int m, std::mt19937_64& rng,
                                double zero_diagonal_fraction);

// Planted: blocks of size 1 (positive, zero, negative), a pure 2x2 pivot,
// a zero block, a singular 3x3, tiny diagonals next to large couplings, a
// KKT-like block with a zero (2,2) part, a rank-one block, random
// indefinite blocks partially filling the warp, and full 32-row ones; 17
// blocks, so the last CUDA block has idle warps.
LdltBatch PlantedBatch();

struct LdltOutputs {
  std::vector<double> values, d_diag, d_off;
  std::vector<int> order, size;
  std::vector<DenseLdltCounts> counts;
};

// Outputs preset to sentinels, so that an entry nobody wrote shows.
LdltOutputs Sentinel(const LdltBatch& batch);
// DensePartialLdlt(p = m) on every block.
LdltOutputs RunReference(const LdltBatch& batch, const DenseLdltParams& p);
// The emulated kernel (dense_ldlt_emulated_run.cc); a failed launch sets
// *error.
LdltOutputs RunEmulated(const LdltBatch& batch, const DenseLdltParams& p,
                        uint64_t seed, std::string* error);
// True when every output is bitwise identical.
bool SameOutputs(const LdltOutputs& a, const LdltOutputs& b);

}  // namespace factord::emulation_testing

#endif  // FACTORD_TESTS_CORE_DENSE_DENSE_LDLT_CASES_H_
