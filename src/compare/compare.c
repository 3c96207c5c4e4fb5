// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare/compare.c: the comparison (compare/compare.h) from typed runs
 * (model/run.h): the cases of a baseline and its candidates paired by
 * the one matcher (compare/match.h), and for each the summaries, tests,
 * verdicts and scheduler metrics that moved - all computed by
 * src/stats/; the renderers (report/render_compare.h) only format the result.
 * The store, when given, is read for the baseline's earlier runs (its
 * run-to-run noise) and the host's noise models (compare/noise_model.h).
 */
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"
#include "util.h"

/* The CPU time of a case, summed into struct cmp_run. */
static const char *const duration_metric[NDURATION] = {
	"process.user_s", "process.sys_s", "process.wall_s",
};
_Static_assert(ARRAY_SIZE(duration_metric) == NDURATION, "NDURATION");

static void add_durations(struct build *b, size_t k, const struct run_case *cs)
{
	struct cmp_run *r = &b->c->runs[k];
	double *sum[NDURATION] = { &r->user_s, &r->sys_s, &r->elapsed_s };

	for (size_t i = 0; i < NDURATION; i++) {
		size_t n = build_samples(cs, b->idx[k].duration[i], b->xa);

		for (size_t s = 0; s < n; s++)
			*sum[i] += b->xa[s];
	}
}

/* Whether a case ran without the probes (its run setting "probes"). */
static bool probes_off(const struct run_case *rc)
{
	const char *p = rc ? run_setting(rc, "probes") : NULL;

	return p && !strcmp(p, "off");
}

/* The mmtests rows' changes of run k's cell against the baseline's bcell. */
static void cell_rows(struct cmp_cell *cell, const struct cmp_cell *bcell,
		      size_t k, enum better dir)
{
	for (int row = 0; row < MM_NROWS; row++)
		cell->pct[row] = !(k && cell->ok && bcell->ok) ? (k ? NAN : 0) :
			cell->points ?
			mm_row_pt(row, mm_row_value(&bcell->s, row),
				  mm_row_value(&cell->s, row), dir) :
			mm_row_pct(row, mm_row_value(&bcell->s, row),
				   mm_row_value(&cell->s, row), dir);
}

/* A ratio's change at the baseline's level (points), as test t measured it. */
static void cell_points(struct cmp_cell *cell, const struct cmp_cell *bcell,
			enum stat_test t)
{
	double level = stat_test_medians(t) ?
		       bcell->s.median : cmp_cell_stat(bcell, STAT_AMEAN);

	cell->pt = level * cell->r.change / 100;
	cell->pt_lo = level * cell->r.lo / 100;
	cell->pt_hi = level * cell->r.hi / 100;
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
	n = build_samples(cs, m, b->xb);
	if (!n && !cell->failed)
		cell->failed = "no samples";
	cell->ok = !cell->failed &&
		   !summarize(b->xb, n, j->metric.better, &cell->s);
	cell_rows(cell, bcell, k, dir);
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
	if (build_runs_unit(b, k)) {
		build_compare_runs(b, j, bc, cs, k, dir, &cell->r);
		c->runs_used = true;
		if (j->metric.headline) {
			/* the noise the test used: the note says so */
			b->nrunsunit++;
			if (cell->r.noise_runs)
				b->nmodel++;
			else if (isfinite(cell->r.noise_pct))
				b->nown++;
		}
	} else {
		bn = build_samples(bc, run_metric(b->runs[0], j->metric.name), b->xa);
		stats_compare(b->xa, bn, b->xb, n, dir, &c->opts, rn, &cell->r);
	}
	if (cell->points)
		cell_points(cell, bcell, c->opts.test);
	if (j->metric.headline)
		build_explain(b, cell, k, bc, cs);
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
		if (!found) {
			/* the baseline's metrics, at most 20: what to type instead */
			char list[1024] = "";
			size_t n = 0;

			for (size_t m = 0; m < base->nmetrics && m < 20 && n < sizeof(list); m++)
				n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
						      m ? ", " : "", base->metrics[m].name);
			ret = error("compare: --metrics: '%s' matches no metric of the baseline (its metrics: %s%s); give headline, all or globs such as 'wakeup.p*,sched.*'",
				    t, list, base->nmetrics > 20 ? ", ..." : "");
		}
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
		build_note_out(c, "job %s: workload %s has no headline metric", bc->job,
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

			if (b->used[k][l] || build_likeness(bc, x, true) == CASE_OTHER)
				continue;
			b->used[k][l] = true;
			any = true;
			build_param_diff(bc, x, diff, sizeof(diff));
			build_note_out(c, "%s: other parameters in %s (%s); --match job compares them",
			     build_case_name(bc, name, sizeof(name)), c->runs[k].name, diff);
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
		like = build_likeness(bc, &r->cases[l], match_job);
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
		build_note_out(b->c, "%s: " VERSION_FMT ": not compared", bc->job,
		     bc->workload, b->c->runs[k].name, r->cases[other].version,
		     b->c->runs[0].name, bc->version);
	}
	return NULL;
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
	rnp = build_case_noise(st, b->runs[0], bc, j->metric.name, &hist, &rn);
	for (size_t k = 0; k < c->nruns; k++) {
		const struct run_case *x = match[k];

		fill_cell(b, j, cc, k, x, absent[k], bc, rnp);
		/* the other metrics' tables are shown, not judged */
		if (!j->metric.headline)
			continue;
		if (x)
			build_outlier_iterations(b, j, k, x);
		if (!k)
			continue;
		if (x && strcmp(x->params, bc->params)) {
			cc->cell[k].params = x->params;
			build_param_diff(bc, x, diff, sizeof(diff));
			build_note(c, "%s: parameters differ in %s: %s", j->job,
			     c->runs[k].name, diff);
		}
		if (x)
			build_settings_note(c, k, bc, x);
		c->verdict[k] = combine(c->verdict[k],
					x ? cc->cell[k].r.verdict : V_INCONCLUSIVE);
	}
	if (!j->metric.headline)
		return;
	*nnoise += rnp != NULL;
	build_outlier_runs(b, j, cc, bc, &hist);
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
			build_note(c, "%s: the machine was busy when it started (%.0f%% of CPU time in use): expect shifts between runs",
			     c->runs[k].name, b->runs[k]->busy_at_start);
}

/* Leaves the runs compared out of the noise they are tested against. */
static void exclude_compared(struct build *b, size_t nruns)
{
	b->exclude = xcalloc(nruns + 1, sizeof(*b->exclude));
	for (size_t k = 0; k < nruns; k++) {
		const struct run *r = b->runs[k];

		b->exclude = xrealloc(b->exclude, (b->nexclude + r->nmerged + 2) *
				      sizeof(*b->exclude));
		b->exclude[b->nexclude++] = r->uuid;
		for (size_t i = 0; i < r->nmerged; i++)
			b->exclude[b->nexclude++] = r->merged[i];
	}
}

/*
 * Matches each case of the baseline in the other runs and compares it;
 * returns how many were compared, *nnoise of them against a run-to-run
 * noise.
 */
static size_t match_cases(struct build *b, size_t nruns, bool match_job,
			  size_t *nnoise)
{
	const struct run *base = b->runs[0];
	const struct run_case **match = xcalloc(nruns, sizeof(*match));
	const char **absent = xcalloc(nruns, sizeof(*absent));
	size_t ncompared = 0;
	char name[512];

	for (size_t i = 0; i < base->ncases; i++) {
		const struct run_case *bc = &base->cases[i];
		bool version = false;
		size_t found = 0, first = 0, ntab = 0;

		match[0] = bc;
		for (size_t k = 1; k < nruns; k++) {
			bool v = false;

			match[k] = match_in(b, k, bc, match_job, &v);
			absent[k] = v ? "another version of the workload" :
					"not in this run";
			found += match[k] != NULL;
			version |= v;
		}
		/* one run alone (show --layout): every case of it */
		if ((!found && nruns > 1) ||
		    !(ntab = job_for(b, base, bc, &first))) {
			if (!found && !version && !near_case(b, bc))
				build_note_out(b->c, "%s: only in %s",
				     build_case_name(bc, name, sizeof(name)),
				     b->c->runs[0].name);
			continue;
		}
		for (size_t t = 0; t < ntab; t++)
			add_case(b, &b->c->jobs[first + t], bc, match, absent,
				 b->st, nnoise);
		ncompared++;
	}
	free(match);
	free(absent);
	return ncompared;
}

/* Frees what building a comparison needed, not the comparison. */
static void build_free(struct build *b, size_t nruns)
{
	for (size_t k = 0; k < nruns; k++)
		free(b->used[k]);
	free(b->used);
	free(b->idx);
	free(b->xa);
	free(b->xb);
	noise_set_free(&b->ns);
	free(b->ns_job);
	free(b->ns_metric);
	free(b->exclude);
}

int compare_build(const struct run *const *runs, const char *const *specs,
		  size_t nruns, const struct cmp_opts *o, bool match_job,
		  struct store *st, struct comparison *c)
{
	const struct run *base = runs[0];
	struct build b = { .runs = runs, .specs = specs, .c = c, .st = st };
	size_t ncompared = 0, nnoise = 0, most;
	char name[512];

	memset(c, 0, sizeof(*c));
	if (check_metrics(o->metrics, base))
		return -1;
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
	exclude_compared(&b, nruns);
	ncompared = match_cases(&b, nruns, match_job, &nnoise);
	for (size_t k = 1; k < nruns; k++) {
		for (size_t l = 0; l < runs[k]->ncases; l++)
			if (!b.used[k][l])
				build_note_out(c, "%s: only in %s",
				     build_case_name(&runs[k]->cases[l], name, sizeof(name)),
				     c->runs[k].name);
		c->overall = combine(c->overall, c->verdict[k]);
	}
	build_noise_notes(&b, ncompared, nnoise);
	if (!ncompared)
		build_explain_mismatch(&b, nruns, match_job);
	gmean_ratios(c);
	build_free(&b, nruns);
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
