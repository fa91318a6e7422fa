#include "core/order/ordering.h"

#include <numeric>

#include "core/order/amd.h"
#include "core/order/gmc.h"
#include "core/order/metis.h"
#include "core/order/rcm.h"

namespace factord {

absl::StatusOr<std::vector<int32_t>> ComputeOrdering(const CsrMatrix& a,
                                                     Ordering ordering) {
  switch (ordering) {
    case Ordering::kNatural: {
      std::vector<int32_t> perm(a.rows);
      std::iota(perm.begin(), perm.end(), 0);
      return perm;
    }
    case Ordering::kMetis:
      return MetisOrdering(a);
    case Ordering::kRcm:
      return ReverseCuthillMcKee(a);
    case Ordering::kGmc:
      return GmcOrdering(a);
    case Ordering::kAuto:
    case Ordering::kAmd:
      return AmdOrdering(a);
  }
  return AmdOrdering(a);
}

}  // namespace factord
