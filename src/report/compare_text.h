/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_text: what the text (compare_text.c) and the markdown
 * (compare_markdown.c) renderers of a comparison share - the same walk
 * of its rows, each in its own style. Not for use outside report/.
 */
#ifndef SCHEDLAB_REPORT_COMPARE_TEXT_H
#define SCHEDLAB_REPORT_COMPARE_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/render_compare.h"

/*
 * What the text and the markdown tables do differently: the start of a
 * summary row, a cell, a candidate's change row. summary_rows() and
 * change_rows() walk the comparison once for both.
 */
struct table_style {
	void (*row_head)(FILE *f, const char *label, int w, const char *sweep);
	void (*cell)(FILE *f, const struct cmp_cell *c, int row, bool mark,
		     int dec);
	void (*change)(FILE *f, const char *label, int w, const char *sweep,
		       int runw, const char *run, const char *change, const char *p,
		       const char *verdict, const char *why);
	/* the Gmean ratio row (--ratio) */
	void (*ratio)(FILE *f, const struct comparison *c,
		      const struct cmp_job *j, int w);
};

/* mmtests' rows, each for every sweep value; a row per line. */
void cmp_summary_rows(FILE *f, const struct comparison *c,
		      const struct cmp_job *j, int w,
		      const struct table_style *t);
/* Each candidate's change, interval, p and verdict, by sweep value. */
void cmp_change_rows(FILE *f, const struct comparison *c,
		     const struct cmp_job *j, int w,
		     const struct table_style *t);
/* "Change (median)" or "Change (Amean)": what the change is of. */
const char *cmp_change_label(const struct comparison *c);
/* A job's title line, after pre ("### " in markdown). */
void cmp_job_title(FILE *f, const struct cmp_job *j, const char *pre);
/* The notes, each after bullet ("- " in markdown); --brief cuts them. */
void cmp_notes(FILE *f, const struct comparison *c, const char *bullet);

#endif
