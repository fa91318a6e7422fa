// The options only jacobi_ldlt reads (S2 Alg. 2). FactorOptions
// (core/solver/options.h) holds them as a base. Validated in
// core/solver/validate_options.cc.
#ifndef FACTORD_JACOBI_LDLT_JACOBI_LDLT_OPTIONS_H_
#define FACTORD_JACOBI_LDLT_JACOBI_LDLT_OPTIONS_H_

#include "core/solver/option_field.h"

namespace factord {

struct JacobiLdltOptions {
  // Fixed-point sweeps (1..10000), with pivot threshold epsilon in [0, 1)
  // relaxed by a factor delta in (0, 1] after each sweep.
  int sweeps = 8;
  double epsilon = 0.1;
  double delta = 0.95;
};

// The options above by their proto field names (core/solver/option_field.h).
inline constexpr OptionField<JacobiLdltOptions> kJacobiLdltOptionFields[] = {
    {"sweeps", &JacobiLdltOptions::sweeps},
    {"epsilon", &JacobiLdltOptions::epsilon},
    {"delta", &JacobiLdltOptions::delta},
};

}  // namespace factord

#endif  // FACTORD_JACOBI_LDLT_JACOBI_LDLT_OPTIONS_H_
