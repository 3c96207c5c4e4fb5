/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history: the model `schedlab history` builds (cmd/history.c) - one
 * job's runs, per case of the job a series in the order asked for (time,
 * commit, kernel), each run's summary, and the change points the
 * detector (stats/changepoint.h) found in the runs' medians - and its
 * renderers: text and json (report/history_text.c), html (history_html.c).
 * Renderers compute nothing: every number is here.
 */
#ifndef SCHEDLAB_REPORT_HISTORY_H
#define SCHEDLAB_REPORT_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stats/changepoint.h"
#include "store/store.h"

#define HISTORY_SCHEMA "schedlab-history/1"

enum history_by { BY_TIME, BY_COMMIT, BY_KERNEL };
extern const char *const history_by_names[];	/* "time", "commit", "kernel" */

/* One run in a series: its case and the summary of its samples. */
struct history_run {
	const struct store_series_case *c;	/* borrowed from the store's series */
	const char *commit;	/* --by commit: the full commit its label names */
	double median;		/* the value the detector sees */
	double q1, q3;		/* the interquartile range of its iterations */
	double min, max;
	char *settings;		/* its case's settings, "cpus=0 nice=5"; "" none */
};

/*
 * Runs of a series that share settings, when its runs' differ (compare
 * notes such runs too): the settings ("" none) and the runs, "1-6, 9"
 * (ids, ranges of neighbours in the series' order).
 */
struct history_setting {
	const char *settings;	/* borrowed from the first run that has them */
	char *runs;
};

/* A change point, in words a reader needs, beside the detector's. */
struct history_point {
	struct cp_point cp;
	const struct history_run *good, *bad;	/* the runs before and after */
	char *bisect;		/* "git bisect start BAD GOOD"; NULL unless --by commit */
	char *judge;		/* the schedlab judge line; NULL unless --by commit */
};

/* One case of the job: its runs in order and the change points. */
struct history_series {
	char *name;		/* "groups=4", or the params; "" when none */
	const char *params;
	unsigned version;
	struct history_run *runs;
	size_t n;
	struct history_point *points;
	size_t npoints;
	struct history_setting *settings;	/* none when the runs' agree */
	size_t nsettings;
	char *why;		/* not NULL: the detector refused the series */
};

/* A run left out of the order (not a commit of the repository, no kernel). */
struct history_left {
	int64_t run_id;
	const char *label;
};

struct history {
	const char *job;
	const char *db;		/* as messages name it */
	const struct store_series_metric *metric;
	enum history_by by;
	const char *repo;	/* --by commit: the repository */
	struct cp_options cp;	/* what the detector was given */
	unsigned min_size;	/* cp.min_size resolved */
	struct history_series *series;
	size_t nseries;
	struct history_left *left;
	size_t nleft;
	const char *left_why;	/* why they were left out */
};

/* Each is 0, or -1 when writing failed (errno set). */
int render_history_text(FILE *f, const struct history *h);
int render_history_json(FILE *f, const struct history *h);
/* The page, its plot drawn by gnuplot when there is one (report/plot.h);
 * -1 after error() when gnuplot failed (the page is written all the same). */
struct plot_batch;
int render_history_html(FILE *f, const struct history *h, struct plot_batch *pb);

/* A run's start as "2026-12-01 10:00" (UTC) into buf. */
void history_when(double t, char *buf, size_t len);

#endif
