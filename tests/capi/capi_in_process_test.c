/* The in-process solver through the C API: no server configured and
 * "local" run without a daemon, where each matrix runs
 * (factord_matrix_location), the size threshold with a daemon
 * (FACTORD_LOCAL_BELOW), bad environment values, and the process' signal
 * dispositions left as they were. The other groups run in process too, as
 * capi.in_process.<group> (CMakeLists.txt). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "capi_fixture.h"
#include "capi_tests.h"

/* Whether `h` holds matrix `id` where `where` says ("local" or an address
 * prefix). */
static int located(factord_handle* h, const char* id, const char* where) {
  char buffer[128];
  size_t length = factord_matrix_location(h, id, buffer, sizeof buffer);
  return length == strlen(buffer) && strcmp(buffer, where) == 0;
}

/* The dispositions of the signals a library might take over. */
enum { kSignals = 6 };
static const int kWatched[kSignals] = {SIGINT,  SIGTERM, SIGPIPE,
                                       SIGCHLD, SIGSEGV, SIGHUP};
static void dispositions(struct sigaction* out) {
  int i;
  for (i = 0; i < kSignals; ++i) sigaction(kWatched[i], NULL, &out[i]);
}

void test_in_process(void) {
  factord_handle* h = NULL;
  factord_handle* other = NULL;
  factord_factorize_options f;
  factord_factor_report r;
  factord_matrix_info info;
  struct sigaction before[kSignals], after[kSignals];
  kkt_csr k;
  double b[KKT_N], x[KKT_N];
  uint64_t generation = 0;
  int i;
  kkt_csr_lower0(&k);
  dispositions(before);

  /* No server configured: in process. */
  unsetenv("FACTORD_SERVER");
  CHECK_OK(factord_connect(NULL, NULL, &h));
  CHECK_OK(factord_upload(h, &k.m, "here", 0, NULL, 0, &generation));
  CHECK(generation == 1);
  CHECK(located(h, "here", "local"));
  CHECK(located(h, NULL, "local"));
  check_solves_kkt(h, "here", 1.0);
  CHECK_OK(factord_last_factor_report(h, "here", &r));
  CHECK(strcmp(r.method, "ldlt") == 0 && r.inertia_reliable == 1);
  CHECK(r.analysis_reused == 0);
  /* The IPM cycle: new values, a refactorization reusing the analysis. */
  for (i = 0; i < KKT_NNZ; ++i) k.values[i] *= 2;
  CHECK_OK(factord_update_values(h, "here", k.values, 1, &generation));
  CHECK(generation == 2);
  CHECK_STATUS(factord_update_values(h, "here", k.values, 1, NULL),
               FACTORD_ERR_ABORTED, "GENERATION_MISMATCH");
  kkt_multiply(KKT_X, 2.0, NULL, b);
  CHECK_STATUS(factord_solve(h, "here", NULL, 1, b, x),
               FACTORD_ERR_FAILED_PRECONDITION, "STALE_FACTOR");
  factord_factorize_options_init(&f);
  f.method = "ldlt";
  CHECK_OK(factord_step(h, "here", NULL, &f, NULL, NULL, 1, b, x));
  CHECK_OK(factord_last_factor_report(h, "here", &r));
  CHECK(r.analysis_reused == 1 && r.generation == 2);
  CHECK(r.positive == 3 && r.negative == 2);
  CHECK_NEAR_VEC(x, KKT_X, KKT_N, 1e-10);
  CHECK_OK(factord_get_matrix(h, "here", &info));
  CHECK(info.n == KKT_N && info.generation == 2 && info.factorized == 1);
  CHECK_STATUS(factord_get_matrix(h, "elsewhere", &info), FACTORD_ERR_NOT_FOUND,
               "NOT_FOUND");
  CHECK_STATUS(factord_upload(h, &k.m, "here", 0, NULL, 0, NULL),
               FACTORD_ERR_ALREADY_EXISTS, "ALREADY_EXISTS");
  CHECK_OK(factord_release(h, "here", NULL));
  CHECK_STATUS(factord_factorize(h, "here", &f, NULL), FACTORD_ERR_NOT_FOUND,
               "NOT_FOUND");

  /* "local" asks for it whatever FACTORD_SERVER says; a handle's matrices
   * are its own. */
  setenv("FACTORD_SERVER", "127.0.0.1:1", 1);
  CHECK_OK(factord_connect("local", NULL, &other));
  CHECK_STATUS(factord_get_matrix(other, "here", &info), FACTORD_ERR_NOT_FOUND,
               "NOT_FOUND");
  CHECK_OK(factord_upload(other, &k.m, "there", 0, NULL, 0, NULL));
  CHECK(located(other, "there", "local"));
  CHECK_STATUS(factord_get_matrix(h, "there", &info), FACTORD_ERR_NOT_FOUND,
               "NOT_FOUND");
  factord_disconnect(other);
  unsetenv("FACTORD_SERVER");

  /* Bad settings are refused by name. */
  setenv("FACTORD_THREADS", "many", 1);
  CHECK_STATUS(factord_connect("local", NULL, &other),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_OPTION");
  CHECK_MESSAGE_HAS("FACTORD_THREADS");
  CHECK(other == NULL);
  setenv("FACTORD_THREADS", "2", 1);
  CHECK_OK(factord_connect("local", NULL, &other));
  CHECK_OK(factord_upload(other, &k.m, "two", 0, NULL, 0, NULL));
  check_solves_kkt(other, "two", 2.0);
  factord_disconnect(other);
  unsetenv("FACTORD_THREADS");

  factord_disconnect(h);
  dispositions(after);
  for (i = 0; i < kSignals; ++i) {
    CHECK(memcmp(&before[i].sa_handler, &after[i].sa_handler,
                 sizeof before[i].sa_handler) == 0);
    CHECK(before[i].sa_flags == after[i].sa_flags);
  }
}

void test_size_threshold(void) {
  factord_handle* h = NULL;
  factord_handle* daemon_only = NULL;
  factord_connect_options o;
  factord_matrix_info info;
  kkt_csr k;
  char below[8], at[8];
  kkt_csr_lower0(&k);
  fixture_daemon();
  factord_connect_options_init(&o);
  o.connect_timeout_ms = 5000;

  snprintf(below, sizeof below, "%d", KKT_N + 1);
  snprintf(at, sizeof at, "%d", KKT_N);
  setenv("FACTORD_LOCAL_BELOW", "0", 1);
  CHECK_OK(factord_connect(g_daemon.address, &o, &daemon_only));

  /* Below the threshold: in process, unseen by the daemon. */
  setenv("FACTORD_LOCAL_BELOW", below, 1);
  CHECK_OK(factord_connect(g_daemon.address, &o, &h));
  CHECK_OK(factord_upload(h, &k.m, "small", 0, NULL, 0, NULL));
  CHECK(located(h, "small", "local"));
  check_solves_kkt(h, "small", 1.0);
  CHECK_STATUS(factord_get_matrix(daemon_only, "small", &info),
               FACTORD_ERR_NOT_FOUND, "NOT_FOUND");
  /* An ID this handle did not upload is looked for on the daemon. */
  CHECK(located(h, "someone-elses", g_daemon.address));
  factord_disconnect(h);

  /* At the threshold: on the daemon. */
  setenv("FACTORD_LOCAL_BELOW", at, 1);
  CHECK_OK(factord_connect(g_daemon.address, &o, &h));
  CHECK_OK(factord_upload(h, &k.m, "large", 0, NULL, 0, NULL));
  CHECK(located(h, "large", g_daemon.address));
  check_solves_kkt(h, "large", 1.0);
  CHECK_OK(factord_get_matrix(daemon_only, "large", &info));
  CHECK(info.n == KKT_N && info.factorized == 1);
  CHECK_OK(factord_release(h, "large", NULL));
  factord_disconnect(h);

  setenv("FACTORD_LOCAL_BELOW", "some", 1);
  CHECK_STATUS(factord_connect(g_daemon.address, &o, &h),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_OPTION");
  CHECK_MESSAGE_HAS("FACTORD_LOCAL_BELOW");
  unsetenv("FACTORD_LOCAL_BELOW");
  factord_disconnect(daemon_only);
}
