// The daemon on a device backend without a GPU: a host-run backend
// (tests/core/linalg/reference_device_kernels.h) is registered for kCuda
// before Server::Start, so --backend=auto picks it as a GPU node picks the
// CUDA backend; every job gets its own device context (stream), the
// factorization and solve kernels run on it, ServerInfo and /metrics name
// the backend, and --device_cache_bytes refuses with RESOURCE_EXHAUSTED.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "httplib.h"
#include "server/service_fixture.h"
#include "tests/core/linalg/reference_device_kernels.h"

namespace factord::server::testing {
namespace {

class DeviceBackendServiceTest : public ServiceTest {
 protected:
  void SetUp() override {
    kernels_ = std::make_shared<::factord::testing::ReferenceDeviceKernels>();
    ASSERT_TRUE(RegisterDeviceKernels(Backend::kCuda, kernels_).ok());
  }
  void TearDown() override {
    stub_.reset();
    server_.reset();
    UnregisterDeviceKernels(Backend::kCuda);
  }

  std::shared_ptr<::factord::testing::ReferenceDeviceKernels> kernels_;
};

TEST_F(DeviceBackendServiceTest, AutoPicksTheDeviceAndEveryJobGetsAStream) {
  StartServer(TestConfig());  // --backend=auto
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("m", Tridiagonal(40), 16, &info).ok());
  v1::FactorizeReply fr;
  grpc::Status s = Factorize("m", v1::METHOD_BLOCK_JACOBI, &fr);
  ASSERT_TRUE(s.ok()) << s.error_message();
  std::map<uint32_t, Solution> out;
  s = Solve("m", {std::vector<double>(40, 1.0)}, 40, &out);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_LE(out[0].report.relative_residual(), 1e-8);

  EXPECT_EQ(kernels_->streams(), 2);  // one per job: factorize, solve
  EXPECT_EQ(kernels_->calls("InvertDiagonalBlocks"), 1);
  EXPECT_GT(kernels_->calls("ApplyBlockDiagonal"), 0);
  EXPECT_GT(kernels_->calls("Spmv"), 0);

  grpc::ClientContext ictx;
  v1::ServerInfoReply server_info;
  ASSERT_TRUE(stub_->ServerInfo(&ictx, {}, &server_info).ok());
  EXPECT_EQ(server_info.backend(), "cuda");
  EXPECT_EQ(server_info.device(),
            "cuda: 1 CUDA device, device 0: host (reference kernels)");

  httplib::Client http("127.0.0.1", server_->metrics_port());
  auto res = http.Get("/metrics");
  ASSERT_TRUE(res);
  for (const char* needle :
       {"factord_build_info{backend=\"cuda\"",
        "factord_solve_duration_seconds_count{backend=\"cuda\",method="
        "\"block_jacobi\"} 1",
        "factord_device_memory_bytes 0"}) {
    EXPECT_NE(res->body.find(needle), std::string::npos) << needle;
  }
}

TEST_F(DeviceBackendServiceTest,
       DeviceBudgetIsResourceExhaustedNamingTheLimit) {
  ServerConfig config = TestConfig();
  config.device_cache_bytes = 256;  // less than the 40 x 40 matrix's arrays
  StartServer(config);
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("m", Tridiagonal(40), 16, &info).ok());
  v1::FactorizeReply fr;
  grpc::Status s = Factorize("m", v1::METHOD_BLOCK_JACOBI, &fr);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
      << s.error_message();
  EXPECT_NE(s.error_message().find("device_cache_bytes = 256"),
            std::string::npos)
      << s.error_message();
}

TEST_F(DeviceBackendServiceTest, CpuIsHonouredWhenADeviceIsPresent) {
  ServerConfig config = TestConfig();
  config.backend = "cpu";
  StartServer(config);
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("m", Tridiagonal(40), 16, &info).ok());
  v1::FactorizeReply fr;
  ASSERT_TRUE(Factorize("m", v1::METHOD_BLOCK_JACOBI, &fr).ok());
  EXPECT_EQ(kernels_->streams(), 0);
  EXPECT_EQ(kernels_->total_calls(), 0);
}

}  // namespace
}  // namespace factord::server::testing
