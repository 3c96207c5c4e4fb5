// SPDX-License-Identifier: GPL-2.0-only
/*
 * html_plots: the report page's plots queued into its gnuplot batch
 * (report/plot.h) - per job the sweep's candlesticks with every
 * iteration as a jittered dot and the explanation metrics' bars, per
 * case the runs' latency CDFs and the monitors' timelines
 * (html_timeline.c) - their ids kept for html.c to place.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "report/html_int.h"
#include "report/plot.h"
#include "stats/hist.h"
#include "stats/summary.h"
#include "util.h"

#define CDF_STEP 1.08	/* a CDF point per 8% of latency, at most: a page
			 * of 50 cases x 10 runs stays under 5 MB */
#define MAX_BARS 40	/* explanation bars per job */

/* The run case of run k for case cs of job j, or NULL. */
static const struct run_case *run_case_of(const struct page *p,
					  const struct cmp_job *j,
					  const struct cmp_case *cs, size_t k)
{
	const struct run *r = p->runs ? p->runs[k] : NULL;

	if (!r || !cs->cell[k].present)
		return NULL;
	for (size_t i = 0; i < r->ncases; i++) {
		const struct run_case *rc = &r->cases[i];

		if (!strcmp(rc->job, j->job) && !strcmp(rc->workload, j->workload) &&
		    !strcmp(rc->sweep, cs->sweep))
			return rc;
	}
	return NULL;
}

/* A number in [-0.5, 0.5), the same for the same (a, b, c). */
static double jitter(size_t a, size_t b, size_t c)
{
	uint64_t h = (a + 1) * 0x9e3779b97f4a7c15ull ^ (b + 1) * 0xbf58476d1ce4e5b9ull ^
		     (c + 1) * 0x94d049bb133111ebull;

	h ^= h >> 31;
	h *= 0xd6e8feb86659fd39ull;
	h ^= h >> 29;
	return (double)(h >> 11) / 9007199254740992.0 - 0.5;
}

/* Where run k's box of case i stands on the x axis. */
static double box_x(const struct cmp_job *j, size_t i, size_t k, size_t nruns,
		    double w)
{
	if (html_by_run(j))
		return (double)k;
	return (double)i + ((double)k - (double)(nruns - 1) / 2.0) * w;
}

/* The sweep values as x labels: at most 16 of them, the rest ticks. */
static void xtics(FILE *g, const struct comparison *c, const struct cmp_job *j)
{
	size_t every = (j->ncases + 15) / 16;

	if (html_by_run(j)) {
		fprintf(g, "set xrange [-0.6:%f]\nset xtics (", (double)c->nruns - 0.4);
		for (size_t k = 0; k < c->nruns; k++) {
			fprintf(g, "%s", k ? ", " : "");
			plot_quote(g, c->runs[k].name);
			fprintf(g, " %zu", k);
		}
		fprintf(g, ")\n");
		return;
	}
	fprintf(g, "set xrange [-0.6:%f]\nset xtics (", (double)j->ncases - 0.4);
	for (size_t i = 0; i < j->ncases; i++) {
		fprintf(g, "%s", i ? ", " : "");
		if (i % every) {
			fprintf(g, "'' %zu 1", i);
			continue;
		}
		/* cases apart by their parameters, not a sweep: those */
		plot_quote(g, *j->cases[i].sweep ? j->cases[i].sweep :
			      *j->cases[i].params ? j->cases[i].params : "-");
		fprintf(g, " %zu", i);
	}
	fprintf(g, ")\n");
}

/*
 * Whether job ji's sweep plot has a point at all: gnuplot stops its
 * script at a plot with none.
 */
static bool sweep_any(const struct page *p, size_t ji)
{
	const struct comparison *c = p->c;
	const struct cmp_job *j = &c->jobs[ji];
	bool any = false;

	for (size_t i = 0; i < j->ncases && !any; i++)
		for (size_t k = 0; k < c->nruns && !any; k++)
			any = j->cases[i].cell[k].ok && p->runs[k] &&
			      run_metric(p->runs[k], j->metric.name) >= 0 &&
			      run_case_of(p, j, &j->cases[i], k);
	return any;
}

/*
 * Each run's data of sweep plot id, boxes w wide: $dID_K a row per case
 * (x, min, Q1, median, Q3, max, mean), $pID_K its iterations' dots.
 */
static void sweep_data(FILE *g, const struct page *p, size_t ji, size_t id,
		       double w)
{
	const struct comparison *c = p->c;
	const struct cmp_job *j = &c->jobs[ji];

	for (size_t k = 0; k < c->nruns; k++) {
		int m = p->runs[k] ? run_metric(p->runs[k], j->metric.name) : -1;

		fprintf(g, "$d%zu_%zu << EOD\n", id, k);
		for (size_t i = 0; i < j->ncases && m >= 0; i++) {
			const struct run_case *rc = run_case_of(p, j, &j->cases[i], k);
			double *x, x0 = box_x(j, i, k, c->nruns, w);
			size_t n;

			if (!rc || !j->cases[i].cell[k].ok)
				continue;
			x = xcalloc(rc->niter + 1, sizeof(*x));
			n = run_samples(rc, m, x);
			stats_sort(x, n);
			if (n) {
				fprintf(g, "%.6g %.9g %.9g %.9g %.9g %.9g %.9g\n", x0,
					x[0], stats_percentile_sorted(x, n, 25),
					stats_percentile_sorted(x, n, 50),
					stats_percentile_sorted(x, n, 75), x[n - 1],
					j->cases[i].cell[k].s.mean);
			}
			free(x);
		}
		fprintf(g, "EOD\n$p%zu_%zu << EOD\n", id, k);
		for (size_t i = 0; i < j->ncases && m >= 0; i++) {
			const struct run_case *rc = run_case_of(p, j, &j->cases[i], k);
			double x0 = box_x(j, i, k, c->nruns, w);
			const struct run_series *s = rc ? run_series_of(rc, m) : NULL;

			for (size_t it = 0; s && it < rc->niter; it++)
				if (isfinite(s->x[it]))
					fprintf(g, "%.6g %.9g\n",
						x0 + 0.8 * w * jitter(ji, i * 64 + k, it),
						s->x[it]);
		}
		fprintf(g, "EOD\n");
	}
}

/* Sweep plot id's title, axes and plot line: each run's four layers. */
static void sweep_plot(FILE *g, const struct page *p, size_t ji, size_t id,
		       double w)
{
	const struct comparison *c = p->c;
	const struct cmp_job *j = &c->jobs[ji];
	char title[512];

	xtics(g, c, j);
	if (j->metric.better == BETTER_NONE)
		snprintf(title, sizeof(title), "%s: %s (no direction)", j->job,
			 j->metric.name);
	else
		snprintf(title, sizeof(title), "%s: %s (%s is better)", j->job,
			 j->metric.name, better_word(j->metric.better));
	fprintf(g, "set title ");
	plot_quote(g, title);
	fprintf(g, "\nset xlabel ");
	plot_quote(g, *j->sweep_keys ? j->sweep_keys : html_by_run(j) ? "run" : "case");
	fprintf(g, "\nset ylabel ");
	plot_quote(g, *j->metric.unit ? j->metric.unit : "count");
	fprintf(g, "\nset boxwidth %f absolute\nset style fill solid 0.25 border\nplot ",
		w * 0.8);
	for (size_t k = 0; k < c->nruns; k++) {
		const char *col = plot_colour(k);

		fprintf(g, "%s$d%zu_%zu using 1:3:2:6:5 with candlesticks whiskerbars 0.5 lc rgb '%s' title ",
			k ? ", " : "", id, k, col);
		plot_quote(g, c->runs[k].name);
		fprintf(g, ", $d%zu_%zu using 1:4:4:4:4 with candlesticks lw 2 lc rgb '%s' notitle"
			", $d%zu_%zu using 1:7 with linespoints lw 1.5 pt 6 ps 0.8 lc rgb '%s' notitle"
			", $p%zu_%zu using 1:2 with points pt 7 ps 0.5 lc rgb '#40%s' notitle",
			id, k, col, id, k, col, id, k, col + 1);
	}
	fprintf(g, "\n");
}

/* The sweep plot of job ji: candlesticks, mean line, iteration dots. */
static void queue_sweep(struct page *p, size_t ji)
{
	const struct cmp_job *j = &p->c->jobs[ji];
	/* a box per run on its own tick, or the runs' boxes side by side
	 * at each sweep value */
	double w = html_by_run(j) ? 0.6 : 0.7 / (double)p->c->nruns;
	size_t id;
	FILE *g;

	p->jp[ji].sweep = PLOT_NONE;
	if (!sweep_any(p, ji))
		return;
	g = plot_begin(p->pb, j->job, 1000, 420, &id);
	p->jp[ji].sweep = id;
	if (!g)
		return;
	sweep_data(g, p, ji, id, w);
	sweep_plot(g, p, ji, id, w);
}

/* The latency CDF of case i of job ji: one curve per run, log x. */
static void queue_cdf(struct page *p, size_t ji, size_t i)
{
	const struct comparison *c = p->c;
	const struct cmp_job *j = &c->jobs[ji];
	struct hist *h = NULL;
	bool any = false;
	size_t id;
	char title[512];
	FILE *g;

	p->jp[ji].cdf[i] = PLOT_NONE;
	for (size_t k = 0; k < c->nruns && !any; k++) {
		const struct run_case *rc = run_case_of(p, j, &j->cases[i], k);

		for (size_t it = 0; rc && rc->latency && it < rc->niter; it++)
			any |= rc->latency[it] && hist_count(rc->latency[it]);
	}
	if (!any)
		return;
	snprintf(title, sizeof(title), "%s-%s-latency", j->job, j->cases[i].sweep);
	g = plot_begin(p->pb, title, 560, 340, &id);
	p->jp[ji].cdf[i] = id;
	if (!g)
		return;
	h = xmalloc(sizeof(*h));
	for (size_t k = 0; k < c->nruns; k++) {
		const struct run_case *rc = run_case_of(p, j, &j->cases[i], k);
		uint64_t total, cum = 0;
		double last = 0;

		hist_init(h);
		for (size_t it = 0; rc && rc->latency && it < rc->niter; it++)
			if (rc->latency[it])
				hist_merge(h, rc->latency[it]);
		total = hist_count(h);
		fprintf(g, "$d%zu_%zu << EOD\n", id, k);
		for (size_t b = 0; b < HIST_BUCKETS && total; b++) {
			double x;

			if (!h->bucket[b])
				continue;
			cum += h->bucket[b];
			x = (double)hist_bucket_high(b) / 1000.0;
			if (cum < total && x < last * CDF_STEP)
				continue;
			fprintf(g, "%.6g %.6g\n", x, 100.0 * (double)cum / (double)total);
			last = x;
		}
		if (!total)
			fprintf(g, "NaN NaN\n");
		fprintf(g, "EOD\n");
	}
	free(h);
	snprintf(title, sizeof(title), "%s%s%s%s%s: latency CDF", j->job, *j->sweep_keys ? " " : "",
		 j->sweep_keys, *j->sweep_keys ? "=" : "", j->cases[i].sweep);
	fprintf(g, "set title ");
	plot_quote(g, title);
	fprintf(g, "\nset logscale x\nset yrange [0:100]\nset xlabel 'latency (us, log scale)'\n"
		"set ylabel '%% of events at or below'\nset key inside right bottom\nplot ");
	for (size_t k = 0; k < c->nruns; k++) {
		fprintf(g, "%s$d%zu_%zu using 1:2 with lines lw 2 lc rgb '%s' title ",
			k ? ", " : "", id, k, plot_colour(k));
		plot_quote(g, c->runs[k].name);
	}
	fprintf(g, "\n");
}

/* The explanation metrics of job ji as horizontal bars of % change. */
static void queue_expl(struct page *p, size_t ji)
{
	const struct comparison *c = p->c;
	const struct cmp_job *j = &c->jobs[ji];
	size_t n = 0, id;
	FILE *g;

	p->jp[ji].expl = PLOT_NONE;
	for (size_t i = 0; i < j->ncases; i++)
		for (size_t k = 1; k < c->nruns; k++)
			for (size_t e = 0; e < j->cases[i].cell[k].nexpl; e++)
				n += isfinite(j->cases[i].cell[k].expl[e].change_pct);
	if (!n)
		return;
	n = n > MAX_BARS ? MAX_BARS : n;
	g = plot_begin(p->pb, "explanation", 1000, 110 + 22 * (int)n, &id);
	p->jp[ji].expl = id;
	if (!g)
		return;
	fprintf(g, "set ytics (");
	n = 0;
	for (size_t i = 0; i < j->ncases; i++)
		for (size_t k = 1; k < c->nruns; k++)
			for (size_t e = 0; e < j->cases[i].cell[k].nexpl && n < MAX_BARS; e++) {
				char lab[300];

				if (!isfinite(j->cases[i].cell[k].expl[e].change_pct))
					continue;
				snprintf(lab, sizeof(lab), "%s%s%s%s%s", j->sweep_keys,
					 *j->sweep_keys ? "=" : "", j->cases[i].sweep,
					 *j->cases[i].sweep ? " " : "",
					 j->cases[i].cell[k].expl[e].metric);
				fprintf(g, "%s", n ? ", " : "");
				plot_quote(g, lab);
				fprintf(g, " %zu", n++);
			}
	fprintf(g, ")\nset yrange [%f:-1]\nset grid noytics xtics\nset xlabel '%% change against the baseline'\n"
		"set title 'scheduler metrics that moved (lkp-tests rule)'\nset style fill solid 0.6 border\n",
		(double)n);
	for (size_t k = 1; k < c->nruns; k++) {
		size_t row = 0;

		fprintf(g, "$d%zu_%zu << EOD\n", id, k);
		for (size_t i = 0; i < j->ncases; i++)
			for (size_t kk = 1; kk < c->nruns; kk++)
				for (size_t e = 0; e < j->cases[i].cell[kk].nexpl && row < MAX_BARS; e++) {
					double v = j->cases[i].cell[kk].expl[e].change_pct;

					if (!isfinite(v))
						continue;
					if (kk == k)
						fprintf(g, "%.6g %zu\n", v, row);
					row++;
				}
		fprintf(g, "NaN NaN\nEOD\n");
	}
	fprintf(g, "set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb '#444444'\nplot ");
	for (size_t k = 1; k < c->nruns; k++) {
		fprintf(g, "%s$d%zu_%zu using ($1/2):2:($1/2 < 0 ? -$1/2 : $1/2):(0.35) with boxxyerror lc rgb '%s' title ",
			k > 1 ? ", " : "", id, k, plot_colour(k));
		plot_quote(g, c->runs[k].name);
	}
	fprintf(g, "\n");
}

/* Case i of job ji's monitors over time (html_timeline.c). */
static void queue_timeline(struct page *p, size_t ji, size_t i)
{
	const struct cmp_job *j = &p->c->jobs[ji];
	const struct run_case **rc = xcalloc(p->c->nruns + 1, sizeof(*rc));
	char title[512];

	for (size_t k = 0; k < p->c->nruns; k++)
		rc[k] = run_case_of(p, j, &j->cases[i], k);
	snprintf(title, sizeof(title), "%s%s%s%s%s: CPUs busy and run queue over time",
		 j->job, *j->sweep_keys ? " " : "", j->sweep_keys, *j->sweep_keys ? "=" : "", j->cases[i].sweep);
	p->jp[ji].timeline[i] = html_queue_timeline(p->pb, p->c, title, rc);
	/* every other monitor sampled: a timeline of its own */
	for (size_t k = 0; k < p->c->nruns; k++) {
		struct mon_plots *mp = &p->jp[ji].mon[i];
		const char *name;
		json_t *v;

		json_object_foreach(rc[k] ? rc[k]->monitors : NULL, name, v) {
			size_t m;

			if (!strcmp(name, "cpu") || !strcmp(name, "runq"))
				continue;
			for (m = 0; m < mp->n && strcmp(mp->p[m].name, name); m++)
				;
			if (m < mp->n || mp->n == MAX_MONITORS)
				continue;
			snprintf(title, sizeof(title), "%s%s%s%s%s: monitor %s over time",
				 j->job, *j->sweep_keys ? " " : "", j->sweep_keys, *j->sweep_keys ? "=" : "",
				 j->cases[i].sweep, name);
			mp->p[m].name = xstrdup(name);
			mp->p[m].id = html_queue_monitor(p->pb, p->c, title, rc, name,
							 &mp->p[m].ncols, &mp->p[m].shown);
			mp->n++;
		}
	}
	free(rc);
}

void html_queue_plots(struct page *p)
{
	for (size_t ji = 0; ji < p->c->njobs; ji++) {
		const struct cmp_job *j = &p->c->jobs[ji];

		p->jp[ji].cdf = xcalloc(j->ncases + 1, sizeof(size_t));
		p->jp[ji].timeline = xcalloc(j->ncases + 1, sizeof(size_t));
		p->jp[ji].mon = xcalloc(j->ncases + 1, sizeof(struct mon_plots));
		queue_sweep(p, ji);
		for (size_t i = 0; i < j->ncases; i++)
			queue_cdf(p, ji, i);
		/* a job's metrics (--metrics) share their cases' timelines:
		 * the headline's table shows them */
		for (size_t i = 0; i < j->ncases; i++) {
			p->jp[ji].timeline[i] = PLOT_NONE;
			if (j->metric.headline)
				queue_timeline(p, ji, i);
		}
		queue_expl(p, ji);
	}
}
