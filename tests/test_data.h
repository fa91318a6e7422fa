// Paths of the data tests read: the small real matrices, KKT systems, LPs
// and QPs copied under tests/data (always there), and the larger sets of
// ../shared/data (optional: a test that needs them skips without them).
#ifndef FACTORD_TESTS_TEST_DATA_H_
#define FACTORD_TESTS_TEST_DATA_H_

#include <cstdint>
#include <string>
#include <vector>

namespace factord::testing {

// tests/data/<name>
std::string TestDataPath(const std::string& name);
// <shared>/<name>, where <shared> is $FACTORD_SHARED_DATA when that is set
// and ../shared/data beside the repository otherwise. Setting
// FACTORD_SHARED_DATA to a folder that does not exist simulates a clone with
// nothing beside it.
std::string SharedDataPath(const std::string& name);
// True when the shared data set is present (its README.md exists).
bool HaveSharedData();
// The message a test skips with when the shared data set is absent:
// "../shared/data is absent (looked in <dir>, ...): skipping <what>". Use as
//   if (!HaveSharedData()) GTEST_SKIP() << SharedDataAbsent("...");
std::string SharedDataAbsent(const std::string& what);

// A system of ../shared/data/kkt: its folder relative to kkt/
// ("cvxqp1_s/2x2/iter_10"), its K_<k>.mtx and its rhs_<k>.rhs.
struct KktSystem {
  std::string name, matrix, rhs;
};
// Every KKT system (2x2 and 3x3, every iteration), sorted by name; empty
// when the shared data set is absent.
std::vector<KktSystem> KktSystems();
// The iteration folders kkt/<problem>/<form>/iter_<k>/ of the shared set
// (its README: one system each), counted from the directories alone, with
// `form` "2x2" or "3x3", or "" for both; 0 when the set is absent. A sweep
// over KktSystems(), which finds the systems by their file names, checks
// its count against this, so that a renamed or missing file fails it
// instead of dropping out.
int64_t KktIterationFolders(const std::string& form = "");

}  // namespace factord::testing

#endif  // FACTORD_TESTS_TEST_DATA_H_
