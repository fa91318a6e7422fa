/* An interior-point loop on factord, in C99 (docs/tutorial.md explains it).
 *
 *   build/tests/tutorial/tutorial_ipm_loop_c [HOST:PORT]  (default:
 *       $FACTORD_SERVER, else 127.0.0.1:50051)
 *
 * The same loop as ipm_loop.cc, through the C API (factord/factord.h):
 * one upload, then per iteration new values, a factorization with a
 * diagonal shift and a solve in one round trip (factord_step), the inertia
 * read from the kept report, and the shift raised, without sending the
 * values again, while the inertia is wrong. Exits 1 on any failure: a
 * failed call, a wrong inertia no shift up to MAX_SHIFT repairs, or a
 * residual ||b - (K + S) x|| / ||b|| above 1e-10 (checked here; S is the
 * shift the system was factorized with).
 *
 * The matrix: HS21's KKT systems from tests/data/kkt/hs21/2x2 (K_0.mtx,
 * K_5.mtx) with one constraint stated twice, so that K is singular until
 * the dual shift regularizes it (docs/tutorial/ipm_loop.cc says more):
 *   K = [ -(H + Sigma)  J^T ]   n = 7 primal rows, m = 6 constraint rows;
 *       [  J            0   ]   right inertia: m positive, n negative.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "factord/factord.h"

#define N_PRIMAL 7
#define N_DUAL 6
#define N (N_PRIMAL + N_DUAL)
#define NNZ 27
#define ITERATIONS 6
#define FIRST_SHIFT 1e-8
#define MAX_SHIFT 1e2
#define MAX_RESIDUAL 1e-10

/* The lower triangle of K in 0-based CSR (any order within a row would do:
 * the library keeps the caller's entry order for later values). */
/* clang-format off */
static const int32_t kRowPtr[N + 1] = {0, 1, 2, 3, 4, 5, 6, 7,
                                       11, 14, 17, 20, 23, 27};
static const int32_t kColIdx[NNZ] = {
    0, 1, 2, 3, 4, 5, 6, /* -(H + Sigma): diagonal */
    0, 1, 2, 7,          /* row 7: x1 - 0.1 x2 - s3, and its 0 diagonal */
    0, 3, 8,             /* row 8: x1 - s4 */
    1, 4, 9,             /* row 9: x2 - s5 */
    0, 5, 10,            /* row 10: -x1 - s6 */
    1, 6, 11,            /* row 11: -x2 - s7 */
    0, 1, 2, 12};        /* row 12: row 7 again (a redundant constraint) */
static const double kJacobianRows[NNZ - N_PRIMAL] = { /* rows 7..12 */
    1, -0.1, -1, 0,
    1, -1, 0,
    1, -1, 0,
    -1, -1, 0,
    -1, -1, 0,
    1, -0.1, -1, 0};
/* -(H + Sigma) at the first and the last iteration. */
static const double kDiagonalFirst[N_PRIMAL] = {
    -1.02, -3.0, -1.063883614701997, -1.065671006227894,
    -1.032557516875519, -1.044001599037411, -1.032951324222853};
static const double kDiagonalLast[N_PRIMAL] = {
    -2.001e-02, -2.00001, -1.314996235409742e-03, -2.402009442522701e+01,
    -1.000503051902875e-05, -1.004911687634906e-05, -1.000503031143173e-05};
/* Right-hand sides (rhs_0.rhs, rhs_5.rhs); row 12 repeats row 7's. */
static const double kRhsFirst[N - 1] = {
    3.512550261791069772e-01, 8.260105861234724456e-01,
    3.595860515695483706e-01, 3.673829247267463849e-01,
    2.596992201338506057e-01, 3.720884650866249643e-01,
    2.528453932200291909e-01, 1.869884804808214440e+01,
    1.869894390844317655e+01, 1.869545923151247280e+01,
    1.869725662743306316e+01, 1.869554182431178901e+01};
static const double kRhsLast[N - 1] = {
    1.205700578626552055e-02,  -6.463974467696444442e-04,
    1.413878377173161333e-03,  5.748239156952227730e-03,
    1.954898755518794815e-07,  -1.028175051377282380e-04,
    3.091930112739409321e-07,  -3.054876355612634597e-05,
    -2.938344109226775913e-05, 4.824300333439168753e-06,
    3.930223521564357725e-05,  4.502950119444903976e-06};
/* clang-format on */

/* The values (NNZ, in the upload's entry order) and the right-hand side
 * (N) of iteration k: Sigma moves geometrically, J stays. */
static void iteration_data(int k, double* values, double* b) {
  const double t = (double)k / (ITERATIONS - 1);
  int i;
  for (i = 0; i < N_PRIMAL; ++i) {
    values[i] = -pow(-kDiagonalFirst[i], 1 - t) * pow(-kDiagonalLast[i], t);
  }
  memcpy(values + N_PRIMAL, kJacobianRows, sizeof kJacobianRows);
  for (i = 0; i < N - 1; ++i) b[i] = (1 - t) * kRhsFirst[i] + t * kRhsLast[i];
  b[N - 1] = b[7];
}

/* ||b - (K + S) x||_2 / ||b||_2, K symmetric given by its lower triangle,
 * S the shift: -shift on the primal rows, +shift on the others. */
static double relative_residual(const double* values, double shift,
                                const double* x, const double* b) {
  double r[N], rr = 0, bb = 0;
  int i, e;
  memcpy(r, b, sizeof r);
  for (i = 0; i < N; ++i) {
    r[i] -= (i < N_PRIMAL ? -shift : shift) * x[i];
    for (e = kRowPtr[i]; e < kRowPtr[i + 1]; ++e) {
      const int j = kColIdx[e];
      r[i] -= values[e] * x[j];
      if (j != i) r[j] -= values[e] * x[i]; /* the upper triangle */
    }
  }
  for (i = 0; i < N; ++i) rr += r[i] * r[i], bb += b[i] * b[i];
  return sqrt(rr / bb);
}

static int fail(const char* what) {
  char text[512];
  factord_last_error_copy(text, sizeof text);
  fprintf(stderr, "%s: %s\n", what, text);
  return 1;
}

/* Runs the loop on an uploaded matrix `id`; 0 on success. */
static int ipm_loop(factord_handle* h, const char* id, uint64_t generation) {
  double values[NNZ], b[N], x[N], last_shift = 0;
  factord_factorize_options f;
  factord_factor_report report;
  factord_solve_report solve;
  int64_t count;
  int k;
  factord_factorize_options_init(&f);
  f.method = "ldlt";
  f.shift_count = N_PRIMAL; /* shift_first: the primal rows */
  for (k = 0; k < ITERATIONS; ++k) {
    /* Ipopt's rule: start from a third of the last shift that worked. */
    double shift = last_shift / 3 < 1e-10 ? 0 : last_shift / 3;
    const double* new_values = values; /* sent once per iteration */
    double residual;
    iteration_data(k, values, b);
    for (;;) {
      /* New values, factorization with the shift, solve: one round trip.
       * -shift on the primal block, +shift on the dual one; applied only
       * at this generation, so that a retried step changes nothing. */
      f.shift_first = -shift;
      f.shift_rest = shift;
      f.expected_generation = generation;
      if (factord_step(h, id, new_values, &f, NULL, NULL, 1, b, x) !=
              FACTORD_OK ||
          factord_last_factor_report(h, id, &report) != FACTORD_OK) {
        return fail("step");
      }
      generation = report.generation;
      printf(
          "iteration %d: shift %.1e, inertia (+%lld, -%lld, 0:%lld) %s, "
          "analysis reused %d, generation %llu\n",
          k, shift, (long long)report.positive, (long long)report.negative,
          (long long)report.zero,
          report.status == FACTORD_FACTOR_OK          ? "ok"
          : report.status == FACTORD_FACTOR_PERTURBED ? "perturbed"
                                                      : "singular",
          report.analysis_reused, (unsigned long long)generation);
      /* The inertia: m positive, n negative, none zero. */
      if (report.status == FACTORD_FACTOR_OK && report.inertia_reliable &&
          report.positive == N_DUAL && report.negative == N_PRIMAL &&
          report.zero == 0) {
        break;
      }
      /* Wrong: raise the shift and refactorize the values the daemon
       * holds (NULL values: nothing is sent again). */
      shift = shift == 0 ? (last_shift > FIRST_SHIFT ? last_shift : FIRST_SHIFT)
                         : 10 * shift;
      if (shift > MAX_SHIFT) {
        fprintf(stderr, "iteration %d: no shift up to %g works\n", k,
                MAX_SHIFT);
        return 1;
      }
      new_values = NULL;
    }
    last_shift = shift;
    /* The solution of the system factorized, K + S. */
    if (factord_last_solve_reports(h, id, &solve, 1, &count) != FACTORD_OK) {
      return fail("solve report");
    }
    residual = relative_residual(values, shift, x, b);
    printf(
        "  solve %s, residual %.1e (daemon) %.1e (here)\n",
        solve.status == FACTORD_SOLVE_CONVERGED ? "converged" : "not converged",
        solve.relative_residual, residual);
    if (solve.status != FACTORD_SOLVE_CONVERGED ||
        !(residual <= MAX_RESIDUAL)) {
      fprintf(stderr, "iteration %d: residual %.1e over %.0e\n", k, residual,
              MAX_RESIDUAL);
      return 1;
    }
    if (k > 0 && !report.analysis_reused) {
      fprintf(stderr, "iteration %d: the analysis was redone\n", k);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  factord_handle* h;
  factord_matrix m;
  char id[FACTORD_ID_MAX];
  double values[NNZ], b[N];
  uint64_t generation;
  int result;
  /* NULL address: $FACTORD_SERVER, else 127.0.0.1:50051. */
  if (factord_connect(argc > 1 ? argv[1] : NULL, NULL, &h) != FACTORD_OK) {
    return fail("connect");
  }
  /* Upload the pattern once (with the first values), under a new UUID. */
  iteration_data(0, values, b);
  factord_matrix_init(&m);
  m.n = N;
  m.format = FACTORD_CSR;
  m.structure = FACTORD_SYMMETRIC;
  m.triangle = FACTORD_LOWER;
  m.base = 0;
  m.row_ptr32 = kRowPtr;
  m.col_idx = kColIdx;
  m.values = values;
  if (factord_upload(h, &m, NULL, 0, id, sizeof id, &generation) !=
      FACTORD_OK) {
    result = fail("upload");
    factord_disconnect(h);
    return result;
  }
  printf("uploaded %s: n = %d, nnz = %d\n", id, N, NNZ);
  result = ipm_loop(h, id, generation);
  /* Free the matrix and its factors on the daemon. */
  if (factord_release(h, id, NULL) != FACTORD_OK) result = fail("release");
  factord_disconnect(h);
  printf(result == 0 ? "ok\n" : "FAILED\n");
  return result;
}
