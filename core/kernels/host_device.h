// FACTORD_HOST_DEVICE marks the dense per-block routines that the CPU kernels
// and the CUDA kernels share. CUDA 13's Thrust no longer defines __host__ /
// __device__ for plain g++, so the project keeps its own macro, set only when
// nvcc compiles the translation unit.
#ifndef FACTORD_KERNELS_HOST_DEVICE_H_
#define FACTORD_KERNELS_HOST_DEVICE_H_

#if defined(__CUDACC__)
#define FACTORD_HOST_DEVICE __host__ __device__
#else
#define FACTORD_HOST_DEVICE
#endif

#endif  // FACTORD_KERNELS_HOST_DEVICE_H_
