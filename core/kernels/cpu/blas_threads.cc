#include "core/kernels/cpu/blas_threads.h"

#include <mutex>

#include "cblas.h"

namespace factord::kernels::cpu {

void UseSingleThreadedBlas() {
  static std::once_flag once;
  std::call_once(once, [] { openblas_set_num_threads(1); });
}

}  // namespace factord::kernels::cpu
