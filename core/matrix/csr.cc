// StructureName (here rather than with the other enum names so that
// factord_matrix_io provides it to the client programs), and PatternHash: the
// cache key that lets matrices with the same sparsity pattern share one
// analysis (docs/design.md, "Numerical pipeline").
//
// A 64-bit multiply-xorshift hash (the SplitMix64 finalizer applied to each
// word, folded with a multiply) over the dimensions, the structure and the
// two index arrays. It is deterministic across processes and platforms, fast
// enough for 10^8 entries (two column indices per 64-bit word), and not
// cryptographic: equal hashes are a cache hit only together with equal sizes,
// which the caches check as well.
#include "core/matrix/csr.h"

#include <cstdint>
#include <cstring>

namespace factord {
namespace {

constexpr uint64_t kSeed = 0x9e3779b97f4a7c15ULL;
constexpr uint64_t kFold = 0xff51afd7ed558ccdULL;

// SplitMix64 finalizer: a bijection with full avalanche.
inline uint64_t Mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

class PatternHasher {
 public:
  void Add(uint64_t word) {
    // Position-dependent: the running state enters every step.
    state_ = (state_ ^ Mix64(word + count_++ * kSeed)) * kFold;
    state_ ^= state_ >> 29;
  }
  uint64_t Finish() const { return Mix64(state_ ^ count_); }

 private:
  uint64_t state_ = kSeed;
  uint64_t count_ = 0;
};

}  // namespace

absl::string_view StructureName(Structure structure) {
  switch (structure) {
    case Structure::kGeneral:
      return "general";
    case Structure::kSymmetricLower:
      return "symmetric_lower";
    case Structure::kSpdLower:
      return "spd_lower";
  }
  return "unknown";
}

uint64_t PatternHash(const CsrMatrix& a) {
  PatternHasher hasher;
  hasher.Add(static_cast<uint64_t>(a.rows));
  hasher.Add(static_cast<uint64_t>(a.cols));
  hasher.Add(static_cast<uint64_t>(a.structure));
  hasher.Add(static_cast<uint64_t>(a.row_ptr.size()));
  hasher.Add(static_cast<uint64_t>(a.col_idx.size()));
  for (int64_t p : a.row_ptr) hasher.Add(static_cast<uint64_t>(p));
  const size_t nnz = a.col_idx.size();
  size_t k = 0;
  for (; k + 1 < nnz; k += 2) {
    const uint64_t lo = static_cast<uint32_t>(a.col_idx[k]);
    const uint64_t hi = static_cast<uint32_t>(a.col_idx[k + 1]);
    hasher.Add(lo | (hi << 32));
  }
  if (k < nnz) hasher.Add(static_cast<uint32_t>(a.col_idx[k]));
  return hasher.Finish();
}

}  // namespace factord
