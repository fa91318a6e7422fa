// The options only ldlt reads (core/ldlt/ldlt_method.cc). FactorOptions
// (core/solver/options.h) holds them as a base; the shared knobs (ordering,
// scaling, pivoting, pivot_threshold, shifts) are FactorOptions' own.
// Validated in core/solver/validate_options.cc.
#ifndef FACTORD_LDLT_LDLT_OPTIONS_H_
#define FACTORD_LDLT_LDLT_OPTIONS_H_

#include "core/solver/option_field.h"

namespace factord {

struct LdltOptions {
  // With Scaling::kMatching: the analysis orders the matching's 2x2
  // candidates (on the values given to Analyze) as consecutive pairs in one
  // front (S1 §II); false orders the plain pattern.
  bool impose_matching_pairs = true;
};

// The options above by their proto field names (core/solver/option_field.h).
inline constexpr OptionField<LdltOptions> kLdltOptionFields[] = {
    {"impose_matching_pairs", &LdltOptions::impose_matching_pairs},
};

}  // namespace factord

#endif  // FACTORD_LDLT_LDLT_OPTIONS_H_
