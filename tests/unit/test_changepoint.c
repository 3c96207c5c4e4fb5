// SPDX-License-Identifier: GPL-2.0-only
/*
 * The change-point detector (src/stats/changepoint.h) on series whose
 * change points are known.
 *
 * Where the expected values come from:
 *   - the energy statistics of the tiny series, by hand beside each
 *     case, from the definition in changepoint.c (Matteson and James's
 *     Q with exponent 1, within-side sums over C(m,2) pairs);
 *   - the statistic of longer series against brute_q() below: the
 *     definition summed pair by pair for every split, O(n^3), sharing
 *     nothing with changepoint.c's running sums;
 *   - noise from splitmix64 with fixed seeds, so that each case is the
 *     same series every time.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/changepoint.h"
#include "close.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in (0, 1) */
static double unif(uint64_t *s)
{
	return ((next(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* roughly normal (sum of 12 uniforms less 6): sd 1 */
static double gauss(uint64_t *s)
{
	double v = -6;

	for (int i = 0; i < 12; i++)
		v += unif(s);
	return v;
}

/* level + sd * noise, with the values from `at` on at level + step */
static void series(double *x, size_t n, double level, double sd, size_t at,
		   double step, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		x[i] = level + sd * gauss(&seed) + (i >= at ? step : 0);
}

/* Q of x[0..n) split before tau, pair by pair */
static double brute_q(const double *x, size_t n, size_t tau)
{
	double m = tau, k = n - tau, cross = 0, wl = 0, wr = 0;

	for (size_t i = 0; i < tau; i++)
		for (size_t j = tau; j < n; j++)
			cross += fabs(x[i] - x[j]);
	for (size_t i = 0; i < tau; i++)
		for (size_t j = i + 1; j < tau; j++)
			wl += fabs(x[i] - x[j]);
	for (size_t i = tau; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			wr += fabs(x[i] - x[j]);
	return m * k / (m + k) * (2 * cross / (m * k) -
				  wl / (m * (m - 1) / 2) -
				  wr / (k * (k - 1) / 2));
}

/* the best split of x[0..n) with min a side, by brute_q() */
static size_t brute_best(const double *x, size_t n, size_t min, double *q)
{
	size_t best = 0;

	*q = -1;
	for (size_t t = min; t + min <= n; t++)
		if (brute_q(x, n, t) > *q) {
			*q = brute_q(x, n, t);
			best = t;
		}
	return best;
}

static void tiny_by_hand(void **state)
{
	/*
	 * {1,2,3 | 10,11,12}: across, every pair differs by 9 on average:
	 * sum 81 over 9 pairs; within each side |1-2|+|1-3|+|2-3| = 4 over
	 * C(3,2) = 3 pairs. E = 2*81/9 - 4/3 - 4/3 = 46/3, Q = 9/6 * E = 23.
	 * The splits at 2 and 4 score 12.44 (2 against 4 values), so 3 is
	 * the candidate. 20 distinct halvings, the observed one and its
	 * mirror both at 23: p about 0.1, significant only at alpha 0.2.
	 */
	static const double x[] = { 1, 2, 3, 10, 11, 12 };
	struct cp_options o = { .alpha = 0.2, .min_size = 2 };
	struct cp_point *p;
	size_t n;

	(void)state;
	assert_int_equal(changepoints(x, N(x), &o, &p, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].index, 3);
	assert_close(p[0].stat, 23);
	assert_true(p[0].p > 0.05 && p[0].p <= 0.2);
	assert_close(p[0].before, 2);
	assert_close(p[0].after, 11);
	assert_close(p[0].change_pct, 450);
	assert_int_equal(p[0].before_from, 0);
	assert_int_equal(p[0].after_to, 6);
	free(p);
	/* the same at the default alpha: not significant, no point */
	o.alpha = 0;
	assert_int_equal(changepoints(x, N(x), &o, &p, &n), 0);
	assert_int_equal(n, 0);
	assert_null(p);
}

static void two_flat_levels(void **state)
{
	/*
	 * 10 zeros then 10 ones: every value tied with its side. Across,
	 * 100 pairs differ by 1; within, nothing. E = 2*100/100 = 2,
	 * Q = 100/20 * 2 = 10. Only the perfect halving (of C(20,10))
	 * reaches it: p = 1/200.
	 */
	double x[20];
	struct cp_point *p;
	size_t n;

	(void)state;
	for (size_t i = 0; i < N(x); i++)
		x[i] = i >= 10;
	assert_int_equal(changepoints(x, N(x), NULL, &p, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].index, 10);
	assert_close(p[0].stat, 10);
	assert_close(p[0].p, 1.0 / 200);
	assert_close(p[0].before, 0);
	assert_close(p[0].after, 1);
	/* a change from 0 has no percentage */
	assert_true(isnan(p[0].change_pct));
	assert_true(isnan(p[0].lo_pct) && isnan(p[0].hi_pct));
	free(p);
	/* alpha 0.01 and no count given: 999 shuffles, p = 1/1000 */
	assert_int_equal(changepoints(x, N(x), &(struct cp_options){ .alpha = 0.01 },
				      &p, &n), 0);
	assert_int_equal(n, 1);
	assert_close(p[0].p, 1.0 / 1000);
	free(p);
	/* a count given is kept: 99 shuffles, p = 1/100, not below 0.01 */
	assert_int_equal(changepoints(x, N(x), &(struct cp_options){
				.alpha = 0.01, .permutations = 99 }, &p, &n), 0);
	assert_int_equal(n, 1);
	assert_close(p[0].p, 1.0 / 100);
	free(p);
}

static void one_step(void **state)
{
	double x[40], q;
	struct cp_point *p;
	size_t n, best;

	(void)state;
	series(x, N(x), 100, 1, 23, 5, 7);
	assert_int_equal(changepoints(x, N(x), NULL, &p, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].index, 23);
	assert_true(p[0].p <= 0.05);
	/* the running sums give what the pairs give */
	best = brute_best(x, N(x), 5, &q);
	assert_int_equal(best, 23);
	assert_true(fabs(p[0].stat - q) <= 1e-9 * q);
	assert_true(fabs(p[0].before - 100) < 1 && fabs(p[0].after - 105) < 1);
	assert_true(fabs(p[0].change_pct - 5) < 1);
	assert_true(p[0].lo_pct < p[0].change_pct &&
		    p[0].change_pct < p[0].hi_pct);
	assert_true(p[0].lo_pct > 0);	/* a step of 5 sd: the interval excludes 0 */
	assert_int_equal(p[0].before_from, 0);
	assert_int_equal(p[0].after_to, N(x));
	free(p);
}

static void downward_negative_levels(void **state)
{
	/* -10 to -5: up by half of |before|, +50% */
	double x[30];
	struct cp_point *p;
	size_t n;

	(void)state;
	series(x, N(x), -10, 0.2, 12, 5, 11);
	assert_int_equal(changepoints(x, N(x), NULL, &p, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].index, 12);
	assert_true(fabs(p[0].change_pct - 50) < 5);
	assert_true(p[0].lo_pct < p[0].change_pct &&
		    p[0].change_pct < p[0].hi_pct);
	free(p);
}

static void two_steps(void **state)
{
	double x[60], q;
	struct cp_point *p;
	size_t n;

	(void)state;
	series(x, N(x), 50, 1, 20, 4, 3);
	for (size_t i = 40; i < N(x); i++)
		x[i] -= 8;		/* 50, 54, then 46 */
	assert_int_equal(changepoints(x, N(x), NULL, &p, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(p[0].index, 20);
	assert_int_equal(p[1].index, 40);
	/* the levels are those between the neighbouring points */
	assert_int_equal(p[0].before_from, 0);
	assert_int_equal(p[0].after_to, 40);
	assert_int_equal(p[1].before_from, 20);
	assert_int_equal(p[1].after_to, 60);
	assert_true(p[0].change_pct > 0 && p[1].change_pct < 0);
	/*
	 * The stronger split (50|54,46 against 50,54|46: 40 is) was found
	 * on the whole series, the other on its side of it.
	 */
	brute_best(x, N(x), 5, &q);
	assert_true(fabs(p[1].stat - q) <= 1e-9 * q);
	brute_best(x, 40, 5, &q);
	assert_true(fabs(p[0].stat - q) <= 1e-9 * q);
	free(p);

	/* max_points 1: the stronger alone */
	assert_int_equal(changepoints(x, N(x),
				      &(struct cp_options){ .max_points = 1 },
				      &p, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].index, 40);
	assert_int_equal(p[0].before_from, 0);
	free(p);
}

static void steps_at_the_edges(void **state)
{
	struct cp_options o = { .min_size = 5 };
	double x[20];
	struct cp_point *p;
	size_t n;

	(void)state;
	/* the first and the last index a segment of 5 allows */
	series(x, N(x), 10, 0.1, 5, 3, 5);
	assert_int_equal(changepoints(x, N(x), &o, &p, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].index, 5);
	free(p);
	series(x, N(x), 10, 0.1, 15, 3, 5);
	assert_int_equal(changepoints(x, N(x), &o, &p, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].index, 15);
	free(p);
	/* a step 2 values from the end: no point nearer than 5 */
	series(x, N(x), 10, 0.1, 18, 3, 5);
	assert_int_equal(changepoints(x, N(x), &o, &p, &n), 0);
	for (size_t k = 0; k < n; k++)
		assert_true(p[k].index >= 5 && p[k].index <= 15);
	free(p);
	/* exactly 2 * min_size values: one split to try */
	series(x, 10, 10, 0.1, 5, 3, 5);
	assert_int_equal(changepoints(x, 10, &o, &p, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].index, 5);
	free(p);
}

static void constant_series(void **state)
{
	double x[50];
	struct cp_point *p = (void *)1;
	size_t n = 7;

	(void)state;
	for (size_t i = 0; i < N(x); i++)
		x[i] = 7.25;
	assert_int_equal(changepoints(x, N(x), NULL, &p, &n), 0);
	assert_int_equal(n, 0);
	assert_null(p);
}

static void heavy_tailed_noise(void **state)
{
	/*
	 * Cauchy noise (no mean, no variance) around one level: 40 series
	 * from 40 seeds. At alpha 0.05 about 2 alarm; more than 6 would be
	 * a test that does not hold its level (binomial 40, 0.05: P(> 6)
	 * is 0.3%). And a 50% step under the same noise is still found.
	 */
	double x[60];
	unsigned alarms = 0;
	struct cp_point *p;
	size_t n;

	(void)state;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		uint64_t s = seed * 1000;

		for (size_t i = 0; i < N(x); i++)
			x[i] = 100 + tan(M_PI * (unif(&s) - 0.5));
		assert_int_equal(changepoints(x, N(x), NULL, &p, &n), 0);
		alarms += n > 0;
		free(p);
	}
	assert_true(alarms <= 6);

	uint64_t s = 99;
	for (size_t i = 0; i < N(x); i++)
		x[i] = (i >= 35 ? 150 : 100) + tan(M_PI * (unif(&s) - 0.5));
	assert_int_equal(changepoints(x, N(x), NULL, &p, &n), 0);
	assert_true(n >= 1);
	size_t hit = 0;
	for (size_t k = 0; k < n; k++)
		hit += p[k].index >= 33 && p[k].index <= 37;
	assert_int_equal(hit, 1);
	free(p);
}

static void refused(void **state)
{
	double x[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	struct cp_point *p = (void *)1;
	size_t n = 3;

	(void)state;
	assert_null(cp_why(x, N(x), NULL));
	x[4] = NAN;
	assert_int_equal(changepoints(x, N(x), NULL, &p, &n), -1);
	assert_null(p);
	assert_int_equal(n, 0);
	assert_non_null(strstr(cp_why(x, N(x), NULL), "not a finite number"));
	x[4] = INFINITY;
	assert_int_equal(changepoints(x, N(x), NULL, &p, &n), -1);
	assert_non_null(strstr(cp_why(x, N(x), NULL), "not a finite number"));
	x[4] = 5;
	/* n < 2 * min_size: 9 values with the default 5, 12 with 7 */
	assert_int_equal(changepoints(x, 9, NULL, &p, &n), -1);
	assert_non_null(strstr(cp_why(x, 9, NULL), "too few values"));
	assert_null(cp_why(x, 10, NULL));
	assert_int_equal(changepoints(x, 12,
				      &(struct cp_options){ .min_size = 7 },
				      &p, &n), -1);
	assert_non_null(strstr(cp_why(x, 12, &(struct cp_options){ .min_size = 7 }),
			       "too few values"));
	assert_non_null(cp_why(x, 12, &(struct cp_options){ .alpha = 1.5 }));
	assert_null(p);
}

static void same_every_call_input_untouched(void **state)
{
	double x[200], copy[200];
	struct cp_point *p1, *p2;
	size_t n1, n2;

	(void)state;
	series(x, N(x), 1000, 30, 80, 60, 42);
	for (size_t i = 150; i < N(x); i++)
		x[i] *= 0.95;
	memcpy(copy, x, sizeof(x));
	assert_int_equal(changepoints(x, N(x), NULL, &p1, &n1), 0);
	assert_memory_equal(x, copy, sizeof(x));
	assert_int_equal(changepoints(x, N(x), NULL, &p2, &n2), 0);
	assert_true(n1 >= 1);
	assert_int_equal(n1, n2);
	assert_memory_equal(p1, p2, n1 * sizeof(*p1));
	for (size_t k = 0; k < n1; k++) {
		assert_true(p1[k].p > 0 && p1[k].p <= 0.05);
		if (k)
			assert_true(p1[k].index > p1[k - 1].index);
	}
	free(p1);
	free(p2);
	/* another seed: another permutation stream, the same points here */
	assert_int_equal(changepoints(x, N(x), &(struct cp_options){ .seed = 9 },
				      &p2, &n2), 0);
	assert_int_equal(n1, n2);
	free(p2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tiny_by_hand),
		cmocka_unit_test(two_flat_levels),
		cmocka_unit_test(one_step),
		cmocka_unit_test(downward_negative_levels),
		cmocka_unit_test(two_steps),
		cmocka_unit_test(steps_at_the_edges),
		cmocka_unit_test(constant_series),
		cmocka_unit_test(heavy_tailed_noise),
		cmocka_unit_test(refused),
		cmocka_unit_test(same_every_call_input_untouched),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
