// The --help of factord-ipm and factord-load lists every option the
// program's CLI::App defines (walked with get_options(), not a list kept
// here), each with the default CLI11 captured, and --version prints
// "<program> <PROJECT_VERSION>".
#include <sstream>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "client/cli/cli_app.h"
#include "client/ipm/ipm_flags.h"
#include "client/load/load_options.h"
#include "gtest/gtest.h"

namespace factord::sdk_flags {
namespace {

// The line of `help` that lists `name` ("--server" or a positional's
// name): the first line whose first word is `name` or ends with ",name".
std::string HelpLine(const std::string& help, const std::string& name) {
  std::istringstream lines(help);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first == name || (first.size() > name.size() &&
                          first.compare(first.size() - name.size() - 1,
                                        std::string::npos, "," + name) == 0)) {
      return line;
    }
  }
  return "";
}

// Every option of `app` on a line of its help; an option with a default
// shows it as "=DEFAULT" on that line. Returns how many options it checked.
int ExpectHelpListsEveryOption(const CLI::App& app) {
  const std::string help = app.help();
  int checked = 0;
  for (const CLI::Option* option : app.get_options()) {
    const std::string name = option->get_lnames().empty()
                                 ? option->get_name()
                                 : "--" + option->get_lnames().front();
    const std::string line = HelpLine(help, name);
    EXPECT_FALSE(line.empty()) << name << " is not in the help:\n" << help;
    // help2man (man/) tells a flag from its description by two spaces, or
    // by the description starting on the next line.
    const std::string description = option->get_description();
    const size_t at = line.find(description);
    if (!description.empty() && at != std::string::npos) {
      EXPECT_TRUE(at >= 2 && line.compare(at - 2, 2, "  ") == 0)
          << name << ": one space before its description: " << line;
    }
    const std::string default_value = option->get_default_str();
    if (!default_value.empty()) {
      EXPECT_NE(line.find("=" + default_value), std::string::npos)
          << name << " default " << default_value << " not on: " << line;
    }
    ++checked;
  }
  return checked;
}

TEST(ClientHelp, IpmListsEveryFlagWithItsDefault) {
  ipm::IpmFlags flags;
  CLI::App app;
  ipm::ConfigureIpmApp(app, flags);
  // --help, --version, the file and the flags of ipm_flags.h.
  EXPECT_GE(ExpectHelpListsEveryOption(app), 14);
  // Defaults the program relies on are the ones shown.
  EXPECT_NE(HelpLine(app.help(), "--method").find("=ldlt"), std::string::npos);
  EXPECT_NE(HelpLine(app.help(), "--tolerance").find("=1e-08"),
            std::string::npos);
}

TEST(ClientHelp, LoadListsEveryFlagWithItsDefault) {
  load::LoadOptions options;
  CLI::App app;
  load::ConfigureLoadApp(app, options);
  EXPECT_GE(ExpectHelpListsEveryOption(app), 16);
  EXPECT_NE(HelpLine(app.help(), "--server").find("=127.0.0.1:50051"),
            std::string::npos);
  EXPECT_NE(HelpLine(app.help(), "--rpc_timeout").find("=120"),
            std::string::npos);
}

// The version flag of each app prints "<program> <version>".
void ExpectVersion(CLI::App& app, const std::string& program) {
  std::ostringstream out, err;
  const char* argv[] = {program.c_str(), "--version"};
  try {
    app.parse(2, argv);
    ADD_FAILURE() << program << " --version did not stop the parse";
  } catch (const CLI::ParseError& e) {
    EXPECT_EQ(app.exit(e, out, err), 0);
  }
  EXPECT_EQ(out.str(), program + " " + FACTORD_PROJECT_VERSION + "\n");
}

TEST(ClientHelp, VersionIsTheProjectVersion) {
  ipm::IpmFlags flags;
  CLI::App ipm_app;
  ipm::ConfigureIpmApp(ipm_app, flags);
  ExpectVersion(ipm_app, "factord-ipm");
  load::LoadOptions options;
  CLI::App load_app;
  load::ConfigureLoadApp(load_app, options);
  ExpectVersion(load_app, "factord-load");
}

}  // namespace
}  // namespace factord::sdk_flags
