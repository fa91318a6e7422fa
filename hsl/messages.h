// The lines libhsl.so writes (docs/hsl.md, "Errors"): every error and
// every warning a caller should see goes to stderr as
//   factord hsl: ma57bd: error -15: LKEEP = 10 < 5N + NE + max(N, NE) + 42 = 99
// whatever the routine's print controls say (Ipopt silences MA57's and
// MA27's own printing); with FACTORD_HSL_VERBOSE=1 each call also prints
// one line on stdout.
#ifndef FACTORD_HSL_MESSAGES_H_
#define FACTORD_HSL_MESSAGES_H_

#include <exception>
#include <new>
#include <string>

#include "factord/factord.h"

namespace factord::hsl {

// Prints the error line and returns `code`.
int Refuse(const char* routine, int code, const std::string& text);
// Prints "factord hsl: ROUTINE: warning CODE: TEXT".
void Warn(const char* routine, int code, const std::string& text);
// Prints "factord hsl: ROUTINE: TEXT" on stdout (the verbose lines).
void Trace(const char* routine, const std::string& text);
// Where matrix `id` is held for the verbose lines: "in process" or
// "daemon ADDRESS" (factord_matrix_location).
std::string Location(factord_handle* connection, const std::string& id);

// The ldlt pivot threshold for the caller's u (MA57's CNTL(1), MA27's
// CNTL(1)): u itself inside factord's (0, 0.5]; 0.5 above it (as MA57
// does); 1e-10, ldlt's own weakest threshold, for u <= 0 or NaN (MA57's
// "no threshold test"). A clamped value is noted once per process.
double PivotThreshold(const char* routine, double u);

// Runs `body` (returning a code); a C++ exception, which must not cross
// the Fortran interface, becomes `failure_code` with its line on stderr.
template <typename Body>
int Guarded(int failure_code, const char* routine, Body body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Refuse(routine, failure_code, "out of memory");
  } catch (const std::exception& e) {
    return Refuse(routine, failure_code, e.what());
  } catch (...) {
    return Refuse(routine, failure_code, "unknown exception");
  }
}

}  // namespace factord::hsl

#endif  // FACTORD_HSL_MESSAGES_H_
