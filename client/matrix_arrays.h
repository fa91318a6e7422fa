// A factord::CsrMatrix (factord_matrix_io: what the Matrix Market reader
// returns) as the client's CsrArrays, for the programs that upload files.
// Header-only so that factord_client itself does not depend on the reader.
#ifndef FACTORD_CLIENT_MATRIX_ARRAYS_H_
#define FACTORD_CLIENT_MATRIX_ARRAYS_H_

#include <string>

#include "client/factord_client.h"
#include "core/matrix/csr.h"

namespace factord::client {

// The wire name of a CSR structure ("general", "symmetric_lower",
// "spd_lower"): the core's StructureName (factord_matrix_io).
inline std::string StructureWireName(Structure structure) {
  return std::string(StructureName(structure));
}

// Arrays borrowed from `a` (square: n = a.rows), valid while `a` lives and
// is not modified.
inline CsrArrays ArraysOf(const CsrMatrix& a) {
  return CsrArrays{.n = a.rows,
                   .structure = StructureWireName(a.structure),
                   .row_ptr = a.row_ptr,
                   .col_idx = a.col_idx,
                   .values = a.values};
}

}  // namespace factord::client

#endif  // FACTORD_CLIENT_MATRIX_ARRAYS_H_
