// A QP read from an MPS/QPS file (client/ipm's reader) posed to Ipopt as an
// NLP:
//
//   minimize    1/2 x^T Q x + c^T x + constant      (negated for OBJSENSE MAX)
//   subject to  row_lower <= A x <= row_upper
//               col_lower <=  x  <= col_upper
//
// The Jacobian is A and the Hessian of the Lagrangian sigma Q (the
// constraints are linear), both with their stored patterns; nothing tells
// Ipopt that they are constant, so it treats the QP as any NLP.
#ifndef FACTORD_IPOPT_QP_NLP_H_
#define FACTORD_IPOPT_QP_NLP_H_

#include <string>
#include <vector>

#include "client/ipm/qp_problem.h"
#include "ipopt/nlp_problem.h"

namespace factord::ipopt {

class QpNlp : public NlpProblem {
 public:
  // `name` is what the JSON line reports (the file's stem).
  QpNlp(ipm::QpProblem qp, std::string name);

  std::string name() const override { return name_; }
  int num_variables() const override { return qp_.num_cols(); }
  int num_constraints() const override { return qp_.num_rows(); }
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
  double SourceObjective(double f) const override {
    return qp_.maximize ? -f : f;
  }

 private:
  double sign() const { return qp_.maximize ? -1.0 : 1.0; }

  ipm::QpProblem qp_;
  std::string name_;
  SparsePattern jacobian_;  // A's entries column by column
  SparsePattern hessian_;   // Q's lower triangle column by column
};

}  // namespace factord::ipopt

#endif  // FACTORD_IPOPT_QP_NLP_H_
