#include "test_data.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace factord::testing {

std::string TestDataPath(const std::string& name) {
  return std::string(FACTORD_TEST_DATA_DIR) + "/" + name;
}

namespace {

// The environment wins over the configured default so that one build can be
// run both with and without the shared set.
std::string SharedDataDir() {
  const char* dir = std::getenv("FACTORD_SHARED_DATA");
  return dir != nullptr && *dir != '\0' ? dir : FACTORD_SHARED_DATA_DIR;
}

}  // namespace

std::string SharedDataPath(const std::string& name) {
  return SharedDataDir() + "/" + name;
}

bool HaveSharedData() {
  return std::filesystem::exists(SharedDataPath("README.md"));
}

std::string SharedDataAbsent(const std::string& what) {
  return "../shared/data is absent (looked in " + SharedDataDir() +
         ", set by FACTORD_SHARED_DATA or beside the repository): skipping " +
         what;
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

int64_t KktIterationFolders(const std::string& form) {
  namespace fs = std::filesystem;
  const fs::path root = SharedDataPath("kkt");
  if (!fs::is_directory(root)) return 0;
  int64_t count = 0;
  for (const auto& problem : fs::directory_iterator(root)) {
    if (!problem.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(problem.path())) {
      if (!f.is_directory() || (!form.empty() && f.path().filename() != form)) {
        continue;
      }
      for (const auto& iteration : fs::directory_iterator(f.path())) {
        const std::string name = iteration.path().filename().string();
        if (iteration.is_directory() && name.rfind("iter_", 0) == 0) ++count;
      }
    }
  }
  return count;
}

}  // namespace factord::testing
