/*
 * factord_pardiso.h: the pardiso-project 4.x API that libpardiso.so
 * implements over factord's C API (docs/pardiso.md), and the library's own
 * diagnostics. Programs written for PARDISO (Ipopt's `linear_solver
 * pardiso` among them) load libpardiso.so and need no header; this one is
 * for programs and tests that call it directly. C99.
 *
 * Every argument is a pointer, as in PARDISO's Fortran-style interface.
 * iparm and dparm have 64 entries; this header numbers them 1-based as the
 * PARDISO manual does: IPARM(k) is iparm[k - 1].
 */
#ifndef FACTORD_PARDISO_FACTORD_PARDISO_H_
#define FACTORD_PARDISO_FACTORD_PARDISO_H_

#include <stdint.h>

#if defined(FACTORD_PARDISO_BUILDING)
#define FACTORD_PARDISO_EXPORT __attribute__((visibility("default")))
#else
#define FACTORD_PARDISO_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Zeroes the handle pt (64 pointers) and fills iparm and dparm with
 * defaults for mtype. solver must be 0 (the direct solver). error: 0, or
 * -1 for an unsupported mtype or solver. */
FACTORD_PARDISO_EXPORT void pardisoinit(void* pt, int* mtype, int* solver,
                                        int* iparm, double* dparm, int* error);

/* Phases 11 (analysis: sends the pattern and values when the pattern
 * changed), 12, 13, 22 (factorization), 23, 33 (solve), 0 (releases matrix
 * mnum) and -1 (releases everything). mtype -2 (symmetric indefinite,
 * ldlt), 2 (symmetric positive definite), 1 and 11 (lu). ia/ja: 1-based
 * CSR, the upper triangle for symmetric types, every entry for 1 and 11.
 * b and x are n x nrhs column-major; IPARM(6) = 1 writes the solutions into
 * b. error: the PARDISO code (docs/pardiso.md), 0 on success. */
FACTORD_PARDISO_EXPORT void pardiso(void* pt, int* maxfct, int* mnum,
                                    int* mtype, int* phase, int* n, double* a,
                                    int* ia, int* ja, int* perm, int* nrhs,
                                    int* iparm, int* msglvl, double* b,
                                    double* x, int* error, double* dparm);

/* Checks a matrix as phase 11 would; error 0 or -1 (with a line on
 * stderr). */
FACTORD_PARDISO_EXPORT void pardiso_chkmatrix(int* mtype, int* n, double* a,
                                              int* ia, int* ja, int* error);

/* Checks n x nrhs right-hand sides: sizes positive, values finite. */
FACTORD_PARDISO_EXPORT void pardiso_chkvec(int* n, int* nrhs, double* b,
                                           int* error);

/* Prints sizes and value ranges of the matrix and right-hand sides on
 * stdout. */
FACTORD_PARDISO_EXPORT void pardiso_printstats(int* mtype, int* n, double* a,
                                               int* ia, int* ja, int* nrhs,
                                               double* b, int* error);

/* Present so that Ipopt accepts the library as pardiso-project >= 4.0. */
FACTORD_PARDISO_EXPORT void pardiso_ipopt_newinterface(void);

/* Diagnostics of this implementation. Matrices sent (uploads, replacing
 * uploads) by handle pt so far; -1 for a handle not in use. */
FACTORD_PARDISO_EXPORT int64_t factord_pardiso_uploads(void* pt);

/* The factord matrix ID of matrix mnum of handle pt, into buffer (size
 * bytes); 0, or -1 when there is none or it does not fit. */
FACTORD_PARDISO_EXPORT int factord_pardiso_matrix_id(void* pt, int mnum,
                                                     char* buffer, int size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FACTORD_PARDISO_FACTORD_PARDISO_H_ */
