// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare/build.c: the comparison (compare/compare.h) from typed runs
 * (model/run.h): the cases of a baseline and its candidates paired by
 * the one matcher (compare/match.h), and for each the summaries, tests,
 * verdicts and scheduler metrics that moved - all computed by
 * src/stats/; the renderers (report/compare.h) only format the result.
 * The store, when given, is read for the baseline's earlier runs (its
 * run-to-run noise) and the host's noise models (compare/noise_model.h).
 */
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/match.h"
#include "compare/noise_model.h"
#include "model/run.h"
#include "probe/probe.h"
#include "stats/noise.h"
#include "store/store.h"
#include "util.h"

/* The earlier runs of a case that its run-to-run noise is measured on. */
#define HISTORY_RUNS 20

/*
 * The fewest values the outlier rule is applied to: with fewer the MAD
 * is one gap between two of them. Even at 5 to 10 normal samples, 13 to
 * 20% of sets have a value past OUTLIER_Z (doc/statistics.md): a note,
 * not a verdict.
 */
#define OUTLIER_MIN_SAMPLES 5
/* Outlying values listed in a note, at most. */
#define OUTLIERS_LISTED 5

/* The CPU time of a case, summed into struct cmp_run. */
static const char *const duration_metric[] = {
	"process.user_s", "process.sys_s", "process.wall_s",
};
#define NDURATION ARRAY_SIZE(duration_metric)

/* Per run, its indices of the metrics every case is read for. */
struct run_index {
	int probe[PM_N];		/* probe_metrics[] */
	int duration[NDURATION];
};

/* What the builder works with besides the comparison it fills. */
struct build {
	const struct run *const *runs;
	const char *const *specs;
	struct run_index *idx;		/* [nruns] */
	bool **used;			/* [nruns][ncases]: matched or noted */
	double *xa, *xb;		/* scratch, room for the most iterations */
	size_t group, ngroup;		/* the last job's tables in c->jobs */
	struct comparison *c;
	/* runs as the unit: the host's noise models of the last job and
	 * metric read (compare/noise_model.h), and the runs left out of them */
	struct store *st;
	struct noise_set ns;
	char *ns_job, *ns_metric;
	const char **exclude;
	size_t nexclude;
	size_t nmodel;			/* headline cases with a model */
	size_t nrunsunit;		/* ... compared with the run as the unit */
};

/* How two cases relate, by the one rule (compare/match.h). */
static enum case_likeness likeness(const struct run_case *x,
				   const struct run_case *y, bool match_job)
{
	struct case_key a = case_key_of(x), b = case_key_of(y);

	return case_likeness(&a, &b, match_job);
}

/* name=value words, to say how two cases or their settings differ. */
struct words {
	char **w;
	size_t n;
};

static void words_add(struct words *w, char *s)
{
	w->w = realloc(w->w, (w->n + 1) * sizeof(*w->w));
	if (!w->w)
		abort();
	w->w[w->n++] = s;
}

static void words_of_list(const struct run_param *p, size_t n,
			  struct words *w)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(p[i].name) + strlen(p[i].value) + 2;
		char *s = xcalloc(len, 1);

		snprintf(s, len, "%s=%s", p[i].name, p[i].value);
		words_add(w, s);
	}
}

static void words_of_string(const char *s, struct words *w)
{
	char *copy = xstrdup(s), *save, *t;

	for (t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
		words_add(w, xstrdup(t));
	free(copy);
}

static void words_free(struct words *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->w[i]);
	free(w->w);
}

/* Appends to buf the words of a that b lacks, "-" when none. */
static void words_missing(const struct words *a, const struct words *b,
			  char *buf, size_t len)
{
	size_t start = strlen(buf), used;

	for (size_t i = 0; i < a->n; i++) {
		bool found = false;

		for (size_t k = 0; k < b->n && !found; k++)
			found = !strcmp(a->w[i], b->w[k]);
		used = strlen(buf);
		if (!found)
			snprintf(buf + used, len - used, "%s%s",
				 used > start ? " " : "", a->w[i]);
	}
	used = strlen(buf);
	if (used == start)
		snprintf(buf + used, len - used, "-");
}

static void words_diff(const struct words *a, const struct words *b,
		       char *buf, size_t len)
{
	*buf = 0;
	words_missing(a, b, buf, len);
	snprintf(buf + strlen(buf), len - strlen(buf), " -> ");
	words_missing(b, a, buf, len);
}

/*
 * "loops=100 -> loops=110": the options of x that y has otherwise, and
 * back - from the cases' full parameter lists, so that the message says
 * what differs whatever the identity (params) leaves out; from params
 * when neither case has a list (documents that carry none).
 */
static void param_diff(const struct run_case *x, const struct run_case *y,
		       char *buf, size_t len)
{
	struct words a = { 0 }, b = { 0 };

	if (x->nparam || y->nparam) {
		words_of_list(x->param, x->nparam, &a);
		words_of_list(y->param, y->nparam, &b);
	}
	words_diff(&a, &b, buf, len);
	if (!strcmp(buf, "- -> -")) {
		words_free(&a);
		words_free(&b);
		a = (struct words){ 0 };
		b = (struct words){ 0 };
		words_of_string(x->params, &a);
		words_of_string(y->params, &b);
		words_diff(&a, &b, buf, len);
	}
	words_free(&a);
	words_free(&b);
}

static void vnote(struct comparison *c, bool left_out, const char *fmt,
		  va_list ap)
{
	char buf[1024];

	char *line;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* one line whatever a label holds: a note names runs by label */
	line = text_escape(buf);
	for (size_t i = 0; i < c->nnotes; i++)
		if (!strcmp(c->notes[i], line)) {
			free(line);
			return;
		}
	c->notes = xrealloc(c->notes, (c->nnotes + 1) * sizeof(*c->notes));
	c->note_left_out = xrealloc(c->note_left_out,
				    (c->nnotes + 1) * sizeof(*c->note_left_out));
	c->note_left_out[c->nnotes] = left_out;
	c->notes[c->nnotes++] = line;
}

/* A note on what was compared: the machine, outliers, differences. */
static void note(struct comparison *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct comparison *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(c, false, fmt, ap);
	va_end(ap);
}

/* A note on a case left out: the html page heads these "Not compared". */
static void note_out(struct comparison *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note_out(struct comparison *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(c, true, fmt, ap);
	va_end(ap);
}

static const char *case_name(const struct run_case *cs, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", cs->job, *cs->sweep ? " " : "", cs->sweep);
	return buf;
}

/* The finite values of metric m (-1: none) of a case into x. */
static size_t samples(const struct run_case *cs, int m, double *x)
{
	return m < 0 ? 0 : run_samples(cs, m, x);
}

/* The change an explanation shows: in points for a percentage. */
static double expl_change(const struct cmp_expl *e)
{
	return e->points ? e->change_pt : e->change_pct;
}

static int by_change(const void *x, const void *y)
{
	const struct cmp_expl *a = x, *b = y;
	double ma = isfinite(expl_change(a)) ? fabs(expl_change(a)) : INFINITY;
	double mb = isfinite(expl_change(b)) ? fabs(expl_change(b)) : INFINITY;

	return (mb > ma) - (mb < ma);
}

/* Metric name's values a (na) and b (nb) into cell's explanation when
 * they changed by lkp-tests' rule. */
static void explain_one(struct build *b, struct cmp_cell *cell,
			const char *name, const char *unit, size_t na, size_t nb)
{
	struct cmp_expl *e;
	bool changed = false;

	if (!na || !nb || stats_lkp_changed(b->xa, na, b->xb, nb,
		!strncmp(name, "perf.", 5) ? LKP_RATIO_PERF : LKP_RATIO,
		&changed) || !changed)
		return;
	cell->expl = realloc(cell->expl, (cell->nexpl + 1) * sizeof(*e));
	if (!cell->expl)
		abort();
	e = &cell->expl[cell->nexpl++];
	e->metric = name;
	stats_amean(b->xa, na, &e->base);
	stats_amean(b->xb, nb, &e->cand);
	stats_pstddev_pct(b->xa, na, &e->base_sd_pct);
	stats_pstddev_pct(b->xb, nb, &e->cand_sd_pct);
	/* a percentage's change is a difference in points */
	e->points = unit && !strcmp(unit, "%");
	e->change_pct = e->points ? NAN : stats_pct_diff(e->base, e->cand);
	e->change_pt = e->points ? e->cand - e->base : NAN;
}

/*
 * The scheduler metrics that changed by lkp-tests' rule, largest first:
 * the probes', then the monitors' means (monitor.NAME.FIELD.mean), as
 * lkp lists its monitors' stats beside the benchmark's.
 */
static void explain(struct build *b, struct cmp_cell *cell, size_t k,
		    const struct run_case *bc, const struct run_case *cc)
{
	const struct run *base = b->runs[0];

	for (size_t m = 0; m < PM_N; m++) {
		if (m == PM_PROBE_END_MS)
			continue;	/* the probes' own cost */
		explain_one(b, cell, probe_metrics[m].name, probe_metrics[m].unit,
			    samples(bc, b->idx[0].probe[m], b->xa),
			    samples(cc, b->idx[k].probe[m], b->xb));
	}
	for (size_t m = 0; m < base->nmetrics; m++) {
		const char *name = base->metrics[m].name;
		size_t len = strlen(name);

		if (strncmp(name, "monitor.", 8) || len < 13 ||
		    strcmp(name + len - 5, ".mean"))
			continue;
		explain_one(b, cell, name, base->metrics[m].unit,
			    samples(bc, (int)m, b->xa),
			    samples(cc, run_metric(b->runs[k], name), b->xb));
	}
	if (cell->nexpl > 1)
		qsort(cell->expl, cell->nexpl, sizeof(*cell->expl), by_change);
}

static void add_durations(struct build *b, size_t k, const struct run_case *cs)
{
	struct cmp_run *r = &b->c->runs[k];
	double *sum[NDURATION] = { &r->user_s, &r->sys_s, &r->elapsed_s };

	for (size_t i = 0; i < NDURATION; i++) {
		size_t n = samples(cs, b->idx[k].duration[i], b->xa);

		for (size_t s = 0; s < n; s++)
			*sum[i] += b->xa[s];
	}
}

/* Collects the median of each earlier run of a case. */
struct medians {
	double x[HISTORY_RUNS];
	size_t n;
};

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
static const struct run_noise *case_noise(struct store *st,
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

	return case_noise(st, base, bc, metric, &m, rn);
}

/* "41.2, 39.8 ms": values with the metric's unit. */
static void values_text(const double *v, size_t n, size_t shown,
			const char *unit, char *buf, size_t len)
{
	size_t used;

	*buf = 0;
	for (size_t i = 0; i < n && i < shown; i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%.4g", i ? ", " : "", v[i]);
	}
	used = strlen(buf);
	snprintf(buf + used, len - used, "%s%s%s", n > shown ? ", ..." : "",
		 *unit ? " " : "", unit);
}

/*
 * The iterations of run k's case cs that are outliers among its own
 * (modified Z-score, stats/summary.h), as a note: an iteration that a
 * neighbour's burst or a migration storm made absurd moves a mean and
 * widens every interval, and is worth a look before the verdict.
 */
static void outlier_iterations(struct build *b, const struct cmp_job *j,
			       size_t k, const struct run_case *cs)
{
	double med, mad, out[OUTLIERS_LISTED], *x = b->xa;
	size_t n = samples(cs, run_metric(b->runs[k], j->metric.name), x);
	size_t nout = 0;
	char name[512], vals[160];

	if (n < OUTLIER_MIN_SAMPLES || stats_median_mad(x, n, &med, &mad) ||
	    !(mad > 0))
		return;
	for (size_t i = 0; i < n; i++)
		if (fabs(MODIFIED_Z_K * (x[i] - med) / mad) > OUTLIER_Z) {
			if (nout < OUTLIERS_LISTED)
				out[nout] = x[i];
			nout++;
		}
	if (!nout)
		return;
	values_text(out, nout, OUTLIERS_LISTED, j->metric.unit, vals,
		    sizeof(vals));
	note(b->c, "%s in %s: %zu of %zu iterations %s (modified Z > %g): %s",
	     case_name(cs, name, sizeof(name)), b->c->runs[k].name, nout, n,
	     nout == 1 ? "is an outlier" : "are outliers", OUTLIER_Z, vals);
}

/*
 * The baseline's median, and each candidate's, against the medians of
 * the baseline's repeats m: a baseline that is itself an outlier among
 * them is a poor reference (another run of it would compare otherwise),
 * and a candidate far outside them differs from every run of the
 * baseline, not only from the one compared.
 */
static void outlier_runs(struct build *b, const struct cmp_job *j,
			 const struct cmp_case *cc, const struct run_case *bc,
			 const struct medians *m)
{
	const struct comparison *c = b->c;
	const char *unit = j->metric.unit, *sp = *unit ? " " : "";
	const char *label = b->runs[0]->label;
	double center, mad, z;
	char name[512];

	if (m->n < OUTLIER_MIN_SAMPLES ||
	    stats_median_mad(m->x, m->n, &center, &mad) || !(mad > 0))
		return;
	case_name(bc, name, sizeof(name));
	for (size_t k = 0; k < c->nruns; k++) {
		const struct cmp_cell *cell = &cc->cell[k];

		if (!cell->ok || stats_modified_z(m->x, m->n, cell->s.median, &z) ||
		    !(fabs(z) > OUTLIER_Z))
			continue;
		if (!k)
			note(b->c, "%s: the baseline (%s) is an outlier among the %zu runs labelled %s here (modified Z %.1f): its median %.4g%s%s against %.4g%s%s",
			     name, c->runs[0].name, m->n, label, z, cell->s.median,
			     sp, unit, center, sp, unit);
		else
			note(b->c, "%s in %s: the median %.4g%s%s is far outside the %zu runs labelled %s here (modified Z %.1f; their median %.4g%s%s)",
			     name, c->runs[k].name, cell->s.median, sp, unit,
			     m->n, label, z, center, sp, unit);
	}
}

/*
 * Whether run k is compared with the baseline by runs (stats/noise.h):
 * when asked, unless the two were made side by side (one A/B: ab's
 * variants, judge's live references), where the iterations are right.
 */
static bool runs_unit(const struct build *b, size_t k)
{
	const struct run *a = b->runs[0], *x = b->runs[k];

	return b->c->opts.runs_unit && !(a->ab && x->ab && !strcmp(a->ab, x->ab));
}

/* The host's model of the baseline's case bc for metric; NULL: none. */
static const struct noise_model *host_model(struct build *b,
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

/* Run k's case cs against the baseline's bc with the run as the unit. */
static void compare_runs(struct build *b, const struct cmp_job *j,
			 const struct run_case *bc, const struct run_case *cs,
			 size_t k, enum better dir, struct cmp_result *r)
{
	const struct noise_model *m = host_model(b, bc, j->metric.name);
	double *ma = xcalloc(run_case_runs(bc) + 1, sizeof(double));
	double *mb = xcalloc(run_case_runs(cs) + 1, sizeof(double));
	double ia, ib;
	size_t ra = run_medians(bc, run_metric(b->runs[0], j->metric.name), ma, &ia);
	size_t rb = run_medians(cs, run_metric(b->runs[k], j->metric.name), mb, &ib);

	noise_compare(ma, ra, ia, mb, rb, ib, dir, m, &b->c->opts, r);
	free(ma);
	free(mb);
}

/* Whether a case ran without the probes (its run setting "probes"). */
static bool probes_off(const struct run_case *rc)
{
	const char *p = rc ? run_setting(rc, "probes") : NULL;

	return p && !strcmp(p, "off");
}

/*
 * Fills the cell of run k from its case cs; NULL: the run lacks it,
 * absent saying why. k > 0 is compared with the baseline's case bc.
 * A case that failed is not summarised, whatever iterations it had
 * before it failed: a statistic of one or two of them would read as a
 * measurement (raw still lists them), and it is compared with nothing.
 */
static void fill_cell(struct build *b, struct cmp_job *j, struct cmp_case *cc,
		      size_t k, const struct run_case *cs, const char *absent,
		      const struct run_case *bc, const struct run_noise *rn)
{
	struct comparison *c = b->c;
	struct cmp_cell *cell = &cc->cell[k];
	const struct cmp_cell *bcell = &cc->cell[0];
	int m = run_metric(b->runs[k], j->metric.name);
	/* without a direction, + is what grew (and no verdict is shown) */
	enum better dir = j->metric.better == BETTER_NONE ? BETTER_HIGHER :
			  j->metric.better;
	size_t n, bn;

	cell->points = !strcmp(j->metric.unit, "%");
	cell->pt = cell->pt_lo = cell->pt_hi = NAN;
	if (!cs) {
		cell->failed = absent;
		if (k) {
			stats_compare(NULL, 0, NULL, 0, dir, &c->opts, NULL,
				      &cell->r);
			snprintf(cell->r.why, sizeof(cell->r.why), "%s", absent);
		}
		return;
	}
	cell->present = true;
	cell->rc = cs;
	if (run_series_of(cs, m)) {
		cell->x = run_series_of(cs, m)->x;
		cell->n = cs->niter;
	}
	if (j->metric.headline)
		add_durations(b, k, cs);
	if (!cs->complete)
		cell->failed = cs->reason ? cs->reason : "failed";
	n = samples(cs, m, b->xb);
	if (!n && !cell->failed)
		cell->failed = "no samples";
	cell->ok = !cell->failed &&
		   !summarize(b->xb, n, j->metric.better, &cell->s);
	for (int row = 0; row < MM_NROWS; row++)
		cell->pct[row] = !(k && cell->ok && bcell->ok) ? (k ? NAN : 0) :
			cell->points ?
			mm_row_pt(row, mm_row_value(&bcell->s, row),
				  mm_row_value(&cell->s, row), dir) :
			mm_row_pct(row, mm_row_value(&bcell->s, row),
				   mm_row_value(&cell->s, row), dir);
	if (!k)
		return;
	cell->probes_off = probes_off(bc) || probes_off(cs);
	if (!cell->ok || !bcell->ok) {
		stats_compare(NULL, 0, NULL, 0, dir, &c->opts, NULL, &cell->r);
		if (cell->ok)
			snprintf(cell->r.why, sizeof(cell->r.why),
				 "failed in %s: %s", c->runs[0].name,
				 bcell->failed ? bcell->failed : "no samples");
		else
			snprintf(cell->r.why, sizeof(cell->r.why), "%s",
				 cell->failed);
		return;
	}
	if (runs_unit(b, k)) {
		compare_runs(b, j, bc, cs, k, dir, &cell->r);
		c->runs_used = true;
		if (j->metric.headline) {
			b->nrunsunit++;
			b->nmodel += host_model(b, bc, j->metric.name) != NULL;
		}
	} else {
		bn = samples(bc, run_metric(b->runs[0], j->metric.name), b->xa);
		stats_compare(b->xa, bn, b->xb, n, dir, &c->opts, rn, &cell->r);
	}
	if (cell->points) {
		/* the ratio's change at the baseline's level: points */
		double level = stat_test_medians(c->opts.test) ?
			       bcell->s.median : cmp_cell_stat(bcell, STAT_AMEAN);

		cell->pt = level * cell->r.change / 100;
		cell->pt_lo = level * cell->r.lo / 100;
		cell->pt_hi = level * cell->r.hi / 100;
	}
	if (j->metric.headline)
		explain(b, cell, k, bc, cs);
}

/* Whether --metrics sel (NULL: the headline) chooses metric name of wl. */
static bool metric_chosen(const char *sel, const char *wl, const char *name)
{
	size_t wn = strlen(wl);
	char *copy, *save, *t;
	bool yes = false;

	if (!sel)
		return false;
	copy = xstrdup(sel);
	for (t = strtok_r(copy, ",", &save); t && !yes;
	     t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "all"))
			yes = !strncmp(name, wl, wn) && name[wn] == '.';
		else if (strcmp(t, "headline"))
			yes = !fnmatch(t, name, 0);
	}
	free(copy);
	return yes;
}

/*
 * A --metrics word that names nothing in the baseline is a typo, not a
 * request for no table: -1 after error() naming it.
 */
static int check_metrics(const char *sel, const struct run *base)
{
	char *copy, *save, *t;
	int ret = 0;

	if (!sel)
		return 0;
	if (!*sel)
		return error("compare: --metrics is empty: give headline, all or globs such as 'wakeup.p*,sched.*'");
	copy = xstrdup(sel);
	for (t = strtok_r(copy, ",", &save); t && !ret;
	     t = strtok_r(NULL, ",", &save)) {
		bool found = !strcmp(t, "all") || !strcmp(t, "headline");

		for (size_t m = 0; m < base->nmetrics && !found; m++)
			found = !fnmatch(t, base->metrics[m].name, 0);
		if (!found)
			ret = error("compare: --metrics: '%s' matches no metric of the baseline; give headline, all or globs such as 'wakeup.p*,sched.*' ('schedlab show' lists a run's metrics)",
				    t);
	}
	free(copy);
	return ret;
}

static struct cmp_job *new_job(struct comparison *c, const struct run_case *bc,
			       const struct metric_def *m, bool headline)
{
	struct cmp_job *j;

	c->jobs = realloc(c->jobs, (c->njobs + 1) * sizeof(*c->jobs));
	if (!c->jobs)
		abort();
	j = &c->jobs[c->njobs++];
	*j = (struct cmp_job){ .job = bc->job, .workload = bc->workload,
		.sweep_keys = bc->sweep_keys, .metric = *m };
	j->metric.headline = headline;
	if (!j->metric.unit)
		j->metric.unit = "";
	return j;
}

/*
 * The tables of base case bc's job - the last group of c->jobs if it
 * is the same job, else a new group: the headline's, then one per
 * metric --metrics chose that bc has. *first: the group's first table;
 * returns how many, 0 when the workload has no headline.
 */
static size_t job_for(struct build *b, const struct run *base,
		      const struct run_case *bc, size_t *first)
{
	struct comparison *c = b->c;
	int h;

	if (b->ngroup && !strcmp(c->jobs[b->group].job, bc->job) &&
	    !strcmp(c->jobs[b->group].workload, bc->workload)) {
		*first = b->group;
		return b->ngroup;
	}
	h = run_headline(base, bc->workload);
	if (h < 0) {
		note_out(c, "job %s: workload %s has no headline metric", bc->job,
		     bc->workload);
		return 0;
	}
	b->group = *first = c->njobs;
	new_job(c, bc, &base->metrics[h], true);
	for (size_t m = 0; m < base->nmetrics; m++)
		if ((int)m != h && bc->by_metric[m] >= 0 &&
		    metric_chosen(c->opts.metrics, bc->workload,
				  base->metrics[m].name))
			new_job(c, bc, &base->metrics[m], false);
	b->ngroup = c->njobs - b->group;
	return b->ngroup;
}

/* The note, and the error, when only the workload's version differs. */
#define VERSION_FMT "workload %s measures differently in %s (version %u) than in %s (version %u)"

/*
 * The run that RUN spec was taken to be, for a message: a label can
 * stand for several runs (store_resolve()), so which one and what it
 * holds: "run 12 labelled base: abandoned, 0 cases".
 */
static void picked(const struct run *r, char *buf, size_t len)
{
	char more[32] = "";

	if (r->nmerged)
		snprintf(more, sizeof(more), " and %zu more", r->nmerged);
	if (r->id < 0)
		snprintf(buf, len, "the file's run%s: %s, %zu case%s", more,
			 r->status ?: "?", r->ncases, r->ncases == 1 ? "" : "s");
	else
		snprintf(buf, len, "run %lld%s%s%s: %s, %zu case%s",
			 (long long)r->id, more, r->label ? " labelled " : "",
			 r->label ?: "", r->status ?: "?", r->ncases,
			 r->ncases == 1 ? "" : "s");
}

/* Why nothing matched: the first difference found, for the error. */
static void explain_mismatch(const struct build *b, size_t nruns,
			     bool match_job)
{
	const struct run *base = b->runs[0];
	const char *const *specs = b->specs;
	char diff[1100], a[512], c[512];

	for (size_t k = 1; k < nruns; k++)
		for (size_t i = 0; i < base->ncases; i++)
			for (size_t l = 0; l < b->runs[k]->ncases; l++) {
				const struct run_case *bc = &base->cases[i];
				const struct run_case *cc = &b->runs[k]->cases[l];

				if (strcmp(bc->job, cc->job))
					continue;
				if (strcmp(bc->workload, cc->workload)) {
					error("compare: nothing to compare: job %s runs %s in %s but %s in %s",
					      bc->job, bc->workload, specs[0],
					      cc->workload, specs[k]);
					return;
				}
				if (likeness(bc, cc, match_job) == CASE_VERSION) {
					error("compare: nothing to compare: " VERSION_FMT,
					      bc->workload, specs[k], cc->version,
					      specs[0], bc->version);
					return;
				}
				if (match_job) {
					error("compare: nothing to compare: job %s sweeps %s '%s' in %s but '%s' in %s",
					      bc->job, bc->sweep_keys, bc->sweep,
					      specs[0], cc->sweep, specs[k]);
					return;
				}
				param_diff(bc, cc, diff, sizeof(diff));
				error("compare: nothing to compare: job %s has other parameters in %s than in %s (%s); --match job compares them anyway",
				      bc->job, specs[k], specs[0], diff);
				return;
			}
	picked(base, a, sizeof(a));
	picked(b->runs[1], c, sizeof(c));
	error("compare: nothing to compare: no job of %s (%s) is in %s (%s)%s",
	      specs[0], a, specs[1], c,
	      nruns > 2 ? " or the other candidates" : "");
}

/*
 * A case of a candidate with bc's job and sweep but other parameters:
 * noted with the difference (and not again as "only in"). Whether any.
 */
static bool near_case(struct build *b, const struct run_case *bc)
{
	struct comparison *c = b->c;
	char name[512], diff[1100];
	bool any = false;

	for (size_t k = 1; k < c->nruns; k++)
		for (size_t l = 0; l < b->runs[k]->ncases; l++) {
			const struct run_case *x = &b->runs[k]->cases[l];

			if (b->used[k][l] || likeness(bc, x, true) == CASE_OTHER)
				continue;
			b->used[k][l] = true;
			any = true;
			param_diff(bc, x, diff, sizeof(diff));
			note_out(c, "%s: other parameters in %s (%s); --match job compares them",
			     case_name(bc, name, sizeof(name)), c->runs[k].name, diff);
			break;
		}
	return any;
}

/*
 * The first unused case of run k that is bc's experiment (NULL: none),
 * marked used. One that differs only in the workload's version is
 * marked too, with its note, and *version set.
 */
static const struct run_case *match_in(struct build *b, size_t k,
				       const struct run_case *bc,
				       bool match_job, bool *version)
{
	const struct run *r = b->runs[k];
	size_t other = r->ncases;

	for (size_t l = 0; l < r->ncases; l++) {
		enum case_likeness like;

		if (b->used[k][l])
			continue;
		like = likeness(bc, &r->cases[l], match_job);
		if (like == CASE_SAME) {
			b->used[k][l] = true;
			return &r->cases[l];
		}
		if (like == CASE_VERSION && other == r->ncases)
			other = l;
	}
	if (other < r->ncases) {
		b->used[k][other] = true;
		*version = true;
		note_out(b->c, "%s: " VERSION_FMT ": not compared", bc->job,
		     bc->workload, b->c->runs[k].name, r->cases[other].version,
		     b->c->runs[0].name, bc->version);
	}
	return NULL;
}

/* Notes the settings of candidate case x that differ from bc's. */
static void settings_note(struct comparison *c, size_t k,
			  const struct run_case *bc, const struct run_case *x)
{
	struct words a = { 0 }, w = { 0 };
	char diff[1100];

	words_of_list(bc->setting, bc->nsetting, &a);
	words_of_list(x->setting, x->nsetting, &w);
	words_diff(&a, &w, diff, sizeof(diff));
	if (strcmp(diff, "- -> -"))
		note(c, "%s: settings differ in %s: %s", bc->job,
		     c->runs[k].name, diff);
	words_free(&a);
	words_free(&w);
}

static enum verdict combine(enum verdict a, enum verdict b)
{
	static const int rank[] = {
		[V_NO_CHANGE] = 0, [V_IMPROVED] = 1, [V_INCONCLUSIVE] = 2,
		[V_REGRESSED] = 3,
	};

	return rank[b] > rank[a] ? b : a;
}

/* One compared case: its cells, the notes on what differs, the verdicts. */
static void add_case(struct build *b, struct cmp_job *j,
		     const struct run_case *bc, const struct run_case **match,
		     const char **absent, struct store *st, size_t *nnoise)
{
	struct comparison *c = b->c;
	const struct run_noise *rnp;
	struct medians hist;
	struct run_noise rn;
	struct cmp_case *cc;
	char diff[1100];

	j->cases = realloc(j->cases, (j->ncases + 1) * sizeof(*j->cases));
	if (!j->cases)
		abort();
	cc = &j->cases[j->ncases++];
	cc->sweep = bc->sweep;
	cc->params = bc->params;
	cc->cell = xcalloc(c->nruns, sizeof(*cc->cell));
	rnp = case_noise(st, b->runs[0], bc, j->metric.name, &hist, &rn);
	for (size_t k = 0; k < c->nruns; k++) {
		const struct run_case *x = match[k];

		fill_cell(b, j, cc, k, x, absent[k], bc, rnp);
		/* the other metrics' tables are shown, not judged */
		if (!j->metric.headline)
			continue;
		if (x)
			outlier_iterations(b, j, k, x);
		if (!k)
			continue;
		if (x && strcmp(x->params, bc->params)) {
			cc->cell[k].params = x->params;
			param_diff(bc, x, diff, sizeof(diff));
			note(c, "%s: parameters differ in %s: %s", j->job,
			     c->runs[k].name, diff);
		}
		if (x)
			settings_note(c, k, bc, x);
		c->verdict[k] = combine(c->verdict[k],
					x ? cc->cell[k].r.verdict : V_INCONCLUSIVE);
	}
	if (!j->metric.headline)
		return;
	*nnoise += rnp != NULL;
	outlier_runs(b, j, cc, bc, &hist);
}

/* Each table's Gmean ratio row (--ratio) from its cases' means. */
static void gmean_ratios(struct comparison *c)
{
	for (size_t jn = 0; jn < c->njobs; jn++) {
		struct cmp_job *j = &c->jobs[jn];
		double *base = xcalloc(j->ncases + 1, sizeof(double));
		double *cand = xcalloc(j->ncases + 1, sizeof(double));

		j->gmean_ratio = xcalloc(c->nruns, sizeof(double));
		for (size_t k = 0; k < c->nruns; k++) {
			for (size_t i = 0; i < j->ncases; i++) {
				const struct cmp_cell *x = j->cases[i].cell;

				base[i] = x[0].ok ? x[0].s.mean : NAN;
				cand[i] = x[k].ok ? x[k].s.mean : NAN;
			}
			stats_gmean_ratio(base, cand, j->ncases,
					  &j->gmean_ratio[k]);
		}
		free(base);
		free(cand);
	}
}

/* Names, notes on the machine, and the indices every case is read by. */
static void setup(struct build *b, size_t nruns, size_t *most)
{
	struct comparison *c = b->c;

	*most = 1;
	for (size_t k = 0; k < nruns; k++) {
		const struct run *r = b->runs[k];

		c->runs[k].spec = b->specs[k];
		c->runs[k].uuid = r->uuid ? r->uuid : "";
		c->runs[k].name = r->label && *r->label ? r->label : b->specs[k];
		for (size_t l = 0; l < k; l++)
			if (!strcmp(c->runs[l].name, c->runs[k].name))
				c->runs[k].name = b->specs[k];
		b->used[k] = xcalloc(r->ncases + 1, sizeof(bool));
		for (size_t m = 0; m < PM_N; m++)
			b->idx[k].probe[m] = run_metric(r, probe_metrics[m].name);
		for (size_t m = 0; m < NDURATION; m++)
			b->idx[k].duration[m] = run_metric(r, duration_metric[m]);
		for (size_t i = 0; i < r->ncases; i++)
			if (r->cases[i].niter > *most)
				*most = r->cases[i].niter;
	}
	for (size_t k = 0; k < nruns; k++)
		if (b->runs[k]->busy_at_start > 25)
			note(c, "%s: the machine was busy when it started (%.0f%% of CPU time in use): expect shifts between runs",
			     c->runs[k].name, b->runs[k]->busy_at_start);
}

int compare_build(const struct run *const *runs, const char *const *specs,
		  size_t nruns, const struct cmp_opts *o, bool match_job,
		  struct store *st, struct comparison *c)
{
	const struct run *base = runs[0];
	const struct run_case **match = xcalloc(nruns, sizeof(*match));
	const char **absent = xcalloc(nruns, sizeof(*absent));
	struct build b = { .runs = runs, .specs = specs, .c = c, .st = st };
	size_t ncompared = 0, nnoise = 0, most;
	char name[512];

	memset(c, 0, sizeof(*c));
	if (check_metrics(o->metrics, base)) {
		free(match);
		free(absent);
		return -1;
	}
	c->opts = *o;
	c->match = match_job ? "job" : "params";
	c->nruns = nruns;
	c->runs = xcalloc(nruns, sizeof(*c->runs));
	c->verdict = xcalloc(nruns, sizeof(*c->verdict));
	b.idx = xcalloc(nruns, sizeof(*b.idx));
	b.used = xcalloc(nruns, sizeof(*b.used));
	setup(&b, nruns, &most);
	b.xa = xcalloc(most, sizeof(double));
	b.xb = xcalloc(most, sizeof(double));
	/* the runs compared are no evidence of the noise they are tested against */
	b.exclude = xcalloc(nruns + 1, sizeof(*b.exclude));
	for (size_t k = 0; k < nruns; k++) {
		b.exclude = xrealloc(b.exclude, (b.nexclude + runs[k]->nmerged + 2) *
				     sizeof(*b.exclude));
		b.exclude[b.nexclude++] = runs[k]->uuid;
		for (size_t i = 0; i < runs[k]->nmerged; i++)
			b.exclude[b.nexclude++] = runs[k]->merged[i];
	}
	for (size_t i = 0; i < base->ncases; i++) {
		const struct run_case *bc = &base->cases[i];
		bool version = false;
		size_t found = 0, first = 0, ntab = 0;

		match[0] = bc;
		for (size_t k = 1; k < nruns; k++) {
			bool v = false;

			match[k] = match_in(&b, k, bc, match_job, &v);
			absent[k] = v ? "another version of the workload" :
					"not in this run";
			found += match[k] != NULL;
			version |= v;
		}
		/* one run alone (show --layout): every case of it */
		if ((!found && nruns > 1) ||
		    !(ntab = job_for(&b, base, bc, &first))) {
			if (!found && !version && !near_case(&b, bc))
				note_out(c, "%s: only in %s",
				     case_name(bc, name, sizeof(name)),
				     c->runs[0].name);
			continue;
		}
		for (size_t t = 0; t < ntab; t++)
			add_case(&b, &c->jobs[first + t], bc, match, absent, st,
				 &nnoise);
		ncompared++;
	}
	for (size_t k = 1; k < nruns; k++) {
		for (size_t l = 0; l < runs[k]->ncases; l++)
			if (!b.used[k][l])
				note_out(c, "%s: only in %s",
				     case_name(&runs[k]->cases[l], name, sizeof(name)),
				     c->runs[k].name);
		c->overall = combine(c->overall, c->verdict[k]);
	}
	if (b.nrunsunit && b.nmodel < b.nrunsunit) {
		note(c, "%zu of %zu compared cases: no run-to-run noise measured on this host (%d runs of one label needed; 'schedlab calibrate JOB' makes them): one run a side decides nothing there",
		     b.nrunsunit - b.nmodel, b.nrunsunit, NOISE_MIN_PAIRS + 1);
	} else if (!b.nrunsunit && ncompared && nnoise < ncompared && nruns > 1) {
		char which[64];

		/* not "1 of 1 cases" */
		if (ncompared == 1)
			snprintf(which, sizeof(which), "the case");
		else if (!nnoise)
			snprintf(which, sizeof(which), "all %zu cases", ncompared);
		else
			snprintf(which, sizeof(which), "%zu of %zu cases",
				 ncompared - nnoise, ncompared);
		note(c, "%s: < %d runs labelled %s here, no run-to-run noise counted",
		     which, RUN_NOISE_MIN_RUNS,
		     base->label ? base->label : "as the baseline");
	}
	if (!ncompared)
		explain_mismatch(&b, nruns, match_job);
	gmean_ratios(c);
	for (size_t k = 0; k < nruns; k++)
		free(b.used[k]);
	free(b.used);
	free(b.idx);
	free(b.xa);
	free(b.xb);
	noise_set_free(&b.ns);
	free(b.ns_job);
	free(b.ns_metric);
	free(b.exclude);
	free(match);
	free(absent);
	if (!ncompared) {
		compare_free(c);
		return -1;
	}
	return 0;
}

void compare_free(struct comparison *c)
{
	for (size_t j = 0; j < c->njobs; j++) {
		for (size_t i = 0; i < c->jobs[j].ncases; i++) {
			for (size_t k = 0; k < c->nruns; k++)
				free(c->jobs[j].cases[i].cell[k].expl);
			free(c->jobs[j].cases[i].cell);
		}
		free(c->jobs[j].cases);
		free(c->jobs[j].gmean_ratio);
	}
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->notes);
	free(c->note_left_out);
	free(c->jobs);
	free(c->runs);
	free(c->verdict);
	memset(c, 0, sizeof(*c));
}
