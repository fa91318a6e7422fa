// The CUDA block-Jacobi kernels (S3 §3.1: diagonal-block extraction, batched
// Gauss-Jordan inversion, block-diagonal apply) against the threaded CPU
// backend on the same blockings of real matrices. One JSON line per
// (matrix, maximum block size): the median time of each stage on each
// backend (device times include the host<->device copies, as the service
// would pay them), their ratio, and the largest difference of the results.
//
// Without a GPU it prints one line {"skipped": true, "reason": ...} and exits
// 0: this program is for scripts/gpu_node.sh, on a machine that has one.
//
// Usage: cuda_kernel_benchmark [--threads=T] [--repeat=R] M.mtx...
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "core/block_jacobi/block_jacobi.h"
#include "core/block_jacobi/kernels/block_jacobi_kernels.h"
#include "core/block_jacobi/kernels/cuda/block_jacobi_kernels.h"
#include "core/kernels/cuda/device.h"
#include "core/matrix/csr.h"
#include "core/matrix/matrix_market.h"

namespace factord::bench {
namespace {

namespace cuda = kernels::cuda;

// Median wall time of `repeat` calls of `run`, in seconds; a failed call
// (device error) makes the result negative.
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

double MaxRelativeDifference(const std::vector<double>& a,
                             const std::vector<double>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    worst = std::max(worst,
                     std::fabs(a[i] - b[i]) / std::max(1.0, std::fabs(a[i])));
  }
  return worst;
}

std::string Json(double x) {
  if (!std::isfinite(x)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", x);
  return buf;
}

int RunMatrix(const std::string& path, int threads, int repeat,
              cuda::CudaStream& stream) {
  absl::StatusOr<CsrMatrix> read = ReadMatrixMarket(path);
  if (!read.ok()) {
    std::printf("{\"matrix\": \"%s\", \"error\": \"%s\"}\n", path.c_str(),
                std::string(read.status().message()).c_str());
    return 1;
  }
  const CsrMatrix a =
      IsSymmetric(read->structure) ? ExpandSymmetric(*read) : std::move(*read);
  const ExecContext ctx{.backend = Backend::kCpu, .threads = threads};
  int failures = 0;
  for (int max_block : {8, 16, 32}) {
    absl::StatusOr<BlockJacobiBlocking> blocking =
        ComputeBlockJacobiBlocking(a, max_block, /*use_rcm=*/true);
    if (!blocking.ok()) {
      ++failures;
      continue;
    }
    const kernels::BlockLayout layout{
        blocking->block_ptr, blocking->block_rows, blocking->block_of_row,
        blocking->local_index, blocking->value_ptr};
    const size_t size = blocking->value_ptr.back();
    std::vector<double> blocks(size), blocks_gpu(size);
    std::vector<double> inverses(size), inverses_gpu(size);
    std::vector<uint8_t> status(layout.num_blocks()),
        status_gpu(layout.num_blocks());
    std::vector<double> r(a.rows, 1.0), z(a.rows), z_gpu(a.rows);

    const double cpu_extract = MedianSeconds(repeat, [&] {
      kernels::cpu::ExtractDiagonalBlocks(ctx, a, layout, blocks);
      return true;
    });
    const double cpu_invert = MedianSeconds(repeat, [&] {
      kernels::cpu::InvertDiagonalBlocks(ctx, layout, blocks, inverses, status);
      return true;
    });
    const double cpu_apply = MedianSeconds(repeat, [&] {
      kernels::cpu::ApplyBlockDiagonal(ctx, layout, inverses, r, z);
      return true;
    });
    const double gpu_extract = MedianSeconds(repeat, [&] {
      return cuda::ExtractDiagonalBlocks(stream, a, layout, blocks_gpu).ok();
    });
    const double gpu_invert = MedianSeconds(repeat, [&] {
      return cuda::InvertDiagonalBlocks(stream, layout, blocks, inverses_gpu,
                                        status_gpu)
          .ok();
    });
    const double gpu_apply = MedianSeconds(repeat, [&] {
      return cuda::ApplyBlockDiagonal(stream, layout, inverses, r, z_gpu).ok();
    });
    const bool device_ok = gpu_extract >= 0 && gpu_invert >= 0 &&
                           gpu_apply >= 0 && status_gpu == status;
    if (!device_ok) ++failures;
    std::printf(
        "{\"benchmark\": \"cuda_block_jacobi\", \"matrix\": \"%s\", "
        "\"n\": %lld, \"max_block\": %d, \"blocks\": %lld, "
        "\"cpu_threads\": %d, \"cpu_extract_s\": %s, \"cpu_invert_s\": %s, "
        "\"cpu_apply_s\": %s, \"gpu_extract_s\": %s, \"gpu_invert_s\": %s, "
        "\"gpu_apply_s\": %s, \"invert_speedup\": %s, \"apply_speedup\": %s, "
        "\"max_rel_diff_inverse\": %s, \"max_rel_diff_apply\": %s, "
        "\"device_ok\": %s}\n",
        path.c_str(), static_cast<long long>(a.rows), max_block,
        static_cast<long long>(layout.num_blocks()), threads,
        Json(cpu_extract).c_str(), Json(cpu_invert).c_str(),
        Json(cpu_apply).c_str(), Json(gpu_extract).c_str(),
        Json(gpu_invert).c_str(), Json(gpu_apply).c_str(),
        Json(cpu_invert / gpu_invert).c_str(),
        Json(cpu_apply / gpu_apply).c_str(),
        Json(MaxRelativeDifference(inverses, inverses_gpu)).c_str(),
        Json(MaxRelativeDifference(z, z_gpu)).c_str(),
        device_ok ? "true" : "false");
    std::fflush(stdout);
  }
  return failures;
}

}  // namespace
}  // namespace factord::bench

int main(int argc, char** argv) {
  int threads = 2, repeat = 5;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (absl::StartsWith(arg, "--threads=")) {
      if (!absl::SimpleAtoi(arg.substr(10), &threads) || threads < 1) {
        std::fprintf(stderr, "bad --threads: %s\n", arg.c_str());
        return 2;
      }
    } else if (absl::StartsWith(arg, "--repeat=")) {
      if (!absl::SimpleAtoi(arg.substr(9), &repeat) || repeat < 1) {
        std::fprintf(stderr, "bad --repeat: %s\n", arg.c_str());
        return 2;
      }
    } else {
      paths.push_back(arg);
    }
  }
  if (paths.empty()) {
    std::fprintf(stderr,
                 "usage: cuda_kernel_benchmark [--threads=T] [--repeat=R] "
                 "M.mtx...\n");
    return 2;
  }
  const factord::kernels::cuda::CudaDevices devices =
      factord::kernels::cuda::DetectCudaDevices();
  if (devices.count == 0) {
    std::printf(
        "{\"benchmark\": \"cuda_block_jacobi\", \"skipped\": true, "
        "\"reason\": \"no CUDA device: %s\"}\n",
        devices.reason.c_str());
    return 0;
  }
  auto stream = factord::kernels::cuda::CudaStream::Create(0);
  if (!stream.ok()) {
    std::fprintf(stderr, "cannot create a CUDA stream: %s\n",
                 std::string(stream.status().message()).c_str());
    return 1;
  }
  std::fprintf(stderr, "device: %s\n", devices.first_device_name.c_str());
  int failures = 0;
  for (const std::string& path : paths) {
    failures += factord::bench::RunMatrix(path, threads, repeat, **stream);
  }
  return failures == 0 ? 0 : 1;
}
