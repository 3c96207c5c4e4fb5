// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run as the unit of replication: a host's noise model of a case
 * from its stored runs, the test between sides of runs, and the
 * planner's arithmetic (noise.h says what each computes; the reasons
 * and references are in doc/statistics.md, "Runs as replicates").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/cdf.h"
#include "stats/noise.h"
#include "stats/summary.h"
#include "util.h"

/* median |d| of N(0, 2 s^2) differences is 0.6745 sqrt(2) s */
#define MAD_TO_SD (MODIFIED_Z_K * M_SQRT2)
/*
 * The variance of a median of n against that of one value, n large and
 * the values normal: pi/2 (the iterations' part of a run's median).
 */
#define MEDIAN_VAR (M_PI / 2)

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Two speeds among the logs y[0..n) (sorted here): the split with the
 * largest gap against the pooled sd of its two sides. Whether there are
 * two; *sep that gap in sds, *lo and *hi the sides' medians (logs).
 */
static bool two_speeds(double *y, size_t n, double *sep, double *lo,
		       double *hi, unsigned *nlo, unsigned *nhi)
{
	bool found = false;

	*sep = 0;
	if (n < 2 * NOISE_SPEED_MIN_RUNS)
		return false;
	qsort(y, n, sizeof(*y), cmp_double);
	for (size_t k = NOISE_SPEED_MIN_RUNS; k + NOISE_SPEED_MIN_RUNS <= n; k++) {
		double ma = 0, mb = 0, ss = 0, sd, gap = y[k] - y[k - 1], z;

		for (size_t i = 0; i < k; i++)
			ma += y[i] / (double)k;
		for (size_t i = k; i < n; i++)
			mb += y[i] / (double)(n - k);
		for (size_t i = 0; i < n; i++)
			ss += (y[i] - (i < k ? ma : mb)) * (y[i] - (i < k ? ma : mb));
		sd = n > 2 ? sqrt(ss / (double)(n - 2)) : 0;
		z = sd > 0 ? gap / sd : INFINITY;
		if (gap < log(NOISE_SPEED_MIN_RATIO) || z < NOISE_SPEED_SEP ||
		    (found && z <= *sep))
			continue;
		found = true;
		*sep = z;
		stats_median(y, k, lo);
		stats_median(y + k, n - k, hi);
		*nlo = (unsigned)k;
		*nhi = (unsigned)(n - k);
	}
	return found;
}

/* Two speeds in any group of o: the group with the clearest split. */
static void find_speeds(const struct noise_obs *o, size_t n, struct noise_model *m)
{
	double *y = xcalloc(n + 1, sizeof(*y)), best = 0;

	m->speeds = 1;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		double sep, lo, hi;
		unsigned nlo, nhi;
		bool first = true;

		for (size_t p = 0; p < i && first; p++)
			first = o[p].group != o[i].group;
		if (!first)
			continue;	/* the group was looked at */
		for (size_t p = i; p < n; p++)
			if (o[p].group == o[i].group && o[p].median > 0)
				y[k++] = log(o[p].median);
		if (two_speeds(y, k, &sep, &lo, &hi, &nlo, &nhi) && sep > best) {
			best = sep;
			m->speeds = 2;
			m->speed_lo = exp(lo);
			m->speed_hi = exp(hi);
			m->speed_runs_lo = nlo;
			m->speed_runs_hi = nhi;
		}
	}
	free(y);
}

int noise_at_gap(const struct noise_obs *o, size_t n, double gap, double *s,
		 double *df, unsigned *pairs)
{
	double ss = 0;
	unsigned k = 0;
	bool *used = xcalloc(n + 1, sizeof(*used));
	size_t runs = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double d;

			if (o[i].group != o[j].group || !(o[i].median > 0) ||
			    !(o[j].median > 0) || !(fabs(o[j].t - o[i].t) >= gap / 2))
				continue;
			d = log(o[j].median) - log(o[i].median);
			ss += d * d;
			k++;
			runs += !used[i] + !used[j];
			used[i] = used[j] = true;
		}
	free(used);
	*pairs = k;
	if (k < NOISE_MIN_PAIRS)
		return -1;
	*s = sqrt(ss / (2.0 * k));
	*df = fmax(1, (double)runs - 1);
	return 0;
}

int noise_estimate(const struct noise_obs *o, size_t n, struct noise_model *m)
{
	double *d = xcalloc(n + 1, sizeof(*d)), *ad = xcalloc(n + 1, sizeof(*ad));
	double *cv = xcalloc(n + 1, sizeof(*cv)), *it = xcalloc(n + 1, sizeof(*it));
	size_t nd = 0, ncv = 0, nit = 0;
	double s0, ss = 0, w2;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	m->between = m->offset = m->within = m->iters = m->gap_max = NAN;
	m->lo = INFINITY;
	m->hi = -INFINITY;
	find_speeds(o, n, m);
	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		if (!(o[i].median > 0))
			continue;
		m->runs++;
		m->lo = fmin(m->lo, log(o[i].median));
		m->hi = fmax(m->hi, log(o[i].median));
		for (size_t k = 0; k < i && !seen; k++)
			seen = o[k].group == o[i].group && o[k].median > 0;
		m->groups += !seen;
		if (isfinite(o[i].cv))
			cv[ncv++] = o[i].cv;
		it[nit++] = (double)o[i].n;
		/* the previous run of its group */
		for (size_t k = i; k-- > 0;)
			if (o[k].group == o[i].group && o[k].median > 0) {
				d[nd] = log(o[i].median) - log(o[k].median);
				ad[nd] = fabs(d[nd]);
				if (isfinite(o[i].t) && isfinite(o[k].t))
					m->gap_max = fmax(isnan(m->gap_max) ? 0 : m->gap_max,
							  fabs(o[i].t - o[k].t));
				nd++;
				break;
			}
	}
	if (ncv)
		stats_median(cv, ncv, &m->within);
	if (nit)
		stats_median(it, nit, &m->iters);
	m->pairs = (unsigned)nd;
	if (nd < NOISE_MIN_PAIRS)
		goto out;
	stats_median(ad, nd, &s0);
	s0 /= MAD_TO_SD;
	{
		size_t kept = 0;

		for (size_t i = 0; i < nd; i++) {
			/* a switch between two speeds is the host's noise,
			 * not an absurd value: kept */
			if (m->speeds < 2 && s0 > 0 &&
			    ad[i] > NOISE_CUT_Z * M_SQRT2 * s0) {
				m->cut++;
				continue;
			}
			ss += d[i] * d[i];
			kept++;
		}
		m->between = sqrt(ss / (2.0 * (double)kept));
		m->df = fmax(1, 2.0 * (double)kept / 3);
	}
	/* what the iterations' spread adds to a median of iters of them */
	w2 = isfinite(m->within) && m->iters > 0 ?
	     MEDIAN_VAR * m->within * m->within / m->iters : 0;
	m->offset = sqrt(fmax(0, m->between * m->between - w2));
	rc = 0;
out:
	free(d);
	free(ad);
	free(cv);
	free(it);
	return rc;
}

double noise_run_sd(const struct noise_model *m, double iters)
{
	double b2 = m->between * m->between, o2 = m->offset * m->offset;

	if (!(iters > 0) || !(m->iters > 0))
		return m->between;
	return sqrt(o2 + (b2 - o2) * m->iters / iters);
}

double noise_median_precision(double cv, double n)
{
	return isfinite(cv) && n > 0 ? sqrt(MEDIAN_VAR) * cv / sqrt(n) : NAN;
}

bool noise_iterations_enough(const struct noise_model *m, double cv, double n)
{
	double p = noise_median_precision(cv, n);

	return m && m->offset > 0 && isfinite(p) && p <= m->offset;
}

double noise_robust_cv(const double *x, size_t n)
{
	double med, mad, sd;

	if (n < 3 || stats_median_mad(x, n, &med, &mad) || !(med > 0))
		return NAN;
	if (mad > 0)
		return 1.4826 * mad / med;
	return stats_stddev(x, n, &sd) ? NAN : sd / med;
}

double noise_mde(double s, double df, size_t ra, size_t rb, double alpha)
{
	double k;

	if (df < 1 || !ra || !rb || !isfinite(s))
		return NAN;
	k = gsl_cdf_tdist_Pinv(1 - alpha / 2, df) +
	    gsl_cdf_tdist_Pinv(NOISE_POWER, df);
	return 100 * expm1(k * s * sqrt(1.0 / (double)ra + 1.0 / (double)rb));
}

unsigned noise_runs_needed(double s, double df0, double effect, double alpha)
{
	for (unsigned r = 1; r <= NOISE_MAX_RUNS; r++) {
		double mde = noise_mde(s, df0 + 2.0 * r - 2, r, r, alpha);

		if (isfinite(mde) && mde <= effect)
			return r;
	}
	return 0;
}

double noise_rules_out(double diff, double se, double df, double alpha)
{
	double q, lo, hi;

	if (df < 1 || !isfinite(se) || se < 0 || !isfinite(diff))
		return NAN;
	q = se > 0 ? gsl_cdf_tdist_Pinv(1 - alpha, df) : 0;
	lo = diff - q * se;
	hi = diff + q * se;
	return 100 * fmax(expm1(hi), -expm1(lo));
}

unsigned noise_runs_equivalence(double s, double df0, double margin,
				double alpha)
{
	double u = log1p(margin / 100);

	if (!(s >= 0) || !(margin > 0))
		return 0;
	for (unsigned r = 1; r <= NOISE_MAX_RUNS; r++) {
		double df = df0 + 2.0 * r - 2, k;

		if (df < 1)
			continue;
		k = gsl_cdf_tdist_Pinv(1 - alpha, df) +
		    gsl_cdf_tdist_Pinv(1 - (1 - NOISE_POWER) / 2, df);
		if (k * s * sqrt(2.0 / r) <= u)
			return r;
	}
	return 0;
}

void noise_plan_boots(const struct noise_model *m, double iters, double effect,
		      double alpha, unsigned looks, struct noise_boot_plan *p)
{
	double a = alpha / (looks ? looks : 1), sd = noise_run_sd(m, iters);

	memset(p, 0, sizeof(*p));
	if (!isfinite(sd))
		return;
	p->detect = noise_runs_needed(sd, m->df, effect, a);
	p->no_change = noise_runs_equivalence(sd, m->df, effect, a);
	if (p->detect && p->no_change)
		p->boots = p->detect > p->no_change ? p->detect : p->no_change;
}

static double pct_better(double ratio, enum better dir)
{
	return dir == BETTER_HIGHER ? 100 * ratio - 100 : 100 - 100 * ratio;
}

/* The logs of the positive medians of x[0..n) into out; how many. */
static size_t logs(const double *x, size_t n, double *out, double *mean)
{
	size_t k = 0;
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		if (x[i] > 0 && isfinite(x[i])) {
			out[k] = log(x[i]);
			sum += out[k++];
		}
	*mean = k ? sum / (double)k : NAN;
	return k;
}

/* The why of an inconclusive answer: what the runs could show, and what would. */
static void why_short(struct cmp_result *r, double s, double thr)
{
	char would[96];

	if (r->runs_needed)
		snprintf(would, sizeof(would), "%u runs a side would", r->runs_needed);
	else
		snprintf(would, sizeof(would), "more than %d runs a side would be needed",
			 NOISE_MAX_RUNS);
	if (r->runs_a == 1 && r->runs_b == 1)
		snprintf(r->why, sizeof(r->why),
			 "one run a side cannot tell %g%% from this host's run-to-run noise of %.1f%% (it could show %.0f%%); %s",
			 thr, 100 * s, r->mde, would);
	else
		snprintf(r->why, sizeof(r->why),
			 "%u and %u runs cannot tell %g%% from run-to-run noise of %.1f%% (they could show %.0f%%); %s",
			 r->runs_a, r->runs_b, thr, 100 * s, r->mde, would);
}

/* The interval, p-value and TOST of a difference diff of the logs with
 * standard error se on df degrees of freedom. */
static void test_diff(struct cmp_result *r, double diff, double se, double df,
		      enum better dir, const struct cmp_opts *o)
{
	double thr = o->threshold;
	double lm = thr < 100 ? log1p(-thr / 100) : -INFINITY;
	double q;

	if (!(se > 0)) {
		/* every run's median the same: the difference is exact */
		r->lo = r->hi = r->change;
		r->p = diff == 0 ? 1 : 0;
		r->significant = diff != 0;
		r->p_equiv = fabs(r->change) < thr ? 0 : 1;
		return;
	}
	q = gsl_cdf_tdist_Pinv(1 - o->alpha / 2, df);
	r->p = 2 * gsl_cdf_tdist_Q(fabs(diff) / se, df);
	r->significant = r->p < o->alpha;
	r->lo = fmin(pct_better(exp(diff - q * se), dir),
		     pct_better(exp(diff + q * se), dir));
	r->hi = fmax(pct_better(exp(diff - q * se), dir),
		     pct_better(exp(diff + q * se), dir));
	/* TOST: both one-sided nulls, beyond -thr and beyond +thr */
	r->p_equiv = fmax(gsl_cdf_tdist_Q((diff - lm) / se, df),
			  gsl_cdf_tdist_Q((log1p(thr / 100) - diff) / se, df));
}

/* The verdict from the tests, and its why: s is the noise the runs were
 * judged with, s_plan the noise that sizes more runs. */
static void say_verdict(struct cmp_result *r, double s, double s_plan,
			const struct cmp_opts *o)
{
	double thr = o->threshold;
	size_t na = r->na, nb = r->nb, n;

	if (r->significant && fabs(r->change) >= thr) {
		r->verdict = r->change > 0 ? V_IMPROVED : V_REGRESSED;
		snprintf(r->why, sizeof(r->why),
			 "runs differ (p=%.2g; %zu and %zu runs, run-to-run noise %.1f%%), beyond %g%%",
			 r->p, na, nb, 100 * s, thr);
	} else if (r->p_equiv < o->alpha) {
		/* equivalence: the runs rule the threshold out */
		r->verdict = V_NO_CHANGE;
		snprintf(r->why, sizeof(r->why),
			 "no change beyond %g%%: these runs rule out more than %.1f%% (equivalence, TOST p=%.2g; %zu and %zu runs, run-to-run noise %.1f%%)",
			 thr, r->rules_out, r->p_equiv, na, nb, 100 * s);
	} else if (r->significant) {
		/* a difference, smaller than the threshold, but as much
		 * as the threshold not ruled out */
		snprintf(r->why, sizeof(r->why),
			 "runs differ (p=%.2g; %zu and %zu runs, run-to-run noise %.1f%%) by less than %g%%, but they cannot rule out %g%%: they rule out more than %.1f%%",
			 r->p, na, nb, 100 * s, thr, thr, r->rules_out);
	} else {
		why_short(r, s_plan, thr);
		n = strlen(r->why);
		if (isfinite(r->rules_out) && r->rules_out < 100)
			snprintf(r->why + n, sizeof(r->why) - n,
				 "; they rule out more than %.1f%%",
				 r->rules_out);
	}
	if (r->model_aside) {
		n = strlen(r->why);
		snprintf(r->why + n, sizeof(r->why) - n,
			 "; these runs spread more than this host's model of %.1f%% says, so their own spread was used",
			 r->model_pct);
	}
}

/* The model's noise for runs of iterations ia and ib, as a variance *vm
 * with *df_m degrees of freedom, unless the runs' own sum of squares ss
 * on df_in disagrees with it (then both 0, and the model is set aside). */
static void model_noise(struct cmp_result *r, const struct noise_model *m,
			double ia, double ib, double ss, double df_in,
			double *vm, double *df_m)
{
	*vm = *df_m = 0;
	if (m && isfinite(m->between) && m->df > 0) {
		double sa = noise_run_sd(m, ia), sb = noise_run_sd(m, ib);

		*vm = (sa * sa + sb * sb) / 2;
		*df_m = m->df;
		r->noise_runs = m->runs;
	}
	/* a model of other hours does not describe runs that disagree
	 * among themselves more than it allows: theirs alone, then */
	if (*df_m > 0 && df_in >= 1 && *vm > 0 &&
	    gsl_cdf_fdist_Q(ss / df_in / *vm, df_in, *df_m) < NOISE_MODEL_CHECK) {
		r->model_aside = true;
		r->model_pct = 100 * sqrt(*vm);
		*vm = *df_m = 0;
		r->noise_runs = 0;
	}
}

void noise_compare(const double *ma, size_t ra, double ia, const double *mb,
		   size_t rb, double ib, enum better dir,
		   const struct noise_model *m, const struct cmp_opts *o,
		   struct cmp_result *r)
{
	double *la = xcalloc(ra + 1, sizeof(double)), *lb = xcalloc(rb + 1, sizeof(double));
	double mean_a, mean_b, ss = 0, df_in, df_m, vm, df, s, se, diff;
	size_t na = logs(ma, ra, la, &mean_a), nb = logs(mb, rb, lb, &mean_b);

	memset(r, 0, sizeof(*r));
	r->change = r->lo = r->hi = r->p = r->noise_pct = r->mde = NAN;
	r->model_pct = r->rules_out = r->p_equiv = NAN;
	r->verdict = V_INCONCLUSIVE;
	r->na = na;
	r->nb = nb;
	r->runs_a = (unsigned)na;
	r->runs_b = (unsigned)nb;
	if (!na || !nb) {
		snprintf(r->why, sizeof(r->why), "no run with a positive median on %s",
			 na ? "the candidate's side" : "the baseline's side");
		goto out;
	}
	for (size_t i = 0; i < na; i++)
		ss += (la[i] - mean_a) * (la[i] - mean_a);
	for (size_t i = 0; i < nb; i++)
		ss += (lb[i] - mean_b) * (lb[i] - mean_b);
	df_in = (double)(na + nb) - 2;
	model_noise(r, m, ia, ib, ss, df_in, &vm, &df_m);
	df = df_in + df_m;
	diff = mean_b - mean_a;
	r->change = pct_better(exp(diff), dir);
	if (df < 1) {
		snprintf(r->why, sizeof(r->why),
			 "one run a side, and this host's run-to-run noise of the case is not measured: give 2 or more runs a side (BASE1+BASE2) or measure it (schedlab calibrate)");
		goto out;
	}
	s = sqrt((ss + df_m * vm) / df);
	r->noise_pct = 100 * s;
	se = s * sqrt(1.0 / (double)na + 1.0 / (double)nb);
	test_diff(r, diff, se, df, dir, o);
	r->rules_out = noise_rules_out(diff, se, df, o->alpha);
	r->mde = noise_mde(s, df, na, nb, o->alpha);
	r->runs_needed = noise_runs_needed(df_m > 0 ? sqrt(vm) : s, df_m,
					   o->threshold, o->alpha);
	say_verdict(r, s, df_m > 0 ? sqrt(vm) : s, o);
out:
	free(la);
	free(lb);
}

/* The median of the positive finite values of x[0..n); NAN: fewer than min. */
static double median_of(const double *x, size_t n, size_t min)
{
	double *y = xcalloc(n + 1, sizeof(double)), med = NAN;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]) && x[i] > 0)
			y[k++] = x[i];
	if (k >= min && stats_median(y, k, &med))
		med = NAN;
	free(y);
	return med;
}

bool noise_huge(const double *a, size_t na, const double *ca, size_t nca,
		const double *b, size_t nb, const double *cb, size_t ncb,
		enum better dir, const struct cmp_opts *o, struct cmp_result *r)
{
	double ma, mb, mca, mcb, q, qc;
	char ratios[96];
	bool slower;

	if (dir == BETTER_HIGHER)
		return false;
	ma = median_of(a, na, CMP_MIN_SAMPLES);
	mb = median_of(b, nb, CMP_MIN_SAMPLES);
	mca = median_of(ca, nca, CMP_MIN_SAMPLES);
	mcb = median_of(cb, ncb, CMP_MIN_SAMPLES);
	if (!isfinite(ma) || !isfinite(mb) || !isfinite(mca) || !isfinite(mcb))
		return false;
	q = mb / ma;
	qc = mcb / mca;
	slower = q > 1;
	if (slower ? !(q >= NOISE_HUGE_RATIO && qc >= NOISE_HUGE_RATIO) :
		     !(q <= 1 / NOISE_HUGE_RATIO && qc <= 1 / NOISE_HUGE_RATIO))
		return false;
	if (fabs(pct_better(q, dir)) < o->threshold)
		return false;
	snprintf(ratios, sizeof(ratios), "%s%.2f %s the time and %s%.2f %s the CPU time",
		 slower ? "" : "1/", slower ? q : 1 / q, slower ? "times" : "of",
		 slower ? "" : "1/", slower ? qc : 1 / qc, slower ? "times" : "of");
	if (fmin(mca, mcb) < NOISE_HUGE_CPU_MIN_S) {
		size_t n = strlen(r->why);

		snprintf(r->why + n, sizeof(r->why) - n,
			 "%s%s would be a difference no such noise makes, but %.1f ms of CPU time an iteration is mostly a process's start, which alone differs that much between runs (common sense needs %.0f ms a side)",
			 n ? "; " : "", ratios, 1000 * fmin(mca, mcb),
			 1000 * NOISE_HUGE_CPU_MIN_S);
		return false;
	}
	r->change = pct_better(q, dir);
	r->significant = true;
	r->huge = true;
	r->verdict = r->change > 0 ? V_IMPROVED : V_REGRESSED;
	snprintf(r->why, sizeof(r->why),
		 "one run a side and no measured run-to-run noise, but a difference no such noise makes: %s (medians of the iterations; common sense: both beyond a factor %g, doc/statistics.md)",
		 ratios, NOISE_HUGE_RATIO);
	return true;
}
