/* A tiny assert harness for the C tests (C99): checks that count failures
 * and go on, status checks that print the thread's last factord error, and
 * a table of named tests run by main. Header-only (static functions). */
#ifndef FACTORD_TESTS_CAPI_TEST_HARNESS_H_
#define FACTORD_TESTS_CAPI_TEST_HARNESS_H_

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "factord/factord.h"

extern int g_failures; /* defined by the test's main file */

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++g_failures;                                                            \
    }                                                                          \
  } while (0)

/* `call` must return `expected` (a factord_status); on a failure the
 * thread's last error must carry `reason` (NULL: any). */
#define CHECK_STATUS(call, expected, reason)                                \
  do {                                                                      \
    factord_status got_ = (call);                                           \
    const char* want_reason_ = (reason);                                    \
    if (got_ != (expected)) {                                               \
      fprintf(                                                              \
          stderr,                                                           \
          "%s:%d: %s returned %s, expected %s (last error: %s [%s]: %s)\n", \
          __FILE__, __LINE__, #call, factord_status_name(got_),             \
          factord_status_name(expected),                                    \
          factord_status_name(factord_last_error_code()),                   \
          factord_last_error_reason(), factord_last_error_message());       \
      ++g_failures;                                                         \
    } else if (got_ != FACTORD_OK && want_reason_ != NULL &&                \
               strcmp(factord_last_error_reason(), want_reason_) != 0) {    \
      fprintf(stderr, "%s:%d: %s: reason %s, expected %s (%s)\n", __FILE__, \
              __LINE__, #call, factord_last_error_reason(), want_reason_,   \
              factord_last_error_message());                                \
      ++g_failures;                                                         \
    }                                                                       \
  } while (0)

#define CHECK_OK(call) CHECK_STATUS(call, FACTORD_OK, NULL)

/* The thread's last error message contains `text`. */
#define CHECK_MESSAGE_HAS(text)                                          \
  do {                                                                   \
    if (strstr(factord_last_error_message(), (text)) == NULL) {          \
      fprintf(stderr, "%s:%d: last error message \"%s\" lacks \"%s\"\n", \
              __FILE__, __LINE__, factord_last_error_message(), (text)); \
      ++g_failures;                                                      \
    }                                                                    \
  } while (0)

/* |a - b| <= tol * max(1, |b|) elementwise over n entries. */
#define CHECK_NEAR_VEC(a, b, n, tol)                                        \
  do {                                                                      \
    int i_;                                                                 \
    for (i_ = 0; i_ < (int)(n); ++i_) {                                     \
      double d_ = fabs((a)[i_] - (b)[i_]);                                  \
      double s_ = fabs((b)[i_]) > 1 ? fabs((b)[i_]) : 1;                    \
      if (!(d_ <= (tol)*s_)) {                                              \
        fprintf(stderr, "%s:%d: %s[%d] = %.17g, expected %s[%d] = %.17g\n", \
                __FILE__, __LINE__, #a, i_, (a)[i_], #b, i_, (b)[i_]);      \
        ++g_failures;                                                       \
        break;                                                              \
      }                                                                     \
    }                                                                       \
  } while (0)

typedef struct named_test {
  const char* name;
  void (*run)(void);
} named_test;

/* Runs the tests named in argv[1..] (all when none) and returns the exit
 * status: 0 when every check passed. */
static inline int run_named_tests(const named_test* tests, int count, int argc,
                                  char** argv) {
  int t, a, ran = 0;
  for (t = 0; t < count; ++t) {
    int selected = argc <= 1;
    for (a = 1; a < argc; ++a) {
      if (strcmp(argv[a], tests[t].name) == 0) selected = 1;
    }
    if (!selected) continue;
    {
      const int before = g_failures;
      fprintf(stderr, "[ RUN  ] %s\n", tests[t].name);
      tests[t].run();
      fprintf(stderr, "[ %s ] %s\n", g_failures == before ? " OK " : "FAIL",
              tests[t].name);
      ++ran;
    }
  }
  if (ran == 0) {
    fprintf(stderr, "no test matched\n");
    return 2;
  }
  return g_failures == 0 ? 0 : 1;
}

/* ---- A small KKT system K = [H A^T; A 0] (n = 5: 3 primal, 2 dual) ----
 * H = [4 1 0; 1 3 0; 0 0 2], A = [1 1 0; 0 1 1]: inertia (+3, -2, 0).
 * Its lower triangle with the diagonal (explicit zeros at (3,3), (4,4)),
 * 0-based, in row order: */
enum { KKT_N = 5, KKT_NNZ = 10 };
static const int KKT_ROW[KKT_NNZ] = {0, 1, 1, 2, 3, 3, 3, 4, 4, 4};
static const int KKT_COL[KKT_NNZ] = {0, 0, 1, 2, 0, 1, 3, 1, 2, 4};
static const double KKT_VAL[KKT_NNZ] = {4, 1, 3, 2, 1, 1, 0, 1, 1, 0};
/* The solution the tests aim at. */
static const double KKT_X[KKT_N] = {1, -2, 3, 0.5, -1.5};

/* y = K x for the symmetric matrix whose lower-triangle entries are
 * (row[k], col[k], scale * val[k]), plus diag_shift[i] on the diagonal
 * (may be NULL). */
static inline void kkt_multiply(const double* x, double scale,
                                const double* diag_shift, double* y) {
  int k, i;
  for (i = 0; i < KKT_N; ++i) {
    y[i] = diag_shift != NULL ? diag_shift[i] * x[i] : 0;
  }
  for (k = 0; k < KKT_NNZ; ++k) {
    const int r = KKT_ROW[k], c = KKT_COL[k];
    const double v = scale * KKT_VAL[k];
    y[r] += v * x[c];
    if (r != c) y[c] += v * x[r];
  }
}

#endif /* FACTORD_TESTS_CAPI_TEST_HARNESS_H_ */
