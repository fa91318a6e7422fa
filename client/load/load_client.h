// One simulated client of factord-load: a state machine over one matrix at a
// time. With no matrix it uploads one (picked at random from the workload);
// an unfactorized or stale matrix is factorized; a factorized one is solved
// (55%), gets new values (20%: the original values scaled by 1 + k/100,
// which keeps SPD and quasi-definite systems so), is refactorized (10%) or
// released (15%). Every solve (b = ones) must come back `converged` with a
// true relative residual below 1e-6, else it counts as an error. A round
// ends by releasing the matrix still held, so the daemon holds nothing
// between rounds (at most one release beyond `operations` per client).
#ifndef FACTORD_CLIENT_LOAD_LOAD_CLIENT_H_
#define FACTORD_CLIENT_LOAD_LOAD_CLIENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "client/factord_client.h"
#include "client/load/load_options.h"
#include "client/load/load_stats.h"
#include "core/matrix/csr.h"

namespace factord::load {

// A workload matrix, read once and shared read-only by all clients.
struct LoadMatrix {
  MatrixSpec spec;
  CsrMatrix matrix;
};

// Runs `operations` operations on `client` against `matrices` (not empty),
// recording each in `stats`. `seed` makes the mix reproducible.
void RunClientRound(client::Client& client,
                    const std::vector<LoadMatrix>& matrices, int operations,
                    uint64_t seed, bool allow_limits, LoadStats& stats);

}  // namespace factord::load

#endif  // FACTORD_CLIENT_LOAD_LOAD_CLIENT_H_
