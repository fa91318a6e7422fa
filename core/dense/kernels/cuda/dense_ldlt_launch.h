// Launch of the batched dense LDL^T kernel for small symmetric blocks (at
// most 32 rows: S1 §IV-B1 diagonal blocks, S2 Alg. 1 in its LDL^T variant)
// with static, Bunch-Kaufman or rook pivoting and the threshold passes of
// DensePartialLdlt (core/dense/kernels/dense_ldlt.h), whose outputs it
// reproduces. The kernel source is dense_ldlt_launch.cu; it runs on a GPU
// and, in the tests, under the CPU emulation (core/emulation, in the emulated
// tests).
//
// Enqueues on `stream`, returns the launch status; no allocation, no
// synchronisation. All arrays are device arrays owned by the caller.
#ifndef FACTORD_DENSE_KERNELS_CUDA_DENSE_LDLT_LAUNCH_H_
#define FACTORD_DENSE_KERNELS_CUDA_DENSE_LDLT_LAUNCH_H_

#include <cstdint>

#include "core/dense/kernels/dense_ldlt.h"
#include "core/kernels/cuda/cuda_launch.cuh"

namespace factord::kernels::cuda {

// B symmetric blocks; block b has m_b = pivot_ptr[b+1] - pivot_ptr[b] rows
// (1 <= m_b <= 32), all of them fully summed (p = m: no update rows), stored
// column-major with both triangles at values[value_ptr[b]].
struct DeviceDenseLdltBatch {
  int64_t num_blocks = 0;
  const int64_t* value_ptr = nullptr;  // B + 1
  const int64_t* pivot_ptr = nullptr;  // B + 1
};

// For each block, exactly DensePartialLdlt(values + value_ptr[b], m_b, m_b,
// params, order + pivot_ptr[b], size + ..., d_diag + ..., d_off + ...): the
// block is overwritten by its factor and Schur complement; order, size,
// d_diag and d_off have pivot_ptr[B] entries; counts has B entries.
cudaError_t LaunchDenseLdltBatch(const DeviceDenseLdltBatch& batch,
                                 const DenseLdltParams& params, double* values,
                                 int* order, int* size, double* d_diag,
                                 double* d_off, DenseLdltCounts* counts,
                                 cudaStream_t stream);

}  // namespace factord::kernels::cuda

#endif  // FACTORD_DENSE_KERNELS_CUDA_DENSE_LDLT_LAUNCH_H_
