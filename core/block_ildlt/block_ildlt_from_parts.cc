// BlockIldltFactor::FromParts: a block LDL^T computed elsewhere (the Jacobi
// sweeps of jacobi_ldlt, S2 Alg. 2) wrapped in block_ildlt's factor so that
// it is applied by the same blocked triangular solves (block_ildlt_apply.cc).
#include <utility>

#include "core/block_ildlt/block_ildlt.h"

namespace factord {

std::unique_ptr<BlockIldltFactor> BlockIldltFactor::FromParts(
    std::shared_ptr<const BlockIldltStructure> structure,
    std::vector<double> scaling, std::vector<double> values,
    std::vector<int32_t> pivot_order, std::vector<int8_t> pivot_size,
    std::vector<double> d_diag, std::vector<double> d_off,
    BlockIldltStats stats) {
  std::unique_ptr<BlockIldltFactor> f(new BlockIldltFactor());
  f->kept_.assign(structure->num_slots(), 1);
  f->structure_ = std::move(structure);
  f->scaling_ = std::move(scaling);
  f->values_ = std::move(values);
  f->pivot_order_ = std::move(pivot_order);
  f->pivot_size_ = std::move(pivot_size);
  f->d_diag_ = std::move(d_diag);
  f->d_off_ = std::move(d_off);
  f->stats_ = stats;
  return f;
}

}  // namespace factord
