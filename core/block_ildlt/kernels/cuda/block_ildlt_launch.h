// Launches of the level-by-level numeric block incomplete LDL^T (S1 §IV-B,
// Alg. 1 with the pull updates of Fig. 2b, the dual-threshold dropping of
// §IV-B3 and the leftover protocol of Alg. 2 in the level-wise form of
// core/block_ildlt/block_ildlt_leftover.h) on device arrays. The kernels are in
// block_ildlt_launch.cu; the same source runs on a GPU (nvcc) and on the CPU
// under the emulation (core/emulation, in the emulated tests), where device
// pointers are host pointers.
//
// Per level, on `stream`, four launches whose per-entry arithmetic is the
// host column code's (core/block_ildlt/kernels/block_ildlt_block.h), so the
// factor, D, pivots, kept blocks and per-column counts equal the serial
// reference's bit for bit:
//   PullUpdates:    one thread block per slot (I, J) of the level's columns,
//                   threads over the entries of A(I,J); for each K common to
//                   block rows J and I (ascending), W = L(J,K) D_K is staged
//                   in shared memory and every entry subtracts its terms in
//                   pivot order;
//   FactorAndSolve: one warp per column J: the dense LDL^T of the diagonal
//                   block in force mode (kernels::DensePartialLdlt, one
//                   lane), L_JJ, the pivot arrays and D, the off-diagonal
//                   solves (a lane per row), the column norms (a lane per
//                   column, slots and rows ascending), the tau rule and
//                   the counts;
//   Leftover:       one thread: S1 Alg. 2 for the level's columns in block
//                   order, on the pool kept in device memory across levels;
//   Finish:         one thread block per column: the `keep` largest
//                   survivors by kernels::SurvivorBefore (a radix select on
//                   the bits of |v|, ties kept in position order), the kept
//                   flags of the off-diagonal blocks, the column's status.
// No allocation, no synchronisation; the caller owns every array.
#ifndef FACTORD_BLOCK_ILDLT_KERNELS_CUDA_BLOCK_ILDLT_LAUNCH_H_
#define FACTORD_BLOCK_ILDLT_KERNELS_CUDA_BLOCK_ILDLT_LAUNCH_H_

#include <cstdint>

#include "core/block_ildlt/kernels/block_ildlt_block.h"
#include "core/dense/kernels/dense_ldlt.h"
#include "core/kernels/cuda/cuda_launch.cuh"

namespace factord::kernels::cuda {

// Per-column status written by Finish: whether the column's D and final L
// (L_JJ included) are finite.
inline constexpr uint8_t kBlockColumnOk = 0;
inline constexpr uint8_t kBlockColumnNotFinite = 1;  // D or L not finite

// BlockIldltStructure's arrays on the device (device pointers; sizes as in
// core/block_ildlt/block_ildlt.h), plus two the launches need:
//   slot_col: per slot, its block column J;
//   level_slots: the slots of the levels' columns, level by level, each
//     level's columns in level_blocks order.
struct DeviceBlockIldltStructure {
  int64_t num_blocks = 0;
  const int32_t* block_ptr = nullptr;        // num_blocks + 1
  const int64_t* col_ptr = nullptr;          // num_blocks + 1
  const int32_t* row_block = nullptr;        // slots
  const int32_t* slot_col = nullptr;         // slots
  const int64_t* value_ptr = nullptr;        // slots + 1
  const int64_t* row_ptr = nullptr;          // num_blocks + 1
  const int64_t* row_slot = nullptr;         // row entries
  const int32_t* row_slot_col = nullptr;     // row entries
  const int64_t* a_offdiag_count = nullptr;  // num_blocks
  const int32_t* level_blocks = nullptr;     // num_blocks
  const int64_t* level_slots = nullptr;      // slots
};

// The level boundaries, on the host (the level loop runs there).
struct HostBlockIldltLevels {
  int num_levels = 0;
  const int64_t* level_ptr = nullptr;       // num_levels + 1, into level_blocks
  const int64_t* level_slot_ptr = nullptr;  // num_levels + 1, into level_slots
};

// The factor being built (device pointers). values holds S A S scattered on
// entry (BlockIldltFactor's layout); kept must be 1 for every slot on
// entry; pool holds {fill_factor, 0, 0} on entry.
struct DeviceBlockIldltFactor {
  double* values = nullptr;             // value_ptr[slots]
  uint8_t* kept = nullptr;              // slots
  int32_t* pivot_order = nullptr;       // n
  int8_t* pivot_size = nullptr;         // n
  double* d_diag = nullptr;             // n
  double* d_off = nullptr;              // n
  BlockColumnCounts* counts = nullptr;  // num_blocks, written
  int64_t* keep = nullptr;              // num_blocks, scratch
  LeftoverPool* pool = nullptr;         // 1
  uint8_t* status = nullptr;            // num_blocks, written
};

// The four launches of level `level` (0 <= level < levels.num_levels) on
// `stream`; levels must be launched in order, each after the one before
// (stream order suffices). `params` should have force set (S1: a diagonal
// block eliminates all its columns); tau >= 0. Returns the first launch
// error.
cudaError_t LaunchBlockIldltLevel(const DeviceBlockIldltStructure& s,
                                  const HostBlockIldltLevels& levels, int level,
                                  const DenseLdltParams& params, double tau,
                                  const DeviceBlockIldltFactor& f,
                                  cudaStream_t stream);

}  // namespace factord::kernels::cuda

#endif  // FACTORD_BLOCK_ILDLT_KERNELS_CUDA_BLOCK_ILDLT_LAUNCH_H_
