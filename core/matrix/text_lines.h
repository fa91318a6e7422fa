// Line and token scanning for the Matrix Market and vector readers: a
// zero-copy walk over the input with 1-based line numbers, and number parsing
// with std::from_chars (no iostreams per token). Safe on any bytes.
#ifndef FACTORD_MATRIX_TEXT_LINES_H_
#define FACTORD_MATRIX_TEXT_LINES_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace factord::internal {

inline bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// The lines of a text, without their '\n'. A final line without '\n' counts.
class TextLines {
 public:
  explicit TextLines(absl::string_view text) : text_(text) {}

  // The next line; false at the end of the text.
  bool Next(absl::string_view* line);
  // The 1-based number of the line last returned by Next (0 before).
  int64_t line_number() const { return line_number_; }
  // The number of the line after the last one: where more input was due.
  int64_t end_line_number() const { return line_number_ + 1; }

 private:
  absl::string_view text_;
  size_t position_ = 0;
  int64_t line_number_ = 0;
};

// True for a line of whitespace only, or a comment starting with '%' after
// optional whitespace.
bool IsBlankOrComment(absl::string_view line);

// Whitespace-separated tokens of one line.
class Tokens {
 public:
  explicit Tokens(absl::string_view line) : line_(line) {}
  // The next token; false when only whitespace is left.
  bool Next(absl::string_view* token);
  // Counts the tokens left (consumes them).
  int CountRest();

 private:
  absl::string_view line_;
  size_t position_ = 0;
};

// A whole token as a decimal integer (optional sign); false otherwise.
bool ParseInt64(absl::string_view token, int64_t* value);

enum class RealParse { kOk, kMalformed, kNotFinite };
// A whole token as a decimal or hexadecimal-free floating-point number
// (optional leading '+'); values that underflow read as 0 or subnormals,
// values that overflow, "inf" and "nan" are kNotFinite.
RealParse ParseReal(absl::string_view token, double* value);

// The token for an error message: quoted, at most 32 bytes, with
// non-printable bytes escaped.
std::string Quote(absl::string_view token);

}  // namespace factord::internal

#endif  // FACTORD_MATRIX_TEXT_LINES_H_
