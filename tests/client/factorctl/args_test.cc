#include "client/factorctl/args.h"

#include <string>
#include <vector>

#include "client/status_details.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace factord::factorctl {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<CommandLine> Parse(std::vector<const char*> args) {
  args.insert(args.begin(), "factorctl");
  return ParseCommandLine(static_cast<int>(args.size()), args.data(),
                          "default:1");
}

TEST(ArgsTest, FlagsBeforeAndAfterTheCommand) {
  absl::StatusOr<CommandLine> c = Parse({"--json",
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
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->command, "run");
  EXPECT_EQ(c->positional, std::vector<std::string>{"m.mtx"});
  EXPECT_TRUE(c->json);
  EXPECT_TRUE(c->keep);
  EXPECT_EQ(c->server, "h:9");
  EXPECT_EQ(c->id, "abc");
  EXPECT_EQ(c->token, "t0k");
  EXPECT_EQ(c->rhs_file, "b.rhs");
  EXPECT_EQ(c->factorize.method, "ldlt");
  EXPECT_EQ(c->factorize.ordering, "metis");
  EXPECT_EQ(c->factorize.pivoting, "rook");
  EXPECT_EQ(c->factorize.fill_level, -1);
  EXPECT_EQ(c->factorize.drop_tolerance, 0.01);
  EXPECT_EQ(c->factorize.fill_factor, 3.0);
  EXPECT_EQ(c->factorize.max_block_size, 16);
  EXPECT_EQ(c->solve.krylov, "gmres");
  EXPECT_EQ(c->solve.tolerance, 1e-10);
  EXPECT_EQ(c->solve.max_iterations, 50);
  EXPECT_EQ(c->solve.restart, 30);
}

TEST(ArgsTest, DefaultsAndSwitchValues) {
  absl::StatusOr<CommandLine> c = Parse({"list", "--json=false"});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->server, "default:1");
  EXPECT_FALSE(c->json);
  EXPECT_FALSE(c->factorize.fill_level.has_value());
  EXPECT_EQ(c->factorize.method, "auto");
  EXPECT_EQ(c->solve.tolerance, 0);  // the server's default
}

TEST(ArgsTest, MistakesAreInvalidArgument) {
  const std::vector<std::vector<const char*>> bad = {
      {},
      {"frobnicate"},
      {"run"},
      {"run", "a.mtx", "b.mtx"},
      {"solve"},
      {"list", "--bogus=1"},
      {"run", "m.mtx", "--tol=abc"},
      {"run", "m.mtx", "--max_iterations=1.5"},
      {"run", "m.mtx", "--method"},
      {"run", "m.mtx", "--json=maybe"},
      {"run", "m.mtx", "--structure=hermitian"},
      {"run", "m.mtx", "--timeout=0"},
  };
  for (const auto& args : bad) {
    absl::StatusOr<CommandLine> c = Parse(args);
    EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument)
        << (args.empty() ? "(none)" : args[0]);
  }
  EXPECT_THAT(Parse({"update", "m.mtx"}).status().message(), HasSubstr("--id"));
}

TEST(ArgsTest, TlsFlags) {
  absl::StatusOr<CommandLine> c =
      Parse({"info", "--tls_ca=ca.pem", "--tls_cert", "c.pem",
             "--tls_key=c.key", "--token=t"});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_FALSE(c->tls);
  EXPECT_EQ(c->tls_ca, "ca.pem");
  EXPECT_EQ(c->tls_cert, "c.pem");
  EXPECT_EQ(c->tls_key, "c.key");
  EXPECT_EQ(c->token, "t");
  c = Parse({"list", "--tls"});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(c->tls);
  EXPECT_TRUE(c->tls_ca.empty());
  EXPECT_THAT(std::string(Usage()), HasSubstr("--tls_ca=FILE"));
}

TEST(ArgsTest, JacobiFlags) {
  absl::StatusOr<CommandLine> c =
      Parse({"run", "m.mtx", "--method=ic", "--trisolve=block_jacobi",
             "--trisolve_sweeps", "7", "--sweeps=3", "--epsilon=0.01",
             "--delta=0.9", "--idr_s=6", "--fill_level=1", "--block_size=8"});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->factorize.trisolve, "block_jacobi");
  EXPECT_EQ(c->factorize.trisolve_sweeps, 7);
  EXPECT_EQ(c->factorize.sweeps, 3);  // jacobi_ldlt's, a separate option
  EXPECT_EQ(c->factorize.epsilon, 0.01);
  EXPECT_EQ(c->factorize.delta, 0.9);
  EXPECT_EQ(c->solve.idr_s, 6);
  EXPECT_EQ(c->factorize.fill_level, 1);
  EXPECT_EQ(c->factorize.max_block_size, 8);
  EXPECT_EQ(Parse({"run", "m.mtx", "--trisolve_sweeps=-1"}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Parse({"run", "m.mtx", "--trisolve_sweeps=x"}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(Usage()), HasSubstr("--trisolve_sweeps=N"));
}

TEST(ArgsTest, ScalingAndBlockingFlags) {
  absl::StatusOr<CommandLine> d = Parse({"run", "m.mtx"});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->factorize.scaling, "auto");
  EXPECT_EQ(d->factorize.blocking, "");  // the server's default (rb)
  for (const char* scaling :
       {"auto", "none", "ruiz", "matching", "column_norm"}) {
    const std::string flag = std::string("--scaling=") + scaling;
    absl::StatusOr<CommandLine> c =
        Parse({"run", "m.mtx", "--method=ldlt", flag.c_str()});
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_EQ(c->factorize.scaling, scaling);
  }
  absl::StatusOr<CommandLine> br =
      Parse({"factorize", "--id=m", "--blocking", "br"});
  ASSERT_TRUE(br.ok()) << br.status();
  EXPECT_EQ(br->factorize.blocking, "br");
  absl::Status bad = Parse({"run", "m.mtx", "--scaling=mc64"}).status();
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.message(), HasSubstr("--scaling=mc64"));
  EXPECT_THAT(bad.message(), HasSubstr("matching"));
  bad = Parse({"run", "m.mtx", "--blocking=cosine"}).status();
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.message(), HasSubstr("rb|br"));
  EXPECT_EQ(client::ErrorReason(bad), "INVALID_OPTION");
  EXPECT_THAT(std::string(Usage()), HasSubstr("--scaling=S"));
  EXPECT_THAT(std::string(Usage()), HasSubstr("--blocking=B"));
}

TEST(ArgsTest, EnumFlagsTakeTheContractNames) {
  absl::StatusOr<CommandLine> c =
      Parse({"run", "m.mtx", "--pivoting=bk", "--trisolve=exact",
             "--method=jacobi_ldlt", "--krylov=bicgstab", "--ordering=gmc"});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->factorize.pivoting, "bk");  // still accepted
  c = Parse({"run", "m.mtx", "--pivoting=bunch_kaufman"});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->factorize.pivoting, "bunch_kaufman");
  for (std::vector<const char*> args :
       {std::vector<const char*>{"run", "m.mtx", "--method=cholesky"},
        std::vector<const char*>{"run", "m.mtx", "--krylov=minres"},
        std::vector<const char*>{"run", "m.mtx", "--ordering=nd"},
        std::vector<const char*>{"run", "m.mtx", "--pivoting=partial"},
        std::vector<const char*>{"run", "m.mtx", "--trisolve=gauss"}}) {
    absl::Status s = Parse(args).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << args[2];
    EXPECT_THAT(s.message(), HasSubstr(args[2])) << s;
    EXPECT_EQ(client::ErrorReason(s), "INVALID_OPTION") << args[2];
    EXPECT_EQ(client::FieldViolations(s).size(), 1u) << args[2];
  }
}

TEST(ArgsTest, GenerationsReplaceAndGet) {
  absl::StatusOr<CommandLine> c =
      Parse({"update", "m.mtx", "--id=m", "--expected_generation=12"});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->expected_generation, 12u);
  EXPECT_FALSE(c->replace);
  c = Parse({"upload", "m.mtx", "--id=m", "--replace"});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(c->replace);
  EXPECT_EQ(c->expected_generation, 0u);
  c = Parse({"get", "--id=m"});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->command, "get");
  EXPECT_THAT(Parse({"get"}).status().message(), HasSubstr("--id"));
  EXPECT_EQ(
      Parse({"solve", "--id=m", "--expected_generation=-1"}).status().code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(Usage()), HasSubstr("--expected_generation=G"));
  EXPECT_THAT(std::string(Usage()), HasSubstr("get --id=ID"));
}

TEST(ArgsTest, JsonIsFoundEvenWhenTheLineDoesNotParse) {
  auto json = [](std::vector<const char*> args) {
    args.insert(args.begin(), "factorctl");
    return JsonRequested(static_cast<int>(args.size()), args.data());
  };
  EXPECT_TRUE(json({"--bogus", "list", "--json"}));
  EXPECT_TRUE(json({"-json", "frobnicate"}));
  EXPECT_FALSE(json({"list", "--json=false"}));
  EXPECT_FALSE(json({"list", "--", "--json"}));
  EXPECT_FALSE(json({"list"}));
}

TEST(ArgsTest, HelpNeedsNoCommand) {
  absl::StatusOr<CommandLine> c = Parse({"--help"});
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->help);
  EXPECT_THAT(Usage(), HasSubstr("--server=HOST:PORT"));
}

}  // namespace
}  // namespace factord::factorctl
