// SPDX-License-Identifier: GPL-2.0-only
/*
 * A host's noise model of each case of a job, from the runs stored
 * (noise_model.h): one store_series() query for the metric, one for
 * the iterations' wall time, grouped by host and case, each case's runs
 * by label, and stats/noise.h's estimate.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/noise_model.h"
#include "stats/summary.h"
#include "store/store.h"
#include "util.h"

/* The wall time of an iteration, as every workload's case stores it. */
#define WALL_METRIC "process.wall_s"

void noise_glob_exact(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (; *s && o + 3 < len; s++) {
		if (strchr("*?[]\\", *s))
			buf[o++] = '\\';
		buf[o++] = *s;
	}
	buf[o] = '\0';
}

static bool streq(const char *a, const char *b)
{
	return !a == !b && (!a || !strcmp(a, b));
}

static bool excluded(const struct noise_query *q, const char *uuid)
{
	for (size_t i = 0; i < q->nexclude; i++)
		if (uuid && q->exclude[i] && !strcmp(uuid, q->exclude[i]))
			return true;
	return false;
}

static bool wanted(const struct noise_query *q, const struct store_series_case *c)
{
	if (q->params && (!streq(q->params, c->params ? c->params : "") ||
			  (q->version ? q->version : 1) != c->version))
		return false;
	if (q->sweep && strcmp(q->sweep, c->sweep ? c->sweep : ""))
		return false;
	return c->n && !excluded(q, c->uuid);
}

static bool same(const struct noise_case *nc, const struct store_series_case *c)
{
	return streq(nc->host, c->host) && nc->version == c->version &&
	       !strcmp(nc->params, c->params ? c->params : "");
}

/* The median of the iterations' wall time of the case's runs. */
static double iter_seconds(const struct store_series *wall,
			   const struct noise_case *nc)
{
	double *med = xcalloc(wall->ncases + 1, sizeof(double)), out = NAN;
	size_t n = 0;

	for (size_t i = 0; i < wall->ncases; i++)
		if (same(nc, &wall->cases[i]) &&
		    !stats_median(wall->cases[i].x, wall->cases[i].n, &med[n]))
			n++;
	if (n)
		stats_median(med, n, &out);
	free(med);
	return out;
}

/* The model of case nc from the cases of ss that are its runs. */
static void estimate(const struct noise_query *q, const struct store_series *ss,
		     struct noise_case *nc)
{
	struct noise_obs *o = xcalloc(ss->ncases + 1, sizeof(*o));
	const char **labels = xcalloc(ss->ncases + 1, sizeof(*labels));
	unsigned *count = xcalloc(ss->ncases + 1, sizeof(*count));
	size_t n = 0, nl = 0, best = 0;
	int64_t last = -1;

	for (size_t i = 0; i < ss->ncases; i++) {
		const struct store_series_case *c = &ss->cases[i];
		size_t g;

		if (!same(nc, c) || !wanted(q, c) || c->run_id == last)
			continue;
		last = c->run_id;	/* a case twice in one run: its first */
		for (g = 0; g < nl && !streq(labels[g], c->label); g++)
			;
		if (g == nl)
			labels[nl++] = c->label;
		count[g]++;
		o[n].group = (unsigned)g;
		o[n].n = c->n;
		o[n].cv = noise_robust_cv(c->x, c->n);
		o[n].t = c->started;
		if (stats_median(c->x, c->n, &o[n].median))
			continue;
		n++;
	}
	for (size_t g = 1; g < nl; g++)
		if (count[g] > count[best])
			best = g;
	nc->first_label = nl && labels[best] ? xstrdup(labels[best]) : NULL;
	nc->known = !noise_estimate(o, n, &nc->m);
	nc->obs = o;
	nc->nobs = n;
	free(labels);
	free(count);
}

int noise_models(struct store *st, const struct noise_query *q,
		 struct noise_set *out)
{
	struct store_series_query sq = { .job = q->job, .metric = q->metric,
					 .host = q->host, .since = NAN };
	struct store_series ss, wall;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	memset(&wall, 0, sizeof(wall));
	if (store_series(st, &sq, &ss)) {
		store_series_free(&ss);
		return -1;
	}
	if (!ss.metric)
		goto done;
	sq.metric = WALL_METRIC;
	if (store_series(st, &sq, &wall)) {
		rc = -1;
		goto done;
	}
	for (size_t i = 0; i < ss.ncases; i++) {
		const struct store_series_case *c = &ss.cases[i];
		struct noise_case *nc;
		bool seen = false;

		if (!wanted(q, c))
			continue;
		for (size_t k = 0; k < out->n && !seen; k++)
			seen = same(&out->cases[k], c);
		if (seen)
			continue;
		out->cases = xrealloc(out->cases, (out->n + 1) * sizeof(*out->cases));
		nc = &out->cases[out->n++];
		*nc = (struct noise_case){
			.job = xstrdup(q->job),
			.host = c->host ? xstrdup(c->host) : NULL,
			.params = xstrdup(c->params ? c->params : ""),
			.sweep = xstrdup(c->sweep ? c->sweep : ""),
			.version = c->version,
			.metric = xstrdup(ss.metric->name),
			.unit = xstrdup(ss.metric->unit ? ss.metric->unit : ""),
			.better = ss.metric->better,
		};
		estimate(q, &ss, nc);
		nc->iter_s = iter_seconds(&wall, nc);
	}
done:
	store_series_free(&ss);
	store_series_free(&wall);
	return rc;
}

int noise_model_case(struct store *st, const struct noise_query *q,
		     struct noise_model *m)
{
	struct noise_set s;
	int rc;

	if (noise_models(st, q, &s)) {
		noise_set_free(&s);
		return -1;
	}
	rc = s.n && s.cases[0].known;
	if (rc)
		*m = s.cases[0].m;
	noise_set_free(&s);
	return rc;
}

void noise_set_free(struct noise_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct noise_case *c = &s->cases[i];

		free(c->job);
		free(c->host);
		free(c->params);
		free(c->sweep);
		free(c->metric);
		free(c->unit);
		free(c->first_label);
		free(c->obs);
	}
	free(s->cases);
	memset(s, 0, sizeof(*s));
}
