// The start-up backend choice as a pure function of --backend, "built with
// CUDA" and the device probe: what a GPU node and a CPU node pick, and the
// reason each logs.
#include "server/backend_choice.h"

#include "gtest/gtest.h"

namespace factord::server {
namespace {

DeviceProbe NoDriver() {
  DeviceProbe probe;
  probe.reason =
      "CUDA driver version is insufficient for CUDA runtime version (error "
      "35)";
  return probe;
}

DeviceProbe OneGpu() {
  DeviceProbe probe;
  probe.count = 1;
  probe.device = "NVIDIA A100-SXM4-80GB (sm_80)";
  return probe;
}

TEST(BackendChoice, AutoPicksCudaOnlyWhenBuiltAndADeviceIsPresent) {
  auto gpu = ChooseBackend("auto", true, OneGpu());
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  EXPECT_EQ(gpu->backend, Backend::kCuda);
  EXPECT_EQ(gpu->reason,
            "1 CUDA device, device 0: NVIDIA A100-SXM4-80GB (sm_80)");

  auto no_driver = ChooseBackend("auto", true, NoDriver());
  ASSERT_TRUE(no_driver.ok());
  EXPECT_EQ(no_driver->backend, Backend::kCpu);
  EXPECT_EQ(no_driver->reason,
            "no CUDA device: CUDA driver version is insufficient for CUDA "
            "runtime version (error 35)");

  // A device is irrelevant when the binary has no CUDA backend.
  auto not_built = ChooseBackend("auto", false, OneGpu());
  ASSERT_TRUE(not_built.ok());
  EXPECT_EQ(not_built->backend, Backend::kCpu);
  EXPECT_EQ(not_built->reason, "this build has no CUDA backend");

  DeviceProbe zero;  // count 0 without a reason
  EXPECT_EQ(ChooseBackend("auto", true, zero)->reason,
            "no CUDA device: none found");
}

TEST(BackendChoice, CudaWithoutADeviceOrBuildIsFailedPrecondition) {
  auto no_device = ChooseBackend("cuda", true, NoDriver());
  EXPECT_EQ(no_device.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(no_device.status().message(),
            "backend cuda requested, but no CUDA device: CUDA driver version "
            "is insufficient for CUDA runtime version (error 35); use "
            "--backend=cpu or auto");
  auto not_built = ChooseBackend("cuda", false, OneGpu());
  EXPECT_EQ(not_built.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(not_built.status().message(),
            "backend cuda requested, but this build has no CUDA backend; use "
            "--backend=cpu or auto");
  auto gpu = ChooseBackend("cuda", true, OneGpu());
  ASSERT_TRUE(gpu.ok());
  EXPECT_EQ(gpu->backend, Backend::kCuda);
}

TEST(BackendChoice, CpuIsAlwaysCpuAndUnknownIsInvalid) {
  for (bool built : {false, true}) {
    auto cpu = ChooseBackend("cpu", built, OneGpu());
    ASSERT_TRUE(cpu.ok());
    EXPECT_EQ(cpu->backend, Backend::kCpu);
    EXPECT_EQ(cpu->reason, "requested");
  }
  EXPECT_EQ(ChooseBackend("tpu", true, OneGpu()).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ChooseBackend("CUDA", true, OneGpu()).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace factord::server
