#include "client/factorctl/json_writer.h"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "gtest/gtest.h"

namespace factord::factorctl {
namespace {

TEST(JsonWriterTest, NestedObjectsAndArraysGetCommasRight) {
  JsonWriter w;
  w.BeginObject();
  w.Field("a", int64_t{1});
  w.Key("inner");
  w.BeginObject();
  w.Field("x", true);
  w.Field("y", false);
  w.EndObject();
  w.Key("list");
  w.BeginArray();
  w.Int(-3);
  w.BeginObject();
  w.EndObject();
  w.BeginArray();
  w.EndArray();
  w.Null();
  w.EndArray();
  w.Field("s", "t");
  w.EndObject();
  EXPECT_EQ(
      w.str(),
      R"({"a":1,"inner":{"x":true,"y":false},"list":[-3,{},[],null],"s":"t"})");
}

TEST(JsonWriterTest, StringsAreEscaped) {
  EXPECT_EQ(JsonQuote("plain"), "\"plain\"");
  EXPECT_EQ(JsonQuote("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(JsonQuote("line\nnext\ttab\r"), R"("line\nnext\ttab\r")");
  EXPECT_EQ(JsonQuote(std::string("nul\0x\x01\x1f\x7f", 8)),
            R"("nul\u0000x\u0001\u001f\u007f")");
  EXPECT_EQ(JsonQuote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");  // UTF-8 kept
  JsonWriter w;
  w.BeginObject();
  w.Field("key \"q\"", "v");
  w.EndObject();
  EXPECT_EQ(w.str(), R"({"key \"q\"":"v"})");
}

TEST(JsonWriterTest, DoublesRoundTripAndNonFiniteIsNull) {
  const double values[] = {
      0.1, 1.0 / 3.0, 6.7887330569457956e-09, -1e-310, 1.7976931348623157e308,
      0.0, 42.0};
  for (double v : values) {
    JsonWriter w;
    w.Double(v);
    EXPECT_EQ(std::strtod(w.str().c_str(), nullptr), v) << w.str();
  }
  JsonWriter w;
  w.BeginArray();
  w.Double(std::nan(""));
  w.Double(std::numeric_limits<double>::infinity());
  w.Double(-std::numeric_limits<double>::infinity());
  w.EndArray();
  EXPECT_EQ(w.str(), "[null,null,null]");
}

TEST(JsonWriterTest, IntegersAreExact) {
  JsonWriter w;
  w.BeginArray();
  w.Int(std::numeric_limits<int64_t>::min());
  w.Uint(std::numeric_limits<uint64_t>::max());
  w.EndArray();
  EXPECT_EQ(w.str(), "[-9223372036854775808,18446744073709551615]");
}

}  // namespace
}  // namespace factord::factorctl
