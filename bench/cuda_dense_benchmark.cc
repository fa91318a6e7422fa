// The CUDA batched dense block factorizations (S2 §IV: LU, LL^T, LDL^T with
// static, partial and full pivoting, one warp per block) against the
// threaded CPU backend on the same random batches, as S2 §IV measures them:
// block sizes 4, 8, 16 and 32, 10,000 blocks per batch. One JSON line per
// (size, kind, pivoting): median times of the CPU kernel, of the device
// kernel alone and of the device call with its copies, and the agreement of
// the results (statuses, largest relative difference of the factors).
//
// Without a GPU it prints one line {"skipped": true, "reason": ...} and exits
// 0: this program is for scripts/gpu_node.sh, on a machine that has one.
//
// Usage: cuda_dense_benchmark [--threads=T] [--repeat=R] [--blocks=N]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "core/dense/kernels/batched_dense_kernels.h"
#include "core/dense/kernels/cuda/batched_dense_kernels.h"
#include "core/kernels/cuda/device.h"

namespace factord::bench {
namespace {

namespace cuda = kernels::cuda;
using kernels::DenseFactorKind;

struct Batch {
  std::vector<int32_t> size;
  std::vector<int64_t> value_offset, index_offset;
  std::vector<double> values, d_diag, d_off;
  std::vector<int32_t> row_perm, col_perm, step;
  std::vector<int8_t> pivot_size, status;
  kernels::DenseBatch View() {
    return {size,       value_offset, index_offset, values, row_perm, col_perm,
            pivot_size, d_diag,       d_off,        status, step};
  }
};

// n random m x m blocks: general (LU), SPD B B^T + m I (LL^T), symmetric
// indefinite (LDL^T).
Batch RandomBatch(DenseFactorKind kind, int m, int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Batch batch;
  std::vector<double> b(static_cast<size_t>(m) * m), a(b.size());
  for (int k = 0; k < n; ++k) {
    for (double& v : b) v = value(rng);
    for (int j = 0; j < m; ++j) {
      for (int i = 0; i < m; ++i) {
        if (kind == DenseFactorKind::kLu) {
          a[j * m + i] = b[j * m + i];
        } else if (kind == DenseFactorKind::kLdlt) {
          a[j * m + i] = i >= j ? b[j * m + i] : b[i * m + j];
        } else {
          double s = i == j ? m : 0.0;
          for (int t = 0; t < m; ++t) s += b[t * m + i] * b[t * m + j];
          a[j * m + i] = s;
        }
      }
    }
    batch.size.push_back(m);
    batch.value_offset.push_back(static_cast<int64_t>(batch.values.size()));
    batch.index_offset.push_back(static_cast<int64_t>(k) * m);
    batch.values.insert(batch.values.end(), a.begin(), a.end());
  }
  const size_t indices = static_cast<size_t>(n) * m;
  batch.d_diag.assign(indices, 0);
  batch.d_off.assign(indices, 0);
  batch.row_perm.assign(indices, 0);
  batch.col_perm.assign(indices, 0);
  batch.pivot_size.assign(indices, 0);
  batch.status.assign(n, 0);
  batch.step.assign(n, 0);
  return batch;
}

double MedianSeconds(int repeat, const std::function<bool()>& run) {
  std::vector<double> times;
  for (int r = 0; r < repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    if (!run()) return -1;
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

std::string Json(double x) {
  if (!std::isfinite(x) || x < 0) return "null";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.6g", x);
  return buffer;
}

// The device kernel alone: the batch uploaded once, its pristine values
// restored on the device before each timed launch.
double KernelSeconds(cuda::CudaStream& stream, const Batch& input,
                     const kernels::DenseBatchParams& params, int repeat) {
  Batch work = input;
  auto size = cuda::UploadArray(std::span<const int32_t>(work.size), stream);
  auto value_offset =
      cuda::UploadArray(std::span<const int64_t>(work.value_offset), stream);
  auto index_offset =
      cuda::UploadArray(std::span<const int64_t>(work.index_offset), stream);
  auto pristine =
      cuda::UploadArray(std::span<const double>(work.values), stream);
  auto values = cuda::UploadArray(std::span<const double>(work.values), stream);
  auto row_perm =
      cuda::UploadArray(std::span<const int32_t>(work.row_perm), stream);
  auto col_perm =
      cuda::UploadArray(std::span<const int32_t>(work.col_perm), stream);
  auto pivot_size =
      cuda::UploadArray(std::span<const int8_t>(work.pivot_size), stream);
  auto d_diag = cuda::UploadArray(std::span<const double>(work.d_diag), stream);
  auto d_off = cuda::UploadArray(std::span<const double>(work.d_off), stream);
  auto status = cuda::UploadArray(std::span<const int8_t>(work.status), stream);
  auto step = cuda::UploadArray(std::span<const int32_t>(work.step), stream);
  if (!size.ok() || !value_offset.ok() || !index_offset.ok() ||
      !pristine.ok() || !values.ok() || !row_perm.ok() || !col_perm.ok() ||
      !pivot_size.ok() || !d_diag.ok() || !d_off.ok() || !status.ok() ||
      !step.ok()) {
    return -1;
  }
  cuda::DeviceDenseBatch device;
  device.num_blocks = static_cast<int64_t>(work.size.size());
  device.size = size->data();
  device.value_offset = value_offset->data();
  device.index_offset = index_offset->data();
  device.values = values->data();
  device.row_perm = row_perm->data();
  device.col_perm = col_perm->data();
  device.pivot_size = pivot_size->data();
  device.d_diag = d_diag->data();
  device.d_off = d_off->data();
  device.status = status->data();
  device.step = step->data();
  const cuda::DeviceDenseBatchParams device_params =
      cuda::ToDeviceParams(params);
  std::vector<double> times;
  for (int r = 0; r < repeat; ++r) {
    if (cudaMemcpyAsync(values->data(), pristine->data(), values->bytes(),
                        cudaMemcpyDeviceToDevice,
                        stream.get()) != cudaSuccess ||
        !stream.Synchronize().ok()) {
      return -1;
    }
    const auto start = std::chrono::steady_clock::now();
    if (cuda::LaunchFactorDenseBatch(device_params, device, stream.get()) !=
            cudaSuccess ||
        !stream.Synchronize().ok()) {
      return -1;
    }
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

int Main(int argc, char** argv) {
  int threads = 2, repeat = 5, blocks = 10000;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    int value = 0;
    if (absl::StartsWith(arg, "--threads=") &&
        absl::SimpleAtoi(arg.substr(10), &value) && value > 0) {
      threads = value;
    } else if (absl::StartsWith(arg, "--repeat=") &&
               absl::SimpleAtoi(arg.substr(9), &value) && value > 0) {
      repeat = value;
    } else if (absl::StartsWith(arg, "--blocks=") &&
               absl::SimpleAtoi(arg.substr(9), &value) && value > 0) {
      blocks = value;
    } else {
      std::fprintf(stderr,
                   "usage: cuda_dense_benchmark [--threads=T] [--repeat=R] "
                   "[--blocks=N]\n");
      return 2;
    }
  }
  const cuda::CudaDevices devices = cuda::DetectCudaDevices();
  if (devices.count == 0) {
    std::printf("{\"skipped\": true, \"reason\": \"no CUDA device: %s\"}\n",
                devices.reason.c_str());
    return 0;
  }
  auto stream = cuda::CudaStream::Create(0);
  if (!stream.ok()) {
    std::printf("{\"error\": \"%s\"}\n", stream.status().ToString().c_str());
    return 1;
  }
  ExecContext cpu_ctx;
  cpu_ctx.backend = Backend::kCpu;
  cpu_ctx.threads = threads;
  const std::pair<DenseFactorKind, const char*> kinds[] = {
      {DenseFactorKind::kLu, "lu"},
      {DenseFactorKind::kLlt, "llt"},
      {DenseFactorKind::kLdlt, "ldlt"}};
  const std::pair<int, const char*> pivotings[] = {
      {kernels::kBlockPivotStatic, "static"},
      {kernels::kBlockPivotPartial, "partial"},
      {kernels::kBlockPivotFull, "full"}};
  for (int m : {4, 8, 16, 32}) {
    for (const auto& [kind, kind_name] : kinds) {
      for (const auto& [pivoting, pivoting_name] : pivotings) {
        kernels::DenseBatchParams params;
        params.kind = kind;
        params.pivoting = pivoting;
        const Batch input = RandomBatch(kind, m, blocks, 17 + m);
        Batch cpu_out = input;
        const double cpu_s = MedianSeconds(repeat, [&] {
          cpu_out = input;
          kernels::cpu::FactorDenseBatch(cpu_ctx, params, cpu_out.View());
          return true;
        });
        Batch gpu_out = input;
        const double total_s = MedianSeconds(repeat, [&] {
          gpu_out = input;
          return cuda::FactorDenseBatch(**stream, params, gpu_out.View()).ok();
        });
        const double kernel_s = KernelSeconds(**stream, input, params, repeat);
        int64_t status_mismatches = 0;
        for (size_t b = 0; b < input.status.size(); ++b) {
          status_mismatches += cpu_out.status[b] != gpu_out.status[b];
        }
        double max_diff = 0;
        for (size_t k = 0; k < input.values.size(); ++k) {
          const double a = cpu_out.values[k], g = gpu_out.values[k];
          if (std::isfinite(a)) {
            max_diff = std::max(max_diff,
                                std::fabs(a - g) / std::max(1.0, std::fabs(a)));
          }
        }
        std::printf(
            "{\"m\": %d, \"kind\": \"%s\", \"pivoting\": \"%s\", \"blocks\": "
            "%d, \"threads\": %d, \"cpu_s\": %s, \"gpu_kernel_s\": %s, "
            "\"gpu_with_copies_s\": %s, \"kernel_speedup\": %s, "
            "\"status_mismatches\": %lld, \"max_rel_diff\": %s, \"device\": "
            "\"%s\"}\n",
            m, kind_name, pivoting_name, blocks, threads, Json(cpu_s).c_str(),
            Json(kernel_s).c_str(), Json(total_s).c_str(),
            Json(kernel_s > 0 ? cpu_s / kernel_s : -1).c_str(),
            static_cast<long long>(status_mismatches), Json(max_diff).c_str(),
            devices.first_device_name.c_str());
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace factord::bench

int main(int argc, char** argv) { return factord::bench::Main(argc, argv); }
