// The cpu CSR product against the serial reference: empty rows, a 1 x 1
// matrix, an empty matrix, and enough rows for several chunks. Each row is
// summed in the same order, so the results must be identical.
#include "core/linalg/kernels/spmv_kernels.h"

#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace factord::kernels {
namespace {

CsrMatrix RandomCsr(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  CsrMatrix a;
  a.rows = a.cols = n;
  a.row_ptr.push_back(0);
  for (int64_t i = 0; i < n; ++i) {
    if (i % 7 != 3) {  // every seventh row is empty
      for (int64_t j = 0; j < n; j += 1 + static_cast<int64_t>(rng() % 97)) {
        a.col_idx.push_back(static_cast<int32_t>(j));
        a.values.push_back(u(rng));
      }
    }
    a.row_ptr.push_back(a.nnz());
  }
  return a;
}

TEST(SpmvKernels, CpuMatchesReferenceExactly) {
  for (int64_t n : {0, 1, 5, 1023, 1024, 1025, 3333}) {
    const CsrMatrix a = RandomCsr(n, n + 1);
    std::vector<double> x(n);
    for (int64_t i = 0; i < n; ++i) x[i] = 1.0 / (1 + i);
    std::vector<double> y_ref(n, -1.0), y_cpu(n, -2.0);
    reference::Spmv(ExecContext{}, a, x, y_ref);
    for (int threads : {1, 2, 3}) {
      ExecContext ctx;
      ctx.threads = threads;
      cpu::Spmv(ctx, a, x, y_cpu);
      EXPECT_EQ(y_cpu, y_ref) << "n " << n << " threads " << threads;
    }
  }
}

TEST(SpmvKernels, EmptyRowGivesZeroAndKnownProduct) {
  CsrMatrix a;  // [[2, 0, 1], [0, 0, 0], [0, -1, 4]]
  a.rows = a.cols = 3;
  a.row_ptr = {0, 2, 2, 4};
  a.col_idx = {0, 2, 1, 2};
  a.values = {2, 1, -1, 4};
  const std::vector<double> x = {1, 2, 3};
  std::vector<double> y(3, 99.0);
  cpu::Spmv(ExecContext{}, a, x, y);
  EXPECT_EQ(y, (std::vector<double>{5, 0, 10}));
}

}  // namespace
}  // namespace factord::kernels
