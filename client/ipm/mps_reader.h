// Readers for fixed MPS (linear programs) and QPS (MPS plus a QUADOBJ
// section, Maros-Meszaros convex QPs).
//
// Format handled (the whole fixed format, with a free-format fallback):
// - Sections NAME, OBJSENSE (MAX/MAXIMIZE/MIN/MINIMIZE, on the header line or
//   the next), ROWS, COLUMNS (with 'MARKER' 'INTORG'/'INTEND' lines), RHS,
//   RANGES, BOUNDS, QUADOBJ (lower triangle of Q; QMATRIX, the full matrix,
//   is accepted and its upper triangle ignored), ENDATA. Comment lines start
//   with '*'; CR LF line ends are accepted.
// - Data lines are read by the fixed columns (fields at 2-3, 5-12, 15-22,
//   25-36, 40-47, 50-61, 1-based) when the separating columns are blank, so
//   names may contain spaces (netlib forplan has them); otherwise the line is
//   split on whitespace (free MPS). Text past column 61 in a fixed line is
//   ignored (some Maros-Meszaros files end lines with '$').
// - The first N row is the objective; later N rows are dropped with their
//   entries. An RHS entry on the objective row r gives the constant -r.
// - Only the first RHS, RANGES and BOUNDS set is used; lines of other sets are
//   skipped (as most readers do).
// - RANGES R on row with rhs b: L -> [b-|R|, b], G -> [b, b+|R|],
//   E -> [b, b+R] when R > 0 and [b+R, b] when R < 0.
// - BOUNDS: UP, LO, FX, FR, MI, PL, BV (0/1), LI/UI (as LO/UP). Convention:
//   UP with a negative value on a column whose lower bound is still the
//   default 0 sets the lower bound to -infinity (CPLEX and COIN do so); a
//   bound of magnitude >= 1e30 is infinite. Integer columns are relaxed.
// Errors name the line: "line 123: unknown row 'R09' in COLUMNS". The reader
// takes any bytes without undefined behaviour (it is fuzzed).
#ifndef FACTORD_CLIENT_IPM_MPS_READER_H_
#define FACTORD_CLIENT_IPM_MPS_READER_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "client/ipm/qp_problem.h"

namespace factord::ipm {

// Parses MPS/QPS text held in `text` (not modified, not kept).
absl::StatusOr<QpProblem> ParseMps(absl::string_view text);

// Reads an MPS/QPS file, gzip-compressed or plain (zlib reads both).
// Errors: NotFound when the file cannot be opened, InvalidArgument for bad
// content, ResourceExhausted above 2 GiB of text.
absl::StatusOr<QpProblem> ReadMpsFile(const std::string& path);

}  // namespace factord::ipm

#endif  // FACTORD_CLIENT_IPM_MPS_READER_H_
