// SPDX-License-Identifier: GPL-2.0-only
/*
 * html_table: the report page's tables of a job - mmtests' rows per
 * sweep value with the percentages against the baseline, each
 * candidate's change with its interval, p and verdict, the scheduler
 * metrics that moved - and the runs' CPU time. Numbers are the
 * comparison's, formatted; text is escaped.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_int.h"
#include "report/plot.h"
#include "stats/summary.h"
#include "util.h"

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

void html_mm_table(FILE *f, const struct comparison *c,
		     const struct cmp_job *j)
{
	/* one case without a sweep: no column of "-" */
	bool one = html_by_run(j);
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

void html_change_table(FILE *f, const struct comparison *c,
			 const struct cmp_job *j)
{
	bool one = html_by_run(j);	/* no column of "-" */

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
			html_swatch(f, k);
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

void html_expl_table(FILE *f, const struct comparison *c,
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
				html_swatch(f, k);
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

void html_duration_table(FILE *f, const struct comparison *c)
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
