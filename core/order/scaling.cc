// Ruiz equilibration for symmetric matrices: repeatedly divide row and
// column i by sqrt(max_j |(S A S)_ij|). Converges to row maxima of 1 for any
// matrix without empty rows; symmetric, so one vector scales both sides.
#include "core/order/scaling.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace factord {
namespace internal {

double RescaleRowsReference(std::span<const double> row_max,
                            std::span<double> s) {
  double worst = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (row_max[i] > 0 && std::isfinite(row_max[i])) {
      worst = std::max(worst, std::abs(1.0 - row_max[i]));
      s[i] /= std::sqrt(row_max[i]);
    }
  }
  return worst;
}

#if defined(__x86_64__)
namespace {

// Four rows at a time. The division and square root are the bottleneck of
// a sweep; rows outside (0, DBL_MAX] (no entry, or an overflowed product)
// keep their s and count 0 in the maximum.
__attribute__((target("avx2"))) double RescaleRowsAvx2(
    std::span<const double> row_max, std::span<double> s) {
  const int64_t n = static_cast<int64_t>(s.size());
  const __m256d zero = _mm256_setzero_pd();
  const __m256d one = _mm256_set1_pd(1.0);
  const __m256d largest = _mm256_set1_pd(DBL_MAX);
  const __m256d magnitude =
      _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
  __m256d worst4 = zero;
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256d r = _mm256_loadu_pd(row_max.data() + i);
    const __m256d scaled = _mm256_and_pd(_mm256_cmp_pd(r, zero, _CMP_GT_OQ),
                                         _mm256_cmp_pd(r, largest, _CMP_LE_OQ));
    const __m256d off =
        _mm256_and_pd(_mm256_and_pd(_mm256_sub_pd(one, r), magnitude), scaled);
    worst4 = _mm256_max_pd(worst4, off);
    const __m256d si = _mm256_loadu_pd(s.data() + i);
    const __m256d divided =
        _mm256_div_pd(si, _mm256_sqrt_pd(_mm256_blendv_pd(one, r, scaled)));
    _mm256_storeu_pd(s.data() + i, _mm256_blendv_pd(si, divided, scaled));
  }
  double lanes[4];
  _mm256_storeu_pd(lanes, worst4);
  const double worst =
      std::max(std::max(lanes[0], lanes[1]), std::max(lanes[2], lanes[3]));
  return std::max(worst,
                  RescaleRowsReference(row_max.subspan(i), s.subspan(i)));
}

}  // namespace
#endif

double RescaleRows(std::span<const double> row_max, std::span<double> s) {
#if defined(__x86_64__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return RescaleRowsAvx2(row_max, s);
#endif
  return RescaleRowsReference(row_max, s);
}

}  // namespace internal

std::vector<double> RuizScaling(const CsrMatrix& a,
                                std::span<const double> values, int max_sweeps,
                                double tolerance) {
  const int64_t n = a.rows;
  std::vector<double> s(n, 1.0);
  std::vector<double> row_max(n);
  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    std::fill(row_max.begin(), row_max.end(), 0.0);
    // Row i's own maximum is kept in a register; the stored entries also
    // count for their column j (the other triangle). max is exact, so the
    // order does not change the result.
    for (int64_t i = 0; i < n; ++i) {
      const double si = s[i];
      double own = 0.0;
      for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
        const int64_t j = a.col_idx[k];
        const double v = std::abs(values[k]) * si * s[j];
        own = std::max(own, v);
        row_max[j] = std::max(row_max[j], v);
      }
      row_max[i] = std::max(row_max[i], own);
    }
    if (internal::RescaleRows(row_max, s) <= tolerance) break;
  }
  return s;
}

}  // namespace factord
