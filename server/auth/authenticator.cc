#include "server/auth/authenticator.h"

#include <cstdint>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace factord::server {
namespace {

constexpr absl::string_view kHelp =
    "; send the metadata `authorization: Bearer <token>` (factorctl "
    "--token or $FACTORD_TOKEN)";

absl::Status Unauthenticated(absl::string_view what) {
  return absl::UnauthenticatedError(absl::StrCat(what, kHelp));
}

}  // namespace

bool ConstantTimeEquals(absl::string_view presented, absl::string_view stored) {
  // Every byte of `stored` is visited whatever matched; `volatile` keeps the
  // compiler from turning the loop into an early-exit memcmp.
  volatile uint8_t diff = presented.size() == stored.size() ? 0 : 1;
  const size_t n = presented.size();
  for (size_t i = 0; i < stored.size(); ++i) {
    const uint8_t p = n == 0 ? 0 : static_cast<uint8_t>(presented[i % n]);
    diff = diff | (p ^ static_cast<uint8_t>(stored[i]));
  }
  return diff == 0;
}

absl::StatusOr<std::string> Authenticator::Authenticate(
    std::span<const absl::string_view> values) const {
  if (values.empty()) {
    return Unauthenticated(
        "authentication required: no authorization metadata");
  }
  if (values.size() > 1) {
    return Unauthenticated(
        "malformed authorization metadata: sent more than once");
  }
  absl::string_view value = values[0];
  constexpr absl::string_view kScheme = "bearer ";
  // RFC 7235 §2.1: the scheme is case-insensitive.
  if (value.size() <= kScheme.size() ||
      !absl::StartsWithIgnoreCase(value, kScheme)) {
    return Unauthenticated(
        "malformed authorization metadata: expected `Bearer <token>`");
  }
  absl::string_view token = value.substr(kScheme.size());
  if (token.size() > kMaxTokenLength) {
    return Unauthenticated("invalid bearer token");
  }
  const std::shared_ptr<const TokenTable> table = this->table();
  const TokenGrant* match = nullptr;
  for (const TokenGrant& grant : table->grants) {
    // No break: the time does not depend on which grant matched.
    if (ConstantTimeEquals(token, grant.token)) match = &grant;
  }
  if (match == nullptr) return Unauthenticated("invalid bearer token");
  return match->tenant;
}

void Authenticator::Replace(TokenTable table) {
  auto next = std::make_shared<const TokenTable>(std::move(table));
  absl::MutexLock lock(&mu_);
  table_.swap(next);
  // The old table is freed outside the lock (by `next`), or later by a
  // request still holding it.
}

std::shared_ptr<const TokenTable> Authenticator::table() const {
  absl::MutexLock lock(&mu_);
  return table_;
}

}  // namespace factord::server
