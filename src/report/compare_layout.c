// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_layout: the shapes of a comparison that LKML posts use besides
 * mmtests' rows - the wide table of seed 000's tbench results (sweep
 * values as columns, a row per run, one statistic) and the raw lines of
 * its hackbench results (every iteration's value); the statistic --stat
 * chooses for them and for the grid (compare_table.c) is compare/stat.c's.
 *
 * Every value is the comparison's (compare/compare.c) or one src/stats/
 * function of the cell's samples; this file only chooses and formats.
 * Run names are never cut: the name column is as wide as the longest.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/render_compare.h"
#include "util.h"

/* Decimals for a job: 4 significant digits of its smallest value shown. */
static int job_decimals(const struct comparison *c, const struct cmp_job *j,
			int stat)
{
	double m = INFINITY;

	for (size_t i = 0; i < j->ncases; i++)
		for (size_t k = 0; k < c->nruns; k++) {
			const struct cmp_cell *cell = &j->cases[i].cell[k];
			double v = cell->ok ? fabs(cmp_cell_stat(cell, stat)) : NAN;

			if (v > 0 && v < m)
				m = v;
		}
	if (!isfinite(m))
		return 2;
	return (int)fmax(0, fmin(8, 3 - floor(log10(m))));
}

static char *cell_text(const struct cmp_cell *cell, int stat, int dec)
{
	char *s;
	double v;

	if (!cell->present)
		return xstrdup("-");
	if (!cell->ok)
		return xstrdup("failed");
	v = cmp_cell_stat(cell, stat);
	if (isnan(v))
		return xstrdup("n/a");
	if (asprintf(&s, "%.*f", dec, v) < 0)
		abort();
	return s;
}

static int name_width(const struct comparison *c)
{
	int w = 0;

	for (size_t k = 0; k < c->nruns; k++)
		if ((int)strlen(c->runs[k].name) > w)
			w = (int)strlen(c->runs[k].name);
	return w;
}

static void title(FILE *f, const struct cmp_job *j, const char *what,
		  bool markdown)
{
	fprintf(f, "%s%s%s%s: %s, %s, %s (%s is better)\n", markdown ? "### " : "",
		j->job, *j->sweep_keys ? " by " : "", j->sweep_keys,
		j->metric.name, *j->metric.unit ? j->metric.unit : "count",
		what, better_word(j->metric.better));
	if (markdown)
		fputc('\n', f);
}

void layout_notes(FILE *f, const struct comparison *c, bool markdown)
{
	if (!c->nnotes)
		return;
	fprintf(f, "Notes:\n");
	for (size_t i = 0; i < c->nnotes; i++)
		if (markdown)
			fprintf(f, "- %s\n", c->notes[i]);
		else
			text_wrap(f, "  ", "    ", c->notes[i], 80);
}

/* Columns [from, to) of a wide table: the names, then the values. */
static void wide_block(FILE *f, const struct comparison *c,
		       const struct cmp_job *j, char **cell, const int *w,
		       int nw, size_t from, size_t to)
{
	fprintf(f, "%-*s", nw, "");
	for (size_t i = from; i < to; i++)
		fprintf(f, " %*s", w[i], j->cases[i].sweep);
	fputc('\n', f);
	for (size_t k = 0; k < c->nruns; k++) {
		fprintf(f, "%-*s", nw, c->runs[k].name);
		for (size_t i = from; i < to; i++)
			fprintf(f, " %*s", w[i], cell[k * j->ncases + i]);
		fputc('\n', f);
	}
}

static void wide_md(FILE *f, const struct comparison *c,
		    const struct cmp_job *j, char **cell)
{
	fprintf(f, "| %s |", *j->sweep_keys ? j->sweep_keys : "run");
	for (size_t i = 0; i < j->ncases; i++)
		fprintf(f, " %s |", j->cases[i].sweep);
	fputs("\n|:---|", f);
	for (size_t i = 0; i < j->ncases; i++)
		fputs("---:|", f);
	fputc('\n', f);
	for (size_t k = 0; k < c->nruns; k++) {
		fprintf(f, "| %s |", c->runs[k].name);
		for (size_t i = 0; i < j->ncases; i++)
			fprintf(f, " %s |", cell[k * j->ncases + i]);
		fputc('\n', f);
	}
}

void render_compare_wide(FILE *f, const struct comparison *c,
			 const struct layout_opts *lo)
{
	int width = lo->width ? lo->width : 80, nw = name_width(c);

	for (size_t jn = 0; jn < c->njobs; jn++) {
		const struct cmp_job *j = &c->jobs[jn];
		int dec = job_decimals(c, j, lo->stat);
		char **cell = xcalloc(c->nruns * j->ncases + 1, sizeof(*cell));
		int *w = xcalloc(j->ncases + 1, sizeof(*w));

		title(f, j, cmp_stat_label(lo->stat, j), lo->markdown);
		for (size_t i = 0; i < j->ncases; i++) {
			w[i] = (int)strlen(j->cases[i].sweep);
			for (size_t k = 0; k < c->nruns; k++) {
				char *s = cell_text(&j->cases[i].cell[k], lo->stat, dec);

				cell[k * j->ncases + i] = s;
				if ((int)strlen(s) > w[i])
					w[i] = (int)strlen(s);
			}
		}
		if (lo->markdown) {
			wide_md(f, c, j, cell);
		} else {
			/* blocks of as many columns as fit; at least one each */
			for (size_t from = 0, to; from < j->ncases; from = to) {
				int used = nw + 1 + w[from];

				for (to = from + 1; to < j->ncases &&
				     used + 1 + w[to] <= width; to++)
					used += 1 + w[to];
				if (from)
					fputc('\n', f);
				wide_block(f, c, j, cell, w, nw, from, to);
			}
		}
		fputc('\n', f);
		for (size_t i = 0; i < c->nruns * j->ncases; i++)
			free(cell[i]);
		free(cell);
		free(w);
	}
	layout_notes(f, c, lo->markdown);
}

/* One run's line of a case: "NAME SWEEP: v1 v2 ...", wrapped past width. */
static void raw_line(FILE *f, const char *name, int nw, const char *sweep,
		     int sw, const struct cmp_cell *cell, int dec, int vw,
		     int width)
{
	int col, indent;

	if (sw)
		col = fprintf(f, "%-*s %*s:", nw, name, sw, sweep);
	else	/* nothing swept: "NAME: v1 v2 ...", the values aligned */
		col = fprintf(f, "%s:%*s", name, nw - (int)strlen(name), "");
	indent = col;
	if (!cell->present || !cell->n) {
		fprintf(f, " %s\n", !cell->present ? "-" :
			cell->failed ? cell->failed : "no samples");
		return;
	}
	for (size_t i = 0; i < cell->n; i++) {
		if (i && col + 1 + vw > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		}
		if (isfinite(cell->x[i]))
			col += fprintf(f, " %*.*f", vw, dec, cell->x[i]);
		else
			col += fprintf(f, " %*s", vw, "-");
	}
	fputc('\n', f);
}

void render_compare_raw(FILE *f, const struct comparison *c,
			const struct layout_opts *lo)
{
	int width = lo->width ? lo->width : 80, nw = name_width(c);

	for (size_t jn = 0; jn < c->njobs; jn++) {
		const struct cmp_job *j = &c->jobs[jn];
		int dec = job_decimals(c, j, STAT_MIN), sw = 0, vw = 1;

		for (size_t i = 0; i < j->ncases; i++) {
			if ((int)strlen(j->cases[i].sweep) > sw)
				sw = (int)strlen(j->cases[i].sweep);
			for (size_t k = 0; k < c->nruns; k++) {
				const struct cmp_cell *cell = &j->cases[i].cell[k];

				for (size_t n = 0; n < cell->n; n++) {
					char buf[64];
					int len = snprintf(buf, sizeof(buf), "%.*f",
							   dec, cell->x[n]);

					if (isfinite(cell->x[n]) && len > vw)
						vw = len;
				}
			}
		}
		title(f, j, "every iteration", lo->markdown);
		if (lo->markdown)
			fputs("```\n", f);
		for (size_t i = 0; i < j->ncases; i++)
			for (size_t k = 0; k < c->nruns; k++)
				raw_line(f, c->runs[k].name, nw, j->cases[i].sweep,
					 sw, &j->cases[i].cell[k], dec, vw, width);
		if (lo->markdown)
			fputs("```\n", f);
		fputc('\n', f);
	}
	layout_notes(f, c, lo->markdown);
}

void render_compare_summary(FILE *f, const struct comparison *c)
{
	for (size_t jn = 0; jn < c->njobs; jn++) {
		const struct cmp_job *j = &c->jobs[jn];
		struct sweep_samples *s = xcalloc(j->ncases + 1, sizeof(*s));

		for (size_t i = 0; i < j->ncases; i++) {
			const struct cmp_cell *cell = &j->cases[i].cell[0];

			s[i] = (struct sweep_samples){ .sweep = j->cases[i].sweep,
				.x = cell->x, .n = cell->n,
				.failed = cell->ok ? NULL : cell->failed ?
					  cell->failed : "no samples" };
		}
		render_job_summary(f, j->job, j->sweep_keys, &j->metric, s,
				   j->ncases);
		fputc('\n', f);
		free(s);
	}
	layout_notes(f, c, false);
}
