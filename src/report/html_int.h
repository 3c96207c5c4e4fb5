/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * html_int: what the files of the report page share (not for use outside
 * report/): the page being written and its plots' ids; html.c writes the
 * page, html_plots.c queues its plots, html_table.c writes a job's
 * tables.
 */
#ifndef SCHEDLAB_REPORT_HTML_INT_H
#define SCHEDLAB_REPORT_HTML_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/html.h"

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

/*
 * Whether job j is one case without a sweep: its plot has a box per run,
 * each named on the x axis, not one "-" tick of an axis called "case".
 */
bool html_by_run(const struct cmp_job *j);
/* Run k's colour, as a square. */
void html_swatch(FILE *f, size_t k);

/* html_plots.c: every plot of the page queued into p->pb, ids in p->jp. */
void html_queue_plots(struct page *p);

/* html_table.c: a job's tables and the runs' CPU time. */
void html_mm_table(FILE *f, const struct comparison *c,
		   const struct cmp_job *j);
void html_change_table(FILE *f, const struct comparison *c,
		       const struct cmp_job *j);
void html_expl_table(FILE *f, const struct comparison *c,
		     const struct cmp_job *j);
void html_duration_table(FILE *f, const struct comparison *c);

#endif
