// factord-load's command line (client/load/load_options.h): both value
// forms, switches, the --matrices specs, and that a mistake exits with the
// usage code and names the flag on stderr.
#include "client/load/load_options.h"

#include <string>
#include <vector>

#include "client/cli/cli_app.h"
#include "gtest/gtest.h"
#include "tests/sdk/flags/argv.h"

namespace factord::load {
namespace {

using factord::sdk_flags::Argv;

ParsedLoadOptions Parse(std::vector<std::string> args) {
  Argv argv("factord-load", std::move(args));
  return ParseLoadOptions(argv.argc(), argv.argv());
}

TEST(LoadOptions, DefaultsWithoutArguments) {
  const ParsedLoadOptions parsed = Parse({});
  ASSERT_FALSE(parsed.exit_code);
  const LoadOptions defaults;
  EXPECT_EQ(parsed.options.server, defaults.server);
  EXPECT_EQ(parsed.options.clients, defaults.clients);
  EXPECT_EQ(parsed.options.operations, defaults.operations);
  EXPECT_FALSE(parsed.options.json);
  EXPECT_FALSE(parsed.options.reupload);
  EXPECT_TRUE(parsed.options.matrices.empty());
}

TEST(LoadOptions, EqualsAndSpaceFormsGiveTheSameValues) {
  const ParsedLoadOptions eq =
      Parse({"--server=10.0.0.1:7000", "--clients=32", "--operations=200",
             "--soak_seconds=2.5", "--daemon_pid=4242", "--sample_seconds=10",
             "--rpc_timeout=30", "--seed=18446744073709551615",
             "--max_attempts=8", "--token=secret"});
  const ParsedLoadOptions space =
      Parse({"--server",         "10.0.0.1:7000",
             "--clients",        "32",
             "--operations",     "200",
             "--soak_seconds",   "2.5",
             "--daemon_pid",     "4242",
             "--sample_seconds", "10",
             "--rpc_timeout",    "30",
             "--seed",           "18446744073709551615",
             "--max_attempts",   "8",
             "--token",          "secret"});
  for (const ParsedLoadOptions* parsed : {&eq, &space}) {
    ASSERT_FALSE(parsed->exit_code);
    const LoadOptions& o = parsed->options;
    EXPECT_EQ(o.server, "10.0.0.1:7000");
    EXPECT_EQ(o.clients, 32);
    EXPECT_EQ(o.operations, 200);
    EXPECT_DOUBLE_EQ(o.soak_seconds, 2.5);
    EXPECT_EQ(o.daemon_pid, 4242);
    EXPECT_DOUBLE_EQ(o.sample_seconds, 10);
    EXPECT_DOUBLE_EQ(o.rpc_timeout_s, 30);
    EXPECT_EQ(o.seed, 18446744073709551615u);
    EXPECT_EQ(o.max_attempts, 8);
    EXPECT_EQ(o.token, "secret");
  }
}

TEST(LoadOptions, SwitchesTakeAnOptionalBooleanValue) {
  ParsedLoadOptions parsed = Parse({"--json", "--allow_limits", "--reupload"});
  ASSERT_FALSE(parsed.exit_code);
  EXPECT_TRUE(parsed.options.json);
  EXPECT_TRUE(parsed.options.allow_limits);
  EXPECT_TRUE(parsed.options.reupload);

  parsed = Parse({"--json=false", "--allow_limits=0", "--reupload=true"});
  ASSERT_FALSE(parsed.exit_code);
  EXPECT_FALSE(parsed.options.json);
  EXPECT_FALSE(parsed.options.allow_limits);
  EXPECT_TRUE(parsed.options.reupload);
}

TEST(LoadOptions, ARepeatedFlagKeepsItsLastValue) {
  const ParsedLoadOptions parsed = Parse({"--clients=2", "--clients=9"});
  ASSERT_FALSE(parsed.exit_code);
  EXPECT_EQ(parsed.options.clients, 9);
}

TEST(LoadOptions, MatrixSpecsAccumulateWithDefaultsForMissingParts) {
  const ParsedLoadOptions parsed =
      Parse({"--matrices=a.mtx,b.mtx:lu,,c.mtx:ilu:gmres", "--matrices",
             "d.mtx::cg"});
  ASSERT_FALSE(parsed.exit_code);
  const std::vector<MatrixSpec>& m = parsed.options.matrices;
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0].path, "a.mtx");
  EXPECT_EQ(m[0].method, "ldlt");
  EXPECT_EQ(m[0].krylov, "auto");
  EXPECT_EQ(m[1].path, "b.mtx");
  EXPECT_EQ(m[1].method, "lu");
  EXPECT_EQ(m[2].path, "c.mtx");
  EXPECT_EQ(m[2].method, "ilu");
  EXPECT_EQ(m[2].krylov, "gmres");
  EXPECT_EQ(m[3].path, "d.mtx");
  EXPECT_EQ(m[3].method, "ldlt");
  EXPECT_EQ(m[3].krylov, "cg");
}

// A mistake: exit code 2 and, first on stderr, one line that starts with
// the program's name and names `flag`.
void ExpectMistake(std::vector<std::string> args, const std::string& flag) {
  testing::internal::CaptureStderr();
  const ParsedLoadOptions parsed = Parse(args);
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(parsed.exit_code) << flag;
  EXPECT_EQ(*parsed.exit_code, cli::kUsageExitCode) << flag;
  const std::string first_line = err.substr(0, err.find('\n'));
  EXPECT_EQ(first_line.rfind("factord-load: ", 0), 0u) << err;
  EXPECT_NE(first_line.find(flag), std::string::npos) << err;
}

TEST(LoadOptions, MistakesExitWithTheUsageCodeAndNameTheFlag) {
  ExpectMistake({"--clients=0"}, "--clients");
  ExpectMistake({"--clients=many"}, "--clients");
  ExpectMistake({"--operations=-3"}, "--operations");
  ExpectMistake({"--soak_seconds=-1"}, "--soak_seconds");
  ExpectMistake({"--sample_seconds=0"}, "--sample_seconds");
  ExpectMistake({"--rpc_timeout=0"}, "--rpc_timeout");
  ExpectMistake({"--max_attempts=0"}, "--max_attempts");
  ExpectMistake({"--max_attempts=101"}, "--max_attempts");
  ExpectMistake({"--json=maybe"}, "--json");
  ExpectMistake({"--matrices=a:b:c:d"}, "--matrices");
  ExpectMistake({"--matrices=:ldlt"}, "--matrices");
  ExpectMistake({"--no_such_flag=1"}, "--no_such_flag");
  ExpectMistake({"--server"}, "--server");  // the value is missing
  ExpectMistake({"stray"}, "stray");
}

TEST(LoadOptions, HelpAndVersionExitZero) {
  for (const char* flag : {"--help", "-h", "--version"}) {
    testing::internal::CaptureStdout();
    const ParsedLoadOptions parsed = Parse({flag});
    const std::string out = testing::internal::GetCapturedStdout();
    ASSERT_TRUE(parsed.exit_code) << flag;
    EXPECT_EQ(*parsed.exit_code, 0) << flag;
    EXPECT_NE(out.find("factord-load"), std::string::npos) << flag;
  }
}

}  // namespace
}  // namespace factord::load
