// SPDX-License-Identifier: GPL-2.0-only
/*
 * identity: a case's params (the options that differ from their
 * defaults, in the order of their names), the upgrade of the full
 * parameter strings that runs stored before held. See identity.h (a
 * case's run settings are identity_settings.c's).
 */
#include <stdlib.h>
#include <string.h>

#include "harness/identity.h"
#include "util.h"
#include "workload/registry.h"

#define VALUE_MAX 4096

unsigned identity_version(const struct workload *wl)
{
	return wl->version ? wl->version : 1;
}

/* "name=value" words, to be sorted by name and joined. */
struct words {
	char **w;
	size_t n;
};

static void words_push(struct words *ws, char *w)
{
	ws->w = realloc(ws->w, (ws->n + 1) * sizeof(*ws->w));
	if (!ws->w)
		abort();
	ws->w[ws->n++] = w;
}

static void words_add(struct words *ws, const char *name, const char *value)
{
	char *w = xmalloc(strlen(name) + strlen(value) + 2);

	sprintf(w, "%s=%s", name, value);
	words_push(ws, w);
}

/* By name: "db" before "db-size", which strcmp on "db=..." would not do. */
static int cmp_word(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t lx = strcspn(x, "="), ly = strcspn(y, "=");
	int c = strncmp(x, y, lx < ly ? lx : ly);

	if (c || lx == ly)
		return c ? c : strcmp(x + lx, y + ly);
	return lx < ly ? -1 : 1;
}

/* The words sorted and joined by spaces; frees them. */
static char *words_join(struct words *ws)
{
	size_t len = 1, n = 0;
	char *s;

	if (ws->n)
		qsort(ws->w, ws->n, sizeof(*ws->w), cmp_word);
	for (size_t i = 0; i < ws->n; i++)
		len += strlen(ws->w[i]) + 1;
	s = xmalloc(len);
	s[0] = '\0';
	for (size_t i = 0; i < ws->n; i++) {
		n += (size_t)snprintf(s + n, len - n, "%s%s", i ? " " : "",
				      ws->w[i]);
		free(ws->w[i]);
	}
	free(ws->w);
	return s;
}

/* A config of wl with every option at its default; free() it. */
static void *default_cfg(const struct workload *wl)
{
	void *cfg = xcalloc(1, wl->cfg_size ? wl->cfg_size : 1);

	opts_defaults(wl->options, cfg);
	return cfg;
}

/* The options of cfg that differ from def, as words. */
static void differing(const struct workload *wl, const void *cfg,
		      const void *def, struct words *ws)
{
	char v[VALUE_MAX], d[VALUE_MAX];

	for (const struct opt_def *o = wl->options; o->name; o++) {
		if (o->set)
			continue;
		opt_format(o, cfg, v, sizeof(v));
		opt_format(o, def, d, sizeof(d));
		if (strcmp(v, d))
			words_add(ws, o->name, v);
	}
}

char *identity_params(const struct workload *wl, const void *cfg)
{
	struct words ws = { 0 };
	void *def = default_cfg(wl);

	differing(wl, cfg, def, &ws);
	free(def);
	return words_join(&ws);
}

/*
 * The next word of *p: "name=value", where a value may hold spaces
 * (a command's argv): text up to the next blank-separated token with an
 * '=' belongs to it. Cuts the text in place; NULL at the end.
 */
static char *next_word(char **p)
{
	char *s = *p, *end;

	s += strspn(s, " ");
	if (!*s)
		return NULL;
	end = s + strcspn(s, " ");
	while (*end) {
		char *t = end + strspn(end, " ");
		size_t tl = strcspn(t, " ");

		if (!*t || memchr(t, '=', tl))
			break;
		end = t + tl;
	}
	*p = end + !!*end;
	*end = '\0';
	return s;
}

char *identity_upgrade(const char *workload, const char *old)
{
	const struct workload *wl;
	struct words ws = { 0 };
	char *text, *p, *w, d[VALUE_MAX];
	void *cfg, *def;

	if (!old)
		return NULL;
	wl = workload ? workload_find(workload) : NULL;
	if (!wl)
		return xstrdup(old);
	cfg = default_cfg(wl);
	def = default_cfg(wl);
	/* OPT_STRING values point into text: it lives as long as cfg */
	p = text = xstrdup(old);
	while ((w = next_word(&p))) {
		char *eq = strchr(w, '=');
		const struct opt_def *o = NULL;
		int bad = 1;

		if (eq) {
			*eq = '\0';
			o = opt_find(wl->options, w);
			if (o) {
				error_mute(1);
				bad = opt_set(o, cfg, eq + 1, w);
				error_mute(0);
				/* the default as written is no mistake, even
				 * one opt_set() refuses (an empty text) */
				opt_format(o, def, d, sizeof(d));
				if (bad && !strcmp(eq + 1, d))
					bad = 0;
			}
			*eq = '=';
		}
		if (bad)
			words_push(&ws, xstrdup(w));
	}
	differing(wl, cfg, def, &ws);
	free(text);
	free(cfg);
	free(def);
	return words_join(&ws);
}
