// Numeric block incomplete LDL^T (S1 §IV-B, Alg. 1), left-looking with pull
// updates, level by level (S1 §IV-A: the level sets dictate the processing
// order): the block columns of one level read only finished columns of
// earlier levels and write only their own slots, so they are independent.
// The column kernel is block_ildlt_column.cc; the leftover budget of the
// dual-threshold dropping follows S1 Alg. 2 in the level-wise deterministic
// form of block_ildlt_leftover.h. Backend kReference runs the levels'
// columns one after another on the calling thread (the reference); kCpu
// (and kCuda without a device context, or with a backend that has no
// block_ildlt kernels; with one, block_ildlt_device.h runs the level loop
// on the device) runs each level as: Prepare of its columns in
// parallel (or, when one column holds most of the level's work, the
// columns one after another with the blocks of a big column updated in
// parallel), the leftover grants in block order, Finish of its columns in
// parallel. Every column writes the same bits either way, and the
// per-column counters are summed in level order, so the factor and its
// stats are equal bit for bit across backends and thread counts. An update
// that overflows leaves Inf or NaN in the factor, as in the reference: it
// is not an error, the columns are counted in the stats (every backend).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <span>
#include <utility>
#include <vector>

#include "core/block_ildlt/block_ildlt.h"
#include "core/block_ildlt/block_ildlt_column.h"
#include "core/block_ildlt/block_ildlt_device.h"
#include "core/block_ildlt/block_ildlt_leftover.h"
#include "core/block_ildlt/block_ildlt_levels.h"
#include "core/dense/kernels/dense_ldlt.h"
#include "core/dense/pivot_params.h"
#include "core/order/scaling.h"

namespace factord {
namespace {

// S1 §IV-B: a diagonal block eliminates all its columns (no delays), so the
// shared parameters run in force mode.
kernels::DenseLdltParams PivotParams(const FactorOptions& options,
                                     double max_abs) {
  kernels::DenseLdltParams params = internal::DensePivotParams(
      options.pivoting, options.pivot_threshold, max_abs);
  params.force = true;
  return params;
}

// Work below which parallel loops stay on the calling thread: tens of
// microseconds, about what waking TBB's workers costs (the bits are the
// same either way).
constexpr int64_t kParallelFlops = 50000;
constexpr int64_t kParallelFinishValues = 65536;

// The work of the numeric phase, pattern only (every block kept).
struct LevelWork {
  // Per block column: pull updates bj * (values of column K from (J, K)
  // on), the dense LDL^T bj^3, the off-diagonal solves bj * (values of
  // column J): an upper bound of its flops.
  std::vector<int64_t> column_flops;
  std::vector<int64_t> level_flops, level_max_flops;  // per level
  std::vector<int64_t> level_values;  // per level: what Finish scans

  explicit LevelWork(const BlockIldltStructure& s)
      : column_flops(s.num_blocks(), 0),
        level_flops(s.num_levels, 0),
        level_max_flops(s.num_levels, 0),
        level_values(s.num_levels, 0) {
    for (int l = 0; l < s.num_levels; ++l) {
      for (int64_t b = s.level_ptr[l]; b < s.level_ptr[l + 1]; ++b) {
        const int32_t j = s.level_blocks[b];
        const int64_t bj = s.block_size(j);
        const int64_t column =
            s.value_ptr[s.col_ptr[j + 1]] - s.value_ptr[s.col_ptr[j]];
        int64_t updates = 0;
        for (int64_t r = s.row_ptr[j]; r < s.row_ptr[j + 1]; ++r) {
          const int32_t k = s.row_slot_col[r];
          updates += s.value_ptr[s.col_ptr[k + 1]] - s.value_ptr[s.row_slot[r]];
        }
        column_flops[j] = bj * (updates + column) + bj * bj * bj;
        level_flops[l] += column_flops[j];
        level_max_flops[l] = std::max(level_max_flops[l], column_flops[j]);
        level_values[l] += column;
      }
    }
  }
};

// Per block column, 1 when its D or L (L_JJ included) holds Inf or NaN:
// what the device's Finish writes to its column status
// (core/block_ildlt/kernels/cuda/block_ildlt_launch.h).
std::vector<uint8_t> NotFiniteColumns(const BlockIldltStructure& s,
                                      std::span<const double> values,
                                      std::span<const double> d_diag,
                                      std::span<const double> d_off) {
  std::vector<uint8_t> status(s.num_blocks(), 0);
  for (int64_t j = 0; j < s.num_blocks(); ++j) {
    bool finite = true;
    for (int64_t e = s.value_ptr[s.col_ptr[j]];
         e < s.value_ptr[s.col_ptr[j + 1]]; ++e) {
      finite = finite && std::isfinite(values[e]);
    }
    for (int64_t k = s.block_ptr[j]; k < s.block_ptr[j + 1]; ++k) {
      finite = finite && std::isfinite(d_diag[k]) && std::isfinite(d_off[k]);
    }
    status[j] = finite ? 0 : 1;
  }
  return status;
}

void CountNotFiniteColumns(std::span<const uint8_t> column_status,
                           BlockIldltStats* stats) {
  for (size_t j = 0; j < column_status.size(); ++j) {
    if (column_status[j] == 0) continue;
    if (stats->not_finite_columns++ == 0) {
      stats->first_not_finite_column = static_cast<int64_t>(j);
    }
  }
}

}  // namespace

absl::Status ScatterScaledBlocks(const CsrMatrix& a,
                                 const BlockIldltStructure& s,
                                 const FactorOptions& options,
                                 std::vector<double>* scaling,
                                 std::vector<double>* values_out) {
  if (a.rows != s.n || a.nnz() != static_cast<int64_t>(s.gather.size()) ||
      static_cast<int64_t>(a.values.size()) != a.nnz()) {
    return absl::InvalidArgumentError(
        "the matrix does not have the pattern the block_ildlt structure was "
        "built for");
  }
  const int64_t n = s.n, nb = s.num_blocks();
  // IPM shifts on the stored values (and on diagonals outside the pattern).
  auto shift_of = [&](int64_t i) { return options.ShiftOf(i); };
  std::vector<double> stored = a.values;
  std::vector<uint8_t> has_diagonal(n, 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
      if (a.col_idx[e] == i) {
        stored[e] += shift_of(i);
        has_diagonal[i] = 1;
      }
    }
  }
  for (double v : stored) {
    if (!std::isfinite(v)) {
      return absl::InvalidArgumentError("the matrix has a non-finite value");
    }
  }
  *scaling = options.scaling == Scaling::kNone ? std::vector<double>(n, 1.0)
                                               : RuizScaling(a, stored);
  const std::vector<double>& sc = *scaling;

  // Scatter S A S into the dense blocks.
  std::vector<double>& values = *values_out;
  values.assign(s.value_ptr.back(), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
      const double v = stored[e] * sc[i] * sc[a.col_idx[e]];
      values[s.gather[e]] = v;
      if (s.gather_mirror[e] >= 0) values[s.gather_mirror[e]] = v;
    }
  }
  auto diagonal_position = [&](int64_t k, int64_t block) {
    const int64_t local = k - s.block_ptr[block];
    return s.value_ptr[s.col_ptr[block]] + local * s.block_size(block) + local;
  };
  for (int64_t b = 0; b < nb; ++b) {
    for (int64_t k = s.block_ptr[b]; k < s.block_ptr[b + 1]; ++k) {
      const int32_t i = s.perm[k];
      if (!has_diagonal[i] && shift_of(i) != 0) {
        values[diagonal_position(k, b)] += shift_of(i) * sc[i] * sc[i];
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<BlockIldltFactor>> BlockIldltFactor::Create(
    const CsrMatrix& a, std::shared_ptr<const BlockIldltStructure> structure,
    const FactorOptions& options, const ExecContext& ctx) {
  if (structure == nullptr || a.rows != structure->n ||
      a.nnz() != static_cast<int64_t>(structure->gather.size()) ||
      static_cast<int64_t>(a.values.size()) != a.nnz()) {
    return absl::InvalidArgumentError(
        "the matrix does not have the pattern the block_ildlt structure was "
        "built for");
  }
  const BlockIldltStructure& s = *structure;
  const int64_t n = s.n, nb = s.num_blocks();
  std::unique_ptr<BlockIldltFactor> f(new BlockIldltFactor());
  f->structure_ = structure;

  if (absl::Status st =
          ScatterScaledBlocks(a, s, options, &f->scaling_, &f->values_);
      !st.ok()) {
    return st;
  }
  std::vector<double>& values = f->values_;
  double max_abs = 0;
  for (double v : values) max_abs = std::max(max_abs, std::abs(v));
  f->stats_.max_abs = max_abs;
  const kernels::DenseLdltParams params = PivotParams(options, max_abs);

  f->kept_.assign(s.num_slots(), 1);
  f->pivot_order_.resize(n);
  f->pivot_size_.resize(n);
  f->d_diag_.resize(n);
  f->d_off_.resize(n);
  const internal::BlockColumnFactorizer columns(
      s, params, std::max(options.drop_tolerance, 0.0),
      {values.data(), f->kept_.data(), f->pivot_order_.data(),
       f->pivot_size_.data(), f->d_diag_.data(), f->d_off_.data()});
  internal::LevelLeftover leftover(options.fill_factor);  // S1 Alg. 2
  std::vector<internal::BlockColumnCounts> counts(nb);
  std::vector<int64_t> keep(nb, 0);
  BlockIldltStats& stats = f->stats_;
  auto add_counts = [&stats](const internal::BlockColumnCounts& c) {
    stats.perturbed_pivots += c.perturbed;
    stats.two_by_two_pivots += c.two_by_two;
    stats.nnz_factor += c.nnz_factor;
    stats.dropped_entries += c.dropped_entries;
    stats.dropped_blocks += c.dropped_blocks;
  };

  switch (ctx.backend) {
    case Backend::kReference:
    case Backend::kCpu:
      break;
    case Backend::kCuda: {
      // The level loop on the device (S1 §IV-B), ctx checked before every
      // level; the host path below without a device context or when the
      // backend has no block_ildlt kernels. A column whose D or L is not
      // finite (column_status) holds what the reference would hold, and is
      // counted as the host path does.
      if (ctx.device == nullptr) break;
      if (absl::Status st = ctx.CheckCancelled(); !st.ok()) return st;
      std::vector<uint8_t> column_status(nb, 0);
      const absl::StatusOr<bool> ran = internal::FactorBlockIldltOnDevice(
          ctx, s,
          {params, std::max(options.drop_tolerance, 0.0), options.fill_factor},
          {values, f->kept_, f->pivot_order_, f->pivot_size_, f->d_diag_,
           f->d_off_, counts, column_status});
      if (!ran.ok()) return ran.status();
      if (!*ran) break;
      for (int64_t b = 0; b < nb; ++b) add_counts(counts[s.level_blocks[b]]);
      CountNotFiniteColumns(column_status, &stats);
      return f;
    }
  }

  if (!internal::LevelsRunThreaded(ctx)) {
    // The reference (and one thread): level by level, column by column.
    internal::BlockColumnScratch scratch(s);
    for (int level = 0; level < s.num_levels; ++level) {
      for (int64_t b = s.level_ptr[level]; b < s.level_ptr[level + 1]; ++b) {
        // Every block column: with a high fill level one column's pull
        // updates can take long, and a check is one clock read, so a
        // cancelled or expired request stops within one column.
        if (absl::Status st = ctx.CheckCancelled(); !st.ok()) return st;
        const int32_t j = s.level_blocks[b];
        columns.Prepare(j, &scratch, &counts[j]);
        keep[j] = leftover.Keep(s.a_offdiag_count[j], counts[j].survivors);
        columns.Finish(j, keep[j], &scratch, &counts[j]);
        add_counts(counts[j]);
      }
      leftover.EndLevel();
    }
    CountNotFiniteColumns(NotFiniteColumns(s, values, f->d_diag_, f->d_off_),
                          &stats);
    return f;
  }

  // Threaded: the columns of a level in parallel, per-thread workspaces.
  std::vector<internal::BlockColumnScratch> scratch;
  scratch.reserve(internal::LevelThreadCount(ctx));
  for (int t = 0; t < internal::LevelThreadCount(ctx); ++t) {
    scratch.emplace_back(s);
  }
  const LevelWork work(s);
  const bool force = internal::ForceParallelLevelsForTesting().load();
  std::atomic<bool> stop{false};
  absl::Status status;
  internal::InLevelArena(ctx, [&] {
    for (int level = 0; level < s.num_levels && status.ok(); ++level) {
      const int64_t first = s.level_ptr[level];
      const int64_t count = s.level_ptr[level + 1] - first;
      status = ctx.CheckCancelled();
      if (!status.ok()) return;
      // Columns in parallel when the level has enough work and no column
      // holds most of it; otherwise one column after another, the blocks
      // of a big column updated in parallel (PullUpdatesInto: same bits).
      const bool across_columns =
          count >= 2 && (force || (work.level_flops[level] >= kParallelFlops &&
                                   2 * work.level_max_flops[level] <=
                                       work.level_flops[level]));
      if (across_columns) {
        internal::ForEachInLevel(true, count, 1, [&](int64_t b) {
          if (stop.load(std::memory_order_relaxed)) return;
          if (!ctx.CheckCancelled().ok()) {
            stop.store(true, std::memory_order_relaxed);
            return;
          }
          const int32_t j = s.level_blocks[first + b];
          columns.Prepare(j, &scratch[internal::LevelThreadIndex()],
                          &counts[j]);
        });
      } else {
        for (int64_t b = first; b < first + count; ++b) {
          if (!ctx.CheckCancelled().ok()) {
            stop.store(true);
            break;
          }
          const int32_t j = s.level_blocks[b];
          internal::BlockColumnScratch* own =
              &scratch[internal::LevelThreadIndex()];
          const int64_t slots = s.col_ptr[j + 1] - s.col_ptr[j];
          if (slots >= 2 &&
              (force || work.column_flops[j] >= 2 * kParallelFlops)) {
            internal::ForEachInLevel(true, slots, 1, [&](int64_t q) {
              columns.PullUpdatesInto(j, s.col_ptr[j] + q);
            });
            columns.FactorAndSolve(j, own, &counts[j]);
          } else {
            columns.Prepare(j, own, &counts[j]);
          }
        }
      }
      if (stop.load()) {
        status = ctx.CheckCancelled();
        if (status.ok()) status = absl::CancelledError("request cancelled");
        return;
      }
      // S1 Alg. 2 in block order: the grants depend on the needs only.
      for (int64_t b = first; b < first + count; ++b) {
        const int32_t j = s.level_blocks[b];
        keep[j] = leftover.Keep(s.a_offdiag_count[j], counts[j].survivors);
      }
      leftover.EndLevel();
      internal::ForEachInLevel(
          work.level_values[level] >= kParallelFinishValues, count, 1,
          [&](int64_t b) {
            const int32_t j = s.level_blocks[first + b];
            columns.Finish(j, keep[j], &scratch[internal::LevelThreadIndex()],
                           &counts[j]);
          });
      for (int64_t b = first; b < first + count; ++b) {
        add_counts(counts[s.level_blocks[b]]);
      }
    }
  });
  if (!status.ok()) return status;
  CountNotFiniteColumns(NotFiniteColumns(s, values, f->d_diag_, f->d_off_),
                        &stats);
  return f;
}

}  // namespace factord
