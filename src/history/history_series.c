// SPDX-License-Identifier: GPL-2.0-only
/*
 * history_series.c: history's model (history/history.h) from the store's
 * series of a job: a series per case, each run
 * summarised, and the settings in which its runs differ.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history/history.h"
#include "stats/summary.h"
#include "util.h"

/* A case's name: its sweep values ("groups=4"), else its params. */
static char *case_name(const struct store_series_case *c)
{
	char *keys, *vals, *out, *p, *ks, *vs, *k, *v;
	size_t len;

	if (!c->sweep_keys || !c->sweep || !*c->sweep_keys)
		return xstrdup(c->params ? c->params : "");
	keys = xstrdup(c->sweep_keys);
	vals = xstrdup(c->sweep);
	len = strlen(keys) + strlen(vals) + 16;
	out = p = xmalloc(len);
	*p = '\0';
	k = strtok_r(keys, " ,", &ks);
	v = strtok_r(vals, " ,", &vs);
	for (; k; k = strtok_r(NULL, " ,", &ks), v = v ? strtok_r(NULL, " ,", &vs) : NULL)
		p += snprintf(p, len - (size_t)(p - out), "%s%s=%s", p == out ? "" : " ",
			      k, v ? v : "?");
	free(keys);
	free(vals);
	return out;
}

static bool same_case(const struct store_series_case *a,
		      const struct store_series_case *b)
{
	return a->version == b->version && !a->params == !b->params &&
	       (!a->params || !strcmp(a->params, b->params));
}

void history_group(const struct store_series *ss, struct history *h)
{
	for (size_t i = 0; i < ss->ncases; i++) {
		const struct store_series_case *c = &ss->cases[i];
		struct history_series *s = NULL;

		for (size_t k = 0; k < h->nseries && !s; k++)
			if (same_case(h->series[k].runs[0].c, c))
				s = &h->series[k];
		if (!s) {
			h->series = xrealloc(h->series, (h->nseries + 1) * sizeof(*h->series));
			s = &h->series[h->nseries++];
			*s = (struct history_series){
				.name = case_name(c), .params = c->params,
				.version = c->version,
				.runs = xcalloc(ss->ncases, sizeof(*s->runs)),
			};
		} else if (s->runs[s->n - 1].c->run_id == c->run_id) {
			continue;	/* a case twice in one run: its first */
		}
		s->runs[s->n++].c = c;
	}
}

/* A case's settings (JSON text) as name=value words; "" for none. */
static char *settings_words(const char *text)
{
	json_t *j = text ? json_loads(text, 0, NULL) : NULL, *v;
	size_t len = 1, n = 0;
	const char *key;
	char *out;

	json_object_foreach(j, key, v)
		len += strlen(key) + strlen(json_string_value(v) ?: "?") + 2;
	out = xmalloc(len);
	*out = '\0';
	json_object_foreach(j, key, v)
		n += (size_t)snprintf(out + n, len - n, "%s%s=%s", n ? " " : "",
				      key, json_string_value(v) ?: "?");
	json_decref(j);
	return out;
}

/*
 * Each run's settings, and when the runs of s differ in them, which runs
 * have which: compare notes settings that differ between two runs, and
 * a series whose runs changed settings half-way (cpus=0 from run 7 on)
 * would otherwise show a step with no word of why.
 */
static void settings_of(struct history_series *s)
{
	bool differ = false;

	for (size_t i = 0; i < s->n; i++) {
		s->runs[i].settings = settings_words(s->runs[i].c->settings);
		differ |= i && strcmp(s->runs[i].settings, s->runs[0].settings);
	}
	if (!differ)
		return;
	s->settings = xcalloc(s->n, sizeof(*s->settings));
	for (size_t i = 0; i < s->n; i++) {
		struct history_setting *g = NULL;
		size_t len;

		for (size_t k = 0; k < s->nsettings && !g; k++)
			if (!strcmp(s->settings[k].settings, s->runs[i].settings))
				g = &s->settings[k];
		if (!g) {
			g = &s->settings[s->nsettings++];
			g->settings = s->runs[i].settings;
			g->runs = xstrdup("");
		}
		/* a neighbour of the run before: the range grows */
		if (i && !strcmp(s->runs[i - 1].settings, s->runs[i].settings)) {
			if (i + 1 < s->n &&
			    !strcmp(s->runs[i + 1].settings, s->runs[i].settings))
				continue;	/* inside a range */
			len = strlen(g->runs);
			g->runs = xrealloc(g->runs, len + 24);
			if (i >= 2 && !strcmp(s->runs[i - 2].settings, s->runs[i].settings))
				snprintf(g->runs + len, 24, "-%lld",
					 (long long)s->runs[i].c->run_id);
			else
				snprintf(g->runs + len, 24, ", %lld",
					 (long long)s->runs[i].c->run_id);
			continue;
		}
		len = strlen(g->runs);
		g->runs = xrealloc(g->runs, len + 24);
		snprintf(g->runs + len, 24, "%s%lld", len ? ", " : "",
			 (long long)s->runs[i].c->run_id);
	}
}

static void summarise_run(struct history_run *r)
{
	const double *x = r->c->x;
	size_t n = r->c->n;

	if (stats_median(x, n, &r->median)) {
		r->median = r->q1 = r->q3 = r->min = r->max = NAN;
		return;
	}
	stats_percentile(x, n, 25, &r->q1);
	stats_percentile(x, n, 75, &r->q3);
	stats_min(x, n, &r->min);
	stats_max(x, n, &r->max);
}

void history_summarise(struct history *h)
{
	for (size_t k = 0; k < h->nseries; k++) {
		for (size_t i = 0; i < h->series[k].n; i++)
			summarise_run(&h->series[k].runs[i]);
		settings_of(&h->series[k]);
	}
}
