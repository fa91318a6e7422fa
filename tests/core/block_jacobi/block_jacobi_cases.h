// Block-Jacobi inputs for the emulated-kernel tests and the comparison of the
// emulated CUDA kernels (core/block_jacobi/kernels/cuda/block_jacobi_launch.cu)
// with the reference kernels on the same inputs. Shared by the clean tests
// and the fault-injection tests, which link a deliberately broken build of
// the same kernel source.
#ifndef FACTORD_TESTS_CORE_BLOCK_JACOBI_BLOCK_JACOBI_CASES_H_
#define FACTORD_TESTS_CORE_BLOCK_JACOBI_BLOCK_JACOBI_CASES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/block_jacobi/kernels/block_jacobi_kernels.h"
#include "core/block_jacobi/kernels/cuda/block_jacobi_launch.h"
#include "core/matrix/csr.h"

namespace factord::emulation_testing {

// A general (expanded) matrix with its diagonal-block structure. The rows of
// a block are spread over the matrix (a random permutation), so the kernels'
// row indirection is exercised.
struct BlockJacobiCase {
  std::string name;
  CsrMatrix a;
  std::vector<int64_t> block_ptr;
  std::vector<int32_t> block_rows;
  std::vector<int32_t> block_of_row;
  std::vector<int32_t> local_index;
  std::vector<int64_t> value_ptr;

  kernels::BlockLayout Layout() const;
  // The same arrays as "device" pointers (host memory under emulation).
  kernels::cuda::DeviceBlockLayout DeviceLayout() const;
};

// Dense row-major blocks -> a case. Off-block entries (a few per row) are
// added at random; zero entries of a dense block are left out of the
// pattern unless keep_zeros.
BlockJacobiCase MakeCase(const std::string& name,
                         const std::vector<std::vector<double>>& dense_blocks,
                         uint64_t seed, bool keep_zeros = false);

// Planted edge cases: blocks of size 1 (one of them zero), a zero leading
// pivot (an exchange is needed), a symmetric indefinite block whose
// factorization needs a 2x2 pivot, tied pivot candidates, exactly singular
// and rank-deficient blocks, a non-finite entry, extreme magnitudes, full
// 32x32 blocks, and a block count that leaves the last CUDA block's last
// warps idle; every block but the 32-row ones partially fills its warp.
BlockJacobiCase MakePlantedEdgeCases();

// num_blocks blocks of random sizes in [1, 32] and random (not diagonally
// dominant) values, with some zeros.
BlockJacobiCase MakeRandomCase(int num_blocks, uint64_t seed);

// Consecutive blocks of block_size rows (the last one shorter) of a real
// matrix; `a` must be general (expanded).
BlockJacobiCase MakeCaseFromMatrix(const std::string& name, const CsrMatrix& a,
                                   int block_size);

struct BlockJacobiComparison {
  std::string launch_error;     // "" when every emulated launch succeeded
  double max_extract_diff = 0;  // |emulated - reference| over dense blocks
  double max_inverse_diff = 0;  // relative, over all inverse entries
  double max_apply_diff = 0;    // relative, over z
  int64_t status_mismatches = 0;
  int64_t singular_blocks = 0;  // in the reference
  bool bitwise_equal = false;   // every output identical to the reference
  bool non_finite_output = false;
};

// Runs reference and emulated kernels on the same inputs (the emulated
// inverse and apply get the reference's blocks and inverses) with the
// emulation scheduler seeded by schedule_seed.
BlockJacobiComparison CompareWithReference(const BlockJacobiCase& c,
                                           uint64_t schedule_seed);

}  // namespace factord::emulation_testing

#endif  // FACTORD_TESTS_CORE_BLOCK_JACOBI_BLOCK_JACOBI_CASES_H_
