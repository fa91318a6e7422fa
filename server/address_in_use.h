// Why a listener could not bind its address. gRPC's server builder and
// cpp-httplib report a failed bind without its errno, so after either fails
// the server binds a plain TCP socket to the same address to tell "another
// socket holds it" (a second daemon on the same port) from other failures.
#ifndef FACTORD_SERVER_ADDRESS_IN_USE_H_
#define FACTORD_SERVER_ADDRESS_IN_USE_H_

#include <string>

namespace factord::server {

// True when a TCP socket (SO_REUSEADDR, not SO_REUSEPORT) cannot bind
// `address`, "host:port" or "[ipv6]:port", because it is in use
// (EADDRINUSE) for one of the host's addresses. False for port 0, for an
// address that is not host:port (a gRPC "unix:" target) or does not
// resolve, and for any other bind error.
bool AddressInUse(const std::string& address);

}  // namespace factord::server

#endif  // FACTORD_SERVER_ADDRESS_IN_USE_H_
