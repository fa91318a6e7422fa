/* MA57 through libhsl as Ipopt drives it: the KKT system (duplicates
 * summed, either triangle, inertia in INFO(24), rank in INFO(25)), one and
 * several right-hand sides with a leading dimension above N, new values
 * without a new upload, the same values with a new pivot threshold without
 * sending them, a superseded IFACT refused; planted inertia; singular
 * matrices (INFO(1) = 4); entries out of range skipped with warning 1;
 * every bad-input class with MA57's code and its stderr line; the pivot
 * threshold clamped into factord's (0, 0.5]. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "hsl_fixture.h"
#include "hsl_tests.h"

void test_ma57_kkt(void) {
  ma57_arrays m;
  double a[KKT_NE], b[2 * (KKT_N + 2)], want[2 * KKT_N];
  int stale[8], i;
  char id[FACTORD_ID_MAX];
  fixture_daemon();
  kkt_values(1.0, a);
  ma57_init(&m, KKT_N, KKT_NE);

  CHECK(ma57_analyse(&m, KKT_IRN, KKT_JCN) == 2); /* warning: duplicates */
  CHECK(m.info[3] == 1);                          /* INFO(4) */
  CHECK(m.info[2] == 0);                          /* INFO(3) */
  CHECK(m.lfact >= 1 && m.lifact >= 8);           /* INFO(9), INFO(10) */
  CHECK(factord_hsl_uploads() == 1);
  CHECK(factord_hsl_sessions() == 1);
  CHECK(factord_hsl_matrix_id(m.keep, id, sizeof id) == 0);

  CHECK(ma57_factorize(&m, a) == 0);
  CHECK(m.info[23] == 2);            /* INFO(24): negative eigenvalues */
  CHECK(m.info[24] == KKT_N);        /* INFO(25): rank */
  CHECK(daemon_generation(id) == 2); /* the values went in one step */

  kkt_multiply(KKT_X, 1.0, NULL, b);
  CHECK(ma57_solve(&m, 1, b, KKT_N) == 0);
  CHECK_NEAR_VEC(b, KKT_X, KKT_N, 1e-10);

  /* Two right-hand sides, LRHS = N + 2: the padding is not touched. */
  for (i = 0; i < KKT_N; ++i) {
    want[i] = KKT_X[i];
    want[KKT_N + i] = -2 * KKT_X[i];
  }
  kkt_multiply(want, 1.0, NULL, b);
  kkt_multiply(want + KKT_N, 1.0, NULL, b + KKT_N + 2);
  b[KKT_N] = b[KKT_N + 1] = 777;
  b[2 * KKT_N + 2] = b[2 * KKT_N + 3] = 777;
  CHECK(ma57_solve(&m, 2, b, KKT_N + 2) == 0);
  CHECK_NEAR_VEC(b, want, KKT_N, 1e-10);
  CHECK_NEAR_VEC(b + KKT_N + 2, want + KKT_N, KKT_N, 1e-10);
  CHECK(b[KKT_N] == 777 && b[KKT_N + 1] == 777);
  CHECK(b[2 * KKT_N + 2] == 777 && b[2 * KKT_N + 3] == 777);

  /* New values: sent, no new upload; the old IFACT is superseded. */
  memcpy(stale, m.ifact, sizeof stale);
  kkt_values(2.0, a);
  CHECK(ma57_factorize(&m, a) == 0);
  CHECK(factord_hsl_uploads() == 1);
  CHECK(daemon_generation(id) == 3);
  kkt_multiply(KKT_X, 2.0, NULL, b);
  CHECK(ma57_solve(&m, 1, b, KKT_N) == 0);
  CHECK_NEAR_VEC(b, KKT_X, KKT_N, 1e-10);
  {
    int job = 1, n = KKT_N, nrhs = 1, lrhs = KKT_N, lwork = KKT_N, lifact = 8;
    double fact = 0, work[KKT_N];
    kkt_multiply(KKT_X, 2.0, NULL, b);
    capture_begin(2);
    ma57cd_(&job, &n, &fact, &lifact, stale, &lifact, &nrhs, b, &lrhs, work,
            &lwork, m.iwork, m.icntl, m.info);
    CHECK(capture_end("factord no longer holds"));
    CHECK(m.info[0] == -14);
    CHECK(all_nan(b, KKT_N));
  }

  /* The same values with a higher pivot threshold (Ipopt's "increase
   * quality"): refactorized, nothing sent. */
  m.cntl[0] = 1e-6;
  CHECK(ma57_factorize(&m, a) == 0);
  CHECK(daemon_generation(id) == 3);
  CHECK(m.info[23] == 2);
  kkt_multiply(KKT_X, 2.0, NULL, b);
  CHECK(ma57_solve(&m, 1, b, KKT_N) == 0);
  CHECK_NEAR_VEC(b, KKT_X, KKT_N, 1e-10);
  ma57_free(&m);
}

void test_ma57_planted_inertia(void) {
  enum { N = 300 };
  static int irn[3 * N], jcn[3 * N];
  static double a[3 * N], x[N], b[N];
  ma57_arrays m;
  int ne, i;
  unsigned seed;
  fixture_daemon();
  ne = planted_tridiagonal(N, 1u, irn, jcn, a);
  ma57_init(&m, N, ne);
  CHECK(ma57_analyse(&m, irn, jcn) == 0);
  for (seed = 1; seed <= 3; ++seed) { /* new values, the same pattern */
    planted_tridiagonal(N, seed, irn, jcn, a);
    CHECK(ma57_factorize(&m, a) == 0);
    CHECK(m.info[23] == planted_negative(N));
    CHECK(m.info[24] == N);
    for (i = 0; i < N; ++i) x[i] = (double)(i % 7) - 3.0 + 0.5 * seed;
    triplet_multiply(N, ne, irn, jcn, a, x, b);
    CHECK(ma57_solve(&m, 1, b, N) == 0);
    CHECK_NEAR_VEC(b, x, N, 1e-8);
  }
  CHECK(factord_hsl_uploads() == 1);
  ma57_free(&m);
}

void test_ma57_singular(void) {
  /* A KKT matrix with two equal constraint rows: H = 2 I (3 x 3), A = [1 1
   * 0; 1 1 0]: rank 4, one negative eigenvalue. */
  static const int irn[] = {1, 2, 3, 4, 4, 5, 5, 4, 5};
  static const int jcn[] = {1, 2, 3, 1, 2, 1, 2, 4, 5};
  static const double a[] = {2, 2, 2, 1, 1, 1, 1, 0, 0};
  /* A zero row and column: diag(1, 0, -1). */
  static const int irn0[] = {1, 2, 3};
  static const double a0[] = {1, 0, -1};
  double b[5], x[5] = {1, 2, 3, 0, 0};
  ma57_arrays m;
  fixture_daemon();
  ma57_init(&m, 5, 9);
  CHECK(ma57_analyse(&m, irn, jcn) == 0);
  CHECK(ma57_factorize(&m, a) == 4);
  CHECK(m.info[24] == 4); /* INFO(25): rank */
  CHECK(m.info[23] == 1); /* INFO(24) */
  /* A consistent right-hand side is still solved (MA57's promise). */
  triplet_multiply(5, 9, irn, jcn, a, x, b);
  CHECK(ma57_solve(&m, 1, b, 5) == 0);
  {
    double r[5];
    int i;
    triplet_multiply(5, 9, irn, jcn, a, b, r);
    triplet_multiply(5, 9, irn, jcn, a, x, b);
    for (i = 0; i < 5; ++i) CHECK(fabs(r[i] - b[i]) < 1e-8);
  }
  ma57_free(&m);

  ma57_init(&m, 3, 3);
  CHECK(ma57_analyse(&m, irn0, irn0) == 0);
  CHECK(ma57_factorize(&m, a0) == 4);
  CHECK(m.info[24] == 2);
  CHECK(m.info[23] == 1);
  ma57_free(&m);

  /* An empty row: diag(1, -, -1), rank 2. */
  {
    static const int irn_gap[] = {1, 3};
    static const double a_gap[] = {1, -1};
    ma57_init(&m, 3, 2);
    CHECK(ma57_analyse(&m, irn_gap, irn_gap) == 0);
    CHECK(ma57_factorize(&m, a_gap) == 4);
    CHECK(m.info[24] == 2);
    CHECK(m.info[23] == 1);
    ma57_free(&m);
  }

  /* No entries at all: the zero matrix, rank 0. */
  ma57_init(&m, 2, 0);
  CHECK(ma57_analyse(&m, irn0, irn0) == 0);
  CHECK(ma57_factorize(&m, a0) == 4);
  CHECK(m.info[24] == 0);
  ma57_free(&m);
}

void test_ma57_out_of_range(void) {
  int irn[KKT_NE + 2], jcn[KKT_NE + 2];
  double a[KKT_NE + 2], b[KKT_N];
  ma57_arrays m;
  fixture_daemon();
  memcpy(irn, KKT_IRN, sizeof KKT_IRN);
  memcpy(jcn, KKT_JCN, sizeof KKT_JCN);
  kkt_values(1.0, a);
  /* Entry 3 moves to the end; entries 3 and 12 are out of range. */
  irn[KKT_NE] = irn[2];
  jcn[KKT_NE] = jcn[2];
  a[KKT_NE] = a[2];
  irn[2] = KKT_N + 1;
  jcn[2] = 1;
  a[2] = 1e6;
  irn[KKT_NE + 1] = 2;
  jcn[KKT_NE + 1] = 0;
  a[KKT_NE + 1] = -1e6;
  ma57_init(&m, KKT_N, KKT_NE + 2);
  capture_begin(2);
  CHECK(ma57_analyse(&m, irn, jcn) == 3); /* out of range + duplicates */
  CHECK(capture_end("warning 1: 2 entries outside 1..N = 5 ignored"));
  CHECK(m.info[2] == 2);             /* INFO(3) */
  CHECK(m.info[3] == 1);             /* INFO(4) */
  CHECK(ma57_factorize(&m, a) == 0); /* no warning from the factorization */
  CHECK(m.info[23] == 2);
  kkt_multiply(KKT_X, 1.0, NULL, b);
  CHECK(ma57_solve(&m, 1, b, KKT_N) == 0);
  CHECK_NEAR_VEC(b, KKT_X, KKT_N, 1e-10);
  ma57_free(&m);
}

/* ma57cd_ with the given arguments on a copy of KKT_X's right-hand side;
 * returns INFO(1), *poisoned = 1 when the right-hand side became NaN. */
static int solve_with(ma57_arrays* m, int job, int n, int nrhs, int lrhs,
                      int lwork, int* ifact, int* poisoned) {
  double b[2 * KKT_N], work[2 * KKT_N], fact = 0;
  int lfact = 1;
  kkt_multiply(KKT_X, 1.0, NULL, b);
  kkt_multiply(KKT_X, 1.0, NULL, b + KKT_N);
  ma57cd_(&job, &n, &fact, &lfact, ifact, &m->lifact, &nrhs, b, &lrhs, work,
          &lwork, m->iwork, m->icntl, m->info);
  *poisoned = all_nan(b, n < KKT_N ? n : KKT_N);
  return m->info[0];
}

void test_ma57_bad_input(void) {
  ma57_arrays m;
  double a[KKT_NE];
  int n, ne, lkeep, lifact, poisoned, copy[16], garbage[8] = {0};
  fixture_daemon();
  kkt_values(1.0, a);
  ma57_init(&m, KKT_N, KKT_NE);

  /* ma57ad_: N, NE, LKEEP. */
  n = 0;
  ne = KKT_NE;
  capture_begin(2);
  ma57ad_(&n, &ne, KKT_IRN, KKT_JCN, &m.lkeep, m.keep, m.iwork, m.icntl, m.info,
          m.rinfo);
  CHECK(capture_end("factord hsl: ma57ad: error -1: N = 0"));
  CHECK(m.info[0] == -1 && m.info[1] == 0);
  n = KKT_N;
  ne = -1;
  ma57ad_(&n, &ne, KKT_IRN, KKT_JCN, &m.lkeep, m.keep, m.iwork, m.icntl, m.info,
          m.rinfo);
  CHECK(m.info[0] == -2 && m.info[1] == -1);
  ne = KKT_NE;
  lkeep = m.lkeep - 1;
  capture_begin(2);
  ma57ad_(&n, &ne, KKT_IRN, KKT_JCN, &lkeep, m.keep, m.iwork, m.icntl, m.info,
          m.rinfo);
  CHECK(capture_end("LKEEP = 88 < 5N + NE + max(N, NE) + 42 = 89"));
  CHECK(m.info[0] == -15 && m.info[1] == lkeep);
  CHECK(factord_hsl_sessions() == 0);

  /* ma57bd_ before ma57ad_: KEEP holds no analysis. */
  m.lfact = 1;
  m.lifact = 8;
  m.fact = malloc(sizeof(double));
  m.ifact = malloc(8 * sizeof(int));
  capture_begin(2);
  CHECK(ma57_factorize(&m, a) == -15);
  CHECK(capture_end("KEEP holds no analysis of this library"));
  free(m.fact);
  free(m.ifact);
  m.fact = NULL;
  m.ifact = NULL;

  CHECK(ma57_analyse(&m, KKT_IRN, KKT_JCN) == 2);
  /* ma57bd_: N or NE not ma57ad_'s, ICNTL(7), LIFACT. */
  m.n = KKT_N - 1;
  CHECK(ma57_factorize(&m, a) == -1);
  m.n = KKT_N;
  m.ne = KKT_NE - 1;
  m.lkeep -= 1; /* still above the rule for NE - 1 */
  CHECK(ma57_factorize(&m, a) == -2);
  m.ne = KKT_NE;
  m.lkeep += 1;
  m.icntl[6] = 5;
  CHECK(ma57_factorize(&m, a) == -10 && m.info[1] == 5);
  m.icntl[6] = 1;
  /* IFACT below INFO(10): MA57's -4 with INFO(18), which Ipopt answers by
   * copying IFACT into a larger array (ma57ed_) and calling again. */
  m.lifact = 7;
  capture_begin(2);
  CHECK(ma57_factorize(&m, a) == -4);
  CHECK(capture_end("LIFACT = 7 < 8"));
  CHECK(m.info[1] == 7 && m.info[17] == 8); /* INFO(2), INFO(18) */
  {
    int ic = 1, lnew = 0;
    double newfac = 0;
    int* larger = malloc(sizeof(int) * (size_t)m.info[17]);
    lifact = m.info[17];
    ma57ed_(&m.n, &ic, m.keep, m.fact, &m.lfact, &newfac, &lnew, m.ifact,
            &m.lifact, larger, &lifact, m.info);
    CHECK(m.info[0] == 0);
    free(m.ifact);
    m.ifact = larger;
    m.lifact = lifact;
  }
  CHECK(ma57_factorize(&m, a) == 0);

  /* ma57cd_: JOB, N, NRHS, LRHS, LWORK, IFACT; the solution is NaN. */
  capture_begin(2);
  CHECK(solve_with(&m, 2, KKT_N, 1, KKT_N, KKT_N, m.ifact, &poisoned) == -12);
  CHECK(capture_end("JOB = 2: only 1"));
  CHECK(m.info[1] == 2 && poisoned);
  CHECK(solve_with(&m, 1, 0, 1, KKT_N, KKT_N, m.ifact, &poisoned) == -1);
  CHECK(solve_with(&m, 1, KKT_N - 1, 1, KKT_N, KKT_N, m.ifact, &poisoned) ==
        -1);
  CHECK(poisoned);
  CHECK(solve_with(&m, 1, KKT_N, 0, KKT_N, KKT_N, m.ifact, &poisoned) == -16);
  CHECK(solve_with(&m, 1, KKT_N, 1, KKT_N - 1, KKT_N, m.ifact, &poisoned) ==
        -11);
  CHECK(solve_with(&m, 1, KKT_N, 2, KKT_N, KKT_N, m.ifact, &poisoned) == -17);
  CHECK(m.info[1] == 2 * KKT_N && poisoned);
  capture_begin(2);
  CHECK(solve_with(&m, 1, KKT_N, 1, KKT_N, KKT_N, garbage, &poisoned) == -14);
  CHECK(capture_end("IFACT holds no factorization of this library"));
  CHECK(poisoned);
  CHECK(solve_with(&m, 1, KKT_N, 2, KKT_N, 2 * KKT_N, m.ifact, &poisoned) == 0);
  CHECK(!poisoned);

  /* ma57ed_: IFACT copied into a longer array carries the factorization. */
  {
    int ic = 1, linew = 16, lnew = 0, short_length = 4;
    double newfac = 0;
    ma57ed_(&m.n, &ic, m.keep, m.fact, &m.lfact, &newfac, &lnew, m.ifact,
            &m.lifact, copy, &linew, m.info);
    CHECK(m.info[0] == 0);
    CHECK(solve_with(&m, 1, KKT_N, 1, KKT_N, KKT_N, copy, &poisoned) == 0);
    CHECK(!poisoned);
    ma57ed_(&m.n, &ic, m.keep, m.fact, &m.lfact, &newfac, &lnew, m.ifact,
            &m.lifact, copy, &short_length, m.info);
    CHECK(m.info[0] == -7 && m.info[1] == 4);
    ic = 0;
    ma57ed_(&m.n, &ic, m.keep, m.fact, &m.lfact, &newfac, &lnew, m.ifact,
            &m.lifact, copy, &linew, m.info);
    CHECK(m.info[0] == -7); /* LNEW = 0 < LFACT */
  }
  ma57_free(&m);
}

void test_ma57_pivot_threshold(void) {
  ma57_arrays m;
  double a[KKT_NE];
  setenv("FACTORD_HSL_VERBOSE", "1", 1); /* read on the first call */
  fixture_daemon();
  kkt_values(1.0, a);
  ma57_init(&m, KKT_N, KKT_NE);
  CHECK(ma57_analyse(&m, KKT_IRN, KKT_JCN) == 2);
  m.cntl[0] = 0.2;
  capture_begin(1);
  CHECK(ma57_factorize(&m, a) == 0);
  CHECK(capture_end("u 0.2,"));
  m.cntl[0] = 0.9; /* MA57 takes values above 0.5 as 0.5 */
  capture_begin(2);
  CHECK(ma57_factorize(&m, a) == 0);
  CHECK(capture_end("CNTL(1) = 0.9 is outside factord's (0, 0.5]: using 0.5"));
  capture_begin(1);
  CHECK(ma57_factorize(&m, a) == 0);
  CHECK(capture_end("u 0.5,"));
  m.cntl[0] = 0; /* MA57: no threshold test */
  capture_begin(1);
  CHECK(ma57_factorize(&m, a) == 0);
  CHECK(capture_end("u 1e-10,"));
  CHECK(m.info[23] == 2);
  ma57_free(&m);
}
