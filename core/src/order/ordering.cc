#include "factord/order/ordering.h"

#include <numeric>

#include "factord/order/amd.h"
#include "factord/order/gmc.h"
#include "factord/order/metis.h"
#include "factord/order/rcm.h"

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
