// A small nonconvex NLP on which Ipopt must correct the inertia: a chain of
// n double wells, tilted so that the wells are not symmetric, with a linear
// and a nonlinear constraint.
//
//   minimize    sum_i (x_i^2 - 1)^2 + sum_i t_i x_i,     t_i = 0.05 (i + 1)
//   subject to  sum_i x_i = 1
//               sum_{i<n-1} (x_i - x_{i+1})^2 <= 6
//               -2 <= x_i <= 2
//
// Near the start (x_i between 0.1 and 0.24) the Hessian of f is
// diag(12 x_i^2 - 4), about -3.5 I, and the two constraints leave an
// (n-2)-dimensional null space on which the Hessian of the Lagrangian is
// negative definite. The barrier terms of the bounds add only about 1 to the
// diagonal, so the KKT matrix has too many negative eigenvalues and Ipopt
// adds delta_w I (the lg(rg) column of its log) until the inertia is right.
// The iterates then fall into wells (x_i near -1 or +1) and Ipopt converges
// to a local minimum. n >= 3.
#ifndef FACTORD_IPOPT_NONCONVEX_CHAIN_H_
#define FACTORD_IPOPT_NONCONVEX_CHAIN_H_

#include <string>
#include <vector>

#include "ipopt/nlp_problem.h"

namespace factord::ipopt {

class NonconvexChain : public NlpProblem {
 public:
  explicit NonconvexChain(int n = 8);

  std::string name() const override { return "nonconvex_chain"; }
  int num_variables() const override { return n_; }
  int num_constraints() const override { return 2; }
  void Bounds(std::vector<double>* x_lower, std::vector<double>* x_upper,
              std::vector<double>* g_lower,
              std::vector<double>* g_upper) const override;
  std::vector<double> StartingPoint() const override;
  double Objective(const double* x) const override;
  void Gradient(const double* x, double* gradient) const override;
  void Constraints(const double* x, double* g) const override;
  const SparsePattern& JacobianPattern() const override { return jacobian_; }
  void JacobianValues(const double* x, double* values) const override;
  const SparsePattern& HessianPattern() const override { return hessian_; }
  void HessianValues(const double* x, double sigma, const double* lambda,
                     double* values) const override;

 private:
  double Tilt(int i) const { return 0.05 * (i + 1); }

  int n_;
  SparsePattern jacobian_;  // row 0: all n columns; row 1: all n columns
  SparsePattern hessian_;   // the diagonal, then the subdiagonal
};

}  // namespace factord::ipopt

#endif  // FACTORD_IPOPT_NONCONVEX_CHAIN_H_
