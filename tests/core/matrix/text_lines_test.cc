// The scanning helpers of the text readers.
#include "core/matrix/text_lines.h"

#include <limits>

#include "gtest/gtest.h"

namespace factord::internal {
namespace {

TEST(TextLines, NumbersLinesAndHandlesMissingFinalNewline) {
  TextLines lines("a\n\nb\r\nc");
  absl::string_view line;
  ASSERT_TRUE(lines.Next(&line));
  EXPECT_EQ(line, "a");
  ASSERT_TRUE(lines.Next(&line));
  EXPECT_EQ(line, "");
  ASSERT_TRUE(lines.Next(&line));
  EXPECT_EQ(line, "b\r");
  ASSERT_TRUE(lines.Next(&line));
  EXPECT_EQ(line, "c");
  EXPECT_EQ(lines.line_number(), 4);
  EXPECT_FALSE(lines.Next(&line));
  EXPECT_EQ(lines.end_line_number(), 5);
}

TEST(Tokens, SplitsOnWhitespace) {
  Tokens tokens(" 12\t-3  x\r");
  absl::string_view token;
  ASSERT_TRUE(tokens.Next(&token));
  EXPECT_EQ(token, "12");
  EXPECT_EQ(tokens.CountRest(), 2);
  EXPECT_TRUE(IsBlankOrComment("  \t"));
  EXPECT_TRUE(IsBlankOrComment("  % x"));
  EXPECT_FALSE(IsBlankOrComment(" 1 %"));
}

TEST(ParseNumbers, IntegersAndReals) {
  int64_t i = 0;
  EXPECT_TRUE(ParseInt64("+42", &i));
  EXPECT_EQ(i, 42);
  EXPECT_FALSE(ParseInt64("4 2", &i));
  EXPECT_FALSE(ParseInt64("", &i));
  EXPECT_FALSE(ParseInt64("+", &i));
  EXPECT_FALSE(ParseInt64("99999999999999999999", &i));
  double x = 0;
  EXPECT_EQ(ParseReal("1e-400", &x), RealParse::kOk);
  EXPECT_EQ(x, 0.0);
  EXPECT_EQ(ParseReal("-1.5E+3", &x), RealParse::kOk);
  EXPECT_EQ(x, -1500.0);
  EXPECT_EQ(ParseReal("+.5", &x), RealParse::kOk);
  EXPECT_EQ(x, 0.5);
  EXPECT_EQ(ParseReal("+-1", &x), RealParse::kMalformed);
  EXPECT_EQ(ParseReal("0x10", &x), RealParse::kMalformed);
  EXPECT_EQ(ParseReal("inf", &x), RealParse::kNotFinite);
  EXPECT_EQ(ParseReal("1e309", &x), RealParse::kNotFinite);
  EXPECT_EQ(Quote("ab'\n"), "'ab\\x27\\x0a'");
  EXPECT_EQ(Quote(std::string(40, 'z')), "'" + std::string(32, 'z') + "...'");
}

}  // namespace
}  // namespace factord::internal
