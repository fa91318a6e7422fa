#include "client/factorctl/json_writer.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace factord::factorctl {

std::string JsonQuote(absl::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += absl::StrFormat("\\u%04x", c);
        } else {
          out += static_cast<char>(c);  // UTF-8 bytes pass through
        }
    }
  }
  out += '"';
  return out;
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_member_.empty()) {
    if (has_member_.back()) out_ += ',';
    has_member_.back() = true;
  }
}

void JsonWriter::BeginObject() {
  BeforeValue();
  out_ += '{';
  has_member_.push_back(false);
}

void JsonWriter::EndObject() {
  has_member_.pop_back();
  out_ += '}';
}

void JsonWriter::BeginArray() {
  BeforeValue();
  out_ += '[';
  has_member_.push_back(false);
}

void JsonWriter::EndArray() {
  has_member_.pop_back();
  out_ += ']';
}

void JsonWriter::Key(absl::string_view name) {
  BeforeValue();
  out_ += JsonQuote(name);
  out_ += ':';
  after_key_ = true;
}

void JsonWriter::String(absl::string_view value) {
  BeforeValue();
  out_ += JsonQuote(value);
}

void JsonWriter::Double(double value) {
  BeforeValue();
  if (!std::isfinite(value)) {
    out_ += "null";
    return;
  }
  out_ += absl::StrFormat("%.17g", value);
}

void JsonWriter::Int(int64_t value) {
  BeforeValue();
  absl::StrAppend(&out_, value);
}

void JsonWriter::Uint(uint64_t value) {
  BeforeValue();
  absl::StrAppend(&out_, value);
}

void JsonWriter::Bool(bool value) {
  BeforeValue();
  out_ += value ? "true" : "false";
}

void JsonWriter::Null() {
  BeforeValue();
  out_ += "null";
}

}  // namespace factord::factorctl
