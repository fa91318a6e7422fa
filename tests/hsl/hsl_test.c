/* libhsl.so's tests, in C, through the Fortran entry points as Ipopt calls
 * them: `hsl_test NAME` runs one (one ctest entry each), against a factord
 * of its own. One test per process: libhsl.so keeps its connection and
 * analyses per process, and some tests set the environment it reads once
 * (FACTORD_SERVER, FACTORD_HSL_MAX_MATRICES). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hsl_fixture.h"
#include "hsl_tests.h"

int g_failures = 0;
test_daemon g_daemon;

/* K's lower triangle in test_harness.h's order (1-based), K(1,1) split
 * into entries 1 and 11, K(4,1) (entry 5) given as (1,4). */
const int KKT_IRN[KKT_NE] = {1, 2, 2, 3, 1, 4, 4, 5, 5, 5, 1};
const int KKT_JCN[KKT_NE] = {1, 1, 2, 3, 4, 2, 4, 2, 3, 5, 1};

void kkt_values(double scale, double a[KKT_NE]) {
  int k;
  for (k = 0; k < KKT_NNZ; ++k) a[k] = scale * KKT_VAL[k];
  a[0] = 3 * scale; /* K(1,1) = 4 = 3 + 1 */
  a[KKT_NNZ] = scale;
}

static double uniform(unsigned* state) { /* in [0, 1) */
  *state = *state * 1103515245u + 12345u;
  return (double)((*state >> 8) & 0xffffff) / 16777216.0;
}

int planted_negative(int n) {
  int i, count = 0;
  for (i = 0; i < n; ++i) count += i % 3 == 1;
  return count;
}

int planted_tridiagonal(int n, unsigned seed, int* irn, int* jcn, double* a) {
  int i, ne = 0;
  double d_prev = 0, l_prev = 0;
  for (i = 0; i < n; ++i) {
    const double d = (i % 3 == 1 ? -1 : 1) * (1 + uniform(&seed));
    const double l = 2 * uniform(&seed) - 1; /* L(i+1, i) */
    /* A(i,i) = d_i + l_{i-1}^2 d_{i-1}; A(i,i-1) = l_{i-1} d_{i-1}. */
    irn[ne] = i + 1;
    jcn[ne] = i + 1;
    a[ne++] = d + l_prev * l_prev * d_prev;
    if (i > 0) {
      irn[ne] = i + 1;
      jcn[ne] = i;
      a[ne++] = l_prev * d_prev;
    }
    d_prev = d;
    l_prev = l;
  }
  return ne;
}

void triplet_multiply(int n, int ne, const int* irn, const int* jcn,
                      const double* a, const double* x, double* y) {
  int i, k;
  for (i = 0; i < n; ++i) y[i] = 0;
  for (k = 0; k < ne; ++k) {
    const int r = irn[k] - 1, c = jcn[k] - 1;
    if (r < 0 || r >= n || c < 0 || c >= n) continue;
    y[r] += a[k] * x[c];
    if (r != c) y[c] += a[k] * x[r];
  }
}

void fixture_daemon(void) {
  if (g_daemon.pid <= 0 &&
      test_daemon_start(&g_daemon, FACTORD_BINARY, g_daemon.port, NULL) != 0) {
    fprintf(stderr, "cannot start %s\n", FACTORD_BINARY);
    exit(2);
  }
  setenv("FACTORD_SERVER", g_daemon.address, 1);
  setenv("FACTORD_CONNECT_TIMEOUT", "5", 1);
  /* Every system to the daemon, however small (the C API's in-process
   * mode keeps small ones otherwise). */
  setenv("FACTORD_LOCAL_BELOW", "0", 1);
}

uint64_t daemon_generation(const char* id) {
  factord_handle* h = NULL;
  factord_matrix_info info;
  uint64_t generation = 0;
  if (factord_connect(NULL, NULL, &h) != FACTORD_OK) return 0;
  if (factord_get_matrix(h, id, &info) == FACTORD_OK) {
    generation = info.generation;
  }
  factord_disconnect(h);
  return generation;
}

static int g_capture_fd = -1, g_saved_fd = -1;
static char g_capture_path[64];

void capture_begin(int fd) {
  int file;
  fflush(stdout);
  fflush(stderr);
  strcpy(g_capture_path, "/tmp/factord-hsl-out-XXXXXX");
  file = mkstemp(g_capture_path);
  g_capture_fd = fd;
  g_saved_fd = dup(fd);
  dup2(file, fd);
  close(file);
}

int capture_end(const char* text) {
  char buffer[8192];
  size_t got;
  FILE* f;
  fflush(stdout);
  fflush(stderr);
  dup2(g_saved_fd, g_capture_fd);
  close(g_saved_fd);
  f = fopen(g_capture_path, "r");
  got = f != NULL ? fread(buffer, 1, sizeof buffer - 1, f) : 0;
  buffer[got] = '\0';
  if (f != NULL) fclose(f);
  unlink(g_capture_path);
  fputs(buffer, g_capture_fd == 1 ? stdout : stderr); /* keep it visible */
  return strstr(buffer, text) != NULL;
}

void ma57_init(ma57_arrays* m, int n, int ne) {
  int k;
  memset(m, 0, sizeof *m);
  m->n = n;
  m->ne = ne;
  ma57id_(m->cntl, m->icntl);
  m->icntl[0] = 0;
  m->icntl[1] = 0;
  m->icntl[3] = 1;
  m->icntl[4] = 0;
  m->icntl[5] = 5;
  m->cntl[0] = 1e-8;
  m->icntl[6] = 1;
  m->icntl[10] = 16;
  m->icntl[11] = 16;
  m->icntl[14] = 0;
  m->icntl[15] = 0;
  m->lkeep = 5 * n + ne + (n > ne ? n : ne) + 42;
  m->keep = malloc(sizeof(int) * (size_t)m->lkeep);
  m->iwork = malloc(sizeof(int) * 5 * (size_t)n);
  for (k = 0; k < m->lkeep; ++k) m->keep[k] = 0;
}

int ma57_analyse(ma57_arrays* m, const int* irn, const int* jcn) {
  ma57ad_(&m->n, &m->ne, irn, jcn, &m->lkeep, m->keep, m->iwork, m->icntl,
          m->info, m->rinfo);
  free(m->fact);
  free(m->ifact);
  m->lfact = (int)(m->info[8] * 1.05);
  m->lifact = (int)(m->info[9] * 1.05);
  m->fact = malloc(sizeof(double) * (size_t)(m->lfact > 0 ? m->lfact : 1));
  m->ifact = malloc(sizeof(int) * (size_t)(m->lifact > 0 ? m->lifact : 1));
  return m->info[0];
}

int ma57_factorize(ma57_arrays* m, const double* a) {
  ma57bd_(&m->n, &m->ne, (double*)a, m->fact, &m->lfact, m->ifact, &m->lifact,
          &m->lkeep, m->keep, m->iwork, m->icntl, m->cntl, m->info, m->rinfo);
  return m->info[0];
}

int ma57_solve(ma57_arrays* m, int nrhs, double* rhs, int lrhs) {
  int job = 1, lwork = m->n * nrhs;
  double* work = malloc(sizeof(double) * (size_t)lwork);
  ma57cd_(&job, &m->n, m->fact, &m->lfact, m->ifact, &m->lifact, &nrhs, rhs,
          &lrhs, work, &lwork, m->iwork, m->icntl, m->info);
  free(work);
  return m->info[0];
}

void ma57_free(ma57_arrays* m) {
  free(m->keep);
  free(m->iwork);
  free(m->fact);
  free(m->ifact);
  memset(m, 0, sizeof *m);
}

void ma27_init(ma27_arrays* m, int n, int nz) {
  memset(m, 0, sizeof *m);
  m->n = n;
  m->nz = nz;
  ma27id_(m->icntl, m->cntl);
  m->icntl[0] = 0;
  m->icntl[1] = 0;
  m->cntl[0] = 1e-8;
  m->ikeep = malloc(sizeof(int) * 3 * (size_t)n);
}

int ma27_analyse(ma27_arrays* m, const int* irn, const int* icn) {
  int iflag = 0;
  double ops = 0;
  int* iw1 = malloc(sizeof(int) * 2 * (size_t)m->n);
  m->liw = (int)(2.0 * (2 * m->nz + 3 * m->n + 1));
  m->iw = malloc(sizeof(int) * (size_t)m->liw);
  ma27ad_(&m->n, &m->nz, irn, icn, m->iw, &m->liw, m->ikeep, iw1, &m->nsteps,
          &iflag, m->icntl, m->cntl, m->info, &ops);
  free(iw1);
  free(m->iw); /* Ipopt replaces IW and A with arrays of the sizes advised */
  m->liw = 5 * m->info[5];
  m->iw = malloc(sizeof(int) * (size_t)(m->liw > 0 ? m->liw : 1));
  m->la = 5 * m->info[4] > m->nz ? 5 * m->info[4] : m->nz;
  m->a = malloc(sizeof(double) * (size_t)(m->la > 0 ? m->la : 1));
  return m->info[0];
}

int ma27_factorize(ma27_arrays* m, const int* irn, const int* icn,
                   const double* values) {
  int* iw1 = malloc(sizeof(int) * 2 * (size_t)m->n);
  memcpy(m->a, values, sizeof(double) * (size_t)m->nz);
  ma27bd_(&m->n, &m->nz, irn, icn, m->a, &m->la, m->iw, &m->liw, m->ikeep,
          &m->nsteps, &m->maxfrt, iw1, m->icntl, m->cntl, m->info);
  free(iw1);
  return m->info[0];
}

void ma27_solve(ma27_arrays* m, double* rhs) {
  double* w = malloc(sizeof(double) * (size_t)(m->maxfrt > 0 ? m->maxfrt : 1));
  int* iw1 = malloc(sizeof(int) * (size_t)(m->nsteps > 0 ? m->nsteps : 1));
  ma27cd_(&m->n, m->a, &m->la, m->iw, &m->liw, w, &m->maxfrt, rhs, iw1,
          &m->nsteps, m->icntl, m->cntl);
  free(w);
  free(iw1);
}

void ma27_free(ma27_arrays* m) {
  free(m->iw);
  free(m->ikeep);
  free(m->a);
  memset(m, 0, sizeof *m);
}

int all_nan(const double* x, int n) {
  int i;
  for (i = 0; i < n; ++i) {
    if (!isnan(x[i])) return 0;
  }
  return n > 0;
}

static const named_test kTests[] = {
    {"ma57_kkt", test_ma57_kkt},
    {"ma57_planted_inertia", test_ma57_planted_inertia},
    {"ma57_singular", test_ma57_singular},
    {"ma57_out_of_range", test_ma57_out_of_range},
    {"ma57_bad_input", test_ma57_bad_input},
    {"ma57_pivot_threshold", test_ma57_pivot_threshold},
    {"ma27_kkt", test_ma27_kkt},
    {"ma27_singular", test_ma27_singular},
    {"ma27_bad_input", test_ma27_bad_input},
    {"lru_release", test_lru_release},
    {"reanalysis", test_reanalysis},
    {"threads", test_threads},
    {"daemon_down", test_daemon_down},
    {"daemon_killed", test_daemon_killed},
    {"exit_without_finalize", test_exit_without_finalize},
    {"exit_without_finalize_child", test_exit_without_finalize_child},
    {"mc19", test_mc19},
};

int main(int argc, char** argv) {
  int status;
  if (argc != 2) {
    fprintf(stderr, "usage: hsl_test NAME (one test per process)\n");
    return 2;
  }
  status = run_named_tests(kTests, (int)(sizeof kTests / sizeof *kTests), argc,
                           argv);
  /* Killed, not stopped: libhsl's connection stays open until the process
   * exits (there is no finalize), and a stopping daemon waits for it. */
  test_daemon_kill(&g_daemon);
  test_daemon_stop(&g_daemon); /* removes the log */
  return status;
}
