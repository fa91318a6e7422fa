// Scanning helpers for the text readers (see text_lines.h).
#include "core/matrix/text_lines.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace factord::internal {

bool TextLines::Next(absl::string_view* line) {
  if (position_ >= text_.size()) return false;
  const char* begin = text_.data() + position_;
  const size_t left = text_.size() - position_;
  const void* newline = std::memchr(begin, '\n', left);
  const size_t length =
      newline ? static_cast<const char*>(newline) - begin : left;
  *line = absl::string_view(begin, length);
  position_ += length + (newline ? 1 : 0);
  ++line_number_;
  return true;
}

bool IsBlankOrComment(absl::string_view line) {
  for (char c : line) {
    if (c == '%') return true;
    if (!IsSpace(c)) return false;
  }
  return true;
}

bool Tokens::Next(absl::string_view* token) {
  while (position_ < line_.size() && IsSpace(line_[position_])) ++position_;
  if (position_ >= line_.size()) return false;
  const size_t begin = position_;
  while (position_ < line_.size() && !IsSpace(line_[position_])) ++position_;
  *token = line_.substr(begin, position_ - begin);
  return true;
}

int Tokens::CountRest() {
  int count = 0;
  absl::string_view token;
  while (Next(&token)) ++count;
  return count;
}

bool ParseInt64(absl::string_view token, int64_t* value) {
  const char* begin = token.data();
  const char* end = token.data() + token.size();
  if (begin != end && *begin == '+') ++begin;
  const auto [ptr, error] = std::from_chars(begin, end, *value);
  return error == std::errc() && ptr == end && begin != end;
}

RealParse ParseReal(absl::string_view token, double* value) {
  const char* begin = token.data();
  const char* end = token.data() + token.size();
  // from_chars takes no '+'; "+-1" must stay malformed.
  if (end - begin >= 2 && *begin == '+' && begin[1] != '-' && begin[1] != '+') {
    ++begin;
  }
  if (begin == end) return RealParse::kMalformed;
  const auto [ptr, error] =
      std::from_chars(begin, end, *value, std::chars_format::general);
  if (ptr != end) return RealParse::kMalformed;
  if (error == std::errc::result_out_of_range) {
    // Overflow or underflow: strtod tells which (a bounded copy: the token
    // is not NUL-terminated).
    char buffer[128];
    const size_t length = static_cast<size_t>(end - begin);
    if (length >= sizeof(buffer)) return RealParse::kNotFinite;
    std::memcpy(buffer, begin, length);
    buffer[length] = '\0';
    *value = std::strtod(buffer, nullptr);
    return std::isfinite(*value) ? RealParse::kOk : RealParse::kNotFinite;
  }
  if (error != std::errc()) return RealParse::kMalformed;
  return std::isfinite(*value) ? RealParse::kOk : RealParse::kNotFinite;
}

std::string Quote(absl::string_view token) {
  constexpr size_t kMaxShown = 32;
  std::string quoted = "'";
  for (size_t i = 0; i < token.size() && i < kMaxShown; ++i) {
    const unsigned char c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      quoted.push_back(static_cast<char>(c));
    } else {
      static const char kHex[] = "0123456789abcdef";
      quoted += "\\x";
      quoted.push_back(kHex[c >> 4]);
      quoted.push_back(kHex[c & 15]);
    }
  }
  if (token.size() > kMaxShown) quoted += "...";
  quoted += "'";
  return quoted;
}

}  // namespace factord::internal
