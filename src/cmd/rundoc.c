// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/rundoc.h"
#include "store/store.h"
#include "util.h"

int rundoc_db_path(const char *db, char *buf, size_t len)
{
	if (db) {
		snprintf(buf, len, "%s", db);
		return 0;
	}
	return store_default_path(buf, len);
}

json_t *rundoc_load(const char *spec, const char *dbopt)
{
	struct store *st;
	char db[4096];
	int64_t id;
	json_t *doc = NULL;
	struct stat sb;

	if (!strcmp(spec, "-") || (stat(spec, &sb) == 0 && S_ISREG(sb.st_mode))) {
		doc = export_load(spec);
		if (doc && export_validate(doc, spec)) {
			json_decref(doc);
			doc = NULL;
		}
		return doc;
	}
	if (rundoc_db_path(dbopt, db, sizeof(db)))
		return NULL;
	if (access(db, F_OK)) {
		error("no run '%s': no database at %s (see 'schedlab run')", spec, db);
		return NULL;
	}
	st = store_open(db);
	if (!st)
		return NULL;
	if (!store_resolve(st, spec, &id))
		doc = store_export(st, id);
	store_close(st);
	return doc;
}

const char *rundoc_headline(const json_t *metrics, const char *workload)
{
	const char *name;
	json_t *m;
	size_t wl = strlen(workload);

	json_object_foreach((json_t *)metrics, name, m)
		if (!strncmp(name, workload, wl) && name[wl] == '.' &&
		    json_is_true(json_object_get(m, "headline")))
			return name;
	return NULL;
}

enum better rundoc_better(const char *s)
{
	int b = better_parse(s);

	return b < 0 ? BETTER_NONE : (enum better)b;
}

size_t rundoc_samples(const json_t *c, const char *metric, double **x)
{
	const json_t *arr = json_object_get(json_object_get(c, "samples"), metric);
	size_t n = 0, i;
	json_t *v;

	*x = xcalloc(json_array_size(arr) + 1, sizeof(double));
	json_array_foreach((json_t *)arr, i, v)
		if (json_is_number(v) && isfinite(json_number_value(v)))
			(*x)[n++] = json_number_value(v);
	return n;
}

const char *rundoc_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}
