// The interior-point form of a QpProblem:
//
//   minimize 1/2 x^T Q x + c^T x + constant
//   subject to A x = b,  x_j >= 0 (kLower, kBoxed),  x_j <= u_j (kBoxed),
//              x_j free (kFree)
//
// Conversion (as in PCx and Wright, "Primal-Dual Interior-Point Methods",
// ch. 11): a column with a finite lower bound l is shifted (x = l + x^); with
// only an upper bound u it is reflected (x = u - x^); a column with l = u is
// fixed and eliminated into b, c and the constant; every row with
// row_lower < row_upper gets a slack t (a_i x - t = 0) that carries the row's
// bounds the same way, so ranges are boxed slacks. Maximization negates c and
// Q. Then rows and columns are equilibrated (Ruiz: repeated division by the
// square roots of the row and column infinity norms of [A; Q]) so that the
// KKT matrix is better conditioned; the IPM works on the scaled problem and
// Recover() maps a point back to the file's variables.
#ifndef FACTORD_CLIENT_IPM_STANDARD_FORM_H_
#define FACTORD_CLIENT_IPM_STANDARD_FORM_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "client/ipm/qp_problem.h"

namespace factord::ipm {

enum class VarKind : char { kFree, kLower, kBoxed };

struct StandardForm {
  int num_vars = 0;             // N: kept columns and slacks
  int num_rows = 0;             // m
  SparseColumns a;              // m x N, scaled
  SparseColumns q;              // N x N lower triangle, scaled
  std::vector<double> c, b, u;  // sizes N, m, N (u is +inf unless kBoxed)
  std::vector<VarKind> kind;    // size N
  double constant = 0;          // objective constant (minimization sense)
  double objective_sign = 1;    // -1 when the file maximizes

  // Scaling: x^ = col_scale .* x~ (the IPM variable x~), rows multiplied by
  // row_scale. Sizes N and m.
  std::vector<double> col_scale, row_scale;

  // Map back: original column j is fixed_value[j] when var_of_col[j] < 0,
  // else shift[j] + sign[j] * x^[var_of_col[j]]. Sizes n.
  std::vector<int> var_of_col;
  std::vector<double> shift, sign, fixed_value;

  // Original column values (size n) of an IPM point x~ (size N).
  std::vector<double> Recover(const std::vector<double>& x_scaled) const;
};

// Builds the IPM form. InvalidArgument when a column or row has lower bound
// above its upper bound (trivially infeasible).
absl::StatusOr<StandardForm> BuildStandardForm(const QpProblem& problem,
                                               int scaling_passes = 10);

}  // namespace factord::ipm

#endif  // FACTORD_CLIENT_IPM_STANDARD_FORM_H_
