#include "hsl/messages.h"

#include <atomic>
#include <cmath>
#include <cstdio>

namespace factord::hsl {
namespace {

constexpr double kMaxPivotThreshold = 0.5;
constexpr double kMinPivotThreshold = 1e-10;

}  // namespace

int Refuse(const char* routine, int code, const std::string& text) {
  std::fprintf(stderr, "factord hsl: %s: error %d: %s\n", routine, code,
               text.c_str());
  return code;
}

void Warn(const char* routine, int code, const std::string& text) {
  std::fprintf(stderr, "factord hsl: %s: warning %d: %s\n", routine, code,
               text.c_str());
}

void Trace(const char* routine, const std::string& text) {
  std::printf("factord hsl: %s: %s\n", routine, text.c_str());
  std::fflush(stdout);
}

std::string Location(factord_handle* connection, const std::string& id) {
  char where[256];
  factord_matrix_location(connection, id.c_str(), where, sizeof where);
  return std::string(where) == "local" ? "in process"
                                       : std::string("daemon ") + where;
}

double PivotThreshold(const char* routine, double u) {
  static std::atomic<bool> noted_high{false}, noted_low{false};
  if (u > 0 && u <= kMaxPivotThreshold) return u;
  const bool high = u > kMaxPivotThreshold;
  std::atomic<bool>& noted = high ? noted_high : noted_low;
  const double used = high ? kMaxPivotThreshold : kMinPivotThreshold;
  if (!noted.exchange(true)) {
    std::fprintf(stderr,
                 "factord hsl: %s: pivot threshold CNTL(1) = %g is outside "
                 "factord's (0, 0.5]: using %g (noted once)\n",
                 routine, u, used);
  }
  return used;
}

}  // namespace factord::hsl
