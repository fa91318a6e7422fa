// MUMPS 5.5 (sequential, from Debian) as a peer in the benchmarks: the same
// symmetric system factorized and solved in the same run on the same machine.
// Linked only into benchmark programs.
#ifndef FACTORD_BENCH_PEERS_MUMPS_PEER_H_
#define FACTORD_BENCH_PEERS_MUMPS_PEER_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/matrix/csr.h"

namespace factord::bench {

struct PeerResult {
  bool ok = false;
  std::string error;
  double analyze_s = 0;
  double factorize_s = 0;        // the successful (last) attempt
  double factorize_total_s = 0;  // every attempt, retries included
  double solve_s = 0;
  int64_t nnz_factor = 0;
  int64_t negative_pivots = -1;  // MUMPS INFOG(12)
  int64_t null_pivots = -1;      // MUMPS INFOG(28)
  int ordering_used = -1;        // MUMPS INFOG(7): 5 = METIS
  int retries = 0;               // factorizations redone with more memory
  // Floating-point operations of the elimination as the peer counts them
  // (MUMPS RINFOG(3); CHOLMOD Common->fl after the analysis), and the order
  // of its largest front (MUMPS INFOG(11); CHOLMOD the most rows of a
  // supernode). 0 when unknown.
  double factor_flops = 0;
  int64_t largest_front = 0;
  std::vector<double> x;
};

// Symmetric indefinite MUMPS (SYM=2), METIS ordering (ICNTL(7)=5), default
// scaling, null-pivot detection (ICNTL(24)=1), no iterative refinement; on
// INFOG(1) = -8/-9 the workspace relaxation ICNTL(14) is doubled and the
// factorization retried, as Ipopt does. `a` is symmetric-lower.
PeerResult RunMumps(const CsrMatrix& a, std::span<const double> b);

// CHOLMOD (supernodal, default ordering) for SPD matrices.
PeerResult RunCholmod(const CsrMatrix& a, std::span<const double> b);

}  // namespace factord::bench

#endif  // FACTORD_BENCH_PEERS_MUMPS_PEER_H_
