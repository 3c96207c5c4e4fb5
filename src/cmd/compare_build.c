// SPDX-License-Identifier: GPL-2.0-only
/*
 * Matching cases across runs and filling a comparison: the part of
 * compare and judge that reads export documents and calls the
 * statistics; report/compare.c formats the result.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/compare.h"
#include "cmd/rundoc.h"
#include "probe/probe.h"
#include "store/store.h"
#include "util.h"

/* The earlier runs of a case that its run-to-run noise is measured on. */
#define HISTORY_RUNS 20

/* Whether two cases are the same experiment. */
static bool same_case(const json_t *x, const json_t *y, bool match_job)
{
	if (strcmp(rundoc_str(x, "job"), rundoc_str(y, "job")) ||
	    strcmp(rundoc_str(x, "workload"), rundoc_str(y, "workload")))
		return false;
	if (match_job)
		return !strcmp(rundoc_str(x, "sweep"), rundoc_str(y, "sweep"));
	return !strcmp(rundoc_str(x, "params"), rundoc_str(y, "params"));
}

/* Appends to out the space-separated words of from that in lacks. */
static void words_missing(const char *from, const char *in, char *out,
			  size_t len)
{
	char *copy = xstrdup(from), *save, *w;

	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		size_t l = strlen(w), used = strlen(out);
		const char *p = in;
		bool found = false;

		while (!found && (p = strstr(p, w))) {
			found = (p == in || p[-1] == ' ') && (p[l] == ' ' || !p[l]);
			p += l;
		}
		if (!found)
			snprintf(out + used, len - used, "%s%s", used ? " " : "", w);
	}
	free(copy);
}

/* "loops=100 -> loops=110": the name=value words of a not in b, and back. */
static void param_diff(const char *a, const char *b, char *buf, size_t len)
{
	char left[512] = "", right[512] = "";

	words_missing(a, b, left, sizeof(left));
	words_missing(b, a, right, sizeof(right));
	snprintf(buf, len, "%s -> %s", *left ? left : "-", *right ? right : "-");
}

static void note(struct comparison *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct comparison *c, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < c->nnotes; i++)
		if (!strcmp(c->notes[i], buf))
			return;
	c->notes = realloc(c->notes, (c->nnotes + 1) * sizeof(*c->notes));
	if (!c->notes)
		abort();
	c->notes[c->nnotes++] = xstrdup(buf);
}

static const char *case_name(const json_t *cs, char *buf, size_t len)
{
	const char *sw = rundoc_str(cs, "sweep");

	snprintf(buf, len, "%s%s%s", rundoc_str(cs, "job"), *sw ? " " : "", sw);
	return buf;
}

static double pop_sd_pct(const double *x, size_t n, double mean)
{
	double ss = 0;

	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return mean != 0 ? 100 * sqrt(ss / (double)n) / fabs(mean) : NAN;
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

static int by_change(const void *x, const void *y)
{
	const struct cmp_expl *a = x, *b = y;
	double ma = isfinite(a->change_pct) ? fabs(a->change_pct) : INFINITY;
	double mb = isfinite(b->change_pct) ? fabs(b->change_pct) : INFINITY;

	return (mb > ma) - (mb < ma);
}

/* The scheduler metrics that changed by lkp-tests' rule, largest first. */
static void explain(struct cmp_cell *cell, const json_t *bc, const json_t *cc)
{
	for (size_t m = 0; m < PM_N; m++) {
		const char *name = probe_metrics[m].name;
		double *a, *b, ma, mb;
		size_t na, nb;
		bool changed = false;

		if (m == PM_PROBE_END_MS)
			continue;	/* the probes' own cost */
		na = rundoc_samples(bc, name, &a);
		nb = rundoc_samples(cc, name, &b);
		if (na && nb && !stats_lkp_changed(a, na, b, nb,
			!strncmp(name, "perf.", 5) ? LKP_RATIO_PERF : LKP_RATIO,
			&changed) && changed) {
			struct cmp_expl *e;

			cell->expl = realloc(cell->expl,
					     (cell->nexpl + 1) * sizeof(*e));
			if (!cell->expl)
				abort();
			e = &cell->expl[cell->nexpl++];
			ma = mean_of(a, na);
			mb = mean_of(b, nb);
			*e = (struct cmp_expl){ .metric = name,
				.base = ma, .base_sd_pct = pop_sd_pct(a, na, ma),
				.cand = mb, .cand_sd_pct = pop_sd_pct(b, nb, mb),
				.change_pct = ma != 0 ? 100 * (mb - ma) / fabs(ma) : NAN };
		}
		free(a);
		free(b);
	}
	if (cell->nexpl > 1)
		qsort(cell->expl, cell->nexpl, sizeof(*cell->expl), by_change);
}

static void add_durations(struct cmp_run *r, const json_t *cs)
{
	static const char *const m[] = {
		"process.user_s", "process.sys_s", "process.wall_s",
	};
	double *sum[] = { &r->user_s, &r->sys_s, &r->elapsed_s };

	for (size_t i = 0; i < ARRAY_SIZE(m); i++) {
		double *x;
		size_t n = rundoc_samples(cs, m[i], &x);

		for (size_t k = 0; k < n; k++)
			*sum[i] += x[k];
		free(x);
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
 * no store or fewer than RUN_NOISE_MIN_RUNS such runs.
 */
static const struct run_noise *case_noise(struct store *st, const char *label,
					  const char *host, const json_t *bc,
					  const char *metric, struct run_noise *rn)
{
	struct medians m = { .n = 0 };

	if (!st || !label ||
	    store_history(st, label, host, rundoc_str(bc, "workload"),
				 (unsigned)json_integer_value(json_object_get(bc, "version")),
				 rundoc_str(bc, "params"), metric, HISTORY_RUNS,
				 add_median, &m) < 0)
		return NULL;
	return stats_run_noise(m.x, m.n, rn) ? NULL : rn;
}

/* Fills one cell from its case (NULL: the run lacks it). */
static void fill_cell(struct comparison *c, struct cmp_job *j,
		      struct cmp_cell *cell, size_t k, const json_t *cs,
		      const json_t *base, const struct cmp_cell *bcell,
		      const struct run_noise *rn)
{
	double *x, *bx = NULL;
	size_t n, bn = 0;

	if (!cs) {
		cell->failed = "not in this run";
		if (k) {
			stats_compare(NULL, 0, NULL, 0, j->metric.better,
				      &c->opts, NULL, &cell->r);
			snprintf(cell->r.why, sizeof(cell->r.why), "not in this run");
		}
		return;
	}
	cell->present = true;
	add_durations(&c->runs[k], cs);
	if (strcmp(rundoc_str(cs, "status"), "complete"))
		cell->failed = json_string_value(json_object_get(cs, "reason")) ?:
			       "failed";
	n = rundoc_samples(cs, j->metric.name, &x);
	if (!n && !cell->failed)
		cell->failed = "no samples";
	cell->ok = n && !summarize(x, n, j->metric.better, &cell->s);
	for (int row = 0; row < MM_NROWS; row++)
		cell->pct[row] = k && cell->ok && bcell->ok ?
			mm_row_pct(row, mm_row_value(&bcell->s, row),
				   mm_row_value(&cell->s, row), j->metric.better) :
			k ? NAN : 0;
	if (k) {
		bn = rundoc_samples(base, j->metric.name, &bx);
		stats_compare(bx, bn, x, n, j->metric.better, &c->opts, rn,
			      &cell->r);
		if (cell->failed)
			snprintf(cell->r.why, sizeof(cell->r.why), "%s",
				 cell->failed);
		explain(cell, base, cs);
		free(bx);
	}
	free(x);
}

/* The job of base case bc: the last one if it is the same, else a new one. */
static struct cmp_job *job_for(struct comparison *c, const json_t *doc,
			       const json_t *bc)
{
	struct cmp_job *j = c->njobs ? &c->jobs[c->njobs - 1] : NULL;
	const json_t *metrics = json_object_get(doc, "metrics");
	const char *wl = rundoc_str(bc, "workload"), *mname, *job;
	const json_t *meta;

	job = rundoc_str(bc, "job");
	if (j && !strcmp(j->job, job) && !strcmp(j->workload, wl))
		return j;
	mname = rundoc_headline(metrics, wl);
	if (!mname) {
		note(c, "job %s: workload %s has no headline metric", job, wl);
		return NULL;
	}
	c->jobs = realloc(c->jobs, (c->njobs + 1) * sizeof(*c->jobs));
	if (!c->jobs)
		abort();
	j = &c->jobs[c->njobs++];
	meta = json_object_get(metrics, mname);
	*j = (struct cmp_job){ .job = job, .workload = wl,
		.sweep_keys = rundoc_str(bc, "sweep_keys"),
		.metric = { .name = mname, .unit = rundoc_str(meta, "unit"),
			    .better = rundoc_better(rundoc_str(meta, "better")),
			    .headline = true } };
	return j;
}

/* Why nothing matched: the first difference found, for the error. */
static void explain_mismatch(json_t *const *docs, const char *const *specs,
			     size_t nruns, bool match_job)
{
	const json_t *bcases = json_object_get(docs[0], "cases"), *bc, *cc;
	size_t i, k, l;
	char diff[1100];

	for (k = 1; k < nruns; k++) {
		const json_t *ccases = json_object_get(docs[k], "cases");

		json_array_foreach((json_t *)bcases, i, bc)
			json_array_foreach((json_t *)ccases, l, cc) {
				if (strcmp(rundoc_str(bc, "job"), rundoc_str(cc, "job")))
					continue;
				if (strcmp(rundoc_str(bc, "workload"),
					   rundoc_str(cc, "workload"))) {
					error("compare: nothing to compare: job %s runs %s in %s but %s in %s",
					      rundoc_str(bc, "job"), rundoc_str(bc, "workload"),
					      specs[0], rundoc_str(cc, "workload"), specs[k]);
					return;
				}
				if (match_job) {
					error("compare: nothing to compare: job %s sweeps %s '%s' in %s but '%s' in %s",
					      rundoc_str(bc, "job"), rundoc_str(bc, "sweep_keys"),
					      rundoc_str(bc, "sweep"), specs[0],
					      rundoc_str(cc, "sweep"), specs[k]);
					return;
				}
				param_diff(rundoc_str(bc, "params"), rundoc_str(cc, "params"),
					   diff, sizeof(diff));
				error("compare: nothing to compare: job %s has other parameters in %s than in %s (%s); --match job compares them anyway",
				      rundoc_str(bc, "job"), specs[k], specs[0], diff);
				return;
			}
	}
	error("compare: nothing to compare: no job of %s is in %s%s",
	      specs[0], specs[1], nruns > 2 ? " or the other candidates" : "");
}

/*
 * A case of a candidate with bc's job and sweep but other parameters:
 * noted with the difference (and not again as "only in"). Whether any.
 */
static bool near_case(struct comparison *c, json_t *const *docs, bool **used,
		      const json_t *bc)
{
	char name[512], diff[1100];
	bool any = false;

	for (size_t k = 1; k < c->nruns; k++) {
		const json_t *x;
		size_t l;

		json_array_foreach(json_object_get(docs[k], "cases"), l, x) {
			if (used[k][l] || !same_case(bc, x, true))
				continue;
			used[k][l] = true;
			any = true;
			param_diff(rundoc_str(bc, "params"), rundoc_str(x, "params"),
				   diff, sizeof(diff));
			note(c, "%s: other parameters in %s (%s); --match job compares them",
			     case_name(bc, name, sizeof(name)), c->runs[k].name, diff);
			break;
		}
	}
	return any;
}

static enum verdict combine(enum verdict a, enum verdict b)
{
	static const int rank[] = {
		[V_NO_CHANGE] = 0, [V_IMPROVED] = 1, [V_INCONCLUSIVE] = 2,
		[V_REGRESSED] = 3,
	};

	return rank[b] > rank[a] ? b : a;
}

int compare_build(json_t *const *docs, const char *const *specs,
		  size_t nruns, const struct cmp_opts *o, bool match_job,
		  struct store *st, struct comparison *c)
{
	const json_t *bcases = json_object_get(docs[0], "cases"), *bc;
	const json_t *brun = json_object_get(docs[0], "run");
	const char *host = json_string_value(json_object_get(brun, "host"));
	const char *label = json_string_value(json_object_get(brun, "label"));
	bool **used = xcalloc(nruns, sizeof(*used));
	size_t i, ncompared = 0, nnoise = 0;
	char name[512], diff[1100];

	memset(c, 0, sizeof(*c));
	c->opts = *o;
	c->match = match_job ? "job" : "params";
	c->nruns = nruns;
	c->runs = xcalloc(nruns, sizeof(*c->runs));
	c->verdict = xcalloc(nruns, sizeof(*c->verdict));
	for (size_t k = 0; k < nruns; k++) {
		const json_t *run = json_object_get(docs[k], "run");

		c->runs[k].spec = specs[k];
		c->runs[k].uuid = rundoc_str(run, "uuid");
		c->runs[k].name = *rundoc_str(run, "label") ?
				  rundoc_str(run, "label") : specs[k];
		for (size_t l = 0; l < k; l++)
			if (!strcmp(c->runs[l].name, c->runs[k].name))
				c->runs[k].name = specs[k];
		used[k] = xcalloc(json_array_size(json_object_get(docs[k], "cases")) + 1,
				  sizeof(bool));
	}
	for (size_t k = 0; k < nruns; k++) {
		const json_t *busy = json_object_get(json_object_get(
			json_object_get(docs[k], "environment"), "busy_at_start"), "value");

		if (json_is_number(busy) && json_number_value(busy) > 25)
			note(c, "%s: the machine was busy when it started (%.0f%% of CPU time in use): expect shifts between runs",
			     c->runs[k].name, json_number_value(busy));
	}
	json_array_foreach((json_t *)bcases, i, bc) {
		const json_t **match = xcalloc(nruns, sizeof(*match));
		const struct run_noise *rnp;
		struct run_noise rn;
		struct cmp_job *j;
		struct cmp_case *cc;
		size_t found = 0;

		match[0] = bc;
		for (size_t k = 1; k < nruns; k++) {
			const json_t *cases = json_object_get(docs[k], "cases"), *x;
			size_t l;

			json_array_foreach((json_t *)cases, l, x)
				if (!used[k][l] && same_case(bc, x, match_job)) {
					used[k][l] = true;
					match[k] = x;
					found++;
					break;
				}
		}
		if (!found || !(j = job_for(c, docs[0], bc))) {
			if (!found && !near_case(c, docs, used, bc))
				note(c, "%s: only in %s", case_name(bc, name, sizeof(name)),
				     c->runs[0].name);
			free(match);
			continue;
		}
		j->cases = realloc(j->cases, (j->ncases + 1) * sizeof(*j->cases));
		if (!j->cases)
			abort();
		cc = &j->cases[j->ncases++];
		cc->sweep = rundoc_str(bc, "sweep");
		cc->params = rundoc_str(bc, "params");
		cc->cell = xcalloc(nruns, sizeof(*cc->cell));
		rnp = case_noise(st, label, host, bc, j->metric.name, &rn);
		nnoise += rnp != NULL;
		for (size_t k = 0; k < nruns; k++) {
			fill_cell(c, j, &cc->cell[k], k, match[k], bc, &cc->cell[0],
				  rnp);
			if (k && match[k] && strcmp(rundoc_str(match[k], "params"), cc->params)) {
				cc->cell[k].params = rundoc_str(match[k], "params");
				param_diff(cc->params, cc->cell[k].params, diff, sizeof(diff));
				note(c, "%s: parameters differ in %s: %s", j->job,
				     c->runs[k].name, diff);
			}
			if (k && match[k])
				c->verdict[k] = combine(c->verdict[k], cc->cell[k].r.verdict);
			else if (k)
				c->verdict[k] = combine(c->verdict[k], V_INCONCLUSIVE);
		}
		ncompared++;
		free(match);
	}
	for (size_t k = 1; k < nruns; k++) {
		const json_t *x;
		size_t l;

		json_array_foreach(json_object_get(docs[k], "cases"), l, x)
			if (!used[k][l])
				note(c, "%s: only in %s", case_name(x, name, sizeof(name)),
				     c->runs[k].name);
		c->overall = combine(c->overall, c->verdict[k]);
	}
	for (size_t k = 0; k < nruns; k++)
		free(used[k]);
	free(used);
	if (ncompared && nnoise < ncompared)
		note(c, "%zu of %zu cases: < %d runs labelled %s here, no run-to-run noise counted",
		     ncompared - nnoise, ncompared, RUN_NOISE_MIN_RUNS,
		     label ? label : "as the baseline");
	if (!ncompared) {
		explain_mismatch(docs, specs, nruns, match_job);
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
	}
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->notes);
	free(c->jobs);
	free(c->runs);
	free(c->verdict);
	memset(c, 0, sizeof(*c));
}
