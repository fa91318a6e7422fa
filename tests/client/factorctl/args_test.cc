#include "client/factorctl/args.h"

#include <string>
#include <utility>
#include <vector>

#include "client/factorctl/failure.h"
#include "client/status_details.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace factord::factorctl {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Parses `args` after the program's name; what it printed on stdout and
// stderr (--help, a mistake) goes to `out` and `err` when given.
ParsedCommandLine ParseArgs(std::vector<const char*> args,
                            std::string* out = nullptr,
                            std::string* err = nullptr) {
  args.insert(args.begin(), "factorctl");
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  ParsedCommandLine parsed =
      ParseCommandLine(static_cast<int>(args.size()), args.data(), "default:1");
  const std::string printed_out = ::testing::internal::GetCapturedStdout();
  const std::string printed_err = ::testing::internal::GetCapturedStderr();
  if (out != nullptr) *out = printed_out;
  if (err != nullptr) *err = printed_err;
  return parsed;
}

// The command line of `args`; fails the test when it is not one to run.
CommandLine Parse(std::vector<const char*> args) {
  ParsedCommandLine parsed = ParseArgs(args);
  EXPECT_FALSE(parsed.exit_code.has_value()) << parsed.mistake;
  EXPECT_TRUE(parsed.mistake.ok()) << parsed.mistake;
  return parsed.line;
}

// The mistake of `args`; fails the test when there is none.
absl::Status Mistake(std::vector<const char*> args) {
  ParsedCommandLine parsed = ParseArgs(args);
  EXPECT_EQ(parsed.exit_code, kExitUsage)
      << (args.empty() ? "(none)" : args[0]);
  return parsed.mistake;
}

TEST(ArgsTest, FlagsBeforeAndAfterTheCommand) {
  CommandLine c = Parse({"--json",
                         "--server=h:9",
                         "run",
                         "m.mtx",
                         "--method=ldlt",
                         "--krylov",
                         "gmres",
                         "--tol=1e-10",
                         "--max_iterations=50",
                         "--restart",
                         "30",
                         "--rhs=b.rhs",
                         "--fill_level=-1",
                         "--drop_tol=0.01",
                         "--fill_factor=3",
                         "--block_size=16",
                         "--ordering=metis",
                         "--pivoting=rook",
                         "--token",
                         "t0k",
                         "--id=abc",
                         "--keep"});
  EXPECT_EQ(c.command, "run");
  EXPECT_EQ(c.positional, std::vector<std::string>{"m.mtx"});
  EXPECT_TRUE(c.json);
  EXPECT_TRUE(c.keep);
  EXPECT_EQ(c.server, "h:9");
  EXPECT_EQ(c.id, "abc");
  EXPECT_EQ(c.token, "t0k");
  EXPECT_EQ(c.rhs_file, "b.rhs");
  EXPECT_EQ(c.factorize.method, "ldlt");
  EXPECT_EQ(c.factorize.ordering, "metis");
  EXPECT_EQ(c.factorize.pivoting, "rook");
  EXPECT_EQ(c.factorize.fill_level, -1);
  EXPECT_EQ(c.factorize.drop_tolerance, 0.01);
  EXPECT_EQ(c.factorize.fill_factor, 3.0);
  EXPECT_EQ(c.factorize.max_block_size, 16);
  EXPECT_EQ(c.solve.krylov, "gmres");
  EXPECT_EQ(c.solve.tolerance, 1e-10);
  EXPECT_EQ(c.solve.max_iterations, 50);
  EXPECT_EQ(c.solve.restart, 30);
}

TEST(ArgsTest, DefaultsAndSwitchValues) {
  CommandLine c = Parse({"list", "--json=false"});
  EXPECT_EQ(c.command, "list");
  EXPECT_EQ(c.server, "default:1");
  EXPECT_FALSE(c.json);
  EXPECT_FALSE(c.factorize.fill_level.has_value());
  EXPECT_FALSE(c.timeout_s.has_value());
  EXPECT_EQ(c.factorize.method, "auto");
  EXPECT_EQ(c.solve.tolerance, 0);  // the server's default
  EXPECT_TRUE(Parse({"--json=true", "info"}).json);
  EXPECT_EQ(Parse({"info", "--timeout", "2.5"}).timeout_s, 2.5);
}

TEST(ArgsTest, MistakesAreUsageErrorsWithExitCodeTwo) {
  const std::vector<std::vector<const char*>> bad = {
      {},
      {"frobnicate"},
      {"run"},
      {"run", "a.mtx", "b.mtx"},
      {"solve"},
      {"list", "--bogus=1"},
      {"--bogus", "list"},
      {"list", "info"},
      {"run", "m.mtx", "--tol=abc"},
      {"run", "m.mtx", "--max_iterations=1.5"},
      {"run", "m.mtx", "--method"},
      {"run", "m.mtx", "--json=maybe"},
      {"run", "m.mtx", "--structure=hermitian"},
      {"run", "m.mtx", "--timeout=0"},
      {"run", "m.mtx", "--timeout=-1"},
  };
  for (const auto& args : bad) {
    const std::string what = args.empty() ? "(none)" : args.back();
    std::string out, err;
    ParsedCommandLine parsed = ParseArgs(args, &out, &err);
    EXPECT_EQ(parsed.exit_code, kExitUsage) << what;
    EXPECT_EQ(parsed.mistake.code(), absl::StatusCode::kInvalidArgument)
        << what;
    EXPECT_EQ(FailureReason(parsed.mistake), kReasonUsage) << what;
    // Reported once on stderr, as every client program does; stdout is
    // left to the failure object.
    EXPECT_EQ(out, "") << what;
    EXPECT_THAT(
        err, StartsWith("factorctl: " + std::string(parsed.mistake.message())))
        << what;
    EXPECT_THAT(err, HasSubstr("factorctl --help")) << what;
  }
  EXPECT_THAT(Mistake({"update", "m.mtx"}).message(), HasSubstr("--id"));
  EXPECT_THAT(Mistake({"frobnicate"}).message(), HasSubstr("frobnicate"));
  EXPECT_THAT(Mistake({"list", "--bogus=1"}).message(), HasSubstr("--bogus"));
  EXPECT_THAT(Mistake({"run", "m.mtx", "--timeout=0"}).message(),
              HasSubstr("--timeout"));
  // The command, when recognized, is kept for the failure object.
  EXPECT_EQ(ParseArgs({"update", "m.mtx"}).line.command, "update");
}

TEST(ArgsTest, LastValueWinsAndDashDashEndsTheFlags) {
  CommandLine c = Parse({"--method=ldlt", "run", "m.mtx", "--method=lu",
                         "--json", "--json=false"});
  EXPECT_EQ(c.factorize.method, "lu");
  EXPECT_FALSE(c.json);
  c = Parse({"--json", "run", "--", "-m.mtx"});
  EXPECT_EQ(c.positional, std::vector<std::string>{"-m.mtx"});
  EXPECT_TRUE(c.json);
  EXPECT_THAT(Mistake({"run", "--", "a.mtx", "--keep"}).message(),
              HasSubstr("--keep"));
}

TEST(ArgsTest, TlsFlags) {
  CommandLine c = Parse({"info", "--tls_ca=ca.pem", "--tls_cert", "c.pem",
                         "--tls_key=c.key", "--token=t"});
  EXPECT_FALSE(c.tls);
  EXPECT_EQ(c.tls_ca, "ca.pem");
  EXPECT_EQ(c.tls_cert, "c.pem");
  EXPECT_EQ(c.tls_key, "c.key");
  EXPECT_EQ(c.token, "t");
  c = Parse({"list", "--tls"});
  EXPECT_TRUE(c.tls);
  EXPECT_TRUE(c.tls_ca.empty());
  EXPECT_THAT(HelpText("x:1"), HasSubstr("--tls_ca FILE"));
}

TEST(ArgsTest, JacobiFlags) {
  CommandLine c =
      Parse({"run", "m.mtx", "--method=ic", "--trisolve=block_jacobi",
             "--trisolve_sweeps", "7", "--sweeps=3", "--epsilon=0.01",
             "--delta=0.9", "--idr_s=6", "--fill_level=1", "--block_size=8"});
  EXPECT_EQ(c.factorize.trisolve, "block_jacobi");
  EXPECT_EQ(c.factorize.trisolve_sweeps, 7);
  EXPECT_EQ(c.factorize.sweeps, 3);  // jacobi_ldlt's, a separate option
  EXPECT_EQ(c.factorize.epsilon, 0.01);
  EXPECT_EQ(c.factorize.delta, 0.9);
  EXPECT_EQ(c.solve.idr_s, 6);
  EXPECT_EQ(c.factorize.fill_level, 1);
  EXPECT_EQ(c.factorize.max_block_size, 8);
  EXPECT_EQ(Mistake({"run", "m.mtx", "--trisolve_sweeps=-1"}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Mistake({"run", "m.mtx", "--trisolve_sweeps=x"}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(HelpText("x:1"), HasSubstr("--trisolve_sweeps N=0"));
}

TEST(ArgsTest, OptionFlagsByNameGoIntoTheNamedOptions) {
  CommandLine d = Parse({"run", "m.mtx"});
  EXPECT_TRUE(d.factorize.named.empty());  // unset: the server's defaults
  CommandLine c =
      Parse({"run", "m.mtx", "--pivot_threshold=0.1", "--deterministic"});
  EXPECT_EQ(c.factorize.named.at("pivot_threshold"),
            client::OptionValue("0.1"));
  EXPECT_EQ(c.factorize.named.at("deterministic"), client::OptionValue("true"));
  c = Parse({"--deterministic=false", "factorize", "--id=m",
             "--pivot_threshold", "0.5"});
  EXPECT_EQ(c.factorize.named.at("deterministic"),
            client::OptionValue("false"));
  EXPECT_EQ(c.factorize.named.at("pivot_threshold"),
            client::OptionValue("0.5"));
  // A switch takes no separate value: FILE stays FILE.
  c = Parse({"run", "--deterministic", "m.mtx"});
  EXPECT_EQ(c.positional, std::vector<std::string>{"m.mtx"});

  for (const auto& [flag, field] :
       {std::pair<const char*, const char*>{"--pivot_threshold=x",
                                            "options.pivot_threshold"},
        {"--deterministic=maybe", "options.deterministic"}}) {
    absl::Status bad = Mistake({"run", "m.mtx", flag});
    EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument) << flag;
    EXPECT_EQ(client::ErrorReason(bad), "INVALID_OPTION") << flag;
    ASSERT_EQ(client::FieldViolations(bad).size(), 1u) << flag;
    EXPECT_EQ(client::FieldViolations(bad)[0].first, field);
    EXPECT_THAT(bad.message(), HasSubstr(std::string(flag).substr(
                                   0, std::string(flag).find('='))));
  }
  EXPECT_THAT(HelpText("x:1"), HasSubstr("--pivot_threshold U"));
  // The server is deterministic whatever --deterministic says: the help
  // must not promise a mode the flag does not select.
  EXPECT_THAT(
      HelpText("x:1"),
      HasSubstr("no effect: the server is always bitwise reproducible"));
}

TEST(ArgsTest, ScalingAndBlockingFlags) {
  CommandLine d = Parse({"run", "m.mtx"});
  EXPECT_EQ(d.factorize.scaling, "auto");
  EXPECT_EQ(d.factorize.blocking, "");  // the server's default (rb)
  for (const char* scaling :
       {"auto", "none", "ruiz", "matching", "column_norm"}) {
    const std::string flag = std::string("--scaling=") + scaling;
    CommandLine c = Parse({"run", "m.mtx", "--method=ldlt", flag.c_str()});
    EXPECT_EQ(c.factorize.scaling, scaling);
  }
  CommandLine br = Parse({"factorize", "--id=m", "--blocking", "br"});
  EXPECT_EQ(br.factorize.blocking, "br");
  absl::Status bad = Mistake({"run", "m.mtx", "--scaling=mc64"});
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.message(), HasSubstr("--scaling"));
  EXPECT_THAT(bad.message(), HasSubstr("mc64"));
  EXPECT_THAT(bad.message(), HasSubstr("matching"));
  bad = Mistake({"run", "m.mtx", "--blocking=cosine"});
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.message(), HasSubstr("rb|br"));
  EXPECT_EQ(client::ErrorReason(bad), "INVALID_OPTION");
  EXPECT_THAT(HelpText("x:1"), HasSubstr("--scaling TEXT:{auto,none,ruiz"));
  EXPECT_THAT(HelpText("x:1"), HasSubstr("--blocking TEXT:{rb,br}"));
}

TEST(ArgsTest, EnumFlagsTakeTheContractNames) {
  CommandLine c =
      Parse({"run", "m.mtx", "--pivoting=bk", "--trisolve=exact",
             "--method=jacobi_ldlt", "--krylov=bicgstab", "--ordering=gmc"});
  EXPECT_EQ(c.factorize.pivoting, "bk");  // still accepted
  c = Parse({"run", "m.mtx", "--pivoting=bunch_kaufman"});
  EXPECT_EQ(c.factorize.pivoting, "bunch_kaufman");
  for (std::vector<const char*> args :
       {std::vector<const char*>{"run", "m.mtx", "--method=cholesky"},
        std::vector<const char*>{"run", "m.mtx", "--krylov=minres"},
        std::vector<const char*>{"run", "m.mtx", "--ordering=nd"},
        std::vector<const char*>{"run", "m.mtx", "--pivoting=partial"},
        std::vector<const char*>{"run", "m.mtx", "--trisolve=gauss"},
        std::vector<const char*>{"--method", "cholesky", "run", "m.mtx"}}) {
    const std::string flag = args[0] == std::string("run") ? args[2] : args[0];
    const std::string name = flag.substr(0, flag.find('='));
    absl::Status s = Mistake(args);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << flag;
    EXPECT_THAT(s.message(), HasSubstr(name)) << s;
    EXPECT_EQ(client::ErrorReason(s), "INVALID_OPTION") << flag;
    EXPECT_EQ(FailureReason(s), "INVALID_OPTION") << flag;
    EXPECT_EQ(client::FieldViolations(s).size(), 1u) << flag;
  }
}

TEST(ArgsTest, GenerationsReplaceAndGet) {
  CommandLine c =
      Parse({"update", "m.mtx", "--id=m", "--expected_generation=12"});
  EXPECT_EQ(c.expected_generation, 12u);
  EXPECT_FALSE(c.replace);
  c = Parse({"upload", "m.mtx", "--id=m", "--replace"});
  EXPECT_TRUE(c.replace);
  EXPECT_EQ(c.expected_generation, 0u);
  c = Parse({"get", "--id=m"});
  EXPECT_EQ(c.command, "get");
  EXPECT_TRUE(c.positional.empty());
  EXPECT_THAT(Mistake({"get"}).message(), HasSubstr("--id"));
  EXPECT_EQ(Mistake({"solve", "--id=m", "--expected_generation=-1"}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(HelpText("x:1"), HasSubstr("--expected_generation G=0"));
  EXPECT_THAT(HelpText("x:1"), HasSubstr("get "));
}

TEST(ArgsTest, JsonIsFoundEvenWhenTheLineDoesNotParse) {
  auto json = [](std::vector<const char*> args) {
    args.insert(args.begin(), "factorctl");
    return JsonRequested(static_cast<int>(args.size()), args.data());
  };
  EXPECT_TRUE(json({"--bogus", "list", "--json"}));
  EXPECT_TRUE(json({"--json=true", "frobnicate"}));
  EXPECT_FALSE(json({"list", "--json=false"}));
  EXPECT_FALSE(json({"list", "--", "--json"}));
  EXPECT_FALSE(json({"list"}));
}

TEST(ArgsTest, HelpAndVersionExitZero) {
  std::string out, err;
  ParsedCommandLine help = ParseArgs({"--help"}, &out, &err);
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(help.mistake.ok());
  EXPECT_EQ(err, "");
  EXPECT_EQ(out, HelpText("default:1"));
  // Every flag, with its default where it has one.
  for (const char* flag : {"--server HOST:PORT=default:1",
                           "--token",
                           "--tls ",
                           "--tls_ca",
                           "--tls_cert",
                           "--tls_key",
                           "--timeout",
                           "--id",
                           "--replace",
                           "--expected_generation G=0",
                           "--structure",
                           "=auto",
                           "--keep",
                           "--method",
                           "--ordering",
                           "--pivoting",
                           "--scaling",
                           "--blocking",
                           "--trisolve",
                           "--fill_level",
                           "--drop_tol",
                           "--fill_factor",
                           "--block_size B=0",
                           "--sweeps N=0",
                           "--epsilon",
                           "--delta",
                           "--trisolve_sweeps N=0",
                           "--deterministic",
                           "--pivot_threshold",
                           "--krylov",
                           "--tol X=0",
                           "--max_iterations N=0",
                           "--restart M=0",
                           "--idr_s S=0",
                           "--rhs",
                           "--solution",
                           "--json",
                           "--version",
                           "upload",
                           "update",
                           "factorize",
                           "solve",
                           "run",
                           "release",
                           "get",
                           "list",
                           "info"}) {
    EXPECT_THAT(out, HasSubstr(flag));
  }
  // Per-command help, after the command.
  ParsedCommandLine run_help = ParseArgs({"run", "--help"}, &out, &err);
  EXPECT_EQ(run_help.exit_code, 0);
  EXPECT_THAT(out, HasSubstr("factorctl run [OPTIONS] FILE"));
  EXPECT_THAT(out, HasSubstr("--keep"));
  EXPECT_EQ(out, HelpText("default:1", "run"));

  ParsedCommandLine version = ParseArgs({"--version"}, &out, &err);
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_THAT(out, StartsWith("factorctl "));
  EXPECT_EQ(out.find('\n'), out.size() - 1);
  EXPECT_GT(out.size(), std::string("factorctl \n").size());
}

}  // namespace
}  // namespace factord::factorctl
