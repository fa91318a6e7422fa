// factord-ipm's command line (client/ipm/ipm_flags.h): both value forms,
// the file argument, the IPM's defaults, and that a mistake exits with the
// usage code and names the flag on stderr.
#include "client/ipm/ipm_flags.h"

#include <string>
#include <vector>

#include "client/cli/cli_app.h"
#include "client/ipm/ipm.h"
#include "gtest/gtest.h"
#include "tests/sdk/flags/argv.h"

namespace factord::ipm {
namespace {

using factord::sdk_flags::Argv;

ParsedIpmFlags Parse(std::vector<std::string> args) {
  Argv argv("factord-ipm", std::move(args));
  return ParseIpmFlags(argv.argc(), argv.argv());
}

TEST(IpmFlags, ServerAndFileAloneGiveTheIpmDefaults) {
  const ParsedIpmFlags parsed = Parse({"--server=h:1", "lp.mps.gz"});
  ASSERT_FALSE(parsed.exit_code);
  const IpmFlags& f = parsed.flags;
  const IpmOptions ipm;
  EXPECT_EQ(f.server, "h:1");
  EXPECT_EQ(f.file, "lp.mps.gz");
  EXPECT_FALSE(f.json);
  EXPECT_EQ(f.method, "ldlt");
  EXPECT_EQ(f.ordering, "auto");
  EXPECT_EQ(f.krylov, "none");
  EXPECT_EQ(f.max_iterations, ipm.max_iterations);
  EXPECT_DOUBLE_EQ(f.tolerance, ipm.tolerance);
  EXPECT_DOUBLE_EQ(f.primal_regularization, ipm.primal_regularization);
  EXPECT_DOUBLE_EQ(f.dual_regularization, ipm.dual_regularization);
  EXPECT_EQ(f.max_attempts, client::RetryPolicy{}.max_attempts);
  EXPECT_EQ(f.iteration_delay_ms, 0);
}

TEST(IpmFlags, EqualsAndSpaceFormsGiveTheSameValues) {
  const ParsedIpmFlags eq =
      Parse({"--server=proxy:9", "--json", "--method=lu", "--ordering=amd",
             "--krylov=gmres", "--max_iterations=50", "--tolerance=1e-6",
             "--primal_regularization=-1", "--dual_regularization=1e-10",
             "--max_attempts=8", "--iteration_delay_ms=300", "forplan.mps"});
  const ParsedIpmFlags space = Parse({"forplan.mps",
                                      "--server",
                                      "proxy:9",
                                      "--json",
                                      "--method",
                                      "lu",
                                      "--ordering",
                                      "amd",
                                      "--krylov",
                                      "gmres",
                                      "--max_iterations",
                                      "50",
                                      "--tolerance",
                                      "1e-6",
                                      "--primal_regularization",
                                      "-1",
                                      "--dual_regularization",
                                      "1e-10",
                                      "--max_attempts",
                                      "8",
                                      "--iteration_delay_ms",
                                      "300"});
  for (const ParsedIpmFlags* parsed : {&eq, &space}) {
    ASSERT_FALSE(parsed->exit_code);
    const IpmFlags& f = parsed->flags;
    EXPECT_EQ(f.server, "proxy:9");
    EXPECT_EQ(f.file, "forplan.mps");
    EXPECT_TRUE(f.json);
    EXPECT_EQ(f.method, "lu");
    EXPECT_EQ(f.ordering, "amd");
    EXPECT_EQ(f.krylov, "gmres");
    EXPECT_EQ(f.max_iterations, 50);
    EXPECT_DOUBLE_EQ(f.tolerance, 1e-6);
    EXPECT_DOUBLE_EQ(f.primal_regularization, -1);
    EXPECT_DOUBLE_EQ(f.dual_regularization, 1e-10);
    EXPECT_EQ(f.max_attempts, 8);
    EXPECT_EQ(f.iteration_delay_ms, 300);
  }
}

TEST(IpmFlags, ARepeatedFlagKeepsItsLastValue) {
  const ParsedIpmFlags parsed =
      Parse({"--server=a:1", "--method=ldlt", "--method=lu", "x.mps"});
  ASSERT_FALSE(parsed.exit_code);
  EXPECT_EQ(parsed.flags.method, "lu");
}

void ExpectMistake(std::vector<std::string> args, const std::string& flag) {
  testing::internal::CaptureStderr();
  const ParsedIpmFlags parsed = Parse(args);
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(parsed.exit_code) << flag;
  EXPECT_EQ(*parsed.exit_code, cli::kUsageExitCode) << flag;
  const std::string first_line = err.substr(0, err.find('\n'));
  EXPECT_EQ(first_line.rfind("factord-ipm: ", 0), 0u) << err;
  EXPECT_NE(first_line.find(flag), std::string::npos) << err;
}

TEST(IpmFlags, MistakesExitWithTheUsageCodeAndNameTheFlag) {
  ExpectMistake({"x.mps"}, "--server");
  ExpectMistake({"--server=a:1"}, "file");
  ExpectMistake({"--server=a:1", "x.mps", "y.mps"}, "y.mps");
  ExpectMistake({"--server=a:1", "x.mps", "--max_attempts=0"},
                "--max_attempts");
  ExpectMistake({"--server=a:1", "x.mps", "--max_attempts=101"},
                "--max_attempts");
  ExpectMistake({"--server=a:1", "x.mps", "--iteration_delay_ms=60001"},
                "--iteration_delay_ms");
  ExpectMistake({"--server=a:1", "x.mps", "--max_iterations=ten"},
                "--max_iterations");
  ExpectMistake({"--server=a:1", "x.mps", "--tolerance=small"}, "--tolerance");
  ExpectMistake({"--server=a:1", "x.mps", "--primal_regularization=x"},
                "--primal_regularization");
  ExpectMistake({"--server=a:1", "x.mps", "--no_such_flag"}, "--no_such_flag");
  // A misspelt flag is named, although --server is then missing too.
  ExpectMistake({"--sever=a:1", "x.mps"}, "--sever");
  ExpectMistake({"x.mps", "--server="}, "--server");
}

TEST(IpmFlags, HelpAndVersionExitZeroWithoutTheRequiredFlags) {
  for (const char* flag : {"--help", "-h", "--version"}) {
    testing::internal::CaptureStdout();
    const ParsedIpmFlags parsed = Parse({flag});
    const std::string out = testing::internal::GetCapturedStdout();
    ASSERT_TRUE(parsed.exit_code) << flag;
    EXPECT_EQ(*parsed.exit_code, 0) << flag;
    EXPECT_NE(out.find("factord-ipm"), std::string::npos) << flag;
  }
}

}  // namespace
}  // namespace factord::ipm
