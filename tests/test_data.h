// Paths of the matrices tests read: the small real ones copied under
// tests/data, and the larger sets in ../shared/data (present in CI).
#ifndef FACTORD_TESTS_TEST_DATA_H_
#define FACTORD_TESTS_TEST_DATA_H_

#include <string>

namespace factord::testing {

// tests/data/<name>
std::string TestDataPath(const std::string& name);
// ../shared/data/<name>
std::string SharedDataPath(const std::string& name);
// True when ../shared/data is present (it is in CI).
bool HaveSharedData();

}  // namespace factord::testing

#endif  // FACTORD_TESTS_TEST_DATA_H_
