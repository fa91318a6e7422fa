// Serial triangular-solve kernels (S4 §2.1): the source of truth for the cpu
// ones. The substitution goes row by row and ignores the level sets.
#include "core/trisolve/kernels/trisolve_kernels.h"

#include "core/trisolve/kernels/trisolve_rows.h"

namespace factord::kernels::reference {

void Substitute(const ExecContext&, const TriangularFactor& t,
                Triangle triangle, const LevelSchedule&,
                std::span<const double> b, std::span<double> x) {
  const int64_t n = t.n();
  if (triangle == Triangle::kLower) {
    for (int64_t i = 0; i < n; ++i) {
      x[i] = TriangularRowUpdate(t, triangle, i, b, x);
    }
  } else {
    for (int64_t i = n - 1; i >= 0; --i) {
      x[i] = TriangularRowUpdate(t, triangle, i, b, x);
    }
  }
}

void JacobiSweep(const ExecContext&, const TriangularFactor& t,
                 Triangle triangle, std::span<const double> b,
                 std::span<const double> x_old, std::span<double> x_new) {
  for (int64_t i = 0; i < t.n(); ++i) {
    x_new[i] = TriangularRowUpdate(t, triangle, i, b, x_old);
  }
}

void BlockJacobiSweep(const ExecContext&, const TriangularFactor& t,
                      Triangle triangle, const TriangularBlocks& blocks,
                      std::span<const double> inverses,
                      std::span<const double> b, std::span<const double> x_old,
                      std::span<double> x_new) {
  for (int64_t k = 0; k < blocks.num_blocks(); ++k) {
    BlockJacobiUpdate(t, triangle, blocks, k, inverses, b, x_old, x_new);
  }
}

void ExtractTriangularBlocks(const ExecContext&, const TriangularFactor& t,
                             Triangle triangle, const TriangularBlocks& blocks,
                             std::span<double> dense) {
  for (int64_t k = 0; k < blocks.num_blocks(); ++k) {
    ExtractTriangularBlock(t, triangle, blocks, k, dense);
  }
}

}  // namespace factord::kernels::reference
