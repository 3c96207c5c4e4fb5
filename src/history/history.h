/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history: the model `schedlab history` builds - one job's runs, per
 * case of the job a series in the order asked for (time, commit,
 * kernel), each run's summary, and the change points the detector
 * (stats/changepoint.h) found in the runs' medians - and the engine
 * that builds it from the store's answer (store_series()):
 * history_series.c groups the cases into series and summarises each
 * run, history_order.c orders them (git for --by commit),
 * history_detect.c finds the change points and the lines that bisect
 * them. Its renderers are report/render_history.h's; cmd/history.c parses the
 * options and calls these in turn.
 */
#ifndef SCHEDLAB_HISTORY_H
#define SCHEDLAB_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

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

/* The cases of ss into h, one series per case identity, in first-seen order. */
void history_group(const struct store_series *ss, struct history *h);

/*
 * Each run of h's series summarised (median, quartiles, min, max), and
 * the settings its runs differ in, which runs have which.
 */
void history_summarise(struct history *h);

/*
 * The order of h's series: by start time as the store gives them, by
 * the kernel release in version order (strverscmp), or by the label as
 * a commit of a git repository in `git rev-list --topo-order --reverse
 * HEAD` order (git run without a shell). Runs that have no place in the
 * order are left out and named once.
 */
/* What the order owns: the repository's commits, which runs point into. */
struct history_order {
	char *text;		/* git's output */
	char **commits;		/* in rev-list order */
	size_t n;
	size_t *sorted;		/* indexes of commits[], by hash */
};

/*
 * Orders h's series by h->by (repo: --by commit's repository, NULL: the
 * current directory). -1 after error() when git fails or no run is left.
 */
int history_order(struct history *h, const char *repo, struct history_order *ord);
void history_order_free(struct history_order *ord);

/*
 * The SUITE or JOBFILE argument of the `schedlab run` that stored c's
 * run, from its command line ("quick" when it had none); NULL when the
 * run was not stored by run. Malloc'd.
 */
char *history_judge_spec(const struct store_series_case *c);

/*
 * The detector over each series of h (summarised, ordered): its change
 * points, and by commit the git bisect and schedlab judge lines for each
 * (judge_db: the --db the judge line names, NULL none). -1 after error()
 * when no series could be looked at (too few runs: the --min-size that
 * would).
 */
int history_detect(struct history *h, const char *judge_db);
/* What the model owns, freed (the store's series it borrows are not). */
void history_free(struct history *h);

#endif
