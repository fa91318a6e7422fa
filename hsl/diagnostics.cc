// The factord_hsl_* diagnostics of libhsl.so (factord_hsl.h).
#include <cstring>
#include <string>

#include "hsl/factord_hsl.h"
#include "hsl/registry.h"

extern "C" {

FACTORD_HSL_EXPORT int64_t factord_hsl_sessions(void) {
  return factord::hsl::Registry::Get().sessions();
}

FACTORD_HSL_EXPORT int64_t factord_hsl_uploads(void) {
  return factord::hsl::Registry::Get().uploads();
}

FACTORD_HSL_EXPORT int factord_hsl_matrix_id(const int* keep, char* buffer,
                                             int size) {
  if (keep == nullptr || buffer == nullptr) return -1;
  const std::string id = factord::hsl::Registry::Get().IdAt(keep);
  if (id.empty() || static_cast<int>(id.size()) + 1 > size) return -1;
  std::memcpy(buffer, id.c_str(), id.size() + 1);
  return 0;
}

}  // extern "C"
