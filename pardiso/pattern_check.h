// The input checks of libpardiso (docs/pardiso.md, "Errors"): matrix
// types, and the 1-based CSR arrays of phase 11 and pardiso_chkmatrix.
#ifndef FACTORD_PARDISO_PATTERN_CHECK_H_
#define FACTORD_PARDISO_PATTERN_CHECK_H_

#include <string>

namespace factord::pardiso {

// PARDISO's error codes (pardiso-project manual, "error").
enum PardisoError {
  kNoError = 0,
  kInputInconsistent = -1,
  kNotEnoughMemory = -2,
  kReorderingProblem = -3,
  kZeroPivot = -4,
  kUnclassified = -5,
};

// -2 (symmetric indefinite), 2 (SPD), 1 (structurally symmetric), 11
// (unsymmetric): the real types factord serves.
bool SupportedMatrixType(int mtype);
inline bool SymmetricType(int mtype) { return mtype == -2 || mtype == 2; }

// Checks n and the 1-based CSR pattern ia (n + 1 entries, ia[0] == 1,
// non-decreasing) / ja (ia[n] - 1 column indices in 1..n, no duplicate in
// a row, and for symmetric types only the upper triangle: ja >= row).
// Columns need not be sorted. Returns "" when valid, else a one-line
// message naming the first offending row or entry (1-based).
std::string CheckPattern(int mtype, int n, const int* ia, const int* ja);

}  // namespace factord::pardiso

#endif  // FACTORD_PARDISO_PATTERN_CHECK_H_
