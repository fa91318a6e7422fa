/* libpardiso through its phases as Ipopt drives them: a KKT system through
 * 11, 22, 33 (solution, inertia in IPARM(22)/(23), IPARM(6) both ways),
 * new values, a repeated phase 11 on the unchanged pattern that sends
 * nothing (the daemon's generation and the library's upload counter), 23,
 * 12, 13, 0 and -1; distinct factors by mnum; the general (1, 11) and SPD
 * (2) types; perturbed pivots and the raised pivot threshold. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "pardiso_fixture.h"
#include "pardiso_tests.h"

void test_kkt_phases(void) {
  void* pt[64];
  int iparm[64], i;
  double dparm[64], a2[KKT_NNZ], a3[KKT_NNZ];
  double b[2 * KKT_N], b0[2 * KKT_N], x[2 * KKT_N], want[2 * KKT_N];
  fixture_daemon();
  ipopt_init(pt, -2, iparm, dparm);
  for (i = 0; i < KKT_NNZ; ++i) {
    a2[i] = 2 * KKT_A[i];
    a3[i] = 3 * KKT_A[i];
  }

  /* 11: pattern and values sent once. */
  CHECK(call_pardiso(pt, 1, 1, -2, 11, KKT_N, KKT_A, KKT_IA, KKT_JA, 0, iparm,
                     1, NULL, NULL) == 0);
  CHECK(factord_pardiso_uploads(pt) == 1);
  CHECK(daemon_generation(pt, 1) == 1);
  CHECK(iparm[14] > 0); /* IPARM(15): memory of the analysis, KB */

  /* 22: the same values are not sent again. */
  CHECK(call_pardiso(pt, 1, 1, -2, 22, KKT_N, KKT_A, KKT_IA, KKT_JA, 0, iparm,
                     1, NULL, NULL) == 0);
  CHECK(iparm[21] == 3 && iparm[22] == 2); /* IPARM(22), IPARM(23) */
  CHECK(iparm[13] == 0);                   /* IPARM(14): perturbed */
  CHECK(iparm[17] > 0);                    /* IPARM(18): nnz(L) */
  CHECK(daemon_generation(pt, 1) == 1);

  /* 33 with IPARM(6) = 1 (Ipopt): the solution overwrites b; x untouched. */
  kkt_multiply(KKT_X, 1.0, NULL, b);
  for (i = 0; i < KKT_N; ++i) x[i] = 777;
  CHECK(call_pardiso(pt, 1, 1, -2, 33, KKT_N, KKT_A, KKT_IA, KKT_JA, 1, iparm,
                     1, b, x) == 0);
  CHECK_NEAR_VEC(b, KKT_X, KKT_N, 1e-10);
  CHECK(x[0] == 777 && x[KKT_N - 1] == 777);
  CHECK(iparm[6] >= 0); /* IPARM(7): refinement steps */

  /* 33 with IPARM(6) = 0: two right-hand sides into x, b unchanged. */
  iparm[5] = 0;
  for (i = 0; i < KKT_N; ++i) {
    want[i] = KKT_X[i];
    want[KKT_N + i] = -KKT_X[i];
  }
  kkt_multiply(want, 1.0, NULL, b);
  kkt_multiply(want + KKT_N, 1.0, NULL, b + KKT_N);
  memcpy(b0, b, sizeof b);
  CHECK(call_pardiso(pt, 1, 1, -2, 33, KKT_N, KKT_A, KKT_IA, KKT_JA, 2, iparm,
                     0, b, x) == 0);
  CHECK_NEAR_VEC(x, want, 2 * KKT_N, 1e-10);
  CHECK(memcmp(b, b0, sizeof b) == 0);

  /* New values: 22 sends them (generation 2). */
  CHECK(call_pardiso(pt, 1, 1, -2, 22, KKT_N, a2, KKT_IA, KKT_JA, 0, iparm, 0,
                     NULL, NULL) == 0);
  CHECK(daemon_generation(pt, 1) == 2);
  kkt_multiply(KKT_X, 2.0, NULL, b);
  CHECK(call_pardiso(pt, 1, 1, -2, 33, KKT_N, a2, KKT_IA, KKT_JA, 1, iparm, 0,
                     b, x) == 0);
  CHECK_NEAR_VEC(x, KKT_X, KKT_N, 1e-10);

  /* A repeated phase 11 on the unchanged pattern sends nothing. */
  capture_begin(1);
  CHECK(call_pardiso(pt, 1, 1, -2, 11, KKT_N, a2, KKT_IA, KKT_JA, 0, iparm, 1,
                     NULL, NULL) == 0);
  CHECK(capture_end("pattern unchanged, nothing sent"));
  CHECK(factord_pardiso_uploads(pt) == 1);
  CHECK(daemon_generation(pt, 1) == 2);
  capture_begin(1); /* the daemon's analysis is reused, no values sent */
  CHECK(call_pardiso(pt, 1, 1, -2, 22, KKT_N, a2, KKT_IA, KKT_JA, 0, iparm, 1,
                     NULL, NULL) == 0);
  CHECK(capture_end("analysis reused, values unchanged"));
  CHECK(daemon_generation(pt, 1) == 2);

  /* 23: new values, factorization and solve in one call. */
  iparm[5] = 1;
  kkt_multiply(KKT_X, 3.0, NULL, b);
  CHECK(call_pardiso(pt, 1, 1, -2, 23, KKT_N, a3, KKT_IA, KKT_JA, 1, iparm, 1,
                     b, x) == 0);
  CHECK_NEAR_VEC(b, KKT_X, KKT_N, 1e-10);
  CHECK(daemon_generation(pt, 1) == 3);
  /* 12 and 13 on the same pattern: no upload either. */
  CHECK(call_pardiso(pt, 1, 1, -2, 12, KKT_N, KKT_A, KKT_IA, KKT_JA, 0, iparm,
                     0, NULL, NULL) == 0);
  kkt_multiply(KKT_X, 1.0, NULL, b);
  CHECK(call_pardiso(pt, 1, 1, -2, 13, KKT_N, KKT_A, KKT_IA, KKT_JA, 1, iparm,
                     0, b, x) == 0);
  CHECK_NEAR_VEC(b, KKT_X, KKT_N, 1e-10);
  CHECK(factord_pardiso_uploads(pt) == 1);

  /* 0 frees matrix 1 on the daemon; solving needs a new phase 22. */
  CHECK(call_pardiso(pt, 1, 1, -2, 0, KKT_N, NULL, NULL, NULL, 0, iparm, 0,
                     NULL, NULL) == 0);
  CHECK(daemon_generation(pt, 1) == 0);
  CHECK(call_pardiso(pt, 1, 1, -2, 33, KKT_N, KKT_A, KKT_IA, KKT_JA, 1, iparm,
                     0, b, x) == -1);
  CHECK(call_pardiso(pt, 1, 1, -2, 22, KKT_N, KKT_A, KKT_IA, KKT_JA, 0, iparm,
                     0, NULL, NULL) == 0);
  CHECK(factord_pardiso_uploads(pt) == 2);

  /* -1 frees everything and zeroes the handle. */
  CHECK(call_pardiso(pt, 1, 1, -2, -1, KKT_N, NULL, NULL, NULL, 0, iparm, 0,
                     NULL, NULL) == 0);
  CHECK(pt[0] == NULL && pt[1] == NULL);
  CHECK(factord_pardiso_uploads(pt) == -1);
}

void test_distinct_factors(void) {
  void* pt[64];
  int iparm[64], i;
  double dparm[64], a2[KKT_NNZ], b[KKT_N], x[KKT_N];
  char id1[FACTORD_ID_MAX], id2[FACTORD_ID_MAX];
  int mtype = -2, solver = 0, error = 1;
  fixture_daemon();
  /* pardisoinit's own defaults this time (IPARM(2) = 2: METIS ordering). */
  pardisoinit(pt, &mtype, &solver, iparm, dparm, &error);
  CHECK(error == 0 && iparm[1] == 2 && iparm[5] == 0);
  for (i = 0; i < KKT_NNZ; ++i) a2[i] = 2 * KKT_A[i];

  /* One analysis for both, then each mnum its own factor. */
  CHECK(call_pardiso(pt, 2, 1, -2, 11, KKT_N, KKT_A, KKT_IA, KKT_JA, 0, iparm,
                     0, NULL, NULL) == 0);
  CHECK(call_pardiso(pt, 2, 1, -2, 22, KKT_N, KKT_A, KKT_IA, KKT_JA, 0, iparm,
                     0, NULL, NULL) == 0);
  CHECK(call_pardiso(pt, 2, 2, -2, 22, KKT_N, a2, KKT_IA, KKT_JA, 0, iparm, 0,
                     NULL, NULL) == 0);
  CHECK(factord_pardiso_matrix_id(pt, 1, id1, sizeof id1) == 0);
  CHECK(factord_pardiso_matrix_id(pt, 2, id2, sizeof id2) == 0);
  CHECK(strcmp(id1, id2) != 0);
  CHECK(factord_pardiso_uploads(pt) == 2);

  kkt_multiply(KKT_X, 2.0, NULL, b);
  CHECK(call_pardiso(pt, 2, 1, -2, 33, KKT_N, KKT_A, KKT_IA, KKT_JA, 1, iparm,
                     0, b, x) == 0);
  for (i = 0; i < KKT_N; ++i) x[i] /= 2;
  CHECK_NEAR_VEC(x, KKT_X, KKT_N, 1e-10); /* matrix 1: K */
  CHECK(call_pardiso(pt, 2, 2, -2, 33, KKT_N, a2, KKT_IA, KKT_JA, 1, iparm, 0,
                     b, x) == 0);
  CHECK_NEAR_VEC(x, KKT_X, KKT_N, 1e-10); /* matrix 2: 2K */

  /* Releasing one leaves the other. */
  CHECK(call_pardiso(pt, 2, 2, -2, 0, KKT_N, NULL, NULL, NULL, 0, iparm, 0,
                     NULL, NULL) == 0);
  CHECK(call_pardiso(pt, 2, 1, -2, 33, KKT_N, KKT_A, KKT_IA, KKT_JA, 1, iparm,
                     0, b, x) == 0);
  CHECK(call_pardiso(pt, 2, 2, -2, 33, KKT_N, a2, KKT_IA, KKT_JA, 1, iparm, 0,
                     b, x) == -1);
  CHECK(call_pardiso(pt, 2, 3, -2, 22, KKT_N, a2, KKT_IA, KKT_JA, 0, iparm, 0,
                     NULL, NULL) == -1); /* mnum > maxfct */
  CHECK(call_pardiso(pt, 2, 1, -2, -1, KKT_N, NULL, NULL, NULL, 0, iparm, 0,
                     NULL, NULL) == 0);
}

void test_general_and_spd(void) {
  /* K with every entry, 1-based CSR. */
  static const int ia[KKT_N + 1] = {1, 4, 8, 10, 13, 16};
  static const int ja[15] = {1, 2, 4, 1, 2, 4, 5, 3, 5, 1, 2, 4, 2, 3, 5};
  static const double a[15] = {4, 1, 1, 1, 3, 1, 1, 2, 1, 1, 1, 0, 1, 1, 0};
  /* H alone, upper triangle. */
  static const int hia[4] = {1, 3, 4, 5};
  static const int hja[4] = {1, 2, 2, 3};
  static const double ha[4] = {4, 1, 3, 2};
  const double hx[3] = {1, -2, 3};
  const int types[2] = {11, 1};
  void* pt[64];
  int iparm[64], t;
  double dparm[64], b[KKT_N], x[KKT_N];
  fixture_daemon();

  for (t = 0; t < 2; ++t) {
    ipopt_init(pt, types[t], iparm, dparm);
    iparm[5] = 0;
    kkt_multiply(KKT_X, 1.0, NULL, b);
    CHECK(call_pardiso(pt, 1, 1, types[t], 13, KKT_N, a, ia, ja, 1, iparm, 1, b,
                       x) == 0);
    CHECK_NEAR_VEC(x, KKT_X, KKT_N, 1e-10);
    /* The upper triangle alone is a different (valid) general matrix; the
     * lower-triangle check is for symmetric types only. */
    CHECK(call_pardiso(pt, 1, 1, types[t], -1, KKT_N, NULL, NULL, NULL, 0,
                       iparm, 0, NULL, NULL) == 0);
  }

  /* SPD: H solves, with inertia (3, 0). */
  ipopt_init(pt, 2, iparm, dparm);
  iparm[5] = 0;
  b[0] = 4 * 1 + 1 * -2;
  b[1] = 1 * 1 + 3 * -2;
  b[2] = 2 * 3;
  CHECK(call_pardiso(pt, 1, 1, 2, 12, 3, ha, hia, hja, 0, iparm, 1, NULL,
                     NULL) == 0);
  CHECK(iparm[21] == 3 && iparm[22] == 0);
  CHECK(call_pardiso(pt, 1, 1, 2, 33, 3, ha, hia, hja, 1, iparm, 1, b, x) == 0);
  CHECK_NEAR_VEC(x, hx, 3, 1e-10);
  /* K declared SPD is refused as PARDISO does: a zero/indefinite pivot. */
  CHECK(call_pardiso(pt, 1, 1, 2, 12, KKT_N, KKT_A, KKT_IA, KKT_JA, 0, iparm, 0,
                     NULL, NULL) == -4);
  CHECK(call_pardiso(pt, 1, 1, 2, 33, KKT_N, KKT_A, KKT_IA, KKT_JA, 1, iparm, 0,
                     b, x) == -1);
  CHECK(call_pardiso(pt, 1, 1, 2, -1, 3, NULL, NULL, NULL, 0, iparm, 0, NULL,
                     NULL) == 0);
}

void test_perturbed_pivots(void) {
  /* H with A = [1 1 0; 1 1 0]: two equal constraint rows, K singular. */
  static const int ia[KKT_N + 1] = {1, 5, 8, 9, 10, 11};
  static const int ja[KKT_NNZ] = {1, 2, 4, 5, 2, 4, 5, 3, 4, 5};
  static const double a[KKT_NNZ] = {4, 1, 1, 1, 3, 1, 1, 2, 0, 0};
  void* pt[64];
  int iparm[64];
  double dparm[64];
  fixture_daemon();
  ipopt_init(pt, -2, iparm, dparm);

  /* Perturbed, not an error (PARDISO's behaviour): IPARM(14) > 0 and the
   * pivots still add up to n. */
  CHECK(call_pardiso(pt, 1, 1, -2, 12, KKT_N, a, ia, ja, 0, iparm, 1, NULL,
                     NULL) == 0);
  CHECK(iparm[13] > 0);
  CHECK(iparm[21] + iparm[22] == KKT_N);
  /* Ipopt then asks for a new analysis: the pivot threshold goes up. */
  capture_begin(1);
  CHECK(call_pardiso(pt, 1, 1, -2, 11, KKT_N, a, ia, ja, 0, iparm, 1, NULL,
                     NULL) == 0);
  CHECK(capture_end("pivot threshold raised to 0.1"));
  CHECK(call_pardiso(pt, 1, 1, -2, 22, KKT_N, a, ia, ja, 0, iparm, 1, NULL,
                     NULL) == 0);
  capture_begin(1);
  CHECK(call_pardiso(pt, 1, 1, -2, 11, KKT_N, a, ia, ja, 0, iparm, 1, NULL,
                     NULL) == 0);
  CHECK(capture_end("pivot threshold raised to 0.5"));
  CHECK(factord_pardiso_uploads(pt) == 1);
  CHECK(call_pardiso(pt, 1, 1, -2, -1, KKT_N, NULL, NULL, NULL, 0, iparm, 0,
                     NULL, NULL) == 0);
}
