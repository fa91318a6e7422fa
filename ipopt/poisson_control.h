// A scalable NLP: distributed control of the Poisson equation on the unit
// square with bounds on the control, discretised by five-point finite
// differences on an N x N grid of interior points (h = 1/(N+1), zero
// Dirichlet boundary):
//
//   minimize    h^2/2 sum_k (y_k - yd_k)^2 + alpha h^2/2 sum_k u_k^2
//   subject to  4 y_k - (sum of y at k's grid neighbours) - h^2 u_k = 0
//               u_min <= u_k <= u_max
//
// with yd(s, t) = sin(2 pi s) sin(pi t), alpha = 1e-5 and the control
// bounds [-30, 30]: without the bounds the optimal control is close to
// -Laplace(yd) = 5 pi^2 yd (max |u| 48 on a 60 x 60 grid) and lies beyond
// them on about a quarter of the square, so the bounds are active there.
// The constraint is -Laplace(y) = u multiplied by h^2 (rows of O(1)).
// Variables: y (N^2, row-major grid order), then u (N^2). Ipopt's KKT
// system has n + m = 3 N^2 rows (N = 200: 120,000); it is convex, so no
// inertia correction is expected.
#ifndef FACTORD_IPOPT_POISSON_CONTROL_H_
#define FACTORD_IPOPT_POISSON_CONTROL_H_

#include <string>
#include <vector>

#include "ipopt/nlp_problem.h"

namespace factord::ipopt {

class PoissonControl : public NlpProblem {
 public:
  explicit PoissonControl(int grid);  // grid = N >= 1

  std::string name() const override;
  int num_variables() const override { return 2 * cells(); }
  int num_constraints() const override { return cells(); }
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

  static constexpr double kAlpha = 1e-5;
  static constexpr double kControlBound = 30.0;

 private:
  int cells() const { return grid_ * grid_; }

  int grid_;
  double h_;
  std::vector<double> target_;           // yd at the N^2 grid points
  SparsePattern jacobian_;               // per row k: y_k, its neighbours, u_k
  std::vector<double> jacobian_values_;  // constant
  SparsePattern hessian_;                // the diagonal
};

}  // namespace factord::ipopt

#endif  // FACTORD_IPOPT_POISSON_CONTROL_H_
