// factorctl's commands against a recording fake of the Solver service, in
// process: which RPCs a command makes (solve --id asks GetMatrix for the
// order, never ListMatrices), what get prints, and failures as JSON.
#include "client/factorctl/commands.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "client/factorctl/args.h"
#include "client/factord_client.h"
#include "client/grpc_status.h"
#include "core/base/error_details.h"
#include "factord/v1/solver.grpc.pb.h"
#include "gmock/gmock.h"
#include "google/rpc/error_details.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"

namespace factord::factorctl {
namespace {

namespace pb = ::factord::v1;
using ::testing::HasSubstr;

// Holds one 3 x 3 matrix "m" at generation 4, factorized at 4; Solve
// answers x = b.
class FakeSolver final : public pb::Solver::Service {
 public:
  grpc::Status GetMatrix(grpc::ServerContext*, const pb::GetMatrixRequest* r,
                         pb::MatrixInfo* reply) override {
    Count("GetMatrix");
    if (r->id() != "m") return grpc::Status(grpc::StatusCode::NOT_FOUND, "no");
    reply->set_id("m");
    reply->set_n(3);
    reply->set_nnz(3);
    reply->set_structure(pb::STRUCTURE_GENERAL);
    reply->set_factorized(true);
    reply->set_method(pb::METHOD_LDLT);
    reply->set_generation(4);
    reply->set_factorized_generation(4);
    return grpc::Status::OK;
  }
  grpc::Status ListMatrices(grpc::ServerContext*,
                            const pb::ListMatricesRequest*,
                            pb::ListMatricesReply*) override {
    Count("ListMatrices");
    return grpc::Status::OK;
  }
  grpc::Status Solve(grpc::ServerContext*,
                     grpc::ServerReaderWriter<pb::SolveReply, pb::SolveRequest>*
                         stream) override {
    Count("Solve");
    pb::SolveRequest request;
    while (stream->Read(&request)) {
      {
        std::lock_guard lock(mu_);
        if (request.has_options())
          expected_generation_ = request.expected_generation();
      }
      pb::SolveReply reply;
      reply.set_rhs_index(request.rhs_index());
      reply.set_offset(request.offset());
      *reply.mutable_values() = request.values();
      reply.set_last(request.last());
      reply.set_status(pb::SOLVE_STATUS_CONVERGED);
      stream->Write(reply);
    }
    return grpc::Status::OK;
  }

  int calls(const std::string& rpc) {
    std::lock_guard lock(mu_);
    return calls_[rpc];
  }
  uint64_t expected_generation() {
    std::lock_guard lock(mu_);
    return expected_generation_;
  }

 private:
  void Count(const std::string& rpc) {
    std::lock_guard lock(mu_);
    ++calls_[rpc];
  }
  std::mutex mu_;
  std::map<std::string, int> calls_;
  uint64_t expected_generation_ = 0;
};

class CommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port);
    builder.RegisterService(&service_);
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    absl::StatusOr<std::unique_ptr<client::Client>> c =
        client::Client::Connect("127.0.0.1:" + std::to_string(port));
    ASSERT_TRUE(c.ok()) << c.status();
    client_ = *std::move(c);
  }
  void TearDown() override { server_->Shutdown(); }

  absl::Status Run(std::vector<const char*> args, Outcome* outcome) {
    args.insert(args.begin(), "factorctl");
    ParsedCommandLine parsed = ParseCommandLine(static_cast<int>(args.size()),
                                                args.data(), "unused:1");
    if (parsed.exit_code) return parsed.mistake;
    return RunCommand(parsed.line, *client_, outcome);
  }

  FakeSolver service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<client::Client> client_;
};

TEST_F(CommandsTest, SolveByIdAsksForThatMatrixOnly) {
  Outcome outcome;
  ASSERT_TRUE(
      Run({"solve", "--id=m", "--expected_generation=4"}, &outcome).ok());
  ASSERT_TRUE(outcome.solve.has_value());
  EXPECT_EQ(outcome.solve->x, (std::vector<double>{1, 1, 1}));  // b = ones
  EXPECT_EQ(service_.calls("GetMatrix"), 1);
  EXPECT_EQ(service_.calls("ListMatrices"), 0);
  EXPECT_EQ(service_.calls("Solve"), 1);
  EXPECT_EQ(service_.expected_generation(), 4u);
}

TEST_F(CommandsTest, GetPrintsTheMatrixWithItsGenerations) {
  Outcome outcome;
  ASSERT_TRUE(Run({"get", "--id=m"}, &outcome).ok());
  ASSERT_TRUE(outcome.matrix.has_value());
  const std::string json = OutcomeJson(outcome);
  EXPECT_THAT(json, HasSubstr(R"({"schema":"factorctl/1","command":"get")"));
  EXPECT_THAT(json, HasSubstr(R"("id":"m")"));
  EXPECT_THAT(json, HasSubstr(R"("matrix_method":"ldlt")"));
  EXPECT_THAT(json, HasSubstr(R"("generation":4,"factorized_generation":4)"));
  const std::string text = OutcomeText(outcome);
  EXPECT_THAT(text, HasSubstr("generation 4"));
  EXPECT_THAT(text, HasSubstr("factorized (ldlt, generation 4)"));
  EXPECT_EQ(service_.calls("ListMatrices"), 0);

  absl::Status missing = Run({"get", "--id=x"}, &outcome);
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
}

TEST_F(CommandsTest, LocalFileProblemsHaveLocalReasons) {
  const std::string stem =
      ::testing::TempDir() + "/commands_test." + std::to_string(::getpid());
  const std::string wide = stem + ".wide.mtx";
  const std::string broken = stem + ".broken.mtx";
  const std::string rhs = stem + ".rhs";
  {
    std::ofstream(wide) << "%%MatrixMarket matrix coordinate real general\n"
                           "2 3 1\n1 3 1.0\n";
    std::ofstream(broken) << "%%MatrixMarket matrix coordinate real general\n"
                             "2 2 1\n1 9 1.0\n";
    std::ofstream(rhs) << "1\nx\n3\n";
  }
  const std::string rhs_flag = "--rhs=" + rhs;
  const std::vector<std::pair<std::vector<const char*>, std::string>> cases = {
      {{"upload", "/no/such/file.mtx"}, kReasonFileUnreadable},
      {{"upload", wide.c_str()}, kReasonInvalidMatrix},
      {{"run", broken.c_str()}, kReasonInvalidMatrix},
      {{"solve", "--id=m", "--rhs=/no/such/b.rhs"}, kReasonFileUnreadable},
      {{"solve", "--id=m", rhs_flag.c_str()}, kReasonInvalidRequest}};
  for (const auto& [args, reason] : cases) {
    Outcome outcome;
    absl::Status s = Run(args, &outcome);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << args.back();
    EXPECT_EQ(FailureReason(s), reason) << args.back() << ": " << s;
  }
  // Nothing was uploaded: the files were refused before any call.
  EXPECT_EQ(service_.calls("Solve"), 0);
  for (const std::string& f : {wide, broken, rhs}) std::remove(f.c_str());
}

TEST(FailureJsonTest, CodeReasonMessageAndDetails) {
  absl::Status plain = absl::NotFoundError("matrix 'x' not found");
  EXPECT_EQ(FailureJson("solve", "x", plain),
            R"({"schema":"factorctl/1","command":"solve","id":"x",)"
            R"("code":"NOT_FOUND","reason":"",)"
            R"("message":"matrix 'x' not found"})");
  EXPECT_EQ(FailureText(plain), "NOT_FOUND: matrix 'x' not found");

  absl::Status busy = client::internal::ClientError(
      absl::StatusCode::kResourceExhausted, "QUEUE_FULL", "queue \"full\"",
      "options.x", {{"queue", "factorize"}});
  SetRetryDelay(busy, absl::Milliseconds(500));
  EXPECT_EQ(FailureJson("factorize", "", busy),
            R"({"schema":"factorctl/1","command":"factorize",)"
            R"("code":"RESOURCE_EXHAUSTED",)"
            R"("reason":"QUEUE_FULL","message":"queue \"full\"",)"
            R"("retry_delay_s":0.5,"metadata":{"queue":"factorize"},)"
            R"("field_violations":[{"field":"options.x",)"
            R"("description":"queue \"full\""}]})");
  EXPECT_EQ(FailureText(busy),
            "RESOURCE_EXHAUSTED: queue \"full\" [QUEUE_FULL]");
  // A command line that did not parse: no command, no id; a local reason.
  absl::Status usage = LocalError(absl::StatusCode::kInvalidArgument,
                                  kReasonUsage, "no command");
  EXPECT_EQ(FailureJson("", "", usage),
            R"({"schema":"factorctl/1","code":"INVALID_ARGUMENT",)"
            R"("reason":"USAGE","message":"no command"})");
  EXPECT_EQ(FailureText(usage), "INVALID_ARGUMENT: no command [USAGE]");
  // A daemon's reason wins over a local one.
  absl::Status both = client::internal::ClientError(absl::StatusCode::kNotFound,
                                                    "NOT_FOUND", "gone");
  both.SetPayload(kLocalReasonKey, absl::Cord("USAGE"));
  EXPECT_EQ(FailureReason(both), "NOT_FOUND");
  EXPECT_EQ(FailureReason(absl::OkStatus()), "");
}

}  // namespace
}  // namespace factord::factorctl
