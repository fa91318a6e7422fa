/* Matrices through the C API: every caller layout (CSR and COO, 0- and
 * 1-based, lower and upper triangles, 32- and 64-bit row pointers, a
 * general matrix, an SPD one, summed duplicates) gives the same system;
 * generated and named IDs; each class of bad input with its code and
 * reason; values in the caller's order, generations, release. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "capi_fixture.h"
#include "capi_tests.h"

void test_upload_layouts(void) {
  factord_handle* h = fixture_connect(0);
  kkt_csr lower;
  kkt_coo upper;
  factord_matrix m;
  char id[FACTORD_ID_MAX];
  uint64_t generation = 0;
  int i;

  /* 0-based CSR, lower triangle, generated ID (a UUID). */
  kkt_csr_lower0(&lower);
  CHECK_OK(factord_upload(h, &lower.m, NULL, 0, id, sizeof id, &generation));
  CHECK(strlen(id) == FACTORD_UUID_LENGTH);
  CHECK(id[8] == '-' && id[13] == '-' && id[18] == '-' && id[23] == '-');
  CHECK(generation == 1);
  check_solves_kkt(h, id, 1.0);

  /* 1-based CSR, upper triangle, 32-bit row pointers, columns of each row
   * in decreasing order. */
  {
    static const int32_t row_ptr32[KKT_N + 1] = {1, 4, 7, 9, 10, 11};
    static const int32_t col[KKT_NNZ] = {4, 2, 1, 5, 4, 2, 5, 3, 4, 5};
    static const double val[KKT_NNZ] = {1, 1, 4, 1, 1, 3, 1, 2, 0, 0};
    factord_matrix_init(&m);
    m.n = KKT_N;
    m.structure = FACTORD_SYMMETRIC;
    m.triangle = FACTORD_UPPER;
    m.base = 1;
    m.row_ptr32 = row_ptr32;
    m.col_idx = col;
    m.values = val;
    CHECK_OK(factord_upload(h, &m, "csr-upper-1", 0, id, sizeof id, NULL));
    CHECK(strcmp(id, "csr-upper-1") == 0);
    check_solves_kkt(h, "csr-upper-1", 1.0);
  }

  /* 1-based COO, upper triangle, shuffled. */
  kkt_coo_upper1_shuffled(&upper);
  CHECK_OK(factord_upload(h, &upper.m, "coo-upper-1", 0, NULL, 0, NULL));
  check_solves_kkt(h, "coo-upper-1", 1.0);

  /* 0-based COO, lower triangle, reversed, (0,0) = 4 given as 3 + 1. */
  {
    kkt_coo dup;
    memset(&dup, 0, sizeof dup);
    for (i = 0; i < KKT_NNZ; ++i) {
      const int e = KKT_NNZ - 1 - i;
      dup.row_idx[i] = KKT_ROW[e];
      dup.col_idx[i] = KKT_COL[e];
      dup.values[i] = KKT_ROW[e] == 0 && KKT_COL[e] == 0 ? 3 : KKT_VAL[e];
    }
    dup.row_idx[KKT_NNZ] = 0;
    dup.col_idx[KKT_NNZ] = 0;
    dup.values[KKT_NNZ] = 1;
    factord_matrix_init(&dup.m);
    dup.m.n = KKT_N;
    dup.m.format = FACTORD_COO;
    dup.m.structure = FACTORD_SYMMETRIC;
    dup.m.triangle = FACTORD_LOWER;
    dup.m.nnz = KKT_NNZ + 1;
    dup.m.row_idx = dup.row_idx;
    dup.m.col_idx = dup.col_idx;
    dup.m.values = dup.values;
    CHECK_STATUS(factord_upload(h, &dup.m, "coo-dup", 0, NULL, 0, NULL),
                 FACTORD_ERR_INVALID_ARGUMENT, "INVALID_MATRIX");
    CHECK_MESSAGE_HAS("FACTORD_UPLOAD_SUM_DUPLICATES");
    CHECK_OK(factord_upload(h, &dup.m, "coo-dup", FACTORD_UPLOAD_SUM_DUPLICATES,
                            NULL, 0, NULL));
    check_solves_kkt(h, "coo-dup", 1.0);
    {
      factord_matrix_info info;
      CHECK_OK(factord_get_matrix(h, "coo-dup", &info));
      CHECK(info.nnz == KKT_NNZ && info.caller_nnz == KKT_NNZ + 1);
      CHECK(info.structure == FACTORD_SYMMETRIC);
    }
  }

  /* A general matrix: every entry, 0-based CSR, solved by LU. */
  {
    int64_t row_ptr[KKT_N + 1] = {0};
    int32_t col[2 * KKT_NNZ];
    double val[2 * KKT_NNZ], b[KKT_N], x[KKT_N];
    int count = 0, r;
    factord_factorize_options f;
    factord_factor_report report;
    for (r = 0; r < KKT_N; ++r) {
      for (i = 0; i < KKT_NNZ; ++i) {
        if (KKT_ROW[i] == r) { /* (r, c) */
          col[count] = KKT_COL[i];
          val[count++] = KKT_VAL[i];
        } else if (KKT_COL[i] == r) { /* the mirror (r, row) */
          col[count] = KKT_ROW[i];
          val[count++] = KKT_VAL[i];
        }
      }
      row_ptr[r + 1] = count;
    }
    factord_matrix_init(&m);
    m.n = KKT_N;
    m.row_ptr = row_ptr;
    m.col_idx = col;
    m.values = val;
    CHECK_OK(factord_upload(h, &m, "general", 0, NULL, 0, NULL));
    factord_factorize_options_init(&f);
    f.method = "lu";
    CHECK_OK(factord_factorize(h, "general", &f, NULL));
    CHECK_OK(factord_last_factor_report(h, "general", &report));
    CHECK(strcmp(report.method, "lu") == 0);
    kkt_multiply(KKT_X, 1.0, NULL, b);
    CHECK_OK(factord_solve(h, "general", NULL, 1, b, x));
    CHECK_NEAR_VEC(x, KKT_X, KKT_N, 1e-10);
  }

  /* SPD: the H block alone, lower triangle. */
  {
    static const int64_t row_ptr[4] = {0, 1, 3, 4};
    static const int32_t col[4] = {0, 0, 1, 2};
    static const double val[4] = {4, 1, 3, 2};
    const double want[3] = {1, -2, 3};
    const double b[3] = {4 * 1 + 1 * -2, 1 * 1 + 3 * -2, 2 * 3};
    double x[3];
    factord_factor_report report;
    factord_matrix_init(&m);
    m.n = 3;
    m.structure = FACTORD_SPD;
    m.triangle = FACTORD_LOWER;
    m.row_ptr = row_ptr;
    m.col_idx = col;
    m.values = val;
    CHECK_OK(factord_upload(h, &m, "spd", 0, NULL, 0, NULL));
    CHECK_OK(factord_factorize(h, "spd", NULL, NULL));
    CHECK_OK(factord_last_factor_report(h, "spd", &report));
    CHECK(report.positive == 3 && report.negative == 0);
    CHECK_OK(factord_solve(h, "spd", NULL, 1, b, x));
    CHECK_NEAR_VEC(x, want, 3, 1e-10);
  }

  /* IDs: in use, replaced. */
  CHECK_STATUS(factord_upload(h, &upper.m, "coo-upper-1", 0, NULL, 0, NULL),
               FACTORD_ERR_ALREADY_EXISTS, "ALREADY_EXISTS");
  CHECK_OK(factord_upload(h, &upper.m, "coo-upper-1", FACTORD_UPLOAD_REPLACE,
                          NULL, 0, &generation));
  CHECK(generation == 2);
  factord_disconnect(h);
}

/* An upload of `m` must fail with INVALID_ARGUMENT, `reason`, and a
 * message containing `text`. */
#define CHECK_REFUSED(h, m, reason, text)                               \
  do {                                                                  \
    CHECK_STATUS(factord_upload((h), (m), "refused", 0, NULL, 0, NULL), \
                 FACTORD_ERR_INVALID_ARGUMENT, (reason));               \
    CHECK_MESSAGE_HAS(text);                                            \
  } while (0)

void test_upload_errors(void) {
  factord_handle* h = fixture_connect(0);
  kkt_csr k;
  kkt_coo c;
  factord_matrix m;
  int64_t row_ptr[KKT_N + 1];
  int32_t col[KKT_NNZ];
  int32_t row_ptr32[KKT_N + 1];
  char small[8];
  factord_matrix_info info;
  int i;
  kkt_csr_lower0(&k);
  kkt_coo_upper1_shuffled(&c);

  CHECK_STATUS(factord_upload(NULL, &k.m, "x", 0, NULL, 0, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");
  CHECK_STATUS(factord_upload(h, NULL, "x", 0, NULL, 0, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");
  CHECK_STATUS(factord_upload(h, &k.m, "x", 0x80, NULL, 0, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");

  m = k.m;
  m.n = 0;
  CHECK_REFUSED(h, &m, "INVALID_REQUEST", "n = 0");
  m = k.m;
  m.n = -3;
  CHECK_REFUSED(h, &m, "INVALID_REQUEST", "n = -3");
  m = k.m;
  m.base = 2;
  CHECK_REFUSED(h, &m, "INVALID_REQUEST", "base = 2");
  m = k.m;
  m.format = (factord_format)7;
  CHECK_REFUSED(h, &m, "INVALID_REQUEST", "format");
  m = k.m;
  m.structure = (factord_structure)9;
  CHECK_REFUSED(h, &m, "INVALID_REQUEST", "structure");
  m = k.m;
  m.triangle = FACTORD_FULL;
  CHECK_REFUSED(h, &m, "INVALID_REQUEST", "one triangle");
  m = k.m;
  m.structure = FACTORD_GENERAL;
  CHECK_REFUSED(h, &m, "INVALID_REQUEST", "FACTORD_FULL");
  m = k.m;
  m.row_ptr32 = row_ptr32;
  CHECK_REFUSED(h, &m, "INVALID_REQUEST", "exactly one of row_ptr");
  m = k.m;
  m.row_ptr = NULL;
  CHECK_REFUSED(h, &m, "INVALID_REQUEST", "exactly one of row_ptr");
  m = k.m;
  m.col_idx = NULL;
  CHECK_REFUSED(h, &m, "INVALID_REQUEST", "col_idx is NULL");
  m = c.m;
  m.row_idx = NULL;
  CHECK_REFUSED(h, &m, "INVALID_REQUEST", "row_idx is NULL");
  m = c.m;
  m.nnz = -1;
  CHECK_REFUSED(h, &m, "INVALID_REQUEST", "nnz = -1");

  /* Wrong base: 0-based arrays declared 1-based, and the reverse. */
  m = k.m;
  m.base = 1;
  CHECK_REFUSED(h, &m, "INVALID_MATRIX", "row_ptr[0] = 0, expected 1");
  m = c.m;
  m.base = 0; /* index 5 = n is out of range 0..4 */
  CHECK_REFUSED(h, &m, "INVALID_MATRIX", "out of range 0..4");
  /* Row pointers that decrease. */
  memcpy(row_ptr, k.row_ptr, sizeof row_ptr);
  row_ptr[2] = 5; /* > row_ptr[3] = 4 */
  m = k.m;
  m.row_ptr = row_ptr;
  CHECK_REFUSED(h, &m, "INVALID_MATRIX", "row_ptr[3] = 4 < row_ptr[2] = 5");
  /* Column index out of range; column 0 in a 1-based matrix. */
  memcpy(col, k.col_idx, sizeof col);
  col[3] = 5;
  m = k.m;
  m.col_idx = col;
  CHECK_REFUSED(h, &m, "INVALID_MATRIX", "entry 3 (row 2, column 5)");
  for (i = 0; i < KKT_N + 1; ++i) row_ptr32[i] = (int32_t)k.row_ptr[i] + 1;
  for (i = 0; i < KKT_NNZ; ++i) col[i] = k.col_idx[i] + 1;
  col[0] = 0;
  m = k.m;
  m.base = 1;
  m.row_ptr = NULL;
  m.row_ptr32 = row_ptr32;
  m.col_idx = col;
  CHECK_REFUSED(h, &m, "INVALID_MATRIX", "column index 0 out of range 1..5");
  /* COO row index out of range. */
  c.row_idx[4] = 6;
  CHECK_REFUSED(h, &c.m, "INVALID_MATRIX", "row index 6 out of range 1..5");
  kkt_coo_upper1_shuffled(&c);
  /* Wrong triangle: the lower-triangle arrays declared upper. */
  m = k.m;
  m.triangle = FACTORD_UPPER;
  CHECK_REFUSED(h, &m, "INVALID_MATRIX", "not in the upper triangle");
  /* A duplicate in a CSR row. */
  memcpy(col, k.col_idx, sizeof col);
  col[2] = 0; /* row 1: columns 0, 0 */
  m = k.m;
  m.col_idx = col;
  CHECK_REFUSED(h, &m, "INVALID_MATRIX", "entries 1 and 2");

  /* Nothing refused reached the daemon. */
  CHECK_STATUS(factord_get_matrix(h, "refused", &info), FACTORD_ERR_NOT_FOUND,
               "NOT_FOUND");

  /* IDs and their buffers. */
  CHECK_STATUS(factord_upload(h, &k.m, NULL, 0, small, sizeof small, NULL),
               FACTORD_ERR_BUFFER_TOO_SMALL, "BUFFER_TOO_SMALL");
  CHECK_MESSAGE_HAS("37 bytes");
  CHECK_STATUS(factord_upload(h, &k.m, NULL, 0, NULL, 0, NULL),
               FACTORD_ERR_BUFFER_TOO_SMALL, "BUFFER_TOO_SMALL");
  CHECK_STATUS(
      factord_upload(h, &k.m, "too-long-for-8", 0, small, sizeof small, NULL),
      FACTORD_ERR_BUFFER_TOO_SMALL, "BUFFER_TOO_SMALL");
  CHECK_STATUS(factord_upload(h, &k.m, "has space", 0, NULL, 0, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");
  factord_disconnect(h);
}

void test_values_and_generations(void) {
  factord_handle* h = fixture_connect(0);
  kkt_coo c;
  double values[KKT_NNZ], b[KKT_N], x[KKT_N];
  uint64_t generation = 0;
  factord_matrix_info info;
  factord_factorize_options f;
  int64_t freed = 0;
  int i;
  kkt_coo_upper1_shuffled(&c);
  factord_factorize_options_init(&f);
  f.method = "ldlt";
  kkt_multiply(KKT_X, 1.0, NULL, b);

  /* Values uploaded, a solve before any factorization. */
  c.m.values = NULL; /* zeros */
  CHECK_OK(factord_upload(h, &c.m, "values", 0, NULL, 0, &generation));
  CHECK(generation == 1);
  CHECK_STATUS(factord_solve(h, "values", NULL, 1, b, x),
               FACTORD_ERR_FAILED_PRECONDITION, "NOT_FACTORIZED");

  /* New values in the caller's (shuffled, upper, 1-based) order. */
  CHECK_OK(factord_update_values(h, "values", c.values, 0, &generation));
  CHECK(generation == 2);
  check_solves_kkt(h, "values", 1.0);
  for (i = 0; i < KKT_NNZ; ++i) values[i] = 2 * c.values[i];
  CHECK_OK(factord_update_values(h, "values", values, 2, &generation));
  CHECK(generation == 3);
  /* A retried update expecting generation 2 is refused. */
  CHECK_STATUS(factord_update_values(h, "values", values, 2, NULL),
               FACTORD_ERR_ABORTED, "GENERATION_MISMATCH");
  CHECK_STATUS(factord_solve(h, "values", NULL, 1, b, x),
               FACTORD_ERR_FAILED_PRECONDITION, "STALE_FACTOR");
  check_solves_kkt(h, "values", 2.0);

  CHECK_OK(factord_get_matrix(h, "values", &info));
  CHECK(info.n == KKT_N && info.nnz == KKT_NNZ && info.caller_nnz == KKT_NNZ);
  CHECK(info.generation == 3 && info.factorized_generation == 3);
  CHECK(info.factorized == 1 && info.stale == 0);
  CHECK(strcmp(info.method, "ldlt") == 0);
  CHECK(info.bytes > 0);

  /* Bad arguments and unknown IDs. */
  CHECK_STATUS(factord_update_values(h, "values", NULL, 0, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");
  CHECK_STATUS(factord_update_values(h, NULL, values, 0, NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");
  CHECK_STATUS(factord_update_values(h, "unknown-values", values, 0, NULL),
               FACTORD_ERR_NOT_FOUND, "NOT_FOUND");
  CHECK_MESSAGE_HAS("unknown-values");
  CHECK_STATUS(factord_get_matrix(h, "values", NULL),
               FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST");

  /* A second handle did not upload it: its values are in stored order. */
  {
    factord_handle* other = fixture_connect(0);
    double stored[KKT_NNZ];
    for (i = 0; i < KKT_NNZ; ++i) stored[i] = KKT_VAL[i]; /* lower CSR */
    CHECK_OK(factord_update_values(other, "values", stored, 0, &generation));
    CHECK(generation == 4);
    check_solves_kkt(other, "values", 1.0);
    CHECK_OK(factord_get_matrix(other, "values", &info));
    CHECK(info.caller_nnz == -1);
    factord_disconnect(other);
  }

  /* Release: the daemon frees it, then knows it no more. */
  CHECK_OK(factord_release(h, "values", &freed));
  CHECK(freed > 0);
  CHECK_STATUS(factord_get_matrix(h, "values", &info), FACTORD_ERR_NOT_FOUND,
               "NOT_FOUND");
  CHECK_STATUS(factord_factorize(h, "values", &f, NULL), FACTORD_ERR_NOT_FOUND,
               "NOT_FOUND");
  CHECK_STATUS(factord_release(h, "values", NULL), FACTORD_ERR_NOT_FOUND,
               "NOT_FOUND");
  factord_disconnect(h);
}
