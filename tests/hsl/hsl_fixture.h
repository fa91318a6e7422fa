/* What the libhsl tests share: the KKT system of tests/capi/test_harness.h
 * as Ipopt hands it to MA57 and MA27 (1-based triplets, a duplicate, an
 * entry in the other triangle), planted systems of known inertia, the
 * arrays Ipopt 3.11.9's Ma57TSolverInterface and Ma27TSolverInterface
 * allocate and the calls they make, a daemon per test process, and capture
 * of what a call prints. */
#ifndef FACTORD_TESTS_HSL_HSL_FIXTURE_H_
#define FACTORD_TESTS_HSL_HSL_FIXTURE_H_

#include <stdint.h>

#include "factord/factord.h"
#include "factord_hsl.h"
#include "test_daemon.h"
#include "test_harness.h"

extern test_daemon g_daemon;

/* The KKT system K (n = 5, inertia (+3, -2)) as triplets: K's lower
 * triangle with K(1,1) = 4 given as two entries 3 + 1 (MA57 and MA27 sum
 * duplicates) and K(4,1) given as (1,4), the other triangle. */
enum { KKT_NE = KKT_NNZ + 1 };
extern const int KKT_IRN[KKT_NE];
extern const int KKT_JCN[KKT_NE];
/* The values of K scaled by `scale`, in the triplets' order. */
void kkt_values(double scale, double a[KKT_NE]);

/* A planted n x n tridiagonal matrix A = L D L^T, L unit lower bidiagonal
 * (random sub-diagonal in [-1, 1]), D diagonal with |d_i| in [1, 2] and
 * the sign of d_i negative for the indices i with i % 3 == 1 (so, by
 * Sylvester's law, A has (n + 1) / 3 negative eigenvalues): entries in
 * irn/jcn/a (3n - 2 of them, lower triangle, 1-based), `seed` fixes the
 * values. Returns the number of entries. */
int planted_tridiagonal(int n, unsigned seed, int* irn, int* jcn, double* a);
int planted_negative(int n);
/* y = A x for triplets of a symmetric matrix (either triangle). */
void triplet_multiply(int n, int ne, const int* irn, const int* jcn,
                      const double* a, const double* x, double* y);

/* Starts the daemon if needed (on its old port after a kill) and points
 * FACTORD_SERVER at it, every system included (FACTORD_LOCAL_BELOW=0);
 * short timeouts for the tests. */
void fixture_daemon(void);

/* The generation the daemon at $FACTORD_SERVER holds matrix `id` at (0:
 * not held). */
uint64_t daemon_generation(const char* id);

/* Starts capturing stdout or stderr (fd 1 or 2) into a file; capture_end
 * returns 1 when what was written contains `text`. */
void capture_begin(int fd);
int capture_end(const char* text);

/* MA57's arrays as Ipopt allocates them: KEEP of 5n + ne + max(n, ne) +
 * 42, IWORK of 5n, FACT and IFACT of INFO(9) and INFO(10) of ma57ad_ times
 * ma57_pre_alloc (1.05). */
typedef struct ma57_arrays {
  int n, ne, lkeep, lfact, lifact;
  int* keep;
  int* iwork;
  double* fact;
  int* ifact;
  double cntl[5];
  int icntl[20];
  int info[40];
  double rinfo[20];
} ma57_arrays;

/* ma57id_, then Ipopt's settings: ICNTL(1), (2) = 0, (4) = 1, (5) = 0,
 * (6) = 5, (7) = 1, (11), (12) = 16, (15) = 0, (16) = 0; CNTL(1) = 1e-8
 * (ma57_pivtol). */
void ma57_init(ma57_arrays* m, int n, int ne);
/* ma57ad_, then FACT and IFACT allocated from INFO(9), INFO(10); returns
 * INFO(1). */
int ma57_analyse(ma57_arrays* m, const int* irn, const int* jcn);
/* ma57bd_; returns INFO(1). */
int ma57_factorize(ma57_arrays* m, const double* a);
/* ma57cd_ with JOB 1, LWORK = n * nrhs; returns INFO(1). */
int ma57_solve(ma57_arrays* m, int nrhs, double* rhs, int lrhs);
void ma57_free(ma57_arrays* m);

/* MA27's arrays as Ipopt allocates them: IKEEP of 3n; after ma27ad_, IW
 * of 5 INFO(6) and A of max(nz, 5 INFO(5)) (new arrays). */
typedef struct ma27_arrays {
  int n, nz, liw, la, nsteps, maxfrt;
  int* iw;
  int* ikeep;
  double* a;
  int icntl[30];
  double cntl[5];
  int info[20];
} ma27_arrays;

/* ma27id_, ICNTL(1), (2) = 0; CNTL(1) = 1e-8 (ma27_pivtol). */
void ma27_init(ma27_arrays* m, int n, int nz);
/* ma27ad_ (IFLAG 0), then IW and A allocated as Ipopt does; returns
 * INFO(1). */
int ma27_analyse(ma27_arrays* m, const int* irn, const int* icn);
/* Copies the values into A(1..nz) and calls ma27bd_; returns INFO(1). */
int ma27_factorize(ma27_arrays* m, const int* irn, const int* icn,
                   const double* values);
/* ma27cd_ on one right-hand side (in place). */
void ma27_solve(ma27_arrays* m, double* rhs);
void ma27_free(ma27_arrays* m);

/* 1 when every one of the n values is a NaN. */
int all_nan(const double* x, int n);

#endif /* FACTORD_TESTS_HSL_HSL_FIXTURE_H_ */
