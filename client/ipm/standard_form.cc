// Conversion of a QpProblem to the IPM form; see standard_form.h.
#include "client/ipm/standard_form.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace factord::ipm {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Entry {
  int row, col;
  double value;
};

SparseColumns FromEntries(std::vector<Entry>& entries, int rows, int cols) {
  std::sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) {
    return x.col != y.col ? x.col < y.col : x.row < y.row;
  });
  SparseColumns s;
  s.num_rows = rows;
  s.num_cols = cols;
  s.col_start.assign(cols + 1, 0);
  for (const Entry& e : entries) {
    s.col_start[e.col + 1]++;
    s.row_index.push_back(e.row);
    s.value.push_back(e.value);
  }
  for (int j = 0; j < cols; ++j) s.col_start[j + 1] += s.col_start[j];
  return s;
}

// Bounds [lower, upper] as x = shift + sign * x^ with x^ of the given kind.
void Classify(double lower, double upper, VarKind* kind, double* shift,
              double* sign, double* box) {
  *box = kInf;
  if (std::isfinite(lower)) {
    *shift = lower, *sign = 1;
    *kind = std::isfinite(upper) ? VarKind::kBoxed : VarKind::kLower;
    if (std::isfinite(upper)) *box = upper - lower;
  } else if (std::isfinite(upper)) {
    *shift = upper, *sign = -1, *kind = VarKind::kLower;
  } else {
    *shift = 0, *sign = 1, *kind = VarKind::kFree;
  }
}

}  // namespace

std::vector<double> StandardForm::Recover(
    const std::vector<double>& x_scaled) const {
  std::vector<double> x(var_of_col.size());
  for (size_t j = 0; j < x.size(); ++j) {
    const int v = var_of_col[j];
    x[j] = v < 0 ? fixed_value[j]
                 : shift[j] + sign[j] * col_scale[v] * x_scaled[v];
  }
  return x;
}

absl::StatusOr<StandardForm> BuildStandardForm(const QpProblem& p,
                                               int scaling_passes) {
  StandardForm f;
  const int n = p.num_cols();
  const int m = p.num_rows();
  f.objective_sign = p.maximize ? -1 : 1;
  f.var_of_col.assign(n, -1);
  f.shift.assign(n, 0);
  f.sign.assign(n, 0);
  f.fixed_value.assign(n, 0);

  // Columns.
  for (int j = 0; j < n; ++j) {
    const double lower = p.col_lower[j], upper = p.col_upper[j];
    if (lower > upper) {
      return absl::InvalidArgumentError(absl::StrCat(
          "column '", p.col_names[j], "' has lower bound above upper bound"));
    }
    if (lower == upper) {
      f.fixed_value[j] = lower;
      f.shift[j] = lower;
      continue;
    }
    VarKind kind;
    double box;
    Classify(lower, upper, &kind, &f.shift[j], &f.sign[j], &box);
    f.var_of_col[j] = f.num_vars++;
    f.kind.push_back(kind);
    f.u.push_back(box);
  }

  // Rows: b = row value minus the shifted part; slacks for inequalities.
  std::vector<Entry> a_entries;
  f.num_rows = m;
  f.b.assign(m, 0);
  std::vector<double> row_activity_shift(m, 0);
  for (int j = 0; j < n; ++j) {
    for (int64_t k = p.a.col_start[j]; k < p.a.col_start[j + 1]; ++k) {
      const int i = p.a.row_index[k];
      row_activity_shift[i] += p.a.value[k] * f.shift[j];
      if (f.var_of_col[j] >= 0) {
        a_entries.push_back({i, f.var_of_col[j], p.a.value[k] * f.sign[j]});
      }
    }
  }
  std::vector<double> slack_shift_of_var;
  for (int i = 0; i < m; ++i) {
    const double lower = p.row_lower[i], upper = p.row_upper[i];
    if (lower > upper) {
      return absl::InvalidArgumentError(absl::StrCat(
          "row '", p.row_names[i], "' has lower bound above upper bound"));
    }
    if (lower == upper) {
      f.b[i] = lower - row_activity_shift[i];
      continue;
    }
    VarKind kind;
    double shift, sign, box;
    Classify(lower, upper, &kind, &shift, &sign, &box);
    const int v = f.num_vars++;
    f.kind.push_back(kind);
    f.u.push_back(box);
    a_entries.push_back({i, v, -sign});  // a_i x - t = 0
    f.b[i] = shift - row_activity_shift[i];
  }
  const int num_vars = f.num_vars;
  f.a = FromEntries(a_entries, m, num_vars);

  // Objective: c' = sign (c + Q s), Q' = S Q S, constant from the shift s.
  std::vector<double> qs(n, 0);  // Q s, with Q symmetric from its lower part
  for (int j = 0; j < n; ++j) {
    for (int64_t k = p.q.col_start[j]; k < p.q.col_start[j + 1]; ++k) {
      const int i = p.q.row_index[k];
      qs[i] += p.q.value[k] * f.shift[j];
      if (i != j) qs[j] += p.q.value[k] * f.shift[i];
    }
  }
  const double os = f.objective_sign;
  f.c.assign(num_vars, 0);
  f.constant = os * p.objective_constant;
  for (int j = 0; j < n; ++j) {
    f.constant += os * (p.c[j] * f.shift[j] + 0.5 * qs[j] * f.shift[j]);
    if (f.var_of_col[j] >= 0) {
      f.c[f.var_of_col[j]] = os * f.sign[j] * (p.c[j] + qs[j]);
    }
  }
  std::vector<Entry> q_entries;
  for (int j = 0; j < n; ++j) {
    for (int64_t k = p.q.col_start[j]; k < p.q.col_start[j + 1]; ++k) {
      const int i = p.q.row_index[k];
      const int vi = f.var_of_col[i], vj = f.var_of_col[j];
      if (vi < 0 || vj < 0) continue;
      // Column order is kept, so vi >= vj: still the lower triangle.
      q_entries.push_back({vi, vj, os * f.sign[i] * f.sign[j] * p.q.value[k]});
    }
  }
  f.q = FromEntries(q_entries, num_vars, num_vars);

  // Ruiz equilibration of [A; Q].
  f.row_scale.assign(m, 1.0);
  f.col_scale.assign(num_vars, 1.0);
  for (int pass = 0; pass < scaling_passes; ++pass) {
    std::vector<double> row_max(m, 0), col_max(num_vars, 0);
    for (int j = 0; j < num_vars; ++j) {
      for (int64_t k = f.a.col_start[j]; k < f.a.col_start[j + 1]; ++k) {
        const double v = std::abs(f.a.value[k]);
        row_max[f.a.row_index[k]] = std::max(row_max[f.a.row_index[k]], v);
        col_max[j] = std::max(col_max[j], v);
      }
      for (int64_t k = f.q.col_start[j]; k < f.q.col_start[j + 1]; ++k) {
        const double v = std::abs(f.q.value[k]);
        col_max[j] = std::max(col_max[j], v);
        col_max[f.q.row_index[k]] = std::max(col_max[f.q.row_index[k]], v);
      }
    }
    std::vector<double> dr(m), dc(num_vars);
    for (int i = 0; i < m; ++i) {
      dr[i] = row_max[i] > 0 ? 1 / std::sqrt(row_max[i]) : 1;
    }
    for (int j = 0; j < num_vars; ++j) {
      dc[j] = col_max[j] > 0 ? 1 / std::sqrt(col_max[j]) : 1;
    }
    for (int j = 0; j < num_vars; ++j) {
      for (int64_t k = f.a.col_start[j]; k < f.a.col_start[j + 1]; ++k) {
        f.a.value[k] *= dr[f.a.row_index[k]] * dc[j];
      }
      for (int64_t k = f.q.col_start[j]; k < f.q.col_start[j + 1]; ++k) {
        f.q.value[k] *= dc[f.q.row_index[k]] * dc[j];
      }
    }
    for (int i = 0; i < m; ++i) f.row_scale[i] *= dr[i];
    for (int j = 0; j < num_vars; ++j) f.col_scale[j] *= dc[j];
  }
  for (int i = 0; i < m; ++i) f.b[i] *= f.row_scale[i];
  for (int j = 0; j < num_vars; ++j) {
    f.c[j] *= f.col_scale[j];
    f.u[j] /= f.col_scale[j];
  }
  return f;
}

}  // namespace factord::ipm
