/* What the C API tests share: one daemon per test process (started on
 * first use, restartable on its port), connections to it, and the KKT
 * system of test_harness.h in the caller layouts the C API accepts. */
#ifndef FACTORD_TESTS_CAPI_CAPI_FIXTURE_H_
#define FACTORD_TESTS_CAPI_CAPI_FIXTURE_H_

#include <stdint.h>

#include "factord/factord.h"
#include "test_daemon.h"
#include "test_harness.h"

/* The test process's daemon (started by fixture_daemon). */
extern test_daemon g_daemon;

/* Starts the daemon when it is not running (on its old port after a
 * kill); aborts the process when it cannot. */
void fixture_daemon(void);

/* A handle to the daemon: 5 s connect timeout, 30 s RPC timeout,
 * `reupload` as given, and unavailable retries for 10 s. */
factord_handle* fixture_connect(int reupload);

/* An ID unique in this process with the given prefix, in `out` (64
 * bytes). */
void fixture_id(const char* prefix, char* out);

/* The KKT matrix, 0-based CSR of the lower triangle, rows sorted. */
typedef struct kkt_csr {
  int64_t row_ptr[KKT_N + 1];
  int32_t col_idx[KKT_NNZ];
  double values[KKT_NNZ];
  factord_matrix m;
} kkt_csr;
void kkt_csr_lower0(kkt_csr* k);

/* The KKT matrix as 1-based COO of the upper triangle in a shuffled order:
 * entry k is the lower-triangle entry KKT_SHUFFLE[k]. */
enum { KKT_SHUFFLE_N = KKT_NNZ };
extern const int KKT_SHUFFLE[KKT_NNZ];
typedef struct kkt_coo {
  int32_t row_idx[2 * KKT_NNZ];
  int32_t col_idx[2 * KKT_NNZ];
  double values[2 * KKT_NNZ];
  factord_matrix m;
} kkt_coo;
void kkt_coo_upper1_shuffled(kkt_coo* k);

/* Uploads `m` under `id`, factorizes it with ldlt and checks that it
 * solves K x = K x_true (the KKT system scaled by `scale`). */
void check_solves_kkt(factord_handle* h, const char* id, double scale);

#endif /* FACTORD_TESTS_CAPI_CAPI_FIXTURE_H_ */
