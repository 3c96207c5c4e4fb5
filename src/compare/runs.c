// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare/runs.c: the run as the unit (build_int.h, doc/statistics.md's
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

#include "compare/build_int.h"
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
			return &nc->m;
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

/* One run a side, no model: common sense for a huge difference. */
static void huge(struct build *b, const struct cmp_job *j,
		 const struct run_case *bc, const struct run_case *cs, size_t k,
		 enum better dir, struct cmp_result *r)
{
	double *a = xcalloc(bc->niter + 1, sizeof(double));
	double *x = xcalloc(cs->niter + 1, sizeof(double));
	double *ca = xcalloc(bc->niter + 1, sizeof(double));
	double *cx = xcalloc(cs->niter + 1, sizeof(double));
	size_t na = build_samples(bc, run_metric(b->runs[0], j->metric.name), a);
	size_t nx = build_samples(cs, run_metric(b->runs[k], j->metric.name), x);
	size_t nca = cpu_samples(b->runs[0], bc, ca);
	size_t ncx = cpu_samples(b->runs[k], cs, cx);

	noise_huge(a, na, ca, nca, x, nx, cx, ncx, dir, &b->c->opts, r);
	free(a);
	free(x);
	free(ca);
	free(cx);
}

/* Run k's case cs against the baseline's bc with the run as the unit. */
void build_compare_runs(struct build *b, const struct cmp_job *j,
			 const struct run_case *bc, const struct run_case *cs,
			 size_t k, enum better dir, struct cmp_result *r)
{
	const struct noise_model *m = build_host_model(b, bc, j->metric.name);
	double *ma = xcalloc(run_case_runs(bc) + 1, sizeof(double));
	double *mb = xcalloc(run_case_runs(cs) + 1, sizeof(double));
	double ia, ib;
	size_t ra = run_medians(bc, run_metric(b->runs[0], j->metric.name), ma, &ia);
	size_t rb = run_medians(cs, run_metric(b->runs[k], j->metric.name), mb, &ib);

	noise_compare(ma, ra, ia, mb, rb, ib, dir, m, &b->c->opts, r);
	if (ra == 1 && rb == 1 && !m)
		huge(b, j, bc, cs, k, dir, r);
	free(ma);
	free(mb);
}
