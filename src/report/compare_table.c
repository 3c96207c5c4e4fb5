// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_table: a comparison as one table per job in the shape of the
 * pgbench table of seed 001 (a policy per column, the sweep values as
 * row labels) - what `compare --layout variants` and `ab` print. Per
 * job: a title naming the job, the headline metric, its unit, the
 * statistic shown and its direction; a header of the sweep keys and one
 * column per run, headed by its variant name (the part of its label
 * after "LABEL/" when every run has that prefix, the label said once
 * above); a row per case: the sweep values, each run's statistic and
 * each candidate's change against the first run, marked where the test
 * found the difference significant; a footer saying what the mark means.
 *
 * The statistic is the one the change is of: the median for the median
 * tests (Mann-Whitney, the median bootstrap), else the mean row of
 * compare's text (Amean, or Hmean for a throughput). Every number comes
 * from the comparison (compare/compare.c); this file only formats them.
 *
 * `--layout grid` is the same table without the change columns, of the
 * statistic --stat names (seed 001's own shape). Past two sweep axes the
 * second label column holds the rest of them, joined.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/render_compare.h"
#include "util.h"

/* A job's table as text: the cells, then their widths. */
struct grid {
	size_t nkeys, nruns, ncols, nrows;
	size_t nall;		/* sweep keys; past 2 the rest share column 2 */
	bool change;		/* the variants': a change column per candidate */
	int stat;		/* grid: cmp_stat_names[]; variants: -1 */
	char **cell;		/* [nrows][ncols] */
	bool *sig;		/* [nrows][ncols]: a change marked significant */
	int *w;			/* [ncols] */
	const char **head;	/* [ncols]: the header row (runs: value column) */
	char *keys;		/* the sweep keys, cut into head[0..nkeys) */
};

/* Column of run k's value; its change (k > 0) is the next one. */
static size_t value_col(const struct grid *g, size_t k)
{
	if (!g->change)
		return g->nkeys + k;
	return g->nkeys + (k ? 2 * k - 1 : 0);
}

static bool change_col(const struct grid *g, size_t col)
{
	return g->change && col > g->nkeys && (col - g->nkeys) % 2 == 0;
}

static char **at(const struct grid *g, size_t row, size_t col)
{
	return &g->cell[row * g->ncols + col];
}

/*
 * The length of "LABEL/" when every run's name is LABEL/NAME with one
 * LABEL and a non-empty NAME without '/', else 0.
 */
static size_t shared_prefix(const struct comparison *c)
{
	const char *first = c->runs[0].name, *slash = strrchr(first, '/');
	size_t len;

	if (!slash || c->nruns < 2)
		return 0;
	len = (size_t)(slash - first) + 1;
	for (size_t k = 0; k < c->nruns; k++) {
		const char *n = c->runs[k].name;

		if (strncmp(n, first, len) || !n[len] || strchr(n + len, '/'))
			return 0;
	}
	return len;
}

static bool by_median(const struct comparison *c)
{
	return stat_test_medians(c->opts.test);
}

/* The statistic shown: "median", "Amean" or "Hmean" (the baseline's row). */
static const char *stat_name(const struct comparison *c,
			     const struct cmp_job *j)
{
	if (by_median(c))
		return "median";
	return mm_row_label(MM_MEAN, j->metric.better == BETTER_HIGHER);
}

static double stat_of(const struct comparison *c, const struct cmp_cell *cell,
		      int stat)
{
	if (stat >= 0)
		return cmp_cell_stat(cell, stat);
	return by_median(c) ? cell->s.median : cell->s.mean;
}

/* Decimals for a job: 4 significant digits of its smallest baseline value. */
static int decimals(const struct comparison *c, const struct cmp_job *j,
		    int stat)
{
	double m = INFINITY;

	for (size_t i = 0; i < j->ncases; i++) {
		const struct cmp_cell *b = &j->cases[i].cell[0];
		double v = b->ok ? fabs(stat_of(c, b, stat)) : NAN;

		if (v > 0 && v < m)
			m = v;
	}
	if (!isfinite(m))
		return 2;
	return (int)fmax(0, fmin(8, 3 - floor(log10(m))));
}

/*
 * The sweep values of a case into its key columns ("" when they do not
 * split): one each, the second holding the rest of them past two axes.
 */
static void key_cells(struct grid *g, size_t row, const char *sweep)
{
	char *copy = xstrdup(sweep), *save = NULL, *t;
	const char *rest = strchr(sweep, ' ');
	size_t n = 0;

	for (t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (n < g->nkeys)
			*at(g, row, n) = xstrdup(n ? rest + 1 : t);
		n++;
	}
	free(copy);
	if (n == g->nall)
		return;
	for (size_t k = 0; k < g->nkeys; k++) {
		free(*at(g, row, k));
		*at(g, row, k) = xstrdup(k ? "" : sweep);
	}
}

static void fill(struct grid *g, const struct comparison *c,
		 const struct cmp_job *j, size_t prefix)
{
	int dec = decimals(c, j, g->stat);
	char *rest;

	g->nall = 0;
	for (const char *p = j->sweep_keys; *p; p++)
		g->nall += *p != ' ' && (p == j->sweep_keys || p[-1] == ' ');
	g->nkeys = g->nall > 2 ? 2 : g->nall;
	g->nruns = c->nruns;
	g->ncols = g->nkeys + (g->change ? 2 * c->nruns - 1 : c->nruns);
	g->nrows = j->ncases;
	g->cell = xcalloc(g->nrows * g->ncols + 1, sizeof(*g->cell));
	g->sig = xcalloc(g->nrows * g->ncols + 1, sizeof(*g->sig));
	g->w = xcalloc(g->ncols, sizeof(*g->w));
	g->head = xcalloc(g->ncols, sizeof(*g->head));
	g->keys = xstrdup(j->sweep_keys);
	g->head[0] = g->keys;
	if (g->nkeys > 1 && (rest = strchr(g->keys, ' '))) {
		*rest = '\0';
		g->head[1] = rest + 1;	/* the second key, or the rest joined */
	}
	for (size_t k = 0; k < g->nruns; k++)
		g->head[value_col(g, k)] = c->runs[k].name + prefix;
	for (size_t i = 0; i < g->nrows; i++) {
		const struct cmp_case *cs = &j->cases[i];

		key_cells(g, i, cs->sweep);
		for (size_t k = 0; k < g->nruns; k++) {
			const struct cmp_cell *cell = &cs->cell[k];
			size_t v = value_col(g, k);

			if (!cell->present)
				*at(g, i, v) = xstrdup("-");
			else if (!cell->ok)
				*at(g, i, v) = xstrdup("failed");
			else if (isnan(stat_of(c, cell, g->stat)))
				*at(g, i, v) = xstrdup("n/a");
			else
				*at(g, i, v) = xasprintf("%.*f", dec, stat_of(c, cell, g->stat));
			if (!k || !g->change)
				continue;
			if (!cell->ok)
				*at(g, i, v + 1) = xstrdup("");
			else if (!cs->cell[0].ok || isnan(cell->r.change))
				*at(g, i, v + 1) = xstrdup("n/a");
			else
				*at(g, i, v + 1) = cell->points ?
					xasprintf("%+.1fpt", fabs(cell->pt) < 0.05 ?
						  0 : cell->pt) :
					xasprintf("%+.1f%%",
					fabs(cell->r.change) < 0.05 ? 0 : cell->r.change);
			g->sig[i * g->ncols + v + 1] = cell->ok &&
				cs->cell[0].ok && cell->r.significant;
		}
	}
}

static void grid_free(struct grid *g)
{
	for (size_t i = 0; i < g->nrows * g->ncols; i++)
		free(g->cell[i]);
	free(g->cell);
	free(g->sig);
	free(g->w);
	free(g->keys);
	free(g->head);
}

/* Widths: each column's widest cell; a candidate's name widens its value. */
static void widths(struct grid *g)
{
	for (size_t col = 0; col < g->ncols; col++) {
		int w = g->head[col] && col < g->nkeys ? (int)strlen(g->head[col]) : 0;

		for (size_t i = 0; i < g->nrows; i++) {
			int n = (int)strlen(*at(g, i, col));

			if (change_col(g, col))
				n++;	/* a change: room for its mark */
			if (n > w)
				w = n;
		}
		g->w[col] = w;
	}
	for (size_t k = 0; k < g->nruns; k++) {
		size_t v = value_col(g, k);
		int name = (int)strlen(g->head[v]);
		int span = k && g->change ? g->w[v] + 1 + g->w[v + 1] : g->w[v];

		if (name > span)
			g->w[v] += name - span;
	}
}

/* Prints line without its trailing blanks, and a newline. */
static void put_line(FILE *f, char *line, size_t len)
{
	while (len && line[len - 1] == ' ')
		len--;
	fwrite(line, 1, len, f);
	fputc('\n', f);
}

static void text_table(FILE *f, const struct grid *g)
{
	char *line = NULL;
	size_t len = 0;
	FILE *m;

	m = open_memstream(&line, &len);
	for (size_t col = 0; col < g->nkeys; col++)
		fprintf(m, "%s%*s", col ? "  " : "", g->w[col], g->head[col]);
	for (size_t k = 0; k < g->nruns; k++) {
		size_t v = value_col(g, k);

		fprintf(m, "%s%*s", v ? "  " : "",
			k && g->change ? g->w[v] + 1 + g->w[v + 1] : g->w[v],
			g->head[v]);
	}
	fclose(m);
	put_line(f, line, len);
	free(line);
	for (size_t i = 0; i < g->nrows; i++) {
		line = NULL;
		m = open_memstream(&line, &len);
		for (size_t col = 0; col < g->nkeys; col++)
			fprintf(m, "%s%*s", col ? "  " : "", g->w[col], *at(g, i, col));
		for (size_t k = 0; k < g->nruns; k++) {
			size_t v = value_col(g, k);

			fprintf(m, "%s%*s", v ? "  " : "", g->w[v], *at(g, i, v));
			if (k && g->change)
				fprintf(m, " %*s%c", g->w[v + 1] - 1, *at(g, i, v + 1),
					g->sig[i * g->ncols + v + 1] ? '*' : ' ');
		}
		fclose(m);
		put_line(f, line, len);
		free(line);
	}
}

static void md_table(FILE *f, const struct grid *g)
{
	fputc('|', f);
	for (size_t col = 0; col < g->ncols; col++)
		fprintf(f, " %s |", change_col(g, col) ? "%" : g->head[col]);
	fputs("\n|", f);
	for (size_t col = 0; col < g->ncols; col++)
		fputs("---:|", f);
	fputc('\n', f);
	for (size_t i = 0; i < g->nrows; i++) {
		fputc('|', f);
		for (size_t col = 0; col < g->ncols; col++) {
			const char *s = *at(g, i, col);
			bool sig = g->sig[i * g->ncols + col];

			fprintf(f, " %s%s%s |", sig ? "**" : "", s, sig ? "**" : "");
		}
		fputc('\n', f);
	}
}

/* What the mark means: "at p<0.05 (mann-whitney)", by the test. */
static void mark_text(char *buf, size_t len, const struct comparison *c)
{
	const char *t = stat_test_names[c->opts.test];

	switch (c->opts.test) {
	case TEST_MWU:
	case TEST_WELCH:
		snprintf(buf, len, "at p<%g (%s)", c->opts.alpha, t);
		break;
	case TEST_BOOT_MEAN:
	case TEST_BOOT_MEDIAN:
		snprintf(buf, len, "by %s (its %g%% interval excludes no change)",
			 t, 100 * (1 - c->opts.alpha));
		break;
	default:
		snprintf(buf, len, "by %s's rule", t);
		break;
	}
}

/* "10 iterations", "3-10 iterations": the samples of the job's cells. */
static void iterations_text(char *buf, size_t len, const struct cmp_job *j,
			    size_t nruns)
{
	size_t lo = SIZE_MAX, hi = 0;

	for (size_t i = 0; i < j->ncases; i++)
		for (size_t k = 0; k < nruns; k++) {
			const struct cmp_cell *cell = &j->cases[i].cell[k];

			if (!cell->ok)
				continue;
			lo = cell->s.n < lo ? cell->s.n : lo;
			hi = cell->s.n > hi ? cell->s.n : hi;
		}
	if (!hi)
		snprintf(buf, len, "no iterations");
	else if (lo == hi)
		snprintf(buf, len, "%zu iteration%s", hi, hi == 1 ? "" : "s");
	else
		snprintf(buf, len, "%zu-%zu iterations", lo, hi);
}

void render_compare_variants(FILE *f, const struct comparison *c,
			     bool markdown)
{
	size_t prefix = shared_prefix(c);
	char mark[128], iters[64];

	mark_text(mark, sizeof(mark), c);
	if (prefix)
		fprintf(f, "runs of %.*s: ", (int)prefix - 1, c->runs[0].name);
	fprintf(f, "change against %s in %%, + is better\n\n",
		c->runs[0].name + prefix);
	for (size_t jn = 0; jn < c->njobs; jn++) {
		const struct cmp_job *j = &c->jobs[jn];
		struct grid g = { .change = true, .stat = -1 };

		fprintf(f, "%s%s%s%s: %s, %s, %s (%s is better)\n", markdown ? "### " : "",
			j->job, *j->sweep_keys ? " by " : "", j->sweep_keys,
			j->metric.name, *j->metric.unit ? j->metric.unit : "count",
			stat_name(c, j), better_word(j->metric.better));
		if (markdown)
			fputc('\n', f);
		fill(&g, c, j, prefix);
		widths(&g);
		if (markdown)
			md_table(f, &g);
		else
			text_table(f, &g);
		grid_free(&g);
		iterations_text(iters, sizeof(iters), j, c->nruns);
		fprintf(f, "%s%s significant %s; %s\n\n", markdown ? "\n" : "",
			markdown ? "**bold**:" : "*", mark, iters);
	}
	layout_notes(f, c, markdown);
}

void render_compare_grid(FILE *f, const struct comparison *c,
			 const struct layout_opts *lo)
{
	size_t prefix = shared_prefix(c);
	char iters[64];

	if (prefix)
		fprintf(f, "runs of %.*s\n\n", (int)prefix - 1, c->runs[0].name);
	for (size_t jn = 0; jn < c->njobs; jn++) {
		const struct cmp_job *j = &c->jobs[jn];
		struct grid g = { .change = false, .stat = lo->stat };

		fprintf(f, "%s%s%s%s: %s, %s, %s (%s is better)\n",
			lo->markdown ? "### " : "", j->job,
			*j->sweep_keys ? " by " : "", j->sweep_keys, j->metric.name,
			*j->metric.unit ? j->metric.unit : "count",
			cmp_stat_label(lo->stat, j), better_word(j->metric.better));
		if (lo->markdown)
			fputc('\n', f);
		fill(&g, c, j, prefix);
		widths(&g);
		if (lo->markdown)
			md_table(f, &g);
		else
			text_table(f, &g);
		grid_free(&g);
		iterations_text(iters, sizeof(iters), j, c->nruns);
		fprintf(f, "%s%s\n\n", lo->markdown ? "\n" : "", iters);
	}
	layout_notes(f, c, lo->markdown);
}
