// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_markdown: a comparison as markdown (render_compare_markdown(),
 * report/render_compare.h) - the text renderer's tables for a web page or a
 * merge request, walked by compare_text.c's cmp_summary_rows() and
 * cmp_change_rows() in markdown's style.
 */
#include <math.h>
#include <stdio.h>

#include "report/render_compare.h"
#include "report/compare_text.h"

static void md_cell(FILE *f, const struct cmp_cell *c, int row, bool mark,
		    int dec)
{
	char p[32];

	if (!c->ok) {
		fprintf(f, " %s |", c->present ? "failed" : "-");
		return;
	}
	if (isnan(c->pct[row]))
		snprintf(p, sizeof(p), "n/a");
	else
		snprintf(p, sizeof(p), c->points ? "%.2f pt" : "%.2f%%",
			 c->pct[row]);
	if (isnan(mm_row_value(&c->s, row)))
		fprintf(f, " n/a (%s) |", p);
	else
		fprintf(f, mark ? " %.*f **(%s)** |" : " %.*f (%s) |",
		row == MM_COV ? 4 : dec, mm_row_value(&c->s, row), p);
}

static void md_row_head(FILE *f, const char *label, int w, const char *sweep)
{
	(void)w;
	fprintf(f, "| %s | %s |", label, sweep);
}

static void md_change(FILE *f, const char *label, int w, const char *sweep,
		      int runw, const char *run, const char *change,
		      const char *p, const char *verdict, const char *why)
{
	(void)label, (void)w, (void)runw;
	fprintf(f, "| %s | %s | %s | %s | %s", sweep, run, change, p, verdict);
	fprintf(f, why ? " (%s) |\n" : " |\n", why);
}

static void md_ratio(FILE *f, const struct comparison *c,
		     const struct cmp_job *j, int w)
{
	(void)w;
	fprintf(f, "| Gmean | ratio |");
	for (size_t k = 0; k < c->nruns; k++)
		if (isnan(j->gmean_ratio[k]))
			fprintf(f, " n/a |");
		else
			fprintf(f, " %.4f |", j->gmean_ratio[k]);
	fputc('\n', f);
}

static const struct table_style md_style = {
	.row_head = md_row_head, .cell = md_cell, .change = md_change,
	.ratio = md_ratio,
};

void render_compare_markdown(FILE *f, const struct comparison *c)
{
	fprintf(f, "Change: + is better; %s test, %g%% intervals, threshold %g%%; "
		"**bold**: a significant mean.\n\n", cmp_test_name(c),
		100 * (1 - c->opts.alpha), c->opts.threshold);
	for (size_t jn = 0; jn < c->njobs; jn++) {
		const struct cmp_job *j = &c->jobs[jn];

		cmp_job_title(f, j, "### ");
		fprintf(f, "\n| | %s |", *j->sweep_keys ? j->sweep_keys : "");
		for (size_t k = 0; k < c->nruns; k++)
			fprintf(f, " %s |", c->runs[k].name);
		fprintf(f, "\n|---|---|");
		for (size_t k = 0; k < c->nruns; k++)
			fprintf(f, "---:|");
		fputc('\n', f);
		cmp_summary_rows(f, c, j, 0, &md_style);
		fprintf(f, "\n| %s | run | %s [interval] | p | verdict |\n"
			"|---|---|---:|---:|---|\n",
			*j->sweep_keys ? j->sweep_keys : "case", cmp_change_label(c));
		cmp_change_rows(f, c, j, 0, &md_style);
		fputc('\n', f);
	}
	cmp_notes(f, c, "- ");
	fputc('\n', f);
	render_verdict_line(f, c);
}
