// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_workload: the table a workload declares for its results
 * (struct workload's table; compute's is AIM7's Tasks, Jobs/Min, JTI,
 * Real, CPU, Jobs/sec/task as seed 000 posts it), from stored runs.
 * The comparison gives the jobs, the matched cases and the run names;
 * each column is the statistic of another metric of the same case, so
 * the cell's run case is read for it, by cmp_samples_stat() (its
 * numbers from src/stats/). A row per sweep value and run: the runs of
 * one task count stand together, as they are read.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "report/compare.h"
#include "util.h"
#include "workload/registry.h"

static size_t ncols(const struct wl_table *t)
{
	size_t n = 0;

	while (n < WL_TABLE_MAX && t->col[n].metric)
		n++;
	return n;
}

/* Column i's text for run r's case cs, or "-" where it has no value. */
static char *col_text(const struct wl_table_col *col, const struct run *r,
		      const struct run_case *cs, int stat)
{
	int m = run_metric(r, col->metric);
	const struct run_series *s = cs ? run_series_of(cs, m) : NULL;
	double v = s ? cmp_samples_stat(s->x, cs->niter, r->metrics[m].better,
					stat) : NAN;
	char *t;

	if (isnan(v))
		return xstrdup("-");
	if (asprintf(&t, "%.*f", col->decimals, v) < 0)
		abort();
	return t;
}

static void job_table(FILE *f, const struct comparison *c,
		      const struct run *const *runs, const struct cmp_job *j,
		      const struct wl_table *t, const struct layout_opts *lo)
{
	size_t nc = ncols(t), nrows = j->ncases * c->nruns;
	const char *key = !strchr(j->sweep_keys, ' ') && *j->sweep_keys ?
			  t->key : *j->sweep_keys ? j->sweep_keys : "-";
	char **cell = xcalloc(nrows * nc + 1, sizeof(*cell));
	int w[WL_TABLE_MAX], kw = (int)strlen(key), nw = 3;

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
						   lo->stat);

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
		if (wl && wl->table)
			job_table(f, c, runs, j, wl->table, lo);
		else
			fprintf(f, "%s: workload %s declares no table (--layout mmtests, wide, grid or raw show it)\n\n",
				j->job, j->workload);
	}
	return 0;
}
