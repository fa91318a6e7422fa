/* The C API's tests, in C: main, the shared fixture (capi_fixture.h) and
 * the table of tests defined in capi_*_test.c. `capi_test` runs them all,
 * `capi_test NAME...` the named ones (one ctest entry each). Each process
 * starts its own factord (FACTORD_BINARY) on a free loopback port. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_fixture.h"
#include "capi_tests.h"

int g_failures = 0;
test_daemon g_daemon;

void fixture_daemon(void) {
  if (g_daemon.pid > 0) return;
  if (test_daemon_start(&g_daemon, FACTORD_BINARY, g_daemon.port, NULL) != 0) {
    fprintf(stderr, "cannot start %s\n", FACTORD_BINARY);
    exit(2);
  }
}

factord_handle* fixture_connect(int reupload) {
  factord_connect_options o;
  factord_handle* h = NULL;
  fixture_daemon();
  factord_connect_options_init(&o);
  o.connect_timeout_ms = 5000;
  o.rpc_timeout_ms = 30000;
  o.unavailable_retry_ms = 10000;
  o.reupload = reupload;
  if (factord_connect(g_daemon.address, &o, &h) != FACTORD_OK) {
    fprintf(stderr, "connect to %s: %s\n", g_daemon.address,
            factord_last_error_message());
    exit(2);
  }
  return h;
}

void fixture_id(const char* prefix, char* out) {
  static int counter = 0;
  snprintf(out, 64, "%s-%d", prefix, ++counter);
}

void kkt_csr_lower0(kkt_csr* k) {
  int i;
  memset(k, 0, sizeof *k);
  for (i = 0; i < KKT_NNZ; ++i) {
    k->col_idx[i] = KKT_COL[i];
    k->values[i] = KKT_VAL[i];
    ++k->row_ptr[KKT_ROW[i] + 1];
  }
  for (i = 0; i < KKT_N; ++i) k->row_ptr[i + 1] += k->row_ptr[i];
  factord_matrix_init(&k->m);
  k->m.n = KKT_N;
  k->m.format = FACTORD_CSR;
  k->m.structure = FACTORD_SYMMETRIC;
  k->m.triangle = FACTORD_LOWER;
  k->m.base = 0;
  k->m.row_ptr = k->row_ptr;
  k->m.col_idx = k->col_idx;
  k->m.values = k->values;
}

const int KKT_SHUFFLE[KKT_NNZ] = {7, 2, 9, 0, 5, 3, 8, 1, 6, 4};

void kkt_coo_upper1_shuffled(kkt_coo* k) {
  int i;
  memset(k, 0, sizeof *k);
  for (i = 0; i < KKT_NNZ; ++i) {
    const int e = KKT_SHUFFLE[i];
    k->row_idx[i] = KKT_COL[e] + 1; /* transposed: upper triangle */
    k->col_idx[i] = KKT_ROW[e] + 1;
    k->values[i] = KKT_VAL[e];
  }
  factord_matrix_init(&k->m);
  k->m.n = KKT_N;
  k->m.format = FACTORD_COO;
  k->m.structure = FACTORD_SYMMETRIC;
  k->m.triangle = FACTORD_UPPER;
  k->m.base = 1;
  k->m.nnz = KKT_NNZ;
  k->m.row_idx = k->row_idx;
  k->m.col_idx = k->col_idx;
  k->m.values = k->values;
}

void check_solves_kkt(factord_handle* h, const char* id, double scale) {
  factord_factorize_options f;
  double b[KKT_N], x[KKT_N];
  factord_factor_report r;
  factord_factorize_options_init(&f);
  f.method = "ldlt";
  CHECK_OK(factord_factorize(h, id, &f, NULL));
  CHECK_OK(factord_last_factor_report(h, id, &r));
  CHECK(r.positive == 3 && r.negative == 2 && r.zero == 0);
  kkt_multiply(KKT_X, scale, NULL, b);
  CHECK_OK(factord_solve(h, id, NULL, 1, b, x));
  CHECK_NEAR_VEC(x, KKT_X, KKT_N, 1e-10);
}

static const named_test kTests[] = {
    {"connect", test_connect},
    {"lazy_connect_retry", test_lazy_connect_retry},
    {"last_error_copy", test_last_error_copy},
    {"thread_local_errors", test_thread_local_errors},
    {"reupload_after_restart", test_reupload_after_restart},
    {"upload_layouts", test_upload_layouts},
    {"upload_errors", test_upload_errors},
    {"values_and_generations", test_values_and_generations},
    {"factorize_options", test_factorize_options},
    {"solve_and_step", test_solve_and_step},
    {"in_process", test_in_process},
    {"size_threshold", test_size_threshold},
};

int main(int argc, char** argv) {
  int status = run_named_tests(kTests, (int)(sizeof kTests / sizeof *kTests),
                               argc, argv);
  test_daemon_stop(&g_daemon);
  return status;
}
