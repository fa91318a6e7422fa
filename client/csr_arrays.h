// The client's check of a CsrArrays before it is sent to a daemon or handed
// to the in-process solver. Free of gRPC and protobuf. Internal to the
// client library.
#ifndef FACTORD_CLIENT_CSR_ARRAYS_H_
#define FACTORD_CLIENT_CSR_ARRAYS_H_

#include "absl/status/status.h"
#include "client/factord_client.h"

namespace factord::client::internal {

// OK when `m`'s arrays are consistent (n >= 0, n + 1 non-decreasing row
// pointers from 0, row_ptr[n] column indices and values); else
// InvalidArgument with reason INVALID_MATRIX. Entries themselves are the
// server's to check.
absl::Status CheckCsrArrays(const CsrArrays& m);

}  // namespace factord::client::internal

#endif  // FACTORD_CLIENT_CSR_ARRAYS_H_
