// Matrix Market files (https://math.nist.gov/MatrixMarket/formats.html):
// coordinate and array formats; real, integer and pattern fields; general,
// symmetric and skew-symmetric matrices; plain `.mtx` or gzip `.mtx.gz`.
//
// Reading produces a CsrMatrix with sorted rows and no duplicates:
//   - general      -> Structure::kGeneral, entries as given;
//   - symmetric    -> Structure::kSymmetricLower holding the lower triangle;
//                     an entry given above the diagonal is mirrored into the
//                     lower triangle (and collides with its mirror if both
//                     are given);
//   - skew-symmetric -> Structure::kGeneral with both triangles (a_ji =
//                     -a_ij); a diagonal entry is an error;
//   - pattern      -> values 1.0, MatrixMarketInfo::pattern_only() true;
//   - array        -> every entry stored, zeros included (a dense pattern).
// Explicit zeros of coordinate files are kept: they are part of the pattern.
//
// Every problem with the text is InvalidArgument whose message starts with
// the 1-based line: "line 12: column index 0 out of range 1..5". The parser
// accepts any bytes without crashing and never allocates more than a small
// multiple of the input size, whatever the header claims.
#ifndef FACTORD_MATRIX_MATRIX_MARKET_H_
#define FACTORD_MATRIX_MATRIX_MARKET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/matrix/csr.h"

namespace factord {

enum class MatrixMarketFormat { kCoordinate, kArray };
enum class MatrixMarketField { kReal, kInteger, kPattern };
enum class MatrixMarketSymmetry { kGeneral, kSymmetric, kSkewSymmetric };

// What the header and size line of a file said.
struct MatrixMarketInfo {
  MatrixMarketFormat format = MatrixMarketFormat::kCoordinate;
  MatrixMarketField field = MatrixMarketField::kReal;
  MatrixMarketSymmetry symmetry = MatrixMarketSymmetry::kGeneral;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t entries = 0;  // entries given in the file (one triangle if symmetric)

  // True when the file has no values (field `pattern`): the matrix read
  // holds 1.0 for every entry, good for ordering and blocking only.
  bool pattern_only() const { return field == MatrixMarketField::kPattern; }
};

// Caller limits, checked against the size line before anything is
// allocated. Exceeding one is InvalidArgument naming the size line.
struct MatrixMarketLimits {
  int64_t max_dimension = (int64_t{1} << 31) - 1;  // rows and cols
  int64_t max_entries = int64_t{1} << 40;
};

// Parses the text of a Matrix Market file. `info`, when not null, receives
// the header (also on some errors, as far as it was read). Does not keep
// references into `text`.
absl::StatusOr<CsrMatrix> ParseMatrixMarket(absl::string_view text);
absl::StatusOr<CsrMatrix> ParseMatrixMarket(absl::string_view text,
                                            MatrixMarketInfo* info,
                                            const MatrixMarketLimits& limits);

// Reads `path`, gzip-compressed or not (detected from the content). A file
// that cannot be opened is NotFound/PermissionDenied (from errno); corrupt
// gzip data is InvalidArgument naming the path.
absl::StatusOr<CsrMatrix> ReadMatrixMarket(const std::string& path);
absl::StatusOr<CsrMatrix> ReadMatrixMarket(const std::string& path,
                                           MatrixMarketInfo* info,
                                           const MatrixMarketLimits& limits);

// Writes `a` (validated first) as "coordinate real general", or
// "coordinate real symmetric" with the stored lower triangle for the
// symmetric structures; 1-based indices; values in the shortest decimal
// form that reads back bit-exactly. gzip-compressed when `path` ends in
// ".gz".
absl::Status WriteMatrixMarket(const CsrMatrix& a, const std::string& path);

// A dense vector: a Matrix Market n x 1 (or 1 x n) matrix, array or
// coordinate (missing entries are 0); an array size line with the single
// number n is read as n x 1, as some tools write it. Or, without a
// %%MatrixMarket header, one value per line (the `.rhs` files of the KKT
// collection); blank lines and lines starting with '%' or '#' are skipped.
absl::StatusOr<std::vector<double>> ReadDenseVector(const std::string& path);
absl::StatusOr<std::vector<double>> ParseDenseVector(absl::string_view text);

// The bytes of `path`, gunzipped when the content is gzip (at most
// `max_bytes` of output, else ResourceExhausted).
absl::StatusOr<std::string> ReadFileMaybeGzip(const std::string& path,
                                              int64_t max_bytes = int64_t{1}
                                                                  << 40);

}  // namespace factord

#endif  // FACTORD_MATRIX_MATRIX_MARKET_H_
