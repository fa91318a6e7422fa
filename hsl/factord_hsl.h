/*
 * factord_hsl.h: the HSL entry points that libhsl.so implements over
 * factord's C API (docs/hsl.md): MA57 (ma57id_, ma57ad_, ma57bd_, ma57cd_,
 * ma57ed_), MA27 (ma27id_, ma27ad_, ma27bd_, ma27cd_) and MC19 (mc19ad_),
 * with the Fortran 77 calling convention of gfortran (lower case, one
 * trailing underscore, every argument by reference, 1-based indices), and
 * the library's own diagnostics. Programs that load HSL at run time
 * (Ipopt's `linear_solver ma57` / `ma27`) need no header; this one is for
 * programs and tests that call the routines directly. C99.
 *
 * The factorization lives in a factord daemon (or in process, as
 * $FACTORD_SERVER says), not in FACT/IFACT or A/IW: the arrays the caller
 * allocates only carry a small token, so INFO(9)/INFO(10) of ma57ad_ and
 * INFO(5)/INFO(6) of ma27ad_ are small constants (docs/hsl.md, "Arrays").
 * Arrays are indexed 1-based in the comments: INFO(k) is info[k - 1].
 */
#ifndef FACTORD_HSL_FACTORD_HSL_H_
#define FACTORD_HSL_FACTORD_HSL_H_

#include <stdint.h>

#if defined(FACTORD_HSL_BUILDING)
#define FACTORD_HSL_EXPORT __attribute__((visibility("default")))
#else
#define FACTORD_HSL_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- MA57: symmetric indefinite LDL^T ---------------------------------- */

/* Sets MA57's documented defaults in CNTL(1..5) and ICNTL(1..20). */
FACTORD_HSL_EXPORT void ma57id_(double* cntl, int* icntl);

/* Analysis of the pattern IRN/JCN (NE entries, either triangle, 1-based).
 * KEEP (LKEEP >= 5N + NE + max(N, NE) + 42) receives the pattern; IWORK
 * (5N) is not used. Entries outside 1..N are ignored with warning
 * INFO(1) = 1 (INFO(3) counts them), duplicates are kept and summed with
 * warning 2 (INFO(4)), 3 for both. INFO(9) and INFO(10) are the LFACT and
 * LIFACT that ma57bd_ needs. INFO(40), RINFO(20). */
FACTORD_HSL_EXPORT void ma57ad_(int* n, int* ne, const int* irn, const int* jcn,
                                int* lkeep, int* keep, int* iwork, int* icntl,
                                int* info, double* rinfo);

/* Factorization of the values A (NE, in the order of ma57ad_'s entries)
 * through factord's ldlt with pivot threshold CNTL(1). INFO(1): 0, 4
 * (singular or inertia not reliable: INFO(25) < N is the rank), or an
 * error (< 0); INFO(24) negative eigenvalues. FACT is not touched; IFACT
 * receives the token of the factorization (LIFACT >= INFO(10) of
 * ma57ad_). */
FACTORD_HSL_EXPORT void ma57bd_(int* n, int* ne, double* a, double* fact,
                                int* lfact, int* ifact, int* lifact, int* lkeep,
                                int* keep, int* iwork, int* icntl, double* cntl,
                                int* info, double* rinfo);

/* Solves A X = B for NRHS right-hand sides in RHS (leading dimension LRHS)
 * with the factorization whose token IFACT holds. JOB must be 1. WORK
 * (LWORK >= N * NRHS) and IWORK are not used. On any failure INFO(1) < 0
 * and the right-hand sides are overwritten with NaN. */
FACTORD_HSL_EXPORT void ma57cd_(int* job, int* n, double* fact, int* lfact,
                                int* ifact, int* lifact, int* nrhs, double* rhs,
                                int* lrhs, double* work, int* lwork, int* iwork,
                                int* icntl, int* info);

/* Copies FACT (IC = 0) or IFACT (IC >= 1) into a longer array, as MA57's
 * MA57ED does; the token moves with IFACT. INFO(1) = -7 when the new
 * array is shorter. */
FACTORD_HSL_EXPORT void ma57ed_(int* n, int* ic, int* keep, double* fact,
                                int* lfact, double* newfac, int* lnew,
                                int* ifact, int* lifact, int* newifc,
                                int* linew, int* info);

/* ---- MA27: symmetric indefinite LDL^T ---------------------------------- */

/* Sets MA27's documented defaults in ICNTL(1..30) and CNTL(1..5). */
FACTORD_HSL_EXPORT void ma27id_(int* icntl, double* cntl);

/* Analysis of IRN/ICN (NZ entries, either triangle, 1-based). IKEEP (3N)
 * receives a token; IW and IW1 are not used. IFLAG = INFO(1): 0, 1
 * (entries outside 1..N ignored, INFO(2) counts them) or an error.
 * NSTEPS = 1; INFO(5) and INFO(6) are the LA and LIW that ma27bd_ needs.
 * INFO(20). */
FACTORD_HSL_EXPORT void ma27ad_(int* n, int* nz, const int* irn, const int* icn,
                                int* iw, int* liw, int* ikeep, int* iw1,
                                int* nsteps, int* iflag, int* icntl,
                                double* cntl, int* info, double* ops);

/* Factorization of A(1..NZ) (LA >= NZ) with pivot threshold CNTL(1).
 * INFO(1): 0, 3 (singular or inertia not reliable: INFO(2) < N is the
 * rank) or an error; INFO(15) negative eigenvalues. IW (LIW >= INFO(6) of
 * ma27ad_) receives the token of the factorization; A is not modified.
 * MAXFRT = 1. */
FACTORD_HSL_EXPORT void ma27bd_(int* n, int* nz, const int* irn, const int* icn,
                                double* a, int* la, int* iw, int* liw,
                                int* ikeep, int* nsteps, int* maxfrt, int* iw1,
                                int* icntl, double* cntl, int* info);

/* Solves A x = RHS in place with the factorization whose token IW holds.
 * MA27CD has no status argument: on a failure RHS is overwritten with NaN
 * and a line goes to stderr. */
FACTORD_HSL_EXPORT void ma27cd_(int* n, double* a, int* la, int* iw, int* liw,
                                double* w, int* maxfrt, double* rhs, int* iw1,
                                int* nsteps, int* icntl, double* cntl);

/* ---- MC19: scaling -------------------------------------------------------
 * Curtis-Reid scaling of the N x N matrix with NA entries A(k) at
 * (IRN(k), ICN(k)): R(i) and C(j) receive the natural logarithms of row
 * and column factors that bring |A(k) exp(R(i) + C(j))| close to 1 in the
 * least-squares sense over the nonzero entries. W (5N) is not used. */
FACTORD_HSL_EXPORT void mc19ad_(int* n, int* na, double* a, int* irn, int* icn,
                                float* r, float* c, float* w);

/* ---- Diagnostics of this implementation --------------------------------- */

/* Analyses held (each one factord matrix). */
FACTORD_HSL_EXPORT int64_t factord_hsl_sessions(void);

/* Matrices sent to factord so far (uploads of a pattern). */
FACTORD_HSL_EXPORT int64_t factord_hsl_uploads(void);

/* The factord matrix ID of the analysis held for the KEEP (MA57) or IKEEP
 * (MA27) array at `keep`, into buffer (size bytes); 0, or -1 when there is
 * none or it does not fit. */
FACTORD_HSL_EXPORT int factord_hsl_matrix_id(const int* keep, char* buffer,
                                             int size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FACTORD_HSL_FACTORD_HSL_H_ */
