#include "hsl/factor_outcome.h"

#include <algorithm>

namespace factord::hsl {

FactorOutcome OutcomeOf(const factord_factor_report& report, int64_t n) {
  FactorOutcome outcome;
  const int64_t deficient =
      std::max<int64_t>(0, std::max(report.zero, report.perturbed_pivots));
  outcome.singular = deficient > 0 || report.status != FACTORD_FACTOR_OK ||
                     report.inertia_reliable == 0;
  outcome.negative = report.negative;
  outcome.rank = std::max<int64_t>(0, n - deficient);
  if (outcome.singular) outcome.rank = std::min(outcome.rank, n - 1);
  return outcome;
}

}  // namespace factord::hsl
