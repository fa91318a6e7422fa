/* What libhsl keeps between calls, and failures of the daemon: the least
 * recently used analysis released beyond FACTORD_HSL_MAX_MATRICES (its
 * factord matrix too; its KEEP factorizes again, its old IFACT no longer
 * solves), a new analysis into the same KEEP replacing the old one under
 * the same ID, threads each with their own arrays, an unreachable daemon
 * (fatal codes fast, never "singular" or "grow the arrays", NaN from the
 * solve), a daemon killed and restarted, and a process that exits without
 * a finalize call (cleanly; the daemon keeps the matrix until its TTL). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hsl_fixture.h"
#include "hsl_tests.h"

static void analyse_and_factorize(ma57_arrays* m, double scale) {
  double a[KKT_NE];
  kkt_values(scale, a);
  ma57_init(m, KKT_N, KKT_NE);
  CHECK(ma57_analyse(m, KKT_IRN, KKT_JCN) == 2);
  CHECK(ma57_factorize(m, a) == 0);
}

/* Solves K x = scale K KKT_X with m; returns INFO(1), checks x. */
static int solve_checked(ma57_arrays* m, double scale) {
  double b[KKT_N];
  kkt_multiply(KKT_X, scale, NULL, b);
  if (ma57_solve(m, 1, b, KKT_N) != 0) {
    CHECK(all_nan(b, KKT_N));
    return m->info[0];
  }
  CHECK_NEAR_VEC(b, KKT_X, KKT_N, 1e-10);
  return 0;
}

void test_lru_release(void) {
  ma57_arrays m[3];
  char id0[FACTORD_ID_MAX], id1[FACTORD_ID_MAX];
  double a[KKT_NE];
  setenv("FACTORD_HSL_MAX_MATRICES", "2", 1); /* read on the first call */
  fixture_daemon();
  analyse_and_factorize(&m[0], 1.0);
  analyse_and_factorize(&m[1], 2.0);
  CHECK(factord_hsl_matrix_id(m[0].keep, id0, sizeof id0) == 0);
  CHECK(factord_hsl_matrix_id(m[1].keep, id1, sizeof id1) == 0);
  CHECK(daemon_generation(id0) == 2);
  analyse_and_factorize(&m[2], 3.0); /* releases m[0], the oldest */
  CHECK(factord_hsl_sessions() == 2);
  CHECK(daemon_generation(id0) == 0);
  CHECK(factord_hsl_matrix_id(m[0].keep, id0, sizeof id0) == -1);
  capture_begin(2);
  CHECK(solve_checked(&m[0], 1.0) == -14);
  CHECK(capture_end("no longer held"));
  CHECK(solve_checked(&m[1], 2.0) == 0); /* m[1] is now the newest */
  /* m[0]'s KEEP factorizes again (its pattern is in KEEP): m[2] goes. */
  kkt_values(1.0, a);
  CHECK(ma57_factorize(&m[0], a) == 0);
  CHECK(factord_hsl_uploads() == 4);
  CHECK(factord_hsl_sessions() == 2);
  CHECK(solve_checked(&m[0], 1.0) == 0);
  CHECK(solve_checked(&m[1], 2.0) == 0);
  CHECK(solve_checked(&m[2], 3.0) == -14);
  CHECK(daemon_generation(id1) > 0);
  ma57_free(&m[0]);
  ma57_free(&m[1]);
  ma57_free(&m[2]);
}

void test_reanalysis(void) {
  ma57_arrays m;
  char first[FACTORD_ID_MAX], second[FACTORD_ID_MAX];
  double a[KKT_NE];
  int old_ifact[8];
  fixture_daemon();
  analyse_and_factorize(&m, 1.0);
  CHECK(factord_hsl_matrix_id(m.keep, first, sizeof first) == 0);
  memcpy(old_ifact, m.ifact, sizeof old_ifact);
  /* The same arrays analysed again, without the duplicate entry. */
  m.ne = KKT_NNZ;
  CHECK(ma57_analyse(&m, KKT_IRN, KKT_JCN) == 0);
  CHECK(factord_hsl_sessions() == 1);
  CHECK(factord_hsl_uploads() == 2);
  CHECK(factord_hsl_matrix_id(m.keep, second, sizeof second) == 0);
  CHECK(strcmp(first, second) == 0); /* the daemon replaced the matrix */
  memcpy(m.ifact, old_ifact, sizeof old_ifact);
  CHECK(solve_checked(&m, 1.0) == -14);
  kkt_values(1.0, a);
  a[0] = 4; /* K(1,1) whole, the duplicate gone */
  CHECK(ma57_factorize(&m, a) == 0);
  CHECK(m.info[23] == 2);
  CHECK(solve_checked(&m, 1.0) == 0);
  ma57_free(&m);
}

typedef struct thread_work {
  int index;
  int failures;
} thread_work;

/* Rounds of new values, factorization and solve, MA57 or MA27 by index. */
static void* thread_main(void* arg) {
  thread_work* w = arg;
  double v[KKT_NE], b[KKT_N];
  int round, i;
  const int ma27 = w->index % 2;
  ma57_arrays m57;
  ma27_arrays m27;
  if (ma27) {
    ma27_init(&m27, KKT_N, KKT_NE);
    w->failures += ma27_analyse(&m27, KKT_IRN, KKT_JCN) != 0;
  } else {
    ma57_init(&m57, KKT_N, KKT_NE);
    w->failures += ma57_analyse(&m57, KKT_IRN, KKT_JCN) != 2;
  }
  for (round = 0; round < 10; ++round) {
    const double scale = 1.0 + w->index + 0.5 * round;
    kkt_values(scale, v);
    kkt_multiply(KKT_X, scale, NULL, b);
    if (ma27) {
      w->failures += ma27_factorize(&m27, KKT_IRN, KKT_JCN, v) != 0;
      w->failures += m27.info[14] != 2;
      ma27_solve(&m27, b);
    } else {
      w->failures += ma57_factorize(&m57, v) != 0;
      w->failures += m57.info[23] != 2;
      w->failures += ma57_solve(&m57, 1, b, KKT_N) != 0;
    }
    for (i = 0; i < KKT_N; ++i) w->failures += !(fabs(b[i] - KKT_X[i]) < 1e-9);
  }
  if (ma27) {
    ma27_free(&m27);
  } else {
    ma57_free(&m57);
  }
  return NULL;
}

void test_threads(void) {
  enum { kThreads = 4 };
  pthread_t threads[kThreads];
  thread_work work[kThreads];
  int t;
  fixture_daemon();
  for (t = 0; t < kThreads; ++t) {
    work[t].index = t;
    work[t].failures = 0;
    CHECK(pthread_create(&threads[t], NULL, thread_main, &work[t]) == 0);
  }
  for (t = 0; t < kThreads; ++t) {
    pthread_join(threads[t], NULL);
    CHECK(work[t].failures == 0);
  }
  CHECK(factord_hsl_sessions() == kThreads);
  CHECK(factord_hsl_uploads() == kThreads);
}

void test_daemon_down(void) {
  ma57_arrays m;
  ma27_arrays m27;
  double a[KKT_NE], b[KKT_N], t0;
  setenv("FACTORD_SERVER", "127.0.0.1:1", 1);
  setenv("FACTORD_CONNECT_TIMEOUT", "0.5", 1);
  setenv("FACTORD_LOCAL_BELOW", "0", 1);
  kkt_values(1.0, a);
  ma57_init(&m, KKT_N, KKT_NE);
  t0 = test_now();
  capture_begin(2);
  CHECK(ma57_analyse(&m, KKT_IRN, KKT_JCN) == -14);
  CHECK(capture_end("ma57ad: error -14: cannot reach factord: UNAVAILABLE"));
  CHECK(m.info[1] == FACTORD_ERR_UNAVAILABLE);
  CHECK(m.lfact >= 1 && m.lifact >= 8); /* Ipopt still allocates */
  CHECK(ma57_factorize(&m, a) == -14);  /* fatal: not 4, not -3/-4 */
  kkt_multiply(KKT_X, 1.0, NULL, b);
  CHECK(ma57_solve(&m, 1, b, KKT_N) == -14);
  CHECK(all_nan(b, KKT_N));
  ma57_free(&m);

  ma27_init(&m27, KKT_N, KKT_NE);
  CHECK(ma27_analyse(&m27, KKT_IRN, KKT_JCN) == -14);
  CHECK(ma27_factorize(&m27, KKT_IRN, KKT_JCN, a) == -14);
  kkt_multiply(KKT_X, 1.0, NULL, b);
  ma27_solve(&m27, b);
  CHECK(all_nan(b, KKT_N));
  ma27_free(&m27);
  /* Four connection attempts of 0.5 s each, and the solves. */
  fprintf(stderr, "unreachable daemon: all calls done in %.2f s\n",
          test_now() - t0);
  CHECK(test_now() - t0 < 6.0);
}

void test_daemon_killed(void) {
  ma57_arrays m;
  double a[KKT_NE], t0, elapsed;
  int info;
  fixture_daemon();
  setenv("FACTORD_CONNECT_TIMEOUT", "1", 1); /* read on the first call */
  analyse_and_factorize(&m, 1.0);
  test_daemon_kill(&g_daemon);
  kkt_values(2.0, a);
  t0 = test_now();
  info = ma57_factorize(&m, a);
  elapsed = test_now() - t0;
  CHECK(info == -14);
  CHECK(elapsed >= 0.9 && elapsed < 5.0);
  CHECK(solve_checked(&m, 1.0) == -14); /* the factor is gone */
  /* Restarted on its port: the pattern and values are sent again. */
  fixture_daemon();
  t0 = test_now();
  do {
    info = ma57_factorize(&m, a);
  } while (info == -14 && test_now() - t0 < 15.0);
  CHECK(info == 0);
  fprintf(stderr, "daemon seen again after %.2f s\n", test_now() - t0);
  CHECK(solve_checked(&m, 2.0) == 0);
  ma57_free(&m);
}

void test_exit_without_finalize(void) {
  char command[4200], line[512], self[4096];
  ssize_t length;
  FILE* child;
  char* id;
  double t0;
  fixture_daemon();
  length = readlink("/proc/self/exe", self, sizeof self - 1);
  CHECK(length > 0);
  if (length <= 0) return;
  self[length] = '\0';
  snprintf(command, sizeof command, "'%s' exit_without_finalize_child", self);
  t0 = test_now();
  child = popen(command, "r");
  CHECK(child != NULL);
  if (child == NULL) return;
  line[0] = '\0';
  while (fgets(line, sizeof line, child) != NULL &&
         strncmp(line, "id=", 3) != 0) {
  }
  CHECK(pclose(child) == 0); /* a clean exit with the matrix held */
  CHECK(test_now() - t0 < 5.0);
  CHECK(strncmp(line, "id=", 3) == 0);
  id = line + 3;
  id[strcspn(id, "\n")] = '\0';
  CHECK(strlen(id) > 0);
  /* Left to the daemon's idle TTL (docs/hsl.md). */
  CHECK(daemon_generation(id) == 2);
}

void test_exit_without_finalize_child(void) {
  ma57_arrays m;
  char id[FACTORD_ID_MAX];
  if (getenv("FACTORD_SERVER") == NULL) fixture_daemon();
  analyse_and_factorize(&m, 1.0);
  CHECK(factord_hsl_matrix_id(m.keep, id, sizeof id) == 0);
  printf("id=%s\n", id);
  fflush(stdout);
  ma57_free(&m); /* the caller frees its arrays; nothing tells libhsl */
}
