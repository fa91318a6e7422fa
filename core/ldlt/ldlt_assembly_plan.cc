// The assembly plan of the multifrontal LDL^T (see ldlt_symbolic.h): the
// front-local row of every original entry, the position in the parent's
// front of every update row (the relative indices of the extend-add), the
// factor slots and the workspace sizes. All of it depends only on the
// pattern and the ordering, so it is computed once in the analysis and a
// refactorization with new values does only arithmetic (the symbolic phase
// sizes every workspace, as in CHOLMOD and QDLDL; S1 §IV-A puts all set-up
// on the host before any numeric work).
#include <algorithm>

#include "core/ldlt/ldlt_symbolic.h"

namespace factord::internal {

void PlanLdltAssembly(LdltSymbolic* sym) {
  const int64_t n = sym->n;
  const int64_t num_fronts = sym->num_fronts();
  sym->entry_local.assign(sym->col_rows.size(), 0);
  sym->update_local.assign(sym->update_rows.size(), -1);
  sym->first_descendant.resize(num_fronts);
  sym->roots.clear();
  sym->factor_offset.assign(num_fronts + 1, 0);
  sym->row_offset.assign(num_fronts + 1, 0);
  sym->max_stack = 0;
  sym->max_update_panel = 0;

  // local[v]: v's row in the front being planned (valid for its rows only).
  std::vector<int32_t> local(n, -1);
  int64_t stack = 0;
  for (int64_t f = 0; f < num_fronts; ++f) {
    const int32_t begin = sym->front_begin[f], end = sym->front_begin[f + 1];
    const int64_t k = end - begin;
    const int64_t upd = sym->update_ptr[f];
    const int64_t r = sym->update_ptr[f + 1] - upd;
    for (int32_t c = begin; c < end; ++c) local[c] = c - begin;
    for (int64_t t = 0; t < r; ++t) local[sym->update_rows[upd + t]] = k + t;
    // Original entries of the own columns: rows are own columns or update
    // rows (the update rows hold every row below the front).
    for (int64_t e = sym->col_ptr[begin]; e < sym->col_ptr[end]; ++e) {
      sym->entry_local[e] = local[sym->col_rows[e]];
    }
    // The children's update rows are rows of this front (extend-add).
    sym->first_descendant[f] = static_cast<int32_t>(f);
    int64_t children_stack = 0;
    for (int32_t i = sym->child_ptr[f]; i < sym->child_ptr[f + 1]; ++i) {
      const int32_t child = sym->children[i];
      for (int64_t e = sym->update_ptr[child]; e < sym->update_ptr[child + 1];
           ++e) {
        sym->update_local[e] = local[sym->update_rows[e]];
      }
      sym->first_descendant[f] =
          std::min(sym->first_descendant[f], sym->first_descendant[child]);
      children_stack +=
          PackedSize(sym->update_ptr[child + 1] - sym->update_ptr[child]);
    }
    if (sym->front_parent[f] == -1) sym->roots.push_back(f);
    sym->factor_offset[f + 1] = sym->factor_offset[f] + (k + r) * k;
    sym->row_offset[f + 1] = sym->row_offset[f] + k + r;
    sym->max_update_panel = std::max(sym->max_update_panel, r * k);
    // Postorder stack: the children's blocks are on top while this front is
    // assembled, then replaced by its own (a root has none).
    sym->max_stack = std::max(sym->max_stack, stack);
    stack -= children_stack;
    if (sym->front_parent[f] != -1) stack += PackedSize(r);
    sym->max_stack = std::max(sym->max_stack, stack);
  }
}

}  // namespace factord::internal
