/*
 * factord.h: the C API of the factord sparse linear solver service
 * (library libfactord_c.so, CMake target factord_c; docs/c_api.md).
 *
 * For optimization and simulation codes written in C, Fortran (through
 * ISO_C_BINDING) or anything else that can call C: connect to a factord
 * daemon, upload a sparse matrix in the caller's own layout, and then, as
 * often as needed, update its values, factorize (with interior-point
 * shifts), solve, or do all three in one round trip (factord_step).
 *
 * C99, no C++ or Abseil types. Every function returns a factord_status
 * (FACTORD_OK = 0 on success). On failure, the message and the reason of
 * the failure are kept per thread (factord_last_error_message(), ...), so
 * two threads calling concurrently, even on one handle, never see each
 * other's messages. A successful call does not clear the thread's last
 * error.
 *
 * Threads: a factord_handle may be used by many threads at once; calls on
 * one handle run concurrently (one gRPC channel). Calls on one matrix ID
 * from several threads are each applied whole, in some order; use
 * expected generations to order them.
 *
 * Matrices: the library converts what the caller gives (CSR or COO, 0- or
 * 1-based, a lower or upper triangle of a symmetric matrix or every entry of
 * a general one) into the wire's layout (0-based CSR, sorted rows, lower
 * triangle for symmetric matrices) and keeps, per matrix, the mapping from
 * the caller's entry order to the stored order. Later values
 * (factord_update_values, factord_step) are therefore passed in the
 * caller's entry order, exactly as at upload. The mapping costs 8 bytes per
 * entry on the client for as long as the matrix is held (until
 * factord_release or factord_disconnect).
 *
 * Matrix IDs are chosen by the client: the caller's ID, or a random UUID
 * the library makes (36 characters). Every call that names a matrix sends
 * it in the `x-factord-matrix-id` header, so that a mesh can route all
 * calls for one matrix to the daemon that holds it.
 *
 * Ownership: the library never keeps a caller pointer beyond the call;
 * strings and arrays are copied as needed. Strings returned by the library
 * (names, messages) are owned by it; see each function for how long they
 * live.
 */
#ifndef FACTORD_FACTORD_H_
#define FACTORD_FACTORD_H_

#include <stddef.h>
#include <stdint.h>

#if defined(FACTORD_C_BUILDING)
#define FACTORD_C_EXPORT __attribute__((visibility("default")))
#else
#define FACTORD_C_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this C API; it changes when a declaration below changes
 * incompatibly. */
#define FACTORD_C_API_VERSION 1

/* Bytes enough for any matrix ID and its terminating NUL (IDs are 1..256
 * printable ASCII characters without spaces). */
#define FACTORD_ID_MAX 257
/* Length of a generated ID (a UUID, 8-4-4-4-12 hex digits), without NUL. */
#define FACTORD_UUID_LENGTH 36

/* ------------------------------------------------------------------------
 * Status codes
 *
 * 1..16 are the gRPC status codes of the same number (a failure reported by
 * the daemon, or by gRPC on the way); the library's own checks use them
 * too (a bad argument is FACTORD_ERR_INVALID_ARGUMENT). 100 and up are
 * failures of the library itself. factord_last_error_reason() says which
 * failure of its class it is.
 * --------------------------------------------------------------------- */
typedef enum factord_status {
  FACTORD_OK = 0,
  FACTORD_ERR_CANCELLED = 1, /* the call was cancelled, or the daemon
                                is shutting down */
  FACTORD_ERR_UNKNOWN = 2,
  FACTORD_ERR_INVALID_ARGUMENT = 3,  /* bad argument, matrix or option */
  FACTORD_ERR_DEADLINE_EXCEEDED = 4, /* the RPC timeout passed */
  FACTORD_ERR_NOT_FOUND = 5,         /* no matrix with this ID on the daemon */
  FACTORD_ERR_ALREADY_EXISTS = 6,    /* upload of an ID in use, no replace */
  FACTORD_ERR_PERMISSION_DENIED = 7,
  FACTORD_ERR_RESOURCE_EXHAUSTED = 8, /* a limit, budget, quota or full queue */
  FACTORD_ERR_FAILED_PRECONDITION = 9, /* solve before factorize, or stale */
  FACTORD_ERR_ABORTED = 10,            /* generation mismatch */
  FACTORD_ERR_OUT_OF_RANGE = 11,
  FACTORD_ERR_UNIMPLEMENTED = 12,
  FACTORD_ERR_INTERNAL = 13,
  FACTORD_ERR_UNAVAILABLE = 14, /* daemon unreachable or draining */
  FACTORD_ERR_DATA_LOSS = 15,
  FACTORD_ERR_UNAUTHENTICATED = 16,   /* no token, or an unknown one */
  FACTORD_ERR_BUFFER_TOO_SMALL = 100, /* a caller buffer is too small */
  FACTORD_ERR_OUT_OF_MEMORY = 101     /* the client could not allocate */
} factord_status;

/* The name of a status code ("OK", "INVALID_ARGUMENT", "BUFFER_TOO_SMALL",
 * ...; "UNKNOWN_STATUS" for a value not listed). Static storage. */
FACTORD_C_EXPORT const char* factord_status_name(factord_status status);

/* ------------------------------------------------------------------------
 * The calling thread's last failure
 *
 * Set by every call that fails, on the thread that made it; untouched by
 * calls that succeed and by calls on other threads.
 * --------------------------------------------------------------------- */

/* The code of the thread's last failure; FACTORD_OK if none yet. */
FACTORD_C_EXPORT factord_status factord_last_error_code(void);

/* Its message (English, one line; the daemon's message when the daemon
 * refused the call), "" if none. Thread-local storage, valid until the
 * next failing call on this thread; never NULL. */
FACTORD_C_EXPORT const char* factord_last_error_message(void);

/* Its reason: the factord.v1 ErrorReason name the daemon sent
 * ("GENERATION_MISMATCH", "QUEUE_FULL", "NOT_FOUND", "INVALID_OPTION", ...;
 * proto/factord/v1/errors.proto), or the library's own: "INVALID_REQUEST"
 * (a NULL pointer, a bad size or count), "INVALID_MATRIX" (an index out of
 * range, in the wrong triangle, a duplicate, row pointers not monotone),
 * "INVALID_OPTION", "UNAVAILABLE" (daemon unreachable), "BUFFER_TOO_SMALL",
 * "OUT_OF_MEMORY". "" if none. Same lifetime as the message. */
FACTORD_C_EXPORT const char* factord_last_error_reason(void);

/* The wait the daemon asked for before a retry (RetryInfo, with
 * QUEUE_FULL or a draining daemon), in milliseconds; -1 when it asked
 * none. */
FACTORD_C_EXPORT int64_t factord_last_error_retry_ms(void);

/* Writes "CODE_NAME [REASON]: message" of the thread's last failure into
 * `buffer` (`size` bytes, always NUL-terminated when size > 0, truncated if
 * needed; buffer may be NULL when size is 0) and returns the length of the
 * whole text without its NUL, as snprintf does. Writes "" and returns 0
 * when there was no failure. */
FACTORD_C_EXPORT size_t factord_last_error_copy(char* buffer, size_t size);

/* Forgets the calling thread's last failure. */
FACTORD_C_EXPORT void factord_clear_error(void);

/* The library's version ("0.1.0"). Static storage. */
FACTORD_C_EXPORT const char* factord_version(void);

/* ------------------------------------------------------------------------
 * Connections
 * --------------------------------------------------------------------- */

/* One connection to one daemon (or to a mesh in front of several). Opaque;
 * thread-safe. */
typedef struct factord_handle factord_handle;

typedef struct factord_connect_options {
  /* Bearer token sent with every call; NULL or "": $FACTORD_TOKEN, if
   * set. */
  const char* token;
  /* 1: TLS (with the system's root certificates unless tls_ca_file is
   * given). 0: TLS when any TLS file below is given (after the
   * environment defaults) or $FACTORD_TLS is "1"; else plaintext. */
  int tls;
  /* PEM files. NULL: the environment variable in brackets, if set.
   * "": none, whatever the environment says. */
  const char* tls_ca_file;   /* [FACTORD_TLS_CA] CA that signed the daemon */
  const char* tls_cert_file; /* [FACTORD_TLS_CERT] client certificate... */
  const char* tls_key_file;  /* [FACTORD_TLS_KEY] ...and its key (mTLS) */
  /* Deadline of each RPC in milliseconds. 0: none. < 0: $FACTORD_RPC_TIMEOUT
   * (seconds, may be fractional) if set, else none. */
  int64_t rpc_timeout_ms;
  /* How long factord_connect waits for the daemon. > 0: that long, then
   * FACTORD_ERR_UNAVAILABLE. 0: connect lazily on the first call (and fail
   * then). < 0: $FACTORD_CONNECT_TIMEOUT (seconds) if set, else 10 s.
   * Either way, a daemon that cannot be reached at all on the first
   * contact (connection refused: nothing listens there) fails at once,
   * UNAVAILABLE with a message that names the address and how to start a
   * daemon, or to work in process (FACTORD_SERVER=local). */
  int64_t connect_timeout_ms;
  /* When a call to a daemon that was reached fails in transit
   * (UNAVAILABLE: the daemon restarting or draining, the connection lost;
   * or an error a proxy made on the way), retry it, waiting 50 ms doubling
   * to 1 s between tries (or the daemon's RetryInfo delay, and while the
   * daemon is down, until it is back), for up to this long in total.
   * 0: no retry. < 0: the connect timeout as resolved above (10 s by
   * default). Retries are safe: a call that failed in transit did
   * nothing, or did what its repetition does again (uploads name their
   * ID, updates with an expected generation are applied at most once).
   * (The connection itself tries to reconnect to a daemon that went away
   * at least once a second.) */
  int64_t unavailable_retry_ms;
  /* Non-zero: transparent re-upload. The library keeps a copy of every
   * matrix it uploads (its pattern and latest values: the matrix's size
   * again in client memory); when the daemon answers NOT_FOUND (it was
   * restarted, or evicted the matrix), the library uploads the copy again
   * under the same ID, refactorizes it when the call needs a factorization,
   * and retries the call once. */
  int reupload;
  /* Largest request message in bytes (arrays are sent in chunks); 0: 1 MiB. */
  int64_t max_chunk_bytes;
} factord_connect_options;

/* Fills `options` with the defaults: every pointer NULL, tls 0,
 * rpc_timeout_ms, connect_timeout_ms and unavailable_retry_ms -1 (the
 * environment, else their documented defaults), reupload 0,
 * max_chunk_bytes 0. Call it before setting fields, so that fields added
 * later get their defaults. */
FACTORD_C_EXPORT void factord_connect_options_init(
    factord_connect_options* options);

/* Opens a handle on which the calls below run, in this process or on a
 * daemon (docs/in_process.md):
 *   - `address` "local": factord's core runs in the calling process (the
 *     in-process solver), with the daemon's semantics, option names and
 *     reports, and no daemon or network at all;
 *   - `address` "host:port" or any gRPC target such as
 *     "dns:///factord.example:50051": that daemon; matrices of order
 *     n < $FACTORD_LOCAL_BELOW (default 20000; 0: none) still run in process,
 *     where a round trip would cost more than the work it moves
 *     (factord_matrix_location says where each one is);
 *   - NULL or "": $FACTORD_SERVER as `address`; when that is unset too, in
 *     process.
 * In process, $FACTORD_THREADS (default 1) is the core's own threads per
 * call and $FACTORD_CACHE_BYTES (default 8 GiB) the bytes of matrices and
 * factors held (LRU). The in-process solver never changes the process'
 * state: no signal handlers, and the BLAS library's thread count is the one
 * the program set (OPENBLAS_NUM_THREADS); with FACTORD_THREADS > 1 set
 * OPENBLAS_NUM_THREADS=1 to avoid oversubscribing the cores. A client-only
 * build of this library has no in-process solver: "local" is then
 * UNIMPLEMENTED, and no configured server means "127.0.0.1:50051".
 * `options` NULL: the defaults of factord_connect_options_init (they apply
 * to a daemon). On success *handle is a new handle, to be closed with
 * factord_disconnect; on failure *handle is set to NULL. Errors:
 * INVALID_ARGUMENT (handle NULL; a TLS file that cannot be read or a bad
 * environment value, reason INVALID_OPTION), UNAVAILABLE (the daemon did
 * not answer within the connect timeout), UNIMPLEMENTED (see above). */
FACTORD_C_EXPORT factord_status
factord_connect(const char* address, const factord_connect_options* options,
                factord_handle** handle);

/* Closes the connection and frees the handle and every mapping it keeps.
 * The daemon keeps the matrices (release them first if they are not
 * needed). `handle` may be NULL. No call on the handle may be in flight or
 * follow. Always FACTORD_OK. */
FACTORD_C_EXPORT factord_status factord_disconnect(factord_handle* handle);

/* Where matrix `id` is held and factorized by this handle: "local" (in
 * this process) or the daemon's address; for `id` NULL or "", where an ID
 * this handle did not upload is looked for. Written into `buffer` as
 * factord_last_error_copy writes (size bytes, NUL-terminated when size > 0;
 * buffer may be NULL when size is 0); returns the length of the whole text.
 * "" (0) for a NULL handle. */
FACTORD_C_EXPORT size_t factord_matrix_location(factord_handle* handle,
                                                const char* id, char* buffer,
                                                size_t size);

/* ------------------------------------------------------------------------
 * Matrices
 * --------------------------------------------------------------------- */

typedef enum factord_format {
  FACTORD_CSR = 0, /* row_ptr (or row_ptr32), col_idx, values */
  FACTORD_COO = 1  /* nnz, row_idx, col_idx, values, entries in any order */
} factord_format;

typedef enum factord_structure {
  FACTORD_GENERAL = 0,   /* any square matrix: give every entry */
  FACTORD_SYMMETRIC = 1, /* symmetric (indefinite): give one triangle */
  FACTORD_SPD = 2        /* symmetric positive definite: one triangle */
} factord_structure;

typedef enum factord_triangle {
  FACTORD_FULL = 0,  /* every entry (FACTORD_GENERAL only) */
  FACTORD_LOWER = 1, /* entries with row >= column (with the diagonal) */
  FACTORD_UPPER = 2  /* entries with row <= column (with the diagonal) */
} factord_triangle;

/* A square sparse matrix in the caller's layout, borrowed for the duration
 * of one call. nnz below is the number of entries the caller gives;
 * "entry k" is the k-th of them (k = 0..nnz-1, in array order), the order in
 * which values are given at upload and afterwards. Explicit zeros are
 * entries and are kept. Symmetric structures take exactly one triangle; an
 * entry in the other triangle is an error. */
typedef struct factord_matrix {
  int64_t n; /* rows = columns, 1..2^31-1 */
  factord_format format;
  factord_structure structure;
  factord_triangle triangle; /* FULL for GENERAL; LOWER/UPPER otherwise */
  int base;                  /* 0 or 1: the index of the first row/column,
                                in every index array (row_ptr too) */
  /* CSR: exactly one of row_ptr / row_ptr32, n + 1 entries, row_ptr[0] ==
   * base, non-decreasing; nnz = row_ptr[n] - base. */
  const int64_t* row_ptr;
  const int32_t* row_ptr32;
  /* COO: the number of entries (>= 0) and their row indices. */
  int64_t nnz;
  const int32_t* row_idx;
  /* Column index and value of each entry (nnz each). values NULL: every
   * value is 0 (give the values later with factord_update_values). Within a
   * CSR row the columns may come in any order. */
  const int32_t* col_idx;
  const double* values;
} factord_matrix;

/* Fills `matrix` with n 0, CSR, GENERAL, FULL, base 0, NULL arrays. */
FACTORD_C_EXPORT void factord_matrix_init(factord_matrix* matrix);

/* Flags of factord_upload. */
/* Replace a matrix the daemon holds under the ID (its generation advances);
 * without it an upload of an ID in use fails with ALREADY_EXISTS. */
#define FACTORD_UPLOAD_REPLACE 1u
/* Duplicate entries (the same row and column, after mapping a symmetric
 * entry to its triangle) are summed, at upload and in later values; without
 * it a duplicate is INVALID_ARGUMENT (INVALID_MATRIX). */
#define FACTORD_UPLOAD_SUM_DUPLICATES 2u

/* Uploads `matrix` under `id`, or under a new UUID when `id` is NULL or "".
 * The ID used is written to `id_out` (`id_out_size` bytes: at least
 * strlen(id) + 1, or FACTORD_UUID_LENGTH + 1 for a generated one;
 * FACTORD_ID_MAX always suffices); id_out may be NULL when `id` is given.
 * The sizes are checked before anything is sent (BUFFER_TOO_SMALL).
 * `flags`: FACTORD_UPLOAD_* or 0. `generation` (may be NULL) receives the
 * matrix's generation: 1, or the next one after a replacing upload.
 * The matrix is checked whole before anything is sent: INVALID_ARGUMENT
 * with reason INVALID_REQUEST (NULL arrays, n <= 0, a bad base, format,
 * structure or triangle) or INVALID_MATRIX (row pointers, an index out of
 * range base..n-1+base, an entry in the wrong triangle, a duplicate),
 * naming the first offending entry. The daemon may refuse it as well
 * (RESOURCE_EXHAUSTED with MATRIX_TOO_LARGE or CACHE_BUDGET,
 * ALREADY_EXISTS, ...). */
FACTORD_C_EXPORT factord_status factord_upload(factord_handle* handle,
                                               const factord_matrix* matrix,
                                               const char* id, unsigned flags,
                                               char* id_out, size_t id_out_size,
                                               uint64_t* generation);

/* Replaces the values of matrix `id`: `values` holds as many entries as the
 * upload gave, in the caller's entry order of the upload. With
 * `expected_generation` not 0 the values are applied only if the matrix is
 * at that generation (else ABORTED, reason GENERATION_MISMATCH, nothing
 * changed), so a retried update is applied at most once. `generation` (may
 * be NULL) receives the new generation. The factorization becomes stale.
 * A matrix this handle did not upload (uploaded by another process) takes
 * its values in the daemon's stored order (0-based CSR, lower triangle
 * for symmetric matrices), as many as the daemon holds. */
FACTORD_C_EXPORT factord_status factord_update_values(
    factord_handle* handle, const char* id, const double* values,
    uint64_t expected_generation, uint64_t* generation);

/* Frees matrix `id` and its factors on the daemon, and the handle's mapping
 * and reports for it. `bytes_freed` (may be NULL) receives what the daemon
 * freed. */
FACTORD_C_EXPORT factord_status factord_release(factord_handle* handle,
                                                const char* id,
                                                int64_t* bytes_freed);

/* What the daemon holds about a matrix. */
typedef struct factord_matrix_info {
  int64_t n;
  int64_t nnz;        /* stored entries (lower triangle if symmetric) */
  int64_t caller_nnz; /* entries of the caller's layout if this handle
                         uploaded it, else -1 */
  factord_structure structure;
  uint64_t generation;            /* 1 after upload, +1 per update / replace */
  uint64_t factorized_generation; /* of the current factorization, or 0 */
  int factorized;                 /* 1 if a factorization exists */
  int stale;                      /* 1 if the values changed since */
  int64_t bytes;                  /* held by the daemon */
  char method[32];                /* of the factorization, "" if none */
} factord_matrix_info;

/* Fills `info` (not NULL) from the daemon (NOT_FOUND if it holds no such
 * matrix). */
FACTORD_C_EXPORT factord_status factord_get_matrix(factord_handle* handle,
                                                   const char* id,
                                                   factord_matrix_info* info);

/* ------------------------------------------------------------------------
 * Factorization and solves
 * --------------------------------------------------------------------- */

typedef struct factord_factorize_options {
  /* Names as in factorctl; NULL or "": the daemon's default.
   * method: auto | ldlt | lu | block_ildlt | jacobi_ldlt | ic | ilu |
   *         block_jacobi | jacobi | none (auto: lu for general matrices,
   *         else ldlt). */
  const char* method;
  const char* ordering; /* auto | natural | amd | metis | rcm | gmc */
  const char* pivoting; /* bunch_kaufman (bk) | static | rook */
  /* auto | none | ruiz | matching | column_norm. A method takes auto, none
   * and its own (ruiz: ldlt, block_ildlt, jacobi_ldlt; matching: ldlt;
   * column_norm: ic, ilu); another is refused with reason INVALID_OPTION. */
  const char* scaling;
  /* Threshold u of the 1x1/2x2 pivot test |l_ij| <= 1/u, in (0, 0.5], for
   * ldlt, block_ildlt and jacobi_ldlt; 0: the daemon's 0.01. Raise it for a
   * more accurate factorization (more 2x2 pivots and delays). */
  double pivot_threshold;
  /* Interior-point regularization without re-upload: shift_first is added
   * to the first shift_count diagonal entries, shift_rest to the others.
   * The shifted matrix is the system factorized and solved; the solve
   * reports give its residuals. Methods none and lu refuse shifts (reason
   * INVALID_OPTION). */
  double shift_first;
  double shift_rest;
  int64_t shift_count;
  /* No effect: the daemon is always bitwise reproducible for a fixed
   * thread count (same input, options and --threads, same bits). */
  int deterministic;
  /* Factorize only if the matrix is at this generation (0: no check);
   * with factord_step: the generation before the new values. */
  uint64_t expected_generation;
} factord_factorize_options;

/* Fills `options` with the defaults (NULL names, zeros). */
FACTORD_C_EXPORT void factord_factorize_options_init(
    factord_factorize_options* options);

typedef struct factord_solve_options {
  /* auto | none | cg | gmres | sqmr | idr | bicgstab; NULL or "": auto
   * (the direct solve with iterative refinement for ldlt and lu, which
   * refuse any other: reason INVALID_OPTION). */
  const char* krylov;
  double tolerance; /* relative residual; 0: 1e-8 */
  /* 0: 1000. Krylov iterations; lu's refinement steps (at most 10); ldlt
   * takes only the default (its refinement stops when a step no longer
   * helps). */
  int max_iterations;
  /* Solve only with a factorization of this generation (0: no check). */
  uint64_t expected_generation;
} factord_solve_options;

/* Fills `options` with the defaults (NULL, zeros). */
FACTORD_C_EXPORT void factord_solve_options_init(
    factord_solve_options* options);

/* Factorizes matrix `id` (the analysis of its pattern is reused when the
 * daemon has it). `options` NULL: defaults. `diagonal` (may be NULL): n
 * values added to the diagonal on top of the scalar shifts, entry i to row
 * i (0-based position in the array whatever the matrix's base), without
 * changing the stored values. The report is kept
 * (factord_last_factor_report). A singular or perturbed factorization is
 * not an error: the report says so. */
FACTORD_C_EXPORT factord_status factord_factorize(
    factord_handle* handle, const char* id,
    const factord_factorize_options* options, const double* diagonal);

/* Solves A X = B for `nrhs` right-hand sides (>= 1): `b` and `x` are n x nrhs
 * column-major arrays (column k at offset k * n). `x` may be the same
 * pointer as `b` (the solutions then overwrite the right-hand sides); other
 * overlaps are not allowed. `options` NULL: defaults. The reports are kept
 * (factord_last_solve_reports); an unconverged or singular solve is not an
 * error. Fails with FAILED_PRECONDITION (NOT_FACTORIZED, STALE_FACTOR) when
 * there is no factorization of the current values. */
FACTORD_C_EXPORT factord_status
factord_solve(factord_handle* handle, const char* id,
              const factord_solve_options* options, int64_t nrhs,
              const double* b, double* x);

/* One interior-point iteration in one round trip: replaces the values of
 * matrix `id` with `values` (caller's entry order as in
 * factord_update_values; NULL keeps the values the daemon holds),
 * factorizes with `factorize` (NULL: defaults; reusing the analysis) and
 * the per-entry `diagonal` (n values or NULL), and solves `nrhs` (>= 0)
 * right-hand sides `b` into `x` (n x nrhs column-major; x may equal b; both
 * may be NULL when nrhs is 0) with `solve` (NULL: defaults). With
 * factorize->expected_generation not 0 the step is applied only if the
 * matrix is at that generation, so a retried step is applied at most once.
 * Up to 256 right-hand sides travel in the step; more are solved by one
 * more round trip. Reports are kept as by factord_factorize and
 * factord_solve. */
FACTORD_C_EXPORT factord_status
factord_step(factord_handle* handle, const char* id, const double* values,
             const factord_factorize_options* factorize, const double* diagonal,
             const factord_solve_options* solve, int64_t nrhs, const double* b,
             double* x);

/* ------------------------------------------------------------------------
 * Reports of the last factorization and solves
 *
 * Kept per handle and matrix ID: the last factord_factorize / factord_step
 * report, and the reports of the right-hand sides of the last
 * factord_solve / factord_step. When several threads factorize one matrix,
 * "last" is the call that finished last.
 * --------------------------------------------------------------------- */

typedef enum factord_factor_status {
  FACTORD_FACTOR_OK = 1,
  FACTORD_FACTOR_SINGULAR = 2, /* a zero pivot (lu) or singular blocks */
  FACTORD_FACTOR_PERTURBED = 3 /* pivots perturbed: numerically singular;
                                  the inertia is then unreliable */
} factord_factor_status;

typedef struct factord_factor_report {
  factord_factor_status status;
  char method[32];  /* the method used (auto resolved) */
  int64_t positive; /* inertia: positive, negative, zero pivots */
  int64_t negative;
  int64_t zero;
  int inertia_reliable;
  int64_t perturbed_pivots;
  int64_t delayed_pivots;
  int64_t two_by_two_pivots;
  int64_t nnz_factor; /* entries of L */
  int64_t factor_bytes;
  int analysis_reused; /* the symbolic analysis came from the cache */
  uint64_t generation; /* of the values factorized */
  double preprocess_s; /* seconds measured by the daemon */
  double analyze_s;
  double factorize_s;
  double queue_s; /* waiting for a worker */
  double wall_s;  /* the whole call, measured by the client */
} factord_factor_report;

typedef enum factord_solve_status {
  FACTORD_SOLVE_CONVERGED = 1,
  FACTORD_SOLVE_NOT_CONVERGED = 2,
  FACTORD_SOLVE_BREAKDOWN = 3,
  FACTORD_SOLVE_SINGULAR = 4
} factord_solve_status;

typedef struct factord_solve_report {
  factord_solve_status status;
  double relative_residual; /* ||b - Ax||_2 / ||b||_2 on the matrix as held */
  double backward_error; /* ||b-Ax||_inf / (||A||_inf ||x||_inf + ||b||_inf) */
  int iterations;        /* refinement steps or Krylov iterations */
  double solve_s;        /* seconds measured by the daemon */
  double queue_s;
} factord_solve_report;

/* Copies the last factorization report of matrix `id` into `report` (not
 * NULL). FAILED_PRECONDITION (reason NO_REPORT) when this handle has not
 * factorized it. */
FACTORD_C_EXPORT factord_status factord_last_factor_report(
    factord_handle* handle, const char* id, factord_factor_report* report);

/* Copies up to `capacity` reports of the last solve of matrix `id` (one per
 * right-hand side, in their order) into `reports` (may be NULL when
 * capacity is 0) and sets *count (not NULL) to the number of right-hand
 * sides of that solve, which may exceed capacity. FAILED_PRECONDITION
 * (NO_REPORT) when this handle has not solved with it. */
FACTORD_C_EXPORT factord_status factord_last_solve_reports(
    factord_handle* handle, const char* id, factord_solve_report* reports,
    int64_t capacity, int64_t* count);

/* Counters of the handle (any may be NULL): matrices uploaded by
 * factord_upload, and matrices uploaded again after NOT_FOUND (reupload). */
FACTORD_C_EXPORT factord_status factord_counters(factord_handle* handle,
                                                 int64_t* uploads,
                                                 int64_t* reuploads);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FACTORD_FACTORD_H_ */
