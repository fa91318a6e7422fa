// 7-point 3D Poisson (bench/models/model_problem.h).
#include "models/lower_triangle_builder.h"
#include "models/model_problem.h"

namespace factord::bench {

ModelProblem Poisson3d(int k) {
  const int64_t n = int64_t{k} * k * k;
  const double h = 1.0 / (k + 1);
  LowerTriangleBuilder builder(n, Structure::kSpdLower, 4 * n);
  auto index = [k](int i, int j, int l) {
    return i + int64_t{k} * (j + int64_t{k} * l);
  };
  for (int l = 0; l < k; ++l) {
    for (int j = 0; j < k; ++j) {
      for (int i = 0; i < k; ++i) {
        // The lower neighbours; the builder keeps only col <= row.
        if (l > 0) builder.Add(index(i, j, l - 1), -1.0);
        if (j > 0) builder.Add(index(i, j - 1, l), -1.0);
        if (i > 0) builder.Add(index(i - 1, j, l), -1.0);
        builder.Add(index(i, j, l), 6.0);
        builder.EndRow();
      }
    }
  }
  ModelProblem p;
  p.family = "poisson3d";
  p.k = k;
  p.a = std::make_shared<CsrMatrix>(builder.Finish());
  p.b.assign(n, h * h);
  p.expected.positive = n;
  p.spd = true;
  return p;
}

}  // namespace factord::bench
