// Chunking of the request streams so that no message exceeds
// ConnectOptions::max_chunk_bytes whatever the values are: chunk sizes are
// bounded by the worst-case encoded size of each element (varint int64: 10
// bytes, varint non-negative int32: 5 bytes, double: 8 bytes) plus a fixed
// allowance for tags, lengths and the small fields. Internal to the client
// library.
#ifndef FACTORD_CLIENT_CSR_CHUNKS_H_
#define FACTORD_CLIENT_CSR_CHUNKS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "client/csr_arrays.h"
#include "client/factord_client.h"
#include "factord/v1/solver.pb.h"

namespace factord::client::internal {

// Tags, length prefixes, the id and the small fields of one message.
inline constexpr int64_t kMessageOverheadBytes = 192;
inline constexpr int64_t kMinChunkBytes = 256;
inline constexpr int64_t kVarint64Bytes = 10;
inline constexpr int64_t kIndexBytes = 5;  // non-negative int32 varint
inline constexpr int64_t kValueBytes = 8;

// Bytes of entries that fit in one request message under `max_chunk_bytes`
// next to an id of `id_bytes`. At least 64, so that every message makes
// progress whatever the id's length.
int64_t PayloadBytes(int64_t max_chunk_bytes, size_t id_bytes = 0);

// Doubles per message of a value stream (UpdateValues, Solve).
inline int64_t ValuesPerChunk(int64_t max_chunk_bytes, size_t id_bytes) {
  return PayloadBytes(max_chunk_bytes, id_bytes) / kValueBytes;
}

// Where the next CSR chunk of an upload starts.
struct CsrCursor {
  int64_t next_row = 0;    // first row whose length is not yet sent
  int64_t next_entry = 0;  // first entry not yet sent
};

// Fills `chunk` from `cursor` on with at most `budget` bytes of entries and
// advances `cursor`. A row's length is sent in the chunk where its first
// entry is (or would be), so the server always knows a row before its
// entries; a long row's entries continue in the following chunks. `m` must
// have passed CheckCsrArrays.
void FillCsrChunk(const CsrArrays& m, int64_t budget, CsrCursor* cursor,
                  ::factord::v1::CsrChunk* chunk);

// Whether every row length and entry of `m` has been sent.
inline bool CsrDone(const CsrArrays& m, const CsrCursor& cursor) {
  return cursor.next_row >= m.n && cursor.next_entry >= m.row_ptr[m.n];
}

}  // namespace factord::client::internal

#endif  // FACTORD_CLIENT_CSR_CHUNKS_H_
