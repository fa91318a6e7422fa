// factorctl end to end: the built binary (FACTORCTL_PATH) against a factord
// Server in-process on loopback; its stdout is parsed as JSON and its exit
// status, stderr and (with --json) failure object checked on failures.
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/matrix/matrix_market.h"
#include "gtest/gtest.h"
#include "server/config.h"
#include "server/server.h"
#include "test_data.h"

namespace factord::factorctl {
namespace {

// A minimal JSON value and parser: enough to check factorctl's output.
struct Json {
  enum Type { kNull, kBool, kNumber, kString, kArray, kObject } type = kNull;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<Json> items;
  std::map<std::string, Json> members;

  bool Has(const std::string& key) const {
    return type == kObject && members.count(key) > 0;
  }
  const Json& operator[](const std::string& key) const {
    static const Json null;
    auto it = members.find(key);
    return it == members.end() ? null : it->second;
  }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& s) : s_(s) {}

  // The value of the whole text; false on any syntax error or trailing text.
  bool ParseAll(Json* out) {
    if (!Value(out)) return false;
    Space();
    return pos_ == s_.size();
  }

 private:
  void Space() {
    while (pos_ < s_.size() &&
           std::isspace(static_cast<unsigned char>(s_[pos_])))
      ++pos_;
  }
  bool Eat(char c) {
    Space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool Literal(const char* word) {
    const std::string w(word);
    if (s_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }
  bool String(std::string* out) {
    if (!Eat('"')) return false;
    while (pos_ < s_.size()) {
      char c = s_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        *out += c;
        continue;
      }
      if (pos_ >= s_.size()) return false;
      char e = s_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          *out += e;
          break;
        case 'b':
          *out += '\b';
          break;
        case 'f':
          *out += '\f';
          break;
        case 'n':
          *out += '\n';
          break;
        case 'r':
          *out += '\r';
          break;
        case 't':
          *out += '\t';
          break;
        case 'u': {
          if (pos_ + 4 > s_.size()) return false;
          const int code = std::stoi(s_.substr(pos_, 4), nullptr, 16);
          pos_ += 4;
          if (code >= 0x80) return false;  // factorctl escapes controls only
          *out += static_cast<char>(code);
          break;
        }
        default:
          return false;
      }
    }
    return false;
  }
  bool Value(Json* v) {
    Space();
    if (pos_ >= s_.size()) return false;
    const char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      v->type = Json::kObject;
      if (Eat('}')) return true;
      do {
        std::string key;
        Json item;
        if (!String(&key) || !Eat(':') || !Value(&item)) return false;
        if (v->members.count(key)) return false;  // duplicate key
        v->members.emplace(key, std::move(item));
      } while (Eat(','));
      return Eat('}');
    }
    if (c == '[') {
      ++pos_;
      v->type = Json::kArray;
      if (Eat(']')) return true;
      do {
        Json item;
        if (!Value(&item)) return false;
        v->items.push_back(std::move(item));
      } while (Eat(','));
      return Eat(']');
    }
    if (c == '"') {
      v->type = Json::kString;
      return String(&v->text);
    }
    if (Literal("true")) {
      v->type = Json::kBool;
      v->boolean = true;
      return true;
    }
    if (Literal("false")) {
      v->type = Json::kBool;
      return true;
    }
    if (Literal("null")) return true;
    size_t used = 0;
    try {
      v->number = std::stod(s_.substr(pos_), &used);
    } catch (...) {
      return false;
    }
    v->type = Json::kNumber;
    pos_ += used;
    return used > 0;
  }

  const std::string& s_;
  size_t pos_ = 0;
};

struct Invocation {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class FactorctlTest : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef FACTORCTL_PATH
    GTEST_SKIP() << "factorctl is not built";
#else
    server::ServerConfig config;
    config.listen = "127.0.0.1:0";
    config.metrics_listen = "";
    config.threads = 1;
    absl::StatusOr<std::unique_ptr<server::Server> > s =
        server::Server::Start(config);
    ASSERT_TRUE(s.ok()) << s.status();
    server_ = *std::move(s);
    address_ = "127.0.0.1:" + std::to_string(server_->port());
#endif
  }

  // Runs factorctl with `args` (already shell-quoted where needed) and the
  // environment prefix `env` ("FACTORD_SERVER=... ").
  Invocation Factorctl(const std::string& args, const std::string& env = "") {
    Invocation run;
#ifdef FACTORCTL_PATH
    // ctest runs tests in parallel: names unique to this process.
    const std::string stem =
        ::testing::TempDir() + "/factorctl." + std::to_string(::getpid());
    const std::string out = stem + ".out";
    const std::string err = stem + ".err";
    const std::string command = "env -u FACTORD_SERVER -u FACTORD_TOKEN " +
                                env + " '" FACTORCTL_PATH "' " + args + " >'" +
                                out + "' 2>'" + err + "'";
    const int status = std::system(command.c_str());
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = ReadAll(out);
    run.err = ReadAll(err);
    std::remove(out.c_str());
    std::remove(err.c_str());
#endif
    return run;
  }

  std::string Server() { return "--server=" + address_; }

  static Json ParseJson(const Invocation& run) {
    Json json;
    EXPECT_TRUE(JsonParser(run.out).ParseAll(&json))
        << "not one JSON value: " << run.out;
    EXPECT_EQ(json.type, Json::kObject);
    // Exactly one object on one line.
    EXPECT_EQ(run.out.find('\n'), run.out.size() - 1) << run.out;
    return json;
  }

  std::unique_ptr<server::Server> server_;
  std::string address_;
};

TEST_F(FactorctlTest, RunPrintsOneJsonObjectWithEveryKey) {
  Invocation run =
      Factorctl("--json run " + testing::TestDataPath("494_bus.mtx") +
                " --method=block_jacobi --krylov=cg " + Server());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  Json j = ParseJson(run);
  EXPECT_EQ(j["schema"].text, "factorctl/1");
  for (const char* key :
       {"id", "n", "nnz", "method", "factor_status", "status",
        "relative_residual", "backward_error", "iterations", "inertia",
        "inertia_reliable", "perturbed_pivots", "two_by_two_pivots",
        "nnz_factor", "analysis_reused", "timings"}) {
    EXPECT_TRUE(j.Has(key)) << key << " missing in " << run.out;
  }
  EXPECT_EQ(j["id"].text.size(), 36u);  // a client-made UUID
  EXPECT_EQ(j["n"].number, 494);
  EXPECT_EQ(j["nnz"].number, 1080);  // the lower triangle of 494_bus
  EXPECT_EQ(j["method"].text, "block_jacobi");
  EXPECT_EQ(j["factor_status"].text, "ok");
  EXPECT_EQ(j["status"].text, "converged");
  EXPECT_EQ(j["relative_residual"].type, Json::kNumber);
  EXPECT_LE(j["relative_residual"].number, 1e-8);
  EXPECT_GT(j["iterations"].number, 0);
  EXPECT_EQ(j["inertia_reliable"].type, Json::kBool);
  for (const char* key : {"positive", "negative", "zero"}) {
    EXPECT_TRUE(j["inertia"].Has(key)) << key;
  }
  const Json& t = j["timings"];
  for (const char* key : {"upload_s", "preprocess_s", "analyze_s",
                          "factorize_s", "solve_s", "total_s"}) {
    ASSERT_TRUE(t.Has(key)) << key;
    EXPECT_GE(t[key].number, 0) << key;
  }
  EXPECT_GE(t["total_s"].number, t["upload_s"].number);

  // run releases the matrix afterwards.
  Invocation list = Factorctl("list --json " + Server());
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(ParseJson(list)["matrices"].items.size(), 0u);
}

TEST_F(FactorctlTest, StepByStepWithServerFromTheEnvironment) {
  const std::string env = "FACTORD_SERVER=" + address_;
  Invocation up = Factorctl("--json upload " +
                                testing::TestDataPath("resolve/A_spd01.mtx") +
                                " --id=spd01 --structure=spd",
                            env);
  ASSERT_EQ(up.exit_code, 0) << up.err;
  Json u = ParseJson(up);
  EXPECT_EQ(u["id"].text, "spd01");
  EXPECT_EQ(u["n"].number, 1024);
  EXPECT_EQ(u["structure"].text, "spd_lower");
  EXPECT_EQ(u["generation"].number, 1);
  EXPECT_TRUE(u["timings"].Has("upload_s"));

  Invocation fac =
      Factorctl("factorize --json --id spd01 --method=block_jacobi", env);
  ASSERT_EQ(fac.exit_code, 0) << fac.err;
  EXPECT_EQ(ParseJson(fac)["method"].text, "block_jacobi");

  const std::string solution =
      ::testing::TempDir() + "/x." + std::to_string(::getpid()) + ".txt";
  Invocation sol = Factorctl("solve --id=spd01 --krylov=cg --json --rhs=" +
                                 testing::TestDataPath("resolve/b_spd01.mtx") +
                                 " --solution=" + solution,
                             env);
  ASSERT_EQ(sol.exit_code, 0) << sol.err;
  Json s = ParseJson(sol);
  EXPECT_EQ(s["status"].text, "converged");
  EXPECT_LE(s["relative_residual"].number, 1e-8);
  EXPECT_EQ(s["n"].number, 1024);
  EXPECT_TRUE(s["timings"].Has("solve_s"));
  std::istringstream x(ReadAll(solution));
  int lines = 0;
  for (std::string line; std::getline(x, line);) ++lines;
  EXPECT_EQ(lines, 1024);

  // Without --json: a readable summary.
  Invocation text = Factorctl("solve --id=spd01 --krylov=cg", env);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("relative residual"), std::string::npos) << text.out;

  Invocation list = Factorctl("list --json", env);
  ASSERT_EQ(list.exit_code, 0) << list.err;
  Json l = ParseJson(list);
  ASSERT_EQ(l["matrices"].items.size(), 1u);
  EXPECT_EQ(l["matrices"].items[0]["id"].text, "spd01");

  Invocation info = Factorctl("info --json", env);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_EQ(ParseJson(info)["backend"].text, "cpu");

  Invocation get = Factorctl("get --json --id=spd01", env);
  ASSERT_EQ(get.exit_code, 0) << get.err;
  Json g = ParseJson(get);
  EXPECT_EQ(g["id"].text, "spd01");
  EXPECT_EQ(g["n"].number, 1024);
  EXPECT_EQ(g["generation"].number, 1);
  EXPECT_EQ(g["factorized_generation"].number, 1);
  EXPECT_EQ(g["matrix_method"].text, "block_jacobi");

  Invocation rel = Factorctl("release --json --id=spd01", env);
  ASSERT_EQ(rel.exit_code, 0) << rel.err;
  EXPECT_GT(ParseJson(rel)["bytes_freed"].number, 0);
}

TEST_F(FactorctlTest, IcWithBlockJacobiTrisolvesConverges) {
  // The ic flags reach the daemon: more block-Jacobi sweeps (S4 eqs. 4-5)
  // must give fewer PCG iterations.
  std::map<int, double> iterations;
  for (int sweeps : {1, 20}) {
    Invocation run =
        Factorctl("--json run " + testing::TestDataPath("494_bus.mtx") +
                  " --method=ic --fill_level=0 --trisolve=block_jacobi" +
                  " --trisolve_sweeps=" + std::to_string(sweeps) +
                  " --krylov=cg --tol=1e-6 --max_iterations=3000 " + Server());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    Json j = ParseJson(run);
    EXPECT_EQ(j["method"].text, "ic");
    EXPECT_EQ(j["status"].text, "converged") << run.out;
    EXPECT_LE(j["relative_residual"].number, 1e-6);
    iterations[sweeps] = j["iterations"].number;
  }
  EXPECT_GT(iterations[1], 2 * iterations[20]);
}

TEST_F(FactorctlTest, LdltWithMatchingScalingOnKktSystems) {
  // --scaling reaches the daemon: ldlt reports the matching's 2x2
  // candidates only when it ran. The 2x2 KKT form [-(H+D) A^T; A D2] is
  // quasi-definite, so its inertia is one negative pivot per negative
  // diagonal entry and one positive per positive one (../shared/data
  // README), counted here from the file.
  const std::vector<std::string> systems = {"kkt/hs21/2x2/iter_5/K_5",
                                            "kkt/cvxqp1_s/2x2/iter_10/K_10",
                                            "kkt/qpcboei1/2x2/iter_10/K_10"};
  for (const std::string& system : systems) {
    const std::string dir = system.substr(0, system.rfind('/') + 1);
    const std::string k = system.substr(system.rfind('_') + 1);
    const std::string matrix = testing::TestDataPath(system + ".mtx");
    const std::string rhs = testing::TestDataPath(dir + "rhs_" + k + ".rhs");
    absl::StatusOr<CsrMatrix> a = ReadMatrixMarket(matrix);
    ASSERT_TRUE(a.ok()) << system << ": " << a.status();
    int64_t negative = 0, positive = 0;
    for (int64_t i = 0; i < a->rows; ++i) {
      for (int64_t e = a->row_ptr[i]; e < a->row_ptr[i + 1]; ++e) {
        if (a->col_idx[e] != i) continue;
        negative += a->values[e] < 0;
        positive += a->values[e] > 0;
      }
    }
    ASSERT_EQ(negative + positive, a->rows) << system << ": zero diagonal";
    ASSERT_GT(negative, 0);
    ASSERT_GT(positive, 0);
    for (const std::string scaling : {"matching", "ruiz"}) {
      Invocation run = Factorctl("--json run " + matrix + " --rhs=" + rhs +
                                 " --method=ldlt --scaling=" + scaling +
                                 " --tol=1e-10 " + Server());
      ASSERT_EQ(run.exit_code, 0)
          << system << " " << scaling << ": " << run.err;
      Json j = ParseJson(run);
      EXPECT_EQ(j["method"].text, "ldlt");
      EXPECT_EQ(j["factor_status"].text, "ok") << system << " " << run.out;
      EXPECT_TRUE(j["inertia_reliable"].boolean) << system << " " << run.out;
      EXPECT_EQ(j["inertia"]["negative"].number, negative) << system;
      EXPECT_EQ(j["inertia"]["positive"].number, positive) << system;
      EXPECT_EQ(j["inertia"]["zero"].number, 0) << system;
      EXPECT_LE(j["relative_residual"].number, 1e-10)
          << system << " " << scaling << ": " << run.out;
      std::printf(
          "[ measured ] factorctl ldlt --scaling=%s %s: inertia (+%g, -%g, "
          "0 %g) relres %.1e\n",
          scaling.c_str(), system.c_str(), j["inertia"]["positive"].number,
          j["inertia"]["negative"].number, j["inertia"]["zero"].number,
          j["relative_residual"].number);
      EXPECT_EQ(j["factor_message"].text.find("matching scaling") !=
                    std::string::npos,
                scaling == "matching")
          << system << " " << scaling << ": " << j["factor_message"].text;
    }
  }
}

TEST_F(FactorctlTest, BlockIldltBlockingReachesTheDaemon) {
  // hs21 iter_5: BR groups rows that are not neighbours after AMD, so it
  // finds fewer blocks than RB (core tests: 8 against 10); both solve.
  const std::string matrix =
      testing::TestDataPath("kkt/hs21/2x2/iter_5/K_5.mtx");
  std::map<std::string, double> blocks;
  for (const std::string blocking : {"rb", "br"}) {
    Invocation run = Factorctl("--json run " + matrix +
                               " --method=block_ildlt --blocking=" + blocking +
                               " " + Server());
    ASSERT_EQ(run.exit_code, 0) << blocking << ": " << run.err;
    Json j = ParseJson(run);
    EXPECT_EQ(j["method"].text, "block_ildlt");
    EXPECT_EQ(j["status"].text, "converged") << run.out;
    EXPECT_LE(j["relative_residual"].number, 1e-8);
    blocks[blocking] = j["blocks"].number;
  }
  EXPECT_GT(blocks["br"], 0);
  EXPECT_LT(blocks["br"], blocks["rb"]);
}

// An option the method does not apply is refused by the daemon: exit 1,
// INVALID_OPTION naming it, whether a factorization or a solve option.
TEST_F(FactorctlTest, OptionsTheMethodDoesNotApplyAreRefused) {
  const std::string matrix = testing::TestDataPath("494_bus.mtx");
  for (const auto& [flags, field] :
       {std::pair<std::string, std::string>{"--method=ldlt "
                                            "--scaling=column_norm",
                                            "options.scaling"},
        {"--method=ldlt --krylov=cg", "options.krylov"},
        {"--method=ldlt --max_iterations=20", "options.max_iterations"}}) {
    Invocation run =
        Factorctl("--json run " + matrix + " " + flags + " " + Server());
    EXPECT_EQ(run.exit_code, 1) << flags << ": " << run.err;
    Json j = ParseJson(run);
    EXPECT_EQ(j["code"].text, "INVALID_ARGUMENT") << flags;
    EXPECT_EQ(j["reason"].text, "INVALID_OPTION") << flags;
    EXPECT_NE(j["message"].text.find(field), std::string::npos)
        << flags << ": " << j["message"].text;
  }
}

TEST_F(FactorctlTest, ReplaceAndExpectedGeneration) {
  const std::string matrix = testing::TestDataPath("494_bus.mtx");
  Invocation up = Factorctl("--json upload " + matrix + " --id=g " + Server());
  ASSERT_EQ(up.exit_code, 0) << up.err;
  EXPECT_EQ(ParseJson(up)["generation"].number, 1);

  Invocation again =
      Factorctl("--json upload " + matrix + " --id=g " + Server());
  EXPECT_NE(again.exit_code, 0);
  Json a = ParseJson(again);
  EXPECT_EQ(a["code"].text, "ALREADY_EXISTS");
  EXPECT_EQ(a["reason"].text, "ALREADY_EXISTS");

  Invocation replaced =
      Factorctl("--json upload " + matrix + " --id=g --replace " + Server());
  ASSERT_EQ(replaced.exit_code, 0) << replaced.err;
  EXPECT_EQ(ParseJson(replaced)["generation"].number, 2);

  Invocation update = Factorctl("--json update " + matrix +
                                " --id=g --expected_generation=2 " + Server());
  ASSERT_EQ(update.exit_code, 0) << update.err;
  EXPECT_EQ(ParseJson(update)["generation"].number, 3);

  // The same update retried is refused, with both generations.
  Invocation retry = Factorctl("--json update " + matrix +
                               " --id=g --expected_generation=2 " + Server());
  EXPECT_NE(retry.exit_code, 0);
  EXPECT_EQ(retry.err.rfind("ABORTED:", 0), 0u) << retry.err;
  EXPECT_NE(retry.err.find("[GENERATION_MISMATCH]"), std::string::npos)
      << retry.err;
  Json r = ParseJson(retry);
  EXPECT_EQ(r["command"].text, "update");
  EXPECT_EQ(r["id"].text, "g");
  EXPECT_EQ(r["code"].text, "ABORTED");
  EXPECT_EQ(r["reason"].text, "GENERATION_MISMATCH");
  EXPECT_EQ(r["metadata"]["expected"].text, "2");
  EXPECT_EQ(r["metadata"]["current"].text, "3");
  EXPECT_FALSE(r["message"].text.empty());
}

TEST_F(FactorctlTest, FailuresExitNonZeroWithTheCodeName) {
  const std::string bad =
      ::testing::TempDir() + "/bad." + std::to_string(::getpid()) + ".mtx";
  {
    std::ofstream f(bad);
    f << "%%MatrixMarket matrix coordinate real general\n"
         "5 5 2\n1 1 1.0\n2 0 3.0\n";
  }
  Invocation r = Factorctl("--json run " + bad + " " + Server());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("INVALID_ARGUMENT: line 4:", 0), 0u) << r.err;
  // With --json the failure is also one object on stdout.
  Json failure = ParseJson(r);
  EXPECT_EQ(failure["schema"].text, "factorctl/1");
  EXPECT_EQ(failure["command"].text, "run");
  EXPECT_EQ(failure["code"].text, "INVALID_ARGUMENT");
  EXPECT_EQ(failure["reason"].text, "INVALID_MATRIX");  // found locally
  EXPECT_EQ(failure["message"].text.rfind("line 4:", 0), 0u)
      << failure["message"].text;

  r = Factorctl("--json factorize --id=unknown " + Server());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("NOT_FOUND:", 0), 0u) << r.err;
  failure = ParseJson(r);
  EXPECT_EQ(failure["code"].text, "NOT_FOUND");
  EXPECT_EQ(failure["reason"].text, "NOT_FOUND");
  EXPECT_EQ(failure["id"].text, "unknown");

  // Command-line mistakes: exit code 2, reported on stderr the way every
  // client program does (client/cli/cli_app.h).
  r = Factorctl("--json --method=cholesky run m.mtx " + Server());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("factorctl: --method:", 0), 0u) << r.err;
  failure = ParseJson(r);
  EXPECT_EQ(failure["code"].text, "INVALID_ARGUMENT");
  EXPECT_EQ(failure["reason"].text, "INVALID_OPTION");
  ASSERT_EQ(failure["field_violations"].items.size(), 1u);
  EXPECT_EQ(failure["field_violations"].items[0]["field"].text, "method");

  r = Factorctl("--bogus list --json " + Server());
  EXPECT_EQ(r.exit_code, 2);
  failure = ParseJson(r);
  EXPECT_EQ(failure["code"].text, "INVALID_ARGUMENT");
  EXPECT_EQ(failure["reason"].text, "USAGE");

  r = Factorctl("run /no/such/file.mtx " + Server());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("INVALID_ARGUMENT:", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("[FILE_UNREADABLE]"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");  // no --json: nothing on stdout

  r = Factorctl("factorize --id=unknown " + Server());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("NOT_FOUND:", 0), 0u) << r.err;

  r = Factorctl("run " + testing::TestDataPath("494_bus.mtx") +
                " --method=cholesky " + Server());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("factorctl: --method: unknown method 'cholesky'", 0),
            0u)
      << r.err;

  r = Factorctl("run " + testing::TestDataPath("494_bus.mtx") + " --rhs=" +
                testing::TestDataPath("resolve/b_spd01.mtx") + " " + Server());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("INVALID_ARGUMENT:", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("[INVALID_REQUEST]"), std::string::npos) << r.err;

  r = Factorctl("--bogus list " + Server());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("factorctl: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("--bogus"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(FactorctlTest, HelpAndVersion) {
  Invocation help = Factorctl("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.err, "");
  EXPECT_NE(help.out.find("--method TEXT:{auto,"), std::string::npos)
      << help.out;
  EXPECT_NE(help.out.find("--server HOST:PORT=127.0.0.1:50051"),
            std::string::npos)
      << help.out;
  // $FACTORD_SERVER is --server's default, shown as such.
  help = Factorctl("--help", "FACTORD_SERVER=" + address_);
  EXPECT_NE(help.out.find("--server HOST:PORT=" + address_), std::string::npos)
      << help.out;
  Invocation solve_help = Factorctl("solve --help");
  EXPECT_EQ(solve_help.exit_code, 0);
  EXPECT_NE(solve_help.out.find("factorctl solve"), std::string::npos)
      << solve_help.out;

  Invocation version = Factorctl("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("factorctl ", 0), 0u) << version.out;
  EXPECT_EQ(version.out.find('\n'), version.out.size() - 1) << version.out;
}

}  // namespace
}  // namespace factord::factorctl
