#include "test_data.h"

#include <filesystem>

namespace factord::testing {

std::string TestDataPath(const std::string& name) {
  return std::string(FACTORD_TEST_DATA_DIR) + "/" + name;
}

std::string SharedDataPath(const std::string& name) {
  return std::string(FACTORD_SHARED_DATA_DIR) + "/" + name;
}

bool HaveSharedData() {
  return std::filesystem::exists(SharedDataPath("README.md"));
}

}  // namespace factord::testing
