// The injected faults, for the fault-injection tests only: included by a
// faulty_*_kernels.cc file between the emulation header and a kernel source,
// it redefines one intrinsic for that translation unit.
//   FACTORD_FAULT_WRONG_SHUFFLE_LANE: every __shfl_sync reads the lane after
//     the one asked for (__shfl_xor_sync is untouched);
//   FACTORD_FAULT_MISSING_SYNCTHREADS: every __syncthreads() is dropped;
//   FACTORD_FAULT_WRONG_XOR_STRIDE: every __shfl_xor_sync reads the lane at
//     half the distance asked for (lane ^ (mask / 2)), so a butterfly
//     reduction (the pivot searches) loses its first stage and each half
//     warp settles on its own winner (__shfl_sync is untouched).
// Each variant is linked into its own test executable, so its symbols never
// meet those of the correct build.
#ifndef FACTORD_TESTS_CORE_EMULATION_FAULT_VARIANTS_H_
#define FACTORD_TESTS_CORE_EMULATION_FAULT_VARIANTS_H_

#include "core/emulation/cuda_emulation.h"

#if defined(FACTORD_FAULT_WRONG_SHUFFLE_LANE)
#define __shfl_sync(mask, var, lane) \
  (::__shfl_sync)((mask), (var), ((lane) + 1) % warpSize)
#elif defined(FACTORD_FAULT_MISSING_SYNCTHREADS)
#define __syncthreads() ((void)0)
#elif defined(FACTORD_FAULT_WRONG_XOR_STRIDE)
#define __shfl_xor_sync(mask, var, lane_mask) \
  (::__shfl_xor_sync)((mask), (var), (lane_mask) / 2)
#else
#error \
    "define FACTORD_FAULT_WRONG_SHUFFLE_LANE, FACTORD_FAULT_MISSING_SYNCTHREADS or FACTORD_FAULT_WRONG_XOR_STRIDE"
#endif

#endif  // FACTORD_TESTS_CORE_EMULATION_FAULT_VARIANTS_H_
