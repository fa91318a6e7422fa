#include "client/ipm/kkt_matrix.h"

namespace factord::ipm {

KktMatrix::KktMatrix(const StandardForm& form)
    : form_(form), num_vars_(form.num_vars) {
  const int n = form.num_vars;
  const int m = form.num_rows;
  const int64_t dim = static_cast<int64_t>(n) + m;
  k_.dim = dim;
  // Count entries per row: Q lower entries (i >= j) go to row i; A entry
  // (i, j) goes to row n + i; every row gets its diagonal.
  std::vector<int64_t> count(dim, 0);
  std::vector<bool> has_diagonal(n, false);
  for (int j = 0; j < n; ++j) {
    for (int64_t k = form.q.col_start[j]; k < form.q.col_start[j + 1]; ++k) {
      const int i = form.q.row_index[k];
      if (i == j) has_diagonal[j] = true;
      count[i]++;
    }
    for (int64_t k = form.a.col_start[j]; k < form.a.col_start[j + 1]; ++k) {
      count[n + form.a.row_index[k]]++;
    }
  }
  for (int i = 0; i < n; ++i) count[i] += has_diagonal[i] ? 0 : 1;
  q_has_diagonal_ = has_diagonal;
  for (int i = 0; i < m; ++i) count[n + i]++;
  k_.row_start.assign(dim + 1, 0);
  for (int64_t r = 0; r < dim; ++r) {
    k_.row_start[r + 1] = k_.row_start[r] + count[r];
  }
  k_.col_index.assign(k_.row_start[dim], 0);
  k_.values.assign(k_.row_start[dim], 0.0);
  std::vector<int64_t> next(k_.row_start.begin(), k_.row_start.end() - 1);
  q_pos_.resize(form.q.nnz());
  a_pos_.resize(form.a.nnz());
  diag_pos_.assign(dim, -1);
  // Columns ascending: scanning j in order appends ascending columns per row.
  for (int j = 0; j < n; ++j) {
    for (int64_t k = form.q.col_start[j]; k < form.q.col_start[j + 1]; ++k) {
      const int i = form.q.row_index[k];
      q_pos_[k] = next[i];
      if (i == j) diag_pos_[i] = next[i];
      k_.col_index[next[i]++] = j;
    }
    if (!has_diagonal[j]) {  // column j is the last one of row j
      diag_pos_[j] = next[j];
      k_.col_index[next[j]++] = j;
    }
    for (int64_t k = form.a.col_start[j]; k < form.a.col_start[j + 1]; ++k) {
      const int64_t r = n + form.a.row_index[k];
      a_pos_[k] = next[r];
      k_.col_index[next[r]++] = j;
    }
  }
  for (int i = 0; i < m; ++i) {
    const int64_t r = n + i;
    diag_pos_[r] = next[r];
    k_.col_index[next[r]++] = static_cast<int>(r);
  }
}

void KktMatrix::Fill(const std::vector<double>& d, double delta_p,
                     double delta_d) {
  const int n = num_vars_;
  for (size_t k = 0; k < q_pos_.size(); ++k) {
    k_.values[q_pos_[k]] = -form_.q.value[k];
  }
  for (int i = 0; i < n; ++i) {
    const double q_ii = q_has_diagonal_[i] ? -k_.values[diag_pos_[i]] : 0.0;
    k_.values[diag_pos_[i]] = -(q_ii + d[i] + delta_p);
  }
  for (size_t k = 0; k < a_pos_.size(); ++k) {
    k_.values[a_pos_[k]] = form_.a.value[k];
  }
  for (int i = 0; i < form_.num_rows; ++i) {
    k_.values[diag_pos_[n + i]] = delta_d;
  }
}

}  // namespace factord::ipm
