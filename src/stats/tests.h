/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tests: is the difference between two sets of samples real, how large
 * is it, and does it matter. Pure functions over arrays of doubles (no
 * I/O, no global state; inputs never modified), like summary.h.
 *
 * a is always the baseline, b the candidate. Every function returns 0
 * with its result filled, or -1 (result untouched, nothing printed) when
 * the test is undefined for these samples; stats_test_why() says why in
 * words. Samples must be finite (stats_why() of summary.h).
 *
 * The tests (doc/statistics.md says which to trust and why):
 *  - Welch's t-test: difference of means, unequal variances, p from
 *    GSL's Student t distribution;
 *  - Mann-Whitney U (Wilcoxon rank-sum): exact p for small samples
 *    without ties, else the normal approximation with tie and continuity
 *    correction (the rule and arithmetic of R's wilcox.test());
 *  - a percentile bootstrap of the ratio b/a of the means or of the
 *    medians, from a fixed seed so that output is reproducible;
 *  - mmtests' band rule: mean +- 1.96 sd on each side, a change when the
 *    bands do not overlap;
 *  - lkp-tests' changed-stat rule: trimmed ranges that barely overlap
 *    and a ratio of means beyond a minimum.
 *
 * stats_compare() applies one of them to a metric with a direction and
 * gives the change in percent (mmtests' sign: positive is better), its
 * confidence interval and a verdict against a threshold.
 */
#ifndef SCHEDLAB_STATS_TESTS_H
#define SCHEDLAB_STATS_TESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metric.h"

struct welch {
	double t;	/* (mean_b - mean_a) / sqrt(va/na + vb/nb) */
	double df;	/* Welch-Satterthwaite */
	double p;	/* two-sided */
};

/* -1 when a side has fewer than 2 samples or neither side has spread. */
int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct welch *r);

/* Exact p below this many samples a side, when there are no ties (R's rule). */
#define MWU_EXACT_MAX 50

struct mwu {
	double u;	/* of a: rank sum of a - na(na+1)/2 (R's W) */
	double z;	/* normal approximation; NAN when exact */
	double p;	/* two-sided */
	bool exact;
};

/* -1 when a side is empty or every sample is the same value. */
int stats_mann_whitney(const double *a, size_t na, const double *b,
		       size_t nb, struct mwu *r);

enum boot_stat { BOOT_MEAN, BOOT_MEDIAN };

struct boot_ci {
	double ratio;	/* stat(b) / stat(a) of the samples themselves */
	double lo, hi;	/* percentile interval of the resampled ratios */
};

#define BOOT_RESAMPLES 2000
#define BOOT_SEED 0x5c4ed1abULL

/*
 * Resamples a and b (with replacement, each to its own size) nboot
 * times from seed and takes the (1 - conf) / 2 and (1 + conf) / 2 type 7
 * percentiles of stat(b*) / stat(a*). -1 when a side is empty, the
 * baseline's stat is 0 or a resampled one is (a ratio is undefined),
 * nboot < 2 or conf outside (0, 1).
 */
int stats_bootstrap_ratio(const double *a, size_t na, const double *b,
			  size_t nb, enum boot_stat stat, unsigned nboot,
			  double conf, uint64_t seed, struct boot_ci *r);

/*
 * mmtests' rule: *differ when [mean - 1.96 sd, mean + 1.96 sd] of a and
 * of b do not overlap, with the mean and sd that summarize() gives for
 * dir (Hmean and its sd for BETTER_HIGHER). -1 when either cannot be
 * summarised or a mean is NaN.
 */
int stats_bands_differ(const double *a, size_t na, const double *b,
		       size_t nb, enum better dir, bool *differ);

/* lkp-tests' minimum ratios: perf's counters, everything else. */
#define LKP_RATIO_PERF 1.01
#define LKP_RATIO 1.05

/*
 * lkp-tests' changed-stat rule: sort each side and trim min(n >> 5, 3)
 * samples from each end; at least one side needs 3 samples; the change
 * counts when the trimmed ranges barely overlap (min_b > median_a and
 * median_b > max_a, or max_b < median_a and median_b < min_a) and the
 * ratio of the means is beyond min_ratio (or below 1 / min_ratio).
 * -1 when a side is empty.
 */
int stats_lkp_changed(const double *a, size_t na, const double *b,
		      size_t nb, double min_ratio, bool *changed);

/*
 * The tests --test chooses from, one line each: X(ID, name). The enum,
 * stat_test_names[] and compare's --test choices are made from it; a new
 * test is a line here, its significance in tests_verdict.c and what its
 * sample sizes allow in tests.c (doc/architecture.md, "Adding a
 * statistic test").
 */
#define STAT_TEST_LIST(X)						\
	X(MWU, "mann-whitney")						\
	X(WELCH, "welch")						\
	X(BOOT_MEAN, "boot-mean")					\
	X(BOOT_MEDIAN, "boot-median")					\
	X(BANDS, "bands")						\
	X(LKP, "lkp")

#define STAT_TEST_ENUM_(id, name) TEST_##id,
enum stat_test { STAT_TEST_LIST(STAT_TEST_ENUM_) TEST_N };
#undef STAT_TEST_ENUM_
/* a test's name and a comma, for lists of the names made from it */
#define STAT_TEST_NAME_(id, name) name,
extern const char *const stat_test_names[];	/* NULL-terminated */
#define TEST_DEFAULT TEST_MWU

/* Whether a test is about medians (its change and interval are too). */
bool stat_test_medians(enum stat_test t);
/*
 * What stats_compare()'s change under test t is a ratio of: "median",
 * or "amean" - the arithmetic mean, also for a higher-is-better metric
 * whose summary row is the Hmean (summary.h).
 */
const char *stat_test_change_of(enum stat_test t);

/*
 * What a sample size allows. Some tests cannot call anything
 * significant below a size, whatever the data: Mann-Whitney's smallest
 * two-sided p without ties is 2 / C(na + nb, na) (every sample of one
 * side below every one of the other), 0.1 at 3 against 3 - so no run of
 * 3 iterations can show a change by it.
 *
 * stats_mwu_min_p: that smallest p for sizes na and nb (no ties): the
 * exact 2 / C(na + nb, na) where stats_mann_whitney() is exact (both
 * below MWU_EXACT_MAX), else the normal approximation's at U = 0 (with
 * the continuity correction); 1 when a side is empty.
 *
 * stats_can_reach: whether test t can be significant at alpha with na
 * and nb samples at all: Mann-Whitney when stats_mwu_min_p() < alpha;
 * Welch with 2 a side; lkp's rule with 3 on one side; the bootstraps and
 * mmtests' bands with 1 (a percentile interval of two separated sides
 * excludes 1 at any size - the small-sample undercoverage of
 * doc/statistics.md, not power). stats_compare() asks CMP_MIN_SAMPLES
 * a side besides.
 *
 * stats_min_samples: the smallest n, CMP_MIN_SAMPLES at least, with
 * stats_can_reach(t, n, n, alpha): 4 for Mann-Whitney at 0.05 (5 at
 * 0.01), CMP_MIN_SAMPLES for the others; 0 if none up to
 * STATS_MAX_SAMPLES_ASKED (an alpha of 0).
 *
 * stats_advised_samples: the smallest n a side, CMP_MIN_SAMPLES at
 * least, at which a significant result does not need a perfect
 * separation: for Mann-Whitney one pair out of order (U = 1) still
 * gives p < alpha (5 at 0.05); for the others stats_min_samples().
 */
#define STATS_MAX_SAMPLES_ASKED 1000
double stats_mwu_min_p(size_t na, size_t nb);
bool stats_can_reach(enum stat_test t, size_t na, size_t nb, double alpha);
size_t stats_min_samples(enum stat_test t, double alpha);
size_t stats_advised_samples(enum stat_test t, double alpha);

enum verdict { V_NO_CHANGE, V_IMPROVED, V_REGRESSED, V_INCONCLUSIVE };
extern const char *const verdict_names[];	/* "no change", ... */

struct cmp_opts {
	enum stat_test test;
	double alpha;		/* 0.05: p below it, 95% intervals */
	double threshold;	/* percent: the smallest change that matters */
	unsigned nboot;
	uint64_t seed;
	/*
	 * Which metrics get a table (compare --metrics): NULL or
	 * "headline" the headline only; else a comma-separated list of
	 * "headline", "all" (the workload's metrics) and globs.
	 */
	const char *metrics;
	/*
	 * The unit of replication between separate runs (compare --unit):
	 * true, the run (stats/noise.h); false, the iteration
	 * (stats_compare()), right only where the sides were interleaved.
	 * Runs made side by side (one A/B) are compared by iteration
	 * whatever it says.
	 */
	bool runs_unit;
};

#define CMP_MIN_SAMPLES 3
#define CMP_WHY_LEN 640

/*
 * Run-to-run noise: the sample standard deviation of the log of the
 * median of each of `runs` earlier runs of a case (stats_run_noise()).
 * Iterations of one run share the machine's state of the moment; on a
 * shared or drifting machine two runs differ by more than their
 * iterations suggest, and a test on iterations alone calls that a
 * change (bench/calibrate.sh measured it).
 */
struct run_noise {
	double sd_log;
	unsigned runs;
};

#define RUN_NOISE_MIN_RUNS 3

/* From the medians of runs earlier runs (>= RUN_NOISE_MIN_RUNS, all > 0); -1 otherwise. */
int stats_run_noise(const double *medians, size_t runs, struct run_noise *rn);

struct cmp_result {
	size_t na, nb;
	double change;		/* percent, positive is better; NAN if undefined */
	double lo, hi;		/* its interval; NAN if undefined */
	double p;		/* the test's p-value; NAN for rule-based tests */
	bool significant;	/* by the test (and the run noise), whatever the threshold */
	double noise_pct;	/* run-to-run noise used, 100 * sd_log; NAN: none */
	unsigned noise_runs;
	/* runs as the unit (stats/noise.h): the runs a side, 0 when the
	 * test was over iterations; the smallest change in percent those
	 * runs could show (NAN: not computed) and the runs a side that
	 * would show the threshold (0: more than NOISE_MAX_RUNS, or not
	 * computed) */
	unsigned runs_a, runs_b;
	double mde;
	unsigned runs_needed;
	/* the host's model was set aside: the runs compared spread more
	 * than it says (NOISE_MODEL_CHECK), their own spread used alone;
	 * model_pct the model's noise then (NAN: not set aside) */
	bool model_aside;
	double model_pct;
	/* runs as the unit: the smallest change X in percent that these
	 * runs rule out by equivalence (TOST at alpha: the 1 - 2 alpha
	 * interval within +-X), NAN when they rule out nothing; and the
	 * TOST's p at the threshold (NAN: not computed). A "no change"
	 * of the run-level test is rules_out < threshold. */
	double rules_out;
	double p_equiv;
	/* one run a side and no model, decided by noise_huge() */
	bool huge;
	enum verdict verdict;
	char why[CMP_WHY_LEN];	/* what decided the verdict, in words */
};

/*
 * Compares b against a for a metric with direction dir (BETTER_NONE is
 * treated as lower, as summary.h does). NaNs in a or b are skipped.
 * Never fails: what cannot be tested (too few samples, no spread, zeros
 * under a ratio) is V_INCONCLUSIVE with why set.
 *
 * The change is that of the test's statistic (mean, or median for
 * Mann-Whitney and the median bootstrap), in mmtests' sign: for lower is
 * better 100 - 100 * b/a, for higher is better 100 * b/a - 100. Its
 * interval is the bootstrap one of the same ratio at 1 - alpha.
 *
 * With rn (NULL: none known), the interval is widened by the difference
 * two runs show by themselves: in log scale each half-width becomes
 * sqrt(hw^2 + h^2) with h = t(1 - alpha/2, runs - 1) * sqrt(2) * sd_log,
 * and a change is significant only when the test says so and the
 * widened interval excludes no change.
 *
 * Verdict: significant and |change| >= threshold: improved or regressed;
 * significant and smaller: no change (below the threshold); not
 * significant and the interval within +-threshold: no change; not
 * significant and the interval reaching past it: inconclusive, why
 * saying what limited it, the first that applies of: too few samples
 * (the sizes cannot reach significance by this test at all:
 * stats_can_reach()); the noise between runs (without rn the verdict
 * would have been another); too noisy (the samples' own spread).
 */
void stats_compare(const double *a, size_t na, const double *b, size_t nb,
		   enum better dir, const struct cmp_opts *o,
		   const struct run_noise *rn, struct cmp_result *r);

/* The mean of x's n values and their sample variance (0 for one). */
void stats_mean_var(const double *x, size_t n, double *m, double *v);

#endif
