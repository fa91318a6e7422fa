// The KKT system of 2D distributed optimal control with P1 elements
// (bench/models/model_problem.h).
#include <cmath>
#include <numbers>

#include "models/lower_triangle_builder.h"
#include "models/model_problem.h"

namespace factord::bench {
namespace {

struct Neighbour {
  int di, dj;
  double stiffness;  // K entry
  double mass;       // M entry / h^2
};

// The SW-NE triangulation's stencils: the diagonal edge couples in the mass
// matrix only (the stiffness of a right angle's hypotenuse is 0).
constexpr Neighbour kStencil[] = {
    {0, 0, 4.0, 1.0 / 2},    {-1, 0, -1.0, 1.0 / 12}, {1, 0, -1.0, 1.0 / 12},
    {0, -1, -1.0, 1.0 / 12}, {0, 1, -1.0, 1.0 / 12},  {-1, -1, 0.0, 1.0 / 12},
    {1, 1, 0.0, 1.0 / 12},
};

}  // namespace

ModelProblem ControlKkt2d(int k, double alpha, double delta) {
  const int64_t grid = int64_t{k} * k;
  const int64_t n = 3 * grid;
  const double h = 1.0 / (k + 1);
  const double h2 = h * h;
  LowerTriangleBuilder builder(n, Structure::kSymmetricLower, 10 * n);
  // Adds block row g's couplings to the grid nodes of the block at `offset`:
  // kscale K + mscale M.
  auto add_stencil = [&](int i, int j, int64_t offset, double kscale,
                         double mscale) {
    for (const Neighbour& s : kStencil) {
      const int ii = i + s.di, jj = j + s.dj;
      if (ii < 0 || ii >= k || jj < 0 || jj >= k) continue;
      const double value = kscale * s.stiffness + mscale * s.mass * h2;
      // The stiffness of the diagonal neighbours is 0: no entry when the
      // mass term is absent too.
      if (value == 0.0 && mscale == 0.0) continue;
      builder.Add(offset + ii + int64_t{k} * jj, value);
    }
  };
  std::vector<double> b(n, 0.0);
  std::vector<double> yd(grid);
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < k; ++i) {
      yd[i + int64_t{k} * j] = std::sin(std::numbers::pi * (i + 1) * h) *
                               std::sin(std::numbers::pi * (j + 1) * h);
    }
  }
  // Rows of y: M (its K^T lies above the diagonal).
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < k; ++i) {
      add_stencil(i, j, 0, 0.0, 1.0);
      builder.EndRow();
    }
  }
  // Rows of u: alpha M.
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < k; ++i) {
      add_stencil(i, j, grid, 0.0, alpha);
      builder.EndRow();
    }
  }
  // Rows of lambda: K, -M, and -delta on the diagonal (kept when 0).
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < k; ++i) {
      add_stencil(i, j, 0, 1.0, 0.0);
      add_stencil(i, j, grid, 0.0, -1.0);
      builder.Add(2 * grid + i + int64_t{k} * j, -delta);
      builder.EndRow();
    }
  }
  // b_y = M y_d.
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < k; ++i) {
      double sum = 0;
      for (const Neighbour& s : kStencil) {
        const int ii = i + s.di, jj = j + s.dj;
        if (ii < 0 || ii >= k || jj < 0 || jj >= k) continue;
        sum += s.mass * h2 * yd[ii + int64_t{k} * jj];
      }
      b[i + int64_t{k} * j] = sum;
    }
  }
  ModelProblem p;
  p.family = "control_kkt2d";
  p.k = k;
  p.a = std::make_shared<CsrMatrix>(builder.Finish());
  p.b = std::move(b);
  p.expected.positive = 2 * grid;
  p.expected.negative = grid;
  return p;
}

}  // namespace factord::bench
