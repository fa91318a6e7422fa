#include "core/kernels/cpu/blas_threads.h"

#include <atomic>
#include <mutex>

#include "cblas.h"

namespace factord::kernels::cpu {
namespace {

std::atomic<bool> keep_host_threads{false};

}  // namespace

void KeepHostBlasThreads() { keep_host_threads.store(true); }

void UseSingleThreadedBlas() {
  if (keep_host_threads.load()) return;
  static std::once_flag once;
  std::call_once(once, [] {
    if (!keep_host_threads.load()) openblas_set_num_threads(1);
  });
}

}  // namespace factord::kernels::cpu
