// The cpu vector kernels against the serial reference, with sizes around
// the reduction chunk (n not a multiple of it), empty vectors, NaNs, and
// the reproducibility contract: bitwise identical results for any thread
// count, equal to the reference bit for bit up to one chunk.
#include "core/linalg/kernels/blas_kernels.h"

#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace factord::kernels {
namespace {

std::vector<double> RandomVector(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(n);
  for (double& x : v) x = u(rng) * std::pow(10.0, static_cast<int>(u(rng) * 8));
  return v;
}

ExecContext Cpu(int threads) {
  ExecContext ctx;
  ctx.threads = threads;
  return ctx;
}

const int64_t kSizes[] = {0,
                          1,
                          7,
                          kReductionChunk - 1,
                          kReductionChunk,
                          kReductionChunk + 1,
                          3 * kReductionChunk + 17};

TEST(BlasKernels, ReductionsMatchReference) {
  const ExecContext ref;
  for (int64_t n : kSizes) {
    const auto x = RandomVector(n, 1), y = RandomVector(n, 2);
    for (int threads : {1, 2, 3}) {
      const ExecContext ctx = Cpu(threads);
      const double dot = cpu::Dot(ctx, x, y);
      const double norm = cpu::Norm2(ctx, x);
      if (n <= kReductionChunk) {
        EXPECT_EQ(dot, reference::Dot(ref, x, y)) << n;
        EXPECT_EQ(norm, reference::Norm2(ref, x)) << n;
      } else {
        EXPECT_NEAR(
            dot, reference::Dot(ref, x, y),
            1e-12 * reference::Norm2(ref, x) * reference::Norm2(ref, y));
        EXPECT_NEAR(norm, reference::Norm2(ref, x), 1e-13 * norm);
      }
      EXPECT_EQ(cpu::NormInf(ctx, x), reference::NormInf(ref, x)) << n;
    }
  }
}

TEST(BlasKernels, ReductionsAreBitwiseReproducibleAcrossThreadCounts) {
  const int64_t n = 5 * kReductionChunk + 123;
  const auto x = RandomVector(n, 3), y = RandomVector(n, 4);
  const double dot1 = cpu::Dot(Cpu(1), x, y);
  for (int threads : {2, 3, 4}) {
    for (int repeat = 0; repeat < 3; ++repeat) {
      EXPECT_EQ(cpu::Dot(Cpu(threads), x, y), dot1);
    }
  }
}

TEST(BlasKernels, ElementwiseKernelsMatchReferenceExactly) {
  const ExecContext ref;
  for (int64_t n : kSizes) {
    const auto x = RandomVector(n, 5), d = RandomVector(n, 6);
    const auto y0 = RandomVector(n, 7);
    for (int threads : {1, 3}) {
      const ExecContext ctx = Cpu(threads);
      auto y_ref = y0, y_cpu = y0;
      reference::Axpy(ref, 0.7, x, y_ref);
      cpu::Axpy(ctx, 0.7, x, y_cpu);
      EXPECT_EQ(y_cpu, y_ref);
      reference::Axpby(ref, -1.5, x, 0.25, y_ref);
      cpu::Axpby(ctx, -1.5, x, 0.25, y_cpu);
      EXPECT_EQ(y_cpu, y_ref);
      reference::Scale(ref, 3.0, y_ref);
      cpu::Scale(ctx, 3.0, y_cpu);
      EXPECT_EQ(y_cpu, y_ref);
      reference::PointwiseProduct(ref, d, x, y_ref);
      cpu::PointwiseProduct(ctx, d, x, y_cpu);
      EXPECT_EQ(y_cpu, y_ref);
      std::vector<double> copy(n);
      cpu::Copy(ctx, x, copy);
      EXPECT_EQ(copy, x);
    }
  }
}

TEST(BlasKernels, AxpbyWithZeroBetaIgnoresNaNsInY) {
  const std::vector<double> x = {1, 2, 3};
  std::vector<double> y_ref(3, NAN), y_cpu(3, NAN);
  reference::Axpby(ExecContext{}, 2.0, x, 0.0, y_ref);
  cpu::Axpby(Cpu(2), 2.0, x, 0.0, y_cpu);
  EXPECT_EQ(y_ref, (std::vector<double>{2, 4, 6}));
  EXPECT_EQ(y_cpu, y_ref);
}

TEST(BlasKernels, NormInfPropagatesNaN) {
  std::vector<double> x(2 * kReductionChunk + 5, 1.0);
  x[kReductionChunk + 3] = NAN;
  EXPECT_TRUE(std::isnan(reference::NormInf(ExecContext{}, x)));
  EXPECT_TRUE(std::isnan(cpu::NormInf(Cpu(2), x)));
}

}  // namespace
}  // namespace factord::kernels
