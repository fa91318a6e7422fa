/* The tests of tests/hsl; main is in hsl_test.c. */
#ifndef FACTORD_TESTS_HSL_HSL_TESTS_H_
#define FACTORD_TESTS_HSL_HSL_TESTS_H_

/* hsl_ma57_test.c */
void test_ma57_kkt(void);
void test_ma57_planted_inertia(void);
void test_ma57_singular(void);
void test_ma57_out_of_range(void);
void test_ma57_bad_input(void);
void test_ma57_pivot_threshold(void);
/* hsl_ma27_test.c */
void test_ma27_kkt(void);
void test_ma27_singular(void);
void test_ma27_bad_input(void);
/* hsl_state_test.c */
void test_lru_release(void);
void test_reanalysis(void);
void test_threads(void);
void test_daemon_down(void);
void test_daemon_killed(void);
void test_exit_without_finalize(void);
void test_exit_without_finalize_child(void);
/* hsl_mc19_test.c */
void test_mc19(void);

#endif /* FACTORD_TESTS_HSL_HSL_TESTS_H_ */
