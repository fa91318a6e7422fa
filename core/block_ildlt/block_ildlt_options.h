// The options only block_ildlt reads (S1): its blocking and its dropping.
// FactorOptions (core/solver/options.h) holds them as a base; max_block_size
// and fill_level are shared with other families and are FactorOptions' own.
// Validated in core/solver/validate_options.cc.
#ifndef FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_OPTIONS_H_
#define FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_OPTIONS_H_

#include "core/solver/option_field.h"

namespace factord {

// Blocking strategy of block_ildlt (S1 §III-A): kRb orders first, then
// blocks neighbouring rows; kBr groups similar rows across the whole matrix
// first, then orders the blocks.
enum class Blocking { kRb, kBr };

struct BlockIldltOptions {
  Blocking blocking = Blocking::kRb;
  // Dropping (S1 Alg. 2): entries below drop_tolerance relative to their
  // column's 2-norm of L go, then each block column keeps at most
  // fill_factor times A's entries in it (with a leftover pool). Finite and
  // >= 0 both; fill_factor = 0 sets no limit on the count.
  double drop_tolerance = 1e-3;
  double fill_factor = 4.0;
};

// The scalar options above by their proto field names
// (core/solver/option_field.h); blocking is an enumeration.
inline constexpr OptionField<BlockIldltOptions> kBlockIldltOptionFields[] = {
    {"drop_tolerance", &BlockIldltOptions::drop_tolerance},
    {"fill_factor", &BlockIldltOptions::fill_factor},
};

}  // namespace factord

#endif  // FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_OPTIONS_H_
