// The data of the multifrontal LDL^T's numeric phase as its kernels read
// and write it: the factor of a front and of all fronts, the contribution
// blocks passed to a parent, the per-thread workspace, the Schur update
// kernel's signature, and FactorizeFront, the per-front routine the tree
// kernels (core/ldlt/kernels/ldlt_kernels.h) call. FactorizeFront is
// defined with the assembly and pivoting of a front in
// core/ldlt/kernels/front.cc (see core/ldlt/ldlt_front.h); the types live here
// so that the kernels include only their own folder, the dense kernels and the
// base types.
#ifndef FACTORD_LDLT_KERNELS_FRONT_TYPES_H_
#define FACTORD_LDLT_KERNELS_FRONT_TYPES_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/base/uninitialized_vector.h"
#include "core/dense/kernels/dense_ldlt.h"
#include "core/ldlt/kernels/symbolic_types.h"

namespace factord::internal {

// The factor of one front (a view into FrontFactors' storage): q pivots,
// the unit lower block L (rows: the q pivots then the contribution rows)
// and the block diagonal D.
struct FrontFactor {
  int32_t q = 0;
  std::span<int32_t> rows;       // q + rc permuted variable indices
  std::span<double> l;           // rows.size() x q, column-major
  std::span<double> d_diag;      // q
  std::span<double> d_off;       // q: D(t+1, t) for a 2x2 start, else 0
  std::span<int8_t> pivot_size;  // q: 1, 2 (first of a pair), 0 (its
                                 // second) or -1 (a perturbed 1x1)
  // Storage of a front that outgrew its slot (it received delayed pivots).
  // Not initialized: every entry is written.
  struct Storage {
    std::unique_ptr<double[]> doubles;  // l, d_diag, d_off
    std::unique_ptr<int32_t[]> rows;
    std::unique_ptr<int8_t[]> sizes;
    int64_t bytes = 0;
  };
  std::unique_ptr<Storage> own;
};

// The factors of all fronts: slots of the analysis' sizes in four arrays
// allocated once per factorization (not initialized: every entry of a used
// slot is written).
struct FrontFactors {
  std::vector<FrontFactor> fronts;       // sym.num_fronts()
  std::unique_ptr<double[]> l_pool;      // sym.factor_offset.back()
  std::unique_ptr<int32_t[]> row_pool;   // sym.row_offset.back()
  std::unique_ptr<double[]> d_pool;      // 2 sym.n: d_diag, then d_off
  std::unique_ptr<int8_t[]> pivot_pool;  // sym.n
  int64_t pool_bytes = 0;

  // Sizes the slots for `sym`; the fronts are empty until factorized.
  void Allocate(const LdltSymbolic& sym);
  int64_t bytes() const;
};

// What a front passes to its parent: the delayed variables first, then the
// update rows, with the lower triangle of the symmetric Schur complement
// over them, packed by columns (PackedColumn).
struct ContributionBlock {
  int32_t num_delayed = 0;
  int32_t size = 0;                    // rc
  int64_t stack_offset = -1;           // >= 0: on the workspace stack here
  UninitializedVector<double> values;  // otherwise here
  std::vector<int32_t> delayed_rows;   // num_delayed permuted indices
};

struct FrontCounts {
  int64_t delayed = 0;  // pivots this front passed to its parent
  int64_t two_by_two = 0;
  int64_t perturbed = 0;
  int64_t weak = 0;  // pivots below the threshold (DenseLdltCounts::weak)
  int64_t max_front = 0;
  // Wall time of the front's whole numeric work (assembly, elimination,
  // Schur update, packing); measured for fronts of at least
  // kTimedFrontRows rows, 0 otherwise.
  double seconds = 0;
};

// Per-thread scratch of the numeric phase: grown to the largest front the
// thread meets and kept between factorizations (the front and the stack up
// to 64 MB each, the other arrays up to 8 MB), so that a refactorization,
// an interior-point method's every iteration, neither allocates nor touches
// fresh pages: on the machines measured, the first write to a fresh page
// costs about ten times a write to a page in use (0.33 against 0.034 ms a
// MB), which on a large front is a quarter of its time. `stack` holds the
// contribution blocks of a postorder run (stack_top doubles in use).
struct FrontWorkspace {
  // The front (its fully summed columns, then its contribution block), a
  // copy of the fully summed columns to gather L from, the Schur update's
  // W and the contribution-block stack grow without being zeroed (they are
  // written before they are read).
  UninitializedVector<double> front, gather, w, stack;
  std::vector<double> d_diag, d_off, panel;
  std::vector<int> order, size, local_row, child_row, dense_work, perm;
  std::vector<int32_t> global;
  int64_t stack_top = 0;

  void Reserve(const LdltSymbolic& sym);
  // Gives back the arrays beyond those sizes at the end of a tree run.
  void Trim();
};
// Fronts with at least this many rows are timed (FrontCounts::seconds).
inline constexpr int kTimedFrontRows = 256;

// The calling thread's workspace. FactorizeFront does not nest on a thread.
FrontWorkspace& ThreadFrontWorkspace();

// S -= L W^T on the lower triangle of the r x r block S (leading dimension
// lds), with L and W r x q (leading dimensions ldl, ldw). The upper
// triangle of S is not read or written.
using SchurUpdateFn = void (*)(int r, int q, const double* l, int ldl,
                               const double* w, int ldw, double* s, int lds);

// A backend's kernels for FactorizeFront: the Schur update; the
// a-posteriori unpivoted LDL^T of large fronts
// (core/dense/kernels/dense_ldlt_unpivoted.h), or nullptr to run the
// pivoting kernel on every front; and the blocked a-posteriori pivoting
// kernel (core/dense/kernels/dense_ldlt_app.h) for the large fronts the
// unpivoted kernel fails on, or nullptr for the pivoting kernel there.
struct FrontKernels {
  SchurUpdateFn schur_update = nullptr;
  int (*unpivoted_ldlt)(double* f, int m, int p,
                        const kernels::DenseLdltParams& params, double* d,
                        std::vector<double>* w) = nullptr;
  kernels::DenseLdltCounts (*app_ldlt)(double* f, int m, int p,
                                       const kernels::DenseLdltParams& params,
                                       int* perm, int* order, int* size,
                                       double* d_diag, double* d_off, int block,
                                       int first) = nullptr;
};

// Factorizes front f of `sym` with the permuted, scaled and shifted values
// `values` (sym.col_ptr[n] entries, in the order of sym.col_rows). Reads
// the children's contribution blocks from cbs[child] (cbs has
// sym.num_fronts() entries) and releases them: heap blocks are cleared,
// stack blocks popped (they must be the top of ws.stack, as in a postorder
// run). Writes factors->fronts[f] and cbs[f] (nothing for a root), on the
// stack when `cb_on_stack`, else in cbs[f].values; adds to `counts`.
void FactorizeFront(const LdltSymbolic& sym, int32_t f,
                    std::span<const double> values,
                    std::span<ContributionBlock> cbs, bool cb_on_stack,
                    const kernels::DenseLdltParams& params,
                    const FrontKernels& kernels, FrontWorkspace& ws,
                    FrontFactors* factors, FrontCounts* counts);

}  // namespace factord::internal

#endif  // FACTORD_LDLT_KERNELS_FRONT_TYPES_H_
