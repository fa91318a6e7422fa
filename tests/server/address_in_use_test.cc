// AddressInUse: a bound listener's address is in use, a closed one's is
// not, and addresses that name no TCP port are never reported in use.
#include "server/address_in_use.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "gtest/gtest.h"

namespace factord::server {
namespace {

// A listening socket on 127.0.0.1 at a free port; closed on destruction.
class Listener {
 public:
  Listener() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    if (bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
        listen(fd_, 1) == 0) {
      socklen_t size = sizeof(a);
      getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &size);
      port_ = ntohs(a.sin_port);
    }
  }
  ~Listener() { Close(); }
  void Close() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

TEST(AddressInUse, ABoundPortIsInUseUntilClosed) {
  Listener listener;
  ASSERT_GT(listener.port(), 0);
  const std::string port = std::to_string(listener.port());
  EXPECT_TRUE(AddressInUse("127.0.0.1:" + port));
  EXPECT_TRUE(AddressInUse("localhost:" + port));  // resolves to 127.0.0.1 too
  listener.Close();
  EXPECT_FALSE(AddressInUse("127.0.0.1:" + port));
}

TEST(AddressInUse, AddressesWithoutATcpPortAreNotInUse) {
  EXPECT_FALSE(AddressInUse("127.0.0.1:0"));
  EXPECT_FALSE(AddressInUse("unix:/tmp/factord.sock"));
  EXPECT_FALSE(AddressInUse("127.0.0.1"));
  EXPECT_FALSE(AddressInUse("127.0.0.1:http"));
}

}  // namespace
}  // namespace factord::server
