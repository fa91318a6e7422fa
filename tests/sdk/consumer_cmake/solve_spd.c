/* Uploads a small SPD matrix to a factord daemon through the installed C
 * API (libfactord_c.so, factord::c), factorizes it, solves A x = b, and
 * checks the solution here, on the matrix as sent.
 *
 *   solve_spd_c [HOST:PORT]  (default: $FACTORD_SERVER)
 *
 * A is the 1-D Laplacian tridiag(-1, 2, -1) of order 50 plus 0.1 I, given
 * as its upper triangle in 1-based CSR (the library maps it to the
 * daemon's layout), and b = A x_true with x_true_i = 1 + i / n. Exits 1 on
 * any failed call or check. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "factord/factord.h"

#define N 50
#define NNZ (2 * N - 1)
#define MAX_RESIDUAL 1e-10
#define MAX_ERROR 1e-8

static int fail(const char* what) {
  char text[512];
  factord_last_error_copy(text, sizeof text);
  fprintf(stderr, "FAIL %s: %s\n", what, text);
  return 1;
}

/* y = A x, A symmetric given by its upper triangle in 1-based CSR. */
static void multiply(const int32_t* row_ptr, const int32_t* col_idx,
                     const double* values, const double* x, double* y) {
  int i, e;
  for (i = 0; i < N; ++i) y[i] = 0;
  for (i = 0; i < N; ++i) {
    for (e = row_ptr[i] - 1; e < row_ptr[i + 1] - 1; ++e) {
      const int j = col_idx[e] - 1;
      y[i] += values[e] * x[j];
      if (j != i) y[j] += values[e] * x[i]; /* the lower triangle */
    }
  }
}

static double norm(const double* v) {
  double s = 0;
  int i;
  for (i = 0; i < N; ++i) s += v[i] * v[i];
  return sqrt(s);
}

/* Factorizes and solves uploaded matrix `id`; 0 when every check holds. */
static int factorize_and_solve(factord_handle* h, const char* id,
                               const int32_t* row_ptr, const int32_t* col_idx,
                               const double* values) {
  double x_true[N], b[N], x[N], r[N], e[N], residual, error;
  factord_factorize_options f;
  factord_factor_report report;
  factord_solve_report solve;
  int64_t count = 0;
  int i;
  for (i = 0; i < N; ++i) x_true[i] = 1.0 + (double)i / N;
  multiply(row_ptr, col_idx, values, x_true, b);

  factord_factorize_options_init(&f);
  f.method = "ldlt";
  if (factord_factorize(h, id, &f, NULL) != FACTORD_OK ||
      factord_last_factor_report(h, id, &report) != FACTORD_OK) {
    return fail("factorize");
  }
  printf("factorized: status %s, inertia (+%lld, -%lld, 0:%lld)\n",
         report.status == FACTORD_FACTOR_OK ? "ok" : "not ok",
         (long long)report.positive, (long long)report.negative,
         (long long)report.zero);
  if (report.status != FACTORD_FACTOR_OK || report.positive != N) {
    fprintf(stderr, "FAIL factorize: not an SPD factorization\n");
    return 1;
  }

  if (factord_solve(h, id, NULL, 1, b, x) != FACTORD_OK ||
      factord_last_solve_reports(h, id, &solve, 1, &count) != FACTORD_OK) {
    return fail("solve");
  }
  multiply(row_ptr, col_idx, values, x, r);
  for (i = 0; i < N; ++i) {
    r[i] = b[i] - r[i];
    e[i] = x[i] - x_true[i];
  }
  residual = norm(r) / norm(b);
  error = norm(e) / norm(x_true);
  printf("solved: %s, residual %.1e (daemon) %.1e (here), error %.1e\n",
         count == 1 && solve.status == FACTORD_SOLVE_CONVERGED
             ? "converged"
             : "not converged",
         solve.relative_residual, residual, error);
  if (count != 1 || solve.status != FACTORD_SOLVE_CONVERGED ||
      !(residual <= MAX_RESIDUAL) || !(error <= MAX_ERROR)) {
    fprintf(stderr, "FAIL solve: residual over %.0e or error over %.0e\n",
            MAX_RESIDUAL, MAX_ERROR);
    return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  int32_t row_ptr[N + 1], col_idx[NNZ];
  double values[NNZ];
  char id[FACTORD_ID_MAX];
  uint64_t generation = 0;
  int64_t freed = 0;
  factord_handle* h;
  factord_matrix m;
  int i, k = 0, result;
  const char* address = argc > 1 ? argv[1] : getenv("FACTORD_SERVER");
  if (address == NULL || address[0] == '\0') {
    fprintf(stderr, "usage: %s HOST:PORT (or set FACTORD_SERVER)\n", argv[0]);
    return 2;
  }
  /* Row i: the diagonal, then the entry right of it (1-based). */
  for (i = 0; i < N; ++i) {
    row_ptr[i] = k + 1;
    col_idx[k] = i + 1;
    values[k++] = 2.1;
    if (i + 1 < N) {
      col_idx[k] = i + 2;
      values[k++] = -1.0;
    }
  }
  row_ptr[N] = k + 1;

  printf("factord C API %s\n", factord_version());
  if (factord_connect(address, NULL, &h) != FACTORD_OK) return fail("connect");
  printf("connected to %s\n", address);
  factord_matrix_init(&m);
  m.n = N;
  m.format = FACTORD_CSR;
  m.structure = FACTORD_SPD;
  m.triangle = FACTORD_UPPER;
  m.base = 1;
  m.row_ptr32 = row_ptr;
  m.col_idx = col_idx;
  m.values = values;
  if (factord_upload(h, &m, NULL, 0, id, sizeof id, &generation) !=
          FACTORD_OK ||
      generation != 1) {
    result = fail("upload");
    factord_disconnect(h);
    return result;
  }
  printf("uploaded %s: n = %d, nnz = %d, generation 1\n", id, N, NNZ);
  result = factorize_and_solve(h, id, row_ptr, col_idx, values);
  if (factord_release(h, id, &freed) != FACTORD_OK) {
    result = fail("release");
  } else {
    printf("released %lld bytes\n", (long long)freed);
  }
  factord_disconnect(h);
  printf(result == 0 ? "ok\n" : "FAILED\n");
  return result;
}
