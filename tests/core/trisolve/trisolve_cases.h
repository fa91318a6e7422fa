// Combined L\U factors, blockings and right-hand sides for the emulated
// Jacobi / block-Jacobi triangular sweeps (kernels/cuda/trisolve/
// trisolve_launch.cu, S4 eqs. 2, 4-5), and the runs of the reference
// kernels (reference::JacobiSweep / BlockJacobiSweep) and of the emulated
// kernels on them. Shared by the clean tests, the fault-injection tests and
// the real-device test.
#ifndef FACTORD_TESTS_CORE_TRISOLVE_TRISOLVE_CASES_H_
#define FACTORD_TESTS_CORE_TRISOLVE_TRISOLVE_CASES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/block_jacobi/block_jacobi.h"
#include "core/trisolve/kernels/trisolve_kernels.h"

namespace factord::emulation_testing {

using kernels::Triangle;
using kernels::TriangularBlocks;
using kernels::TriangularFactor;

// A factor that owns its arrays, with consecutive diagonal blocks and a
// right-hand side b and a start vector x0 (x0 = 0 is not used, so the first
// sweep already reads x_old).
struct TrisolveCase {
  std::string name;
  std::vector<int64_t> row_ptr{0};
  std::vector<int32_t> col_idx;
  std::vector<int64_t> diag;
  std::vector<double> values;
  BlockJacobiBlocking blocking;  // identity order
  std::vector<double> b, x0;

  int64_t n() const { return static_cast<int64_t>(diag.size()); }
  TriangularFactor View() const { return {row_ptr, col_idx, diag, values}; }
  TriangularBlocks Blocks() const;
};

// Planted rows of MakePlantedCase.
inline constexpr int64_t kPlantedEmptyLowerRow = 0;  // as every first row
inline constexpr int64_t kPlantedEmptyUpperRow = 30;
inline constexpr int64_t kPlantedEmptyLowerRow2 = 60;
inline constexpr int64_t kPlantedTinyPivotRow = 5;

// n = 1000, bandwidth <= 40, about 6 entries a row on each side, pivots in
// [1, 2], off-diagonals in (-0.3, 0.3); rows with an empty strictly lower
// part (0, 60) and an empty strictly upper part (30, and the last row), a
// tiny U pivot 1e-10 (row 5). Blocks: 1, 12, 32, then sizes cycling
// through 3, 7, 32, 2, 20, and a last block of 17 rows (a partially filled
// warp); the block count leaves idle warps in the last CUDA block.
TrisolveCase MakePlantedCase();

// A small factor (n = 40, blocks of 8) with a zero U pivot in row 7: the
// scalar sweep divides by zero exactly as the reference does.
TrisolveCase MakeZeroPivotCase();

// The IC(0) factor (LDL^T form, U = D L^T) of the 494_bus matrix in
// tests/data, built with the core's incomplete factorization; blocks
// cycling through 12, 5, 1, 32, 8. Empty name when the file is missing.
TrisolveCase Make494BusIc0Case();

// The inverses of the triangle's diagonal blocks (reference extraction and
// Gauss-Jordan inversion) and their statuses.
std::vector<double> ReferenceInverses(const TrisolveCase& c, Triangle triangle,
                                      std::vector<uint8_t>* status);

// The iterates x_1 .. x_sweeps from x0, and the per-row (scalar) or
// per-block (block) status of the last sweep.
struct SweepRun {
  std::vector<std::vector<double>> iterates;
  std::vector<uint8_t> status;
  std::string error;  // a failed launch (emulated runs only)
};

// The reference kernels, chained; the status is derived from the values
// (kDeviceSweepNotFinite for a non-finite row, or block with one).
SweepRun ReferenceJacobi(const TrisolveCase& c, Triangle triangle, int sweeps);
SweepRun ReferenceBlockJacobi(const TrisolveCase& c, Triangle triangle,
                              const std::vector<double>& inverses, int sweeps);
// The emulated kernels, chained (trisolve_emulated_run.cc).
SweepRun EmulatedJacobi(const TrisolveCase& c, Triangle triangle, int sweeps,
                        uint64_t seed);
SweepRun EmulatedBlockJacobi(const TrisolveCase& c, Triangle triangle,
                             const std::vector<double>& inverses, int sweeps,
                             uint64_t seed);

// The first difference bit for bit ("" when none), e.g. "sweep 2 x[17]:
// 0.5 vs 0.25" or "status[3]: 1 vs 0"; NaNs compare by their bits.
std::string FirstDifference(const SweepRun& got, const SweepRun& want);

}  // namespace factord::emulation_testing

#endif  // FACTORD_TESTS_CORE_TRISOLVE_TRISOLVE_CASES_H_
