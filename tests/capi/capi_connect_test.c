/* Connections and errors through the C API: connect with its options and
 * environment defaults, an unreachable daemon (connect timeout, lazy
 * connect with retries), the thread's last error (copy, clear, two threads
 * failing concurrently on one handle), and transparent re-upload across a
 * daemon restart. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_fixture.h"
#include "capi_tests.h"

/* A loopback port nothing listens on: connections are refused at once. */
static const char kDeadAddress[] = "127.0.0.1:1";

void test_connect(void) {
  factord_connect_options o;
  factord_handle* h = (factord_handle*)&o; /* must be reset to NULL */
  factord_matrix_info info;
  double t0;
  fixture_daemon();

  CHECK_STATUS(factord_connect(g_daemon.address, NULL, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");

  /* Unreachable, with a short connect timeout. */
  factord_connect_options_init(&o);
  o.connect_timeout_ms = 300;
  t0 = test_now();
  CHECK_STATUS(factord_connect(kDeadAddress, &o, &h), FACTORD_ERR_UNAVAILABLE,
               "UNAVAILABLE");
  CHECK(test_now() - t0 < 5.0);
  CHECK(h == NULL);
  CHECK_MESSAGE_HAS(kDeadAddress);

  /* A TLS file that cannot be read. */
  factord_connect_options_init(&o);
  o.tls_ca_file = "/nonexistent/ca.pem";
  CHECK_STATUS(factord_connect(g_daemon.address, &o, &h),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_OPTION");
  CHECK_MESSAGE_HAS("tls_ca_file");

  /* The environment: address, TLS file, connect timeout. */
  setenv("FACTORD_SERVER", g_daemon.address, 1);
  CHECK_OK(factord_connect(NULL, NULL, &h));
  CHECK_STATUS(factord_get_matrix(h, "no-such-matrix", &info),
               FACTORD_ERR_NOT_FOUND, "NOT_FOUND");
  CHECK_MESSAGE_HAS("no-such-matrix");
  CHECK_OK(factord_disconnect(h));
  setenv("FACTORD_TLS_CA", "/nonexistent/env-ca.pem", 1);
  CHECK_STATUS(factord_connect("", NULL, &h), FACTORD_ERR_INVALID_ARGUMENT,
               "INVALID_OPTION");
  factord_connect_options_init(&o);
  o.tls_ca_file = ""; /* none, whatever the environment says */
  CHECK_OK(factord_connect(NULL, &o, &h));
  CHECK_OK(factord_disconnect(h));
  unsetenv("FACTORD_TLS_CA");
  setenv("FACTORD_CONNECT_TIMEOUT", "soon", 1);
  CHECK_STATUS(factord_connect(NULL, NULL, &h), FACTORD_ERR_INVALID_ARGUMENT,
               "INVALID_OPTION");
  CHECK_MESSAGE_HAS("FACTORD_CONNECT_TIMEOUT");
  setenv("FACTORD_CONNECT_TIMEOUT", "0.3", 1);
  t0 = test_now();
  CHECK_STATUS(factord_connect(kDeadAddress, NULL, &h), FACTORD_ERR_UNAVAILABLE,
               NULL);
  CHECK(test_now() - t0 < 5.0);
  unsetenv("FACTORD_CONNECT_TIMEOUT");
  unsetenv("FACTORD_SERVER");

  CHECK_OK(factord_disconnect(NULL));
  CHECK(strcmp(factord_status_name(FACTORD_ERR_NOT_FOUND), "NOT_FOUND") == 0);
  CHECK(strcmp(factord_status_name((factord_status)999), "UNKNOWN_STATUS") ==
        0);
  CHECK(strlen(factord_version()) > 0);
}

void test_lazy_connect_retry(void) {
  factord_connect_options o;
  factord_handle* h = NULL;
  kkt_csr k;
  char id[FACTORD_ID_MAX];
  double t0, elapsed;
  kkt_csr_lower0(&k);

  /* Lazy: connect succeeds; the first call finds nothing listening and
   * fails at once, whatever the retry budget (it is for a daemon that was
   * reached and went away), naming the address and the in-process mode. */
  factord_connect_options_init(&o);
  o.connect_timeout_ms = 0;
  o.unavailable_retry_ms = 5000;
  CHECK_OK(factord_connect(kDeadAddress, &o, &h));
  t0 = test_now();
  CHECK_STATUS(factord_upload(h, &k.m, NULL, 0, id, sizeof id, NULL),
               FACTORD_ERR_UNAVAILABLE, "UNAVAILABLE");
  elapsed = test_now() - t0;
  CHECK(elapsed < 2.0);
  CHECK_MESSAGE_HAS(kDeadAddress);
  CHECK_MESSAGE_HAS("FACTORD_SERVER=local");
  factord_disconnect(h);

  /* Without retries it fails at once. */
  o.unavailable_retry_ms = 0;
  CHECK_OK(factord_connect(kDeadAddress, &o, &h));
  t0 = test_now();
  CHECK_STATUS(factord_upload(h, &k.m, "lazy", 0, NULL, 0, NULL),
               FACTORD_ERR_UNAVAILABLE, "UNAVAILABLE");
  CHECK(test_now() - t0 < 2.0);
  factord_disconnect(h);
}

void test_last_error_copy(void) {
  char small[16], full[128];
  const char* expected = "INVALID_ARGUMENT [INVALID_REQUEST]: handle is NULL";
  size_t length;
  factord_handle* h = fixture_connect(0);
  factord_matrix_info info;
  kkt_csr k;
  kkt_csr_lower0(&k);

  factord_clear_error();
  CHECK(factord_last_error_code() == FACTORD_OK);
  CHECK(factord_last_error_copy(full, sizeof full) == 0 && full[0] == '\0');

  CHECK_STATUS(factord_upload(NULL, &k.m, "x", 0, NULL, 0, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");
  length = factord_last_error_copy(small, sizeof small);
  CHECK(length == strlen(expected));
  CHECK(strlen(small) == sizeof small - 1);
  CHECK(strncmp(small, expected, sizeof small - 1) == 0);
  CHECK(factord_last_error_copy(NULL, 0) == strlen(expected));
  CHECK(factord_last_error_copy(full, sizeof full) == strlen(expected));
  CHECK(strcmp(full, expected) == 0);
  CHECK(factord_last_error_retry_ms() == -1);

  /* A call that succeeds leaves the last failure alone. */
  CHECK_OK(factord_upload(h, &k.m, "copy-ok", 0, NULL, 0, NULL));
  CHECK_OK(factord_get_matrix(h, "copy-ok", &info));
  CHECK(factord_last_error_code() == FACTORD_ERR_INVALID_ARGUMENT);
  CHECK(strcmp(factord_last_error_message(), "handle is NULL") == 0);
  factord_clear_error();
  CHECK(strcmp(factord_last_error_message(), "") == 0);
  CHECK(strcmp(factord_last_error_reason(), "") == 0);
  factord_release(h, "copy-ok", NULL);
  factord_disconnect(h);
}

/* Two threads fail on one handle, concurrently and differently; each must
 * only ever see its own message. */
typedef struct error_thread {
  factord_handle* h;
  int which;
  int iterations;
  int mismatches;
  pthread_barrier_t* start;
} error_thread;

static void* fail_repeatedly(void* arg) {
  error_thread* t = (error_thread*)arg;
  factord_matrix bad;
  factord_matrix_info info;
  int i;
  factord_matrix_init(&bad); /* n = 0 */
  pthread_barrier_wait(t->start);
  for (i = 0; i < t->iterations; ++i) {
    if (t->which == 0) {
      if (factord_upload(t->h, &bad, "bad", 0, NULL, 0, NULL) !=
              FACTORD_ERR_INVALID_ARGUMENT ||
          strstr(factord_last_error_message(), "n = 0") == NULL ||
          strcmp(factord_last_error_reason(), "INVALID_REQUEST") != 0) {
        ++t->mismatches;
      }
      /* A successful call in between changes nothing. */
      if (factord_get_matrix(t->h, "shared-ok", &info) != FACTORD_OK ||
          strstr(factord_last_error_message(), "n = 0") == NULL) {
        ++t->mismatches;
      }
    } else {
      if (factord_factorize(t->h, "missing-b", NULL, NULL) !=
              FACTORD_ERR_NOT_FOUND ||
          strstr(factord_last_error_message(), "missing-b") == NULL ||
          strcmp(factord_last_error_reason(), "NOT_FOUND") != 0) {
        ++t->mismatches;
      }
    }
  }
  return NULL;
}

void test_thread_local_errors(void) {
  factord_handle* h = fixture_connect(0);
  pthread_barrier_t start;
  pthread_t threads[2];
  error_thread t[2];
  kkt_csr k;
  int i;
  kkt_csr_lower0(&k);
  CHECK_OK(factord_upload(h, &k.m, "shared-ok", FACTORD_UPLOAD_REPLACE, NULL, 0,
                          NULL));
  pthread_barrier_init(&start, NULL, 2);
  for (i = 0; i < 2; ++i) {
    t[i].h = h;
    t[i].which = i;
    t[i].iterations = 150;
    t[i].mismatches = 0;
    t[i].start = &start;
    pthread_create(&threads[i], NULL, fail_repeatedly, &t[i]);
  }
  for (i = 0; i < 2; ++i) pthread_join(threads[i], NULL);
  pthread_barrier_destroy(&start);
  CHECK(t[0].mismatches == 0);
  CHECK(t[1].mismatches == 0);
  /* This thread made no failing call. */
  CHECK(factord_last_error_code() == FACTORD_OK ||
        strstr(factord_last_error_message(), "missing-b") == NULL);
  factord_release(h, "shared-ok", NULL);
  factord_disconnect(h);
}

void test_reupload_after_restart(void) {
  factord_handle* kept = fixture_connect(1);
  factord_handle* plain = fixture_connect(0);
  kkt_coo k;
  double values[KKT_NNZ], b[KKT_N], x[KKT_N], half[KKT_N];
  factord_factorize_options f;
  int64_t uploads = -1, reuploads = -1;
  int i;
  kkt_coo_upper1_shuffled(&k);
  factord_factorize_options_init(&f);
  f.method = "ldlt";
  CHECK_OK(factord_upload(kept, &k.m, "restart-kept", 0, NULL, 0, NULL));
  CHECK_OK(factord_upload(plain, &k.m, "restart-plain", 0, NULL, 0, NULL));
  check_solves_kkt(kept, "restart-kept", 1.0);
  check_solves_kkt(plain, "restart-plain", 1.0);

  /* The daemon crashes and comes back on the same port, empty. */
  test_daemon_kill(&g_daemon);
  fixture_daemon();

  /* New values (caller order, doubled) and a solve in one step. */
  for (i = 0; i < KKT_NNZ; ++i) values[i] = 2 * k.values[i];
  kkt_multiply(KKT_X, 2.0, NULL, b);
  CHECK_OK(factord_step(kept, "restart-kept", values, &f, NULL, NULL, 1, b, x));
  CHECK_NEAR_VEC(x, KKT_X, KKT_N, 1e-10);
  CHECK_OK(factord_counters(kept, &uploads, &reuploads));
  CHECK(uploads == 1);
  CHECK(reuploads == 1);
  /* Solving again needs no re-upload. */
  for (i = 0; i < KKT_N; ++i) half[i] = b[i] / 2;
  CHECK_OK(factord_solve(kept, "restart-kept", NULL, 1, half, x));
  for (i = 0; i < KKT_N; ++i) x[i] *= 2;
  CHECK_NEAR_VEC(x, KKT_X, KKT_N, 1e-10);

  /* Without re-upload the daemon's loss shows. */
  CHECK_STATUS(
      factord_step(plain, "restart-plain", values, &f, NULL, NULL, 1, b, x),
      FACTORD_ERR_NOT_FOUND, "NOT_FOUND");
  CHECK_OK(factord_counters(plain, NULL, &reuploads));
  CHECK(reuploads == 0);
  factord_release(kept, "restart-kept", NULL);
  factord_disconnect(kept);
  factord_disconnect(plain);
}
