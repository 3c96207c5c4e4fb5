// SPDX-License-Identifier: GPL-2.0-only
/*
 * html_timeline: a case's monitors over time (html.h): for each run, side
 * by side in its colour's column, the per-CPU utilization of monitor
 * cpu as a heatmap (a row a CPU, white idle to dark busy, grey where no
 * sample is) over the
 * case's iterations laid end to end, and below it the run-queue length
 * (monitor runq: tasks runnable, less the sampler) over the same time
 * axis; each iteration's start a dashed line. The picture that shows an
 * idle CPU while tasks waited.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "monitor/monitor.h"
#include "report/html.h"
#include "report/plot.h"
#include "util.h"

#define TL_GAP 0.05	/* of an iteration's length, between iterations */
#define TL_MAX_CPUS 256	/* heatmap rows drawn, at most */

/* Column name of series ser as numbers into *x; its length, or -1. */
static long column(const json_t *ser, const char *name, double **x)
{
	const json_t *v = json_object_get(ser, name);

	*x = NULL;
	return json_is_string(v) ? monitor_column_parse(json_string_value(v), x) : -1;
}

/* The CPUs with a column cpuN.busy_pct in any series of arr, ascending. */
static int cpus_of(const json_t *arr, int *cpu, int max)
{
	const json_t *ser;
	size_t i;
	int n = 0;

	json_array_foreach((json_t *)arr, i, ser) {
		const char *key;
		json_t *v;

		json_object_foreach((json_t *)ser, key, v) {
			int c, len = 0;
			bool have = false;

			if (sscanf(key, "cpu%d.busy_pct%n", &c, &len) != 1 ||
			    key[len] || c < 0)
				continue;
			for (int k = 0; k < n; k++)
				have |= cpu[k] == c;
			if (!have && n < max)
				cpu[n++] = c;
		}
	}
	for (int a = 1; a < n; a++)
		for (int b = a; b > 0 && cpu[b - 1] > cpu[b]; b--) {
			int t = cpu[b];

			cpu[b] = cpu[b - 1];
			cpu[b - 1] = t;
		}
	return n;
}

/* Where each iteration starts on the case's time axis, into off[niter]. */
static double offsets(const struct run_case *rc, double *off)
{
	const json_t *cpu = json_object_get(rc->monitors, monitor_info[MON_CPU].name);
	const json_t *runq = json_object_get(rc->monitors, monitor_info[MON_RUNQ].name);
	double at = 0;

	for (size_t i = 0; i < rc->niter; i++) {
		const json_t *ser = json_array_get(cpu, i);
		double *t, len = 0;
		long n;

		if (!json_is_object(ser))
			ser = json_array_get(runq, i);
		off[i] = at;
		n = json_is_object(ser) ? column(ser, "t", &t) : -1;
		if (n > 0)
			len = t[n - 1];
		free(t);
		at += len * (1 + TL_GAP);
	}
	return at;
}

/* The heatmap rows of run k: x, cpu row, half width, busy_pct. */
static void heat_data(FILE *g, size_t id, size_t k, const struct run_case *rc,
		      const double *off, const int *cpu, int ncpu)
{
	const json_t *arr = json_object_get(rc->monitors, monitor_info[MON_CPU].name);

	fprintf(g, "$h%zu_%zu << EOD\n", id, k);
	for (size_t i = 0; i < rc->niter; i++) {
		const json_t *ser = json_array_get(arr, i);
		double *t, *v;
		long n;

		if (!json_is_object(ser) || (n = column(ser, "t", &t)) <= 0) {
			if (json_is_object(ser))
				free(t);
			continue;
		}
		for (int c = 0; c < ncpu; c++) {
			char name[48];
			long nv;
			double prev = 0;

			snprintf(name, sizeof(name), "cpu%d.busy_pct", cpu[c]);
			nv = column(ser, name, &v);
			for (long r = 0; r < nv && r < n; r++) {
				if (isfinite(v[r]))
					fprintf(g, "%.4f %d %.4f %.3g\n",
						off[i] + (prev + t[r]) / 2, c,
						(t[r] - prev) / 2, v[r]);
				prev = t[r];
			}
			free(v);
		}
		free(t);
	}
	fprintf(g, "NaN NaN NaN NaN\nEOD\n");
}

/* The run-queue rows of run k: x, running (a blank line between iterations). */
static void runq_data(FILE *g, size_t id, size_t k, const struct run_case *rc,
		      const double *off, double *ymax)
{
	const json_t *arr = json_object_get(rc->monitors, monitor_info[MON_RUNQ].name);

	fprintf(g, "$q%zu_%zu << EOD\n", id, k);
	for (size_t i = 0; i < rc->niter; i++) {
		const json_t *ser = json_array_get(arr, i);
		double *t = NULL, *v = NULL;
		long n = -1, nv = -1;

		if (json_is_object(ser)) {
			n = column(ser, "t", &t);
			nv = column(ser, "running", &v);
		}
		for (long r = 0; r < n && r < nv; r++)
			if (isfinite(v[r])) {
				fprintf(g, "%.4f %.4g\n", off[i] + t[r], v[r]);
				*ymax = v[r] > *ymax ? v[r] : *ymax;
			}
		fprintf(g, "\n");
		free(t);
		free(v);
	}
	fprintf(g, "NaN NaN\nEOD\n");
}

/* What the timeline's parts share: the runs' cases, CPUs and time axis. */
struct timeline {
	FILE *g;
	size_t id, nruns;
	const struct run_case *const *rc;
	int cpu[TL_MAX_CPUS], ncpu;	/* the heatmaps' rows, ascending */
	double *off[64];		/* run k's iterations' starts, or NULL */
	double xmax, ymax;		/* the longest run, runnable tasks */
};

/*
 * The CPUs of the runs' cpu monitors into tl, ascending; false where
 * no run has a cpu or runq monitor.
 */
static bool timeline_cpus(struct timeline *tl)
{
	bool any = false;

	for (size_t k = 0; k < tl->nruns; k++) {
		const json_t *m = tl->rc[k] ? tl->rc[k]->monitors : NULL;
		int more[TL_MAX_CPUS], n;

		if (!json_object_get(m, monitor_info[MON_CPU].name) &&
		    !json_object_get(m, monitor_info[MON_RUNQ].name))
			continue;
		any = true;
		n = cpus_of(json_object_get(m, monitor_info[MON_CPU].name), more, TL_MAX_CPUS);
		for (int a = 0; a < n; a++) {
			bool have = false;

			for (int b = 0; b < tl->ncpu; b++)
				have |= tl->cpu[b] == more[a];
			if (!have && tl->ncpu < TL_MAX_CPUS)
				tl->cpu[tl->ncpu++] = more[a];
		}
	}
	for (int a = 1; a < tl->ncpu; a++)
		for (int b = a; b > 0 && tl->cpu[b - 1] > tl->cpu[b]; b--) {
			int t = tl->cpu[b];

			tl->cpu[b] = tl->cpu[b - 1];
			tl->cpu[b - 1] = t;
		}
	return any;
}

/* Each run's heatmap and run-queue data; a run without monitors has none. */
static void timeline_data(struct timeline *tl)
{
	for (size_t k = 0; k < tl->nruns; k++) {
		const struct run_case *rc = tl->rc[k];
		double span;

		if (!rc || !rc->monitors) {
			fprintf(tl->g, "$h%zu_%zu << EOD\nNaN NaN NaN NaN\nEOD\n"
				"$q%zu_%zu << EOD\nNaN NaN\nEOD\n", tl->id, k, tl->id, k);
			continue;
		}
		tl->off[k] = xcalloc(rc->niter + 1, sizeof(double));
		span = offsets(rc, tl->off[k]);
		tl->xmax = span > tl->xmax ? span : tl->xmax;
		heat_data(tl->g, tl->id, k, rc, tl->off[k], tl->cpu, tl->ncpu);
		runq_data(tl->g, tl->id, k, rc, tl->off[k], &tl->ymax);
	}
}

/* The heatmaps: one row a CPU, each run in its column. */
static void timeline_heat(const struct timeline *tl, const struct comparison *c)
{
	FILE *g = tl->g;

	for (size_t k = 0; k < tl->nruns; k++) {
		fprintf(g, "unset arrow\nset title ");
		plot_quote(g, c->runs[k].name);
		fprintf(g, " tc rgb '%s'\nset yrange [-0.5:%d.5]\nset ytics (", plot_colour(k),
			tl->ncpu - 1);
		for (int a = 0, step = tl->ncpu > 32 ? tl->ncpu / 16 : 1; a < tl->ncpu; a += step)
			fprintf(g, "%s'cpu%d' %d", a ? ", " : "", tl->cpu[a], a);
		fprintf(g, ")\nset xlabel 'seconds (iterations end to end)'\nset ylabel ''\nset cblabel 'busy %%'\n");
		for (size_t i = 0; tl->off[k] && i < tl->rc[k]->niter; i++)
			fprintf(g, "set arrow from %.4f, graph 0 to %.4f, graph 1 nohead dt 2 lc rgb '#333333' front\n",
				tl->off[k][i], tl->off[k][i]);
		/* grey where there is no sample (between iterations, an
		 * interval shorter than a tick), so that white is idle */
		fprintf(g, "set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 behind fc rgb '#d0d0d0' fs solid 1.0 noborder\n");
		if (!tl->off[k])
			fprintf(g, "set label 1 'no cpu monitor' at graph 0.5, 0.5 center\n");
		fprintf(g, "plot $h%zu_%zu using 1:2:3:(0.5):4 with boxxyerror lc palette notitle\nunset label 1\n",
			tl->id, k);
	}
}

/* The run-queue lengths, one scale for all runs. */
static void timeline_runq(const struct timeline *tl)
{
	FILE *g = tl->g;

	fprintf(g, "unset object 1\nunset colorbox\nset yrange [0:%.4g]\nset ytics autofreq\nset ylabel 'runnable tasks'\n",
		tl->ymax * 1.1);
	for (size_t k = 0; k < tl->nruns; k++) {
		fprintf(g, "unset arrow\nset title 'run-queue length (runq.running)' tc rgb '#000000'\n");
		for (size_t i = 0; tl->off[k] && i < tl->rc[k]->niter; i++)
			fprintf(g, "set arrow from %.4f, graph 0 to %.4f, graph 1 nohead dt 2 lc rgb '#333333'\n",
				tl->off[k][i], tl->off[k][i]);
		fprintf(g, "plot $q%zu_%zu using 1:2 with linespoints pt 7 ps 0.4 lw 1.5 lc rgb '%s' notitle\n",
			tl->id, k, plot_colour(k));
	}
}

size_t html_queue_timeline(struct plot_batch *pb, const struct comparison *c,
			   const char *title, const struct run_case *const *rc)
{
	struct timeline tl = {
		.nruns = c->nruns < 64 ? c->nruns : 64, .rc = rc, .ymax = 1,
	};

	if (!timeline_cpus(&tl))
		return PLOT_NONE;
	tl.g = plot_begin(pb, title, 1000, 200 + 14 * (tl.ncpu < 40 ? tl.ncpu : 40) + 180,
			  &tl.id);
	if (!tl.g)
		return tl.id;
	timeline_data(&tl);
	fprintf(tl.g, "set multiplot layout 2,%zu title ", tl.nruns);
	plot_quote(tl.g, title);
	fprintf(tl.g, "\nset palette defined (0 '#ffffff', 25 '#fde0c5', 60 '#f4845f', 100 '#7b1e1e')\n"
		"set cbrange [0:100]\nset xrange [0:%.4f]\nset style fill solid 1.0 noborder\n",
		tl.xmax > 0 ? tl.xmax : 1);
	timeline_heat(&tl, c);
	timeline_runq(&tl);
	fprintf(tl.g, "unset multiplot\n");
	for (size_t k = 0; k < tl.nruns; k++)
		free(tl.off[k]);
	return tl.id;
}

/* ---- every other monitor: its columns over time ---- */

#define MON_COLS 4	/* a monitor's columns plotted, at most */

/* Whether column name is one of a monitor's all-CPU columns. */
static bool summary_column(const char *name)
{
	int c, len = 0;

	if (!strcmp(name, "t") || !strcmp(name, "interval_ms"))
		return false;
	/* per CPU ("cpu3.busy_pct"): the all-CPU columns sum them up */
	return !(sscanf(name, "cpu%d.%n", &c, &len) == 1 && len > 0);
}

struct mon_col {
	char *name;
	double lo, hi;	/* over every run's samples */
};

/* The all-CPU columns of monitor name in the runs' cases, with their range. */
static size_t mon_columns(const struct run_case *const *rc, size_t nruns,
			  const char *name, struct mon_col **out)
{
	struct mon_col *col = NULL;
	size_t n = 0;

	for (size_t k = 0; k < nruns; k++) {
		const json_t *arr = rc[k] ? json_object_get(rc[k]->monitors, name) : NULL;
		const json_t *ser;
		size_t i;

		json_array_foreach((json_t *)arr, i, ser) {
			const char *key;
			json_t *v;

			json_object_foreach((json_t *)ser, key, v) {
				double *x;
				long nx;
				size_t c;

				if (!summary_column(key))
					continue;
				for (c = 0; c < n && strcmp(col[c].name, key); c++)
					;
				if (c == n) {
					col = xrealloc(col, (n + 1) * sizeof(*col));
					col[n++] = (struct mon_col){ xstrdup(key), INFINITY, -INFINITY };
				}
				nx = column(ser, key, &x);
				for (long r = 0; r < nx; r++)
					if (isfinite(x[r])) {
						col[c].lo = fmin(col[c].lo, x[r]);
						col[c].hi = fmax(col[c].hi, x[r]);
					}
				free(x);
			}
		}
	}
	*out = col;
	return n;
}

/* How much a column moved, relative to its size: the most first. */
static int by_spread(const void *a, const void *b)
{
	const struct mon_col *x = a, *y = b;
	double sx = isfinite(x->hi) ? (x->hi - x->lo) / fmax(fabs(x->hi), 1e-9) : -1;
	double sy = isfinite(y->hi) ? (y->hi - y->lo) / fmax(fabs(y->hi), 1e-9) : -1;

	return sx < sy ? 1 : sx > sy ? -1 : strcmp(x->name, y->name);
}

/* The data block $mID_K_M: run k's iterations of one monitor's column,
 * end to end in time. Returns where its last iteration ended. */
static double mon_data(FILE *g, const json_t *arr, const char *colname, size_t id,
		       size_t k, size_t m)
{
	double at = 0;

	fprintf(g, "$m%zu_%zu_%zu << EOD\n", id, k, m);
	for (size_t i = 0; arr && i < json_array_size(arr); i++) {
		const json_t *ser = json_array_get(arr, i);
		double *t = NULL, *v = NULL;
		long nt = json_is_object(ser) ? column(ser, "t", &t) : -1;
		long nv = json_is_object(ser) ? column(ser, colname, &v) : -1;

		for (long r = 0; r < nt && r < nv; r++)
			if (isfinite(v[r]))
				fprintf(g, "%.4f %.6g\n", at + t[r], v[r]);
		fprintf(g, "\n");
		if (nt > 0)
			at += t[nt - 1] * (1 + TL_GAP);
		free(t);
		free(v);
	}
	fprintf(g, "NaN NaN\nEOD\n");
	return at;
}

size_t html_queue_monitor(struct plot_batch *pb, const struct comparison *c,
			  const char *title, const struct run_case *const *rc,
			  const char *name, size_t *ncols, size_t *shown)
{
	size_t nruns = c->nruns < 64 ? c->nruns : 64, id, n;
	struct mon_col *col;
	double xmax = 0;
	FILE *g;

	n = mon_columns(rc, nruns, name, &col);
	*ncols = n;
	*shown = 0;
	if (!n) {
		free(col);
		return PLOT_NONE;
	}
	qsort(col, n, sizeof(*col), by_spread);
	*shown = n < MON_COLS ? n : MON_COLS;
	g = plot_begin(pb, title, 1000, 60 + 170 * (int)*shown, &id);
	for (size_t k = 0; g && k < nruns; k++) {
		const json_t *arr = rc[k] ? json_object_get(rc[k]->monitors, name) : NULL;

		for (size_t m = 0; m < *shown; m++) {
			double at = mon_data(g, arr, col[m].name, id, k, m);

			xmax = at > xmax ? at : xmax;
		}
	}
	if (g) {
		fprintf(g, "set multiplot layout %zu,%zu title ", *shown, nruns);
		plot_quote(g, title);
		fprintf(g, "\nset xrange [0:%.4f]\nset xlabel 'seconds (iterations end to end)'\n",
			xmax > 0 ? xmax : 1);
		for (size_t m = 0; m < *shown; m++)
			for (size_t k = 0; k < nruns; k++) {
				char lab[256];

				fprintf(g, "set title ");
				if (m) {
					plot_quote(g, "");
				} else {
					plot_quote(g, c->runs[k].name);
					fprintf(g, " tc rgb '%s'", plot_colour(k));
				}
				fprintf(g, "\n");
				snprintf(lab, sizeof(lab), "%s.%s", name, col[m].name);
				/* one scale for a column across the runs */
				if (isfinite(col[m].lo) && col[m].hi > col[m].lo)
					fprintf(g, "set yrange [%.6g:%.6g]\n",
						col[m].lo - 0.05 * (col[m].hi - col[m].lo),
						col[m].hi + 0.05 * (col[m].hi - col[m].lo));
				else
					fprintf(g, "set autoscale y\n");
				fprintf(g, "set ylabel ");
				plot_quote(g, lab);
				fprintf(g, "\nplot $m%zu_%zu_%zu using 1:2 with linespoints pt 7 ps 0.3 lw 1.2 lc rgb '%s' notitle\n",
					id, k, m, plot_colour(k));
			}
		fprintf(g, "unset multiplot\n");
	}
	for (size_t i = 0; i < n; i++)
		free(col[i].name);
	free(col);
	return id;
}
