// Symmetric scaling for the LDL^T methods: Ruiz equilibration (Ruiz 2001),
// the cheap alternative to the matching-based scaling of S1 §II. The scaled
// matrix S A S has every row's largest magnitude close to 1; scaling is
// recomputed at every factorization because it depends on the values.
#ifndef FACTORD_ORDER_SCALING_H_
#define FACTORD_ORDER_SCALING_H_

#include <span>
#include <vector>

#include "factord/matrix/csr.h"

namespace factord {

// The Ruiz scaling vector s (a.rows entries, all > 0) of a symmetric-lower
// (or general, treated as symmetric through its stored entries) matrix
// whose values are `values` (a.nnz() entries, in a's order; pass a.values
// or shifted values). A row without a nonzero keeps s = 1. At most
// `max_sweeps` sweeps; stops when every row max is within `tolerance` of 1.
std::vector<double> RuizScaling(const CsrMatrix& a,
                                std::span<const double> values,
                                int max_sweeps = 20, double tolerance = 1e-2);

}  // namespace factord

#endif  // FACTORD_ORDER_SCALING_H_
