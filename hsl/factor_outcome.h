// What MA57 and MA27 report after a factorization, from factord's report
// (docs/hsl.md, "Singular matrices and unreliable inertia"), and the error
// codes libhsl returns.
//
// MA57/MA27 signal a rank-deficient matrix (MA57BD INFO(1) = 4, MA27BD
// IFLAG = 3) and count its negative eigenvalues; Ipopt answers both with a
// perturbation of the KKT matrix. factord's ldlt perturbs a zero pivot and
// reports it (zero pivots, perturbed pivots, status PERTURBED) and says
// when its inertia is not to be trusted (inertia_reliable = 0, e.g. after
// pivot growth). Every one of these becomes "singular": a caller that
// perturbs on singularity (Ipopt) then acts on an unreliable inertia
// instead of trusting it.
#ifndef FACTORD_HSL_FACTOR_OUTCOME_H_
#define FACTORD_HSL_FACTOR_OUTCOME_H_

#include <cstdint>

#include "factord/factord.h"

namespace factord::hsl {

// MA57's INFO(1) values that libhsl returns (HSL's MA57 documentation).
enum Ma57Code {
  kMa57Ok = 0,
  kMa57OutOfRange = 1,  // warning: entries outside 1..N ignored (INFO(3))
  kMa57Duplicates = 2,  // warning: duplicates summed (INFO(4))
  kMa57OutOfRangeAndDuplicates = 3,
  kMa57Singular = 4,  // warning: rank deficient, INFO(25) the rank
  kMa57BadN = -1,
  kMa57BadNe = -2,
  kMa57IfactTooSmall = -4,     // below the fixed size INFO(10) of ma57ad_
  kMa57NewArrayTooSmall = -7,  // ma57ed_
  kMa57BadIcntl7 = -10,
  kMa57BadLrhs = -11,
  kMa57BadJob = -12,
  kMa57KeepTooSmall = -15,
  kMa57BadNrhs = -16,
  kMa57WorkTooSmall = -17,
  // Not a numerical outcome: factord failed (daemon unreachable or
  // refusing, out of memory) or the factorization the call names is no
  // longer held. MA57 uses -14 for the failure of a subsidiary routine
  // (MC71A); every caller treats it as fatal.
  kMa57FactordFailure = -14,
};

// MA27's IFLAG (INFO(1)) values that libhsl returns.
enum Ma27Code {
  kMa27Ok = 0,
  kMa27OutOfRange = 1,  // warning (ma27ad_): entries ignored, INFO(2) counts
  kMa27Singular = 3,    // warning (ma27bd_): rank deficient, INFO(2) = rank
  kMa27BadN = -1,
  kMa27BadNz = -2,
  kMa27IwTooSmall = -3,  // below the fixed size INFO(6) of ma27ad_
  kMa27ATooSmall = -4,   // LA < NZ
  // Not an MA27 code: factord failed (see kMa57FactordFailure).
  kMa27FactordFailure = -14,
};

struct FactorOutcome {
  bool singular = false;  // report as rank deficient (MA57 4, MA27 3)
  int64_t negative = 0;   // negative eigenvalues (zero pivots not included)
  int64_t rank = 0;       // n when not singular, else at most n - 1
};

// The outcome of factord's `report` for a matrix of order n: singular
// when a pivot was zero or perturbed, the status is not OK, or the
// inertia is not reliable; rank n minus the zero (or perturbed) pivots,
// at most n - 1 when singular.
FactorOutcome OutcomeOf(const factord_factor_report& report, int64_t n);

}  // namespace factord::hsl

#endif  // FACTORD_HSL_FACTOR_OUTCOME_H_
