// Threaded vector kernels with deterministic chunked reductions (see
// core/linalg/kernels/blas_kernels.h for the reproducibility contract).
#include "core/linalg/kernels/blas_kernels.h"

#include <cmath>
#include <limits>
#include <vector>

#include "core/kernels/cpu/parallel.h"

namespace factord::kernels::cpu {
namespace {

// Element-wise kernels use the same chunking: it keeps each task large
// enough to amortize scheduling.
constexpr int64_t kChunk = kReductionChunk;

template <typename ChunkSum, typename Combine>
double Reduce(const ExecContext& ctx, int64_t n, ChunkSum chunk_sum,
              Combine combine) {
  const int64_t chunks = ChunkCount(n, kChunk);
  if (chunks <= 1) return chunk_sum(0, n);
  std::vector<double> partial(chunks);
  ForEachChunk(ctx, chunks, [&](int64_t c) {
    partial[c] = chunk_sum(c * kChunk, std::min(n, (c + 1) * kChunk));
  });
  double total = partial[0];  // serial, in chunk order
  for (int64_t c = 1; c < chunks; ++c) total = combine(total, partial[c]);
  return total;
}

template <typename Body>
void ForEachRange(const ExecContext& ctx, int64_t n, Body body) {
  ForEachChunk(ctx, ChunkCount(n, kChunk), [&](int64_t c) {
    body(c * kChunk, std::min(n, (c + 1) * kChunk));
  });
}

}  // namespace

double Dot(const ExecContext& ctx, std::span<const double> x,
           std::span<const double> y) {
  return Reduce(
      ctx, static_cast<int64_t>(x.size()),
      [&](int64_t begin, int64_t end) {
        double sum = 0;
        for (int64_t i = begin; i < end; ++i) sum += x[i] * y[i];
        return sum;
      },
      [](double a, double b) { return a + b; });
}

double Norm2(const ExecContext& ctx, std::span<const double> x) {
  return std::sqrt(Dot(ctx, x, x));
}

double NormInf(const ExecContext& ctx, std::span<const double> x) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return Reduce(
      ctx, static_cast<int64_t>(x.size()),
      [&](int64_t begin, int64_t end) {
        double norm = 0;
        for (int64_t i = begin; i < end; ++i) {
          if (std::isnan(x[i])) return nan;
          norm = std::max(norm, std::abs(x[i]));
        }
        return norm;
      },
      [nan](double a, double b) {
        return (std::isnan(a) || std::isnan(b)) ? nan : std::max(a, b);
      });
}

void Axpy(const ExecContext& ctx, double alpha, std::span<const double> x,
          std::span<double> y) {
  ForEachRange(ctx, static_cast<int64_t>(x.size()),
               [&](int64_t begin, int64_t end) {
                 for (int64_t i = begin; i < end; ++i) y[i] += alpha * x[i];
               });
}

void Axpby(const ExecContext& ctx, double alpha, std::span<const double> x,
           double beta, std::span<double> y) {
  ForEachRange(ctx, static_cast<int64_t>(x.size()),
               [&](int64_t begin, int64_t end) {
                 if (beta == 0) {
                   for (int64_t i = begin; i < end; ++i) y[i] = alpha * x[i];
                 } else {
                   for (int64_t i = begin; i < end; ++i) {
                     y[i] = alpha * x[i] + beta * y[i];
                   }
                 }
               });
}

void Scale(const ExecContext& ctx, double alpha, std::span<double> x) {
  ForEachRange(ctx, static_cast<int64_t>(x.size()),
               [&](int64_t begin, int64_t end) {
                 for (int64_t i = begin; i < end; ++i) x[i] *= alpha;
               });
}

void Copy(const ExecContext& ctx, std::span<const double> x,
          std::span<double> y) {
  ForEachRange(ctx, static_cast<int64_t>(x.size()),
               [&](int64_t begin, int64_t end) {
                 for (int64_t i = begin; i < end; ++i) y[i] = x[i];
               });
}

void PointwiseProduct(const ExecContext& ctx, std::span<const double> d,
                      std::span<const double> x, std::span<double> y) {
  ForEachRange(ctx, static_cast<int64_t>(x.size()),
               [&](int64_t begin, int64_t end) {
                 for (int64_t i = begin; i < end; ++i) y[i] = d[i] * x[i];
               });
}

}  // namespace factord::kernels::cpu
