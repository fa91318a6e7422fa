// libFuzzer target: the MPS/QPS reader of factord-ipm
// (client/ipm/mps_reader.h). Any bytes must give an error status or a
// problem; crashes and sanitizer reports are findings.
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "client/ipm/mps_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<factord::ipm::QpProblem> problem =
      factord::ipm::ParseMps(text);
  (void)problem;
  return 0;
}
