// block_ildlt's numeric phase on a CUDA device; see the header.
#include "core/block_ildlt/kernels/cuda/block_ildlt_kernels.h"

#include <span>
#include <utility>

#include "core/block_ildlt/kernels/cuda/block_ildlt_launch.h"
#include "core/block_ildlt/kernels/cuda/block_ildlt_solve_launch.h"
#include "core/kernels/cuda/status_macros.h"

namespace factord::kernels::cuda {
namespace {

template <typename T>
std::span<const T> AsConst(std::span<T> s) {
  return std::span<const T>(s.data(), s.size());
}

absl::Status CheckBlockIldltArrays(const BlockIldltStructure& s,
                                   const BlockIldltNumericArrays& a) {
  const size_t n = static_cast<size_t>(s.n);
  const size_t nb = static_cast<size_t>(s.num_blocks());
  if (s.value_ptr.empty() ||
      a.values.size() != static_cast<size_t>(s.value_ptr.back()) ||
      a.kept.size() != static_cast<size_t>(s.num_slots()) ||
      a.pivot_order.size() != n || a.pivot_size.size() != n ||
      a.d_diag.size() != n || a.d_off.size() != n || a.counts.size() != nb ||
      a.column_status.size() != nb) {
    return absl::InvalidArgumentError(
        "FactorBlockIldlt: an array does not have the structure's size");
  }
  for (size_t b = 0; b < nb; ++b) {
    if (s.block_size(static_cast<int64_t>(b)) > 32) {
      return absl::InvalidArgumentError(
          "FactorBlockIldlt: a block of more than 32 rows");
    }
  }
  return absl::OkStatus();
}

// Two events, recorded after alternate levels (the level loop below).
class LevelEvents {
 public:
  LevelEvents() = default;
  LevelEvents(const LevelEvents&) = delete;
  LevelEvents& operator=(const LevelEvents&) = delete;
  ~LevelEvents() {
    for (cudaEvent_t e : events_) {
      if (e != nullptr) cudaEventDestroy(e);
    }
  }
  cudaError_t Create() {
    for (cudaEvent_t& e : events_) {
      if (cudaError_t error =
              cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
          error != cudaSuccess) {
        return error;
      }
    }
    return cudaSuccess;
  }
  cudaEvent_t of_level(int level) const { return events_[level % 2]; }

 private:
  cudaEvent_t events_[2] = {nullptr, nullptr};
};

// The block pattern both the numeric phase and the solves read, on the
// device.
struct DevicePattern {
  DeviceArray<int32_t> block_ptr, row_block, row_slot_col, level_blocks;
  DeviceArray<int64_t> col_ptr, value_ptr, row_ptr, row_slot;
};

absl::StatusOr<DevicePattern> UploadPattern(const BlockIldltStructure& s,
                                            CudaStream& stream) {
  DevicePattern p;
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      block_ptr, UploadArray(std::span<const int32_t>(s.block_ptr), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      col_ptr, UploadArray(std::span<const int64_t>(s.col_ptr), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      row_block, UploadArray(std::span<const int32_t>(s.row_block), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      value_ptr, UploadArray(std::span<const int64_t>(s.value_ptr), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      row_ptr, UploadArray(std::span<const int64_t>(s.row_ptr), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      row_slot, UploadArray(std::span<const int64_t>(s.row_slot), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      row_slot_col,
      UploadArray(std::span<const int32_t>(s.row_slot_col), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      level_blocks,
      UploadArray(std::span<const int32_t>(s.level_blocks), stream));
  p.block_ptr = std::move(block_ptr);
  p.col_ptr = std::move(col_ptr);
  p.row_block = std::move(row_block);
  p.value_ptr = std::move(value_ptr);
  p.row_ptr = std::move(row_ptr);
  p.row_slot = std::move(row_slot);
  p.row_slot_col = std::move(row_slot_col);
  p.level_blocks = std::move(level_blocks);
  return p;
}

}  // namespace

absl::Status FactorBlockIldlt(CudaStream& stream, const BlockIldltStructure& s,
                              const BlockIldltNumericParams& params,
                              const BlockIldltNumericArrays& arrays,
                              BlockIldltLevelCheck check_cancelled) {
  FACTORD_CUDA_RETURN_IF_NOT_OK(CheckBlockIldltArrays(s, arrays));
  if (s.num_blocks() == 0) return absl::OkStatus();
  const BlockIldltLevelSlots slots = MakeBlockIldltLevelSlots(s);
  // The structure.
  FACTORD_CUDA_ASSIGN_OR_RETURN(pattern, UploadPattern(s, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      slot_col, UploadArray(std::span<const int32_t>(slots.slot_col), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      a_offdiag_count,
      UploadArray(std::span<const int64_t>(s.a_offdiag_count), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      level_slots,
      UploadArray(std::span<const int64_t>(slots.level_slots), stream));
  // The factor, and the per-column scratch.
  FACTORD_CUDA_ASSIGN_OR_RETURN(values,
                                UploadArray(AsConst(arrays.values), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(kept,
                                UploadArray(AsConst(arrays.kept), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(pivot_order,
                                DeviceArray<int32_t>::Allocate(s.n));
  FACTORD_CUDA_ASSIGN_OR_RETURN(pivot_size, DeviceArray<int8_t>::Allocate(s.n));
  FACTORD_CUDA_ASSIGN_OR_RETURN(d_diag, DeviceArray<double>::Allocate(s.n));
  FACTORD_CUDA_ASSIGN_OR_RETURN(d_off, DeviceArray<double>::Allocate(s.n));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      counts, DeviceArray<BlockColumnCounts>::Allocate(s.num_blocks()));
  FACTORD_CUDA_ASSIGN_OR_RETURN(keep,
                                DeviceArray<int64_t>::Allocate(s.num_blocks()));
  FACTORD_CUDA_ASSIGN_OR_RETURN(column_status,
                                DeviceArray<uint8_t>::Allocate(s.num_blocks()));
  LeftoverPool host_pool;
  host_pool.fill_factor = params.fill_factor;
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      pool, UploadArray(std::span<const LeftoverPool>(&host_pool, 1), stream));

  DeviceBlockIldltStructure view;
  view.num_blocks = s.num_blocks();
  view.block_ptr = pattern.block_ptr.data();
  view.col_ptr = pattern.col_ptr.data();
  view.row_block = pattern.row_block.data();
  view.slot_col = slot_col.data();
  view.value_ptr = pattern.value_ptr.data();
  view.row_ptr = pattern.row_ptr.data();
  view.row_slot = pattern.row_slot.data();
  view.row_slot_col = pattern.row_slot_col.data();
  view.a_offdiag_count = a_offdiag_count.data();
  view.level_blocks = pattern.level_blocks.data();
  view.level_slots = level_slots.data();
  const HostBlockIldltLevels levels{s.num_levels, s.level_ptr.data(),
                                    slots.level_slot_ptr.data()};
  DeviceBlockIldltFactor factor;
  factor.values = values.data();
  factor.kept = kept.data();
  factor.pivot_order = pivot_order.data();
  factor.pivot_size = pivot_size.data();
  factor.d_diag = d_diag.data();
  factor.d_off = d_off.data();
  factor.counts = counts.data();
  factor.keep = keep.data();
  factor.pool = pool.data();
  factor.status = column_status.data();
  // The request's cancellation check before every level. Launches return at
  // once, so a host loop that only checked would enqueue (and check) every
  // level long before the device reaches it, and a cancel would wait for the
  // whole factorization. Level l is therefore launched only once level l-2
  // has finished (its event): level l-1 is still queued while the host
  // checks and launches, so the device does not wait for the host, and a
  // cancel stops the work after the level in flight. On a stop the stream
  // is synchronised before returning: that level and the uploads still use
  // memory this call frees (the device arrays) or the caller owns (values,
  // kept), and nothing is downloaded (no partial factor).
  LevelEvents events;
  FACTORD_CUDA_RETURN_IF_ERROR(events.Create());
  for (int level = 0; level < s.num_levels; ++level) {
    if (level >= 2) {
      FACTORD_CUDA_RETURN_IF_ERROR(
          cudaEventSynchronize(events.of_level(level)));
    }
    if (absl::Status stop = check_cancelled(); !stop.ok()) {
      FACTORD_CUDA_RETURN_IF_NOT_OK(stream.Synchronize());
      return stop;
    }
    FACTORD_CUDA_RETURN_IF_ERROR(LaunchBlockIldltLevel(
        view, levels, level, params.pivots, params.tau, factor, stream.get()));
    FACTORD_CUDA_RETURN_IF_ERROR(
        cudaEventRecord(events.of_level(level), stream.get()));
  }

  FACTORD_CUDA_RETURN_IF_NOT_OK(values.CopyToHost(arrays.values, stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(kept.CopyToHost(arrays.kept, stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(
      pivot_order.CopyToHost(arrays.pivot_order, stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(
      pivot_size.CopyToHost(arrays.pivot_size, stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(d_diag.CopyToHost(arrays.d_diag, stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(d_off.CopyToHost(arrays.d_off, stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(counts.CopyToHost(arrays.counts, stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(
      column_status.CopyToHost(arrays.column_status, stream));
  return stream.Synchronize();
}

absl::Status ApplyBlockIldlt(CudaStream& stream, const BlockIldltFactorView& f,
                             std::span<double> y) {
  const BlockIldltStructure& s = *f.structure;
  if (static_cast<int64_t>(y.size()) != s.n) {
    return absl::InvalidArgumentError(
        "ApplyBlockIldlt: y does not have n entries");
  }
  if (s.num_blocks() == 0) return absl::OkStatus();
  FACTORD_CUDA_ASSIGN_OR_RETURN(pattern, UploadPattern(s, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(values, UploadArray(f.values, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(kept, UploadArray(f.kept, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(pivot_order,
                                UploadArray(f.pivot_order, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(pivot_size, UploadArray(f.pivot_size, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(d_diag, UploadArray(f.d_diag, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(d_off, UploadArray(f.d_off, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(device_y, UploadArray(AsConst(y), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(device_w, DeviceArray<double>::Allocate(s.n));
  BlockIldltSolveView view;
  view.block_ptr = pattern.block_ptr.data();
  view.col_ptr = pattern.col_ptr.data();
  view.row_block = pattern.row_block.data();
  view.value_ptr = pattern.value_ptr.data();
  view.row_ptr = pattern.row_ptr.data();
  view.row_slot = pattern.row_slot.data();
  view.row_slot_col = pattern.row_slot_col.data();
  view.values = values.data();
  view.kept = kept.data();
  view.pivot_order = pivot_order.data();
  view.pivot_size = pivot_size.data();
  view.d_diag = d_diag.data();
  view.d_off = d_off.data();
  FACTORD_CUDA_RETURN_IF_ERROR(LaunchBlockIldltSolve(
      view, s.num_blocks(), pattern.level_blocks.data(), s.num_levels,
      s.level_ptr.data(), device_y.data(), device_w.data(), stream.get()));
  FACTORD_CUDA_RETURN_IF_NOT_OK(device_y.CopyToHost(y, stream));
  return stream.Synchronize();
}

}  // namespace factord::kernels::cuda
