// CSR arrays in chunks (see csr_chunks.h).
#include "client/csr_chunks.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "client/status_payloads.h"

namespace factord::client::internal {

int64_t PayloadBytes(int64_t max_chunk_bytes, size_t id_bytes) {
  return std::max<int64_t>(64, std::max(max_chunk_bytes, kMinChunkBytes) -
                                   kMessageOverheadBytes -
                                   static_cast<int64_t>(id_bytes));
}

void FillCsrChunk(const CsrArrays& m, int64_t budget, CsrCursor* cursor,
                  ::factord::v1::CsrChunk* chunk) {
  const int64_t nnz = m.row_ptr[m.n];
  int64_t& next_row = cursor->next_row;
  int64_t& next_entry = cursor->next_entry;
  while (true) {
    if (next_row < m.n && m.row_ptr[next_row] <= next_entry) {
      if (budget < kVarint64Bytes) return;
      // Declare every row that starts here, as many as fit.
      int64_t rows = 0;
      while (next_row + rows < m.n &&
             m.row_ptr[next_row + rows] <= next_entry &&
             (rows + 1) * kVarint64Bytes <= budget) {
        ++rows;
      }
      for (int64_t r = next_row; r < next_row + rows; ++r) {
        chunk->add_row_nnz(m.row_ptr[r + 1] - m.row_ptr[r]);
      }
      next_row += rows;
      budget -= rows * kVarint64Bytes;
    } else if (next_entry < nnz) {
      const int64_t limit = next_row < m.n ? m.row_ptr[next_row] : nnz;
      const int64_t take =
          std::min(limit - next_entry, budget / (kIndexBytes + kValueBytes));
      if (take <= 0) return;
      chunk->mutable_col_idx()->Add(m.col_idx.data() + next_entry,
                                    m.col_idx.data() + next_entry + take);
      chunk->mutable_values()->Add(m.values.data() + next_entry,
                                   m.values.data() + next_entry + take);
      next_entry += take;
      budget -= take * (kIndexBytes + kValueBytes);
    } else {
      return;
    }
  }
}

}  // namespace factord::client::internal
