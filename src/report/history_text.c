// SPDX-License-Identifier: GPL-2.0-only
/*
 * report/history_text.c: `schedlab history` as text (a table per case, each
 * change point a marked line between its two runs, then the change
 * points in words) and as the "schedlab-history/1" JSON document
 * (doc/export.md). Numbers come from the model (report/render_history.h).
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/render_history.h"
#include "util.h"

void history_when(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;

	gmtime_r(&s, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}

/* Whether a change of sign pct is for the worse, by the metric's direction. */
static const char *verdict(const struct store_series_metric *m, double pct)
{
	if (m->better == BETTER_NONE || pct == 0)
		return "";
	return (pct > 0) == (m->better == BETTER_LOWER) ? " (worse)" : " (better)";
}

static void change_words(FILE *f, const struct cp_point *p)
{
	fprintf(f, "%+.1f%% [%+.1f%%, %+.1f%%] p=%.3g", p->change_pct, p->lo_pct,
		p->hi_pct, p->p);
}

static void run_words(FILE *f, const struct history *h, const struct history_run *r)
{
	char *label = text_field(r->c->label, "-"), when[32];

	history_when(r->c->started, when, sizeof(when));
	fprintf(f, "run %lld '%s' (%s", (long long)r->c->run_id, label, when);
	free(label);
	if (h->by == BY_KERNEL) {
		char *kernel = text_field(r->c->kernel, "-");

		fprintf(f, ", kernel %s", kernel);
		free(kernel);
	}
	if (h->by == BY_COMMIT)
		fprintf(f, ", commit %.12s", r->commit);
	fputc(')', f);
}

/*
 * A run's spread, "Q1-Q3 (MIN-MAX)", each with 4 significant digits and
 * its trailing zeros (%#g), so that the rows line up digit for digit;
 * returns its length.
 */
static int spread_of(const struct history_run *r, char *buf, size_t len)
{
	return snprintf(buf, len, "%#.4g-%#.4g (%#.4g-%#.4g)", r->q1, r->q3,
			r->min, r->max);
}

/* Which runs have which settings, when the series' runs differ in them. */
static void settings_text(FILE *f, const struct history_series *s)
{
	size_t len = 64;
	char *text;
	int n;

	if (!s->nsettings)
		return;
	for (size_t k = 0; k < s->nsettings; k++)
		len += strlen(s->settings[k].settings) + strlen(s->settings[k].runs) + 24;
	text = xmalloc(len);
	n = snprintf(text, len, "note: the runs' settings differ:");
	for (size_t k = 0; k < s->nsettings; k++)
		n += snprintf(text + n, len - (size_t)n, " %s in run%s %s%s",
			      *s->settings[k].settings ? s->settings[k].settings : "none",
			      strpbrk(s->settings[k].runs, ",-") ? "s" : "",
			      s->settings[k].runs,
			      k + 1 < s->nsettings ? ";" : "");
	text_wrap(f, "", "  ", text, 80);
	free(text);
}

/* A series' table cells and widths, shared by its table and change points. */
struct series_cells {
	/* a label or kernel as one cell: a newline in it is "\\n" */
	char **label, **kernel;
	int lw, kw, sw;		/* the label, kernel or commit and spread widths */
};

/* Each run's label and kernel as cells, and the columns' widths. */
static void cells_of(const struct history *h, const struct history_series *s,
		     struct series_cells *sc)
{
	sc->sw = 13;	/* "IQR (MIN-MAX)" */
	sc->lw = 5;
	sc->kw = h->by == BY_COMMIT ? 12 : h->by == BY_KERNEL ? 6 : 0;
	sc->label = xcalloc(s->n ? s->n : 1, sizeof(*sc->label));
	sc->kernel = xcalloc(s->n ? s->n : 1, sizeof(*sc->kernel));
	for (size_t i = 0; i < s->n; i++) {
		char spread[160];
		int l, k;

		sc->label[i] = text_field(s->runs[i].c->label, "-");
		sc->kernel[i] = text_field(s->runs[i].c->kernel, "-");
		l = (int)strlen(sc->label[i]);
		k = h->by == BY_KERNEL ? (int)strlen(sc->kernel[i]) : 0;

		if (l > sc->lw)
			sc->lw = l < 40 ? l : 40;
		if (k > sc->kw)
			sc->kw = k < 40 ? k : 40;
		l = spread_of(&s->runs[i], spread, sizeof(spread));
		if (l > sc->sw)
			sc->sw = l;
	}
	if (sc->kw)
		sc->kw += 2;
}

/* Frees what cells_of() made. */
static void cells_free(const struct history_series *s, struct series_cells *sc)
{
	for (size_t i = 0; i < s->n; i++) {
		free(sc->label[i]);
		free(sc->kernel[i]);
	}
	free(sc->label);
	free(sc->kernel);
}

/* The runs' table, each change point a marked line between its two runs. */
static void runs_text(FILE *f, const struct history *h,
		      const struct history_series *s, const struct series_cells *sc)
{
	size_t next = 0;

	fprintf(f, "\n%6s  %-*s  %-19s  %-*s%12s  %-*s  %4s\n", "RUN", sc->lw, "LABEL",
		"STARTED (UTC)", sc->kw,
		h->by == BY_KERNEL ? "KERNEL" : h->by == BY_COMMIT ? "COMMIT" : "",
		"MEDIAN", sc->sw, "IQR (MIN-MAX)", "N");
	for (size_t i = 0; i < s->n; i++) {
		const struct history_run *r = &s->runs[i];
		char when[32], spread[160];

		if (next < s->npoints && s->points[next].cp.index == i) {
			fprintf(f, "---- change: ");
			change_words(f, &s->points[next].cp);
			fprintf(f, "%s ----\n", verdict(h->metric, s->points[next].cp.change_pct));
			next++;
		}
		history_when(r->c->started, when, sizeof(when));
		spread_of(r, spread, sizeof(spread));
		fprintf(f, "%6lld  %-*.*s  %-19s  ", (long long)r->c->run_id, sc->lw,
			sc->lw, sc->label[i], when);
		if (h->by == BY_KERNEL)
			fprintf(f, "%-*.*s", sc->kw, sc->kw - 2, sc->kernel[i]);
		else if (h->by == BY_COMMIT)
			fprintf(f, "%-*.12s", sc->kw, r->commit);
		fprintf(f, "%#12.5g  %-*s  %4zu\n", r->median, sc->sw, spread, r->c->n);
	}
}

/* The change points in words: the runs either side, what else changed. */
static void points_text(FILE *f, const struct history *h,
			const struct history_series *s, const struct series_cells *sc)
{
	for (size_t i = 0; i < s->npoints; i++) {
		const struct history_point *p = &s->points[i];

		fprintf(f, "change point %zu: ", i + 1);
		change_words(f, &p->cp);
		fprintf(f, "%s, %.6g -> %.6g %s\n  between ", verdict(h->metric, p->cp.change_pct),
			p->cp.before, p->cp.after, h->metric->unit);
		run_words(f, h, p->good);
		fprintf(f, "\n      and ");
		run_words(f, h, p->bad);
		fputc('\n', f);
		if (h->by == BY_KERNEL)
			fprintf(f, "  kernels %s -> %s\n", sc->kernel[p->good - s->runs],
				sc->kernel[p->bad - s->runs]);
		if (strcmp(p->good->settings, p->bad->settings))
			fprintf(f, "  settings %s -> %s: the step may be theirs\n",
				*p->good->settings ? p->good->settings : "none",
				*p->bad->settings ? p->bad->settings : "none");
		if (p->bisect)
			fprintf(f, "  narrow it down:\n    %s\n    %s\n", p->bisect, p->judge);
	}
}

static void series_text(FILE *f, const struct history *h, const struct history_series *s)
{
	struct series_cells sc;

	cells_of(h, s, &sc);
	fprintf(f, "\ncase %s: %zu run%s", *s->name ? s->name : "(the job's one)", s->n,
		s->n == 1 ? "" : "s");
	if (s->why)
		fprintf(f, ", no change points looked for: %s", s->why);
	else
		fprintf(f, ", %zu change point%s", s->npoints, s->npoints == 1 ? "" : "s");
	runs_text(f, h, s, &sc);
	settings_text(f, s);
	points_text(f, h, s, &sc);
	cells_free(s, &sc);
}

int render_history_text(FILE *f, const struct history *h)
{
	size_t runs = 0, points = 0;

	for (size_t k = 0; k < h->nseries; k++) {
		runs += h->series[k].n;
		points += h->series[k].npoints;
	}
	fprintf(f, "history of job %s: %s (%s, %s is better), by %s; %zu case%s, %zu change point%s\n",
		h->job, h->metric->name, h->metric->unit,
		h->metric->better == BETTER_HIGHER ? "higher" :
		h->metric->better == BETTER_LOWER ? "lower" : "neither",
		history_by_names[h->by], h->nseries, h->nseries == 1 ? "" : "s",
		points, points == 1 ? "" : "s");
	fprintf(f, "(E-Divisive means on each run's median, alpha %g, at least %u runs a side;"
		" doc/statistics.md)\n", h->cp.alpha, h->min_size);
	for (size_t k = 0; k < h->nseries; k++)
		series_text(f, h, &h->series[k]);
	if (h->nleft)
		fprintf(f, "\n%zu run%s left out: %s\n", h->nleft, h->nleft == 1 ? "" : "s",
			h->left_why);
	(void)runs;
	return fflush(f) || ferror(f) ? -1 : 0;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *run_json(const struct history_run *r)
{
	const struct store_series_case *c = r->c;

	return json_pack("{s:I, s:s, s:o, s:o, s:f, s:o, s:o, s:s, s:I, s:o, s:o, s:o, s:o, s:o}",
			 "run", (json_int_t)c->run_id, "uuid", c->uuid,
			 "label", str_or_null(c->label), "host", str_or_null(c->host),
			 "started", c->started, "kernel", str_or_null(c->kernel),
			 "commit", str_or_null(r->commit), "settings", r->settings,
			 "n", (json_int_t)c->n,
			 "median", num_or_null(r->median), "q1", num_or_null(r->q1),
			 "q3", num_or_null(r->q3), "min", num_or_null(r->min),
			 "max", num_or_null(r->max));
}

static json_t *point_json(const struct history_point *p)
{
	return json_pack("{s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:f, s:o, s:o}",
			 "index", (json_int_t)p->cp.index,
			 "good_run", (json_int_t)p->good->c->run_id,
			 "bad_run", (json_int_t)p->bad->c->run_id,
			 "before", num_or_null(p->cp.before), "after", num_or_null(p->cp.after),
			 "change_pct", num_or_null(p->cp.change_pct),
			 "lo_pct", num_or_null(p->cp.lo_pct), "hi_pct", num_or_null(p->cp.hi_pct),
			 "p", p->cp.p, "bisect", str_or_null(p->bisect),
			 "judge", str_or_null(p->judge));
}

int render_history_json(FILE *f, const struct history *h)
{
	json_t *doc, *series = json_array(), *left = json_array();
	int rc;

	for (size_t k = 0; k < h->nseries; k++) {
		const struct history_series *s = &h->series[k];
		json_t *runs = json_array(), *points = json_array();

		for (size_t i = 0; i < s->n; i++)
			json_array_append_new(runs, run_json(&s->runs[i]));
		for (size_t i = 0; i < s->npoints; i++)
			json_array_append_new(points, point_json(&s->points[i]));
		json_array_append_new(series, json_pack("{s:s, s:o, s:I, s:o, s:o, s:o}",
			"case", s->name, "params", str_or_null(s->params),
			"version", (json_int_t)s->version, "runs", runs,
			"change_points", points, "refused", str_or_null(s->why)));
	}
	for (size_t i = 0; i < h->nleft; i++)
		json_array_append_new(left, json_pack("{s:I, s:o}", "run",
			(json_int_t)h->left[i].run_id, "label", str_or_null(h->left[i].label)));
	doc = json_pack("{s:s, s:s, s:s, s:{s:s, s:s, s:s}, s:s, s:o, s:{s:s, s:f, s:I},"
			" s:o, s:o, s:o}",
			"schema", HISTORY_SCHEMA, "job", h->job, "database", h->db,
			"metric", "name", h->metric->name, "unit", h->metric->unit,
			"better", better_names[h->metric->better],
			"by", history_by_names[h->by], "repo", str_or_null(h->repo),
			"detector", "method", "e-divisive", "alpha", h->cp.alpha,
			"min_size", (json_int_t)h->min_size,
			"series", series, "left_out", left,
			"left_out_why", str_or_null(h->nleft ? h->left_why : NULL));
	if (!doc)
		return -1;
	rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(doc);
	if (!rc)
		fputc('\n', f);
	return rc || fflush(f) || ferror(f) ? -1 : 0;
}
