// Applying the ic / ilu factor with exact, Jacobi or block-Jacobi triangular
// solves (S4 §2.1); see the header.
#include "core/incomplete/incomplete_preconditioner.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/block/supervariables.h"
#include "core/block_jacobi/block_jacobi_dispatch.h"
#include "core/incomplete/incomplete_trisolve.h"

namespace factord::internal {

absl::StatusOr<std::unique_ptr<IncompletePreconditioner>>
IncompletePreconditioner::Create(
    std::shared_ptr<const IncompleteAnalysis> analysis, std::vector<double> lu,
    std::vector<double> scale, const IncompleteSolveOptions& options,
    const ExecContext& ctx) {
  if (analysis == nullptr || lu.size() != analysis->pattern().col_idx.size() ||
      (!scale.empty() && static_cast<int64_t>(scale.size()) != analysis->n())) {
    return absl::InvalidArgumentError(
        "incomplete factor values do not match the analysis");
  }
  if (options.trisolve != TriangularSolve::kExact && options.sweeps < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("trisolve_sweeps = ", options.sweeps, " is negative"));
  }
  std::unique_ptr<IncompletePreconditioner> m(new IncompletePreconditioner);
  m->analysis_ = std::move(analysis);
  m->lu_ = std::move(lu);
  m->scale_ = std::move(scale);
  m->options_ = options;
  if (options.trisolve != TriangularSolve::kBlockJacobi) return m;

  // S4 §2.3: supervariables of the RCM-ordered matrix (from the analysis)
  // merged into consecutive blocks; the blocking of A is imposed on L and U.
  if (options.block_size < 1 || options.block_size > 32) {
    return absl::InvalidArgumentError(absl::StrCat(
        "block size ", options.block_size, " for block-Jacobi triangular ",
        "solves is outside 1..32"));
  }
  const int64_t n = m->analysis_->n();
  std::vector<int64_t> block_ptr =
      AmalgamateSupervariables(m->analysis_->sv_ptr(), options.block_size);
  if (block_ptr.size() < 2) block_ptr.assign(1, 0);  // n == 0
  std::vector<int32_t> identity(n);
  std::iota(identity.begin(), identity.end(), 0);
  absl::StatusOr<BlockJacobiBlocking> blocking =
      MakeBlockJacobiBlocking(std::move(identity), std::move(block_ptr));
  if (!blocking.ok()) return blocking.status();
  m->blocking_ = *std::move(blocking);
  const kernels::BlockLayout layout = m->Layout();
  const TriangularFactor t = m->analysis_->pattern().View(m->lu_);
  const int64_t values = m->blocking_.value_ptr.back();
  std::vector<double> dense(values);
  std::vector<uint8_t> status(m->blocking_.num_blocks());
  for (Triangle triangle : {Triangle::kLower, Triangle::kUpper}) {
    std::vector<double>& inverse =
        triangle == Triangle::kLower ? m->lower_inverse_ : m->upper_inverse_;
    inverse.resize(values);
    ExtractTriangularBlocks(ctx, t, triangle, layout, dense);  // S4 eq. 5
    linalg::InvertDiagonalBlocks(ctx, layout, dense, inverse,
                                 status);  // S3 §3.1
    m->singular_blocks_ += static_cast<int64_t>(
        std::count_if(status.begin(), status.end(),
                      [](uint8_t s) { return s != kernels::kBlockOk; }));
  }
  if (absl::Status s = ctx.CheckDevice(); !s.ok()) return s;
  return m;
}

kernels::BlockLayout IncompletePreconditioner::Layout() const {
  return kernels::BlockLayout{blocking_.block_ptr, blocking_.block_rows,
                              blocking_.block_of_row, blocking_.local_index,
                              blocking_.value_ptr};
}

int64_t IncompletePreconditioner::bytes() const {
  return static_cast<int64_t>((lu_.size() + scale_.size() +
                               lower_inverse_.size() + upper_inverse_.size()) *
                              sizeof(double)) +
         blocking_.bytes();
}

void IncompletePreconditioner::SolveTriangle(const ExecContext& ctx,
                                             Triangle triangle,
                                             std::span<const double> b,
                                             std::span<double> x,
                                             std::span<double> work) const {
  const IncompletePattern& pattern = analysis_->pattern();
  const TriangularFactor t = pattern.View(lu_);
  if (options_.trisolve == TriangularSolve::kExact) {
    Substitute(ctx, t, triangle,
               triangle == Triangle::kLower ? analysis_->lower_levels().view()
                                            : analysis_->upper_levels().view(),
               b, x);
    return;
  }
  const bool block = options_.trisolve == TriangularSolve::kBlockJacobi;
  const kernels::BlockLayout layout = block ? Layout() : kernels::BlockLayout{};
  const std::vector<double>& inverse =
      triangle == Triangle::kLower ? lower_inverse_ : upper_inverse_;
  // S4 eq. 3: x_0 = D^{-1} b (D = I for the unit L), or D_B^{-1} b.
  if (block) {
    linalg::ApplyBlockDiagonal(ctx, layout, inverse, b, x);
  } else if (triangle == Triangle::kLower) {
    std::copy(b.begin(), b.end(), x.begin());
  } else {
    for (int64_t i = 0; i < t.n(); ++i) x[i] = b[i] / lu_[pattern.diag[i]];
  }
  // S4 eq. 2 (eqs. 4-5 for blocks), a fixed number of sweeps.
  std::span<double> current = x, next = work;
  for (int s = 0; s < options_.sweeps; ++s) {
    if (block) {
      BlockJacobiSweep(ctx, t, triangle, layout, inverse, b, current, next);
    } else {
      JacobiSweep(ctx, t, triangle, b, current, next);
    }
    std::swap(current, next);
  }
  if (current.data() != x.data()) {
    std::copy(current.begin(), current.end(), x.begin());
  }
}

void IncompletePreconditioner::Apply(const ExecContext& ctx,
                                     std::span<const double> r,
                                     std::span<double> z) const {
  const int64_t n = analysis_->n();
  const std::vector<int32_t>& perm = analysis_->perm();
  std::vector<double> rp(n), y(n), zp(n), work(n);
  for (int64_t k = 0; k < n; ++k) {
    rp[k] = r[perm[k]] * (scale_.empty() ? 1.0 : scale_[k]);
  }
  SolveTriangle(ctx, Triangle::kLower, rp, y, work);  // L y = P S r
  SolveTriangle(ctx, Triangle::kUpper, y, zp, work);  // U z' = y
  for (int64_t k = 0; k < n; ++k) {
    z[perm[k]] = zp[k] * (scale_.empty() ? 1.0 : scale_[k]);
  }
}

}  // namespace factord::internal
