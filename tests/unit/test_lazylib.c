// SPDX-License-Identifier: GPL-2.0-only
/*
 * lazylib: a library opened on first use, every function resolved or
 * none; a missing library or function named with the package to install;
 * and gsl's distribution functions through stats/cdf.h, loaded so.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "lazylib.h"
#include "stats/cdf.h"

static double (*cos_fn)(double);
static double (*sin_fn)(double);
static void *missing_fn;

static void test_loads_and_resolves(void **state)
{
	const struct lazy_fn fns[] = {
		{ "cos", (void **)&cos_fn }, { "sin", (void **)&sin_fn },
	};
	struct lazylib m = { "libm.so.6", "libc6", fns, 2, NULL };
	char err[256] = "";

	(void)state;
	assert_int_equal(lazylib_load(&m, err, sizeof(err)), 0);
	assert_non_null(m.handle);
	assert_true(cos_fn(0) == 1.0);
	assert_true(fabs(sin_fn(M_PI / 2) - 1.0) < 1e-15);
	/* a second load is a no-op that succeeds */
	assert_int_equal(lazylib_load(&m, err, sizeof(err)), 0);
	assert_string_equal(err, "");
}

static void test_missing_library_named(void **state)
{
	const struct lazy_fn fns[] = { { "nothing", &missing_fn } };
	struct lazylib l = { "libschedlab-absent.so.9", "libschedlab-absent9",
			     fns, 1, NULL };
	char err[512];

	(void)state;
	assert_int_equal(lazylib_load(&l, err, sizeof(err)), -1);
	assert_null(l.handle);
	assert_non_null(strstr(err, "cannot load libschedlab-absent.so.9"));
	assert_non_null(strstr(err, "install the Debian package libschedlab-absent9"));
}

static void test_missing_function_loads_nothing(void **state)
{
	const struct lazy_fn fns[] = {
		{ "cos", (void **)&cos_fn },
		{ "schedlab_no_such_function", &missing_fn },
	};
	struct lazylib m = { "libm.so.6", "libc6", fns, 2, NULL };
	char err[512];

	(void)state;
	missing_fn = NULL;
	assert_int_equal(lazylib_load(&m, err, sizeof(err)), -1);
	assert_null(m.handle);
	assert_null(missing_fn);
	assert_non_null(strstr(err, "libm.so.6 has no schedlab_no_such_function"));
}

/* gsl's values, loaded through stats/cdf.h: the standard normal's tails */
static void test_gsl_through_cdf(void **state)
{
	(void)state;
	assert_true(fabs(gsl_cdf_ugaussian_P(0) - 0.5) < 1e-15);
	assert_true(fabs(gsl_cdf_ugaussian_Q(1.959963984540054) - 0.025) < 1e-12);
	assert_true(fabs(gsl_cdf_tdist_Q(0, 5) - 0.5) < 1e-15);
	assert_true(fabs(gsl_cdf_binomial_P(1, 0.5, 2) - 0.75) < 1e-15);
	assert_true(fabs(gsl_cdf_tdist_Pinv(0.5, 3)) < 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loads_and_resolves),
		cmocka_unit_test(test_missing_library_named),
		cmocka_unit_test(test_missing_function_loads_nothing),
		cmocka_unit_test(test_gsl_through_cdf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
