// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests_verdict: the verdict of a comparison (stats_compare(), tests.h):
 * the test that decides significance run on the finite values, the
 * bootstrap interval of the change widened by the run-to-run noise
 * (stats_run_noise()), and the change called better, worse or neither.
 * The reasoning behind the default is in doc/statistics.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/cdf.h"
#include "stats/summary.h"
#include "stats/tests.h"
#include "util.h"

/* A ratio b/a as mmtests' percentage: positive is better. */
static double pct_better(double ratio, enum better dir)
{
	return dir == BETTER_HIGHER ? 100 * ratio - 100 : 100 - 100 * ratio;
}

static bool all_same(const double *a, size_t na, const double *b, size_t nb)
{
	for (size_t i = 0; i < na; i++)
		if (a[i] != a[0])
			return false;
	for (size_t i = 0; i < nb; i++)
		if (b[i] != a[0])
			return false;
	return true;
}

/* Sets the significance by the chosen test; -1 with why when undefined. */
static int significance(const double *a, size_t na, const double *b,
			size_t nb, enum better dir, const struct cmp_opts *o,
			const struct boot_ci *ci, struct cmp_result *r)
{
	struct welch w;
	struct mwu u;

	switch (o->test) {
	case TEST_WELCH:
		if (stats_welch(a, na, b, nb, &w)) {
			snprintf(r->why, sizeof(r->why),
				 "no spread on either side: the t-test is undefined");
			return -1;
		}
		r->p = w.p;
		r->significant = w.p < o->alpha;
		return 0;
	case TEST_MWU:
		if (stats_mann_whitney(a, na, b, nb, &u)) {
			snprintf(r->why, sizeof(r->why), "every sample is tied");
			return -1;
		}
		r->p = u.p;
		r->significant = u.p < o->alpha;
		return 0;
	case TEST_BANDS:
		if (stats_bands_differ(a, na, b, nb, dir, &r->significant)) {
			snprintf(r->why, sizeof(r->why),
				 "the mean is undefined (a sample <= 0 under Hmean)");
			return -1;
		}
		return 0;
	case TEST_LKP:
		return stats_lkp_changed(a, na, b, nb, LKP_RATIO,
					 &r->significant);
	case TEST_BOOT_MEAN:
	case TEST_BOOT_MEDIAN:	/* the interval excludes a ratio of 1 */
		r->significant = ci->lo > 1 || ci->hi < 1;
		return 0;
	case TEST_N:
		break;
	}
	/* no default: a test added to STAT_TEST_LIST without its case here
	 * is a compiler warning (-Wswitch) */
	snprintf(r->why, sizeof(r->why), "no such test");
	return -1;
}

static enum verdict verdict_of(bool significant, double change, double lo,
			       double hi, double t)
{
	if (significant)
		return fabs(change) < t ? V_NO_CHANGE :
		       change > 0 ? V_IMPROVED : V_REGRESSED;
	return lo >= -t && hi <= t ? V_NO_CHANGE : V_INCONCLUSIVE;
}

/*
 * The verdict and why. plain: the verdict the samples alone gave, before
 * the run noise widened the interval (the same when there was none).
 */
static void decide(struct cmp_result *r, const struct cmp_opts *o,
		   enum verdict plain)
{
	const char *test = r->significant ? "significant" : "not significant";
	const char *name = stat_test_names[o->test];
	double t = o->threshold;
	bool noise = !isnan(r->noise_pct);
	size_t l;

	r->verdict = verdict_of(r->significant, r->change, r->lo, r->hi, t);
	if (r->verdict == V_IMPROVED || r->verdict == V_REGRESSED)
		snprintf(r->why, sizeof(r->why), "%s, beyond %g%%", test, t);
	else if (r->significant)
		snprintf(r->why, sizeof(r->why), "%s, within %g%%", test, t);
	else if (r->verdict == V_NO_CHANGE)
		snprintf(r->why, sizeof(r->why), "interval within +-%g%%", t);
	else if (!stats_can_reach(o->test, r->na, r->nb, o->alpha)) {
		snprintf(r->why, sizeof(r->why),
			 "too few samples: %s cannot reach p < %g with %zu and %zu (needs %zu a side)",
			 name, o->alpha, r->na, r->nb,
			 stats_min_samples(o->test, o->alpha));
		return;
	} else if (noise && plain != V_INCONCLUSIVE) {
		snprintf(r->why, sizeof(r->why),
			 "noise between runs %.1f%% (%u runs) widens the interval past +-%g%%",
			 r->noise_pct, r->noise_runs, t);
		return;
	} else {
		snprintf(r->why, sizeof(r->why),
			 "too noisy: interval reaches past +-%g%%", t);
	}
	l = strlen(r->why);
	if (noise)
		snprintf(r->why + l, sizeof(r->why) - l,
			 "; run noise %.1f%%, %u runs", r->noise_pct,
			 r->noise_runs);
}

int stats_run_noise(const double *medians, size_t runs, struct run_noise *rn)
{
	double *l, m, v;

	if (runs < RUN_NOISE_MIN_RUNS)
		return -1;
	for (size_t i = 0; i < runs; i++)
		if (!(medians[i] > 0) || !isfinite(medians[i]))
			return -1;
	l = xcalloc(runs, sizeof(*l));
	for (size_t i = 0; i < runs; i++)
		l[i] = log(medians[i]);
	stats_mean_var(l, runs, &m, &v);
	free(l);
	rn->sd_log = sqrt(v);
	rn->runs = (unsigned)runs;
	return 0;
}

/*
 * Widens the interval [lo, hi] of a ratio by the run-to-run noise, in
 * log scale (ratios of positive statistics: all > 0 here).
 */
static void widen(struct boot_ci *ci, const struct run_noise *rn, double alpha)
{
	double h = gsl_cdf_tdist_Pinv(1 - alpha / 2, rn->runs - 1) * M_SQRT2 *
		   rn->sd_log;
	double c = log(ci->ratio), a = c - log(ci->lo), b = log(ci->hi) - c;

	ci->lo = ci->ratio * exp(-sqrt(a * a + h * h));
	ci->hi = ci->ratio * exp(sqrt(b * b + h * h));
}

static void set_change(struct cmp_result *r, const struct boot_ci *ci,
		       enum better dir)
{
	r->change = pct_better(ci->ratio, dir);
	r->lo = fmin(pct_better(ci->lo, dir), pct_better(ci->hi, dir));
	r->hi = fmax(pct_better(ci->lo, dir), pct_better(ci->hi, dir));
}

/* The finite samples of x, in a new array. */
static double *finite_copy(const double *x, size_t n, size_t *out)
{
	double *f = xcalloc(n + 1, sizeof(*f));

	*out = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			f[(*out)++] = x[i];
	return f;
}

void stats_compare(const double *a0, size_t na0, const double *b0,
		   size_t nb0, enum better dir, const struct cmp_opts *o,
		   const struct run_noise *rn, struct cmp_result *r)
{
	enum boot_stat bs = stat_test_medians(o->test) ? BOOT_MEDIAN : BOOT_MEAN;
	size_t na, nb;
	double *a = finite_copy(a0, na0, &na), *b = finite_copy(b0, nb0, &nb);
	struct boot_ci ci;
	enum verdict plain;

	memset(r, 0, sizeof(*r));
	r->na = na;
	r->nb = nb;
	r->change = r->lo = r->hi = r->p = r->noise_pct = r->mde = NAN;
	r->rules_out = r->p_equiv = NAN;
	r->verdict = V_INCONCLUSIVE;
	if (na < CMP_MIN_SAMPLES || nb < CMP_MIN_SAMPLES) {
		snprintf(r->why, sizeof(r->why),
			 "too few samples (%zu and %zu; %d a side needed)",
			 na, nb, CMP_MIN_SAMPLES);
		goto out;
	}
	if (all_same(a, na, b, nb)) {
		r->change = r->lo = r->hi = 0;
		r->verdict = V_NO_CHANGE;
		snprintf(r->why, sizeof(r->why), "every sample is the same value");
		goto out;
	}
	if (stats_bootstrap_ratio(a, na, b, nb, bs, o->nboot, 1 - o->alpha,
				  o->seed, &ci)) {
		snprintf(r->why, sizeof(r->why),
			 "the ratio is undefined (a %s of 0)",
			 bs == BOOT_MEDIAN ? "median" : "mean");
		goto out;
	}
	set_change(r, &ci, dir);
	if (significance(a, na, b, nb, dir, o, &ci, r))
		goto out;
	plain = verdict_of(r->significant, r->change, r->lo, r->hi,
			   o->threshold);
	if (rn && ci.ratio > 0 && ci.lo > 0) {
		widen(&ci, rn, o->alpha);
		set_change(r, &ci, dir);
		r->significant = r->significant && (ci.lo > 1 || ci.hi < 1);
		r->noise_pct = 100 * rn->sd_log;
		r->noise_runs = rn->runs;
	}
	decide(r, o, plain);
out:
	free(a);
	free(b);
}
