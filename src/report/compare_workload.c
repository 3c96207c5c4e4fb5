// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_workload: the table a workload declares for its results
 * (struct workload's table; compute's is AIM7's Tasks, Jobs/Min, JTI,
 * Real, CPU, Jobs/sec/task as seed 000 posts it), from stored runs.
 * The comparison gives the jobs, the matched cases and the run names;
 * each column is the statistic of another metric of the same case, so
 * the cell's run case is read for it, by cmp_samples_stat() (its
 * numbers from src/stats/). A row per sweep value and run: the runs of
 * one task count stand together, as they are read. Where the table asks
 * for it (compute's), every iteration comes first, a row each, the runs
 * side by side as seed 000 posts AIM7 for two kernels.
 *
 * A column shows at least its declared decimals, and more where its
 * smallest value would otherwise show fewer than 3 significant digits
 * (Real and CPU of 0.1-0.5 s read 0.123, not 0.1); a column declared
 * without decimals (JTI, an integer) keeps none.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "report/render_compare.h"
#include "util.h"
#include "workload/registry.h"

static size_t ncols(const struct wl_table *t)
{
	size_t n = 0;

	while (n < WL_TABLE_MAX && t->col[n].metric)
		n++;
	return n;
}

/* The decimals that give v 3 significant digits, at least col's. */
static int decimals_for(const struct wl_table_col *col, double v)
{
	int d;

	if (!col->decimals || !isfinite(v) || v == 0)
		return col->decimals;
	d = 2 - (int)floor(log10(fabs(v)));
	return d > col->decimals ? (d > 9 ? 9 : d) : col->decimals;
}

/* Column col's value for run r's case cs (stat, or iteration it >= 0). */
static double col_value(const struct wl_table_col *col, const struct run *r,
			const struct run_case *cs, int stat, long it)
{
	int m = run_metric(r, col->metric);
	const struct run_series *s = cs ? run_series_of(cs, m) : NULL;

	if (!s)
		return NAN;
	if (it >= 0)
		return (size_t)it < cs->niter ? s->x[it] : NAN;
	return cmp_samples_stat(s->x, cs->niter, r->metrics[m].better, stat);
}

/* v with d decimals, or "-" where there is no value. */
static char *num_text(double v, int d)
{
	char *t;

	if (isnan(v))
		return xstrdup("-");
	if (asprintf(&t, "%.*f", d, v) < 0)
		abort();
	return t;
}

/* Column i's text for run r's case cs, or "-" where it has no value. */
static char *col_text(const struct wl_table_col *col, const struct run *r,
		      const struct run_case *cs, int stat, int d)
{
	return num_text(col_value(col, r, cs, stat, -1), d);
}

/* Each column's decimals over the values a table shows (it < 0: stat). */
static void col_decimals(const struct comparison *c,
			 const struct run *const *runs, const struct cmp_job *j,
			 const struct wl_table *t, int stat, bool iters,
			 int *dec)
{
	for (size_t n = 0; n < ncols(t); n++) {
		double least = INFINITY;

		for (size_t i = 0; i < j->ncases; i++)
			for (size_t k = 0; k < c->nruns; k++) {
				const struct cmp_cell *cl = &j->cases[i].cell[k];
				const struct run_case *cs = cl->present ? cl->rc : NULL;
				size_t nit = iters && cs ? cs->niter : 1;

				for (size_t it = 0; it < nit; it++) {
					double v = col_value(&t->col[n], runs[k], cs,
							     stat, iters ? (long)it : -1);

					if (isfinite(v) && v != 0 && fabs(v) < least)
						least = fabs(v);
				}
			}
		dec[n] = decimals_for(&t->col[n], least);
	}
}

/* What the iteration table's parts share: its inputs and column widths. */
struct iter_table {
	FILE *f;
	const struct comparison *c;
	const struct run *const *runs;
	const struct cmp_job *j;
	const struct wl_table *t;
	const struct layout_opts *lo;
	const char *key;	/* the sweep column's heading */
	size_t nc;		/* the table's columns, each run's */
	int dec[WL_TABLE_MAX], w[WL_TABLE_MAX], kw;
	size_t runw;		/* a run's columns' width, spaces between */
};

/* Each column's decimals and width, the sweep column's width. */
static void iter_widths(struct iter_table *tb)
{
	const struct cmp_job *j = tb->j;

	col_decimals(tb->c, tb->runs, j, tb->t, tb->lo->stat, true, tb->dec);
	for (size_t n = 0; n < tb->nc; n++)
		tb->w[n] = (int)strlen(tb->t->col[n].heading);
	tb->kw = (int)strlen(tb->key);
	for (size_t i = 0; i < j->ncases; i++) {
		if ((int)strlen(j->cases[i].sweep) > tb->kw)
			tb->kw = (int)strlen(j->cases[i].sweep);
		for (size_t k = 0; k < tb->c->nruns; k++) {
			const struct cmp_cell *cl = &j->cases[i].cell[k];
			const struct run_case *cs = cl->present ? cl->rc : NULL;

			for (size_t it = 0; cs && it < cs->niter; it++)
				for (size_t n = 0; n < tb->nc; n++) {
					char *s = num_text(col_value(&tb->t->col[n], tb->runs[k],
								     cs, 0, (long)it),
							   tb->dec[n]);

					if ((int)strlen(s) > tb->w[n])
						tb->w[n] = (int)strlen(s);
					free(s);
				}
		}
	}
	tb->runw = tb->nc - 1;
	for (size_t n = 0; n < tb->nc; n++)
		tb->runw += (size_t)tb->w[n];
}

/*
 * How many runs from first fit side by side in width: two at least;
 * markdown: all.
 */
static size_t iter_block(const struct iter_table *tb, size_t first, size_t width)
{
	size_t bw = (size_t)tb->kw, block;

	for (block = 0; first + block < tb->c->nruns; block++) {
		if (!tb->lo->markdown && block >= 2 && bw + 2 + tb->runw > width)
			break;
		bw += 2 + tb->runw;
	}
	return block;
}

/* The header of runs first to end: each run's columns under its name. */
static void iter_header(const struct iter_table *tb, size_t first, size_t end)
{
	FILE *f = tb->f;

	if (tb->lo->markdown) {
		fprintf(f, "\n| %s |", tb->key);
		for (size_t k = first; k < end; k++)
			for (size_t n = 0; n < tb->nc; n++)
				fprintf(f, " %s %s |", tb->c->runs[k].name,
					tb->t->col[n].heading);
		fprintf(f, "\n|---:|");
		for (size_t k = first; k < end; k++)
			for (size_t n = 0; n < tb->nc; n++)
				fputs("---:|", f);
		fputc('\n', f);
		return;
	}
	/* each run's name over its columns, as the seed's */
	fprintf(f, "%*s", tb->kw, "");
	for (size_t k = first; k < end; k++) {
		char *name = text_field(tb->c->runs[k].name, "-");
		int nw = k + 1 < end ? (int)tb->runw : 0;

		fprintf(f, "  %-*.*s", nw, (int)tb->runw, name);
		free(name);
	}
	fprintf(f, "\n%*s", tb->kw, tb->key);
	for (size_t k = first; k < end; k++)
		for (size_t n = 0; n < tb->nc; n++)
			fprintf(f, "%s%*s", n ? " " : "  ", tb->w[n],
				tb->t->col[n].heading);
	fputc('\n', f);
}

/* Case i's rows for runs first to end: a row per iteration of the most. */
static void iter_rows(const struct iter_table *tb, size_t i, size_t first,
		      size_t end)
{
	const struct cmp_case *cc = &tb->j->cases[i];
	FILE *f = tb->f;
	size_t most = 0;

	for (size_t k = first; k < end; k++) {
		const struct cmp_cell *cl = &cc->cell[k];

		if (cl->present && cl->rc && cl->rc->niter > most)
			most = cl->rc->niter;
	}
	for (size_t it = 0; it < most; it++) {
		if (tb->lo->markdown)
			fprintf(f, "| %s |", cc->sweep);
		else
			fprintf(f, "%*s", tb->kw, cc->sweep);
		for (size_t k = first; k < end; k++) {
			const struct cmp_cell *cl = &cc->cell[k];
			const struct run_case *cs = cl->present ? cl->rc : NULL;

			for (size_t n = 0; n < tb->nc; n++) {
				char *s = num_text(col_value(&tb->t->col[n], tb->runs[k],
							     cs, 0, (long)it),
						   tb->dec[n]);

				if (tb->lo->markdown)
					fprintf(f, " %s |", s);
				else
					fprintf(f, "%s%*s", n ? " " : "  ", tb->w[n], s);
				free(s);
			}
		}
		fputc('\n', f);
	}
}

/*
 * Every iteration a row, "Tasks" then each run's columns side by side
 * under its name, as seed 000 posts AIM7 for two kernels; runs past
 * lo->width (80) start a block of their own below, two always side by
 * side.
 */
static void iteration_table(FILE *f, const struct comparison *c,
			    const struct run *const *runs,
			    const struct cmp_job *j, const struct wl_table *t,
			    const struct layout_opts *lo)
{
	struct iter_table tb = {
		.f = f, .c = c, .runs = runs, .j = j, .t = t, .lo = lo,
		.key = !strchr(j->sweep_keys, ' ') && *j->sweep_keys ?
		       t->key : *j->sweep_keys ? j->sweep_keys : "-",
		.nc = ncols(t),
	};
	size_t width = lo->width > 0 ? (size_t)lo->width : 80, block;

	iter_widths(&tb);
	fprintf(f, "%s%s%s%s: %s, every iteration, the runs side by side\n",
		lo->markdown ? "### " : "", j->job, *j->sweep_keys ? " by " : "",
		j->sweep_keys, j->workload);
	for (size_t first = 0; first < c->nruns; first += block) {
		block = iter_block(&tb, first, width);
		iter_header(&tb, first, first + block);
		for (size_t i = 0; i < j->ncases; i++)
			iter_rows(&tb, i, first, first + block);
		fputc('\n', f);
	}
}

static void job_table(FILE *f, const struct comparison *c,
		      const struct run *const *runs, const struct cmp_job *j,
		      const struct wl_table *t, const struct layout_opts *lo)
{
	size_t nc = ncols(t), nrows = j->ncases * c->nruns;
	const char *key = !strchr(j->sweep_keys, ' ') && *j->sweep_keys ?
			  t->key : *j->sweep_keys ? j->sweep_keys : "-";
	char **cell = xcalloc(nrows * nc + 1, sizeof(*cell));
	int w[WL_TABLE_MAX], dec[WL_TABLE_MAX], kw = (int)strlen(key), nw = 3;

	col_decimals(c, runs, j, t, lo->stat, false, dec);
	for (size_t i = 0; i < nc; i++)
		w[i] = (int)strlen(t->col[i].heading);
	for (size_t i = 0; i < j->ncases; i++) {
		if ((int)strlen(j->cases[i].sweep) > kw)
			kw = (int)strlen(j->cases[i].sweep);
		for (size_t k = 0; k < c->nruns; k++) {
			const struct cmp_cell *cl = &j->cases[i].cell[k];

			if ((int)strlen(c->runs[k].name) > nw)
				nw = (int)strlen(c->runs[k].name);
			for (size_t n = 0; n < nc; n++) {
				char *s = col_text(&t->col[n], runs[k],
						   cl->present ? cl->rc : NULL,
						   lo->stat, dec[n]);

				cell[(i * c->nruns + k) * nc + n] = s;
				if ((int)strlen(s) > w[n])
					w[n] = (int)strlen(s);
			}
		}
	}
	fprintf(f, "%s%s%s%s: %s, %s of each column%s\n", lo->markdown ? "### " : "",
		j->job, *j->sweep_keys ? " by " : "", j->sweep_keys, j->workload,
		lo->stat ? cmp_stat_names[lo->stat] : "the mean",
		lo->stat ? "" : " (Hmean where higher is better, else Amean)");
	if (lo->markdown) {
		fprintf(f, "\n| %s | run |", key);
		for (size_t n = 0; n < nc; n++)
			fprintf(f, " %s |", t->col[n].heading);
		fputs("\n|---:|:---|", f);
		for (size_t n = 0; n < nc; n++)
			fputs("---:|", f);
		fputc('\n', f);
	} else {
		fprintf(f, "%*s  %-*s", kw, key, nw, "run");
		for (size_t n = 0; n < nc; n++)
			fprintf(f, "  %*s", w[n], t->col[n].heading);
		fputc('\n', f);
	}
	for (size_t i = 0; i < j->ncases; i++)
		for (size_t k = 0; k < c->nruns; k++) {
			char **row = &cell[(i * c->nruns + k) * nc];

			if (lo->markdown)
				fprintf(f, "| %s | %s |", j->cases[i].sweep,
					c->runs[k].name);
			else
				fprintf(f, "%*s  %-*s", kw, j->cases[i].sweep, nw,
					c->runs[k].name);
			for (size_t n = 0; n < nc; n++)
				if (lo->markdown)
					fprintf(f, " %s |", row[n]);
				else
					fprintf(f, "  %*s", w[n], row[n]);
			fputc('\n', f);
		}
	fputc('\n', f);
	for (size_t i = 0; i < nrows * nc; i++)
		free(cell[i]);
	free(cell);
}

int render_compare_workload(FILE *f, const struct comparison *c,
			    const struct run *const *runs,
			    const struct layout_opts *lo)
{
	size_t shown = 0;

	for (size_t jn = 0; jn < c->njobs; jn++) {
		const struct workload *wl = workload_find(c->jobs[jn].workload);

		shown += wl && wl->table;
	}
	if (!shown)
		return -1;
	for (size_t jn = 0; jn < c->njobs; jn++) {
		const struct cmp_job *j = &c->jobs[jn];
		const struct workload *wl = workload_find(j->workload);

		/* a job's table once, whatever metrics the comparison holds */
		if (!j->metric.headline)
			continue;
		if (wl && wl->table && wl->table->iterations)
			iteration_table(f, c, runs, j, wl->table, lo);
		if (wl && wl->table)
			job_table(f, c, runs, j, wl->table, lo);
		else
			fprintf(f, "%s: workload %s declares no table (--layout mmtests, wide, grid or raw show it)\n\n",
				j->job, j->workload);
	}
	return 0;
}
