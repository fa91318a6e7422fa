// A linear or convex quadratic program as read from an MPS/QPS file:
//
//   minimize (or maximize)  1/2 x^T Q x + c^T x + objective_constant
//   subject to              row_lower <= A x <= row_upper
//                           col_lower <=  x  <= col_upper
//
// Infinite bounds are +-infinity (std::numeric_limits<double>::infinity()).
// Q is symmetric; only its lower triangle (row >= col) is stored.
#ifndef FACTORD_CLIENT_IPM_QP_PROBLEM_H_
#define FACTORD_CLIENT_IPM_QP_PROBLEM_H_

#include <cstdint>
#include <string>
#include <vector>

namespace factord::ipm {

// A sparse matrix by columns (CSC): column j holds entries
// [col_start[j], col_start[j+1]) of row_index/value, rows ascending and
// unique. col_start has num_cols + 1 entries.
struct SparseColumns {
  int num_rows = 0;
  int num_cols = 0;
  std::vector<int64_t> col_start{0};
  std::vector<int> row_index;
  std::vector<double> value;

  int64_t nnz() const { return static_cast<int64_t>(row_index.size()); }
};

struct QpProblem {
  std::string name;
  std::string objective_name;
  bool maximize = false;  // OBJSENSE MAX: the objective is maximized

  std::vector<std::string> row_names;  // size m (constraints; N rows dropped)
  std::vector<std::string> col_names;  // size n

  std::vector<double> c;  // size n
  double objective_constant = 0;
  SparseColumns a;  // m x n
  SparseColumns q;  // n x n, lower triangle with the diagonal (QUADOBJ)

  std::vector<double> row_lower, row_upper;  // size m
  std::vector<double> col_lower, col_upper;  // size n
  std::vector<bool> is_integer;  // size n; MARKER INTORG..INTEND (relaxed)

  int num_rows() const { return static_cast<int>(row_names.size()); }
  int num_cols() const { return static_cast<int>(col_names.size()); }
  bool is_qp() const { return q.nnz() > 0; }

  // The objective 1/2 x^T Q x + c^T x + constant at x (size n), in the
  // file's sense (not negated for maximization).
  double Objective(const std::vector<double>& x) const;
};

}  // namespace factord::ipm

#endif  // FACTORD_CLIENT_IPM_QP_PROBLEM_H_
