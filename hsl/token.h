// The small records libhsl.so writes into the caller's integer arrays so
// that a later call finds its state (docs/hsl.md, "Arrays"):
//   - an analysis tag (3 integers) in MA57's KEEP and MA27's IKEEP: a
//     marker and the serial of the session (registry.h);
//   - a factorization token (kFactorTokenSize integers) in MA57's IFACT and
//     MA27's IW: marker, serial, the factorization's number and N, and a
//     check value, so that a solve refuses an array that holds no current
//     factorization instead of solving with another one.
// Copying the array (MA57ED) copies the record with it.
#ifndef FACTORD_HSL_TOKEN_H_
#define FACTORD_HSL_TOKEN_H_

#include <cstdint>

namespace factord::hsl {

inline constexpr int kAnalysisTagSize = 3;
inline constexpr int kFactorTokenSize = 8;

// Markers, one per array kind ("fd" and two characters).
inline constexpr int32_t kMa57KeepMarker = 0x6664'4b35;   // "fdK5"
inline constexpr int32_t kMa57IfactMarker = 0x6664'4635;  // "fdF5"
inline constexpr int32_t kMa27IkeepMarker = 0x6664'4b32;  // "fdK2"
inline constexpr int32_t kMa27IwMarker = 0x6664'5732;     // "fdW2"

// tag[0..2] = marker, serial (two 31-bit halves).
void WriteAnalysisTag(int32_t marker, uint64_t serial, int* tag);
// The serial of a tag with this marker; 0 (no session) when the marker
// does not match.
uint64_t ReadAnalysisTag(int32_t marker, const int* tag);

struct FactorToken {
  uint64_t serial = 0;
  int32_t factor_number = 0;
  int32_t n = 0;
};

void WriteFactorToken(int32_t marker, const FactorToken& token, int* array);
// False when array[0..kFactorTokenSize) is not a token with this marker.
bool ReadFactorToken(int32_t marker, const int* array, FactorToken* token);

}  // namespace factord::hsl

#endif  // FACTORD_HSL_TOKEN_H_
