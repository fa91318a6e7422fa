// What every Krylov method of factord works on: a linear operator A, a
// preconditioner M^{-1}, options and a result.
//
// The methods (cg.h, gmres.h, sqmr.h, idr.h, bicgstab.h) share one contract:
// - stop when ||b - A x||_2 / ||b||_2 <= tolerance, decided on the TRUE
//   residual b - A x recomputed from the operator (a Krylov method's
//   recursive or quasi residual only decides when to check it; when the two
//   disagree the method restarts from the current x);
// - at most max_iterations iterations (an iteration is one product with A);
// - a breakdown (a zero or wrong-signed inner product) is reported as
//   SolveStatus::kBreakdown with the last finite iterate in x: never a hang,
//   never NaNs in x;
// - ctx.CheckCancelled() is called every iteration and its error status
//   (CANCELLED / DEADLINE_EXCEEDED) is returned as is;
// - a size mismatch is InvalidArgument.
#ifndef FACTORD_KRYLOV_OPERATOR_H_
#define FACTORD_KRYLOV_OPERATOR_H_

#include <cstdint>
#include <span>
#include <string>

#include "core/base/exec_context.h"
#include "core/matrix/csr.h"
#include "core/solver/report.h"

namespace factord {

// y = A x for a square operator of order size().
class LinearOperator {
 public:
  virtual ~LinearOperator() = default;
  virtual int64_t size() const = 0;
  // x and y have size() entries and must not overlap.
  virtual void Apply(const ExecContext& ctx, std::span<const double> x,
                     std::span<double> y) const = 0;
};

// z = M^{-1} r for a preconditioner of order size().
class Preconditioner {
 public:
  virtual ~Preconditioner() = default;
  virtual int64_t size() const = 0;
  // r and z have size() entries and must not overlap.
  virtual void Apply(const ExecContext& ctx, std::span<const double> r,
                     std::span<double> z) const = 0;
};

// M = I.
class IdentityPreconditioner final : public Preconditioner {
 public:
  explicit IdentityPreconditioner(int64_t size) : size_(size) {}
  int64_t size() const override { return size_; }
  void Apply(const ExecContext& ctx, std::span<const double> r,
             std::span<double> z) const override;

 private:
  int64_t size_;
};

// A general (expanded) CSR matrix as an operator, through the backend's
// SpMV kernel. Does not own the matrix, which must outlive the operator.
class CsrOperator final : public LinearOperator {
 public:
  // `a` is square and Structure::kGeneral (expand symmetric-lower first).
  explicit CsrOperator(const CsrMatrix& a) : a_(a) {}
  int64_t size() const override { return a_.rows; }
  void Apply(const ExecContext& ctx, std::span<const double> x,
             std::span<double> y) const override;

 private:
  const CsrMatrix& a_;
};

struct KrylovOptions {
  double tolerance = 1e-8;  // on ||b - A x||_2 / ||b||_2
  int max_iterations = 1000;
  int restart = 50;  // GMRES(m)
  int idr_s = 4;     // IDR(s): dimension of the shadow space
};

struct KrylovResult {
  SolveStatus status = SolveStatus::kNotConverged;
  int iterations = 0;
  // The true ||b - A x||_2 / ||b||_2 of the returned x, on the operator
  // (||b - A x||_2 when b = 0).
  double relative_residual = 0;
  int restarts = 0;     // times the method restarted from the true residual
  std::string message;  // why it stopped, e.g. the breakdown quantity
};

}  // namespace factord

#endif  // FACTORD_KRYLOV_OPERATOR_H_
