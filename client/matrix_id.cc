// Matrix IDs: the client names every matrix it uploads (the server makes
// none), a random RFC 4122 version-4 UUID when its caller gives no name.
#include <cstdint>
#include <string>

#include "absl/random/random.h"
#include "absl/strings/str_format.h"
#include "client/factord_client.h"

namespace factord::client {

std::string NewMatrixId() {
  // RFC 4122 §4.4: 122 random bits, version 4, variant 10.
  thread_local absl::BitGen gen;
  uint64_t hi = absl::Uniform<uint64_t>(gen);
  uint64_t lo = absl::Uniform<uint64_t>(gen);
  hi = (hi & ~uint64_t{0xF000}) | uint64_t{0x4000};
  lo = (lo & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);
  return absl::StrFormat("%08x-%04x-%04x-%04x-%012x", hi >> 32,
                         (hi >> 16) & 0xFFFF, hi & 0xFFFF, lo >> 48,
                         lo & 0xFFFFFFFFFFFFull);
}

}  // namespace factord::client
