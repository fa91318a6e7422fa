/* The tests of tests/pardiso; main is in pardiso_test.c. */
#ifndef FACTORD_TESTS_PARDISO_PARDISO_TESTS_H_
#define FACTORD_TESTS_PARDISO_PARDISO_TESTS_H_

/* pardiso_phases_test.c */
void test_kkt_phases(void);
void test_distinct_factors(void);
void test_general_and_spd(void);
void test_perturbed_pivots(void);
/* pardiso_errors_test.c */
void test_bad_input(void);
void test_daemon_failures(void);
/* pardiso_numerics_test.c */
void test_unreliable_inertia(void);
void test_unconverged_solves(void);
void test_iparm_defaults_and_determinant(void);

#endif /* FACTORD_TESTS_PARDISO_PARDISO_TESTS_H_ */
