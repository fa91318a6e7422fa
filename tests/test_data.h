// Paths of the matrices tests read: the small real ones copied under
// tests/data, and the larger sets in ../shared/data (present in CI).
#ifndef FACTORD_TESTS_TEST_DATA_H_
#define FACTORD_TESTS_TEST_DATA_H_

#include <string>
#include <vector>

namespace factord::testing {

// tests/data/<name>
std::string TestDataPath(const std::string& name);
// ../shared/data/<name>
std::string SharedDataPath(const std::string& name);
// True when ../shared/data is present (it is in CI).
bool HaveSharedData();

// A system of ../shared/data/kkt: its folder relative to kkt/
// ("cvxqp1_s/2x2/iter_10"), its K_<k>.mtx and its rhs_<k>.rhs.
struct KktSystem {
  std::string name, matrix, rhs;
};
// Every KKT system (2x2 and 3x3, every iteration), sorted by name; empty
// when the shared data set is absent.
std::vector<KktSystem> KktSystems();

}  // namespace factord::testing

#endif  // FACTORD_TESTS_TEST_DATA_H_
