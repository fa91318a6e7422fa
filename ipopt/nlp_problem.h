// A smooth nonlinear program in the form Ipopt takes it:
//
//   minimize    f(x)
//   subject to  g_lower <= g(x) <= g_upper
//               x_lower <=  x   <= x_upper
//
// with sparse first derivatives and the lower triangle of the Hessian of the
// Lagrangian sigma * f(x) + lambda^T g(x). The problems of this folder
// (nonconvex_chain, qp_nlp, poisson_control) implement it; ipopt_run.h hands
// one to Ipopt's C interface. Indices are 0-based; an infinite bound is
// +-infinity (ipopt_run.h maps it to Ipopt's +-2e19).
#ifndef FACTORD_IPOPT_NLP_PROBLEM_H_
#define FACTORD_IPOPT_NLP_PROBLEM_H_

#include <string>
#include <vector>

namespace factord::ipopt {

// Coordinates of the entries of a sparse matrix, one (row, col) per entry.
struct SparsePattern {
  std::vector<int> row;
  std::vector<int> col;

  int nnz() const { return static_cast<int>(row.size()); }
};

class NlpProblem {
 public:
  virtual ~NlpProblem() = default;

  virtual std::string name() const = 0;
  virtual int num_variables() const = 0;    // n
  virtual int num_constraints() const = 0;  // m

  // Sizes n (x_*) and m (g_*); the vectors are resized by the callee.
  virtual void Bounds(std::vector<double>* x_lower,
                      std::vector<double>* x_upper,
                      std::vector<double>* g_lower,
                      std::vector<double>* g_upper) const = 0;
  virtual std::vector<double> StartingPoint() const = 0;  // size n

  // x has n entries and is not modified; outputs have the sizes named.
  virtual double Objective(const double* x) const = 0;
  virtual void Gradient(const double* x, double* gradient) const = 0;  // n
  virtual void Constraints(const double* x, double* g) const = 0;      // m

  // The Jacobian of g (m x n): its pattern, and values in that order.
  virtual const SparsePattern& JacobianPattern() const = 0;
  virtual void JacobianValues(const double* x, double* values) const = 0;

  // The Hessian of sigma f + lambda^T g (lambda has m entries): its lower
  // triangle (row >= col), each position once, and values in that order.
  virtual const SparsePattern& HessianPattern() const = 0;
  virtual void HessianValues(const double* x, double sigma,
                             const double* lambda, double* values) const = 0;

  // The objective in the sense of the problem's source, given f at the
  // solution (a maximization is posed to Ipopt as minimizing -f).
  virtual double SourceObjective(double f) const { return f; }
};

}  // namespace factord::ipopt

#endif  // FACTORD_IPOPT_NLP_PROBLEM_H_
