#include "server/auth/authenticator.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace factord::server {
namespace {

constexpr char kAlice[] = "alice-token-0123456789abcdef";
constexpr char kBob[] = "bob-token-0123456789abcdefgh";

Authenticator TwoTenants() {
  absl::StatusOr<TokenTable> table = ParseTokenTable(
      std::string(kAlice) + " alice\n" + kBob + " bob\n", "test");
  EXPECT_TRUE(table.ok()) << table.status();
  return Authenticator(*std::move(table));
}

absl::StatusOr<std::string> Auth(const Authenticator& a,
                                 std::vector<std::string> headers) {
  std::vector<absl::string_view> views(headers.begin(), headers.end());
  return a.Authenticate(views);
}

TEST(Authenticator, BearerTokenNamesTheTenant) {
  const Authenticator auth = TwoTenants();
  EXPECT_EQ(*Auth(auth, {std::string("Bearer ") + kAlice}), "alice");
  EXPECT_EQ(*Auth(auth, {std::string("Bearer ") + kBob}), "bob");
  // RFC 7235: the scheme is case-insensitive.
  EXPECT_EQ(*Auth(auth, {std::string("bearer ") + kBob}), "bob");
}

TEST(Authenticator, MissingMalformedOrWrongIsUnauthenticated) {
  const Authenticator auth = TwoTenants();
  const std::string wrong = "alice-token-0123456789abcdeX";
  const std::vector<std::vector<std::string>> refused = {
      {},
      {kAlice},                                 // no scheme
      {std::string("Basic ") + kAlice},         // another scheme
      {"Bearer "},                              // no token
      {"Bearer"},                               //
      {"Bearer " + wrong},                      // one character off
      {std::string("Bearer ") + kAlice + "x"},  // a prefix of it is not it
      {std::string("Bearer ") + kAlice, std::string("Bearer ") + kBob},
      {"Bearer " + std::string(kAlice).substr(0, 10)},
      {"Bearer " + std::string(10000, 'a')},
  };
  for (const auto& headers : refused) {
    absl::StatusOr<std::string> tenant = Auth(auth, headers);
    ASSERT_FALSE(tenant.ok()) << (headers.empty() ? "none" : headers[0]);
    EXPECT_EQ(tenant.status().code(), absl::StatusCode::kUnauthenticated);
    // Never echo what was sent.
    const std::string message(tenant.status().message());
    EXPECT_EQ(message.find("0123456789"), std::string::npos) << message;
    EXPECT_NE(message.find("authorization: Bearer <token>"), std::string::npos)
        << message;
  }
}

TEST(Authenticator, ConstantTimeEqualsIsEquality) {
  EXPECT_TRUE(ConstantTimeEquals("abc", "abc"));
  EXPECT_TRUE(ConstantTimeEquals("", ""));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abd"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abcd"));
  EXPECT_FALSE(ConstantTimeEquals("abcd", "abc"));
  EXPECT_FALSE(ConstantTimeEquals("", "a"));
  EXPECT_FALSE(ConstantTimeEquals("a", ""));
  // A presented value that repeats the stored one is not equal to it.
  EXPECT_FALSE(ConstantTimeEquals("abab", "ab"));
  EXPECT_FALSE(ConstantTimeEquals("ab", "abab"));
}

}  // namespace
}  // namespace factord::server
