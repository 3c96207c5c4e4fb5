// SPDX-License-Identifier: GPL-2.0-only
/*
 * A comparison as text, in mmtests' layout (compare-kernels): per job
 * the rows Min, Amean/Hmean, Stddev, CoeffVar, Max, BAmean-95 for every
 * sweep value, each candidate's value with mmtests' percentage (positive
 * is better; `*  1.74%*` when the test says the difference is real),
 * then each candidate's change with its interval and verdict, and the
 * scheduler metrics that moved in the manner of lkp-tests' reports.
 * Markdown is the same tables for a web page or a merge request
 * (compare_markdown.c, through compare_text.h's walk).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/render_compare.h"
#include "report/compare_text.h"
#include "util.h"

#define CELL 23		/* "%12.4f (%7.2f%%)" */
#define TEXT_COLUMNS 80	/* what an email takes */
#define RUN_COL 10	/* the run's column of a change row, at least */
/* A change row but its sweep and run columns: "Change (median) " ...
 * "-6.2% [-8.1, -4.0]     p=0.0001  inconclusive" */
#define CHANGE_REST (16 + 1 + 1 + 22 + 1 + 9 + 1 + 12)

static int sweep_width(const struct cmp_job *j)
{
	int w = 4;

	for (size_t i = 0; i < j->ncases; i++)
		if ((int)strlen(j->cases[i].sweep) > w)
			w = (int)strlen(j->cases[i].sweep);
	return w;
}

static const char *sweep_or_dash(const struct cmp_case *cs)
{
	return *cs->sweep ? cs->sweep : "-";
}

void cmp_job_title(FILE *f, const struct cmp_job *j, const char *pre)
{
	fprintf(f, "%s%s%s%s: %s, %s (%s)\n", pre, j->job,
		*j->sweep_keys ? " by " : "", j->sweep_keys, j->metric.name,
		*j->metric.unit ? j->metric.unit : "count",
		j->metric.better == BETTER_NONE ? "no direction: + is more, no verdict" :
		j->metric.better == BETTER_HIGHER ? "higher is better" :
		"lower is better");
}

/* A verdict as a table says it: none for a metric without a direction. */
static const char *verdict_word(const struct cmp_job *j,
				const struct cmp_result *r)
{
	return j->metric.better == BETTER_NONE ? "-" : verdict_names[r->verdict];
}

/* "   1.74" into the 7 columns of mmtests' percentage, or "n/a". */
static void pct_text(char *buf, size_t len, double pct)
{
	if (isnan(pct))
		snprintf(buf, len, "%7s", "n/a");
	else
		snprintf(buf, len, "%7.2f", fabs(pct) < 0.005 ? 0 : pct);
}

/*
 * Decimals for a job's values: mmtests' 4, more for values below 1 so
 * that a time in milliseconds keeps 4 significant digits (at most 8).
 */
int cmp_decimals(const struct cmp_job *j)
{
	double m = INFINITY;

	for (size_t i = 0; i < j->ncases; i++) {
		const struct cmp_cell *c = &j->cases[i].cell[0];

		if (c->ok && fabs(c->s.min) > 0 && fabs(c->s.min) < m)
			m = fabs(c->s.min);
	}
	if (!(m < 1))
		return 4;
	return (int)fmin(8, 4 + ceil(-log10(m)));
}

static void text_cell(FILE *f, const struct cmp_cell *c, int row, bool mark,
		      int dec)
{
	char p[32];

	if (!c->ok) {
		fprintf(f, "%12s %10s", c->present ? "failed" : "-", "");
		return;
	}
	/* "   1.74%", or a percentage's "  12.30pt" in the same 8 columns */
	if (c->points && !isnan(c->pct[row])) {
		snprintf(p, sizeof(p), "%6.2fpt",
			 fabs(c->pct[row]) < 0.005 ? 0 : c->pct[row]);
	} else {
		char q[24];

		pct_text(q, sizeof(q), c->pct[row]);
		snprintf(p, sizeof(p), "%s%%", q);
	}
	if (row == MM_COV)
		dec = 4;	/* a percentage */
	if (!isfinite(mm_row_value(&c->s, row)))
		fprintf(f, "%12s (%s)", "n/a", p);
	else if (mark)
		fprintf(f, "%12.*f *%s*", dec, mm_row_value(&c->s, row), p);
	else
		fprintf(f, "%12.*f (%s)", dec, mm_row_value(&c->s, row), p);
}

/* "-6.2% [-8.1, -4.0]", or "n/a" when undefined. */
static void change_text(char *buf, size_t len, const struct cmp_cell *cell)
{
	const struct cmp_result *r = &cell->r;

	if (cell->points && !!isfinite(r->change)) {
		/* a percentage's change: points, as its table shows it */
		if (!isfinite(cell->pt_lo))
			snprintf(buf, len, "%+.1f pt [n/a]", cell->pt);
		else
			snprintf(buf, len, "%+.1f pt [%+.1f, %+.1f]", cell->pt,
				 cell->pt_lo, cell->pt_hi);
		return;
	}
	if (!isfinite(r->change))
		snprintf(buf, len, "n/a");
	else if (!isfinite(r->lo))	/* one run a side, no noise known: no interval */
		snprintf(buf, len, "%+.1f%% [n/a]", r->change);
	else
		snprintf(buf, len, "%+.1f%% [%+.1f, %+.1f]", r->change, r->lo,
			 r->hi);
}

static void p_text(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.0001)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.4f", p);
}

/* lkp-tests' "+- 8%" beside a value, shown above 2% only. */
static void sd_text(char *buf, size_t len, double sd)
{
	if (isfinite(sd) && sd > 2)
		snprintf(buf, len, "+-%3.0f%%", sd);
	else
		snprintf(buf, len, "%s", "");
}

/*
 * When no case of job j shows a metric that moved because the probes
 * were off (in every case compared, or in some), the line that says so
 * into buf; else false.
 */
bool cmp_probes_off_line(const struct comparison *c, const struct cmp_job *j,
			 char *buf, size_t len)
{
	size_t cells = 0, off = 0;

	if (!j->metric.headline || (c->brief && !c->brief_top))
		return false;
	for (size_t i = 0; i < j->ncases; i++)
		for (size_t k = 1; k < c->nruns; k++) {
			const struct cmp_cell *cell = &j->cases[i].cell[k];

			if (cell->nexpl)
				return false;
			if (!cell->ok || !j->cases[i].cell[0].ok)
				continue;
			cells++;
			off += cell->probes_off;
		}
	if (!off)
		return false;
	if (off == cells)
		snprintf(buf, len, "what moved: nothing to show: probes were off in %s (probes = on records them)",
			 cells == 1 ? "this case" : "these cases");
	else
		snprintf(buf, len, "what moved: nothing to show: probes were off in %zu of the %zu cases compared (probes = on records them)",
			 off, cells);
	return true;
}

static void text_explain(FILE *f, const struct comparison *c,
			 const struct cmp_job *j)
{
	bool head = false;
	char off[192];

	if (cmp_probes_off_line(c, j, off, sizeof(off))) {
		fputc('\n', f);
		text_wrap(f, "", "  ", off, TEXT_COLUMNS);
		return;
	}

	for (size_t i = 0; i < j->ncases; i++)
		for (size_t k = 1; k < c->nruns; k++) {
			const struct cmp_cell *cell = &j->cases[i].cell[k];

			if (!cell->nexpl || (c->brief && !c->brief_top))
				continue;
			if (!head)
				fprintf(f, "\n%12s %6s %9s %12s %6s  %s\n", "base",
					"", "%change", "candidate", "",
					"metric (lkp-tests: + is more)");
			head = true;
			fprintf(f, "  %s%s%s %s:\n", j->job,
				*j->cases[i].sweep ? " " : "", j->cases[i].sweep,
				c->runs[k].name);
			for (size_t e = 0; e < cell->nexpl &&
			     (!c->brief || e < c->brief_top); e++) {
				const struct cmp_expl *x = &cell->expl[e];
				char sa[16], sb[16], ch[16];

				sd_text(sa, sizeof(sa), x->base_sd_pct);
				sd_text(sb, sizeof(sb), x->cand_sd_pct);
				if (x->points)	/* a percentage: points */
					snprintf(ch, sizeof(ch), "%+.1f pt", x->change_pt);
				else if (isfinite(x->change_pct))
					snprintf(ch, sizeof(ch), "%+.1f%%", x->change_pct);
				else
					snprintf(ch, sizeof(ch), "new");
				fprintf(f, "%12.6g %6s %9s %12.6g %6s  %s\n", x->base,
					sa, ch, x->cand, sb, x->metric);
			}
		}
}

/*
 * "Change (median)": what the change is of, spelt as the summary rows
 * are (Amean), so that it is not read as a change of the Hmean row.
 */
const char *cmp_change_label(const struct comparison *c)
{
	return stat_test_medians(c->opts.test) ? "Change (median)" :
						 "Change (Amean)";
}

/* mmtests' rows, each for every sweep value; a row per line. */
void cmp_summary_rows(FILE *f, const struct comparison *c,
		      const struct cmp_job *j, int w,
		      const struct table_style *t)
{
	int dec = cmp_decimals(j);

	for (int row = 0; row < MM_NROWS; row++)
		for (size_t i = 0; i < j->ncases; i++) {
			const struct cmp_case *cs = &j->cases[i];

			if (c->rows && !(c->rows & 1u << row))
				break;	/* not asked for (--rows) */
			if (c->brief && row != MM_MEAN)
				break;	/* --brief: the mean row alone */

			/* the metric's mean, failed baseline or not */
			t->row_head(f, mm_row_label(row, j->metric.better ==
						    BETTER_HIGHER),
				    w, sweep_or_dash(cs));
			for (size_t k = 0; k < c->nruns; k++)
				t->cell(f, &cs->cell[k], row, k && row == MM_MEAN &&
					cs->cell[k].r.significant, dec);
			fputc('\n', f);
		}
	if (c->ratio)
		t->ratio(f, c, j, w);
}

/* Each candidate's change, interval, p and verdict, by sweep value. */
void cmp_change_rows(FILE *f, const struct comparison *c,
		     const struct cmp_job *j, int w,
		     const struct table_style *t)
{
	int runw = RUN_COL;

	/* wide enough for the longest name that leaves the row in 80 columns */
	for (size_t k = 1; k < c->nruns; k++) {
		int len = (int)strlen(c->runs[k].name);

		if (len > runw && CHANGE_REST + w + len <= TEXT_COLUMNS)
			runw = len;
	}
	for (size_t i = 0; i < j->ncases; i++)
		for (size_t k = 1; k < c->nruns; k++) {
			const struct cmp_result *r = &j->cases[i].cell[k].r;
			char ch[64], p[16];

			change_text(ch, sizeof(ch), &j->cases[i].cell[k]);
			p_text(p, sizeof(p), r->p);
			t->change(f, cmp_change_label(c), w,
				  sweep_or_dash(&j->cases[i]), runw, c->runs[k].name,
				  ch, p, verdict_word(j, r),
				  j->metric.better == BETTER_NONE || c->brief ?
				  NULL : r->why);
		}
}

static void text_row_head(FILE *f, const char *label, int w, const char *sweep)
{
	fprintf(f, "%-9s %-*s", label, w, sweep);
}

/*
 * A candidate's change; a name wider than its column is never cut: it
 * ends the line, and the change goes under the column it would have.
 */
static void text_change(FILE *f, const char *label, int w, const char *sweep,
			int runw, const char *run, const char *change,
			const char *p, const char *verdict, const char *why)
{
	fprintf(f, "%-15s %-*s ", label, w, sweep);
	if ((int)strlen(run) > runw)
		fprintf(f, "%s\n%*s", run, 15 + 1 + w + 1 + runw + 1, "");
	else
		fprintf(f, "%-*s ", runw, run);
	fprintf(f, "%-22s p=%-7s %s\n", change, p, verdict);
	if (why && !strcmp(verdict, verdict_names[V_INCONCLUSIVE])) {
		char *t = xmalloc(strlen(why) + 3);

		sprintf(t, "(%s)", why);
		text_wrap(f, "    ", "     ", t, TEXT_COLUMNS);
		free(t);
	}
}

static void text_ratio(FILE *f, const struct comparison *c,
		       const struct cmp_job *j, int w)
{
	text_row_head(f, "Gmean", w, "ratio");
	for (size_t k = 0; k < c->nruns; k++) {
		fprintf(f, "%*s", k ? CELL - 12 : 0, "");
		if (isnan(j->gmean_ratio[k]))
			fprintf(f, "%12s", "n/a");
		else
			fprintf(f, "%12.4f", j->gmean_ratio[k]);
	}
	fputc('\n', f);
}

static const struct table_style text_style = {
	.row_head = text_row_head, .cell = text_cell, .change = text_change,
	.ratio = text_ratio,
};

/*
 * The piece of a run's name on each header line: as it is when it
 * fits the column (CELL - 1), else over as many lines as it needs,
 * broken after the last '/', '-', '_', '.' or ':' in the second half
 * of a line, else at the column - never cut. Returns the lines, their
 * starts and lengths in at[] and len[] (room for strlen(name) + 1).
 */
static size_t name_pieces(const char *name, const char **at, int *len)
{
	const int col = CELL - 1;
	size_t n = 0;

	do {
		int l = (int)strlen(name);

		if (l > col) {
			l = col;
			for (int i = col - 1; i >= col / 2; i--)
				if (strchr("/-_.:", name[i])) {
					l = i + 1;
					break;
				}
		}
		at[n] = name;
		len[n++] = l;
		name += l;
	} while (*name);
	return n;
}

/* The runs' names over their columns, bottom-aligned as mmtests does. */
static void text_header(FILE *f, const struct comparison *c, int w)
{
	const char ***at = xcalloc(c->nruns, sizeof(*at));
	int **len = xcalloc(c->nruns, sizeof(*len));
	size_t *n = xcalloc(c->nruns, sizeof(*n)), lines = 1;

	for (size_t k = 0; k < c->nruns; k++) {
		size_t room = strlen(c->runs[k].name) + 1;

		at[k] = xcalloc(room, sizeof(**at));
		len[k] = xcalloc(room, sizeof(**len));
		n[k] = name_pieces(c->runs[k].name, at[k], len[k]);
		if (n[k] > lines)
			lines = n[k];
	}
	for (size_t l = 0; l < lines; l++) {
		int pad = 10 + w;	/* blanks not yet printed: none at the end */

		for (size_t k = 0; k < c->nruns; k++) {
			size_t skip = lines - n[k];

			if (l < skip) {
				pad += CELL;
				continue;
			}
			fprintf(f, "%*s%*.*s", pad, "", CELL, len[k][l - skip],
				at[k][l - skip]);
			pad = 0;
		}
		fputc('\n', f);
	}
	for (size_t k = 0; k < c->nruns; k++) {
		free(at[k]);
		free(len[k]);
	}
	free(at);
	free(len);
	free(n);
}

static void text_job(FILE *f, const struct comparison *c,
		     const struct cmp_job *j)
{
	int w = sweep_width(j);

	cmp_job_title(f, j, "");
	text_header(f, c, w);
	cmp_summary_rows(f, c, j, w, &text_style);
	cmp_change_rows(f, c, j, w, &text_style);
	text_explain(f, c, j);
	fputc('\n', f);
}

void render_verdict_line(FILE *f, const struct comparison *c)
{
	size_t shown = 0;
	char *line;

	if (c->verdict_text) {
		fprintf(f, "%s\n", c->verdict_text);
		return;
	}
	fprintf(f, "verdict: %s", verdict_names[c->overall]);
	if (c->overall == V_NO_CHANGE)
		fprintf(f, " (nothing changed beyond %g%% by %s)",
			c->opts.threshold, cmp_test_name(c));
	fputc('\n', f);
	if (c->overall == V_NO_CHANGE)
		return;
	for (size_t jn = 0; jn < c->njobs; jn++) {
		const struct cmp_job *j = &c->jobs[jn];

		if (!j->metric.headline)
			continue;	/* the verdict is the headline's */
		for (size_t i = 0; i < j->ncases; i++)
			for (size_t k = 1; k < c->nruns; k++) {
				const struct cmp_result *r = &j->cases[i].cell[k].r;
				char ch[64];

				if (r->verdict != c->overall || shown++ >= 5)
					continue;
				change_text(ch, sizeof(ch), &j->cases[i].cell[k]);
				line = xasprintf("%s%s%s in %s: %s %s: %s", j->job,
						 *j->cases[i].sweep ? " " : "",
						 j->cases[i].sweep, c->runs[k].name,
						 j->metric.name, ch, r->why);
				text_wrap(f, "  ", "    ", line, TEXT_COLUMNS);
				free(line);
			}
	}
	if (shown > 5)
		fprintf(f, "  and %zu more\n", shown - 5);
}

static void text_duration(FILE *f, const struct comparison *c)
{
	static const char *const what[] = { "User", "System", "Elapsed" };

	for (int d = 0; d < 3; d++) {
		fprintf(f, "Duration %-8s", what[d]);
		for (size_t k = 0; k < c->nruns; k++) {
			const struct cmp_run *r = &c->runs[k];

			fprintf(f, "%*.2f", k ? CELL : CELL - 3,
				d == 0 ? r->user_s : d == 1 ? r->sys_s : r->elapsed_s);
		}
		fputc('\n', f);
	}
}

/* --brief: a note within the line, cut with "..." past the columns. */
#define BRIEF_NOTE (TEXT_COLUMNS - 3)

void cmp_notes(FILE *f, const struct comparison *c, const char *bullet)
{
	if (!c->nnotes)
		return;
	/* brief: the last table's blank line is there, no Duration block */
	fprintf(f, c->brief ? "Notes:\n" : "\nNotes:\n");
	for (size_t i = 0; i < c->nnotes; i++) {
		int room = BRIEF_NOTE - (int)strlen(bullet);

		if (c->brief && (int)strlen(c->notes[i]) > room)
			fprintf(f, "%s%.*s...\n", bullet, room - 3, c->notes[i]);
		else if (*bullet == '-')	/* markdown: one line a note */
			fprintf(f, "%s%s\n", bullet, c->notes[i]);
		else
			text_wrap(f, bullet, "    ", c->notes[i], TEXT_COLUMNS);
	}
}

static size_t widest_line(const char *text)
{
	size_t w = 0;

	for (const char *p = text; *p;) {
		const char *end = strchrnul(p, '\n');

		if ((size_t)(end - p) > w)
			w = (size_t)(end - p);
		p = *end ? end + 1 : end;
	}
	return w;
}

const char *cmp_test_name(const struct comparison *c)
{
	return c->runs_used ? "runs-t" : stat_test_names[c->opts.test];
}

/* The tables and the Duration block: what the 80 columns are about. */
static void text_tables(FILE *f, const struct comparison *c)
{
	fprintf(f, "%s test, %g%% intervals, threshold %g%%; + is better, "
		"* significant\n\n", cmp_test_name(c),
		100 * (1 - c->opts.alpha), c->opts.threshold);
	for (size_t j = 0; j < c->njobs; j++)
		text_job(f, c, &c->jobs[j]);
	if (!c->brief)
		text_duration(f, c);
}

/*
 * The text, and - when a table's line is wider than an email's 80
 * columns - a line saying so and how to narrow it, before the verdict.
 * Notes are prose, not measured (--brief cuts them to the width).
 */
void render_compare_text(FILE *f, const struct comparison *c)
{
	char *buf = NULL;
	size_t len = 0, w;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		abort();
	text_tables(m, c);
	fclose(m);
	fputs(buf, f);
	w = widest_line(buf);
	free(buf);
	cmp_notes(f, c, "  ");
	if (w > TEXT_COLUMNS)
		fprintf(f, "\n(lines up to %zu columns: for %d, %s, or --format markdown)\n",
			w, TEXT_COLUMNS, c->nruns > 2 ?
			"compare one candidate at a time" : !c->brief ?
			"use --brief" : "shorten the sweep values");
	fputc('\n', f);
	render_verdict_line(f, c);
}
