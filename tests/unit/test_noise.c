// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats/noise: the run as the unit. Expected values are worked out by
 * hand from the definitions in noise.h and doc/statistics.md (the
 * arithmetic is in the comments), the t-distribution's from its closed
 * form for 4 degrees of freedom, not from the code under test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "stats/noise.h"

#define assert_near(a, b, eps) do {					\
	double a_ = (a), b_ = (b);					\
	if (!(fabs(a_ - b_) <= (eps)))					\
		fail_msg("%s = %.9g, expected %.9g (+-%g)", #a, a_, b_,	\
			 (double)(eps));				\
} while (0)

/*
 * Four runs of one label whose logs alternate 0, 0.1: d = .1, -.1, .1;
 * between^2 = 3 (0.01) / (2 * 3) = 0.005; df = 2/3 of 3 pairs = 2.
 * Iterations' spread 4% at 10 iterations: the median's variance pi/2
 * 0.0016 / 10 = 0.000251327, so offset^2 = 0.005 - 0.000251327.
 */
static void test_estimate_successive_differences(void **state)
{
	struct noise_obs o[4];
	struct noise_model m;

	(void)state;
	for (size_t i = 0; i < 4; i++)
		o[i] = (struct noise_obs){ 0, exp(i % 2 ? 0.1 : 0), 0.04, 10, 0 };
	assert_int_equal(noise_estimate(o, 4, &m), 0);
	assert_int_equal(m.runs, 4);
	assert_int_equal(m.groups, 1);
	assert_int_equal(m.pairs, 3);
	assert_int_equal(m.cut, 0);
	assert_near(m.between, sqrt(0.005), 1e-12);
	assert_near(m.df, 2, 1e-12);
	assert_near(m.within, 0.04, 1e-12);
	assert_near(m.iters, 10, 1e-12);
	assert_near(m.offset, sqrt(0.005 - M_PI / 2 * 0.0016 / 10), 1e-12);
	/* the sd of a run of 40 iterations: offset^2 + the rest / 4 */
	assert_near(noise_run_sd(&m, 40),
		    sqrt(0.005 - 0.75 * M_PI / 2 * 0.0016 / 10), 1e-12);
	assert_near(noise_run_sd(&m, 10), m.between, 1e-12);
}

/*
 * An absurd run (a jump of 5 in the log) is left out: median |d| = 0.1,
 * s0 = 0.1 / (0.6745 sqrt 2), the cut 5 sqrt 2 s0 = 0.741; the between
 * is what the other three make. Runs of another label are never
 * differenced against these, and a run without a median is skipped.
 */
static void test_estimate_cuts_and_groups(void **state)
{
	struct noise_obs o[] = {
		{ 0, 1, NAN, 2, 0 }, { 1, exp(3), NAN, 2, 0 }, { 0, exp(0.1), NAN, 2, 0 },
		{ 0, 1, NAN, 2, 0 }, { 1, 0, NAN, 2, 0 }, { 0, exp(0.1), NAN, 2, 0 },
		{ 0, exp(5.1), NAN, 2, 0 }, { 1, exp(3.2), NAN, 2, 0 },
	};
	struct noise_model m;

	(void)state;
	assert_int_equal(noise_estimate(o, 8, &m), 0);
	assert_int_equal(m.runs, 7);
	assert_int_equal(m.groups, 2);
	/* label 0: 4 pairs, label 1: 1 (exp(3) -> exp(3.2)) */
	assert_int_equal(m.pairs, 5);
	assert_int_equal(m.cut, 1);
	/* kept: .1 -.1 .1 .2: (0.03 + 0.04) / 8 */
	assert_near(m.between, sqrt(0.07 / 8), 1e-12);
	assert_true(isnan(m.within));
	/* without the iterations' spread the offset is all of it */
	assert_near(m.offset, m.between, 1e-12);

	/* two labels of two runs each: 2 pairs, too few for a model */
	assert_int_equal(noise_estimate((struct noise_obs[]){
		{ 0, 1, NAN, 3, 0 }, { 1, 2, NAN, 3, 0 }, { 0, 1.1, NAN, 3, 0 },
		{ 1, 2.1, NAN, 3, 0 } }, 4, &m), -1);
	assert_int_equal(m.pairs, 2);
	assert_true(isnan(m.between));
}

/*
 * Three runs a side, logs 0 .02 -.02 against .1 .12 .08, lower is
 * better: s^2 = (0.0008 + 0.0008) / 4, se = 0.02 sqrt(2/3), t = 6.1237
 * at 4 degrees of freedom, whose two-sided p is 1 - sin(th)(1 +
 * cos(th)^2 / 2), th = atan(t / 2): 0.0036034.
 */
static void test_compare_runs_pooled_t(void **state)
{
	double a[] = { 1, exp(0.02), exp(-0.02) };
	double b[] = { exp(0.1), exp(0.12), exp(0.08) };
	struct cmp_opts o = { .alpha = 0.05, .threshold = 2, .runs_unit = true };
	struct cmp_result r;
	double t = 0.1 / (0.02 * sqrt(2.0 / 3)), th = atan(t / 2);

	(void)state;
	noise_compare(a, 3, 5, b, 3, 5, BETTER_LOWER, NULL, &o, &r);
	assert_int_equal(r.runs_a, 3);
	assert_int_equal(r.runs_b, 3);
	assert_near(r.change, 100 - 100 * exp(0.1), 1e-9);
	assert_near(r.p, 1 - sin(th) * (1 + cos(th) * cos(th) / 2), 1e-6);
	assert_near(r.noise_pct, 2, 1e-9);
	assert_int_equal(r.verdict, V_REGRESSED);
	assert_true(r.lo < r.change && r.change < r.hi && r.hi < 0);
	/* higher is better: the same runs are an improvement */
	noise_compare(a, 3, 5, b, 3, 5, BETTER_HIGHER, NULL, &o, &r);
	assert_int_equal(r.verdict, V_IMPROVED);
	assert_near(r.change, 100 * exp(0.1) - 100, 1e-9);
}

/*
 * One run a side: nothing without a model, however large the change;
 * with a model of 1% between runs (df 6) 10% is a regression, 1.5% is
 * inconclusive with the reason in numbers.
 */
static void test_compare_one_run_a_side(void **state)
{
	struct noise_model m = { .runs = 7, .pairs = 6, .between = 0.01,
				 .offset = 0.01, .within = NAN, .iters = 5,
				 .df = 6 };
	struct cmp_opts o = { .alpha = 0.05, .threshold = 5, .runs_unit = true };
	struct cmp_result r;
	double a = 1, slow = 1.1, near = 1.015;

	(void)state;
	noise_compare(&a, 1, 5, &slow, 1, 5, BETTER_LOWER, NULL, &o, &r);
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	assert_non_null(strstr(r.why, "one run a side, and this host's run-to-run noise"));
	noise_compare(&a, 1, 5, &slow, 1, 5, BETTER_LOWER, &m, &o, &r);
	assert_int_equal(r.verdict, V_REGRESSED);
	assert_near(r.noise_pct, 1, 1e-9);
	assert_int_equal(r.noise_runs, 7);
	o.threshold = 1;
	noise_compare(&a, 1, 5, &near, 1, 5, BETTER_LOWER, &m, &o, &r);
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	assert_non_null(strstr(r.why, "one run a side cannot tell 1% from this host's run-to-run noise of 1.0%"));
	assert_true(r.runs_needed > 1);
	/* the runs it names do show the threshold, one fewer does not */
	assert_true(noise_mde(0.01, 6 + 2.0 * r.runs_needed - 2, r.runs_needed,
			      r.runs_needed, 0.05) <= 1);
	assert_true(noise_mde(0.01, 6 + 2.0 * r.runs_needed - 4, r.runs_needed - 1,
			      r.runs_needed - 1, 0.05) > 1);
}

/*
 * The model checked against the runs compared. A model of 1% (df 6) and
 * two runs a side whose logs are 0, 0.1 and 0.15, 0.25: their own
 * variance is 4 (0.05^2) / 2 = 0.005, 50 times the model's; F(2, 6)'s
 * tail at 50 is (1 + 50/3)^-3 = 1.8e-4, so the model is set aside and
 * the test is theirs alone: t = 0.15 / sqrt(0.005) = 2.1213 at 2 df, p =
 * 1 - t / sqrt(t^2 + 2) = 0.1835, inconclusive (pooled with the model,
 * s^2 = (0.01 + 6 * 0.0001) / 8, t = 4.12 at 8 df would have said
 * regressed). Runs that agree (0, 0.01 and 0.1, 0.11: variance 0.00005,
 * F 0.5) keep the model.
 */
static void test_compare_model_set_aside(void **state)
{
	struct noise_model m = { .runs = 7, .pairs = 6, .between = 0.01,
				 .offset = 0.01, .within = NAN, .iters = 5,
				 .df = 6 };
	struct cmp_opts o = { .alpha = 0.05, .threshold = 5, .runs_unit = true };
	double a[] = { 1, exp(0.1) }, b[] = { exp(0.15), exp(0.25) };
	double c[] = { 1, exp(0.01) }, d[] = { exp(0.1), exp(0.11) };
	double t = 0.15 / sqrt(0.005);
	struct cmp_result r;

	(void)state;
	noise_compare(a, 2, 5, b, 2, 5, BETTER_LOWER, &m, &o, &r);
	assert_true(r.model_aside);
	assert_near(r.model_pct, 1, 1e-9);
	assert_near(r.noise_pct, 100 * sqrt(0.005), 1e-9);
	assert_near(r.p, 1 - t / sqrt(t * t + 2), 1e-6);
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	assert_int_equal(r.noise_runs, 0);
	assert_non_null(strstr(r.why, "these runs spread more than this host's model of 1.0% says"));
	noise_compare(c, 2, 5, d, 2, 5, BETTER_LOWER, &m, &o, &r);
	assert_false(r.model_aside);
	assert_true(isnan(r.model_pct));
	assert_int_equal(r.noise_runs, 7);
	assert_int_equal(r.verdict, V_REGRESSED);
	/* one run a side has no spread of its own to check: the model stands */
	noise_compare(a, 1, 5, b + 1, 1, 5, BETTER_LOWER, &m, &o, &r);
	assert_false(r.model_aside);
	assert_int_equal(r.verdict, V_REGRESSED);
}

/*
 * The detectable effect at large df is the normal one: (1.959964 +
 * 0.841621) s sqrt(2) for one run a side; s = 0.1 gives 100 (e^0.396209
 * - 1) = 48.62%.
 */
static void test_mde_and_precision(void **state)
{
	struct noise_model m = { .offset = 0.07 };
	double x[] = { 1, 2, 3 };

	(void)state;
	assert_near(noise_mde(0.1, 1e7, 1, 1, 0.05),
		    100 * expm1(2.801585 * 0.1 * M_SQRT2), 1e-3);
	assert_true(isnan(noise_mde(0.1, 0.5, 1, 1, 0.05)));
	assert_int_equal(noise_runs_needed(0.5, 0, 0.1, 0.05), 0);
	/* median 2, MAD 1 */
	assert_near(noise_robust_cv(x, 3), 1.4826 / 2, 1e-12);
	assert_true(isnan(noise_robust_cv(x, 2)));
	/* sqrt(pi/2) 0.1 / 2 = 0.06267 against an offset of 0.07, then 0.05 */
	assert_near(noise_median_precision(0.1, 4), sqrt(M_PI / 2) * 0.05, 1e-12);
	assert_true(noise_iterations_enough(&m, 0.1, 4));
	m.offset = 0.05;
	assert_false(noise_iterations_enough(&m, 0.1, 4));
	assert_false(noise_iterations_enough(NULL, 0.1, 4));
}

/*
 * Equivalence (TOST) at the run level, a model of 1% with df large
 * enough for the normal quantiles (1.644854 at 95%, 1.281552 at 90%).
 * Two runs a side, logs 0, 0.01 and 0.005, 0.015: diff 0.005, their own
 * variance 0.0001 / 2 (F 0.5: the model stays), s = 0.01, se = 0.01.
 * The 90% interval 0.005 +- 0.01644854 rules out 100 (e^0.02144854 - 1)
 * = 2.1680%: "no change beyond 5%", inconclusive at 2%. One run a side
 * 4% apart (z = 0.04 / (0.01 sqrt 2) = 2.83, p = 0.0047) differ, but
 * the interval reaches 100 (e^(0.04 + 1.644854 0.0141421) - 1) = 6.53%:
 * not a "no change" at 5% (it was before the TOST).
 */
static void test_compare_equivalence(void **state)
{
	struct noise_model m = { .runs = 7, .pairs = 6, .between = 0.01,
				 .offset = 0.01, .within = NAN, .iters = 5,
				 .df = 1e7 };
	struct cmp_opts o = { .alpha = 0.05, .threshold = 5, .runs_unit = true };
	double a[] = { 1, exp(0.01) }, b[] = { exp(0.005), exp(0.015) };
	double one = 1, four = exp(0.04);
	struct cmp_result r;

	(void)state;
	noise_compare(a, 2, 5, b, 2, 5, BETTER_LOWER, &m, &o, &r);
	assert_false(r.model_aside);
	assert_near(r.rules_out, 100 * expm1(0.005 + 1.644854 * 0.01), 1e-4);
	assert_int_equal(r.verdict, V_NO_CHANGE);
	assert_true(r.p_equiv < 1e-4);
	assert_non_null(strstr(r.why, "no change beyond 5%: these runs rule out more than 2.2%"));
	o.threshold = 2;
	noise_compare(a, 2, 5, b, 2, 5, BETTER_LOWER, &m, &o, &r);
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	assert_true(r.p_equiv > 0.05);
	assert_non_null(strstr(r.why, "they rule out more than 2.2%"));
	o.threshold = 5;
	noise_compare(&one, 1, 5, &four, 1, 5, BETTER_LOWER, &m, &o, &r);
	assert_true(r.significant);
	assert_near(r.rules_out, 100 * expm1(0.04 + 1.644854 * 0.01 * M_SQRT2), 1e-3);
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	assert_non_null(strstr(r.why, "by less than 5%, but they cannot rule out 5%"));
	/* the margin itself: a symmetric interval, the larger side */
	assert_near(noise_rules_out(0, 0.01, 1e7, 0.05),
		    100 * expm1(1.644854 * 0.01), 1e-4);
	assert_true(isnan(noise_rules_out(0, 0.01, 0.5, 0.05)));
	/*
	 * Runs a side to conclude "no change beyond 5%" of an unchanged
	 * state, s = 0.02: (1.644854 + 1.281552) 0.02 sqrt(2 / r) <=
	 * log 1.05 = 0.0487902 from r = 2.878, so 3.
	 */
	assert_int_equal(noise_runs_equivalence(0.02, 1e7, 5, 0.05), 3);
	assert_int_equal(noise_runs_equivalence(0.5, 0, 1, 0.05), 0);
}

/*
 * A campaign's plan: s = 0.02 (between = offset, so any iterations),
 * df large. No change beyond 5% at alpha 0.05: 3 boots a state (above);
 * detection: (1.959964 + 0.841621) 0.02 sqrt(2 / r) <= log 1.05 from
 * r = 2.637, so 3 as well. With 4 looks (alpha 0.0125): equivalence (2.241403 + 1.281552) 0.02 sqrt(2 / r) <=
 * 0.0487902 from r = 4.17, so 5; detection (2.497705 + 0.841621) ...
 * from r = 3.74, so 4: boots 5.
 */
static void test_plan_boots(void **state)
{
	struct noise_model m = { .between = 0.02, .offset = 0.02, .iters = 5,
				 .df = 1e7 };
	struct noise_boot_plan p;

	(void)state;
	noise_plan_boots(&m, 5, 5, 0.05, 1, &p);
	assert_int_equal(p.no_change, 3);
	assert_int_equal(p.detect, 3);
	assert_int_equal(p.boots, 3);
	noise_plan_boots(&m, 5, 5, 0.05, 4, &p);
	assert_int_equal(p.no_change, 5);
	assert_int_equal(p.detect, 4);
	assert_int_equal(p.boots, 5);
	m.between = m.offset = 1;
	noise_plan_boots(&m, 5, 1, 0.05, 1, &p);
	assert_int_equal(p.boots, 0);
}

/*
 * Common sense: one run a side, no model. 2.5 times the time (medians),
 * 2.5 times the CPU time: regressed (and improved the other way), an
 * iteration out of line not changing it; the time alone (CPU time 1.1
 * times: waiting, not work), a higher-is-better metric, or fewer than
 * 3 iterations: nothing.
 */
static void test_huge(void **state)
{
	struct cmp_opts o = { .alpha = 0.05, .threshold = 5, .runs_unit = true };
	double a[] = { 1.0, 1.1, 0.9, 1.05 }, ca[] = { 0.5, 0.5, 0.5, 0.5 };
	double b[] = { 2.5, 2.6, 2.4, 2.55 }, cb[] = { 1.25, 1.3, 1.2, 1.25 };
	double cw[] = { 0.55, 0.55, 0.55, 0.55 };
	double bo[] = { 2.5, 2.6, 1.0, 2.55 };
	double ma = 1.025, mb = 2.525;
	struct cmp_result r;

	(void)state;
	noise_compare(&ma, 1, 4, &mb, 1, 4, BETTER_LOWER, NULL, &o, &r);
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	assert_true(noise_huge(a, 4, ca, 4, b, 4, cb, 4, BETTER_LOWER, &o, &r));
	assert_int_equal(r.verdict, V_REGRESSED);
	assert_true(r.huge);
	assert_near(r.change, 100 - 100 * 2.525 / 1.025, 1e-9);
	assert_non_null(strstr(r.why, "2.46 times the time"));
	noise_compare(&mb, 1, 4, &ma, 1, 4, BETTER_LOWER, NULL, &o, &r);
	assert_true(noise_huge(b, 4, cb, 4, a, 4, ca, 4, BETTER_LOWER, &o, &r));
	assert_int_equal(r.verdict, V_IMPROVED);
	noise_compare(&ma, 1, 4, &mb, 1, 4, BETTER_LOWER, NULL, &o, &r);
	assert_false(noise_huge(a, 4, ca, 4, b, 4, cw, 4, BETTER_LOWER, &o, &r));
	assert_true(noise_huge(a, 4, ca, 4, bo, 4, cb, 4, BETTER_LOWER, &o, &r));
	noise_compare(&ma, 1, 4, &mb, 1, 4, BETTER_LOWER, NULL, &o, &r);
	assert_false(noise_huge(a, 4, ca, 4, b, 4, cb, 4, BETTER_HIGHER, &o, &r));
	assert_false(noise_huge(a, 2, ca, 2, b, 2, cb, 2, BETTER_LOWER, &o, &r));
	assert_false(noise_huge(a, 4, ca, 0, b, 4, cb, 0, BETTER_LOWER, &o, &r));
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	assert_false(r.huge);
}

/*
 * ... but not for iterations of a few ms of CPU time, a process's start
 * more than its work: 2.5 times the time and the CPU time at 5 ms of
 * CPU on the shorter side is nothing, and the why says what it would
 * take; at 10 ms it is the rule's call again.
 */
static void test_huge_too_short(void **state)
{
	struct cmp_opts o = { .alpha = 0.05, .threshold = 5, .runs_unit = true };
	double a[] = { 0.010, 0.011, 0.009, 0.0105 }, ca[] = { 0.005, 0.005, 0.005, 0.005 };
	double b[] = { 0.025, 0.026, 0.024, 0.0255 }, cb[] = { 0.0125, 0.013, 0.012, 0.0125 };
	double ca10[] = { 0.010, 0.010, 0.010, 0.010 }, cb10[] = { 0.025, 0.026, 0.024, 0.025 };
	double ma = 0.01025, mb = 0.02525;
	struct cmp_result r;

	(void)state;
	noise_compare(&ma, 1, 4, &mb, 1, 4, BETTER_LOWER, NULL, &o, &r);
	assert_false(noise_huge(a, 4, ca, 4, b, 4, cb, 4, BETTER_LOWER, &o, &r));
	assert_int_equal(r.verdict, V_INCONCLUSIVE);
	assert_false(r.huge);
	assert_non_null(strstr(r.why, "; 2.46 times the time and 2.50 times the CPU time would be"));
	assert_non_null(strstr(r.why, "5.0 ms of CPU time an iteration is mostly a process's start"));
	assert_non_null(strstr(r.why, "(common sense needs 10 ms a side)"));
	noise_compare(&mb, 1, 4, &ma, 1, 4, BETTER_LOWER, NULL, &o, &r);
	assert_false(noise_huge(b, 4, cb, 4, a, 4, ca, 4, BETTER_LOWER, &o, &r));
	assert_non_null(strstr(r.why, "1/2.46 of the time and 1/2.50 of the CPU time"));
	noise_compare(&ma, 1, 4, &mb, 1, 4, BETTER_LOWER, NULL, &o, &r);
	assert_true(noise_huge(a, 4, ca10, 4, b, 4, cb10, 4, BETTER_LOWER, &o, &r));
	assert_int_equal(r.verdict, V_REGRESSED);
}

/*
 * Two speeds: logs 0, 0.01, -0.01 then 0.8, 0.81, 0.79 in time order.
 * Sorted, the split after the third has a gap of 0.78 against a pooled
 * sd of sqrt(4 (0.01^2) / 4) = 0.01: two speeds, e^0 and e^0.8, 3 runs
 * each. Successive differences .01 -.02 .81 .01 -.02: s0 = 0.02 /
 * (0.6745 sqrt 2), and 0.81 is past the cut (0.148) - but a switch of
 * speeds is kept: between^2 = (0.0001 + 0.0004 + 0.6561 + 0.0001 +
 * 0.0004) / 10.
 */
static void test_estimate_two_speeds(void **state)
{
	double l[] = { 0, 0.01, -0.01, 0.8, 0.81, 0.79 };
	struct noise_obs o[6];
	struct noise_model m;

	(void)state;
	for (size_t i = 0; i < 6; i++)
		o[i] = (struct noise_obs){ 0, exp(l[i]), NAN, 3, 10.0 * (double)i };
	assert_int_equal(noise_estimate(o, 6, &m), 0);
	assert_int_equal(m.speeds, 2);
	assert_near(m.speed_lo, 1, 1e-12);
	assert_near(m.speed_hi, exp(0.8), 1e-12);
	assert_int_equal(m.speed_runs_lo, 3);
	assert_int_equal(m.speed_runs_hi, 3);
	assert_int_equal(m.cut, 0);
	assert_near(m.between, sqrt(0.6571 / 10), 1e-12);
	assert_near(m.gap_max, 10, 1e-12);
	assert_near(m.lo, -0.01, 1e-12);
	assert_near(m.hi, 0.81, 1e-12);
	/* one speed: 0.8 -> 0.08, a gap of 0.07 is below 10% */
	for (size_t i = 3; i < 6; i++)
		o[i].median = exp(l[i] / 10);
	assert_int_equal(noise_estimate(o, 6, &m), 0);
	assert_int_equal(m.speeds, 1);
}

/*
 * The noise at a gap: three runs within 20 s (logs 0, 0.01, 0), two an
 * hour later (0.1, 0.11). Neighbours are at most 3580 s apart. At a gap
 * of an hour the pairs at least 30 min apart are the 6 across: d =
 * .1 .11 .09 .1 .1 .11, s^2 = 0.0623 / 12, 5 runs: df 4. At a day,
 * none.
 */
static void test_noise_at_gap(void **state)
{
	struct noise_obs o[] = {
		{ 0, 1, NAN, 3, 0 }, { 0, exp(0.01), NAN, 3, 10 },
		{ 0, 1, NAN, 3, 20 }, { 0, exp(0.1), NAN, 3, 3600 },
		{ 0, exp(0.11), NAN, 3, 3610 },
	};
	struct noise_model m;
	double s, df;
	unsigned pairs;

	(void)state;
	assert_int_equal(noise_estimate(o, 5, &m), 0);
	assert_near(m.gap_max, 3580, 1e-9);
	assert_int_equal(noise_at_gap(o, 5, 3600, &s, &df, &pairs), 0);
	assert_int_equal(pairs, 6);
	assert_near(s, sqrt(0.0623 / 12), 1e-9);
	assert_near(df, 4, 1e-12);
	assert_int_equal(noise_at_gap(o, 5, 86400, &s, &df, &pairs), -1);
	assert_int_equal(pairs, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_estimate_successive_differences),
		cmocka_unit_test(test_estimate_cuts_and_groups),
		cmocka_unit_test(test_compare_runs_pooled_t),
		cmocka_unit_test(test_compare_one_run_a_side),
		cmocka_unit_test(test_compare_model_set_aside),
		cmocka_unit_test(test_mde_and_precision),
		cmocka_unit_test(test_compare_equivalence),
		cmocka_unit_test(test_huge),
		cmocka_unit_test(test_huge_too_short),
		cmocka_unit_test(test_estimate_two_speeds),
		cmocka_unit_test(test_noise_at_gap),
		cmocka_unit_test(test_plan_boots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
