// SPDX-License-Identifier: GPL-2.0-only
/*
 * html_env: the report page's environments side by side (html.h) -
 * each run's sysenv object (probe/sysenv.h) flattened to its leaves,
 * "machine.hostname" = "vm", a column per run, the rows whose values
 * differ from the baseline's (or exist in some runs only) highlighted.
 */
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "report/html.h"
#include "report/render.h"
#include "util.h"

/* A value as render_env_value() writes it, malloc'd: never JSON. */
static char *env_text(const json_t *v)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		abort();
	render_env_value(f, v);
	fclose(f);
	return s;
}

struct env_item {
	char *key;
	char **val;		/* [nruns] */
};

struct env_list {
	struct env_item *it;
	size_t n, nruns;
};

static void env_put(struct env_list *l, const char *key, size_t k, char *val)
{
	size_t i;

	for (i = 0; i < l->n && strcmp(l->it[i].key, key); i++)
		;
	if (i == l->n) {
		l->it = xrealloc(l->it, (l->n + 1) * sizeof(*l->it));
		l->it[i].key = xstrdup(key);
		l->it[i].val = xcalloc(l->nruns, sizeof(char *));
		l->n++;
	}
	free(l->it[i].val[k]);
	l->it[i].val[k] = val;
}

/* The sysenv object's leaves ({"available": ..}) as "a.b" = text. */
static void env_walk(struct env_list *l, const json_t *o, const char *pre,
		     size_t k)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)o, key, v) {
		char *path;

		if (asprintf(&path, "%s%s%s", pre, *pre ? "." : "", key) < 0)
			abort();
		if (json_is_object(v) && json_object_get(v, "available")) {
			json_t *val = json_object_get(v, "value");

			if (!json_is_true(json_object_get(v, "available"))) {
				const char *why = json_string_value(json_object_get(v, "reason"));
				char *s;

				if (asprintf(&s, "not available%s%s", why ? ": " : "",
					     why ? why : "") < 0)
					abort();
				env_put(l, path, k, s);
			} else if (json_is_string(val)) {
				env_put(l, path, k, xstrdup(json_string_value(val)));
			} else {
				env_put(l, path, k, env_text(val));
			}
		} else if (json_is_object(v)) {
			env_walk(l, v, path, k);
		} else if (json_is_string(v)) {
			env_put(l, path, k, xstrdup(json_string_value(v)));
		} else {
			env_put(l, path, k, env_text(v));
		}
		free(path);
	}
}

void html_environments(FILE *f, const struct comparison *c,
		       const struct run *const *runs)
{
	struct env_list l = { .nruns = c->nruns };
	size_t ndiff = 0;

	for (size_t k = 0; k < c->nruns; k++)
		if (runs[k]->environment)
			env_walk(&l, runs[k]->environment, "", k);
	for (size_t i = 0; i < l.n; i++)
		for (size_t k = 1; k < c->nruns; k++) {
			const char *a = l.it[i].val[0], *b = l.it[i].val[k];

			if ((!a) != (!b) || (a && strcmp(a, b))) {
				ndiff++;
				break;
			}
		}
	fprintf(f, "<h2>Environments</h2>\n<p>%zu of %zu items differ%s.</p>\n", ndiff, l.n,
		ndiff ? " (highlighted)" : "");
	fprintf(f, "<table class=\"env\"><tr><th class=\"l\">item</th>");
	for (size_t k = 0; k < c->nruns; k++)
		html_run_head(f, c, k);
	fprintf(f, "</tr>\n");
	for (size_t i = 0; i < l.n; i++) {
		bool diff = false;

		for (size_t k = 1; k < c->nruns; k++) {
			const char *a = l.it[i].val[0], *b = l.it[i].val[k];

			diff |= (!a) != (!b) || (a && strcmp(a, b));
		}
		fprintf(f, "<tr%s><td class=\"l\">", diff ? " class=\"diff\"" : "");
		html_esc(f, l.it[i].key);
		fprintf(f, "</td>");
		for (size_t k = 0; k < c->nruns; k++) {
			fprintf(f, "<td class=\"l\">");
			html_esc(f, l.it[i].val[k] ? l.it[i].val[k] : "-");
			fprintf(f, "</td>");
			free(l.it[i].val[k]);
		}
		fprintf(f, "</tr>\n");
		free(l.it[i].key);
		free(l.it[i].val);
	}
	free(l.it);
	fprintf(f, "</table>\n");
}
