// SPDX-License-Identifier: GPL-2.0-only
/*
 * Summary statistics against values worked out outside schedlab.
 *
 * Where the expected values come from (Python 3.11, no numpy here):
 *   - min, max, amean, hmean, gmean, median, stddev: the statistics
 *     module (fmean, harmonic_mean, geometric_mean, median, stdev);
 *     the small sets also by hand, as noted beside them.
 *   - type 7 percentiles: statistics.quantiles(x, n=100 or 1000,
 *     method="inclusive"), which is R's type 7 / numpy's default.
 *   - mmtests' Hmean stddev, BAmean-X and Pctile-X: the formulas of
 *     the reference (statistics-and-comparison.md, mmtests' Stat.pm and
 *     Summarise.pm) written out in Python over fractions.Fraction of the
 *     same doubles, so only the final sqrt or division rounds.
 * Each literal is repr() of the Python float, compared within 1e-9
 * relative.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/summary.h"
#include "close.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Unsorted on purpose: the functions must not rely on order. */
static const double odd[] = { 3, 1, 4, 1, 5 };
static const double even[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
/* kernel timings: min ~ mode, one slow outlier */
static const double skew[] = { 1.02, 1.50, 1.00, 1.03, 1.01, 1.02 };
/* a throughput (higher is better) with one slow run, n = 20 */
static const double tput[] = {
	410.0, 395.5, 402.25, 388.0, 421.75, 399.0, 405.5, 310.0, 398.25,
	401.0, 403.5, 397.75, 400.5, 404.0, 396.0, 402.0, 399.5, 406.25,
	394.5, 400.25,
};

typedef int (*stat_fn)(const double *, size_t, double *);

static double get(stat_fn f, const double *x, size_t n)
{
	double v = -12345;

	assert_int_equal(f(x, n, &v), 0);
	return v;
}

static double bam(const double *x, size_t n, enum better dir, double pct)
{
	double v = -12345;

	assert_int_equal(stats_bamean(x, n, dir, pct, &v), 0);
	return v;
}

static double pbest(const double *x, size_t n, enum better dir, double pct)
{
	double v = -12345;

	assert_int_equal(stats_pctile_best(x, n, dir, pct, &v), 0);
	return v;
}

static double p7(const double *x, size_t n, double pct)
{
	double v = -12345;

	assert_int_equal(stats_percentile(x, n, pct, &v), 0);
	return v;
}

static double cv(const double *x, size_t n, enum better dir)
{
	double v = -12345;

	assert_int_equal(stats_coeffvar(x, n, dir, &v), 0);
	return v;
}

static void test_odd_set(void **state)
{
	(void)state;
	assert_close(get(stats_min, odd, N(odd)), 1.0);
	assert_close(get(stats_max, odd, N(odd)), 5.0);
	/* by hand: 14 / 5 */
	assert_close(get(stats_amean, odd, N(odd)), 2.8);
	/* by hand: 5 / (1/3 + 1 + 1/4 + 1 + 1/5) = 300 / 167 */
	assert_close(get(stats_hmean, odd, N(odd)), 1.7964071856287425);
	/* by hand: 60^(1/5) */
	assert_close(get(stats_gmean, odd, N(odd)), 2.2679331552660544);
	assert_close(get(stats_median, odd, N(odd)), 3.0);
	/* by hand: squares of deviations sum to 12.8, sqrt(12.8 / 4) */
	assert_close(get(stats_stddev, odd, N(odd)), 1.7888543819998317);
	assert_close(get(stats_stddev_hmean, odd, N(odd)), 1.1762002452152442);
	assert_close(cv(odd, N(odd), BETTER_LOWER), 63.887656499994);
	assert_close(cv(odd, N(odd), BETTER_HIGHER), 65.4751469836486);
}

static void test_even_set(void **state)
{
	(void)state;
	assert_close(get(stats_min, even, N(even)), 2.0);
	assert_close(get(stats_max, even, N(even)), 9.0);
	assert_close(get(stats_amean, even, N(even)), 5.0);
	assert_close(get(stats_hmean, even, N(even)), 4.2017507294706125);
	assert_close(get(stats_gmean, even, N(even)), 4.603215596046737);
	/* by hand: (4 + 5) / 2 */
	assert_close(get(stats_median, even, N(even)), 4.5);
	/* by hand: squares sum to 32, sqrt(32 / 7) */
	assert_close(get(stats_stddev, even, N(even)), 2.138089935299395);
	assert_close(get(stats_stddev_hmean, even, N(even)),
		     1.9451947979120288);
	assert_close(cv(even, N(even), BETTER_LOWER), 42.76179870598791);
	assert_close(cv(even, N(even), BETTER_HIGHER), 46.2948642876087);
}

static void test_skewed_timings(void **state)
{
	struct summary s;

	(void)state;
	assert_close(get(stats_hmean, skew, N(skew)), 1.0736479980303242);
	assert_close(get(stats_gmean, skew, N(skew)), 1.0841142013846587);
	assert_close(get(stats_stddev_hmean, skew, N(skew)),
		     0.13687299553379814);

	assert_int_equal(summarize(skew, N(skew), BETTER_LOWER, &s), 0);
	assert_int_equal(s.n, 6);
	assert_false(s.hmean);
	assert_close(s.min, 1.0);
	assert_close(s.max, 1.5);
	assert_close(s.mean, 1.0966666666666667);	/* 6.58 / 6 */
	assert_close(s.stddev, 0.19785516588319513);
	assert_close(s.coeffvar, 18.041504487829343);
	/* k = int(6 * 95 / 100) = 5: (1.00 + 1.01 + 1.02 + 1.02 + 1.03) / 5 */
	assert_close(s.bamean95, 1.016);
	assert_close(s.median, 1.02);
}

static void test_throughput_higher(void **state)
{
	struct summary s;

	(void)state;
	assert_int_equal(summarize(tput, N(tput), BETTER_HIGHER, &s), 0);
	assert_int_equal(s.n, 20);
	assert_true(s.hmean);
	assert_close(s.min, 310.0);
	assert_close(s.max, 421.75);
	assert_close(s.mean, 395.41202953370663);		/* Hmean */
	assert_close(s.stddev, 25.7724886633842);		/* Hmean's */
	assert_close(s.coeffvar, 6.517881788719642);
	/* k = int(20 * 95 / 100) = 19: all but the 310 */
	assert_close(s.bamean95, 401.3421052631579);
	assert_close(s.median, 400.375);

	/* the same samples as if they were times */
	assert_int_equal(summarize(tput, N(tput), BETTER_LOWER, &s), 0);
	assert_false(s.hmean);
	assert_close(s.mean, 396.775);
	assert_close(s.stddev, 21.512374040121774);
	assert_close(s.coeffvar, 5.4218068275777895);
	/* the 19 smallest: all but the 421.75 */
	assert_close(s.bamean95, 395.4605263157895);
	assert_close(get(stats_gmean, tput, N(tput)), 396.14055787545726);
}

/*
 * The standard error of the mean, what perf stat --repeat prints after
 * "+-": the sample stddev over sqrt(n).
 */
static void test_standard_error(void **state)
{
	static const double one[] = { 7 }, bad[] = { 1, NAN };
	double v = -1;

	(void)state;
	/* by hand: sqrt(12.8 / 4) / sqrt(5) = sqrt(0.64) */
	assert_close(get(stats_sem, odd, N(odd)), 0.8);
	/* by hand: sqrt(32 / 7) / sqrt(8) = sqrt(4 / 7) */
	assert_close(get(stats_sem, even, N(even)), 0.7559289460184544);
	assert_close(get(stats_sem, one, 1), 0.0);
	assert_int_equal(stats_sem(odd, 0, &v), -1);
	assert_int_equal(stats_sem(bad, 2, &v), -1);
	assert_true(v == -1);	/* left alone */
}

static void test_hmean_stddev_by_hand(void **state)
{
	static const double x[] = { 1, 2 };

	(void)state;
	/*
	 * H = 2 / (1 + 1/2) = 4/3; 1/H = 3/4; the reciprocals 1 and 1/2
	 * are 1/4 away from it: sum of squares 1/8, / n = 1/16, times
	 * H^4 = 256/81 gives 16/81, sqrt 4/9.
	 */
	assert_close(get(stats_hmean, x, 2), 4.0 / 3.0);
	assert_close(get(stats_stddev_hmean, x, 2), 4.0 / 9.0);
	/* the sample stddev differs: sqrt(0.5) */
	assert_close(get(stats_stddev, x, 2), 0.7071067811865476);
}

static void test_bamean_both_directions(void **state)
{
	(void)state;
	/* skew, k = 5 of 6; the higher case: (1.50+1.03+1.02+1.02+1.01)/5 */
	assert_close(bam(skew, N(skew), BETTER_LOWER, 95), 1.016);
	assert_close(bam(skew, N(skew), BETTER_HIGHER, 95), 1.116);
	/* k = 3 */
	assert_close(bam(skew, N(skew), BETTER_LOWER, 50), 1.01);
	assert_close(bam(skew, N(skew), BETTER_HIGHER, 50), 1.1833333333333333);
	/* k = int(0.6) = 0: the best single sample, as mmtests */
	assert_close(bam(skew, N(skew), BETTER_LOWER, 10), 1.0);
	assert_close(bam(skew, N(skew), BETTER_HIGHER, 10), 1.5);
	assert_close(bam(skew, N(skew), BETTER_LOWER, 0), 1.0);
	/* k = n: the amean */
	assert_close(bam(skew, N(skew), BETTER_HIGHER, 100),
		     1.0966666666666667);
	/* even, k = int(7.6) = 7 */
	assert_close(bam(even, N(even), BETTER_LOWER, 95), 4.428571428571429);
	assert_close(bam(even, N(even), BETTER_HIGHER, 95), 5.428571428571429);
	/* tput, k = 18 and k = 2 */
	assert_close(bam(tput, N(tput), BETTER_LOWER, 90), 394.65277777777777);
	assert_close(bam(tput, N(tput), BETTER_HIGHER, 90), 402.0833333333333);
	assert_close(bam(tput, N(tput), BETTER_LOWER, 10), 349.0);
	assert_close(bam(tput, N(tput), BETTER_HIGHER, 10), 415.875);
}

static void test_pctile_best_both_directions(void **state)
{
	(void)state;
	/* skew ascending: 1.00 1.01 1.02 1.02 1.03 1.50; k = 5 -> [4] */
	assert_close(pbest(skew, N(skew), BETTER_LOWER, 95), 1.03);
	/* descending: 1.50 1.03 1.02 1.02 1.01 1.00 -> [4] */
	assert_close(pbest(skew, N(skew), BETTER_HIGHER, 95), 1.01);
	assert_close(pbest(skew, N(skew), BETTER_LOWER, 50), 1.02);
	assert_close(pbest(skew, N(skew), BETTER_HIGHER, 50), 1.02);
	/* k = 0 -> 1: the best sample */
	assert_close(pbest(skew, N(skew), BETTER_LOWER, 10), 1.0);
	assert_close(pbest(skew, N(skew), BETTER_HIGHER, 10), 1.5);
	/* k = n: the worst */
	assert_close(pbest(skew, N(skew), BETTER_LOWER, 100), 1.5);
	assert_close(pbest(skew, N(skew), BETTER_HIGHER, 100), 1.0);
	/* odd, k = int(4.75) = 4 */
	assert_close(pbest(odd, N(odd), BETTER_LOWER, 95), 4.0);
	assert_close(pbest(odd, N(odd), BETTER_HIGHER, 95), 1.0);
	/* tput: k = 19, 10 */
	assert_close(pbest(tput, N(tput), BETTER_LOWER, 95), 410.0);
	assert_close(pbest(tput, N(tput), BETTER_HIGHER, 95), 388.0);
	assert_close(pbest(tput, N(tput), BETTER_LOWER, 50), 400.25);
	assert_close(pbest(tput, N(tput), BETTER_HIGHER, 50), 400.5);
}

static void test_percentile_type7(void **state)
{
	(void)state;
	/* skew: h = 5 * p / 100 into the ascending samples */
	assert_close(p7(skew, N(skew), 0), 1.0);
	assert_close(p7(skew, N(skew), 12.5), 1.00625);	/* 1.00 + .625 * .01 */
	assert_close(p7(skew, N(skew), 25), 1.0125);	/* 1.01 + .25 * .01 */
	assert_close(p7(skew, N(skew), 50), 1.02);
	assert_close(p7(skew, N(skew), 90), 1.265);	/* 1.03 + .5 * .47 */
	assert_close(p7(skew, N(skew), 99), 1.4765000000000001);
	assert_close(p7(skew, N(skew), 99.9), 1.4976500000000001);
	assert_close(p7(skew, N(skew), 100), 1.5);
	assert_close(p7(odd, N(odd), 90), 4.6);
	assert_close(p7(odd, N(odd), 99), 4.96);
	assert_close(p7(even, N(even), 25), 4.0);
	assert_close(p7(even, N(even), 90), 7.6);
	assert_close(p7(even, N(even), 99), 8.86);
	assert_close(p7(tput, N(tput), 25), 397.3125);
	assert_close(p7(tput, N(tput), 90), 406.625);
	assert_close(p7(tput, N(tput), 99), 419.5175);
	/* the 50th is the median */
	assert_close(p7(even, N(even), 50), get(stats_median, even, N(even)));
}

static void test_single_sample(void **state)
{
	static const double x[] = { 42.5 };
	struct summary s;

	(void)state;
	assert_close(get(stats_min, x, 1), 42.5);
	assert_close(get(stats_max, x, 1), 42.5);
	assert_close(get(stats_amean, x, 1), 42.5);
	assert_close(get(stats_hmean, x, 1), 42.5);
	assert_close(get(stats_gmean, x, 1), 42.5);
	assert_close(get(stats_median, x, 1), 42.5);
	assert_true(get(stats_stddev, x, 1) == 0);
	assert_true(get(stats_stddev_hmean, x, 1) == 0);
	assert_close(bam(x, 1, BETTER_LOWER, 95), 42.5);
	assert_close(bam(x, 1, BETTER_HIGHER, 95), 42.5);
	assert_close(pbest(x, 1, BETTER_LOWER, 95), 42.5);
	assert_close(pbest(x, 1, BETTER_HIGHER, 1), 42.5);
	assert_close(p7(x, 1, 0), 42.5);
	assert_close(p7(x, 1, 99), 42.5);
	for (int dir = BETTER_LOWER; dir <= BETTER_NONE; dir++) {
		assert_int_equal(summarize(x, 1, dir, &s), 0);
		assert_int_equal(s.n, 1);
		assert_close(s.mean, 42.5);
		assert_true(s.stddev == 0);
		assert_true(s.coeffvar == 0);
		assert_close(s.bamean95, 42.5);
		assert_close(s.median, 42.5);
	}
}

static void test_no_samples(void **state)
{
	static const double x[] = { 1 };
	struct summary s;
	double v = 7;

	(void)state;
	assert_string_equal(stats_why(x, 0), "no samples");
	assert_string_equal(stats_why(NULL, 0), "no samples");
	assert_string_equal(stats_why(NULL, 3), "no sample array");
	assert_null(stats_why(x, 1));
	assert_int_equal(stats_min(x, 0, &v), -1);
	assert_int_equal(stats_max(NULL, 0, &v), -1);
	assert_int_equal(stats_amean(x, 0, &v), -1);
	assert_int_equal(stats_hmean(x, 0, &v), -1);
	assert_int_equal(stats_gmean(x, 0, &v), -1);
	assert_int_equal(stats_median(x, 0, &v), -1);
	assert_int_equal(stats_stddev(x, 0, &v), -1);
	assert_int_equal(stats_stddev_hmean(x, 0, &v), -1);
	assert_int_equal(stats_coeffvar(x, 0, BETTER_LOWER, &v), -1);
	assert_int_equal(stats_bamean(x, 0, BETTER_LOWER, 95, &v), -1);
	assert_int_equal(stats_pctile_best(x, 0, BETTER_HIGHER, 95, &v), -1);
	assert_int_equal(stats_percentile(NULL, 0, 50, &v), -1);
	assert_true(v == 7);
	memset(&s, 0x5a, sizeof(s));
	assert_int_equal(summarize(x, 0, BETTER_LOWER, &s), -1);
	assert_int_equal(summarize(NULL, 0, BETTER_HIGHER, &s), -1);
	assert_int_equal(s.n, 0x5a5a5a5a5a5a5a5aULL);	/* untouched */
}

static void test_zero_and_negative_samples(void **state)
{
	static const double zero[] = { 0, 1, 2 };
	static const double neg[] = { -1, 2, 3 };
	struct summary s;

	(void)state;
	assert_true(isnan(get(stats_hmean, zero, 3)));
	assert_true(isnan(get(stats_gmean, zero, 3)));
	assert_true(isnan(get(stats_stddev_hmean, zero, 3)));
	assert_true(isnan(get(stats_hmean, neg, 3)));
	assert_true(isnan(get(stats_gmean, neg, 3)));
	assert_true(isnan(cv(zero, 3, BETTER_HIGHER)));
	/* the arithmetic statistics are fine: mean 1, stdev 1 (by hand) */
	assert_close(get(stats_amean, zero, 3), 1.0);
	assert_close(get(stats_stddev, zero, 3), 1.0);
	assert_close(cv(zero, 3, BETTER_LOWER), 100.0);
	assert_close(get(stats_amean, neg, 3), 4.0 / 3.0);

	/* higher-is-better: the Hmean rows are NAN, the rest is filled */
	assert_int_equal(summarize(zero, 3, BETTER_HIGHER, &s), 0);
	assert_true(isnan(s.mean));
	assert_true(isnan(s.stddev));
	assert_true(isnan(s.coeffvar));
	assert_close(s.min, 0.0);
	assert_close(s.max, 2.0);
	assert_close(s.median, 1.0);
	/* k = int(2.85) = 2 best: 2 and 1 */
	assert_close(s.bamean95, 1.5);

	/* lower-is-better never takes a reciprocal */
	assert_int_equal(summarize(zero, 3, BETTER_LOWER, &s), 0);
	assert_close(s.mean, 1.0);
	assert_close(s.stddev, 1.0);
	assert_close(s.coeffvar, 100.0);
	/* k = 2 best: 0 and 1 */
	assert_close(s.bamean95, 0.5);
}

static void test_nan_and_inf_rejected(void **state)
{
	const double bad[][3] = {
		{ 1, NAN, 2 }, { NAN, NAN, NAN }, { 1, 2, INFINITY },
		{ -INFINITY, 1, 2 },
	};
	struct summary s;

	(void)state;
	assert_string_equal(stats_why(bad[0], 3), "a sample is NaN");
	assert_string_equal(stats_why(bad[2], 3), "a sample is infinite");
	for (size_t i = 0; i < N(bad); i++) {
		const double *x = bad[i];
		double v = 7;

		assert_non_null(stats_why(x, 3));
		assert_int_equal(stats_min(x, 3, &v), -1);
		assert_int_equal(stats_max(x, 3, &v), -1);
		assert_int_equal(stats_amean(x, 3, &v), -1);
		assert_int_equal(stats_hmean(x, 3, &v), -1);
		assert_int_equal(stats_gmean(x, 3, &v), -1);
		assert_int_equal(stats_median(x, 3, &v), -1);
		assert_int_equal(stats_stddev(x, 3, &v), -1);
		assert_int_equal(stats_stddev_hmean(x, 3, &v), -1);
		assert_int_equal(stats_coeffvar(x, 3, BETTER_HIGHER, &v), -1);
		assert_int_equal(stats_bamean(x, 3, BETTER_LOWER, 95, &v), -1);
		assert_int_equal(stats_pctile_best(x, 3, BETTER_LOWER, 50, &v),
				 -1);
		assert_int_equal(stats_percentile(x, 3, 99, &v), -1);
		assert_true(v == 7);
		memset(&s, 0x5a, sizeof(s));
		assert_int_equal(summarize(x, 3, BETTER_LOWER, &s), -1);
		assert_int_equal(s.n, 0x5a5a5a5a5a5a5a5aULL);
	}
	/* a NaN past the first sample is found too */
	assert_int_equal(summarize(bad[0], 3, BETTER_HIGHER, &s), -1);
}

static void test_bad_percentage(void **state)
{
	double v = 7;

	(void)state;
	assert_int_equal(stats_bamean(skew, N(skew), BETTER_LOWER, -1, &v), -1);
	assert_int_equal(stats_bamean(skew, N(skew), BETTER_LOWER, 100.5, &v),
			 -1);
	assert_int_equal(stats_bamean(skew, N(skew), BETTER_LOWER, NAN, &v), -1);
	assert_int_equal(stats_pctile_best(skew, N(skew), BETTER_HIGHER, 101,
					   &v), -1);
	assert_int_equal(stats_pctile_best(skew, N(skew), BETTER_HIGHER, NAN,
					   &v), -1);
	assert_int_equal(stats_percentile(skew, N(skew), -0.1, &v), -1);
	assert_int_equal(stats_percentile(skew, N(skew), NAN, &v), -1);
	assert_true(v == 7);
}

static void test_coeffvar_edges(void **state)
{
	static const double zeros[] = { 0, 0, 0 };
	static const double around0[] = { -1, 1 };
	struct summary s;

	(void)state;
	assert_close(stats_cov(2, 8), 25.0);
	assert_close(stats_cov(1, -2), -50.0);	/* the sign follows the mean */
	assert_true(stats_cov(0, 0) == 0);
	assert_true(stats_cov(0, 5) == 0);
	assert_true(isnan(stats_cov(1, 0)));
	assert_true(isnan(stats_cov(NAN, 1)));
	assert_true(isnan(stats_cov(1, NAN)));
	/* a counter that never moves: no spread, CoeffVar 0 */
	assert_int_equal(summarize(zeros, 3, BETTER_LOWER, &s), 0);
	assert_true(s.mean == 0 && s.stddev == 0 && s.coeffvar == 0);
	/* spread around a zero mean: undefined */
	assert_true(isnan(cv(around0, 2, BETTER_LOWER)));
}

/*
 * Population sd: the classic set {2,4,4,4,5,5,7,9} has mean 5 and
 * sum of squares 32, so sqrt(32 / 8) = 2 exactly, 40% of the mean; the
 * sample sd (divisor 7) would be 2.138.
 */
static void test_population_stddev(void **state)
{
	static const double neg[] = { -2, -4, -4, -4, -5, -5, -7, -9 };
	static const double zeros[] = { 0, 0, 0 };
	static const double one[] = { 7 };
	double v = -1;

	(void)state;
	assert_close(get(stats_pstddev, even, N(even)), 2.0);
	assert_close(get(stats_pstddev_pct, even, N(even)), 40.0);
	/* lkp's +-% is of the mean's magnitude */
	assert_close(get(stats_pstddev_pct, neg, N(neg)), 40.0);
	assert_true(get(stats_pstddev, one, 1) == 0);
	assert_true(get(stats_pstddev_pct, one, 1) == 0);
	assert_true(isnan(get(stats_pstddev_pct, zeros, 3)));
	assert_int_equal(stats_pstddev(NULL, 0, &v), -1);
	assert_int_equal(stats_pstddev_pct(even, 0, &v), -1);
	assert_true(v == -1);
}

/*
 * The two percentages of a change: lkp's follows the value (migrations
 * 101.8 -> 122.2 is +20.04%, by hand 20.4 / 101.8), mmtests' follows
 * the direction (1.044 s -> 1.2528 s is 20% worse).
 */
static void test_change_percentages(void **state)
{
	(void)state;
	assert_close(stats_pct_diff(101.8, 122.2), 2040.0 / 101.8);
	assert_close(stats_pct_diff(-2, -1), 50.0);
	assert_close(stats_pct_better(1.044, 1.2528, BETTER_LOWER), -20.0);
	assert_close(stats_pct_better(1.044, 1.2528, BETTER_NONE), -20.0);
	assert_close(stats_pct_better(1.044, 1.2528, BETTER_HIGHER), 20.0);
	assert_true(stats_pct_diff(0, 0) == 0);
	assert_true(stats_pct_better(0, 0, BETTER_HIGHER) == 0);
	assert_true(isnan(stats_pct_diff(0, 1)));
	assert_true(isnan(stats_pct_better(0, 1, BETTER_LOWER)));
	assert_true(isnan(stats_pct_diff(NAN, 1)));
	assert_true(isnan(stats_pct_better(1, NAN, BETTER_LOWER)));
}

static int cmp_asc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * stats_sort() against qsort() on both sides of its switch to qsort, with
 * ties, negatives and an already descending set; the multiset is kept.
 */
static void test_sort(void **state)
{
	double x[120], want[120];
	uint64_t seed = 12345;

	(void)state;
	stats_sort(NULL, 0);
	for (size_t n = 1; n <= N(x); n++)
		for (int round = 0; round < 4; round++) {
			for (size_t i = 0; i < n; i++) {
				seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
				x[i] = round == 3 ? (double)(n - i) :
				       (double)((int64_t)(seed >> 33) % (round ? 7 : 1000)) / 4;
			}
			memcpy(want, x, n * sizeof(*x));
			qsort(want, n, sizeof(*want), cmp_asc);
			stats_sort(x, n);
			assert_memory_equal(x, want, n * sizeof(*x));
		}
}

static void test_none_is_lower(void **state)
{
	struct summary a, b;

	(void)state;
	assert_int_equal(summarize(tput, N(tput), BETTER_NONE, &a), 0);
	assert_int_equal(summarize(tput, N(tput), BETTER_LOWER, &b), 0);
	assert_false(a.hmean);
	assert_true(a.mean == b.mean && a.stddev == b.stddev &&
		    a.bamean95 == b.bamean95 && a.coeffvar == b.coeffvar);
	assert_close(bam(skew, N(skew), BETTER_NONE, 95), 1.016);
	assert_close(pbest(skew, N(skew), BETTER_NONE, 95), 1.03);
	assert_close(cv(skew, N(skew), BETTER_NONE), 18.041504487829343);
}

static void test_input_not_modified(void **state)
{
	double x[N(tput)], copy[N(tput)], v;
	struct summary s;

	(void)state;
	memcpy(x, tput, sizeof(x));
	memcpy(copy, tput, sizeof(x));
	assert_int_equal(summarize(x, N(x), BETTER_HIGHER, &s), 0);
	assert_int_equal(summarize(x, N(x), BETTER_LOWER, &s), 0);
	assert_int_equal(stats_median(x, N(x), &v), 0);
	assert_int_equal(stats_bamean(x, N(x), BETTER_HIGHER, 95, &v), 0);
	assert_int_equal(stats_pctile_best(x, N(x), BETTER_LOWER, 95, &v), 0);
	assert_int_equal(stats_percentile(x, N(x), 99, &v), 0);
	assert_memory_equal(x, copy, sizeof(x));
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* Selection gives what sorting gives, for ties, both ends and odd sizes. */
static void test_percentile_select_matches_sort(void **state)
{
	static const double pcts[] = { 0, 0.5, 2.5, 25, 50, 97.5, 99.5, 100 };
	uint64_t seed = 12345;
	(void)state;

	for (size_t n = 1; n <= 257; n += (n < 20 ? 1 : 37)) {
		double *a = malloc(n * sizeof(*a)), *s = malloc(n * sizeof(*s));

		for (int round = 0; round < 20; round++) {
			for (size_t i = 0; i < n; i++) {
				seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
				/* round 0-9: few distinct values (ties) */
				a[i] = round < 10 ? (double)((seed >> 33) % 4) :
				       (double)(seed >> 11) / 9007199254740992.0;
			}
			memcpy(s, a, n * sizeof(*s));
			qsort(s, n, sizeof(*s), cmp_dbl);
			for (size_t p = 0; p < sizeof(pcts) / sizeof(pcts[0]); p++) {
				double want = stats_percentile_sorted(s, n, pcts[p]);
				double got = stats_percentile_select(a, n, pcts[p]);

				assert_true(got == want);
			}
		}
		free(a);
		free(s);
	}
}

/*
 * The modified Z-score by hand. {10, 11, 12, 13, 50}: median 12,
 * deviations {2, 1, 0, 1, 38}, MAD 1, so z(50) = 0.6745 * 38 = 25.631.
 * {1, 2, 3, 4, 100, 6}: median 3.5, deviations {2.5, 1.5, 0.5, 0.5,
 * 96.5, 2.5}, MAD (1.5 + 2.5) / 2 = 2, z(100) = 0.6745 * 96.5 / 2.
 */
static void test_modified_z(void **state)
{
	static const double odd[] = { 10, 11, 12, 13, 50 };
	static const double even[] = { 1, 2, 3, 4, 100, 6 };
	static const double flat[] = { 5, 5, 5, 7 }, bad[] = { 1, NAN, 3 };
	double m, mad, z = -7;

	(void)state;
	assert_int_equal(stats_median_mad(odd, N(odd), &m, &mad), 0);
	assert_close(m, 12);
	assert_close(mad, 1);
	assert_int_equal(stats_modified_z(odd, N(odd), 50, &z), 0);
	assert_close(z, 25.631);
	assert_true(fabs(z) > OUTLIER_Z);
	assert_int_equal(stats_modified_z(odd, N(odd), 10, &z), 0);
	assert_close(z, -1.349);
	assert_true(fabs(z) <= OUTLIER_Z);
	/* a value outside the set: 0.6745 * (20 - 12) / 1 */
	assert_int_equal(stats_modified_z(odd, N(odd), 20, &z), 0);
	assert_close(z, 5.396);
	assert_int_equal(stats_median_mad(even, N(even), &m, &mad), 0);
	assert_close(m, 3.5);
	assert_close(mad, 2);
	assert_int_equal(stats_modified_z(even, N(even), 100, &z), 0);
	assert_close(z, 0.6745 * 96.5 / 2);
	assert_int_equal(stats_modified_z(even, N(even), 3.5, &z), 0);
	assert_close(z, 0);
	/* MAD 0 (more than half the same), bad samples, a bad value: no rule */
	z = -7;
	assert_int_equal(stats_median_mad(flat, N(flat), &m, &mad), 0);
	assert_close(mad, 0);
	assert_int_equal(stats_modified_z(flat, N(flat), 7, &z), -1);
	assert_int_equal(stats_modified_z(bad, N(bad), 1, &z), -1);
	assert_int_equal(stats_modified_z(odd, 0, 1, &z), -1);
	assert_int_equal(stats_modified_z(odd, N(odd), NAN, &z), -1);
	assert_true(z == -7);
}

/*
 * mmtests' Gmean ratio by hand: ratios 2, 1 and 1/2 have the geometric
 * mean (2 * 1 * 0.5)^(1/3) = 1; 1.1 and 1.21 give sqrt(1.331) = 1.1^1.5
 * = 1.1536...; a pair with a zero or NaN is left out; none left is -1.
 */
static void test_gmean_ratio_by_hand(void **state)
{
	const double b1[] = { 1, 2, 4 }, c1[] = { 2, 2, 2 };
	const double b2[] = { 10, 100, 5 }, c2[] = { 11, 121, NAN };
	const double b3[] = { 0, 1 }, c3[] = { 1, NAN };
	double r;

	(void)state;
	assert_int_equal(stats_gmean_ratio(b1, c1, 3, &r), 0);
	assert_close(r, 1.0);
	assert_int_equal(stats_gmean_ratio(b2, c2, 3, &r), 0);
	assert_close(r, 1.1536897330);
	assert_int_equal(stats_gmean_ratio(b3, c3, 2, &r), -1);
	assert_true(isnan(r));
}

/*
 * The smallest change two samples of n show at 5% and 80% power, from
 * Student's t tables: (2.306004 + 0.888890) x 10 x sqrt(2/5) = 20.2062
 * for n = 5 (8 degrees of freedom); (2.001717 + 0.848001) x 3 x
 * sqrt(2/30) = 2.2074 for n = 30 (58).
 */
static void test_mde_pct(void **state)
{
	(void)state;
	assert_float_equal(stats_mde_pct(10, 5), 20.2062, 2e-4);
	assert_float_equal(stats_mde_pct(-10, 5), 20.2062, 2e-4);
	assert_float_equal(stats_mde_pct(3, 30), 2.2074, 2e-4);
	assert_float_equal(stats_mde_pct(0, 5), 0, 0);
	assert_true(isnan(stats_mde_pct(10, 1)));
	assert_true(isnan(stats_mde_pct(NAN, 5)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gmean_ratio_by_hand),
		cmocka_unit_test(test_odd_set),
		cmocka_unit_test(test_even_set),
		cmocka_unit_test(test_skewed_timings),
		cmocka_unit_test(test_throughput_higher),
		cmocka_unit_test(test_hmean_stddev_by_hand),
		cmocka_unit_test(test_standard_error),
		cmocka_unit_test(test_bamean_both_directions),
		cmocka_unit_test(test_pctile_best_both_directions),
		cmocka_unit_test(test_percentile_type7),
		cmocka_unit_test(test_single_sample),
		cmocka_unit_test(test_no_samples),
		cmocka_unit_test(test_zero_and_negative_samples),
		cmocka_unit_test(test_nan_and_inf_rejected),
		cmocka_unit_test(test_bad_percentage),
		cmocka_unit_test(test_coeffvar_edges),
		cmocka_unit_test(test_population_stddev),
		cmocka_unit_test(test_change_percentages),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_none_is_lower),
		cmocka_unit_test(test_input_not_modified),
		cmocka_unit_test(test_percentile_select_matches_sort),
		cmocka_unit_test(test_modified_z),
		cmocka_unit_test(test_mde_pct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
