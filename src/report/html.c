// SPDX-License-Identifier: GPL-2.0-only
/*
 * html: the report page (html.h). Per job: mmtests' rows per sweep
 * value with the percentages against the baseline (bold where the test
 * found the difference significant), each candidate's change, interval,
 * p and verdict; a plot over the sweep values - per run a candlestick
 * (min, quartiles, max), its mean joined by a line, every iteration as
 * a jittered dot; per case the latency CDF of each run (its
 * iterations' histograms merged), log x; the scheduler metrics that
 * moved as a table and a bar chart of their % change; per case with
 * monitors, the runs' timelines side by side (html_timeline.c). Then each run's
 * CPU time, the notes, and the environments side by side, the rows
 * that differ highlighted. Run k has plot_colour(k) everywhere.
 *
 * The plots are queued first (one gnuplot script for the page), drawn,
 * then the page is written with them; all text is escaped.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "report/html.h"
#include "report/plot.h"
#include "stats/hist.h"
#include "stats/summary.h"
#include "util.h"

#define CDF_STEP 1.08	/* a CDF point per 8% of latency, at most: a page
			 * of 50 cases x 10 runs stays under 5 MB */
#define MAX_BARS 40	/* explanation bars per job */

#define MAX_MONITORS 16	/* other monitors' timelines a case, at most */

/* A case's timelines of the monitors other than cpu and runq. */
struct mon_plots {
	size_t n;
	struct {
		char *name;
		size_t id, ncols, shown;
	} p[MAX_MONITORS];
};

/* The plots of one job, by id (PLOT_NONE: none). */
struct job_plots {
	size_t sweep, expl;
	size_t *cdf;		/* [ncases] */
	size_t *timeline;	/* [ncases] */
	struct mon_plots *mon;	/* [ncases] */
};

struct page {
	FILE *f;
	const struct comparison *c;
	const struct run *const *runs;
	struct plot_batch *pb;
	struct job_plots *jp;	/* [njobs] */
};

void html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				fprintf(f, "&#xfffd;");
			else
				fputc(*s, f);
		}
}

/* A value to 6 significant digits, as the text's table; "n/a" if none. */
static void num_g(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("n/a", f);
}

/* A spread in percent of the mean, whole; "-" where there is none. */
static void sd_pct(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.0f", v);
	else
		fputs("-", f);
}

/* "v-no-change": a verdict as a class name. */
static void verdict_class(FILE *f, enum verdict v)
{
	fputs("v-", f);
	for (const char *p = verdict_names[v]; *p; p++)
		fputc(*p == ' ' ? '-' : *p, f);
}

static const char *css =
	"body{font-family:'DejaVu Sans',sans-serif;margin:1.5em auto;max-width:1150px;color:#222;line-height:1.35}"
	"h1{font-size:1.6em;border-bottom:2px solid #444;padding-bottom:.2em}"
	"h2{font-size:1.3em;margin-top:2em;border-bottom:1px solid #aaa}"
	"h3{font-size:1.05em;margin:1.2em 0 .4em}"
	"table{border-collapse:collapse;margin:.5em 0;font-size:.9em}"
	"th,td{border:1px solid #ccc;padding:.2em .5em;text-align:right;vertical-align:top}"
	"th{background:#f2f2f2}td.l,th.l{text-align:left}"
	".sig{font-weight:bold}.better{color:#1a7f37}.worse{color:#c62828}"
	".v-improved{background:#dff5e1}.v-regressed{background:#fde0e0}.v-inconclusive{background:#fff4d6}"
	"tr.diff td{background:#fff4d6}"
	".sw{display:inline-block;width:.9em;height:.9em;border-radius:2px;margin-right:.35em;vertical-align:-.1em}"
	".plot svg,.plot img{max-width:100%;height:auto}.plot{margin:.5em 0}"
	".cdfs{display:grid;grid-template-columns:1fr 1fr;gap:.5em}"
	".noplot{border:1px dashed #999;padding:.6em;color:#555;background:#fafafa}"
	"table.env{width:100%;table-layout:fixed}table.env td{overflow-wrap:anywhere}table.env td:first-child{width:16em}"
	"code{background:#f2f2f2;padding:0 .2em}.verdict{font-size:1.1em}";

static void swatch(FILE *f, size_t k)
{
	fprintf(f, "<span class=\"sw\" style=\"background:%s\"></span>",
		plot_colour(k));
}

void html_run_head(FILE *f, const struct comparison *c, size_t k)
{
	fputs("<th>", f);
	swatch(f, k);
	html_esc(f, c->runs[k].name);
	fputs("</th>", f);
}

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

/* ---- plots ---- */

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

/*
 * Whether job j is one case without a sweep: its plot has a box per run,
 * each named on the x axis, not one "-" tick of an axis called "case".
 */
static bool by_run(const struct cmp_job *j)
{
	return j->ncases == 1 && !*j->cases[0].sweep;
}

/* Where run k's box of case i stands on the x axis. */
static double box_x(const struct cmp_job *j, size_t i, size_t k, size_t nruns,
		    double w)
{
	if (by_run(j))
		return (double)k;
	return (double)i + ((double)k - (double)(nruns - 1) / 2.0) * w;
}

/* The sweep values as x labels: at most 16 of them, the rest ticks. */
static void xtics(FILE *g, const struct comparison *c, const struct cmp_job *j)
{
	size_t every = (j->ncases + 15) / 16;

	if (by_run(j)) {
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

/* The sweep plot of job ji: candlesticks, mean line, iteration dots. */
static void queue_sweep(struct page *p, size_t ji)
{
	const struct comparison *c = p->c;
	const struct cmp_job *j = &c->jobs[ji];
	/* a box per run on its own tick, or the runs' boxes side by side
	 * at each sweep value */
	double w = by_run(j) ? 0.6 : 0.7 / (double)c->nruns;
	size_t id;
	char title[512];
	FILE *g;

	bool any = false;

	/* gnuplot stops its script at a plot with no point at all */
	p->jp[ji].sweep = PLOT_NONE;
	for (size_t i = 0; i < j->ncases && !any; i++)
		for (size_t k = 0; k < c->nruns && !any; k++)
			any = j->cases[i].cell[k].ok && p->runs[k] &&
			      run_metric(p->runs[k], j->metric.name) >= 0 &&
			      run_case_of(p, j, &j->cases[i], k);
	if (!any)
		return;
	g = plot_begin(p->pb, j->job, 1000, 420, &id);
	p->jp[ji].sweep = id;
	if (!g)
		return;
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
	plot_quote(g, *j->sweep_keys ? j->sweep_keys : by_run(j) ? "run" : "case");
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

static void queue_plots(struct page *p)
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

static void show_plot(const struct page *p, size_t id, const char *what)
{
	FILE *f = p->f;

	if (!p->pb || id == PLOT_NONE) {
		if (p->pb && !plot_have(p->pb))
			fprintf(f, "<p class=\"noplot\">No %s: gnuplot is not installed here. "
				"<code>%s</code> and run <code>schedlab report</code> again to get the plots.</p>\n",
				what, PLOT_HOWTO);
		return;
	}
	if (p->pb->png) {
		fprintf(f, "<div class=\"plot\"><img src=\"");
		html_esc(f, p->pb->name[id]);
		fprintf(f, "\" alt=\"");
		html_esc(f, what);
		fprintf(f, "\"></div>\n");
	} else if (plot_svg(p->pb, id)) {
		fprintf(f, "<div class=\"plot\">%s</div>\n", plot_svg(p->pb, id));
	} else {
		fprintf(f, "<p class=\"noplot\">The %s could not be drawn (gnuplot failed: see the warning).</p>\n",
			what);
	}
}

/* ---- tables ---- */

static void mm_table(FILE *f, const struct comparison *c,
		     const struct cmp_job *j)
{
	/* one case without a sweep: no column of "-" */
	bool one = by_run(j);
	int dec = cmp_decimals(j);

	/* the sign convention in the header, as in every table of the page */
	fprintf(f, "<table class=\"mm\"><tr><th class=\"l\">%s</th>",
		j->metric.better == BETTER_NONE ? "(%: + is more)" : "(%: + is better)");
	if (!one) {
		fprintf(f, "<th class=\"l\">");
		html_esc(f, *j->sweep_keys ? j->sweep_keys : "");
		fprintf(f, "</th>");
	}
	for (size_t k = 0; k < c->nruns; k++)
		html_run_head(f, c, k);
	fprintf(f, "</tr>\n");
	for (int row = 0; row < MM_NROWS; row++)
		for (size_t i = 0; i < j->ncases; i++) {
			const struct cmp_case *cs = &j->cases[i];

			fprintf(f, "<tr><td class=\"l\">%s</td>",
				mm_row_label(row, j->metric.better == BETTER_HIGHER));
			if (!one) {
				fprintf(f, "<td class=\"l\">");
				html_esc(f, *cs->sweep ? cs->sweep : "-");
				fprintf(f, "</td>");
			}
			for (size_t k = 0; k < c->nruns; k++) {
				const struct cmp_cell *cell = &cs->cell[k];
				bool sig = k && row == MM_MEAN && cell->r.significant;
				double pct = cell->pct[row];

				if (!cell->ok) {
					fprintf(f, "<td>%s</td>", cell->present ? "failed" : "-");
					continue;
				}
				fprintf(f, "<td%s>", sig ? " class=\"sig\"" : "");
				/* the column's precision, as the text table's */
				if (isfinite(mm_row_value(&cell->s, row)))
					fprintf(f, "%.*f", row == MM_COV ? 4 : dec,
						mm_row_value(&cell->s, row));
				else
					fputs("n/a", f);
				if (k && isfinite(pct))
					fprintf(f, " <span class=\"%s\">(%+.2f%s)</span>",
						j->metric.better == BETTER_NONE ? "same" :
						pct > 0.005 ? "better" : pct < -0.005 ? "worse" : "same",
						fabs(pct) < 0.005 ? 0 : pct,
						cell->points ? " pt" : "%");
				fprintf(f, "</td>");
			}
			fprintf(f, "</tr>\n");
		}
	fprintf(f, "</table>\n<p>Percentages as mmtests prints them: positive is better; bold: the test found the difference significant.</p>\n");
}

static void change_table(FILE *f, const struct comparison *c,
			 const struct cmp_job *j)
{
	bool one = by_run(j);	/* no column of "-" */

	if (c->nruns < 2)
		return;
	fprintf(f, "<table><tr>");
	if (!one) {
		fprintf(f, "<th class=\"l\">");
		html_esc(f, *j->sweep_keys ? j->sweep_keys : "case");
		fprintf(f, "</th>");
	}
	fprintf(f, "<th class=\"l\">candidate</th><th>change (%s; + is %s)</th><th>95%% interval</th><th>p</th><th class=\"l\">verdict</th><th class=\"l\">why</th></tr>\n",
		stat_test_medians(c->opts.test) ? "median" : "Amean",
		j->metric.better == BETTER_NONE ? "more" : "better");
	for (size_t i = 0; i < j->ncases; i++)
		for (size_t k = 1; k < c->nruns; k++) {
			const struct cmp_cell *cell = &j->cases[i].cell[k];
			const struct cmp_result *r = &cell->r;
			/* a metric without a direction has no verdict (the
			 * text table's "-") */
			bool none = j->metric.better == BETTER_NONE;

			fprintf(f, "<tr class=\"");
			if (none)
				fprintf(f, "v-none");
			else
				verdict_class(f, r->verdict);
			fprintf(f, "\">");
			if (!one) {
				fprintf(f, "<td class=\"l\">");
				html_esc(f, *j->cases[i].sweep ? j->cases[i].sweep : "-");
				fprintf(f, "</td>");
			}
			fprintf(f, "<td class=\"l\">");
			swatch(f, k);
			html_esc(f, c->runs[k].name);
			/* as the text: "n/a" where a number is not known */
			if (!isfinite(cell->points ? cell->pt : r->change))
				fprintf(f, "</td><td>n/a</td><td>n/a</td>");
			else if (cell->points)	/* a percentage: points */
				fprintf(f, "</td><td>%+.1f pt</td>", cell->pt);
			else
				fprintf(f, "</td><td>%+.1f%%</td>", r->change);
			if (!isfinite(cell->points ? cell->pt : r->change))
				;
			else if (!isfinite(cell->points ? cell->pt_lo : r->lo) ||
				 !isfinite(cell->points ? cell->pt_hi : r->hi))
				fprintf(f, "<td>n/a</td>");
			else
				fprintf(f, "<td>[%+.1f, %+.1f]</td>",
					cell->points ? cell->pt_lo : r->lo,
					cell->points ? cell->pt_hi : r->hi);
			if (isnan(r->p))
				fprintf(f, "<td>-</td>");
			else
				fprintf(f, "<td>%.4f</td>", r->p);
			fprintf(f, "<td class=\"l\">");
			html_esc(f, none ? "-" : verdict_names[r->verdict]);
			fprintf(f, "</td><td class=\"l\">");
			html_esc(f, none ? "no direction: + is more" : r->why);
			fprintf(f, "</td></tr>\n");
		}
	fprintf(f, "</table>\n");
}

static void expl_table(FILE *f, const struct comparison *c,
		       const struct cmp_job *j)
{
	bool head = false;

	for (size_t i = 0; i < j->ncases; i++)
		for (size_t k = 1; k < c->nruns; k++)
			for (size_t e = 0; e < j->cases[i].cell[k].nexpl; e++) {
				const struct cmp_expl *x = &j->cases[i].cell[k].expl[e];

				if (!head)
					fprintf(f, "<h3>Scheduler metrics that moved</h3>\n<table><tr><th class=\"l\">case</th><th class=\"l\">candidate</th><th class=\"l\">metric</th><th>base</th><th>&plusmn;%%</th><th>candidate</th><th>&plusmn;%%</th><th>change (+ is more)</th></tr>\n");
				head = true;
				fprintf(f, "<tr><td class=\"l\">");
				html_esc(f, *j->cases[i].sweep ? j->cases[i].sweep : "-");
				fprintf(f, "</td><td class=\"l\">");
				swatch(f, k);
				html_esc(f, c->runs[k].name);
				fprintf(f, "</td><td class=\"l\">");
				html_esc(f, x->metric);
				fprintf(f, "</td><td>");
				num_g(f, x->base);
				fprintf(f, "</td><td>");
				sd_pct(f, x->base_sd_pct);
				fprintf(f, "</td><td>");
				num_g(f, x->cand);
				fprintf(f, "</td><td>");
				sd_pct(f, x->cand_sd_pct);
				fprintf(f, "</td>");
				if (x->points)	/* a percentage: points */
					fprintf(f, "<td>%+.1f pt</td></tr>\n", x->change_pt);
				else if (isfinite(x->change_pct))
					fprintf(f, "<td>%+.1f%%</td></tr>\n", x->change_pct);
				else
					fprintf(f, "<td>new</td></tr>\n");
			}
	if (head) {
		fprintf(f, "</table>\n<p>Changes as lkp-tests prints them: + is more, whichever way is better for the metric (unlike the tables above, where + is better).</p>\n");
	} else {
		char off[192];

		if (cmp_probes_off_line(c, j, off, sizeof(off))) {
			fprintf(f, "<p>");
			html_esc(f, off);
			fprintf(f, "</p>\n");
		}
	}
}

static void job_section(const struct page *p, size_t ji)
{
	const struct comparison *c = p->c;
	const struct cmp_job *j = &c->jobs[ji];
	FILE *f = p->f;

	fprintf(f, "<h2 id=\"job%zu\">", ji);
	html_esc(f, j->job);
	if (*j->sweep_keys) {
		fputs(" by ", f);
		html_esc(f, j->sweep_keys);
	}
	fputs(": ", f);
	html_esc(f, j->metric.name);
	fprintf(f, " <small>(");
	html_esc(f, *j->metric.unit ? j->metric.unit : "count");
	if (j->metric.better == BETTER_NONE)
		fprintf(f, ", no direction: + is more, no verdict)</small></h2>\n");
	else
		fprintf(f, ", %s is better)</small></h2>\n",
			better_word(j->metric.better));
	/* the picture first, then its numbers */
	if (p->runs) {
		show_plot(p, p->jp[ji].sweep, "plot over the sweep values");
		if (p->pb && p->jp[ji].sweep != PLOT_NONE)
			fprintf(f, "<p>Per run: a candlestick of min, quartiles and max (the thick bar the median), the mean %s, every iteration a dot.</p>\n",
				by_run(j) ? "a circle" : "joined by a line");
	}
	mm_table(f, c, j);
	change_table(f, c, j);
	if (p->runs) {
		bool any = false;
		for (size_t i = 0; i < j->ncases; i++)
			any |= p->jp[ji].cdf[i] != PLOT_NONE;
		if (any && p->pb && plot_have(p->pb)) {
			fprintf(f, "<h3>Latency distributions</h3>\n<div class=\"cdfs\">\n");
			for (size_t i = 0; i < j->ncases; i++)
				if (p->jp[ji].cdf[i] != PLOT_NONE)
					show_plot(p, p->jp[ji].cdf[i], "latency CDF");
			fprintf(f, "</div>\n");
		} else if (p->pb && !plot_have(p->pb)) {
			show_plot(p, PLOT_NONE, "latency distributions");
		}
	}
	if (p->runs && p->pb) {
		bool any = false;

		for (size_t i = 0; i < j->ncases; i++)
			any |= p->jp[ji].timeline[i] != PLOT_NONE || p->jp[ji].mon[i].n;
		if (any) {
			fprintf(f, "<h3>Timelines</h3>\n<p>Each monitor sampled, over each run's iterations laid end to end: cpu and runq together, a dashed line where each iteration begins, per CPU white idle and dark busy (grey: no sample), below the tasks runnable; then every other monitor, its columns over all CPUs (per-CPU columns are in the export).</p>\n");
			for (size_t i = 0; i < j->ncases; i++) {
				const struct mon_plots *mp = &p->jp[ji].mon[i];

				if (p->jp[ji].timeline[i] != PLOT_NONE)
					show_plot(p, p->jp[ji].timeline[i], "timeline");
				for (size_t m = 0; m < mp->n; m++) {
					if (mp->p[m].shown < mp->p[m].ncols) {
						fprintf(f, "<p>Monitor ");
						html_esc(f, mp->p[m].name);
						fprintf(f, ": the %zu of its %zu columns that moved most.</p>\n",
							mp->p[m].shown, mp->p[m].ncols);
					}
					show_plot(p, mp->p[m].id, "monitor timeline");
				}
			}
		}
	}
	expl_table(f, c, j);
	if (p->runs && p->jp[ji].expl != PLOT_NONE)
		show_plot(p, p->jp[ji].expl, "chart of the metrics that moved");
}

static void runs_table(const struct page *p)
{
	const struct comparison *c = p->c;
	FILE *f = p->f;

	fprintf(f, "<table><tr><th class=\"l\">run</th><th class=\"l\">as given</th><th class=\"l\">uuid</th><th class=\"l\">host</th><th class=\"l\">role</th><th class=\"l\">verdict</th></tr>\n");
	for (size_t k = 0; k < c->nruns; k++) {
		const struct run *r = p->runs ? p->runs[k] : NULL;

		fprintf(f, "<tr><td class=\"l\">");
		swatch(f, k);
		html_esc(f, c->runs[k].name);
		fprintf(f, "</td><td class=\"l\">");
		html_esc(f, c->runs[k].spec);
		fprintf(f, "</td><td class=\"l\"><code>");
		html_esc(f, c->runs[k].uuid);
		fprintf(f, "</code></td><td class=\"l\">");
		html_esc(f, r && r->host ? r->host : "");
		fprintf(f, "</td><td class=\"l\">%s</td><td class=\"l\">%s</td></tr>\n",
			k ? "candidate" : "baseline",
			k ? verdict_names[c->verdict[k]] : "");
	}
	fprintf(f, "</table>\n");
}

static void duration_table(FILE *f, const struct comparison *c)
{
	fprintf(f, "<h2>CPU time</h2>\n<table><tr><th class=\"l\"></th>");
	for (size_t k = 0; k < c->nruns; k++)
		html_run_head(f, c, k);
	fprintf(f, "</tr>\n");
	for (int row = 0; row < 3; row++) {
		static const char *const lab[] = { "User (s)", "System (s)", "Elapsed (s)" };

		fprintf(f, "<tr><td class=\"l\">%s</td>", lab[row]);
		for (size_t k = 0; k < c->nruns; k++) {
			const struct cmp_run *r = &c->runs[k];

			fprintf(f, "<td>%.2f</td>", row == 0 ? r->user_s :
				row == 1 ? r->sys_s : r->elapsed_s);
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
}

/* ---- the page ---- */

/* The notes that are (left_out) or are not of cases left out, headed. */
static void notes_list(FILE *f, const struct comparison *c, bool left_out,
		       const char *heading)
{
	bool head = false;

	for (size_t i = 0; i < c->nnotes; i++) {
		if (c->note_left_out[i] != left_out)
			continue;
		if (!head)
			fprintf(f, "<h2>%s</h2>\n<ul>\n", heading);
		head = true;
		fprintf(f, "<li>");
		html_esc(f, c->notes[i]);
		fprintf(f, "</li>\n");
	}
	if (head)
		fprintf(f, "</ul>\n");
}

int render_html_page(FILE *f, const struct comparison *c,
		     const struct run *const *runs, struct plot_batch *pb)
{
	struct page p = { f, c, runs, runs ? pb : NULL, NULL };
	int rc = 0;

	p.jp = xcalloc(c->njobs + 1, sizeof(*p.jp));
	if (p.pb) {
		queue_plots(&p);
		if (plot_draw(p.pb))
			rc = -1;
	}
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>schedlab report: ");
	for (size_t k = 0; k < c->nruns; k++) {
		fputs(k ? " vs " : "", f);
		html_esc(f, c->runs[k].name);
	}
	fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>schedlab report: ", css);
	for (size_t k = 0; k < c->nruns; k++) {
		fputs(k ? " vs " : "", f);
		html_esc(f, c->runs[k].name);
	}
	fprintf(f, "</h1>\n");
	runs_table(&p);
	if (c->nruns > 1) {
		fprintf(f, "<p class=\"verdict\">Overall: <b>");
		html_esc(f, verdict_names[c->overall]);
		fprintf(f, "</b> (test: %s, threshold %g%%).", cmp_test_name(c),
			c->opts.threshold);
		if (c->verdict_text) {
			fputs(" ", f);
			html_esc(f, c->verdict_text);
		}
		fprintf(f, "</p>\n");
	}
	if (!runs)
		fprintf(f, "<p class=\"noplot\">Tables only: <code>schedlab report RUN... -o DIR</code> draws the plots.</p>\n");
	else if (p.pb && !plot_have(p.pb))
		fprintf(f, "<p class=\"noplot\">This page has no plots: gnuplot is not installed here. <code>%s</code> and run <code>schedlab report</code> again.</p>\n",
			PLOT_HOWTO);
	if (c->njobs > 1) {
		fprintf(f, "<p>Jobs: ");
		for (size_t ji = 0; ji < c->njobs; ji++) {
			fprintf(f, "%s<a href=\"#job%zu\">", ji ? ", " : "", ji);
			html_esc(f, c->jobs[ji].job);
			fprintf(f, "</a>");
		}
		fprintf(f, "</p>\n");
	}
	for (size_t ji = 0; ji < c->njobs; ji++)
		job_section(&p, ji);
	duration_table(f, c);
	/* the cases left out under their heading, the other notes under theirs */
	notes_list(f, c, true, "Not compared");
	notes_list(f, c, false, "Notes");
	if (runs)
		html_environments(f, c, runs);
	fprintf(f, "<p><small>Made by schedlab; every number from its stored runs.</small></p>\n</body></html>\n");
	for (size_t ji = 0; ji < c->njobs; ji++) {
		free(p.jp[ji].cdf);
		free(p.jp[ji].timeline);
		for (size_t i = 0; p.jp[ji].mon && i < p.c->jobs[ji].ncases; i++)
			for (size_t m = 0; m < p.jp[ji].mon[i].n; m++)
				free(p.jp[ji].mon[i].p[m].name);
		free(p.jp[ji].mon);
	}
	free(p.jp);
	return rc;
}

void render_compare_html(FILE *f, const struct comparison *c)
{
	render_html_page(f, c, NULL, NULL);
}
