#include "test_data.h"

#include <algorithm>
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

std::vector<KktSystem> KktSystems() {
  namespace fs = std::filesystem;
  std::vector<KktSystem> systems;
  const fs::path root = SharedDataPath("kkt");
  if (!fs::exists(root)) return systems;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const fs::path p = entry.path();
    if (p.extension() != ".mtx" || p.filename().string()[0] != 'K') continue;
    const std::string k = p.stem().string().substr(2);
    systems.push_back({fs::relative(p.parent_path(), root).string(), p.string(),
                       (p.parent_path() / ("rhs_" + k + ".rhs")).string()});
  }
  std::sort(
      systems.begin(), systems.end(),
      [](const KktSystem& x, const KktSystem& y) { return x.name < y.name; });
  return systems;
}

}  // namespace factord::testing
