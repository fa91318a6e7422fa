// The CUDA backend as core sees it, with the custom kernels run under the
// CPU emulation: a DeviceKernels whose block-Jacobi (extract, invert,
// apply), Jacobi and block-Jacobi triangular sweeps, batched dense
// factorization and block_ildlt numeric and solve entry points launch the
// .cu kernel sources (block_jacobi_launch.cu, trisolve_launch.cu,
// batched_dense_launch.cu, block_ildlt_launch.cu,
// block_ildlt_solve_launch.cu) on
// host arrays, exactly as kernels/cuda/cuda_backend.cc launches them on
// device copies. SpMV and the BLAS vector kernels, which the real backend
// takes from cuSPARSE and cuBLAS (not emulated), are the reference kernels
// on the host. Calls are counted and can be made to fail as in
// ReferenceDeviceKernels.
#ifndef FACTORD_TESTS_CORE_DEVICE_EMULATED_DEVICE_KERNELS_H_
#define FACTORD_TESTS_CORE_DEVICE_EMULATED_DEVICE_KERNELS_H_

#include <memory>

#include "tests/core/linalg/reference_device_kernels.h"

namespace factord::emulation_testing {

// Launches draw their block and fiber order from the emulation's scheduler
// (emulation::SetScheduleSeed).
std::shared_ptr<testing::ReferenceDeviceKernels> MakeEmulatedCudaKernels();

}  // namespace factord::emulation_testing

#endif  // FACTORD_TESTS_CORE_DEVICE_EMULATED_DEVICE_KERNELS_H_
