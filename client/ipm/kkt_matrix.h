// Assembly of the regularized augmented system of a StandardForm:
//
//   K = [ -(Q + D + delta_p I)   A^T       ]   rows 0..N-1
//       [  A                     delta_d I ]   rows N..N+m-1
//
// as a symmetric lower CSR whose pattern (Q's lower triangle plus every
// diagonal, then A by rows plus the (2,2) diagonal) is fixed at construction;
// Fill() writes new values into the same positions, so after the first
// upload only values travel.
#ifndef FACTORD_CLIENT_IPM_KKT_MATRIX_H_
#define FACTORD_CLIENT_IPM_KKT_MATRIX_H_

#include <cstdint>
#include <vector>

#include "client/ipm/kkt_solver.h"
#include "client/ipm/standard_form.h"

namespace factord::ipm {

class KktMatrix {
 public:
  // Builds the pattern; `form` must outlive this object.
  explicit KktMatrix(const StandardForm& form);

  // Writes the values for the diagonal D (size N, D >= 0) and the
  // regularizations into matrix().values.
  void Fill(const std::vector<double>& d, double delta_p, double delta_d);

  const SymmetricLowerCsr& matrix() const { return k_; }
  int64_t num_primal() const { return num_vars_; }

 private:
  const StandardForm& form_;
  int num_vars_;
  SymmetricLowerCsr k_;
  std::vector<int64_t> q_pos_;        // per Q entry (CSC order)
  std::vector<int64_t> a_pos_;        // per A entry (CSC order)
  std::vector<int64_t> diag_pos_;     // per K row
  std::vector<bool> q_has_diagonal_;  // per primal row
};

}  // namespace factord::ipm

#endif  // FACTORD_CLIENT_IPM_KKT_MATRIX_H_
