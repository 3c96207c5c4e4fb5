// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare/notes.c: the comparison's notes in words (compare_int.h): how
 * two cases' options or settings differ, the outlying iterations and
 * runs, the scheduler metrics that moved (lkp-tests' rule), and why
 * nothing matched. One line each whatever a label holds.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"
#include "util.h"

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
void build_param_diff(const struct run_case *x, const struct run_case *y,
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
void build_note(struct comparison *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(c, false, fmt, ap);
	va_end(ap);
}

/*
 * The note on the run-to-run noise the run-level tests used, case by
 * case: the sides' own runs, this host's noise model with them, or
 * nothing (one run a side and no model), so that it agrees with the
 * verdict it sits under.
 */
void build_noise_note(const struct build *b)
{
	size_t none = b->nrunsunit - b->nmodel - b->nown, n = 0;
	char what[512] = "";
	char miss[256];

	snprintf(miss, sizeof(miss),
		 "one run a side, and no model of this host's noise from runs other than these (%d runs of one label make one; 'schedlab calibrate JOB'): one run a side decides nothing there but a difference of a factor %g in time and CPU time",
		 NOISE_MIN_PAIRS + 1, NOISE_HUGE_RATIO);
	if (b->nrunsunit == 1) {
		if (b->nown || b->nmodel)
			build_note(b->c, "the case: run-to-run noise from %s",
				   b->nown ? "the sides' own runs" :
				   "this host's noise model (other runs of the case)");
		else
			build_note(b->c, "the case: no run-to-run noise to test against: %s",
				   miss);
		return;
	}
	if (b->nown)
		n += (size_t)snprintf(what + n, sizeof(what) - n,
				      "the sides' own runs in %zu", b->nown);
	if (b->nmodel && n < sizeof(what))
		n += (size_t)snprintf(what + n, sizeof(what) - n,
				      "%sthis host's noise model in %zu",
				      n ? ", " : "", b->nmodel);
	if (none && n < sizeof(what))
		snprintf(what + n, sizeof(what) - n, "%snone in %zu (%s)",
			 n ? ", " : "", none, miss);
	build_note(b->c, "run-to-run noise of the %zu compared cases: %s",
		   b->nrunsunit, what);
}

/* Whether the runs are the sides of one A/B (ab's variants). */
static bool one_ab(const struct run *const *runs, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!runs[k]->ab || strcmp(runs[k]->ab, runs[0]->ab))
			return false;
	return true;
}

void build_noise_notes(const struct build *b, size_t ncompared, size_t nnoise)
{
	const struct run *base = b->runs[0];
	size_t nruns = b->c->nruns;
	char which[64];

	if (b->nrunsunit) {
		build_noise_note(b);
		return;
	}
	if (!ncompared || nruns < 2)
		return;
	if (!b->st && one_ab(b->runs, nruns)) {
		build_note(b->c, "run-to-run noise: none needed, the runs were made side by side in one A/B (the iterations are the unit)");
		return;
	}
	if (nnoise >= ncompared)
		return;
	/* not "1 of 1 cases" */
	if (ncompared == 1)
		snprintf(which, sizeof(which), "the case");
	else if (!nnoise)
		snprintf(which, sizeof(which), "all %zu cases", ncompared);
	else
		snprintf(which, sizeof(which), "%zu of %zu cases",
			 ncompared - nnoise, ncompared);
	build_note(b->c, "%s: < %d runs labelled %s here, no run-to-run noise counted",
		   which, RUN_NOISE_MIN_RUNS,
		   base->label ? base->label : "as the baseline");
}

/* A note on a case left out: the html page heads these "Not compared". */
void build_note_out(struct comparison *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(c, true, fmt, ap);
	va_end(ap);
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
void build_explain(struct build *b, struct cmp_cell *cell, size_t k,
		    const struct run_case *bc, const struct run_case *cc)
{
	const struct run *base = b->runs[0];

	for (size_t m = 0; m < PM_N; m++) {
		if (m == PM_PROBE_END_MS)
			continue;	/* the probes' own cost */
		explain_one(b, cell, probe_metrics[m].name, probe_metrics[m].unit,
			    build_samples(bc, b->idx[0].probe[m], b->xa),
			    build_samples(cc, b->idx[k].probe[m], b->xb));
	}
	for (size_t m = 0; m < base->nmetrics; m++) {
		const char *name = base->metrics[m].name;
		size_t len = strlen(name);

		if (strncmp(name, "monitor.", 8) || len < 13 ||
		    strcmp(name + len - 5, ".mean"))
			continue;
		explain_one(b, cell, name, base->metrics[m].unit,
			    build_samples(bc, (int)m, b->xa),
			    build_samples(cc, run_metric(b->runs[k], name), b->xb));
	}
	if (cell->nexpl > 1)
		qsort(cell->expl, cell->nexpl, sizeof(*cell->expl), by_change);
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
void build_outlier_iterations(struct build *b, const struct cmp_job *j,
			       size_t k, const struct run_case *cs)
{
	double med, mad, out[OUTLIERS_LISTED], *x = b->xa;
	size_t n = build_samples(cs, run_metric(b->runs[k], j->metric.name), x);
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
	build_note(b->c, "%s in %s: %zu of %zu iterations %s (modified Z > %g): %s",
	     build_case_name(cs, name, sizeof(name)), b->c->runs[k].name, nout, n,
	     nout == 1 ? "is an outlier" : "are outliers", OUTLIER_Z, vals);
}

/*
 * The baseline's median, and each candidate's, against the medians of
 * the baseline's repeats m: a baseline that is itself an outlier among
 * them is a poor reference (another run of it would compare otherwise),
 * and a candidate far outside them differs from every run of the
 * baseline, not only from the one compared.
 */
void build_outlier_runs(struct build *b, const struct cmp_job *j,
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
	build_case_name(bc, name, sizeof(name));
	for (size_t k = 0; k < c->nruns; k++) {
		const struct cmp_cell *cell = &cc->cell[k];

		if (!cell->ok || stats_modified_z(m->x, m->n, cell->s.median, &z) ||
		    !(fabs(z) > OUTLIER_Z))
			continue;
		if (!k)
			build_note(b->c, "%s: the baseline (%s) is an outlier among the %zu runs labelled %s here (modified Z %.1f): its median %.4g%s%s against %.4g%s%s",
			     name, c->runs[0].name, m->n, label, z, cell->s.median,
			     sp, unit, center, sp, unit);
		else
			build_note(b->c, "%s in %s: the median %.4g%s%s is far outside the %zu runs labelled %s here (modified Z %.1f; their median %.4g%s%s)",
			     name, c->runs[k].name, cell->s.median, sp, unit,
			     m->n, label, z, center, sp, unit);
	}
}

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
void build_explain_mismatch(const struct build *b, size_t nruns,
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
				if (build_likeness(bc, cc, match_job) == CASE_VERSION) {
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
				build_param_diff(bc, cc, diff, sizeof(diff));
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

/* Notes the settings of candidate case x that differ from bc's. */
void build_settings_note(struct comparison *c, size_t k,
			  const struct run_case *bc, const struct run_case *x)
{
	struct words a = { 0 }, w = { 0 };
	char diff[1100];

	words_of_list(bc->setting, bc->nsetting, &a);
	words_of_list(x->setting, x->nsetting, &w);
	words_diff(&a, &w, diff, sizeof(diff));
	if (strcmp(diff, "- -> -"))
		build_note(c, "%s: settings differ in %s: %s", bc->job,
		     c->runs[k].name, diff);
	words_free(&a);
	words_free(&w);
}
