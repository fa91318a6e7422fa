/* libpardiso.so's tests, in C, through the pardiso-project API as Ipopt
 * calls it: `pardiso_test` runs them all, `pardiso_test NAME...` the named
 * ones (one ctest entry each), each process against its own factord. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pardiso_fixture.h"
#include "pardiso_tests.h"

int g_failures = 0;
test_daemon g_daemon;

const int KKT_IA[KKT_N + 1] = {1, 4, 7, 9, 10, 11};
const int KKT_JA[KKT_NNZ] = {1, 2, 4, 2, 4, 5, 3, 5, 4, 5};
const double KKT_A[KKT_NNZ] = {4, 1, 1, 3, 1, 1, 2, 1, 0, 0};

void fixture_daemon(void) {
  if (g_daemon.pid <= 0 &&
      test_daemon_start(&g_daemon, FACTORD_BINARY, g_daemon.port, NULL) != 0) {
    fprintf(stderr, "cannot start %s\n", FACTORD_BINARY);
    exit(2);
  }
  setenv("FACTORD_SERVER", g_daemon.address, 1);
  setenv("FACTORD_CONNECT_TIMEOUT", "5", 1);
}

void ipopt_init(void* pt[64], int mtype, int iparm[64], double dparm[64]) {
  int solver = 0, error = 1;
  pardisoinit(pt, &mtype, &solver, iparm, dparm, &error);
  CHECK(error == 0);
  iparm[0] = 1;
  iparm[1] = 5;
  iparm[2] = 1;
  iparm[5] = 1;
  iparm[7] = 0;
  iparm[9] = 12;
  iparm[10] = 2;
  iparm[12] = 1;
  iparm[20] = 3;
  iparm[23] = 1;
  iparm[24] = 1;
  iparm[28] = 0;
  iparm[29] = 1;
}

int call_pardiso(void* pt[64], int maxfct, int mnum, int mtype, int phase,
                 int n, const double* a, const int* ia, const int* ja, int nrhs,
                 int iparm[64], int msglvl, double* b, double* x) {
  int error = 12345, perm = 0;
  double dparm[64] = {0};
  pardiso(pt, &maxfct, &mnum, &mtype, &phase, &n, (double*)a, (int*)ia,
          (int*)ja, &perm, &nrhs, iparm, &msglvl, b, x, &error, dparm);
  return error;
}

uint64_t daemon_generation(void* pt[64], int mnum) {
  char id[FACTORD_ID_MAX];
  factord_handle* h = NULL;
  factord_matrix_info info;
  uint64_t generation = 0;
  if (factord_pardiso_matrix_id(pt, mnum, id, sizeof id) != 0) return 0;
  if (factord_connect(g_daemon.address, NULL, &h) != FACTORD_OK) return 0;
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
  strcpy(g_capture_path, "/tmp/factord-pardiso-out-XXXXXX");
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

static const named_test kTests[] = {
    {"kkt_phases", test_kkt_phases},
    {"distinct_factors", test_distinct_factors},
    {"general_and_spd", test_general_and_spd},
    {"bad_input", test_bad_input},
    {"perturbed_pivots", test_perturbed_pivots},
    {"daemon_failures", test_daemon_failures},
    {"unreliable_inertia", test_unreliable_inertia},
    {"unconverged_solves", test_unconverged_solves},
    {"iparm_defaults_and_determinant", test_iparm_defaults_and_determinant},
};

int main(int argc, char** argv) {
  int status = run_named_tests(kTests, (int)(sizeof kTests / sizeof *kTests),
                               argc, argv);
  test_daemon_stop(&g_daemon);
  return status;
}
