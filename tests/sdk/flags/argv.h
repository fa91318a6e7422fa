// An argv for the command-line parsers under test: the program's name,
// then `args`, kept alive as long as the Argv.
#ifndef FACTORD_TESTS_SDK_FLAGS_ARGV_H_
#define FACTORD_TESTS_SDK_FLAGS_ARGV_H_

#include <string>
#include <utility>
#include <vector>

namespace factord::sdk_flags {

class Argv {
 public:
  Argv(std::string program, std::vector<std::string> args)
      : strings_(std::move(args)) {
    strings_.insert(strings_.begin(), std::move(program));
    for (const std::string& s : strings_) pointers_.push_back(s.c_str());
  }
  int argc() const { return static_cast<int>(pointers_.size()); }
  const char* const* argv() const { return pointers_.data(); }

 private:
  std::vector<std::string> strings_;
  std::vector<const char*> pointers_;
};

}  // namespace factord::sdk_flags

#endif  // FACTORD_TESTS_SDK_FLAGS_ARGV_H_
