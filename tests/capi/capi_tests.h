/* The tests of tests/capi (each in the capi_*_test.c named after its
 * group); main is in capi_test.c. */
#ifndef FACTORD_TESTS_CAPI_CAPI_TESTS_H_
#define FACTORD_TESTS_CAPI_CAPI_TESTS_H_

/* capi_connect_test.c */
void test_connect(void);
void test_lazy_connect_retry(void);
void test_last_error_copy(void);
void test_thread_local_errors(void);
void test_reupload_after_restart(void);
/* capi_matrices_test.c */
void test_upload_layouts(void);
void test_upload_errors(void);
void test_values_and_generations(void);
/* capi_solve_test.c */
void test_factorize_options(void);
void test_solve_and_step(void);
/* capi_in_process_test.c */
void test_in_process(void);
void test_size_threshold(void);

#endif /* FACTORD_TESTS_CAPI_CAPI_TESTS_H_ */
