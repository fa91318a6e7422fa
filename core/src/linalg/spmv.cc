// Backend dispatch of the CSR product.
#include "src/linalg/spmv.h"

#include "kernels/sparse/spmv_kernels.h"

namespace factord::linalg {

void Spmv(const ExecContext& ctx, const CsrMatrix& a, std::span<const double> x,
          std::span<double> y) {
  if (ctx.backend == Backend::kReference) {
    kernels::reference::Spmv(ctx, a, x, y);
  } else {  // kCpu, and kCuda until its kernels land
    kernels::cpu::Spmv(ctx, a, x, y);
  }
}

}  // namespace factord::linalg
