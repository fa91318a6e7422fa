#include "server/auth/token_table.h"

#include <cstdio>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace factord::server {
namespace {

constexpr char kAlice[] = "alice-token-0123456789abcdef";
constexpr char kBob[] = "bob/token+0123456789ABCDEF==";

bool Mentions(const absl::Status& s, const std::string& needle) {
  return std::string(s.message()).find(needle) != std::string::npos;
}

TEST(TokenTable, ParsesPairsCommentsAndBlankLines) {
  const std::string text = std::string("# factord tokens\n\n") + kAlice +
                           " alice\n  " + kBob + "\tbob   # rotated 2026-11\n" +
                           "alice-second-token-0123456789 alice\r\n";
  absl::StatusOr<TokenTable> table = ParseTokenTable(text, "tokens");
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_EQ(table->grants.size(), 3u);
  EXPECT_EQ(table->grants[0].token, kAlice);
  EXPECT_EQ(table->grants[0].tenant, "alice");
  EXPECT_EQ(table->grants[0].line, 3);
  EXPECT_EQ(table->grants[1].token, kBob);
  EXPECT_EQ(table->grants[1].tenant, "bob");
  EXPECT_EQ(table->grants[1].line, 4);
  EXPECT_EQ(table->grants[2].tenant, "alice");
  EXPECT_EQ(table->tenants(), 2);
}

TEST(TokenTable, RejectsMalformedLinesWithTheLineNumber) {
  struct Case {
    std::string line;
    std::string expected;
  };
  const Case cases[] = {
      {"only-one-field-0123456789", "expected `token tenant`, found 1"},
      {std::string(kAlice) + " alice extra", "found 3 field(s)"},
      {"short alice", "fewer than 16"},
      {"has*star-0123456789abcdef alice", "outside A-Z a-z 0-9"},
      {"================ alice", "all '='"},
      {"padding=inside-0123456789 alice", "outside A-Z"},
      {std::string(kAlice) + " ali/ce", "tenant 'ali/ce'"},
      {std::string(kAlice) + " " + std::string(65, 't'), "over 64"},
      {std::string(600, 'x') + " alice", "over 512"},
  };
  for (const Case& c : cases) {
    const std::string text = "# header\n" + c.line + "\n";
    absl::StatusOr<TokenTable> table = ParseTokenTable(text, "f.txt");
    ASSERT_FALSE(table.ok()) << c.line;
    EXPECT_EQ(table.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(Mentions(table.status(), "f.txt:2: ")) << table.status();
    EXPECT_TRUE(Mentions(table.status(), c.expected))
        << table.status() << " for " << c.line;
  }
}

TEST(TokenTable, ErrorsNeverQuoteTheToken) {
  const std::string secret = "s3cret*token-0123456789abcdef";
  absl::StatusOr<TokenTable> table = ParseTokenTable(secret + " alice\n", "f");
  ASSERT_FALSE(table.ok());
  EXPECT_FALSE(Mentions(table.status(), "s3cret")) << table.status();
}

TEST(TokenTable, RejectsDuplicateTokensNamingBothLines) {
  const std::string text = std::string(kAlice) + " alice\n" + kBob + " bob\n" +
                           kAlice + " mallory\n";
  absl::StatusOr<TokenTable> table = ParseTokenTable(text, "f");
  ASSERT_FALSE(table.ok());
  EXPECT_TRUE(
      Mentions(table.status(), "f:3: duplicate token (first on line 1)"))
      << table.status();
  EXPECT_FALSE(Mentions(table.status(), kAlice));
}

TEST(TokenTable, RejectsATableWithoutTokens) {
  absl::StatusOr<TokenTable> table = ParseTokenTable("# nothing\n\n", "f");
  ASSERT_FALSE(table.ok());
  EXPECT_TRUE(Mentions(table.status(), "every request would be refused"));
}

TEST(TokenTable, LoadNamesTheFlagAndThePath) {
  absl::StatusOr<TokenTable> missing =
      LoadTokenTable("/nonexistent/factord/tokens");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(Mentions(missing.status(), "--auth_tokens_file"));
  EXPECT_TRUE(Mentions(missing.status(), "/nonexistent/factord/tokens"));

  const std::string path = ::testing::TempDir() + "/token_table_test_tokens";
  std::ofstream(path) << kAlice << " alice\nbad-line\n";
  absl::StatusOr<TokenTable> bad = LoadTokenTable(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(Mentions(bad.status(), path + ":2: ")) << bad.status();
  std::ofstream(path) << kAlice << " alice\n";
  absl::StatusOr<TokenTable> good = LoadTokenTable(path);
  ASSERT_TRUE(good.ok()) << good.status();
  EXPECT_EQ(good->grants[0].tenant, "alice");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace factord::server
