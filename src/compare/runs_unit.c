// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare/runs_unit.c: the run as the unit (compare_int.h, doc/statistics.md's
 * "Runs as replicates"): a case's run-to-run noise from the baseline's
 * earlier runs, the host's noise model of a case, the runs' medians, and
 * a candidate's case against the baseline's by its runs.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"
#include "util.h"

static void add_median(void *arg, const double *x, size_t n)
{
	struct medians *m = arg;

	if (m->n < HISTORY_RUNS && !stats_median(x, n, &m->x[m->n]))
		m->n++;
}

/*
 * The run-to-run noise of a case from the repeats of the baseline in
 * the store - the runs with its label and host - and not from every run
 * of the case: in a bisection the database also holds the bad runs,
 * whose difference is the very change to be found. NULL when there is
 * no store or fewer than RUN_NOISE_MIN_RUNS such runs. m: the repeats'
 * medians (none without a store).
 */
const struct run_noise *build_case_noise(struct store *st,
					  const struct run *base,
					  const struct run_case *bc,
					  const char *metric,
					  struct medians *m,
					  struct run_noise *rn)
{
	m->n = 0;
	if (!st || !base->label ||
	    store_history(st, base->label, base->host, bc->workload, bc->version,
			  bc->params, metric, HISTORY_RUNS, add_median, m) < 0) {
		m->n = 0;
		return NULL;
	}
	return stats_run_noise(m->x, m->n, rn) ? NULL : rn;
}

const struct run_noise *compare_case_noise(struct store *st,
					   const struct run *base,
					   const struct run_case *bc,
					   const char *metric,
					   struct run_noise *rn)
{
	struct medians m;

	return build_case_noise(st, base, bc, metric, &m, rn);
}

/*
 * Whether run k is compared with the baseline by runs (stats/noise.h):
 * when asked, unless the two were made side by side (one A/B: ab's
 * variants, judge's live references), where the iterations are right.
 */
bool build_runs_unit(const struct build *b, size_t k)
{
	const struct run *a = b->runs[0], *x = b->runs[k];

	return b->c->opts.runs_unit && !(a->ab && x->ab && !strcmp(a->ab, x->ab));
}

/* The host's model of the baseline's case bc for metric; NULL: none. */
const struct noise_model *build_host_model(struct build *b,
					    const struct run_case *bc,
					    const char *metric)
{
	const struct noise_case *nc = build_host_case(b, bc, metric);

	return nc ? &nc->m : NULL;
}

const struct noise_case *build_host_case(struct build *b,
					 const struct run_case *bc,
					 const char *metric)
{
	const struct run *base = b->runs[0];
	char host[512];

	if (!b->st)
		return NULL;
	if (!b->ns_job || strcmp(b->ns_job, bc->job) || strcmp(b->ns_metric, metric)) {
		struct noise_query q = { .job = bc->job, .metric = metric,
					 .host = base->host ? host : NULL,
					 .exclude = b->exclude, .nexclude = b->nexclude };

		if (base->host)
			noise_glob_exact(base->host, host, sizeof(host));
		noise_set_free(&b->ns);
		free(b->ns_job);
		free(b->ns_metric);
		b->ns_job = xstrdup(bc->job);
		b->ns_metric = xstrdup(metric);
		if (noise_models(b->st, &q, &b->ns))
			noise_set_free(&b->ns);
	}
	for (size_t i = 0; i < b->ns.n; i++) {
		const struct noise_case *nc = &b->ns.cases[i];

		if (nc->known && nc->version == (bc->version ? bc->version : 1) &&
		    !strcmp(nc->params, bc->params) &&
		    (!base->host || (nc->host && !strcmp(nc->host, base->host))))
			return nc;
	}
	return NULL;
}

/* The median of metric m of each run of case cs into med; how many. */
static size_t run_medians(const struct run_case *cs, int m, double *med,
			  double *iters)
{
	const struct run_series *sr = run_series_of(cs, m);
	size_t n = 0, nit = 0;

	*iters = 0;
	if (!sr)
		return 0;
	for (size_t i = 0; i < run_case_runs(cs); i++) {
		size_t lo, hi, k = 0;
		double *x;

		run_case_rep(cs, i, &lo, &hi);
		x = xcalloc(hi - lo + 1, sizeof(double));
		for (size_t t = lo; t < hi; t++)
			if (isfinite(sr->x[t]))
				x[k++] = sr->x[t];
		if (k && !stats_median(x, k, &med[n])) {
			n++;
			nit += k;
		}
		free(x);
	}
	*iters = n ? (double)nit / (double)n : 0;
	return n;
}

/* Each iteration's CPU time, user + system, of case cs of run r. */
static size_t cpu_samples(const struct run *r, const struct run_case *cs,
			  double *x)
{
	const struct run_series *u = run_series_of(cs, run_metric(r, "process.user_s"));
	const struct run_series *sy = run_series_of(cs, run_metric(r, "process.sys_s"));
	size_t n = 0;

	if (!u || !sy)
		return 0;
	for (size_t i = 0; i < cs->niter; i++)
		if (isfinite(u->x[i]) && isfinite(sy->x[i]))
			x[n++] = u->x[i] + sy->x[i];
	return n;
}

static void why_add(struct cmp_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One run a side, no model: common sense for a huge difference, unless
 * other processes kept the CPUs busy while either run ran. */
static void huge(struct build *b, const struct cmp_job *j,
		 const struct run_case *bc, const struct run_case *cs, size_t k,
		 enum better dir, struct cmp_result *r)
{
	const struct run *busy = b->runs[0]->others_during > NOISE_HUGE_OTHERS_MAX ?
				 b->runs[0] : b->runs[k]->others_during > NOISE_HUGE_OTHERS_MAX ?
				 b->runs[k] : NULL;
	struct cmp_result t = *r;
	double *a = xcalloc(bc->niter + 1, sizeof(double));
	double *x = xcalloc(cs->niter + 1, sizeof(double));
	double *ca = xcalloc(bc->niter + 1, sizeof(double));
	double *cx = xcalloc(cs->niter + 1, sizeof(double));
	size_t na = build_samples(bc, run_metric(b->runs[0], j->metric.name), a);
	size_t nx = build_samples(cs, run_metric(b->runs[k], j->metric.name), x);
	size_t nca = cpu_samples(b->runs[0], bc, ca);
	size_t ncx = cpu_samples(b->runs[k], cs, cx);

	if (!busy)
		noise_huge(a, na, ca, nca, x, nx, cx, ncx, dir, &b->c->opts, r);
	else if (noise_huge(a, na, ca, nca, x, nx, cx, ncx, dir, &b->c->opts, &t))
		why_add(r, "; %+.1f%% is a difference no such noise makes, but other processes used %.0f%% of the CPUs while %s ran (common sense allows %.0f%%: they stretch CPU time too); measure on a quiet machine, or alternate the runs (schedlab ab)",
			t.change, busy->others_during,
			busy == b->runs[0] ? "the baseline" : "the candidate",
			NOISE_HUGE_OTHERS_MAX);
	else	/* what it said of iterations too short for the rule */
		memcpy(r->why, t.why, sizeof(r->why));
	free(a);
	free(x);
	free(ca);
	free(cx);
}

/* "3 s", "12 min", "5.0 h", "2.0 days" */
static const char *span(double secs, char *buf, size_t len)
{
	if (secs < 120)
		snprintf(buf, len, "%.0f s", secs);
	else if (secs < 7200)
		snprintf(buf, len, "%.0f min", secs / 60);
	else if (secs < 2 * 86400)
		snprintf(buf, len, "%.1f h", secs / 3600);
	else
		snprintf(buf, len, "%.1f days", secs / 86400);
	return buf;
}

static void why_add(struct cmp_result *r, const char *fmt, ...)
{
	size_t n = strlen(r->why);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why + n, sizeof(r->why) - n, fmt, ap);
	va_end(ap);
}

/* The mean of the logs of x[0..n) (> 0). */
static double mean_log(const double *x, size_t n)
{
	double sum = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (x[i] > 0) {
			sum += log(x[i]);
			k++;
		}
	return k ? sum / (double)k : NAN;
}

/*
 * The time scale: runs further apart than any two the model differenced
 * (GAP_SLACK times, GAP_FLOOR_S at least) are compared with the noise
 * of its runs at such gaps (noise_at_gap()) when it has seen some -
 * into *gm, returned - the model when that is no larger, or none
 * (NULL, *unseen set) when it has seen no runs so far apart.
 */
#define GAP_SLACK 2.0
#define GAP_FLOOR_S 60.0
static const struct noise_model *at_gap(const struct noise_case *nc, double gap,
					 struct noise_model *gm, bool *unseen,
					 double *gs)
{
	const struct noise_model *m = &nc->m;
	unsigned pairs;
	double s, df;

	*unseen = false;
	*gs = NAN;
	if (!isfinite(gap) || !isfinite(m->gap_max) ||
	    gap <= fmax(GAP_SLACK * m->gap_max, GAP_FLOOR_S))
		return m;
	if (noise_at_gap(nc->obs, nc->nobs, gap, &s, &df, &pairs)) {
		*unseen = true;
		return NULL;
	}
	if (s <= m->between)
		return m;
	*gm = *m;
	gm->between = gm->offset = s;	/* the gap's noise is the runs' offset */
	gm->df = df;
	*gs = s;
	return gm;
}

/*
 * Sides of several runs made in two sessions far apart, at a gap the
 * model has not seen: their own runs measure the noise within each
 * session, not between the two, and a host that moved in between looks
 * like a change (on this VM: 14 of 20 A/A trials of messaging
 * "regressed" against a baseline 25 min old). No change is called
 * there; "no change" stands, with the gap said: a move of the host
 * would have to cancel a change of the code.
 */
static void sessions_apart(struct build *b, size_t k, const struct noise_case *nc,
			   struct cmp_result *r)
{
	double a0, a1, c0, c1, sep, own;
	char g1[32], g2[32], g3[32];

	if (r->verdict != V_REGRESSED && r->verdict != V_IMPROVED)
		return;
	run_starts(b->runs[0], &a0, &a1);
	run_starts(b->runs[k], &c0, &c1);
	sep = c0 > a1 ? c0 - a1 : a0 > c1 ? a0 - c1 : 0;
	own = fmax(a1 - a0, c1 - c0);
	if (sep <= fmax(GAP_SLACK * own, GAP_FLOOR_S))
		return;
	r->verdict = V_INCONCLUSIVE;
	r->significant = false;
	snprintf(r->why, sizeof(r->why),
		 "%+.1f%% between two sessions %s apart (each side's runs within %s): neither this host's model of the case (runs at most %s apart) nor the sides' own runs have seen how far runs so far apart differ, and a host that changed between the sessions would look the same; alternate the states (schedlab ab, schedlab campaign) or calibrate across that gap",
		 r->change, span(sep, g1, sizeof(g1)), span(own, g2, sizeof(g2)),
		 span(nc->m.gap_max, g3, sizeof(g3)));
}

/*
 * One run a side, a baseline outside every run the model knows, the
 * candidate within them: the host moved, not the code - never a change.
 * (Sides of several runs bring their own spread - the model is set
 * aside when they disagree - and a campaign's alternate boots, whose
 * drift falls on both states alike.)
 */
static void host_moved(const struct noise_model *m, const double *ma,
		       const double *mb, struct cmp_result *r)
{
	double la = mean_log(ma, 1), lb = mean_log(mb, 1);
	double w = 2 * m->between;

	if ((r->verdict != V_REGRESSED && r->verdict != V_IMPROVED) ||
	    m->lo > m->hi || !isfinite(m->between))
		return;
	if ((la < m->lo - w || la > m->hi + w) && lb >= m->lo - w && lb <= m->hi + w) {
		r->verdict = V_INCONCLUSIVE;
		r->significant = false;
		snprintf(r->why, sizeof(r->why),
			 "the host changed between these runs: the baseline's median %.4g lies outside the %u runs this host's model of the case knows (%.4g to %.4g), the candidate's %.4g within them; alternate the states (schedlab campaign, schedlab ab) or calibrate across that gap",
			 exp(la), m->runs, exp(m->lo), exp(m->hi), exp(lb));
	}
}

/* Run k's case cs against the baseline's bc with the run as the unit. */
void build_compare_runs(struct build *b, const struct cmp_job *j,
			 const struct run_case *bc, const struct run_case *cs,
			 size_t k, enum better dir, struct cmp_result *r)
{
	const struct noise_case *nc = build_host_case(b, bc, j->metric.name);
	const struct noise_model *m = nc ? &nc->m : NULL;
	double *ma = xcalloc(run_case_runs(bc) + 1, sizeof(double));
	double *mb = xcalloc(run_case_runs(cs) + 1, sizeof(double));
	double ia, ib, gs = NAN;
	double gap = fabs(b->runs[k]->started - b->runs[0]->started);
	size_t ra = run_medians(bc, run_metric(b->runs[0], j->metric.name), ma, &ia);
	size_t rb = run_medians(cs, run_metric(b->runs[k], j->metric.name), mb, &ib);
	struct noise_model gm;
	bool unseen = false;
	char g1[32], g2[32];

	if (nc)
		m = at_gap(nc, gap, &gm, &unseen, &gs);
	noise_compare(ma, ra, ia, mb, rb, ib, dir, m, &b->c->opts, r);
	if (ra == 1 && rb == 1 && !m)
		huge(b, j, bc, cs, k, dir, r);
	if (unseen && !r->huge) {
		if (ra == 1 && rb == 1)
			snprintf(r->why, sizeof(r->why),
				 "these runs are %s apart, and this host's model of the case has seen runs at most %s apart: it cannot say how far runs so far apart differ; alternate the states (schedlab campaign, schedlab ab) or calibrate across that gap (runs of the baseline spread over it)",
				 span(gap, g1, sizeof(g1)), span(nc->m.gap_max, g2, sizeof(g2)));
		else
			why_add(r, "; the host's model was left out: these runs are %s apart, it has seen runs at most %s apart",
				span(gap, g1, sizeof(g1)), span(nc->m.gap_max, g2, sizeof(g2)));
	} else if (isfinite(gs)) {
		why_add(r, "; the noise of this host's runs %s or more apart, %.1f%%, was used",
			span(gap / 2, g1, sizeof(g1)), 100 * gs);
	}
	if (unseen && !r->huge && (ra > 1 || rb > 1))
		sessions_apart(b, k, nc, r);
	if (m && ra == 1 && rb == 1)
		host_moved(m, ma, mb, r);
	if (m && m->speeds > 1 && j->metric.headline) {
		char name[512];

		build_note(b->c, "%s: this host ran it at two speeds (%.4g in %u runs, %.4g in %u): a difference between runs may be a switch of the host; alternate the states (schedlab campaign) and compare many runs a side",
			   build_case_name(bc, name, sizeof(name)), m->speed_lo,
			   m->speed_runs_lo, m->speed_hi, m->speed_runs_hi);
		why_add(r, "; two speeds on this host");
	}
	free(ma);
	free(mb);
}
