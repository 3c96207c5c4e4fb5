// SPDX-License-Identifier: GPL-2.0-only
/*
 * Significance tests and verdicts against values worked out outside
 * schedlab.
 *
 * Where the expected values come from:
 *   - Welch's t, df and p: R 4.2.2, t.test(b, a, var.equal = FALSE)
 *     (R's t is mean(first) - mean(second), hence b first).
 *   - Mann-Whitney W and p: R 4.2.2, wilcox.test(a, b) - exact = TRUE
 *     for the tie-free small sets, the default (normal approximation
 *     with continuity and tie correction) for ties and n >= 50.
 *   - Bootstrap ratios and intervals: a separate Python 3.11
 *     implementation of the algorithm as tests.h documents it
 *     (splitmix64, index = (r * n) >> 64, a's resample then b's, type 7
 *     percentiles), written from the description, not from tests.c;
 *     literals are its repr(). The constant sets by hand.
 *   - mmtests' bands and lkp-tests' rule: by hand, beside each case.
 * Literals are the printed doubles, compared within 1e-9 relative.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/tests.h"
#include "close.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* skewed kernel-like timings: min ~ mode, a slow tail; no ties */
static const double A[] = { 10.2, 10.5, 10.1, 11.9, 10.3, 10.4, 10.0, 13.5 };
static const double B[] = { 10.9, 11.3, 10.8, 11.0, 12.7, 11.1, 10.7, 11.6 };

static void welch_matches_r(void **state)
{
	static const double one[] = { 1, 2, 3, 4 }, flat[] = { 1, 1, 1, 1 };
	struct welch w;

	(void)state;
	assert_int_equal(stats_welch(A, N(A), B, N(B), &w), 0);
	assert_close(w.t, 0.81779061445077705);
	assert_close(w.df, 10.64593215045590568);
	assert_close(w.p, 0.43139951203654614);
	/* one side without spread: df = n - 1 of the other */
	assert_int_equal(stats_welch(one, 4, flat, 4, &w), 0);
	assert_close(w.t, -2.32379000772445021);
	assert_close(w.df, 3);
	assert_close(w.p, 0.10272807885839903);
}

static void welch_undefined(void **state)
{
	static const double x[] = { 2, 2, 2 }, y[] = { 3, 3, 3 };
	struct welch w = { .p = -7 };

	(void)state;
	assert_int_equal(stats_welch(x, 3, y, 3, &w), -1);	/* no spread */
	assert_int_equal(stats_welch(A, 1, B, N(B), &w), -1);	/* n = 1 */
	assert_true(w.p == -7);
}

static void mwu_exact_matches_r(void **state)
{
	static const double a5[] = { 1.5, 2.5, 3.5 }, b5[] = { 4.5, 5.5, 6.5 };
	double a4[49], b4[49];
	struct mwu u;

	(void)state;
	assert_int_equal(stats_mann_whitney(A, N(A), B, N(B), &u), 0);
	assert_true(u.exact);
	assert_close(u.u, 15);
	assert_close(u.p, 0.082983682983682971);
	/* 3 against 3, fully separated: 2 / C(6, 3) = 0.1 */
	assert_int_equal(stats_mann_whitney(a5, 3, b5, 3, &u), 0);
	assert_close(u.u, 0);
	assert_close(u.p, 0.1);
	/* the largest exact case: counts near C(98, 49) ~ 2.5e28 */
	for (int i = 0; i < 49; i++) {
		a4[i] = 1 + 2 * i;
		b4[i] = 2 + 2 * i + 10;
	}
	assert_int_equal(stats_mann_whitney(a4, 49, b4, 49, &u), 0);
	assert_true(u.exact);
	assert_close(u.u, 946);
	assert_close(u.p, 0.071004497216561213);
}

static void mwu_normal_matches_r(void **state)
{
	static const double a2[] = { 1, 2, 2, 3, 4, 4, 4, 5 };
	static const double b2[] = { 3, 4, 5, 5, 6, 6, 7, 8 };
	double a3[60], b3[60];
	struct mwu u;

	(void)state;
	/* ties: normal approximation, tie and continuity correction */
	assert_int_equal(stats_mann_whitney(a2, 8, b2, 8, &u), 0);
	assert_false(u.exact);
	assert_close(u.u, 8);
	assert_close(u.p, 0.012439175316984458);
	/* n >= 50: normal approximation without ties */
	for (int i = 0; i < 60; i++) {
		a3[i] = i + 1;
		b3[i] = i + 1 + 20.5;
	}
	assert_int_equal(stats_mann_whitney(a3, 60, b3, 60, &u), 0);
	assert_false(u.exact);
	assert_close(u.u, 780);
	assert_close(u.p, 8.7475677228935206e-08);
}

static void mwu_all_tied(void **state)
{
	static const double x[] = { 5, 5, 5 };
	struct mwu u;

	(void)state;
	assert_int_equal(stats_mann_whitney(x, 3, x, 3, &u), -1);
	assert_int_equal(stats_mann_whitney(x, 0, x, 3, &u), -1);
}

static void bootstrap_matches_reference(void **state)
{
	struct boot_ci ci;

	(void)state;
	assert_int_equal(stats_bootstrap_ratio(A, N(A), B, N(B), BOOT_MEAN,
					       2000, 0.95, BOOT_SEED, &ci), 0);
	assert_close(ci.ratio, 1.0368239355581126);
	assert_close(ci.lo, 0.9510506749027684);
	assert_close(ci.hi, 1.118848164265706);
	assert_int_equal(stats_bootstrap_ratio(A, N(A), B, N(B), BOOT_MEDIAN,
					       2000, 0.95, BOOT_SEED, &ci), 0);
	assert_close(ci.ratio, 1.0676328502415457);
	assert_close(ci.lo, 0.9291592573221757);
	assert_close(ci.hi, 1.1262135922330097);
}

static void bootstrap_edges(void **state)
{
	static const double two[] = { 2, 2, 2 }, three[] = { 3, 3, 3, 3 };
	static const double zeros[] = { 0, 0, 0 };
	struct boot_ci ci, again;

	(void)state;
	/* constant sides: every resampled ratio is 3 / 2 */
	assert_int_equal(stats_bootstrap_ratio(two, 3, three, 4, BOOT_MEDIAN,
					       100, 0.95, 1, &ci), 0);
	assert_close(ci.ratio, 1.5);
	assert_close(ci.lo, 1.5);
	assert_close(ci.hi, 1.5);
	/* the same seed, the same interval */
	stats_bootstrap_ratio(A, N(A), B, N(B), BOOT_MEAN, 500, 0.9, 42, &ci);
	stats_bootstrap_ratio(A, N(A), B, N(B), BOOT_MEAN, 500, 0.9, 42, &again);
	assert_true(ci.lo == again.lo && ci.hi == again.hi);
	/* a baseline of zeros has no ratio */
	assert_int_equal(stats_bootstrap_ratio(zeros, 3, two, 3, BOOT_MEAN,
					       100, 0.95, 1, &ci), -1);
	assert_int_equal(stats_bootstrap_ratio(two, 3, two, 3, BOOT_MEAN,
					       100, 1.5, 1, &ci), -1);
}

static void bands_by_hand(void **state)
{
	/* mean 11, sd 1: [9.04, 12.96] */
	static const double a[] = { 10, 11, 12 };
	/* mean 16, sd 1: [14.04, 17.96], apart */
	static const double far[] = { 15, 16, 17 };
	/* mean 13, sd 1: [11.04, 14.96], overlapping */
	static const double near[] = { 12, 13, 14 };
	bool d;

	(void)state;
	assert_int_equal(stats_bands_differ(a, 3, far, 3, BETTER_LOWER, &d), 0);
	assert_true(d);
	assert_int_equal(stats_bands_differ(a, 3, near, 3, BETTER_LOWER, &d), 0);
	assert_false(d);
	assert_int_equal(stats_bands_differ(far, 3, a, 3, BETTER_LOWER, &d), 0);
	assert_true(d);
}

static void lkp_by_hand(void **state)
{
	static const double a[] = { 10, 11, 12, 13, 14 };	/* median 12, max 14 */
	/* min 13.5 > 12, median 16 > 14, means 15.9 / 12 = 1.325 */
	static const double up[] = { 13.5, 15, 16, 17, 18 };
	/* min 11 < the median 12: overlapping */
	static const double mixed[] = { 11, 15, 16, 17, 18 };
	/* median 102, max 104; min 102.5, median 105: means 104.7 / 102 = 1.026 */
	static const double c[] = { 100, 101, 102, 103, 104 };
	static const double small[] = { 102.5, 104.5, 105, 105.5, 106 };
	double t1[32], t2[32];
	bool ch;

	(void)state;
	assert_int_equal(stats_lkp_changed(a, 5, up, 5, LKP_RATIO, &ch), 0);
	assert_true(ch);
	assert_int_equal(stats_lkp_changed(up, 5, a, 5, LKP_RATIO, &ch), 0);
	assert_true(ch);	/* the mirror */
	assert_int_equal(stats_lkp_changed(a, 5, mixed, 5, LKP_RATIO, &ch), 0);
	assert_false(ch);
	assert_int_equal(stats_lkp_changed(c, 5, small, 5, LKP_RATIO, &ch), 0);
	assert_false(ch);	/* 1.026 < 1.05 */
	assert_int_equal(stats_lkp_changed(c, 5, small, 5, LKP_RATIO_PERF, &ch), 0);
	assert_true(ch);	/* 1.026 > 1.01 */
	assert_int_equal(stats_lkp_changed(a, 2, up, 2, LKP_RATIO, &ch), 0);
	assert_false(ch);	/* 3 runs on one side at least */
	/*
	 * 32 samples: 32 >> 5 = 1 trimmed from each end. a = 1..32
	 * (trimmed: median 16.5, max 31); b = {1, 40..70}: trimmed min
	 * 40, median 54.5 - a change that the outlier 1 would hide.
	 */
	for (int i = 0; i < 32; i++) {
		t1[i] = i + 1;
		t2[i] = i ? 39 + i : 1;
	}
	assert_int_equal(stats_lkp_changed(t1, 32, t2, 32, LKP_RATIO, &ch), 0);
	assert_true(ch);
}

static const struct cmp_opts defaults = {
	.test = TEST_MWU, .alpha = 0.05, .threshold = 5,
	.nboot = BOOT_RESAMPLES, .seed = BOOT_SEED,
};

static void verdicts(void **state)
{
	double slow[N(A)], a[20], b[20];
	struct cmp_opts o = defaults;
	struct cmp_result r;

	(void)state;
	for (size_t i = 0; i < N(A); i++)
		slow[i] = A[i] * 1.2;
	/* R: wilcox.test(A, A * 1.2) p = 0.004662; medians 1.2 apart */
	stats_compare(A, N(A), slow, N(A), BETTER_LOWER, &o, NULL, &r);
	assert_int_equal(r.verdict, V_REGRESSED);
	assert_true(r.significant);
	assert_close(r.p, 0.004662004662004662);
	assert_close(r.change, -20);
	assert_true(r.lo <= r.change && r.change <= r.hi);
	/* the same numbers as a throughput: better */
	stats_compare(A, N(A), slow, N(A), BETTER_HIGHER, &o, NULL, &r);
	assert_int_equal(r.verdict, V_IMPROVED);
	assert_close(r.change, 20);

	/* p = 0.083; the median interval [-12.6%, +7.1%] (reference above) */
	stats_compare(A, N(A), B, N(B), BETTER_LOWER, &o, NULL, &r);
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	assert_close(r.lo, 100 - 100 * 1.1262135922330097);
	assert_close(r.hi, 100 - 100 * 0.9291592573221757);
	o.threshold = 15;	/* the interval is within +-15% */
	stats_compare(A, N(A), B, N(B), BETTER_LOWER, &o, NULL, &r);
	assert_int_equal(r.verdict, V_NO_CHANGE);

	/* separated (R: p = 1.45e-11) but only 2% apart: below 5% */
	for (int i = 0; i < 20; i++) {
		a[i] = 100 + 0.01 * (i + 1);
		b[i] = a[i] * 1.02;
	}
	o.threshold = 5;
	stats_compare(a, 20, b, 20, BETTER_LOWER, &o, NULL, &r);
	assert_true(r.significant);
	assert_close(r.p, 1.4508889103849688e-11);
	assert_int_equal(r.verdict, V_NO_CHANGE);
	o.threshold = 1;
	stats_compare(a, 20, b, 20, BETTER_LOWER, &o, NULL, &r);
	assert_int_equal(r.verdict, V_REGRESSED);
}

/*
 * The smallest p a size allows: 2 / C(na + nb, na) by hand, the normal
 * approximation's at U = 0 for (1, 60) in Python (mu = 30, sigma =
 * sqrt(60 * 62 / 12), z = -29.5 / sigma, erfc(|z| / sqrt(2))), and each
 * the p that stats_mann_whitney() gives two fully separated sides.
 */
static void reachable_sizes(void **state)
{
	static const size_t size[][2] = {
		{ 3, 3 }, { 4, 4 }, { 3, 4 }, { 3, 5 }, { 2, 8 }, { 1, 60 },
		{ 49, 51 },
	};
	double x[120];
	struct mwu u;

	(void)state;
	assert_close(stats_mwu_min_p(3, 3), 0.1);
	assert_close(stats_mwu_min_p(4, 4), 2.0 / 70);
	assert_close(stats_mwu_min_p(3, 4), 2.0 / 35);
	assert_close(stats_mwu_min_p(3, 5), 2.0 / 56);
	assert_close(stats_mwu_min_p(1, 60), 0.09383863903411002);
	assert_close(stats_mwu_min_p(0, 5), 1);
	for (int i = 0; i < 120; i++)
		x[i] = i;
	for (size_t i = 0; i < N(size); i++) {
		size_t na = size[i][0], nb = size[i][1];

		assert_int_equal(stats_mann_whitney(x, na, x + na, nb, &u), 0);
		assert_close(u.p, stats_mwu_min_p(na, nb));
	}
	assert_false(stats_can_reach(TEST_MWU, 3, 3, 0.05));
	assert_false(stats_can_reach(TEST_MWU, 3, 4, 0.05));	/* 0.057 */
	assert_true(stats_can_reach(TEST_MWU, 3, 5, 0.05));	/* 0.036 */
	assert_true(stats_can_reach(TEST_MWU, 2, 8, 0.05));	/* 0.044 */
	assert_false(stats_can_reach(TEST_MWU, 2, 7, 0.05));	/* 0.056 */
	assert_false(stats_can_reach(TEST_MWU, 1, 60, 0.05));
	assert_true(stats_can_reach(TEST_WELCH, 2, 2, 0.05));
	assert_false(stats_can_reach(TEST_WELCH, 1, 9, 0.05));
	assert_true(stats_can_reach(TEST_LKP, 1, 3, 0.05));
	assert_false(stats_can_reach(TEST_LKP, 2, 2, 0.05));
	assert_true(stats_can_reach(TEST_BOOT_MEDIAN, 1, 1, 0.05));
	assert_int_equal(stats_min_samples(TEST_MWU, 0.05), 4);
	assert_int_equal(stats_min_samples(TEST_MWU, 0.01), 5);	/* 2/252 */
	assert_int_equal(stats_advised_samples(TEST_MWU, 0.05), 5);	/* 4/252 */
	assert_int_equal(stats_advised_samples(TEST_MWU, 0.01), 6);	/* 4/924 */
	for (int t = 1; t < TEST_N; t++) {
		assert_int_equal(stats_min_samples((enum stat_test)t, 0.05),
				 CMP_MIN_SAMPLES);
		assert_int_equal(stats_advised_samples((enum stat_test)t, 0.05),
				 CMP_MIN_SAMPLES);
	}
	assert_int_equal(stats_min_samples(TEST_MWU, 0), 0);
}

/*
 * Why a comparison is inconclusive: the reason that limited it. 3
 * against 3, three times as slow, and still not significant:
 * Mann-Whitney cannot go below p = 0.1 at these sizes.
 */
static void inconclusive_reasons(void **state)
{
	static const double a[] = { 10.0, 10.4, 10.2 }, b[] = { 32.9, 31.5, 33.4 };
	struct run_noise rn = { .sd_log = 0.25, .runs = 20 };
	struct cmp_opts o = defaults;
	double slow[N(A)];
	struct cmp_result r;

	(void)state;
	stats_compare(a, 3, b, 3, BETTER_LOWER, &o, NULL, &r);
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	assert_close(r.p, 0.1);
	assert_true(r.change < -200);
	assert_string_equal(r.why, "too few samples: mann-whitney cannot reach p < 0.05 with 3 and 3 (needs 4 a side)");
	/* the same with noise: the sizes are still what limits it */
	stats_compare(a, 3, b, 3, BETTER_LOWER, &o, &rn, &r);
	assert_non_null(strstr(r.why, "too few samples: mann-whitney"));
	/* Welch can: significant at 3 a side */
	o.test = TEST_WELCH;
	stats_compare(a, 3, b, 3, BETTER_LOWER, &o, NULL, &r);
	assert_int_equal(r.verdict, V_REGRESSED);

	/* 20% slower: regressed alone, inconclusive in 25% noise between runs */
	o = defaults;
	for (size_t i = 0; i < N(A); i++)
		slow[i] = A[i] * 1.2;
	stats_compare(A, N(A), slow, N(A), BETTER_LOWER, &o, &rn, &r);
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	assert_string_equal(r.why, "noise between runs 25.0% (20 runs) widens the interval past +-5%");

	/* p = 0.083 at 8 a side, interval [-12.6%, +7.1%]: the samples' spread */
	stats_compare(A, N(A), B, N(B), BETTER_LOWER, &o, NULL, &r);
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	assert_string_equal(r.why, "too noisy: interval reaches past +-5%");
	rn.sd_log = 0.001;	/* inconclusive with or without the noise */
	stats_compare(A, N(A), B, N(B), BETTER_LOWER, &o, &rn, &r);
	assert_string_equal(r.why, "too noisy: interval reaches past +-5%; run noise 0.1%, 20 runs");
	/* the longest reasons fit */
	o.threshold = 12.345678;
	rn = (struct run_noise){ .sd_log = 123.456, .runs = 4000000000u };
	stats_compare(A, N(A), slow, N(A), BETTER_LOWER, &o, &rn, &r);
	assert_true(strlen(r.why) < sizeof(r.why) - 1);
	assert_non_null(strstr(r.why, "runs"));
}

static void verdicts_bad_input(void **state)
{
	static const double one[] = { 1.0 }, same[] = { 4, 4, 4, 4 };
	static const double zeros[] = { 0, 0, 0, 0 }, x[] = { 1, 2, 3, 4 };
	static const double gaps[] = { NAN, 1, NAN, 2, 3 };
	struct cmp_opts o = defaults;
	struct cmp_result r;

	(void)state;
	stats_compare(one, 1, one, 1, BETTER_LOWER, &o, NULL, &r);
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	assert_true(isnan(r.change));
	assert_non_null(strstr(r.why, "too few samples (1 and 1"));
	stats_compare(same, 4, same, 4, BETTER_LOWER, &o, NULL, &r);
	assert_int_equal(r.verdict, V_NO_CHANGE);
	assert_close(r.change, 0);
	stats_compare(zeros, 4, x, 4, BETTER_LOWER, &o, NULL, &r);
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	assert_non_null(strstr(r.why, "undefined"));
	/* NaNs are skipped: 3 samples left */
	stats_compare(gaps, 5, x, 4, BETTER_LOWER, &o, NULL, &r);
	assert_int_equal(r.na, 3);
	/* every test copes with constant, different sides */
	for (int t = 0; t < TEST_N; t++) {
		static const double c2[] = { 2, 2, 2, 2 };

		o.test = (enum stat_test)t;
		stats_compare(same, 4, c2, 4, BETTER_LOWER, &o, NULL, &r);
		assert_true(r.verdict == V_IMPROVED || r.verdict == V_INCONCLUSIVE);
		assert_true(strlen(r.why) > 0);
	}
}

/*
 * Run-to-run noise. sd of the logs by hand: medians e^0.1, e^0.2, e^0.3
 * have logs 0.1, 0.2, 0.3, sd 0.1. The widened interval of A against B
 * with sd_log 0.05 from 5 runs, in Python from the median interval
 * above: h = qt(0.975, 4) * sqrt(2) * 0.05 with R's qt(0.975, 4) =
 * 2.7764451051977934, each log half-width hw -> sqrt(hw^2 + h^2).
 */
static void run_noise(void **state)
{
	const double med[] = { exp(0.1), exp(0.2), exp(0.3) }, bad[] = { 1, 0, 2 };
	struct run_noise rn = { .sd_log = 0.05, .runs = 5 }, got;
	struct cmp_opts o = defaults;
	double slow[N(A)];
	struct cmp_result r;

	(void)state;
	assert_int_equal(stats_run_noise(med, 3, &got), 0);
	assert_close(got.sd_log, 0.1);
	assert_int_equal(got.runs, 3);
	assert_int_equal(stats_run_noise(med, 2, &got), -1);	/* too few runs */
	assert_int_equal(stats_run_noise(bad, 3, &got), -1);	/* a median of 0 */

	o.threshold = 50;
	stats_compare(A, N(A), B, N(B), BETTER_LOWER, &o, &rn, &r);
	assert_close(r.lo, 100 - 100 * 1.308531559883112);
	assert_close(r.hi, 100 - 100 * 0.8394073435980465);
	assert_close(r.noise_pct, 5);
	assert_int_equal(r.noise_runs, 5);
	/* a 20% slowdown within 25% run-to-run noise is no longer shown */
	for (size_t i = 0; i < N(A); i++)
		slow[i] = A[i] * 1.2;
	o.threshold = 5;
	rn.sd_log = 0.25;
	stats_compare(A, N(A), slow, N(A), BETTER_LOWER, &o, &rn, &r);
	assert_false(r.significant);
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	rn.sd_log = 0.01;	/* and within 1% it is */
	stats_compare(A, N(A), slow, N(A), BETTER_LOWER, &o, &rn, &r);
	assert_int_equal(r.verdict, V_REGRESSED);
}

/*
 * A large bootstrap is shared among threads; the numbers must be those
 * of one sequential pass (written out here independently: splitmix64,
 * Lemire's draw, the mean of each resample, percentiles of the sorted
 * ratios with linear interpolation).
 */
static uint64_t ref_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int ref_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double ref_pct(const double *a, size_t n, double pct)
{
	double h = (double)(n - 1) * pct / 100.0;
	size_t lo = (size_t)floor(h);

	return lo >= n - 1 ? a[n - 1] : a[lo] + (h - (double)lo) * (a[lo + 1] - a[lo]);
}

static void test_bootstrap_threads_same_numbers(void **state)
{
	enum { NA = 300, NB = 250, NBOOT = 2000 };
	static double a[NA], b[NB], sa[NA], sb[NB], ratio[NBOOT];
	uint64_t s = 7, seed = 99;
	struct boot_ci ci;
	(void)state;

	for (size_t i = 0; i < NA; i++)
		a[i] = 1 + (double)(ref_next(&s) >> 40) / 16777216.0;
	for (size_t i = 0; i < NB; i++)
		b[i] = 1.1 + (double)(ref_next(&s) >> 40) / 16777216.0;
	assert_int_equal(stats_bootstrap_ratio(a, NA, b, NB, BOOT_MEAN, NBOOT,
					       0.95, seed, &ci), 0);
	memcpy(sa, a, sizeof(a));
	memcpy(sb, b, sizeof(b));
	qsort(sa, NA, sizeof(double), ref_cmp);
	qsort(sb, NB, sizeof(double), ref_cmp);
	for (size_t k = 0; k < NBOOT; k++) {
		double ra = 0, rb = 0;

		for (size_t i = 0; i < NA; i++)
			ra += sa[(size_t)(((unsigned __int128)ref_next(&seed) * NA) >> 64)];
		for (size_t i = 0; i < NB; i++)
			rb += sb[(size_t)(((unsigned __int128)ref_next(&seed) * NB) >> 64)];
		ratio[k] = (rb / NB) / (ra / NA);
	}
	qsort(ratio, NBOOT, sizeof(double), ref_cmp);
	assert_true(ci.lo == ref_pct(ratio, NBOOT, 2.5));
	assert_true(ci.hi == ref_pct(ratio, NBOOT, 97.5));
	assert_true(ci.lo < ci.ratio && ci.ratio < ci.hi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bootstrap_threads_same_numbers),
		cmocka_unit_test(welch_matches_r),
		cmocka_unit_test(welch_undefined),
		cmocka_unit_test(mwu_exact_matches_r),
		cmocka_unit_test(mwu_normal_matches_r),
		cmocka_unit_test(mwu_all_tied),
		cmocka_unit_test(bootstrap_matches_reference),
		cmocka_unit_test(bootstrap_edges),
		cmocka_unit_test(bands_by_hand),
		cmocka_unit_test(lkp_by_hand),
		cmocka_unit_test(verdicts),
		cmocka_unit_test(verdicts_bad_input),
		cmocka_unit_test(reachable_sizes),
		cmocka_unit_test(inconclusive_reasons),
		cmocka_unit_test(run_noise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
