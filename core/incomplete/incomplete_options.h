// The options only ic and ilu read (S4): their triangular solves.
// FactorOptions (core/solver/options.h) holds them as a base; fill_level is
// shared with block_ildlt and is FactorOptions' own. Validated in
// core/solver/validate_options.cc.
#ifndef FACTORD_INCOMPLETE_INCOMPLETE_OPTIONS_H_
#define FACTORD_INCOMPLETE_INCOMPLETE_OPTIONS_H_

#include "core/solver/option_field.h"

namespace factord {

enum class TriangularSolve { kExact, kJacobi, kBlockJacobi };

struct IncompleteOptions {
  TriangularSolve trisolve = TriangularSolve::kExact;
  // Sweeps (>= 0) after the initial guess x_0 = D^{-1} b (S4 eq. 3 is
  // "0 sweeps") of the Jacobi and block-Jacobi triangular solves.
  int trisolve_sweeps = 5;
  // Largest block of the block-Jacobi triangular solves (S4 §3.3: m = 12);
  // the server sets it from the request's max_block_size when given.
  int trisolve_block_size = 12;
};

// The scalar options above that travel on the wire, by their proto field
// names (core/solver/option_field.h); trisolve is an enumeration, and
// trisolve_block_size is set by the server from max_block_size.
inline constexpr OptionField<IncompleteOptions> kIncompleteOptionFields[] = {
    {"trisolve_sweeps", &IncompleteOptions::trisolve_sweeps},
};

}  // namespace factord

#endif  // FACTORD_INCOMPLETE_INCOMPLETE_OPTIONS_H_
