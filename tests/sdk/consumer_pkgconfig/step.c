/* Built against an installed factord with plain cc and pkg-config
 * (scripts/check_sdk.sh):
 *   cc -std=c99 step.c $(pkg-config --cflags --libs factord-c) -lm
 *
 *   step_c [HOST:PORT]  (default: $FACTORD_SERVER)
 *
 * Uploads the SPD matrix tridiag(-1, 2.1, -1) of order 30 (lower triangle,
 * 0-based CSR with 64-bit row pointers), then sends new values (the matrix
 * doubled), factorizes and solves two right-hand sides in one round trip
 * (factord_step), and checks both solutions here against the new values
 * and the matrix's generation (2) on the daemon. Then asks for a matrix
 * that was never uploaded: FACTORD_ERR_NOT_FOUND, reason NOT_FOUND. Exits
 * 1 on any failed call or check. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "factord/factord.h"

#define N 30
#define NNZ (2 * N - 1)
#define NRHS 2
#define MAX_RESIDUAL 1e-10

static int fail(const char* what) {
  char text[512];
  factord_last_error_copy(text, sizeof text);
  fprintf(stderr, "FAIL %s: %s\n", what, text);
  return 1;
}

/* ||b - A x|| / ||b||, A symmetric, its lower triangle in 0-based CSR. */
static double relative_residual(const int64_t* row_ptr, const int32_t* col_idx,
                                const double* values, const double* x,
                                const double* b) {
  double r[N], rr = 0, bb = 0;
  int64_t i, e;
  memcpy(r, b, sizeof r);
  for (i = 0; i < N; ++i) {
    for (e = row_ptr[i]; e < row_ptr[i + 1]; ++e) {
      const int32_t j = col_idx[e];
      r[i] -= values[e] * x[j];
      if (j != i) r[j] -= values[e] * x[i];
    }
  }
  for (i = 0; i < N; ++i) rr += r[i] * r[i], bb += b[i] * b[i];
  return sqrt(rr / bb);
}

/* Steps uploaded matrix `id` (at generation 1) with the doubled values;
 * 0 when every check holds. */
static int step(factord_handle* h, const char* id, const int64_t* row_ptr,
                const int32_t* col_idx, double* values) {
  double b[N * NRHS], x[N * NRHS];
  factord_factorize_options f;
  factord_factor_report report;
  factord_matrix_info info;
  int i, k;
  for (i = 0; i < NNZ; ++i) values[i] *= 2;
  for (i = 0; i < N; ++i) {
    b[i] = 1.0;           /* column 0 */
    b[N + i] = (double)i; /* column 1 */
  }
  factord_factorize_options_init(&f);
  f.method = "ldlt";
  f.expected_generation = 1;
  if (factord_step(h, id, values, &f, NULL, NULL, NRHS, b, x) != FACTORD_OK ||
      factord_last_factor_report(h, id, &report) != FACTORD_OK) {
    return fail("step");
  }
  printf("step: factorization %s, generation %llu\n",
         report.status == FACTORD_FACTOR_OK ? "ok" : "not ok",
         (unsigned long long)report.generation);
  if (report.status != FACTORD_FACTOR_OK || report.generation != 2) {
    fprintf(stderr, "FAIL step: not an ok factorization of generation 2\n");
    return 1;
  }
  for (k = 0; k < NRHS; ++k) {
    const double residual =
        relative_residual(row_ptr, col_idx, values, x + k * N, b + k * N);
    printf("  right-hand side %d: residual %.1e (here)\n", k, residual);
    if (!(residual <= MAX_RESIDUAL)) {
      fprintf(stderr, "FAIL step: residual over %.0e\n", MAX_RESIDUAL);
      return 1;
    }
  }
  if (factord_get_matrix(h, id, &info) != FACTORD_OK) {
    return fail("get matrix");
  }
  printf("held: generation %llu, factorized %d, stale %d\n",
         (unsigned long long)info.generation, info.factorized, info.stale);
  if (info.generation != 2 || !info.factorized || info.stale) {
    fprintf(stderr, "FAIL get matrix: not the stepped matrix\n");
    return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  int64_t row_ptr[N + 1];
  int32_t col_idx[NNZ];
  double values[NNZ];
  char id[FACTORD_ID_MAX];
  factord_handle* h;
  factord_matrix m;
  factord_matrix_info info;
  factord_status missing;
  int i, k = 0, result;
  const char* address = argc > 1 ? argv[1] : getenv("FACTORD_SERVER");
  if (address == NULL || address[0] == '\0') {
    fprintf(stderr, "usage: %s HOST:PORT (or set FACTORD_SERVER)\n", argv[0]);
    return 2;
  }
  for (i = 0; i < N; ++i) { /* row i: the entry left of it, the diagonal */
    row_ptr[i] = k;
    if (i > 0) {
      col_idx[k] = i - 1;
      values[k++] = -1.0;
    }
    col_idx[k] = i;
    values[k++] = 2.1;
  }
  row_ptr[N] = k;

  if (factord_connect(address, NULL, &h) != FACTORD_OK) return fail("connect");
  printf("connected to %s (C API %s)\n", address, factord_version());
  factord_matrix_init(&m);
  m.n = N;
  m.format = FACTORD_CSR;
  m.structure = FACTORD_SPD;
  m.triangle = FACTORD_LOWER;
  m.row_ptr = row_ptr;
  m.col_idx = col_idx;
  m.values = values;
  if (factord_upload(h, &m, NULL, 0, id, sizeof id, NULL) != FACTORD_OK) {
    result = fail("upload");
    factord_disconnect(h);
    return result;
  }
  printf("uploaded %s\n", id);
  result = step(h, id, row_ptr, col_idx, values);
  if (factord_release(h, id, NULL) != FACTORD_OK) result = fail("release");

  /* An ID the daemon never held. */
  missing = factord_get_matrix(h, "never-uploaded", &info);
  printf("unknown matrix: %s, reason %s\n", factord_status_name(missing),
         factord_last_error_reason());
  if (missing != FACTORD_ERR_NOT_FOUND ||
      strcmp(factord_last_error_reason(), "NOT_FOUND") != 0) {
    fprintf(stderr, "FAIL unknown matrix: not NOT_FOUND\n");
    result = 1;
  }
  factord_disconnect(h);
  printf(result == 0 ? "ok\n" : "FAILED\n");
  return result;
}
