#include "hsl/token.h"

namespace factord::hsl {
namespace {

constexpr uint64_t kLow31 = 0x7fff'ffff;

int32_t Check(const int* a) {
  // Any mix of the other fields that a zeroed or random array is unlikely
  // to satisfy along with the marker.
  uint32_t h = 0x9e37'79b9u;
  for (int k = 0; k < 5; ++k) {
    h = (h ^ static_cast<uint32_t>(a[k])) * 0x0100'0193u;
  }
  return static_cast<int32_t>(h & kLow31);
}

}  // namespace

void WriteAnalysisTag(int32_t marker, uint64_t serial, int* tag) {
  tag[0] = marker;
  tag[1] = static_cast<int>(serial & kLow31);
  tag[2] = static_cast<int>((serial >> 31) & kLow31);
}

uint64_t ReadAnalysisTag(int32_t marker, const int* tag) {
  if (tag[0] != marker || tag[1] < 0 || tag[2] < 0) return 0;
  return static_cast<uint64_t>(tag[1]) | static_cast<uint64_t>(tag[2]) << 31;
}

void WriteFactorToken(int32_t marker, const FactorToken& token, int* array) {
  WriteAnalysisTag(marker, token.serial, array);
  array[3] = token.factor_number;
  array[4] = token.n;
  array[5] = Check(array);
  array[6] = 0;
  array[7] = 0;
}

bool ReadFactorToken(int32_t marker, const int* array, FactorToken* token) {
  const uint64_t serial = ReadAnalysisTag(marker, array);
  if (serial == 0 || array[5] != Check(array)) return false;
  token->serial = serial;
  token->factor_number = array[3];
  token->n = array[4];
  return true;
}

}  // namespace factord::hsl
