// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary: mmtests' summary statistics over one metric's samples. See
 * summary.h for what each one means and its edge cases; this file keeps
 * the arithmetic. The public functions validate and then call the
 * unchecked helpers below, so summarize() validates and sorts once.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "stats/cdf.h"
#include "stats/summary.h"
#include "util.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Below this many values an insertion sort beats qsort(). */
#define SORT_INSERTION_MAX 48

void stats_sort(double *x, size_t n)
{
	if (n > SORT_INSERTION_MAX) {
		qsort(x, n, sizeof(*x), cmp_double);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		double v = x[i];
		size_t j = i;

		for (; j > 0 && x[j - 1] > v; j--)
			x[j] = x[j - 1];
		x[j] = v;
	}
}

/* An ascending copy; the caller frees it. x holds no NaN (checked). */
static double *sorted_copy(const double *x, size_t n)
{
	double *a = xcalloc(n, sizeof(*a));

	memcpy(a, x, n * sizeof(*a));
	stats_sort(a, n);
	return a;
}

static int pct_ok(double pct)
{
	return pct >= 0 && pct <= 100;	/* false for NaN too */
}

/*
 * mmtests' count of "the best pct%": int(n * pct / 100), evaluated in
 * the same order as its Perl so that e.g. 20 * 95 / 100 is exactly 19,
 * then raised to 1 when it is 0.
 */
static size_t best_count(size_t n, double pct)
{
	size_t k = (size_t)((double)n * pct / 100.0);

	if (k < 1)
		k = 1;
	return k > n ? n : k;
}

/* The i-th best (0: the best) of an ascending array. */
static double nth_best(const double *asc, size_t n, enum better dir, size_t i)
{
	return dir == BETTER_HIGHER ? asc[n - 1 - i] : asc[i];
}

static double amean_of(const double *x, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

static int all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return 0;
	return 1;
}

static double hmean_of(const double *x, size_t n)
{
	double sum = 0;

	if (!all_positive(x, n))
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += 1 / x[i];
	return (double)n / sum;
}

static double stddev_of(const double *x, size_t n)
{
	double mean, sq = 0;

	if (n < 2)
		return 0;
	mean = amean_of(x, n);
	for (size_t i = 0; i < n; i++)
		sq += (x[i] - mean) * (x[i] - mean);
	return sqrt(sq / (double)(n - 1));
}

/* sqrt(sum((1/x - 1/H)^2) * H^4 / n), written as sd(1/x) * H^2. */
static double stddev_hmean_of(const double *x, size_t n)
{
	double ybar = 0, sq = 0, h;

	if (!all_positive(x, n))
		return NAN;
	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		ybar += 1 / x[i];
	ybar /= (double)n;
	h = 1 / ybar;
	for (size_t i = 0; i < n; i++)
		sq += (1 / x[i] - ybar) * (1 / x[i] - ybar);
	return sqrt(sq / (double)n) * h * h;
}

static double median_sorted(const double *a, size_t n)
{
	if (n % 2)
		return a[n / 2];
	return (a[n / 2 - 1] + a[n / 2]) / 2;
}

static double bamean_sorted(const double *a, size_t n, enum better dir,
			    double pct)
{
	size_t k = best_count(n, pct);
	double sum = 0;

	for (size_t i = 0; i < k; i++)
		sum += nth_best(a, n, dir, i);
	return sum / (double)k;
}

double stats_percentile_sorted(const double *a, size_t n, double pct)
{
	double h = (double)(n - 1) * pct / 100.0;
	size_t lo = (size_t)floor(h);

	if (lo >= n - 1)
		return a[n - 1];
	return a[lo] + (h - (double)lo) * (a[lo + 1] - a[lo]);
}

/* Puts the k-th smallest of a[0..n) at a[k], the smaller before it. */
static void select_kth(double *a, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (hi > lo) {
		ptrdiff_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
		double p, t;

		/* median of three as the pivot */
		if (a[mid] < a[lo]) { t = a[mid]; a[mid] = a[lo]; a[lo] = t; }
		if (a[hi] < a[lo]) { t = a[hi]; a[hi] = a[lo]; a[lo] = t; }
		if (a[hi] < a[mid]) { t = a[hi]; a[hi] = a[mid]; a[mid] = t; }
		p = a[mid];
		while (i <= j) {	/* Hoare: a[lo..j] <= p <= a[i..hi] */
			while (a[i] < p)
				i++;
			while (a[j] > p)
				j--;
			if (i <= j) {
				t = a[i]; a[i] = a[j]; a[j] = t;
				i++;
				j--;
			}
		}
		if (kk <= j)
			hi = j;
		else if (kk >= i)
			lo = i;
		else
			return;		/* between: equal to the pivot */
	}
}

double stats_percentile_select(double *a, size_t n, double pct)
{
	double h = (double)(n - 1) * pct / 100.0, next;
	size_t lo = (size_t)floor(h);

	if (lo >= n - 1)
		lo = n - 1;
	select_kth(a, n, lo);
	if (lo == n - 1)
		return a[lo];
	next = a[lo + 1];
	for (size_t i = lo + 2; i < n; i++)	/* the least of the rest */
		if (a[i] < next)
			next = a[i];
	return a[lo] + (h - (double)lo) * (next - a[lo]);
}

const char *stats_why(const double *x, size_t n)
{
	if (n == 0)
		return "no samples";
	if (!x)
		return "no sample array";
	for (size_t i = 0; i < n; i++) {
		if (isnan(x[i]))
			return "a sample is NaN";
		if (isinf(x[i]))
			return "a sample is infinite";
	}
	return NULL;
}

#define CHECK(x, n)				\
	do {					\
		if (stats_why(x, n))		\
			return -1;		\
	} while (0)

int stats_min(const double *x, size_t n, double *out)
{
	double m;

	CHECK(x, n);
	m = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	*out = m;
	return 0;
}

int stats_max(const double *x, size_t n, double *out)
{
	double m;

	CHECK(x, n);
	m = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	*out = m;
	return 0;
}

int stats_amean(const double *x, size_t n, double *out)
{
	CHECK(x, n);
	*out = amean_of(x, n);
	return 0;
}

int stats_hmean(const double *x, size_t n, double *out)
{
	CHECK(x, n);
	*out = hmean_of(x, n);
	return 0;
}

int stats_gmean(const double *x, size_t n, double *out)
{
	double sum = 0;

	CHECK(x, n);
	if (!all_positive(x, n)) {
		*out = NAN;
		return 0;
	}
	/* logs, not a product: 100 samples of 1e9 would overflow */
	for (size_t i = 0; i < n; i++)
		sum += log(x[i]);
	*out = exp(sum / (double)n);
	return 0;
}

int stats_gmean_ratio(const double *base, const double *cand, size_t n,
		      double *out)
{
	double sum = 0;
	size_t used = 0;

	*out = NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(isfinite(base[i]) && isfinite(cand[i]) && base[i] > 0 &&
		      cand[i] > 0))
			continue;
		sum += log(cand[i] / base[i]);
		used++;
	}
	if (!used)
		return -1;
	*out = exp(sum / (double)used);
	return 0;
}

int stats_median(const double *x, size_t n, double *out)
{
	double *a;

	CHECK(x, n);
	a = sorted_copy(x, n);
	*out = median_sorted(a, n);
	free(a);
	return 0;
}

int stats_median_mad(const double *x, size_t n, double *median, double *mad)
{
	double *a, m;

	CHECK(x, n);
	a = sorted_copy(x, n);
	m = median_sorted(a, n);
	for (size_t i = 0; i < n; i++)
		a[i] = fabs(x[i] - m);
	stats_sort(a, n);
	*mad = median_sorted(a, n);
	*median = m;
	free(a);
	return 0;
}

int stats_modified_z(const double *x, size_t n, double v, double *z)
{
	double m, mad;

	if (stats_median_mad(x, n, &m, &mad) || !(mad > 0) || !isfinite(v))
		return -1;
	*z = MODIFIED_Z_K * (v - m) / mad;
	return 0;
}

int stats_stddev(const double *x, size_t n, double *out)
{
	CHECK(x, n);
	*out = stddev_of(x, n);
	return 0;
}

int stats_sem(const double *x, size_t n, double *out)
{
	CHECK(x, n);
	*out = stddev_of(x, n) / sqrt((double)n);
	return 0;
}

int stats_stddev_hmean(const double *x, size_t n, double *out)
{
	CHECK(x, n);
	*out = stddev_hmean_of(x, n);
	return 0;
}

int stats_pstddev(const double *x, size_t n, double *out)
{
	double mean, sq = 0;

	CHECK(x, n);
	mean = amean_of(x, n);
	for (size_t i = 0; i < n; i++)
		sq += (x[i] - mean) * (x[i] - mean);
	*out = sqrt(sq / (double)n);
	return 0;
}

int stats_pstddev_pct(const double *x, size_t n, double *out)
{
	double mean, sd;

	if (stats_pstddev(x, n, &sd))
		return -1;
	mean = amean_of(x, n);
	*out = mean != 0 ? 100 * sd / fabs(mean) : NAN;
	return 0;
}

int stats_coeffvar(const double *x, size_t n, enum better dir, double *out)
{
	CHECK(x, n);
	if (dir == BETTER_HIGHER)
		*out = stats_cov(stddev_hmean_of(x, n), hmean_of(x, n));
	else
		*out = stats_cov(stddev_of(x, n), amean_of(x, n));
	return 0;
}

int stats_bamean(const double *x, size_t n, enum better dir, double pct,
		 double *out)
{
	double *a;

	CHECK(x, n);
	if (!pct_ok(pct))
		return -1;
	a = sorted_copy(x, n);
	*out = bamean_sorted(a, n, dir, pct);
	free(a);
	return 0;
}

int stats_pctile_best(const double *x, size_t n, enum better dir, double pct,
		      double *out)
{
	double *a;

	CHECK(x, n);
	if (!pct_ok(pct))
		return -1;
	a = sorted_copy(x, n);
	*out = nth_best(a, n, dir, best_count(n, pct) - 1);
	free(a);
	return 0;
}

int stats_percentile(const double *x, size_t n, double pct, double *out)
{
	double *a;

	CHECK(x, n);
	if (!pct_ok(pct))
		return -1;
	a = sorted_copy(x, n);
	*out = stats_percentile_sorted(a, n, pct);
	free(a);
	return 0;
}

int summarize(const double *x, size_t n, enum better dir, struct summary *s)
{
	double *a;

	CHECK(x, n);
	a = sorted_copy(x, n);
	s->n = n;
	s->min = a[0];
	s->max = a[n - 1];
	s->hmean = dir == BETTER_HIGHER;
	if (s->hmean) {
		s->mean = hmean_of(a, n);
		s->stddev = stddev_hmean_of(a, n);
	} else {
		s->mean = amean_of(a, n);
		s->stddev = stddev_of(a, n);
	}
	s->coeffvar = stats_cov(s->stddev, s->mean);
	s->bamean95 = bamean_sorted(a, n, dir, 95);
	s->median = median_sorted(a, n);
	free(a);
	return 0;
}
