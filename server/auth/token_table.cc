#include "server/auth/token_table.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace factord::server {
namespace {

bool IsTokenChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' ||
         c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
}

bool IsTenantChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' ||
         c == '.' || c == '_';
}

// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+"
// / "/" ) *"=". Says what is wrong without quoting the token.
absl::Status CheckToken(absl::string_view token) {
  if (token.size() < kMinTokenLength) {
    return absl::InvalidArgumentError(
        absl::StrCat("the token is ", token.size(), " characters, fewer than ",
                     kMinTokenLength, " (use e.g. `openssl rand -hex 32`)"));
  }
  if (token.size() > kMaxTokenLength) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the token is ", token.size(), " characters, over ", kMaxTokenLength));
  }
  size_t end = token.size();
  while (end > 0 && token[end - 1] == '=') --end;
  if (end == 0) return absl::InvalidArgumentError("the token is all '='");
  for (size_t i = 0; i < end; ++i) {
    if (!IsTokenChar(token[i])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the token has a character outside A-Z a-z 0-9 - . _ ~ + / "
          "(at position ",
          i + 1, ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckTenant(absl::string_view tenant) {
  if (tenant.size() > kMaxTenantLength) {
    return absl::InvalidArgumentError(
        absl::StrCat("the tenant name is ", tenant.size(), " characters, over ",
                     kMaxTenantLength));
  }
  for (char c : tenant) {
    if (!IsTenantChar(c)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tenant '", tenant, "' has a character outside A-Z a-z 0-9 - . _"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

int TokenTable::tenants() const {
  absl::flat_hash_set<std::string> names;
  for (const TokenGrant& g : grants) names.insert(g.tenant);
  return static_cast<int>(names.size());
}

absl::StatusOr<TokenTable> ParseTokenTable(absl::string_view text,
                                           absl::string_view source) {
  TokenTable table;
  absl::flat_hash_map<std::string, int> line_of_token;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    if (size_t hash = line.find('#'); hash != absl::string_view::npos) {
      line = line.substr(0, hash);
    }
    std::vector<absl::string_view> fields =
        absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
    if (fields.empty()) continue;
    auto error = [&](absl::string_view what) {
      return absl::InvalidArgumentError(
          absl::StrCat(source, ":", line_number, ": ", what));
    };
    if (fields.size() != 2) {
      return error(absl::StrCat("expected `token tenant`, found ",
                                fields.size(), " field(s)"));
    }
    if (absl::Status s = CheckToken(fields[0]); !s.ok()) {
      return error(s.message());
    }
    if (absl::Status s = CheckTenant(fields[1]); !s.ok()) {
      return error(s.message());
    }
    auto [it, inserted] =
        line_of_token.emplace(std::string(fields[0]), line_number);
    if (!inserted) {
      return error(
          absl::StrCat("duplicate token (first on line ", it->second, ")"));
    }
    table.grants.push_back(TokenGrant{std::string(fields[0]),
                                      std::string(fields[1]), line_number});
  }
  if (table.grants.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        source, ": no `token tenant` line: every request would be refused"));
  }
  return table;
}

absl::StatusOr<std::string> ReadTokensFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::InvalidArgumentError(
        absl::StrCat("--auth_tokens_file: cannot read '", path,
                     "': ", std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--auth_tokens_file: error reading '", path, "'"));
  }
  return text.str();
}

absl::StatusOr<TokenTable> ParseTokensFile(absl::string_view text,
                                           const std::string& path) {
  return ParseTokenTable(text, absl::StrCat("--auth_tokens_file ", path));
}

absl::StatusOr<TokenTable> LoadTokenTable(const std::string& path) {
  absl::StatusOr<std::string> text = ReadTokensFile(path);
  if (!text.ok()) return text.status();
  return ParseTokensFile(*text, path);
}

}  // namespace factord::server
