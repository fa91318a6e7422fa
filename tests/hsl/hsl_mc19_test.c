/* mc19ad_: Curtis-Reid scaling recovers planted row and column factors of
 * a matrix whose entries have magnitude exp(-(r_i + c_j)) exactly (the
 * least-squares residual is then zero); zero, non-finite and out-of-range
 * entries do not count; the symmetric use Ipopt makes of it,
 * exp((R + C) / 2) on both sides, brings every entry of a planted
 * symmetric matrix to magnitude 1. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>

#include "hsl_fixture.h"
#include "hsl_tests.h"

enum { N = 6 };

static double planted_log(int i) { return 0.7 * i - 1.5 + (i % 2) * 2.0; }

void test_mc19(void) {
  int irn[N * N + 3], icn[N * N + 3], n = N, na = 0, i, j, k;
  double a[N * N + 3];
  float r[N], c[N], w[5 * N];
  double worst = 0;
  for (i = 0; i < N; ++i) {
    for (j = 0; j < N; ++j) {
      if ((i + 2 * j) % 4 == 3) continue; /* a sparse, connected pattern */
      irn[na] = i + 1;
      icn[na] = j + 1;
      /* Symmetric: |a_ij| = exp(-(s_i + s_j)), signs mixed. */
      a[na++] =
          ((i * j) % 3 == 1 ? -1 : 1) * exp(-(planted_log(i) + planted_log(j)));
    }
  }
  irn[na] = 2; /* entries that must not count */
  icn[na] = 3;
  a[na++] = 0.0;
  irn[na] = N + 1;
  icn[na] = 1;
  a[na++] = 1e30;
  irn[na] = 1;
  icn[na] = 1;
  a[na++] = INFINITY;
  mc19ad_(&n, &na, a, irn, icn, r, c, w);
  for (k = 0; k < na - 3; ++k) {
    const int ri = irn[k] - 1, cj = icn[k] - 1;
    /* As Ipopt uses it: the symmetric factor exp((R + C) / 2). */
    const double scaled =
        fabs(a[k]) * exp((r[ri] + c[ri]) / 2.0) * exp((r[cj] + c[cj]) / 2.0);
    const double error = fabs(log(scaled));
    if (error > worst) worst = error;
  }
  fprintf(stderr, "mc19: worst |log|scaled entry|| = %.2e\n", worst);
  CHECK(worst < 1e-4);

  /* Bad sizes: no scaling (zeros), a line on stderr, no crash. */
  n = 0;
  capture_begin(2);
  mc19ad_(&n, &na, a, irn, icn, r, c, w);
  CHECK(capture_end("factord hsl: mc19ad: N < 1"));
}
