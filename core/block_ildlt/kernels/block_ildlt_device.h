// What a device backend's block_ildlt numeric phase (S1 §IV-B, Alg. 1 and
// the level-wise Alg. 2 of core/block_ildlt/block_ildlt_leftover.h) takes and
// gives through the seam (DeviceKernels::FactorBlockIldlt; the solves,
// DeviceKernels::ApplyBlockIldlt, take kernels::BlockIldltFactorView), and the
// per-level slot lists its launches need, built on the host from the
// structure. Header only (core builds no device code).
#ifndef FACTORD_BLOCK_ILDLT_KERNELS_BLOCK_ILDLT_DEVICE_H_
#define FACTORD_BLOCK_ILDLT_KERNELS_BLOCK_ILDLT_DEVICE_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "core/block_ildlt/kernels/block_ildlt_block.h"
#include "core/block_ildlt/kernels/block_ildlt_solve.h"
#include "core/block_ildlt/kernels/factor_types.h"
#include "core/dense/kernels/dense_ldlt.h"

namespace factord::kernels {

struct BlockIldltNumericParams {
  DenseLdltParams pivots;  // force set: no delays across blocks
  double tau = 0;          // >= 0, the first dropping rule
  double fill_factor = 0;  // <= 0: no second rule (S1 Alg. 2 pool)
};

// The factor's arrays, host memory owned by the caller, with the sizes of
// BlockIldltFactor's members: values (value_ptr.back()) holds S A S
// scattered on entry and the factor on return; kept (slots) must be all 1
// on entry; pivot_order, pivot_size, d_diag, d_off (n) are outputs; counts
// (num_blocks) gets what each column adds to the stats, column_status
// (num_blocks) 0, or 1 where the column's D or L holds Inf or NaN.
struct BlockIldltNumericArrays {
  std::span<double> values;
  std::span<uint8_t> kept;
  std::span<int32_t> pivot_order;
  std::span<int8_t> pivot_size;
  std::span<double> d_diag;
  std::span<double> d_off;
  std::span<BlockColumnCounts> counts;
  std::span<uint8_t> column_status;
};

// The request's cancellation check (ExecContext::CheckCancelled),
// which the device numeric phase calls on the host before each level's
// launches once the levels before it have finished or are the only work in
// flight (see the backend); a non-OK status (CANCELLED, DEADLINE_EXCEEDED)
// stops the run: nothing more is launched, the arrays are unspecified and
// that status is returned as is.
using BlockIldltLevelCheck = absl::FunctionRef<absl::Status()>;

// The slots of every level's columns in level order (what one launch per
// level walks), and the block column of every slot.
struct BlockIldltLevelSlots {
  std::vector<int32_t> slot_col;        // slots
  std::vector<int64_t> level_slots;     // slots
  std::vector<int64_t> level_slot_ptr;  // num_levels + 1
};

inline BlockIldltLevelSlots MakeBlockIldltLevelSlots(
    const BlockIldltStructure& s) {
  BlockIldltLevelSlots out;
  out.slot_col.resize(s.num_slots());
  for (int64_t j = 0; j < s.num_blocks(); ++j) {
    for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
      out.slot_col[t] = static_cast<int32_t>(j);
    }
  }
  out.level_slots.reserve(s.num_slots());
  out.level_slot_ptr.assign(1, 0);
  for (int l = 0; l < s.num_levels; ++l) {
    for (int64_t b = s.level_ptr[l]; b < s.level_ptr[l + 1]; ++b) {
      const int32_t j = s.level_blocks[b];
      for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
        out.level_slots.push_back(t);
      }
    }
    out.level_slot_ptr.push_back(static_cast<int64_t>(out.level_slots.size()));
  }
  return out;
}

// Bytes a device run of the numeric phase holds: the structure, the slot
// lists, the factor's arrays and the per-column scratch.
inline int64_t BlockIldltDeviceBytes(const BlockIldltStructure& s) {
  const int64_t nb = s.num_blocks(), slots = s.num_slots();
  const int64_t rows = static_cast<int64_t>(s.row_slot.size());
  const int64_t structure = 4 * (nb + 1) + 8 * (nb + 1) + 4 * slots +
                            4 * slots + 8 * (slots + 1) + 8 * (nb + 1) +
                            8 * rows + 4 * rows + 8 * nb + 4 * nb + 8 * slots;
  const int64_t factor = 8 * s.value_ptr.back() + slots + s.n * (4 + 1 + 16);
  const int64_t scratch =
      nb * static_cast<int64_t>(sizeof(BlockColumnCounts) + 8 + 1) +
      static_cast<int64_t>(sizeof(LeftoverPool));
  return structure + factor + scratch;
}

// The factor's arrays as the per-block solves read them (host pointers,
// valid while the factor lives).
inline BlockIldltSolveView SolveViewOf(const BlockIldltFactorView& f) {
  const BlockIldltStructure& s = *f.structure;
  BlockIldltSolveView view;
  view.block_ptr = s.block_ptr.data();
  view.col_ptr = s.col_ptr.data();
  view.row_block = s.row_block.data();
  view.value_ptr = s.value_ptr.data();
  view.row_ptr = s.row_ptr.data();
  view.row_slot = s.row_slot.data();
  view.row_slot_col = s.row_slot_col.data();
  view.values = f.values.data();
  view.kept = f.kept.data();
  view.pivot_order = f.pivot_order.data();
  view.pivot_size = f.pivot_size.data();
  view.d_diag = f.d_diag.data();
  view.d_off = f.d_off.data();
  return view;
}

// Bytes a device solve holds: the factor, the structure arrays it reads,
// the level lists and the two vectors.
inline int64_t BlockIldltSolveDeviceBytes(const BlockIldltFactorView& f) {
  const BlockIldltStructure& s = *f.structure;
  const int64_t nb = s.num_blocks(), slots = s.num_slots();
  const int64_t rows = static_cast<int64_t>(s.row_slot.size());
  return 4 * (nb + 1) + 8 * (nb + 1) + 4 * slots + 8 * (slots + 1) +
         8 * (nb + 1) + 12 * rows + 4 * nb + 8 * s.value_ptr.back() + slots +
         s.n * (4 + 1 + 16) + 16 * s.n;
}

}  // namespace factord::kernels

#endif  // FACTORD_BLOCK_ILDLT_KERNELS_BLOCK_ILDLT_DEVICE_H_
