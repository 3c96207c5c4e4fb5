// SPDX-License-Identifier: GPL-2.0-only
/*
 * history_detect.c: the change-point detector (stats/changepoint.h) over
 * each series of the history model (history/history.h), the runs
 * before and after each change, and by commit the lines that bisect it:
 * `git bisect start BAD GOOD` and `git bisect run schedlab judge ...`.
 */
#include <stdio.h>
#include <stdlib.h>

#include "history/history.h"
#include "util.h"

/* The line that bisects between the two runs of p: git bisect run judge. */
static char *judge_line(const struct history_point *p, const char *db)
{
	char good[24], bad[24], *spec = history_judge_spec(p->bad->c), *words, *line;
	char *argv[10] = { "schedlab", "judge", "--good", good, "--bad", bad };
	size_t n = 6;

	snprintf(good, sizeof(good), "%lld", (long long)p->good->c->run_id);
	snprintf(bad, sizeof(bad), "%lld", (long long)p->bad->c->run_id);
	if (db) {
		argv[n++] = "--db";
		argv[n++] = (char *)db;
	}
	argv[n++] = spec ? spec : "JOBFILE";
	words = argv_join(argv, true);
	line = xasprintf("git bisect run %s", words);
	free(words);
	free(spec);
	return line;
}

int history_detect(struct history *h, const char *judge_db)
{
	size_t ran = 0, most = 0;

	for (size_t k = 0; k < h->nseries; k++) {
		struct history_series *s = &h->series[k];
		double *x = xcalloc(s->n + 1, sizeof(*x));
		struct cp_point *pts;
		size_t np;
		const char *why;

		for (size_t i = 0; i < s->n; i++)
			x[i] = s->runs[i].median;
		if (s->n > most)
			most = s->n;
		why = cp_why(x, s->n, &h->cp);
		if (why || changepoints(x, s->n, &h->cp, &pts, &np)) {
			s->why = xstrdup(why ? why : "the detector refused the series");
			free(x);
			continue;
		}
		free(x);
		ran++;
		s->points = xcalloc(np + 1, sizeof(*s->points));
		for (size_t i = 0; i < np; i++) {
			struct history_point *p = &s->points[i];

			p->cp = pts[i];
			p->good = &s->runs[pts[i].index - 1];
			p->bad = &s->runs[pts[i].index];
			if (h->by != BY_COMMIT)
				continue;
			p->bisect = xasprintf("git bisect start %s %s",
						  p->bad->commit, p->good->commit);
			p->judge = judge_line(p, judge_db);
		}
		s->npoints = np;
		free(pts);
	}
	if (ran)
		return 0;
	if (most >= 4)
		return error("history: too few runs for the detector: job '%s' has %zu run%s%s, "
			     "and it needs at least %u (2 x --min-size %u); --min-size %zu "
			     "looks at these, with less power", h->job, most,
			     most == 1 ? "" : "s", h->nseries > 1 ? " in its longest case" : "",
			     2 * h->min_size, h->min_size, most / 2);
	return error("history: too few runs for the detector: job '%s' has %zu run%s%s, "
		     "and it needs at least %u (2 x --min-size %u; 4 at the least, with --min-size 2)",
		     h->job, most,
		     most == 1 ? "" : "s", h->nseries > 1 ? " in its longest case" : "",
		     2 * h->min_size, h->min_size);
}

void history_free(struct history *h)
{
	for (size_t k = 0; k < h->nseries; k++) {
		struct history_series *s = &h->series[k];

		for (size_t i = 0; i < s->npoints; i++) {
			free(s->points[i].bisect);
			free(s->points[i].judge);
		}
		free(s->points);
		for (size_t i = 0; i < s->n; i++)
			free(s->runs[i].settings);
		for (size_t i = 0; i < s->nsettings; i++)
			free(s->settings[i].runs);
		free(s->settings);
		free(s->runs);
		free(s->name);
		free(s->why);
	}
	free(h->series);
	free(h->left);
}
