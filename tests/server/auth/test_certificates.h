// Test certificates made by `openssl` at test time: a CA and a server
// certificate for 127.0.0.1 signed by it, under a name prefix, so that a
// test can rotate from one set to another.
#ifndef FACTORD_TESTS_SERVER_AUTH_TEST_CERTIFICATES_H_
#define FACTORD_TESTS_SERVER_AUTH_TEST_CERTIFICATES_H_

#include <cstdlib>
#include <fstream>
#include <string>

namespace factord::server::testing {

// Runs a shell command quietly; true on exit status 0.
inline bool RunQuietly(const std::string& command) {
  return std::system((command + " >/dev/null 2>&1").c_str()) == 0;
}

inline bool HaveOpenssl() { return RunQuietly("openssl version"); }

// In `dir`: <p>ca.pem/<p>ca.key (a CA) and <p>server.pem/<p>server.key
// (SAN IP 127.0.0.1 and localhost, signed by <p>ca), for prefix <p>.
inline bool MakeServerCertificates(const std::string& dir,
                                   const std::string& p) {
  const std::string key = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1";
  const std::string cd = "cd '" + dir + "' && ";
  std::ofstream(dir + "/" + p + "server.ext")
      << "subjectAltName=IP:127.0.0.1,DNS:localhost\n"
      << "extendedKeyUsage=serverAuth\n";
  return RunQuietly(cd + "openssl req -x509 " + key +
                    " -nodes -days 2 -keyout " + p + "ca.key -out " + p +
                    "ca.pem -subj /CN=" + p + "ca" +
                    " -addext basicConstraints=critical,CA:TRUE" +
                    " -addext keyUsage=critical,keyCertSign,cRLSign") &&
         RunQuietly(cd + "openssl req " + key + " -nodes -keyout " + p +
                    "server.key -out " + p + "server.csr -subj /CN=" + p +
                    "server") &&
         RunQuietly(cd + "openssl x509 -req -in " + p + "server.csr -CA " + p +
                    "ca.pem -CAkey " + p + "ca.key -CAcreateserial -days 2 " +
                    "-out " + p + "server.pem -extfile " + p + "server.ext");
}

}  // namespace factord::server::testing

#endif  // FACTORD_TESTS_SERVER_AUTH_TEST_CERTIFICATES_H_
