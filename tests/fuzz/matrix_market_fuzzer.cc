// libFuzzer target: the Matrix Market parser and the dense-vector reader
// (core/matrix/matrix_market.h). Any bytes must give either
// an error status or a matrix that passes ValidateCsr; crashes, sanitizer
// reports and an invalid accepted matrix are findings.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/string_view.h"
#include "core/matrix/matrix_market.h"
#include "core/matrix/validate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  factord::MatrixMarketInfo info;
  factord::MatrixMarketLimits limits;
  limits.max_dimension = int64_t{1} << 20;
  limits.max_entries = int64_t{1} << 22;
  absl::StatusOr<factord::CsrMatrix> a =
      factord::ParseMatrixMarket(text, &info, limits);
  if (a.ok()) {
    const absl::Status valid = factord::ValidateCsr(*a);
    if (!valid.ok()) {
      std::fprintf(stderr, "accepted an invalid matrix: %s\n",
                   valid.ToString().c_str());
      std::abort();
    }
  }
  absl::StatusOr<std::vector<double>> v = factord::ParseDenseVector(text);
  (void)v;
  return 0;
}
