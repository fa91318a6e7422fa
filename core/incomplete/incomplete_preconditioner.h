// The ic / ilu preconditioner (S4): z = S P^T U^{-1} L^{-1} P S r for the
// incomplete factor L U of S P A P^T S (P the ordering, S the optional
// column-norm scaling), with the two triangular solves done exactly
// (level-scheduled substitution), by scalar Jacobi sweeps (S4 eqs. 2-3) or
// by block-Jacobi sweeps (S4 eqs. 4-5) on supervariable blocks amalgamated
// after RCM (S4 §2.3) whose diagonal blocks of L and of U are inverted once
// here by batched Gauss-Jordan (S3 §3.1).
//
// Sweeps: S4's count. The initial guess x_0 = D^{-1} b (S4 eq. 3; D_B^{-1} b
// for blocks) is "zero sweeps"; trisolve_sweeps more updates follow. The
// number is fixed, so M is a fixed linear operator and PCG applies (S4 §4).
#ifndef FACTORD_INCOMPLETE_INCOMPLETE_PRECONDITIONER_H_
#define FACTORD_INCOMPLETE_INCOMPLETE_PRECONDITIONER_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/block_jacobi/block_jacobi.h"
#include "core/incomplete/incomplete_symbolic.h"
#include "core/krylov/operator.h"
#include "core/solver/options.h"

namespace factord::internal {

struct IncompleteSolveOptions {
  TriangularSolve trisolve = TriangularSolve::kExact;
  int sweeps = 5;       // >= 0, for the Jacobi variants
  int block_size = 12;  // 1..32, max block size for kBlockJacobi (S4 §3.3)
};

class IncompletePreconditioner final : public Preconditioner {
 public:
  // `lu`: the factor's values on analysis->pattern(); `scale`: n entries in
  // the permuted order, or empty for no scaling. For kBlockJacobi the
  // supervariables of the analysis are amalgamated into blocks of at most
  // options.block_size and the diagonal blocks of both triangles inverted.
  // InvalidArgument on bad sizes or options.
  static absl::StatusOr<std::unique_ptr<IncompletePreconditioner>> Create(
      std::shared_ptr<const IncompleteAnalysis> analysis,
      std::vector<double> lu, std::vector<double> scale,
      const IncompleteSolveOptions& options, const ExecContext& ctx);

  int64_t size() const override { return analysis_->n(); }
  void Apply(const ExecContext& ctx, std::span<const double> r,
             std::span<double> z) const override;

  int64_t bytes() const;
  // Block-Jacobi solves: the number of blocks, and the diagonal blocks (of L
  // or U) Gauss-Jordan found singular (replaced by their diagonal's inverse).
  int64_t blocks() const { return blocking_.num_blocks(); }
  int64_t singular_blocks() const { return singular_blocks_; }

 private:
  IncompletePreconditioner() = default;
  // x = T^{-1} b approximately (or exactly); work has n entries.
  void SolveTriangle(const ExecContext& ctx, kernels::Triangle triangle,
                     std::span<const double> b, std::span<double> x,
                     std::span<double> work) const;
  kernels::BlockLayout Layout() const;

  std::shared_ptr<const IncompleteAnalysis> analysis_;
  std::vector<double> lu_;
  std::vector<double> scale_;
  IncompleteSolveOptions options_;
  BlockJacobiBlocking blocking_;       // kBlockJacobi only
  std::vector<double> lower_inverse_;  // blocking_.value_ptr.back() entries
  std::vector<double> upper_inverse_;
  int64_t singular_blocks_ = 0;
};

}  // namespace factord::internal

#endif  // FACTORD_INCOMPLETE_INCOMPLETE_PRECONDITIONER_H_
