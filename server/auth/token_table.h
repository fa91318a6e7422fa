// The bearer tokens of --auth_tokens_file: which token belongs to which
// tenant. The file holds one `token tenant` pair per line; blank lines and
// everything after a `#` are ignored. Tokens are 16 to 512 characters of the
// RFC 6750 b64token alphabet (A-Z a-z 0-9 - . _ ~ + / and trailing =);
// tenant names are 1 to 64 characters of A-Z a-z 0-9 - . _. A tenant may
// have several tokens (to rotate one); a token may appear only once.
//
// Errors name the source and the line, never the token itself: the file is
// a secret and its lines end up in logs.
#ifndef FACTORD_SERVER_AUTH_TOKEN_TABLE_H_
#define FACTORD_SERVER_AUTH_TOKEN_TABLE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace factord::server {

struct TokenGrant {
  std::string token;
  std::string tenant;
  int line = 0;  // 1-based line of the file, for messages
};

struct TokenTable {
  std::vector<TokenGrant> grants;  // in file order
  int tenants() const;             // distinct tenant names
};

inline constexpr size_t kMinTokenLength = 16;
inline constexpr size_t kMaxTokenLength = 512;
inline constexpr size_t kMaxTenantLength = 64;

// Parses the text of a tokens file. `source` (the path) prefixes messages.
// InvalidArgument on a malformed line, a duplicate token, or no token at all
// (a table that would refuse every request is a configuration mistake).
absl::StatusOr<TokenTable> ParseTokenTable(absl::string_view text,
                                           absl::string_view source);

// The text of the tokens file `path`. InvalidArgument naming
// --auth_tokens_file and the path when it cannot be read.
absl::StatusOr<std::string> ReadTokensFile(const std::string& path);

// ParseTokenTable with the source named as LoadTokenTable names it.
absl::StatusOr<TokenTable> ParseTokensFile(absl::string_view text,
                                           const std::string& path);

// Reads and parses `path`. InvalidArgument naming --auth_tokens_file and
// the path when it cannot be read.
absl::StatusOr<TokenTable> LoadTokenTable(const std::string& path);

}  // namespace factord::server

#endif  // FACTORD_SERVER_AUTH_TOKEN_TABLE_H_
