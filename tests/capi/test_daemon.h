/* A factord daemon for the C tests (tests/capi, tests/pardiso): started
 * from the built binary on a loopback port (a free one, or a given one to
 * restart on the same address), stopped or killed by its pid. POSIX C99. */
#ifndef FACTORD_TESTS_CAPI_TEST_DAEMON_H_
#define FACTORD_TESTS_CAPI_TEST_DAEMON_H_

#include <sys/types.h>

typedef struct test_daemon {
  pid_t pid; /* 0 when not running */
  int port;
  char address[64];  /* "127.0.0.1:<port>" */
  char log_path[64]; /* its stdout and stderr */
} test_daemon;

/* Starts `binary` (build/server/factord) listening on 127.0.0.1:`port` (0:
 * a free port), with one more command-line flag `extra_flag` unless it is
 * NULL, and waits until it serves (at most 20 s). 0 on success; -1 with the
 * log printed on stderr otherwise. The daemon dies with the test process
 * (PR_SET_PDEATHSIG). */
int test_daemon_start(test_daemon* d, const char* binary, int port,
                      const char* extra_flag);

/* SIGKILL (a crash) and wait; the port stays in d->port for a restart (the
 * log too, until the restart replaces it). */
void test_daemon_kill(test_daemon* d);

/* SIGTERM (drain and exit) and wait; removes the log. */
void test_daemon_stop(test_daemon* d);

/* Seconds since an arbitrary origin (CLOCK_MONOTONIC). */
double test_now(void);

#endif /* FACTORD_TESTS_CAPI_TEST_DAEMON_H_ */
