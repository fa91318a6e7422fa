// From the caller's layout of a matrix (factord_matrix: CSR or COO, 0- or
// 1-based, one triangle of a symmetric matrix or every entry of a general
// one) to the wire's (0-based CSR, sorted rows without duplicates, lower
// triangle for symmetric structures), keeping where each of the caller's
// entries went so that later values can be given in the caller's order.
// Invalid input is found here, whole, before anything is sent.
#ifndef FACTORD_CAPI_MATRIX_LAYOUT_H_
#define FACTORD_CAPI_MATRIX_LAYOUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "capi/last_error.h"
#include "factord/factord.h"

namespace factord::capi {

struct MatrixLayout {
  int64_t n = 0;
  factord_structure structure = FACTORD_GENERAL;
  // general | symmetric_lower | spd_lower (the client's CsrArrays names).
  std::string wire_structure;
  std::vector<int64_t> row_ptr;  // n + 1, 0-based
  std::vector<int32_t> col_idx;  // stored entries, sorted within each row
  // position[k]: the stored entry of the caller's entry k (caller_nnz()
  // entries). A bijection unless duplicates were summed.
  std::vector<int64_t> position;
  bool sum_duplicates = false;

  int64_t caller_nnz() const { return static_cast<int64_t>(position.size()); }
  int64_t stored_nnz() const { return static_cast<int64_t>(col_idx.size()); }

  // The stored values from the caller's (caller_nnz() entries, or nullptr
  // for zeros) into `stored` (resized to stored_nnz()); summed duplicates
  // add up.
  void ToStored(const double* caller, std::vector<double>* stored) const;
};

// Checks `matrix` and builds its layout into `layout`. On invalid input,
// fills `failure` (INVALID_ARGUMENT with reason INVALID_REQUEST or
// INVALID_MATRIX and a message naming the first offending entry, in the
// caller's base) and returns false. `sum_duplicates`: duplicates are
// merged instead of refused.
bool BuildLayout(const factord_matrix& matrix, bool sum_duplicates,
                 MatrixLayout* layout, Failure* failure);

}  // namespace factord::capi

#endif  // FACTORD_CAPI_MATRIX_LAYOUT_H_
