// IDR(s) with biorthogonalization (van Gijzen & Sonneveld, ACM TOMS 38(1)
// 2011, Alg. 913 'idrs'), right preconditioned, s = options.idr_s; the
// method S3 §4.5 uses with block-Jacobi. The shadow space P is s random
// orthonormalized vectors from a fixed seed (deterministic). omega uses
// the 'maintaining the convergence' choice with kappa = 0.7.
// Breakdown: a zero diagonal of M = P'G or omega = 0.
#ifndef FACTORD_KRYLOV_IDR_H_
#define FACTORD_KRYLOV_IDR_H_

#include <span>

#include "absl/status/statusor.h"
#include "core/base/exec_context.h"
#include "core/krylov/operator.h"

namespace factord {

// Solves A x = b with preconditioner m under the contract of operator.h.
// b and x have a.size() entries; x holds the initial guess on entry and the
// last finite iterate on return. Returns CANCELLED / DEADLINE_EXCEEDED from
// ctx and INVALID_ARGUMENT for mismatched sizes; numerical outcomes are in
// the KrylovResult.
absl::StatusOr<KrylovResult> SolveIdr(
    const LinearOperator& a, const Preconditioner& m, std::span<const double> b,
    std::span<double> x, const KrylovOptions& options, const ExecContext& ctx);

}  // namespace factord

#endif  // FACTORD_KRYLOV_IDR_H_
