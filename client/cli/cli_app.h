// The command-line conventions that factorctl, factord-ipm and factord-load
// share, on CLI11 (Debian's libcli11-dev, header-only): `--help` lists every
// flag with its default, `--version` prints "<program> <version>", and a bad
// flag or value is reported the same way by every program (one line on
// stderr naming the flag, exit code 2).
#ifndef FACTORD_CLIENT_CLI_CLI_APP_H_
#define FACTORD_CLIENT_CLI_CLI_APP_H_

#include <string>

#include "CLI/CLI.hpp"

namespace factord::cli {

// The project version (CMake's PROJECT_VERSION).
const char* Version();

// Applies the shared conventions to `app`: the --version flag, defaults
// shown in --help, a repeated flag keeping its last value, and the help
// footer naming the documentation. Call it before adding options.
void ConfigureApp(CLI::App& app, const std::string& program);

// Exit code of a command-line mistake (bad flag, bad value, missing
// argument); 0 for --help and --version.
inline constexpr int kUsageExitCode = 2;

// Handles what CLI11 threw while parsing: --help and --version print to
// stdout and return 0; a mistake prints "<program>: <message>" and a hint to
// use --help on stderr and returns kUsageExitCode.
int ReportParseOutcome(const CLI::App& app, const CLI::ParseError& error);

}  // namespace factord::cli

#endif  // FACTORD_CLIENT_CLI_CLI_APP_H_
