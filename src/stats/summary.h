/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * summary: the statistics that summarise one metric's samples, as
 * mmtests prints them (Min, Amean or Hmean, Stddev, CoeffVar, Max,
 * BAmean-95, Pctile-X), plus a median and a conventional interpolated
 * percentile for latencies. Pure functions over an array of n doubles:
 * no I/O, no global state, the input is never modified (sorting works
 * on a copy).
 *
 * Every function returns 0 and writes its result to *out, or returns -1
 * without printing and leaves *out alone when the sample set cannot be
 * summarised: n == 0, x == NULL, a sample that is NaN or infinite (a
 * broken measurement, never data), or a percentage out of range. The
 * caller knows which metric it was and says why once; stats_why() gives
 * the reason in words.
 *
 * A value that is undefined for valid samples is returned as NAN with
 * 0, not as an error: hmean, gmean and the hmean stddev when a sample
 * is <= 0, and coeffvar when the mean is 0 but the spread is not.
 *
 * Directions: "best" means smallest for BETTER_LOWER and largest for
 * BETTER_HIGHER. BETTER_NONE is treated as BETTER_LOWER, which is also
 * mmtests' default when a metric names no preference.
 */
#ifndef SCHEDLAB_SUMMARY_H
#define SCHEDLAB_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "metric.h"

/*
 * What summarize() fills; the rows of an mmtests summary table. mean is
 * mmtests' choice for the direction: the arithmetic mean for
 * BETTER_LOWER and BETTER_NONE (times), the harmonic mean for
 * BETTER_HIGHER (rates, whose harmonic mean is the rate of the mean
 * time). stddev is the one that belongs to that mean (stats_stddev() or
 * stats_stddev_hmean()), coeffvar = stats_cov(stddev, mean).
 */
struct summary {
	size_t n;
	double min;
	double max;
	double mean;		/* Amean, or Hmean for BETTER_HIGHER */
	double stddev;
	double coeffvar;	/* percent */
	double bamean95;	/* stats_bamean(.., 95, ..) */
	double median;
	bool hmean;		/* mean and stddev are the Hmean ones */
};

/*
 * Sorts x[0..n) (no NaN) ascending in place: by insertion for the few
 * samples of a case, where qsort()'s calls through a comparison
 * function cost more than the sort, else by qsort().
 */
void stats_sort(double *x, size_t n);

/* NULL when x[0..n) can be summarised, else why not ("no samples"...). */
const char *stats_why(const double *x, size_t n);

int stats_min(const double *x, size_t n, double *out);
int stats_max(const double *x, size_t n, double *out);

/* Arithmetic mean: sum(x) / n. */
int stats_amean(const double *x, size_t n, double *out);
/* Harmonic mean: n / sum(1/x). NAN if any sample is <= 0. */
int stats_hmean(const double *x, size_t n, double *out);
/* Geometric mean: exp(sum(log x) / n). NAN if any sample is <= 0. */
int stats_gmean(const double *x, size_t n, double *out);
/*
 * mmtests' Gmean ratio (compare-kernels --print-ratio): the geometric
 * mean of cand[i] / base[i] over the pairs where both are finite and
 * positive. -1 (and NAN) when there is no such pair.
 */
int stats_gmean_ratio(const double *base, const double *cand, size_t n,
		      double *out);
/* The middle sample, or the mean of the two middle ones for even n. */
int stats_median(const double *x, size_t n, double *out);

/* Sample standard deviation, divisor n - 1, around the amean; 0 for n == 1. */
int stats_stddev(const double *x, size_t n, double *out);
/*
 * Standard error of the mean: stats_stddev() / sqrt(n), what perf stat
 * --repeat prints after "+-". 0 for n == 1.
 */
int stats_sem(const double *x, size_t n, double *out);
/*
 * mmtests' Stddev row under an Hmean, with H the harmonic mean:
 *
 *	sqrt(sum((1/x_i - 1/H)^2) * H^4 / n)
 *
 * The harmonic mean is the arithmetic mean of the reciprocals y = 1/x
 * turned back into x's units (H = 1/mean(y)). This is the population
 * standard deviation of the y_i (divisor n, not n - 1) carried back to
 * x's units by the first-order (delta-method) rule |dx/dy| = 1/y^2 = H^2
 * at y = 1/H. It is a spread of the samples around H, comparable to
 * stats_stddev() for an amean - not the standard error of H (that would
 * divide by n once more) and not the sample stddev of x. 0 for n == 1;
 * NAN if any sample is <= 0.
 */
int stats_stddev_hmean(const double *x, size_t n, double *out);

/* Population standard deviation, divisor n, around the amean; 0 for n == 1. */
int stats_pstddev(const double *x, size_t n, double *out);
/*
 * lkp-tests' "+- 8%" beside a mean: stats_pstddev() as a percentage of
 * the magnitude of the amean, 100 * psd / |mean|; NAN when the mean is 0.
 */
int stats_pstddev_pct(const double *x, size_t n, double *out);

/*
 * Changes between two values base and new, in percent, NAN when base is
 * 0 (unless both are: then 0) or either is NAN.
 * stats_pct_diff: lkp-tests' %change, the sign that of the value's
 * move: 100 * (new - base) / |base|.
 * stats_pct_better: mmtests' percentage, positive is better: for
 * BETTER_HIGHER new/base*100 - 100, else 100 - new/base*100.
 */
double stats_pct_diff(double base, double new);
double stats_pct_better(double base, double new, enum better dir);

/*
 * Coefficient of variation in percent, 100 * sd / mean. 0 when sd is 0
 * (no spread, whatever the mean: a counter that is always 0); NAN when
 * either is NAN, or the mean is 0 and sd is not. The sign follows the
 * mean.
 */
double stats_cov(double sd, double mean);
/* stats_cov() of the mean and stddev that summarize() uses for dir. */
int stats_coeffvar(const double *x, size_t n, enum better dir, double *out);

/*
 * The smallest change of the mean, in percent, that two samples of n
 * each, of coefficient of variation cov_pct, show with a two-sided test
 * at 5% and 80% power: (t(0.975, 2n-2) + t(0.80, 2n-2)) x cov x
 * sqrt(2/n), the usual two-sample approximation (Cohen 1988, ch. 2).
 * It holds for samples side by side in one boot; separate runs also
 * differ by their own offsets (doc/statistics.md). NAN when n < 2 or
 * cov_pct is not finite.
 */
double stats_mde_pct(double cov_pct, size_t n);

/*
 * mmtests' BAmean-X: the arithmetic mean of the best k samples, with
 * k = int(n * pct / 100) and best as set by dir. When k is 0 (few
 * samples or a small pct) the best single sample is used (k = 1), as
 * mmtests does; pct == 100 is the amean of all. pct in [0, 100].
 * (mmtests prints BHmean-X, the harmonic mean of the best, for
 * higher-is-better metrics; this is always the arithmetic one.)
 */
int stats_bamean(const double *x, size_t n, enum better dir, double pct,
		 double *out);

/*
 * mmtests' Pctile-X: sorted_best_first[k - 1] with k = int(n * pct / 100),
 * k raised to 1 when it is 0 (as mmtests does), so it is always one of
 * the samples. Best-first means ascending for BETTER_LOWER, descending
 * for BETTER_HIGHER: Pctile-90 is the value that about 90% of the
 * samples reach or beat, so for a throughput it is a low one. pct in
 * [0, 100]; 100 is the worst sample.
 */
int stats_pctile_best(const double *x, size_t n, enum better dir, double pct,
		      double *out);

/*
 * Conventional percentile by linear interpolation between order
 * statistics: Hyndman & Fan type 7, the default of numpy.percentile, R's
 * quantile() and Excel's PERCENTILE.INC. With a[] ascending and
 * h = (n - 1) * pct / 100:
 *
 *	a[floor(h)] + (h - floor(h)) * (a[floor(h) + 1] - a[floor(h)])
 *
 * Ordered by value, not by direction: 99 is the high tail (latency p99),
 * 0 the min, 50 the median, 100 the max. pct in [0, 100].
 */
int stats_percentile(const double *x, size_t n, double pct, double *out);
/*
 * The same over an array already ascending, with n > 0 and pct in
 * [0, 100] (unchecked), for callers that take several percentiles of
 * one sorted set.
 */
double stats_percentile_sorted(const double *asc, size_t n, double pct);
/*
 * The same value as stats_percentile_sorted() would give once a[] were
 * sorted, found by selection in O(n) instead: a[] is reordered (not
 * sorted). n > 0, pct in [0, 100], no NaN (unchecked).
 */
double stats_percentile_select(double *a, size_t n, double pct);

/*
 * Outliers by Iglewicz and Hoaglin's modified Z-score (the rule
 * hyperfine applies to its runs):
 *
 *	z = 0.6745 * (v - median) / MAD,  MAD = median(|x_i - median|)
 *
 * 0.6745 is the normal distribution's 0.75 quantile, which makes MAD /
 * 0.6745 estimate the standard deviation of normal samples; |z| >
 * OUTLIER_Z (3.5) is an outlier. Unlike a z-score from the mean and
 * standard deviation, the outliers themselves barely move the median
 * and MAD, so one absurd value cannot hide itself.
 *
 * stats_median_mad: the median and MAD of x[0..n).
 * stats_modified_z: z of v against the samples x[0..n) (v need not be
 * one of them). -1 (z untouched) for what stats_why() refuses, or a
 * MAD of 0 - more than half the samples the same value, where the rule
 * says nothing.
 */
#define OUTLIER_Z 3.5
#define MODIFIED_Z_K 0.6745
int stats_median_mad(const double *x, size_t n, double *median, double *mad);
int stats_modified_z(const double *x, size_t n, double v, double *z);

/*
 * Fills s from one sorted copy of x. Returns -1 (s untouched) for
 * what stats_why() refuses. For BETTER_HIGHER with a sample <= 0, mean,
 * stddev and coeffvar are NAN and the rest is filled (returns 0).
 */
int summarize(const double *x, size_t n, enum better dir, struct summary *s);

#endif
