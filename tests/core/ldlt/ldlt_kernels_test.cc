// The cpu ldlt kernels against the reference on the same inputs: the Schur
// update (planted empty and tiny shapes, BLAS-sized ones) and the whole
// front tree of a KKT-like matrix with zero diagonals (delays, 2x2 pivots).
#include "core/ldlt/kernels/ldlt_kernels.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/ldlt/ldlt_symbolic.h"
#include "core/order/amd.h"
#include "gtest/gtest.h"

namespace factord::kernels {
namespace {

TEST(LdltKernels, SchurUpdateCpuMatchesReference) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> value(-1, 1);
  for (auto [r, q] : std::vector<std::pair<int, int>>{
           {0, 3}, {3, 0}, {1, 1}, {7, 2}, {70, 9}, {130, 40}}) {
    const int ld = r + 3;
    std::vector<double> l(ld * q), w(ld * q), s(ld * r + 1);
    for (double& v : l) v = value(rng);
    for (double& v : w) v = value(rng);
    for (double& v : s) v = value(rng);
    if (!w.empty()) w[0] = 0.0;  // planted zero (the reference skips it)
    std::vector<double> s_ref = s, s_cpu = s;
    reference::SchurUpdate(r, q, l.data(), ld, w.data(), ld, s_ref.data(), ld);
    cpu::SchurUpdate(r, q, l.data(), ld, w.data(), ld, s_cpu.data(), ld);
    for (int j = 0; j < r; ++j) {
      for (int i = j; i < r; ++i) {
        EXPECT_NEAR(s_cpu[j * ld + i], s_ref[j * ld + i], 1e-12);
      }
    }
  }
}

// A random KKT-like matrix: [-E A^T; A 0] with sparse A and zero (2,2)
// diagonal kept explicitly, in the symbolic's permuted value order.
TEST(LdltKernels, FrontTreeCpuMatchesReference) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> value(-1, 1);
  const int n1 = 300, n2 = 120, n = n1 + n2;
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.push_back(0);
  for (int i = 0; i < n; ++i) {
    if (i < n1) {
      if (i > 0 && rng() % 2) {
        a.col_idx.push_back(i - 1);
        a.values.push_back(0.1 * value(rng));
      }
      a.col_idx.push_back(i);
      a.values.push_back(-2.0 - value(rng));
    } else {
      for (int j = 0; j < n1; ++j) {
        if (rng() % 60 == 0) {
          a.col_idx.push_back(j);
          a.values.push_back(value(rng));
        }
      }
      a.col_idx.push_back(i);
      a.values.push_back(0.0);
    }
    a.row_ptr.push_back(a.col_idx.size());
  }
  auto perm = AmdOrdering(a);
  ASSERT_TRUE(perm.ok());
  auto sym = internal::BuildLdltSymbolic(a, *perm);
  ASSERT_TRUE(sym.ok());
  std::vector<double> values(sym->col_rows.size());
  for (size_t e = 0; e < values.size(); ++e) {
    values[e] = sym->col_src[e] >= 0 ? a.values[sym->col_src[e]] : 0.0;
  }
  DenseLdltParams params;
  internal::FrontFactors ref_factors, cpu_factors;
  std::vector<internal::FrontCounts> ref_c, cpu_c;
  ExecContext ref_ctx;
  ref_ctx.backend = Backend::kReference;
  ExecContext cpu_ctx;
  cpu_ctx.threads = 2;
  ASSERT_TRUE(reference::FactorizeFrontTree(ref_ctx, *sym, values, params,
                                            &ref_factors, &ref_c)
                  .ok());
  ASSERT_TRUE(cpu::FactorizeFrontTree(cpu_ctx, *sym, values, params,
                                      &cpu_factors, &cpu_c)
                  .ok());
  const auto& ref_f = ref_factors.fronts;
  const auto& cpu_f = cpu_factors.fronts;
  ASSERT_EQ(ref_f.size(), cpu_f.size());
  int64_t delayed = 0, two = 0;
  for (size_t f = 0; f < ref_f.size(); ++f) {
    delayed += ref_c[f].delayed;
    two += ref_c[f].two_by_two;
    EXPECT_EQ(ref_c[f].delayed, cpu_c[f].delayed);
    ASSERT_TRUE(std::ranges::equal(ref_f[f].rows, cpu_f[f].rows))
        << "front " << f;
    ASSERT_TRUE(std::ranges::equal(ref_f[f].pivot_size, cpu_f[f].pivot_size));
    for (size_t k = 0; k < ref_f[f].d_diag.size(); ++k) {
      EXPECT_NEAR(ref_f[f].d_diag[k], cpu_f[f].d_diag[k],
                  1e-10 * (1 + std::abs(ref_f[f].d_diag[k])));
    }
    for (size_t k = 0; k < ref_f[f].l.size(); ++k) {
      EXPECT_NEAR(ref_f[f].l[k], cpu_f[f].l[k],
                  1e-9 * (1 + std::abs(ref_f[f].l[k])));
    }
  }
  // The planted zero diagonals must have needed 2x2 pivots or delays.
  EXPECT_GT(delayed + two, 0);
}

// A 3D grid Laplacian (fronts of a few hundred columns: the unpivoted
// blocked kernel and the chunked Schur update run as tasks): the cpu
// factor is bitwise the same with one thread, two, and two again, and
// agrees with the reference to rounding.
TEST(LdltKernels, FrontTreeCpuIsBitwiseDeterministicAcrossThreadCounts) {
  const int k = 14, n = k * k * k;
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.push_back(0);
  auto id = [&](int x, int y, int z) { return (x * k + y) * k + z; };
  for (int x = 0; x < k; ++x) {
    for (int y = 0; y < k; ++y) {
      for (int z = 0; z < k; ++z) {
        const int i = id(x, y, z);
        if (x > 0) a.col_idx.push_back(id(x - 1, y, z));
        if (y > 0) a.col_idx.push_back(id(x, y - 1, z));
        if (z > 0) a.col_idx.push_back(id(x, y, z - 1));
        while (a.values.size() < a.col_idx.size()) a.values.push_back(-1.0);
        a.col_idx.push_back(i);
        a.values.push_back(6.0);
        a.row_ptr.push_back(a.col_idx.size());
      }
    }
  }
  auto perm = AmdOrdering(a);
  ASSERT_TRUE(perm.ok());
  auto sym = internal::BuildLdltSymbolic(a, *perm);
  ASSERT_TRUE(sym.ok());
  ASSERT_GE(sym->max_front, 128);
  std::vector<double> values(sym->col_rows.size());
  for (size_t e = 0; e < values.size(); ++e) {
    values[e] = sym->col_src[e] >= 0 ? a.values[sym->col_src[e]] : 0.0;
  }
  DenseLdltParams params;
  auto run = [&](Backend backend, int threads) {
    ExecContext ctx;
    ctx.backend = backend;
    ctx.threads = threads;
    internal::FrontFactors factors;
    std::vector<internal::FrontCounts> counts;
    const absl::Status s =
        backend == Backend::kReference
            ? reference::FactorizeFrontTree(ctx, *sym, values, params, &factors,
                                            &counts)
            : cpu::FactorizeFrontTree(ctx, *sym, values, params, &factors,
                                      &counts);
    EXPECT_TRUE(s.ok()) << s;
    return factors;
  };
  const internal::FrontFactors ref = run(Backend::kReference, 1);
  const internal::FrontFactors one = run(Backend::kCpu, 1);
  const internal::FrontFactors two = run(Backend::kCpu, 2);
  const internal::FrontFactors again = run(Backend::kCpu, 2);
  ASSERT_EQ(one.fronts.size(), ref.fronts.size());
  for (size_t f = 0; f < one.fronts.size(); ++f) {
    const auto& x = one.fronts[f];
    ASSERT_EQ(x.q, two.fronts[f].q);
    ASSERT_TRUE(std::ranges::equal(x.l, two.fronts[f].l)) << "front " << f;
    ASSERT_TRUE(std::ranges::equal(x.l, again.fronts[f].l)) << "front " << f;
    ASSERT_TRUE(std::ranges::equal(x.d_diag, two.fronts[f].d_diag));
    for (size_t e = 0; e < x.l.size(); ++e) {
      ASSERT_NEAR(x.l[e], ref.fronts[f].l[e],
                  1e-12 * (1 + std::abs(ref.fronts[f].l[e])));
    }
  }
}

}  // namespace
}  // namespace factord::kernels
