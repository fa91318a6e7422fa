/* MA27 through libhsl as Ipopt drives it (IW and A replaced by new arrays
 * after the analysis, one ma27cd_ per right-hand side): the KKT system
 * (inertia in INFO(15)), planted inertia with new values, a singular
 * matrix (IFLAG 3, rank in INFO(2)), entries out of range (IFLAG 1), and
 * the bad-input classes with MA27's codes; a solve that cannot be done
 * leaves NaN and a line on stderr (ma27cd_ has no status). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "hsl_fixture.h"
#include "hsl_tests.h"

void test_ma27_kkt(void) {
  enum { N = 200 };
  static int irn[3 * N], jcn[3 * N];
  static double a[3 * N], x[N], b[N];
  ma27_arrays m;
  double v[KKT_NE], r[KKT_N];
  int ne, i, old_iw[8];
  unsigned seed;
  fixture_daemon();
  kkt_values(1.0, v);
  ma27_init(&m, KKT_N, KKT_NE);
  CHECK(ma27_analyse(&m, KKT_IRN, KKT_JCN) == 0); /* duplicates: no flag */
  CHECK(m.nsteps >= 1);
  CHECK(m.info[4] >= KKT_NE && m.info[5] >= 8); /* NRLNEC, NIRNEC */
  CHECK(ma27_factorize(&m, KKT_IRN, KKT_JCN, v) == 0);
  CHECK(m.info[14] == 2);                    /* INFO(15): negative */
  CHECK(m.info[11] == 0 && m.info[12] == 0); /* no compressions */
  CHECK(m.maxfrt >= 1);
  kkt_multiply(KKT_X, 1.0, NULL, r);
  ma27_solve(&m, r);
  CHECK_NEAR_VEC(r, KKT_X, KKT_N, 1e-10);
  /* New values; the previous IW no longer solves. */
  memcpy(old_iw, m.iw, sizeof old_iw);
  kkt_values(-3.0, v); /* -3 K: inertia (+2, -3) */
  CHECK(ma27_factorize(&m, KKT_IRN, KKT_JCN, v) == 0);
  CHECK(m.info[14] == 3);
  kkt_multiply(KKT_X, -3.0, NULL, r);
  ma27_solve(&m, r);
  CHECK_NEAR_VEC(r, KKT_X, KKT_N, 1e-10);
  memcpy(m.iw, old_iw, sizeof old_iw);
  kkt_multiply(KKT_X, -3.0, NULL, r);
  capture_begin(2);
  ma27_solve(&m, r);
  CHECK(capture_end("factord hsl: ma27cd: solve failed, solution set to NaN"));
  CHECK(all_nan(r, KKT_N));
  CHECK(factord_hsl_uploads() == 1);
  ma27_free(&m);

  /* Planted inertia, three sets of values on one analysis. */
  ne = planted_tridiagonal(N, 7u, irn, jcn, a);
  ma27_init(&m, N, ne);
  CHECK(ma27_analyse(&m, irn, jcn) == 0);
  for (seed = 7; seed <= 9; ++seed) {
    planted_tridiagonal(N, seed, irn, jcn, a);
    CHECK(ma27_factorize(&m, irn, jcn, a) == 0);
    CHECK(m.info[14] == planted_negative(N));
    for (i = 0; i < N; ++i) x[i] = 1.0 + (double)(i % 5) * seed;
    triplet_multiply(N, ne, irn, jcn, a, x, b);
    ma27_solve(&m, b);
    CHECK_NEAR_VEC(b, x, N, 1e-8);
  }
  CHECK(factord_hsl_uploads() == 2);
  ma27_free(&m);
}

void test_ma27_singular(void) {
  /* The singular KKT matrix of test_ma57_singular (rank 4). */
  static const int irn[] = {1, 2, 3, 4, 4, 5, 5, 4, 5};
  static const int jcn[] = {1, 2, 3, 1, 2, 1, 2, 4, 5};
  static const double a[] = {2, 2, 2, 1, 1, 1, 1, 0, 0};
  int irn_out[KKT_NE + 1], jcn_out[KKT_NE + 1];
  double v[KKT_NE + 1], r[KKT_N];
  ma27_arrays m;
  fixture_daemon();
  ma27_init(&m, 5, 9);
  CHECK(ma27_analyse(&m, irn, jcn) == 0);
  CHECK(ma27_factorize(&m, irn, jcn, a) == 3);
  CHECK(m.info[1] == 4);  /* INFO(2): the rank */
  CHECK(m.info[14] == 1); /* negative; Ipopt adds N - rank for the zero */
  ma27_free(&m);

  /* An entry out of range: IFLAG 1 from the analysis (Ipopt stops there);
   * the factorization ignores it. */
  memcpy(irn_out, KKT_IRN, sizeof KKT_IRN);
  memcpy(jcn_out, KKT_JCN, sizeof KKT_JCN);
  kkt_values(1.0, v);
  irn_out[KKT_NE] = 0;
  jcn_out[KKT_NE] = 3;
  v[KKT_NE] = 1e6;
  ma27_init(&m, KKT_N, KKT_NE + 1);
  capture_begin(2);
  CHECK(ma27_analyse(&m, irn_out, jcn_out) == 1);
  CHECK(capture_end("ma27ad: warning 1: 1 entries outside 1..N = 5 ignored"));
  CHECK(m.info[1] == 1);
  CHECK(ma27_factorize(&m, irn_out, jcn_out, v) == 0);
  kkt_multiply(KKT_X, 1.0, NULL, r);
  ma27_solve(&m, r);
  CHECK_NEAR_VEC(r, KKT_X, KKT_N, 1e-10);
  ma27_free(&m);
}

void test_ma27_bad_input(void) {
  ma27_arrays m;
  double v[KKT_NE], r[KKT_N];
  int n, nz, iflag = 0, iw1[2 * KKT_N], la, liw;
  double ops;
  int irn2[KKT_NE];
  fixture_daemon();
  kkt_values(1.0, v);
  ma27_init(&m, KKT_N, KKT_NE);

  /* ma27ad_: N, NZ. */
  n = 0;
  nz = KKT_NE;
  capture_begin(2);
  ma27ad_(&n, &nz, KKT_IRN, KKT_JCN, iw1, &nz, m.ikeep, iw1, &m.nsteps, &iflag,
          m.icntl, m.cntl, m.info, &ops);
  CHECK(capture_end("factord hsl: ma27ad: error -1: N = 0"));
  CHECK(m.info[0] == -1 && m.info[1] == 0);
  n = KKT_N;
  nz = -3;
  ma27ad_(&n, &nz, KKT_IRN, KKT_JCN, iw1, &nz, m.ikeep, iw1, &m.nsteps, &iflag,
          m.icntl, m.cntl, m.info, &ops);
  CHECK(m.info[0] == -2 && m.info[1] == -3);
  CHECK(factord_hsl_sessions() == 0);

  CHECK(ma27_analyse(&m, KKT_IRN, KKT_JCN) == 0);
  /* ma27bd_: LA < NZ, LIW below the token, N < 1. */
  la = m.la;
  m.la = KKT_NE - 1;
  CHECK(ma27_factorize(&m, KKT_IRN, KKT_JCN, v) == -4);
  CHECK(m.info[1] == KKT_NE);
  m.la = la;
  liw = m.liw;
  m.liw = 7;
  capture_begin(2);
  CHECK(ma27_factorize(&m, KKT_IRN, KKT_JCN, v) == -3);
  CHECK(capture_end("LIW = 7 < 8"));
  CHECK(m.info[1] == 8); /* what suffices */
  m.liw = liw;
  m.n = 0;
  CHECK(ma27_factorize(&m, KKT_IRN, KKT_JCN, v) == -1);
  m.n = KKT_N;
  CHECK(ma27_factorize(&m, KKT_IRN, KKT_JCN, v) == 0);

  /* A pattern other than the analysis's: analysed again underneath. */
  memcpy(irn2, KKT_IRN, sizeof irn2);
  irn2[KKT_NE - 1] = 3; /* the duplicate (1,1) becomes (3,1), value 1 */
  CHECK(ma27_factorize(&m, irn2, KKT_JCN, v) == 0);
  CHECK(factord_hsl_uploads() == 2);
  CHECK(factord_hsl_sessions() == 1);

  /* ma27cd_: IW that holds no factorization, N that differs. */
  kkt_multiply(KKT_X, 1.0, NULL, r);
  m.iw[0] = 0;
  capture_begin(2);
  ma27_solve(&m, r);
  CHECK(capture_end("IW holds no factorization of this library"));
  CHECK(all_nan(r, KKT_N));
  CHECK(ma27_factorize(&m, KKT_IRN, KKT_JCN, v) == 0);
  m.n = KKT_N - 1;
  kkt_multiply(KKT_X, 1.0, NULL, r);
  capture_begin(2);
  ma27_solve(&m, r);
  CHECK(capture_end("differs from the factorization's 5"));
  CHECK(all_nan(r, KKT_N - 1));
  m.n = KKT_N;
  ma27_free(&m);
}
