// MAC finite differences for 2D Stokes (bench/models/model_problem.h).
//
// Cells (i, j), 0 <= i, j < k, centre ((i + 1/2) h, (j + 1/2) h). The
// x-velocity u(i, j) sits on the face between cells (i-1, j) and (i, j)
// (1 <= i <= k-1), the y-velocity v(i, j) between (i, j-1) and (i, j)
// (1 <= j <= k-1); faces on the walls carry the no-slip value 0.
#include <cmath>

#include "models/lower_triangle_builder.h"
#include "models/model_problem.h"

namespace factord::bench {

ModelProblem StokesMac2d(int k, double pressure_stabilization) {
  const int64_t nu = int64_t{k - 1} * k;  // x-faces
  const int64_t nv = nu;                  // y-faces
  const int64_t np = int64_t{k} * k;      // cells
  const int64_t n = nu + nv + np;
  const double h = 1.0 / k;
  auto u_index = [k](int i, int j) { return (i - 1) + int64_t{k - 1} * j; };
  auto v_index = [k, nu](int i, int j) {
    return nu + i + int64_t{k} * (j - 1);
  };
  auto p_index = [k, nu, nv](int i, int j) {
    return nu + nv + i + int64_t{k} * j;
  };
  LowerTriangleBuilder builder(n, Structure::kSymmetricLower, 5 * n);
  std::vector<double> b(n, 0.0);
  // x-velocity rows: neighbours along x are faces (or the wall's 0), along
  // y a missing neighbour is the wall's mirrored ghost (-u): +1 on the
  // diagonal. The gradient entries lie above the diagonal (pressures come
  // last) and are added through the pressure rows.
  for (int j = 0; j < k; ++j) {
    for (int i = 1; i <= k - 1; ++i) {
      double diag = 4.0;
      if (i > 1) builder.Add(u_index(i - 1, j), -1.0);
      if (j > 0) {
        builder.Add(u_index(i, j - 1), -1.0);
      } else {
        diag += 1.0;
      }
      if (j == k - 1) diag += 1.0;
      builder.Add(u_index(i, j), diag);
      builder.EndRow();
      const double y = (j + 0.5) * h;
      b[u_index(i, j)] = h * h * -(y - 0.5);
    }
  }
  for (int j = 1; j <= k - 1; ++j) {
    for (int i = 0; i < k; ++i) {
      double diag = 4.0;
      if (j > 1) builder.Add(v_index(i, j - 1), -1.0);
      if (i > 0) {
        builder.Add(v_index(i - 1, j), -1.0);
      } else {
        diag += 1.0;
      }
      if (i == k - 1) diag += 1.0;
      builder.Add(v_index(i, j), diag);
      builder.EndRow();
      const double x = (i + 0.5) * h;
      b[v_index(i, j)] = h * h * (x - 0.5);
    }
  }
  // Pressure rows: B (the transpose of the gradient, p(i,j) - p(i-1,j) on
  // u(i,j)) and -eps on the diagonal.
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < k; ++i) {
      if (i >= 1) builder.Add(u_index(i, j), 1.0);
      if (i + 1 <= k - 1) builder.Add(u_index(i + 1, j), -1.0);
      if (j >= 1) builder.Add(v_index(i, j), 1.0);
      if (j + 1 <= k - 1) builder.Add(v_index(i, j + 1), -1.0);
      builder.Add(p_index(i, j), -pressure_stabilization);
      builder.EndRow();
    }
  }
  ModelProblem p;
  p.family = "stokes_mac2d";
  p.k = k;
  p.a = std::make_shared<CsrMatrix>(builder.Finish());
  p.b = std::move(b);
  p.expected.positive = nu + nv;
  p.expected.negative = np;
  return p;
}

}  // namespace factord::bench
