// Compressed sparse row matrix, the core's one sparse storage format.
//
// Symmetric matrices are stored as their lower triangle with the diagonal
// (Structure::kSymmetricLower / kSpdLower), as on the wire. Explicit zeros are
// entries of the pattern and are never dropped: an IPM's values do reach 0.
#ifndef FACTORD_MATRIX_CSR_H_
#define FACTORD_MATRIX_CSR_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"

namespace factord {

enum class Structure {
  kGeneral,         // all entries stored
  kSymmetricLower,  // symmetric (possibly indefinite), lower triangle stored
  kSpdLower,        // declared symmetric positive definite, lower stored
};

absl::string_view StructureName(Structure structure);
inline bool IsSymmetric(Structure s) { return s != Structure::kGeneral; }

struct CsrMatrix {
  int64_t rows = 0;
  int64_t cols = 0;
  Structure structure = Structure::kGeneral;
  std::vector<int64_t> row_ptr;  // size rows + 1, row_ptr[0] == 0
  std::vector<int32_t> col_idx;  // size nnz, sorted and unique within a row
  std::vector<double> values;    // size nnz

  int64_t nnz() const { return static_cast<int64_t>(col_idx.size()); }
  // Bytes held by the three arrays.
  int64_t bytes() const {
    return static_cast<int64_t>(row_ptr.size() * sizeof(int64_t) +
                                col_idx.size() * sizeof(int32_t) +
                                values.size() * sizeof(double));
  }
};

// The full matrix of a symmetric-lower one (both triangles, sorted rows); a
// general matrix is returned as is. The result has Structure::kGeneral.
CsrMatrix ExpandSymmetric(const CsrMatrix& lower);

// A 64-bit hash of (rows, cols, structure, row_ptr, col_idx): equal patterns
// share an analysis across matrix IDs.
uint64_t PatternHash(const CsrMatrix& a);

}  // namespace factord

#endif  // FACTORD_MATRIX_CSR_H_
