/* What libpardiso does with numerical outcomes and the iparm entries it
 * does not map: an ldlt factorization whose inertia the daemon does not
 * trust (shown through the C API first) is refactorized with a raised
 * pivot threshold before its inertia reaches IPARM(22)/(23); solves that do
 * not converge return 0 (as PARDISO's do) and say so at msglvl 1;
 * IPARM(1) = 0 takes the defaults; IPARM(33) (determinant) is refused. */
#include <stdlib.h>
#include <string.h>

#include "pardiso_fixture.h"
#include "pardiso_tests.h"

/* The planted system: pivot growth that ldlt's a-posteriori factor check
 * sees, with no pivot perturbed (status ok, inertia not reliable) under the
 * default pivot threshold 0.01 and the default (AMD) ordering. Two pairs of
 * leaves x1, x2 with pivots +-1/9.9e8 and +-1/(9.9e8 - d) (taken in the
 * weak pass: they fail the threshold test against their couplings of 1)
 * leave, at their parent p, a pivot of about d next to couplings of about
 * 2e9 to r and t0; p passes the threshold test at u = 0.01 (d / 2e9 just
 * above it), and the two pairs' updates, d = 2e7 and 2.06e7, nearly cancel
 * on r's diagonal and add up on (t0, r), so that r too passes with |l| near
 * 1/u. A clique t0..t29 (diagonal 1, 0.01 elsewhere), explicit zeros and
 * the leaves y and z shape AMD's order and the fronts so that this happens
 * in that order. Every row's largest entry is 1: Ruiz scaling leaves the
 * matrix as it is. At u = 0.1 p and r are no longer taken this way and the
 * factor is trusted, with the same inertia (36 positive, 4 negative). */
enum { kCliqueSize = 30, kPlantedN = kCliqueSize + 10, kPlantedMaxNnz = 700 };
static const int64_t kPlantedPositive = 36, kPlantedNegative = 4;

typedef struct planted {
  int nnz;
  int row[kPlantedMaxNnz], col[kPlantedMaxNnz]; /* 0-based, row <= col */
  double value[kPlantedMaxNnz];
  /* 1-based CSR of the upper triangle, rows sorted, as PARDISO takes it */
  int ia[kPlantedN + 1], ja[kPlantedMaxNnz];
  double a[kPlantedMaxNnz];
} planted;

static void add(planted* p, int i, int j, double v) {
  if (i > j) {
    const int k = i;
    i = j;
    j = k;
  }
  p->row[p->nnz] = i;
  p->col[p->nnz] = j;
  p->value[p->nnz] = v;
  ++p->nnz;
}

static void build_planted(planted* p) {
  const int r = kCliqueSize, z = kCliqueSize + 1;
  int i, j, g, k, e;
  memset(p, 0, sizeof *p);
  for (i = 0; i < kCliqueSize; ++i) {
    add(p, i, i, 1.0);
    for (j = 0; j < i; ++j) add(p, i, j, 0.01);
  }
  add(p, r, r, 1.0);
  for (i = 0; i < 20; ++i) add(p, r, i, 0.0);
  add(p, z, z, 1.0);
  add(p, z, r, 0.5);
  for (i = 10; i < 17; ++i) add(p, z, i, 0.0);
  for (g = 0; g < 2; ++g) {
    const double sign = g == 0 ? 1 : -1, d = g == 0 ? 2e7 : 2.06e7;
    const double inv1 = 9.9e8, inv2 = inv1 - d;
    const int x1 = z + 1 + 4 * g, x2 = x1 + 1, y = x1 + 2, q = x1 + 3;
    add(p, x1, x1, sign / inv1);
    add(p, x2, x2, -sign / inv2);
    add(p, y, y, 1.0);
    add(p, q, q, 0.0);
    add(p, q, x1, 1.0);
    add(p, r, x1, 1.0);
    add(p, 0, x1, sign);
    add(p, q, x2, 1.0);
    add(p, r, x2, -1.0);
    add(p, 0, x2, -sign);
    add(p, q, y, 0.5);
    for (i = 20 + 3 * g; i < 23 + 3 * g; ++i) add(p, y, i, 0.0);
    add(p, q, r, 0.0);
    for (i = 1 + 3 * g; i < 4 + 3 * g; ++i) add(p, q, i, 0.0);
  }
  /* CSR of the upper triangle by counting (columns in entry order). */
  for (e = 0; e < p->nnz; ++e) ++p->ia[p->row[e] + 1];
  p->ia[0] = 1;
  for (i = 0; i < kPlantedN; ++i) p->ia[i + 1] += p->ia[i];
  for (i = 0; i < kPlantedN; ++i) {
    k = p->ia[i] - 1;
    for (e = 0; e < p->nnz; ++e) {
      if (p->row[e] != i) continue;
      p->ja[k] = p->col[e] + 1;
      p->a[k] = p->value[e];
      ++k;
    }
  }
}

/* The C API's report on the planted system: status ok, inertia not
 * reliable (the condition libpardiso must not hand on as it is). */
static void check_capi_report(const planted* p) {
  factord_handle* h = NULL;
  factord_matrix m;
  factord_factorize_options f;
  factord_factor_report r;
  factord_matrix_init(&m);
  m.n = kPlantedN;
  m.format = FACTORD_COO;
  m.structure = FACTORD_SYMMETRIC;
  m.triangle = FACTORD_UPPER;
  m.nnz = p->nnz;
  m.row_idx = p->row;
  m.col_idx = p->col;
  m.values = p->value;
  CHECK_OK(factord_connect(g_daemon.address, NULL, &h));
  CHECK_OK(factord_upload(h, &m, "planted-growth", 0, NULL, 0, NULL));
  factord_factorize_options_init(&f);
  f.method = "ldlt";
  CHECK_OK(factord_factorize(h, "planted-growth", &f, NULL));
  CHECK_OK(factord_last_factor_report(h, "planted-growth", &r));
  CHECK(r.status == FACTORD_FACTOR_OK);
  CHECK(r.inertia_reliable == 0);
  CHECK(r.perturbed_pivots == 0);
  /* A larger pivot threshold gives a factor whose inertia is trusted. */
  f.pivot_threshold = 0.1;
  CHECK_OK(factord_factorize(h, "planted-growth", &f, NULL));
  CHECK_OK(factord_last_factor_report(h, "planted-growth", &r));
  CHECK(r.status == FACTORD_FACTOR_OK && r.inertia_reliable == 1);
  CHECK(r.positive == kPlantedPositive && r.negative == kPlantedNegative &&
        r.zero == 0);
  factord_release(h, "planted-growth", NULL);
  factord_disconnect(h);
}

void test_unreliable_inertia(void) {
  static planted p;
  void* pt[64];
  int iparm[64], i;
  double dparm[64], b[kPlantedN], x[kPlantedN];
  build_planted(&p);
  fixture_daemon();
  check_capi_report(&p);

  /* Through libpardiso as Ipopt calls it: the phase refactorizes at
   * u = 0.1 by itself, and IPARM(22)/(23) are the trusted inertia. */
  ipopt_init(pt, -2, iparm, dparm);
  capture_begin(1);
  CHECK(call_pardiso(pt, 1, 1, -2, 12, kPlantedN, p.a, p.ia, p.ja, 0, iparm, 1,
                     NULL, NULL) == 0);
  CHECK(capture_end("inertia unreliable: pivot threshold raised to 0.1"));
  CHECK(iparm[21] == kPlantedPositive && iparm[22] == kPlantedNegative);
  CHECK(iparm[13] == 0);
  /* The raised threshold stays: the next factorization is trusted at once
   * (no second raise in its line). */
  capture_begin(1);
  CHECK(call_pardiso(pt, 1, 1, -2, 22, kPlantedN, p.a, p.ia, p.ja, 0, iparm, 1,
                     NULL, NULL) == 0);
  CHECK(!capture_end("inertia unreliable"));
  CHECK(iparm[21] == kPlantedPositive && iparm[22] == kPlantedNegative);
  /* A solve with that factor: b = A * ones. */
  for (i = 0; i < kPlantedN; ++i) b[i] = 0;
  for (i = 0; i < p.nnz; ++i) {
    b[p.row[i]] += p.value[i];
    if (p.row[i] != p.col[i]) b[p.col[i]] += p.value[i];
  }
  CHECK(call_pardiso(pt, 1, 1, -2, 33, kPlantedN, p.a, p.ia, p.ja, 1, iparm, 0,
                     b, x) == 0);
  for (i = 0; i < kPlantedN; ++i) x[i] = 1;
  CHECK_NEAR_VEC(b, x, kPlantedN, 1e-6);
  CHECK(call_pardiso(pt, 1, 1, -2, -1, kPlantedN, NULL, NULL, NULL, 0, iparm, 0,
                     NULL, NULL) == 0);
}

void test_unconverged_solves(void) {
  /* [1 1; 1 1 + 1e-11] (condition number 4e11) and b = (0.3, -0.7): x is
   * about 1e11 (1, -1), and ||b - Ax|| / ||b|| stays near eps ||A|| ||x|| /
   * ||b||, far above the daemon's 1e-8 (measured 5.7e-6), with a backward
   * error of eps: not converged, the factorization ok. */
  static const int ia[3] = {1, 3, 4}, ja[3] = {1, 2, 2};
  static const double a[3] = {1, 1, 1 + 1e-11};
  /* K with two equal constraint rows (singular, pivots perturbed) and a
   * right-hand side that differs in them: no solution, solve singular. */
  static const int kia[KKT_N + 1] = {1, 5, 8, 9, 10, 11};
  static const int kja[KKT_NNZ] = {1, 2, 4, 5, 2, 4, 5, 3, 4, 5};
  static const double ka[KKT_NNZ] = {4, 1, 1, 1, 3, 1, 1, 2, 0, 0};
  void* pt[64];
  int iparm[64];
  double dparm[64], b[KKT_N], x[KKT_N];
  fixture_daemon();
  ipopt_init(pt, -2, iparm, dparm);
  b[0] = 0.3;
  b[1] = -0.7;
  CHECK(call_pardiso(pt, 1, 1, -2, 12, 2, a, ia, ja, 0, iparm, 0, NULL, NULL) ==
        0);
  CHECK(iparm[13] == 0);
  capture_begin(1);
  CHECK(call_pardiso(pt, 1, 1, -2, 33, 2, a, ia, ja, 1, iparm, 1, b, x) == 0);
  CHECK(capture_end("1 not converged (worst: not converged"));
  CHECK(fabs(b[0] + b[1]) < 1e-3 * fabs(b[0]) && fabs(b[0]) > 1e10);

  CHECK(call_pardiso(pt, 1, 1, -2, 12, KKT_N, ka, kia, kja, 0, iparm, 0, NULL,
                     NULL) == 0);
  CHECK(iparm[13] > 0); /* what phase 22 says about a singular matrix */
  b[0] = b[1] = b[2] = 1;
  b[3] = 1;
  b[4] = 2;
  capture_begin(1);
  CHECK(call_pardiso(pt, 1, 1, -2, 33, KKT_N, ka, kia, kja, 1, iparm, 1, b,
                     x) == 0);
  CHECK(capture_end("1 not converged (worst: singular"));
  /* Phase 23 says the same in its line. */
  b[0] = b[1] = b[2] = b[3] = 1;
  b[4] = 2;
  capture_begin(1);
  CHECK(call_pardiso(pt, 1, 1, -2, 23, KKT_N, ka, kia, kja, 1, iparm, 1, b,
                     x) == 0);
  CHECK(capture_end("1 rhs solved, 1 not converged (worst: singular"));
  CHECK(call_pardiso(pt, 1, 1, -2, -1, KKT_N, NULL, NULL, NULL, 0, iparm, 0,
                     NULL, NULL) == 0);
}

void test_iparm_defaults_and_determinant(void) {
  void* pt[64];
  int iparm[64], i;
  double dparm[64], b[KKT_N], x[KKT_N], want[KKT_N];
  fixture_daemon();
  ipopt_init(pt, -2, iparm, dparm);
  memcpy(want, KKT_X, sizeof want);
  kkt_multiply(KKT_X, 1.0, NULL, b);

  /* IPARM(33) = 1 asks for the determinant: refused where it would be
   * computed (analysis and factorization phases), with the reason. */
  iparm[32] = 1;
  capture_begin(2);
  CHECK(call_pardiso(pt, 1, 1, -2, 11, KKT_N, KKT_A, KKT_IA, KKT_JA, 0, iparm,
                     0, NULL, NULL) == -1);
  CHECK(capture_end("iparm(33) = 1: the determinant is not computed"));
  CHECK(call_pardiso(pt, 1, 1, -2, 13, KKT_N, KKT_A, KKT_IA, KKT_JA, 1, iparm,
                     0, b, x) == -1);
  iparm[32] = 0;
  CHECK(call_pardiso(pt, 1, 1, -2, 12, KKT_N, KKT_A, KKT_IA, KKT_JA, 0, iparm,
                     0, NULL, NULL) == 0);
  iparm[32] = 1;
  CHECK(call_pardiso(pt, 1, 1, -2, 22, KKT_N, KKT_A, KKT_IA, KKT_JA, 0, iparm,
                     0, NULL, NULL) == -1);

  /* IPARM(1) = 0: every entry but IPARM(3) takes its default, whatever the
   * caller left there (here a user permutation, a transposed solve, the
   * iterative solver and the determinant, each refused when meant). The
   * solution then goes to x (IPARM(6) = 0 by default), b is untouched. */
  iparm[0] = 0;
  iparm[2] = 7;
  iparm[4] = 1;
  iparm[5] = 1;
  iparm[11] = 1;
  iparm[31] = 1;
  iparm[32] = 1;
  for (i = 0; i < KKT_N; ++i) x[i] = 0;
  CHECK(call_pardiso(pt, 1, 1, -2, 13, KKT_N, KKT_A, KKT_IA, KKT_JA, 1, iparm,
                     0, b, x) == 0);
  CHECK_NEAR_VEC(x, want, KKT_N, 1e-10);
  CHECK(iparm[0] == 0 && iparm[2] == 7);
  CHECK(iparm[1] == 2 && iparm[4] == 0 && iparm[5] == 0 && iparm[9] == 8 &&
        iparm[11] == 0 && iparm[20] == 1 && iparm[31] == 0 && iparm[32] == 0);
  CHECK(iparm[21] == 3 && iparm[22] == 2); /* outputs still written */
  CHECK(call_pardiso(pt, 1, 1, -2, -1, KKT_N, NULL, NULL, NULL, 0, iparm, 0,
                     NULL, NULL) == 0);
}
