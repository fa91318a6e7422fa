#include "client/cli/cli_app.h"

#include <cstdio>
#include <iostream>

namespace factord::cli {

const char* Version() { return FACTORD_VERSION_STRING; }

void ConfigureApp(CLI::App& app, const std::string& program) {
  app.name(program);
  app.set_version_flag("--version", std::string(program) + " " + Version(),
                       "print the version and exit");
  app.option_defaults()->always_capture_default();
  // A repeated flag keeps its last value, so that a script can override a
  // flag it was handed; an option that collects its repeats sets its own
  // policy.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  // CLI11 leaves a single space between a flag and its description when the
  // flag's column is one short of the width; help2man (man/) needs two (or
  // a line break) to tell them apart. 36 suits the programs' flags;
  // tests/sdk/flags/help_lists_flags_test.cc and check_man_pages.sh check
  // every line.
  app.get_formatter()->column_width(36);
  app.footer("Documentation: docs/ in the factord source tree; exit code " +
             std::to_string(kUsageExitCode) + " for a command-line mistake.");
}

int ReportParseOutcome(const CLI::App& app, const CLI::ParseError& error) {
  // CLI::CallForHelp, CallForAllHelp and CallForVersion are "successes".
  if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
    return app.exit(error, std::cout, std::cerr);
  }
  std::cerr << app.get_name() << ": " << error.what() << "\n"
            << "Run '" << app.get_name() << " --help' for the flags.\n";
  return kUsageExitCode;
}

}  // namespace factord::cli
