// SPDX-License-Identifier: GPL-2.0-only
/*
 * Adaptive stopping (stats/sequential.h): the looks, the levels, the
 * sign-test interval against the binomial worked out by hand, and the
 * error guarantee itself, by simulation from a fixed seed: sequences
 * that stop at the first conclusive look must keep their false-alarm
 * rates, and find a real difference.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/sequential.h"
#include "stats/tests.h"


static void test_looks(void **state)
{
	static const unsigned looks[] = { 5, 8, 12, 18, 27, 30 };
	unsigned n = 0, k = 0;

	(void)state;
	assert_int_equal(seq_nlooks(5, 30), 6);
	for (unsigned i = 1; i <= 30; i++)
		if (seq_is_look(i, 5, 30)) {
			assert_true(k < 6);
			assert_int_equal(i, looks[k++]);
		}
	assert_int_equal(k, 6);
	assert_int_equal(seq_nlooks(10, 10), 1);
	assert_true(seq_is_look(10, 10, 10));
	assert_false(seq_is_look(9, 10, 10));
	/* min 1 grows too: 1 2 3 5 8 12 ... */
	for (unsigned i = 1; i <= 12; i++)
		n += seq_is_look(i, 1, 12);
	assert_int_equal(n, 6);
	assert_true(fabs(seq_alpha(0.05, 5, 30) - 0.05 / 6) < 1e-15);
	/* sign test at 0.01/4: 2 * 2^-n <= 0.0025 from n = 10 on, so only
	 * the looks 12 18 27 30 can reject */
	assert_true(fabs(seq_alpha_sign(0.01, 5, 30) - 0.0025) < 1e-15);
	assert_true(fabs(seq_alpha_sign(0.05, 10, 10) - 0.05) < 1e-15);
}

static void test_median_ci(void **state)
{
	static const double x[] = { 7, 3, 10, 1, 5, 9, 2, 8, 6, 4 };
	double lo, hi;

	(void)state;
	/* n = 10: 2 P(B <= 1) = 22/1024 <= 0.05 < 2 P(B <= 2) = 112/1024 */
	assert_int_equal(stats_median_ci(x, 10, 0.95, &lo, &hi), 0);
	assert_true(lo == 2 && hi == 9);
	/* at 99%: 2 P(B <= 0) = 2/1024 <= 0.01 < 22/1024 */
	assert_int_equal(stats_median_ci(x, 10, 0.99, &lo, &hi), 0);
	assert_true(lo == 1 && hi == 10);
	/* n = 5: 2/32 > 0.05, no interval; n = 6: 2/64 <= 0.05 */
	assert_int_equal(stats_median_ci(x, 5, 0.95, &lo, &hi), -1);
	assert_int_equal(stats_median_ci(x, 6, 0.95, &lo, &hi), 0);
	assert_true(lo == 1 && hi == 10);
	assert_int_equal(stats_median_ci(x, 0, 0.95, &lo, &hi), -1);
}

static void test_precise(void **state)
{
	static const double tight[] = { 100, 100.5, 99.8, 100.2, 100.1, 99.9,
					100.3, 99.7, 100, 100.4 };
	static const double wide[] = { 100, 110, 90, 105, 95, 120, 80, 100,
				       102, 98 };
	char why[128];

	(void)state;
	assert_true(seq_precise(tight, 10, 5, why, sizeof(why)));
	assert_non_null(strstr(why, "within +-2.5%"));
	assert_false(seq_precise(wide, 10, 5, why, sizeof(why)));
	assert_non_null(strstr(why, "not yet within"));
	assert_false(seq_precise(tight, 4, 5, why, sizeof(why)));
	assert_non_null(strstr(why, "too few"));
}

/*
 * Exact p of the within-round permutation test of the rank sum: an
 * independent Python computation (pooled midranks, a subset-sum count
 * over the rounds' rank differences), written from the description in
 * sequential.h, not from sequential.c.
 */
static void test_paired_rank_sum(void **state)
{
	static const double a[] = { 1.05, 1.10, 1.02, 1.31, 1.04, 1.06, 1.03, 1.07 };
	static const double b[] = { 1.00, 1.01, 1.30, 0.99, 1.02, 1.00, 0.98, 1.01 };
	static const double c[] = { 10, 12, 11, 13, 15, 14, 16, 18, 17, 19 };
	static const double d[] = { 9, 13, 10, 12, 14, 13, 15, 17, 18, 16 };
	static const double e[] = { 1, 2, 2, 3 }, f[] = { 2, 1, 3, 2 };
	static const double same[] = { 1, 2, 3 };
	double bx[60], by[60], p;

	(void)state;
	/* one burst on each side (1.31, 1.30) counts one rank each */
	assert_int_equal(stats_paired_rank_sum(a, b, 8, &p), 0);
	assert_true(fabs(p - 0.0390625) < 1e-12);
	assert_int_equal(stats_paired_rank_sum(c, d, 10, &p), 0);
	assert_true(fabs(p - 0.083984375) < 1e-12);
	assert_int_equal(stats_paired_rank_sum(e, f, 4, &p), 0);
	assert_true(p == 1);
	/* every round a tie: nothing to test */
	assert_int_equal(stats_paired_rank_sum(same, same, 3, &p), -1);
	for (int i = 0; i < 60; i++) {
		bx[i] = 100 + i % 7 + (i % 11 == 0 ? 30 : 0);
		by[i] = 98 + i % 5 + (i % 13 == 0 ? 30 : 0);
	}
	assert_int_equal(stats_paired_rank_sum(bx, by, 60, &p), 0);
	assert_true(fabs(p / 4.386587759697136e-10 - 1) < 1e-9);
}

/* ---- simulation ------------------------------------------------------ */

static uint64_t rng = 0x1234abcdULL;

static double uniform(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return ((double)((z ^ (z >> 31)) >> 11) + 0.5) / 9007199254740992.0;
}

/* A skewed timing: lognormal around scale, sd of the log s, and now and
 * then a slow outlier. */
static double timing(double scale, double s)
{
	double z = sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
	double x = scale * exp(s * z);

	return uniform() < 0.05 ? x * 1.3 : x;
}

/*
 * Sequences of rounds (good, candidate, bad), the candidate being the
 * good state (bad = 0) or the bad one, stopped at the first decided
 * look: the share decided each way.
 */
static void classify_trials(int trials, bool cand_bad, double effect,
			    double noise, double *wrong, double *right)
{
	double g[100], c[100], b[100], alpha = seq_alpha_sign(0.02, 5, 100);
	int nw = 0, nr = 0;

	for (int t = 0; t < trials; t++) {
		for (unsigned n = 1; n <= 100; n++) {
			double drift = exp(0.05 * sin(t + n / 3.0));	/* shared by the round */
			struct seq_class r;

			g[n - 1] = drift * timing(1, noise);
			b[n - 1] = drift * timing(1 + effect, noise);
			c[n - 1] = drift * timing(cand_bad ? 1 + effect : 1, noise);
			if (!seq_is_look(n, 5, 100))
				continue;
			assert_int_equal(seq_classify(c, n, g, n, b, n, true, alpha, 0.02, &r), 0);
			if (r.decision == SEQ_UNDECIDED)
				continue;
			if ((r.decision == SEQ_BAD) == cand_bad)
				nr++;
			else
				nw++;
			break;
		}
	}
	*wrong = (double)nw / trials;
	*right = (double)nr / trials;
}

static void test_classify_error_rates(void **state)
{
	double wrong, right;

	(void)state;
	/* a 5% step, 2% noise, judge's bisect design (alpha 0.02, rounds
	 * 5..100): each wrong call at most 2%; found in >= 98% */
	classify_trials(2000, false, 0.05, 0.02, &wrong, &right);
	assert_true(wrong <= 0.02);
	assert_true(right >= 0.98);
	classify_trials(2000, true, 0.05, 0.02, &wrong, &right);
	assert_true(wrong <= 0.02);
	assert_true(right >= 0.98);
	/* references that do not differ: nothing is ever decided */
	classify_trials(500, true, 0, 0.02, &wrong, &right);
	assert_true(wrong + right <= 0.01);
}

static void test_classify_unpaired_and_edges(void **state)
{
	static const double g[] = { 1.00, 1.01, 0.99, 1.00, 1.02, 0.98, 1.00, 1.01, 0.99, 1.00 };
	static const double b[] = { 1.10, 1.11, 1.09, 1.10, 1.12, 1.08, 1.10, 1.11, 1.09, 1.10 };
	static const double c[] = { 1.09, 1.10, 1.11, 1.10, 1.12, 1.10, 1.08, 1.10, 1.11, 1.09,
				    1.10, 1.10 };
	static const double zero[] = { 0, -1, NAN };
	struct seq_class r;

	(void)state;
	assert_int_equal(seq_classify(c, 12, g, 10, b, 10, false, 0.01, 0.01, &r), 0);
	assert_int_equal(r.decision, SEQ_BAD);
	assert_true(r.refs_differ);
	assert_true(fabs(r.ref_pct - 10) < 1e-9);
	assert_true(r.pos > 0.8 && r.pos < 1.2);
	assert_true(r.lo > 0.5);
	/* paired, 6 rounds: the signed-rank test cannot reach 0.01 (2/64) */
	assert_int_equal(seq_classify(b, 6, g, 6, b, 6, true, 0.01, 0.01, &r), 0);
	assert_int_equal(r.decision, SEQ_UNDECIDED);
	assert_non_null(strstr(r.why, "too few rounds for a decision at alpha 0.01 (6 of the 8 needed)"));
	/* 8 rounds can (2/256): the bad run itself is bad */
	assert_int_equal(seq_classify(c, 8, g, 8, b, 8, true, 0.01, 0.01, &r), 0);
	assert_int_equal(r.decision, SEQ_BAD);
	/* the good run as the candidate */
	assert_int_equal(seq_classify(g, 10, g, 10, b, 10, false, 0.01, 0.01, &r), 0);
	assert_int_equal(r.decision, SEQ_GOOD);
	/* references that are the same run */
	assert_int_equal(seq_classify(c, 12, g, 10, g, 10, false, 0.01, 0.01, &r), 0);
	assert_int_equal(r.decision, SEQ_UNDECIDED);
	assert_false(r.refs_differ);
	assert_non_null(strstr(r.why, "do not differ"));
	/* nothing positive to take a log of */
	assert_int_equal(seq_classify(zero, 3, g, 10, b, 10, false, 0.01, 0.01, &r), -1);
	assert_int_equal(seq_classify(zero, 3, zero, 3, zero, 3, true, 0.01, 0.01, &r), -1);
}

/*
 * The threshold rule as judge applies it - stats_compare() at
 * alpha / K at every look, stop at the first improved or regressed (a
 * false alarm in A/A) - keeps the false-alarm rate under 5%.
 */
static void test_threshold_aa_false_alarms(void **state)
{
	struct cmp_opts o = { .test = TEST_MWU, .threshold = 5, .nboot = 500,
			      .seed = BOOT_SEED };
	double a[10], b[30];
	int alarms = 0, trials = 300;

	(void)state;
	o.alpha = seq_alpha(0.05, 5, 30);
	for (int t = 0; t < trials; t++) {
		for (int i = 0; i < 10; i++)
			a[i] = timing(1, 0.05);
		for (unsigned n = 1; n <= 30; n++) {
			struct cmp_result r;

			b[n - 1] = timing(1, 0.05);
			if (!seq_is_look(n, 5, 30))
				continue;
			stats_compare(a, 10, b, n, BETTER_LOWER, &o, NULL, &r);
			if (r.verdict == V_IMPROVED || r.verdict == V_REGRESSED) {
				alarms++;
				break;
			}
		}
	}
	assert_true(alarms <= trials * 5 / 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_looks),
		cmocka_unit_test(test_median_ci),
		cmocka_unit_test(test_precise),
		cmocka_unit_test(test_paired_rank_sum),
		cmocka_unit_test(test_classify_error_rates),
		cmocka_unit_test(test_classify_unpaired_and_edges),
		cmocka_unit_test(test_threshold_aa_false_alarms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
