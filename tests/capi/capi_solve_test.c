/* Factorizations, solves and the fused step through the C API: the report
 * (inertia, method, generation, analysis reuse), options and their
 * refusals, scalar shifts against the per-entry diagonal, right-hand sides
 * in column-major blocks (in place too), solve reports, a retried step
 * refused by its expected generation, more right-hand sides than one Step
 * carries. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "capi_fixture.h"
#include "capi_tests.h"

void test_factorize_options(void) {
  factord_handle* h = fixture_connect(0);
  kkt_csr k;
  factord_factorize_options f;
  factord_factor_report r;
  double b[KKT_N], x_scalar[KKT_N], x_diagonal[KKT_N];
  const double diagonal[KKT_N] = {0, 0, 0, 10, 10};
  kkt_csr_lower0(&k);
  kkt_multiply(KKT_X, 1.0, NULL, b);
  CHECK_OK(factord_upload(h, &k.m, "opts", 0, NULL, 0, NULL));

  CHECK_STATUS(factord_last_factor_report(h, "opts", &r),
               FACTORD_ERR_FAILED_PRECONDITION, "NO_REPORT");
  factord_factorize_options_init(&f);
  f.method = "ldlt";
  CHECK_OK(factord_factorize(h, "opts", &f, NULL));
  CHECK_OK(factord_last_factor_report(h, "opts", &r));
  CHECK(r.status == FACTORD_FACTOR_OK);
  CHECK(strcmp(r.method, "ldlt") == 0);
  CHECK(r.positive == 3 && r.negative == 2 && r.zero == 0);
  CHECK(r.inertia_reliable == 1 && r.perturbed_pivots == 0);
  CHECK(r.nnz_factor > 0 && r.factor_bytes > 0);
  CHECK(r.generation == 1);
  CHECK(r.wall_s > 0);
  f.deterministic = 1;
  f.pivot_threshold = 0.5;
  f.pivoting = "rook";
  CHECK_OK(factord_factorize(h, "opts", &f, NULL));
  CHECK_OK(factord_last_factor_report(h, "opts", &r));
  CHECK(r.positive == 3 && r.negative == 2);

  /* Options refused before or by the daemon. */
  factord_factorize_options_init(&f);
  f.method = "no-such-method";
  CHECK_STATUS(factord_factorize(h, "opts", &f, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_OPTION");
  factord_factorize_options_init(&f);
  f.ordering = "bogus";
  CHECK_STATUS(factord_factorize(h, "opts", &f, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_OPTION");
  factord_factorize_options_init(&f);
  f.method = "ldlt";
  f.pivot_threshold = 0.7; /* outside (0, 0.5] */
  CHECK_STATUS(factord_factorize(h, "opts", &f, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_OPTION");
  /* Options the method does not apply, named in the message. */
  factord_factorize_options_init(&f);
  f.method = "ldlt";
  f.scaling = "column_norm"; /* ic's and ilu's */
  CHECK_STATUS(factord_factorize(h, "opts", &f, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_OPTION");
  CHECK_MESSAGE_HAS("options.scaling");
  factord_factorize_options_init(&f);
  f.method = "lu";
  f.shift_rest = 1e-8; /* lu factorizes the matrix as uploaded */
  CHECK_STATUS(factord_factorize(h, "opts", &f, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_OPTION");
  CHECK_MESSAGE_HAS("options.shift_rest");
  CHECK_STATUS(factord_factorize(h, "no-such-id", NULL, NULL),
               FACTORD_ERR_NOT_FOUND, "NOT_FOUND");
  CHECK_STATUS(factord_factorize(h, "no-such-id", NULL, diagonal),
               FACTORD_ERR_NOT_FOUND, "NOT_FOUND");
  CHECK_STATUS(factord_factorize(NULL, "opts", NULL, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");
  CHECK_STATUS(factord_last_factor_report(h, "opts", NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");

  /* +10 on the two dual diagonal entries: scalar shift and per-entry
   * diagonal give the same factorization (inertia (5, 0)) and solutions. */
  factord_factorize_options_init(&f);
  f.method = "ldlt";
  f.shift_first = 0;
  f.shift_count = 3;
  f.shift_rest = 10;
  f.deterministic = 1;
  CHECK_OK(factord_factorize(h, "opts", &f, NULL));
  CHECK_OK(factord_last_factor_report(h, "opts", &r));
  CHECK(r.positive == 5 && r.negative == 0);
  CHECK(r.analysis_reused == 1);
  CHECK_OK(factord_solve(h, "opts", NULL, 1, b, x_scalar));
  factord_factorize_options_init(&f);
  f.method = "ldlt";
  f.deterministic = 1;
  CHECK_OK(factord_factorize(h, "opts", &f, diagonal));
  CHECK_OK(factord_last_factor_report(h, "opts", &r));
  CHECK(r.positive == 5 && r.negative == 0);
  CHECK_OK(factord_solve(h, "opts", NULL, 1, b, x_diagonal));
  CHECK_NEAR_VEC(x_diagonal, x_scalar, KKT_N, 1e-14);
  factord_release(h, "opts", NULL);
  factord_disconnect(h);
}

void test_solve_and_step(void) {
  factord_handle* h = fixture_connect(0);
  kkt_csr k;
  factord_factorize_options f;
  factord_factor_report r;
  factord_solve_report reports[4];
  int64_t count = 0;
  double b[3 * KKT_N], x[3 * KKT_N], want[3 * KKT_N], values[KKT_NNZ];
  int i, j;
  kkt_csr_lower0(&k);
  factord_factorize_options_init(&f);
  f.method = "ldlt";
  CHECK_OK(factord_upload(h, &k.m, "step", 0, NULL, 0, NULL));
  CHECK_STATUS(factord_last_solve_reports(h, "step", NULL, 0, &count),
               FACTORD_ERR_FAILED_PRECONDITION, "NO_REPORT");
  CHECK_OK(factord_factorize(h, "step", &f, NULL));

  /* Three right-hand sides, column-major: K x_true, K (2 x_true), K e_0. */
  for (j = 0; j < 3; ++j) {
    for (i = 0; i < KKT_N; ++i) {
      want[j * KKT_N + i] = j == 0 ? KKT_X[i] : j == 1 ? 2 * KKT_X[i] : i == 0;
    }
    kkt_multiply(want + j * KKT_N, 1.0, NULL, b + j * KKT_N);
  }
  CHECK_OK(factord_solve(h, "step", NULL, 3, b, x));
  CHECK_NEAR_VEC(x, want, 3 * KKT_N, 1e-10);
  CHECK_OK(factord_last_solve_reports(h, "step", reports, 1, &count));
  CHECK(count == 3);
  CHECK(reports[0].status == FACTORD_SOLVE_CONVERGED);
  CHECK(reports[0].backward_error < 1e-12);
  /* In place: the solutions overwrite the right-hand sides. */
  memcpy(x, b, sizeof b);
  CHECK_OK(factord_solve(h, "step", NULL, 3, x, x));
  CHECK_NEAR_VEC(x, want, 3 * KKT_N, 1e-10);

  CHECK_STATUS(factord_solve(h, "step", NULL, 0, b, x),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");
  CHECK_STATUS(factord_solve(h, "step", NULL, 1, NULL, x),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");
  CHECK_STATUS(factord_solve(h, "step", NULL, 1, b, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");
  {
    factord_solve_options s;
    factord_solve_options_init(&s);
    s.krylov = "bogus";
    CHECK_STATUS(factord_solve(h, "step", &s, 1, b, x),
                 FACTORD_ERR_INVALID_ARGUMENT, "INVALID_OPTION");
    /* ldlt solves directly: no Krylov method, no iteration count. */
    s.krylov = "cg";
    CHECK_STATUS(factord_solve(h, "step", &s, 1, b, x),
                 FACTORD_ERR_INVALID_ARGUMENT, "INVALID_OPTION");
    CHECK_MESSAGE_HAS("options.krylov");
    s.krylov = "none";
    s.max_iterations = 20;
    CHECK_STATUS(factord_solve(h, "step", &s, 1, b, x),
                 FACTORD_ERR_INVALID_ARGUMENT, "INVALID_OPTION");
    CHECK_MESSAGE_HAS("options.max_iterations");
    s.max_iterations = 0;
    CHECK_OK(factord_solve(h, "step", &s, 1, b, x));
  }

  /* One step: values tripled (caller order), two right-hand sides. */
  for (i = 0; i < KKT_NNZ; ++i) values[i] = 3 * k.values[i];
  kkt_multiply(KKT_X, 3.0, NULL, b);
  kkt_multiply(KKT_X, 6.0, NULL, b + KKT_N);
  for (i = 0; i < KKT_N; ++i) {
    want[i] = KKT_X[i];
    want[KKT_N + i] = 2 * KKT_X[i];
  }
  f.expected_generation = 1;
  CHECK_OK(factord_step(h, "step", values, &f, NULL, NULL, 2, b, x));
  CHECK_NEAR_VEC(x, want, 2 * KKT_N, 1e-10);
  CHECK_OK(factord_last_factor_report(h, "step", &r));
  CHECK(r.generation == 2 && r.analysis_reused == 1);
  CHECK(r.positive == 3 && r.negative == 2);
  CHECK_OK(factord_last_solve_reports(h, "step", reports, 4, &count));
  CHECK(count == 2 && reports[1].status == FACTORD_SOLVE_CONVERGED);
  /* The same step again (a retry after a lost reply) is refused. */
  CHECK_STATUS(factord_step(h, "step", values, &f, NULL, NULL, 2, b, x),
               FACTORD_ERR_ABORTED, "GENERATION_MISMATCH");
  /* A step that only refactorizes, then one that only solves. */
  f.expected_generation = 0;
  CHECK_OK(factord_step(h, "step", NULL, &f, NULL, NULL, 0, NULL, NULL));
  CHECK_OK(factord_step(h, "step", NULL, &f, NULL, NULL, 1, b, x));
  CHECK_NEAR_VEC(x, want, KKT_N, 1e-10);

  CHECK_STATUS(factord_step(h, "step", NULL, &f, NULL, NULL, -1, b, x),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");
  CHECK_STATUS(factord_step(h, "step", NULL, &f, NULL, NULL, 1, NULL, x),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");
  CHECK_STATUS(factord_step(h, "no-such-step", values, &f, NULL, NULL, 1, b, x),
               FACTORD_ERR_NOT_FOUND, "NOT_FOUND");

  /* More right-hand sides than one Step carries (256): the rest follow in
   * a solve; every one is right and reported. */
  {
    enum { kMany = 300 };
    double* bb = (double*)malloc(sizeof(double) * KKT_N * kMany);
    double* xx = (double*)malloc(sizeof(double) * KKT_N * kMany);
    double* ww = (double*)malloc(sizeof(double) * KKT_N * kMany);
    for (j = 0; j < kMany; ++j) {
      for (i = 0; i < KKT_N; ++i) ww[j * KKT_N + i] = KKT_X[i] * (1 + j % 7);
      kkt_multiply(ww + j * KKT_N, 3.0, NULL, bb + j * KKT_N);
    }
    CHECK_OK(factord_step(h, "step", values, &f, NULL, NULL, kMany, bb, xx));
    CHECK_NEAR_VEC(xx, ww, KKT_N * kMany, 1e-10);
    CHECK_OK(factord_last_solve_reports(h, "step", NULL, 0, &count));
    CHECK(count == kMany);
    free(bb);
    free(xx);
    free(ww);
  }
  factord_release(h, "step", NULL);
  factord_disconnect(h);
}
