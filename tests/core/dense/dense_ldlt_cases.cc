#include "tests/core/dense/dense_ldlt_cases.h"

#include <cstring>

namespace factord::emulation_testing {

void LdltBatch::Add(int m, const std::vector<double>& lower_rows) {
  // lower_rows: the lower triangle row by row (m (m + 1) / 2 values).
  std::vector<double> f(static_cast<size_t>(m) * m);
  size_t k = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j <= i; ++j, ++k) {
      f[j * m + i] = f[i * m + j] = lower_rows[k];
    }
  }
  values.insert(values.end(), f.begin(), f.end());
  value_ptr.push_back(value_ptr.back() + int64_t{m} * m);
  pivot_ptr.push_back(pivot_ptr.back() + m);
}

std::vector<double> RandomLower(int m, std::mt19937_64& rng,
                                double zero_diagonal_fraction) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::vector<double> lower;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j <= i; ++j) {
      double v = value(rng);
      if (i == j && coin(rng) < zero_diagonal_fraction) v = 0.0;
      lower.push_back(v);
    }
  }
  return lower;
}

LdltBatch PlantedBatch() {
  std::mt19937_64 rng(99);
  LdltBatch batch;
  batch.Add(1, {5.0});
  batch.Add(1, {0.0});
  batch.Add(1, {-2.0});
  batch.Add(2, {0.0, 1.0, 0.0});
  batch.Add(2, {0.0, 0.0, 0.0});
  batch.Add(3, {0.0, 1.0, 0.0, 0.0, 1.0, 0.0});
  batch.Add(2, {1e-20, 1.0, 1e-20});
  batch.Add(3, {1e-3, 1.0, 1e-3, 0.5, 0.25, 2.0});
  {  // KKT: [H A^T; A 0] with H 5x5 SPD-ish, A 3x5
    std::vector<double> lower;
    for (int i = 0; i < 8; ++i) {
      for (int j = 0; j <= i; ++j) {
        double v = 0;
        if (i < 5) {
          v = (i == j) ? 2.0 + i : 0.1 * (i - j);
        } else if (j < 5) {
          v = ((i + 2 * j) % 3) - 1.0;
        }
        lower.push_back(v);
      }
    }
    batch.Add(8, lower);
  }
  {  // rank one: v v^T
    std::vector<double> v = {1, -2, 3, 0.5, -1, 2};
    std::vector<double> lower;
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j <= i; ++j) lower.push_back(v[i] * v[j]);
    }
    batch.Add(6, lower);
  }
  batch.Add(5, RandomLower(5, rng, 0.5));
  batch.Add(17, RandomLower(17, rng, 0.3));
  batch.Add(31, RandomLower(31, rng, 0.2));
  batch.Add(32, RandomLower(32, rng, 0.0));
  batch.Add(32, RandomLower(32, rng, 0.6));
  batch.Add(12, RandomLower(12, rng, 1.0));  // zero diagonal throughout
  batch.Add(4, {0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0});
  return batch;
}

LdltOutputs Sentinel(const LdltBatch& batch) {
  const size_t n = batch.pivot_ptr.back();
  LdltOutputs out;
  out.values = batch.values;
  out.d_diag.assign(n, -3.5e99);
  out.d_off.assign(n, -3.5e99);
  out.order.assign(n, -99);
  out.size.assign(n, -99);
  out.counts.assign(batch.num_blocks(), DenseLdltCounts{-1, -1, -1, -1});
  return out;
}

LdltOutputs RunReference(const LdltBatch& batch, const DenseLdltParams& p) {
  LdltOutputs out = Sentinel(batch);
  for (int64_t b = 0; b < batch.num_blocks(); ++b) {
    const int m = static_cast<int>(batch.pivot_ptr[b + 1] - batch.pivot_ptr[b]);
    const int64_t first = batch.pivot_ptr[b];
    std::vector<int> work(m);
    out.counts[b] = kernels::DensePartialLdlt(
        out.values.data() + batch.value_ptr[b], m, m, p,
        out.order.data() + first, out.size.data() + first,
        out.d_diag.data() + first, out.d_off.data() + first, work.data());
  }
  return out;
}

template <typename T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() ||
          std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool SameOutputs(const LdltOutputs& a, const LdltOutputs& b) {
  if (!SameBits(a.values, b.values) || !SameBits(a.d_diag, b.d_diag) ||
      !SameBits(a.d_off, b.d_off) || !SameBits(a.order, b.order) ||
      !SameBits(a.size, b.size) || a.counts.size() != b.counts.size()) {
    return false;
  }
  for (size_t k = 0; k < a.counts.size(); ++k) {
    if (a.counts[k].eliminated != b.counts[k].eliminated ||
        a.counts[k].two_by_two != b.counts[k].two_by_two ||
        a.counts[k].perturbed != b.counts[k].perturbed ||
        a.counts[k].zero != b.counts[k].zero) {
      return false;
    }
  }
  return true;
}

}  // namespace factord::emulation_testing
