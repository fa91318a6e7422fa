/* What the libpardiso tests share: the KKT system of
 * tests/capi/test_harness.h as PARDISO takes it (1-based CSR, upper
 * triangle), iparm as Ipopt 3.11.9 sets it, a daemon per test process, and
 * capture of what a call prints. */
#ifndef FACTORD_TESTS_PARDISO_PARDISO_FIXTURE_H_
#define FACTORD_TESTS_PARDISO_PARDISO_FIXTURE_H_

#include "factord/factord.h"
#include "factord_pardiso.h"
#include "test_daemon.h"
#include "test_harness.h"

extern test_daemon g_daemon;

/* K's upper triangle, 1-based CSR, rows sorted, explicit zero diagonal in
 * the dual block (as Ipopt passes it). */
extern const int KKT_IA[KKT_N + 1];
extern const int KKT_JA[KKT_NNZ];
extern const double KKT_A[KKT_NNZ];

/* Starts the daemon if needed (on its old port after a kill) and points
 * FACTORD_SERVER at it; short timeouts for the tests. */
void fixture_daemon(void);

/* pardisoinit for mtype, then iparm as Ipopt 3.11.9's
 * IpPardisoSolverInterface sets it (IPARM 1=1, 2=5, 3=1, 6=1, 8=0, 10=12,
 * 11=2, 13=1, 21=3, 24=1, 25=1, 29=0, 30=1). */
void ipopt_init(void* pt[64], int mtype, int iparm[64], double dparm[64]);

/* One pardiso() call with the arguments that vary; returns error. */
int call_pardiso(void* pt[64], int maxfct, int mnum, int mtype, int phase,
                 int n, const double* a, const int* ia, const int* ja, int nrhs,
                 int iparm[64], int msglvl, double* b, double* x);

/* The generation the daemon holds matrix mnum of pt at (0 when it holds
 * none). */
uint64_t daemon_generation(void* pt[64], int mnum);

/* Runs nothing itself: starts capturing stdout or stderr (fd 1 or 2) into a
 * file; capture_end returns 1 when what was written contains `text`. */
void capture_begin(int fd);
int capture_end(const char* text);

#endif /* FACTORD_TESTS_PARDISO_PARDISO_FIXTURE_H_ */
