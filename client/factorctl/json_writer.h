// A small JSON writer for factorctl's one-object output: strings escaped per
// RFC 8259, doubles printed with %.17g (they read back bit-exactly), and
// non-finite numbers written as null (JSON has no NaN or Inf).
#ifndef FACTORD_CLIENT_FACTORCTL_JSON_WRITER_H_
#define FACTORD_CLIENT_FACTORCTL_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace factord::factorctl {

class JsonWriter {
 public:
  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  // The name of the next value inside an object.
  void Key(absl::string_view name);

  void String(absl::string_view value);
  void Double(double value);
  void Int(int64_t value);
  void Uint(uint64_t value);
  void Bool(bool value);
  void Null();

  // Key + value shorthands.
  void Field(absl::string_view name, absl::string_view value) {
    Key(name);
    String(value);
  }
  void Field(absl::string_view name, const char* value) {
    Key(name);
    String(value);
  }
  void Field(absl::string_view name, double value) {
    Key(name);
    Double(value);
  }
  void Field(absl::string_view name, int64_t value) {
    Key(name);
    Int(value);
  }
  void Field(absl::string_view name, int value) {
    Key(name);
    Int(value);
  }
  void Field(absl::string_view name, bool value) {
    Key(name);
    Bool(value);
  }

  // The text written so far.
  const std::string& str() const { return out_; }

 private:
  void BeforeValue();

  std::string out_;
  // One entry per open container: whether it has a member yet.
  std::vector<bool> has_member_;
  bool after_key_ = false;
};

// `text` as a quoted, escaped JSON string.
std::string JsonQuote(absl::string_view text);

}  // namespace factord::factorctl

#endif  // FACTORD_CLIENT_FACTORCTL_JSON_WRITER_H_
