// Multifrontal front processing (front_types.h). The front is an m x m
// symmetric matrix over [delayed from children | own columns | update
// rows]; its first p = delayed + own columns are fully summed. It is kept
// as its fully summed columns (column-major, leading dimension m) and its
// contribution block apart. Assembly writes the lower triangle only (the
// assembly plan's positions are monotone, so a child's lower triangle lands
// in the parent's); the blocked kernels read only that triangle, and for
// the unblocked-panel pivoting kernel, which reads the fully summed block
// whole, it is mirrored: the upper entries get the same sums in the same
// order as the lower ones.
#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/dense/kernels/dense_ldlt_app.h"
#include "core/dense/kernels/dense_ldlt_blocked.h"
#include "core/kernels/cpu/parallel.h"
#include "core/ldlt/kernels/front_types.h"

namespace factord::internal {
namespace {
constexpr int kMinDelayBudget = 0;
// Fronts with at least this many fully summed columns try the unpivoted
// blocked LDL^T first (FrontKernels::unpivoted_ldlt), and the blocked
// a-posteriori pivoting kernel where it stops. Half the unpivoted kernel's
// block of 128 columns: a choice, not a measured optimum.
constexpr int kMinUnpivotedColumns = 64;
// Between factorizations a thread keeps its front and its stack up to this
// many doubles (64 MB) each, its other scratch arrays up to kKeepDoubles
// (8 MB) each (FrontWorkspace).
constexpr size_t kKeepFrontDoubles = size_t{1} << 23;
constexpr size_t kKeepDoubles = size_t{1} << 20;

// Calls body(b0, b1) on column ranges covering [0, n): one range for a
// small block; chunks of 64 columns as tasks of the arena for a large one
// (body must write only its own columns).
template <typename Body>
void ForEachColumnChunk(int n, Body&& body) {
  constexpr int kSerialColumns = 256, kChunk = 64;
  if (n < kSerialColumns) {
    body(0, n);
    return;
  }
  kernels::cpu::ForEachChunkInArena(
      kernels::cpu::ChunkCount(n, kChunk), [&](int64_t chunk) {
        const int b0 = static_cast<int>(chunk) * kChunk;
        body(b0, std::min(n, b0 + kChunk));
      });
}

// Grows v to at least `size` entries (allocates only when it must).
template <typename Vector>
auto* Grow(Vector& v, int64_t size) {
  if (static_cast<int64_t>(v.size()) < size) v.resize(size);
  return v.data();
}

// Grow for scratch whose contents need not survive: a growing buffer is
// freed first instead of copied.
template <typename Vector>
auto* GrowScratch(Vector& v, int64_t size) {
  if (static_cast<int64_t>(v.capacity()) < size) {
    Vector().swap(v);
  }
  return Grow(v, size);
}

template <typename Vector>
void Release(Vector& v, size_t keep = kKeepDoubles) {
  if (v.capacity() > keep) Vector().swap(v);
}
}  // namespace

void FrontFactors::Allocate(const LdltSymbolic& sym) {
  fronts = std::vector<FrontFactor>(sym.num_fronts());
  const int64_t l_size =
      sym.factor_offset.empty() ? 0 : sym.factor_offset.back();
  const int64_t row_size = sym.row_offset.empty() ? 0 : sym.row_offset.back();
  l_pool = std::make_unique_for_overwrite<double[]>(l_size);
  row_pool = std::make_unique_for_overwrite<int32_t[]>(row_size);
  d_pool = std::make_unique_for_overwrite<double[]>(2 * sym.n);
  pivot_pool = std::make_unique_for_overwrite<int8_t[]>(sym.n);
  pool_bytes = (l_size + 2 * sym.n) * int64_t{sizeof(double)} +
               row_size * int64_t{sizeof(int32_t)} + sym.n;
}

int64_t FrontFactors::bytes() const {
  int64_t bytes = pool_bytes;
  for (const FrontFactor& fr : fronts) {
    if (fr.own == nullptr) continue;
    bytes += fr.own->bytes;
  }
  return bytes;
}

void FrontWorkspace::Reserve(const LdltSymbolic& sym) {
  // The per-row arrays, and the stack's capacity for the whole traversal
  // when it is to be kept (so that it never moves; its pages are touched
  // as blocks are written). The front and the update panel grow with the
  // fronts a thread meets (a thread that runs a small subtree never
  // touches the root's m^2).
  const int64_t m = sym.max_front;
  if (sym.max_stack <= static_cast<int64_t>(kKeepFrontDoubles)) {
    stack.reserve(sym.max_stack);
  }
  Grow(d_diag, m);
  Grow(d_off, m);
  Grow(order, m);
  Grow(size, m);
  Grow(local_row, m);
  Grow(child_row, m);
  Grow(dense_work, m);
  Grow(global, m);
}

void FrontWorkspace::Trim() {
  Release(front, kKeepFrontDoubles);
  Release(gather);
  Release(w);
  Release(panel);
  if (stack_top == 0) Release(stack, kKeepFrontDoubles);
}

FrontWorkspace& ThreadFrontWorkspace() {
  thread_local FrontWorkspace workspace;
  return workspace;
}

void FactorizeFront(const LdltSymbolic& sym, int32_t f,
                    std::span<const double> values,
                    std::span<ContributionBlock> cbs, bool cb_on_stack,
                    const kernels::DenseLdltParams& params,
                    const FrontKernels& kernels, FrontWorkspace& ws,
                    FrontFactors* factors, FrontCounts* counts) {
  const int32_t col_begin = sym.front_begin[f];
  const int32_t col_end = sym.front_begin[f + 1];
  const int k = col_end - col_begin;
  const int64_t upd_begin = sym.update_ptr[f];
  const int r = static_cast<int>(sym.update_ptr[f + 1] - upd_begin);
  const std::span<const int32_t> kids(sym.children.data() + sym.child_ptr[f],
                                      sym.child_ptr[f + 1] - sym.child_ptr[f]);
  int nd = 0;
  for (int32_t kid : kids) nd += cbs[kid].num_delayed;
  const int p = nd + k;
  const int m = p + r;
  counts->max_front = std::max<int64_t>(counts->max_front, m);
  const auto start = m >= kTimedFrontRows
                         ? std::chrono::steady_clock::now()
                         : std::chrono::steady_clock::time_point();

  // Local numbering: delayed variables, own columns, update rows.
  int32_t* global = Grow(ws.global, m);
  {
    int t = 0;
    for (int32_t kid : kids) {
      for (int32_t v : cbs[kid].delayed_rows) global[t++] = v;
    }
    for (int32_t c = col_begin; c < col_end; ++c) global[t++] = c;
    for (int i = 0; i < r; ++i) global[t++] = sym.update_rows[upd_begin + i];
  }

  // The front is kept in two parts: its p fully summed columns over all m
  // rows (`front`, leading dimension m), which the dense kernels work on,
  // and its contribution block, the lower triangle of rows and columns
  // p..m-1 (`cb_block`, leading dimension r), which only the Schur update
  // writes. Without delays from the children the fully summed columns are
  // the factor's own slot (m rows, k = p columns, the same layout) when the
  // unpivoted kernel is tried: the front is assembled and factorized there,
  // and when its pivots end in order (the unpivoted kernel's, or the
  // blocked a-posteriori kernel's when it takes every pivot itself) L is
  // already in place, with no m x p copy. Any other outcome works in the
  // workspace.
  bool in_slot =
      nd == 0 && kernels.unpivoted_ldlt != nullptr && p >= kMinUnpivotedColumns;
  const size_t fs_size = static_cast<size_t>(m) * p;
  const size_t cb_size = static_cast<size_t>(r) * r;
  double* front = nullptr;
  double* cb_block = nullptr;
  auto place = [&]() {
    if (in_slot) {
      front = factors->l_pool.get() + sym.factor_offset[f];
      cb_block = GrowScratch(ws.front, cb_size);
    } else {
      front = GrowScratch(ws.front, fs_size + cb_size);
      cb_block = front + fs_size;
    }
  };
  place();
  auto at = [&](int i, int j) -> double& {
    return j < p ? front[static_cast<size_t>(j) * m + i]
                 : cb_block[static_cast<size_t>(j - p) * r + (i - p)];
  };
  // Column j from row `first` on (first >= p for a contribution column).
  auto column = [&](int j, int first) { return &at(first, j); };
  int* child_row = Grow(ws.child_row, m);
  // Assembly into a front whose lower triangle and fully summed columns
  // start at zero: the original entries at the plan's local rows, and the
  // children's contribution blocks (extend-add: a child's delayed rows go
  // to its part of the delayed section, its update rows to the plan's
  // positions shifted by the delays). The blocks are only read here and
  // released after the elimination, so that the front can be assembled
  // again when a kernel has to start over.
  auto assemble = [&]() {
    // Zeroed by column chunks, tasks of the arena on a large front (the
    // first touch of fresh pages is most of the cost).
    constexpr int kZeroChunk = 256;
    kernels::cpu::ForEachChunkInArena(
        kernels::cpu::ChunkCount(m, kZeroChunk), [&](int64_t chunk) {
          const int j0 = static_cast<int>(chunk) * kZeroChunk;
          const int j1 = std::min(m, j0 + kZeroChunk);
          for (int j = j0; j < j1; ++j) {
            const int first = j < p ? 0 : j;
            std::memset(column(j, first), 0, sizeof(double) * (m - first));
          }
        });
    for (int32_t c = col_begin; c < col_end; ++c) {
      double* col = column(nd + (c - col_begin), nd);
      for (int64_t e = sym.col_ptr[c]; e < sym.col_ptr[c + 1]; ++e) {
        col[sym.entry_local[e]] += values[e];
      }
    }
    int delayed_base = 0;
    for (int32_t kid : kids) {
      const ContributionBlock& cb = cbs[kid];
      const int rc = cb.size, ndc = cb.num_delayed;
      const int32_t* plan = sym.update_local.data() + sym.update_ptr[kid];
      assert(rc == ndc + sym.update_ptr[kid + 1] - sym.update_ptr[kid]);
      for (int a = 0; a < ndc; ++a) child_row[a] = delayed_base + a;
      for (int a = ndc; a < rc; ++a) child_row[a] = nd + plan[a - ndc];
      const double* packed = cb.stack_offset >= 0
                                 ? ws.stack.data() + cb.stack_offset
                                 : cb.values.data();
      // The child's columns go to distinct columns of the front: column
      // chunks of a large block are tasks (each entry still receives its
      // children's contributions in their order).
      ForEachColumnChunk(rc, [&](int b0, int b1) {
        for (int b = b0; b < b1; ++b) {
          const double* src = packed + PackedColumn(rc, b) - b;
          // The child's rows a >= b land on rows >= child_row[b] (the plan
          // is monotone): in the parent's lower triangle.
          const int j = child_row[b];
          const int first = j < p ? 0 : j;
          double* col = column(j, first);
          for (int a = b; a < rc; ++a) col[child_row[a] - first] += src[a];
        }
      });
      delayed_base += ndc;
    }
  };
  assemble();

  // Partial factorization of the fully summed columns.
  kernels::DenseLdltParams front_params = params;
  front_params.force = sym.front_parent[f] == -1;
  // Delays beyond a quarter of the own columns snowball towards the root.
  front_params.delay_budget = std::max(kMinDelayBudget, k / 4);
  int* order = Grow(ws.order, p);
  int* size = Grow(ws.size, p);
  double* d_diag = Grow(ws.d_diag, p);
  double* d_off = Grow(ws.d_off, p);
  kernels::DenseLdltCounts dense;
  bool unpivoted = false;
  const bool app = kernels.app_ldlt != nullptr && p >= kMinUnpivotedColumns &&
                   front_params.pivoting != kernels::kDenseStatic;
  int taken = 0;  // pivots taken in order by the unpivoted kernel
  if (kernels.unpivoted_ldlt != nullptr && p >= kMinUnpivotedColumns) {
    // Every pivot in order, tested a posteriori (the Cholesky path of SPD
    // fronts). A block that fails stops it with the pivots before it kept
    // and the rest current: the blocked pivoting kernel goes on from there.
    // Without that kernel the front is assembled again, for a pivoting
    // kernel that runs as if nothing had been tried.
    taken =
        kernels.unpivoted_ldlt(front, m, p, front_params, d_diag, &ws.panel);
    unpivoted = taken == p;
    if (unpivoted) {
      for (int t = 0; t < p; ++t) {
        order[t] = t;
        size[t] = 1;
        d_off[t] = 0;
      }
      dense.eliminated = p;
    } else if (!app) {
      // The pivoting kernel's pivot order is its own: its front is in the
      // workspace, and the factor is gathered from there.
      in_slot = false;
      place();
      assemble();
      taken = 0;
    }
  }
  if (!unpivoted && app) {
    // Blocked with a-posteriori pivoting, on the lower triangle, from the
    // unpivoted kernel's last pivot; it moves the fully summed variables
    // (position t holds variable perm[t] afterwards), and their global
    // indices move with them.
    int* perm = Grow(ws.perm, p);
    dense = kernels.app_ldlt(front, m, p, front_params, perm, order, size,
                             d_diag, d_off, kAppBlock, taken);
    int* moved = Grow(ws.dense_work, p);
    for (int t = 0; t < p; ++t) moved[t] = global[perm[t]];
    std::copy(moved, moved + p, global);
    if (in_slot && !std::is_sorted(order, order + p)) {
      // The pivoting kernel took the last columns: L is gathered from a
      // copy of the fully summed columns.
      double* copy = GrowScratch(ws.gather, fs_size);
      std::copy(front, front + fs_size, copy);
      front = copy;
    }
  } else if (!unpivoted) {
    // The pivoting kernel reads the fully summed block whole.
    for (int j = 0; j < p; ++j) {
      for (int i = j + 1; i < p; ++i) at(j, i) = at(i, j);
    }
    // Blocked (BLAS 3) beyond one panel; exactly DensePartialLdlt below.
    dense = DenseBlockedPartialLdlt(front, m, p, front_params, order, size,
                                    d_diag, d_off, /*panel_width=*/32,
                                    Grow(ws.dense_work, p));
  }
  // The children's blocks are read for good: release them (heap blocks
  // cleared; stack blocks popped, they were the top of the stack).
  int64_t stack_floor = ws.stack_top;
  for (int32_t kid : kids) {
    ContributionBlock& cb = cbs[kid];
    if (cb.stack_offset >= 0) {
      stack_floor = std::min(stack_floor, cb.stack_offset);
    }
    cb = ContributionBlock();
  }
  ws.stack_top = stack_floor;

  const int q = dense.eliminated;
  const int nd_out = p - q;
  const int rc = nd_out + r;
  counts->delayed += nd_out;
  counts->two_by_two += dense.two_by_two;
  counts->perturbed += dense.perturbed;
  counts->weak += dense.weak;

  // The factor: rows are the pivots in order, then the delayed columns,
  // then the update rows (m in all). Without delays from the children it
  // fits the analysis' slot; otherwise the front owns its storage.
  int* local_row = Grow(ws.local_row, m);
  for (int t = 0; t < p; ++t) local_row[t] = order[t];
  for (int i = 0; i < r; ++i) local_row[p + i] = p + i;
  const int ld = m;
  FrontFactor& fr = factors->fronts[f];
  fr.q = q;
  if (nd == 0) {
    fr.rows = {factors->row_pool.get() + sym.row_offset[f],
               static_cast<size_t>(ld)};
    fr.l = {factors->l_pool.get() + sym.factor_offset[f],
            static_cast<size_t>(ld) * q};
    fr.d_diag = {factors->d_pool.get() + col_begin, static_cast<size_t>(q)};
    fr.d_off = {factors->d_pool.get() + sym.n + col_begin,
                static_cast<size_t>(q)};
    fr.pivot_size = {factors->pivot_pool.get() + col_begin,
                     static_cast<size_t>(q)};
  } else {
    const size_t l_size = static_cast<size_t>(ld) * q;
    fr.own = std::make_unique<FrontFactor::Storage>();
    fr.own->doubles = std::make_unique_for_overwrite<double[]>(l_size + 2 * q);
    fr.own->rows = std::make_unique_for_overwrite<int32_t[]>(ld);
    fr.own->sizes = std::make_unique_for_overwrite<int8_t[]>(q);
    fr.own->bytes = static_cast<int64_t>((l_size + 2 * q) * sizeof(double) +
                                         ld * sizeof(int32_t) + q);
    double* base = fr.own->doubles.get();
    fr.rows = {fr.own->rows.get(), static_cast<size_t>(ld)};
    fr.l = {base, l_size};
    fr.d_diag = {base + l_size, static_cast<size_t>(q)};
    fr.d_off = {base + l_size + q, static_cast<size_t>(q)};
    fr.pivot_size = {fr.own->sizes.get(), static_cast<size_t>(q)};
  }
  for (int t = 0; t < ld; ++t) fr.rows[t] = global[local_row[t]];
  for (int t = 0; t < q; ++t) {
    fr.d_diag[t] = d_diag[t];
    fr.d_off[t] = d_off[t];
    fr.pivot_size[t] = static_cast<int8_t>(size[t]);
  }
  // A front factorized in its slot already holds L below the diagonal.
  const bool in_place = front == fr.l.data();
  for (int t = 0; t < q; ++t) {
    double* col = &fr.l[static_cast<size_t>(t) * ld];
    const int lj = order[t];
    // Rows after the pivot (a 2x2 partner's entry is part of D, not L).
    const int first = fr.pivot_size[t] == 2 ? t + 2 : t + 1;
    std::fill(col, col + first, 0.0);
    col[t] = 1.0;
    // The fully summed rows in pivot order, then the update rows as they
    // lie in the front (local_row is the identity there).
    if (in_place) continue;
    const double* front_col = front + static_cast<size_t>(lj) * m;
    const int gathered = std::max(first, p);
    for (int s = first; s < gathered; ++s) col[s] = at(local_row[s], lj);
    std::copy(front_col + gathered, front_col + ld, col + gathered);
  }

  // Contribution block: delayed and update rows, Schur-updated.
  if (sym.front_parent[f] != -1) {
    if (r > 0 && q > 0) {
      // W = L_u D over the update rows, then S -= L_u W^T.
      const double* lu = fr.l.data() + q + nd_out;
      double* w = GrowScratch(ws.w, static_cast<int64_t>(r) * q);
      // Column by column (a 2x2 pivot's two columns each from both of its
      // L columns), column chunks as tasks on a large front.
      ForEachColumnChunk(q, [&](int t0, int t1) {
        for (int t = t0; t < t1; ++t) {
          kernels::dense_ldlt::LdColumn(t, r, lu, ld, fr.pivot_size.data(),
                                        fr.d_diag.data(), fr.d_off.data(),
                                        w + static_cast<size_t>(t) * r);
        }
      });
      kernels.schur_update(r, q, lu, ld, w, r, cb_block, r);
    }
    ContributionBlock& cb = cbs[f];
    cb.num_delayed = nd_out;
    cb.size = rc;
    cb.delayed_rows.assign(fr.rows.begin() + q, fr.rows.begin() + q + nd_out);
    // A large block that does not fit the stack's capacity goes to the
    // heap: on the stack it would make the stack grow, moving every block
    // below it.
    double* packed;
    const int64_t packed_size = PackedSize(rc);
    if (cb_on_stack && (packed_size <= static_cast<int64_t>(kKeepDoubles) ||
                        ws.stack_top + packed_size <=
                            static_cast<int64_t>(ws.stack.capacity()))) {
      cb.stack_offset = ws.stack_top;
      ws.stack_top += PackedSize(rc);
      packed = Grow(ws.stack, ws.stack_top) + cb.stack_offset;
    } else {
      cb.stack_offset = -1;
      cb.values.resize(PackedSize(rc));
      packed = cb.values.data();
    }
    ForEachColumnChunk(rc, [&](int b0, int b1) {
      for (int b = b0; b < b1; ++b) {
        double* dst = packed + PackedColumn(rc, b) - b;
        if (b >= nd_out) {
          // An update column: rows b.. of the contribution block as they lie.
          const double* src = cb_block + static_cast<size_t>(b - nd_out) * r;
          std::copy(src + (b - nd_out), src + r, dst + b);
          continue;
        }
        const int lb = local_row[q + b];
        for (int a = b; a < rc; ++a) dst[a] = at(local_row[q + a], lb);
      }
    });
  }
  if (m >= kTimedFrontRows) {
    counts->seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  }
}

}  // namespace factord::internal
