// SPDX-License-Identifier: GPL-2.0-only
/*
 * export_file: an export document as a file - read whole within a size
 * limit (export_limit(), --max-size), written (export_dump()), and a
 * document from before identities upgraded in place (export_upgrade()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/identity.h"
#include "store/export.h"
#include "store/store.h"
#include "util.h"
#include "workload/registry.h"

/*
 * A case written before identities, member for member in the order
 * doc/export.md gives: version after workload, params as the identity,
 * settings after parameters.
 */
static json_t *upgrade_case(json_t *c)
{
	const char *wl = json_string_value(json_object_get(c, "workload"));
	json_t *up = json_object(), *v;
	const char *key;

	json_object_foreach(c, key, v) {
		if (!strcmp(key, "params") && json_is_string(v)) {
			char *id = identity_upgrade(wl, json_string_value(v));

			json_object_set_new(up, key, json_string(id));
			free(id);
			continue;
		}
		json_object_set(up, key, v);
		if (!strcmp(key, "workload"))
			json_object_set_new(up, "version", json_integer(1));
		else if (!strcmp(key, "parameters") &&
			 !json_object_get(c, "settings"))
			json_object_set_new(up, "settings", json_object());
	}
	return up;
}

void export_upgrade(json_t *doc)
{
	json_t *cases = json_object_get(doc, "cases"), *c;
	size_t i;

	json_array_foreach(cases, i, c)
		if (!json_object_get(c, "version"))
			json_array_set_new(cases, i, upgrade_case(c));
}

int export_dump(json_t *doc, FILE *f)
{
	errno = 0;
	if (json_dumpf(doc, f, EXPORT_DUMP_FLAGS) || fputc('\n', f) == EOF ||
	    fflush(f) || ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

static int parse_size(const char *s, unsigned long long *out)
{
	static const char units[] = "KMGT";
	unsigned long long v = 0;
	const char *p = s, *u;
	int shift = 0;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (1ull << 40))
			return -1;
		v = v * 10 + (unsigned long long)(*p - '0');
	}
	if (*p && (u = strchr(units, *p)) != NULL) {
		shift = 10 * (int)(u - units + 1);
		p++;
		if (!strcmp(p, "iB") || !strcmp(p, "B"))
			p += strlen(p);
	}
	if (*p || !v || v > (1ull << 40) >> shift)
		return -1;
	*out = v << shift;
	return 0;
}

int export_limit(const char *opt, struct export_limit *lim)
{
	const char *env = getenv("SCHEDLAB_IMPORT_MAX");

	lim->bytes = EXPORT_MAX_DEFAULT;
	lim->from = "the default";
	if (opt) {
		lim->from = "--max-size";
	} else if (env && *env) {
		lim->from = "SCHEDLAB_IMPORT_MAX";
		opt = env;
	} else {
		return 0;
	}
	if (parse_size(opt, &lim->bytes))
		return error("%s: '%s' is not a size from 1 byte to 1T (as 256M, 4096, 1G)",
			     lim->from, opt);
	return 0;
}

/* A jansson reader that stops one byte past the limit. */
struct capped {
	FILE *f;
	unsigned long long n, max;
	bool over;
};

static size_t capped_read(void *buf, size_t len, void *arg)
{
	struct capped *c = arg;
	size_t got;

	if (len > c->max + 1 - c->n)
		len = (size_t)(c->max + 1 - c->n);
	got = fread(buf, 1, len, c->f);
	c->n += got;
	if (c->n > c->max) {
		c->over = true;
		return (size_t)-1;
	}
	return got;
}

json_t *export_load(const char *path)
{
	struct export_limit lim;

	if (export_limit(NULL, &lim))
		return NULL;
	return export_load_limited(path, &lim);
}

json_t *export_load_limited(const char *path, const struct export_limit *lim)
{
	bool from_stdin = !strcmp(path, "-");
	const char *name = from_stdin ? "stdin" : path;
	FILE *f = from_stdin ? stdin : fopen(path, "r");
	struct capped cap = { .f = f, .max = lim->bytes };
	json_error_t err;
	json_t *doc;
	struct stat st;
	int read_errno = 0;

	if (!f) {
		error_errno("%s: cannot open", path);
		return NULL;
	}
	/* a file known to be too large is not read at all */
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) &&
	    (unsigned long long)st.st_size > lim->bytes) {
		error("%s: %lld bytes, above the import limit of %llu bytes (%s)",
		      name, (long long)st.st_size, lim->bytes, lim->from);
		if (!from_stdin)
			fclose(f);
		return NULL;
	}
	errno = 0;
	doc = json_load_callback(capped_read, &cap, JSON_REJECT_DUPLICATES, &err);
	if (ferror(f))
		read_errno = errno ? errno : EIO;
	if (!from_stdin)
		fclose(f);
	if (cap.over) {
		json_decref(doc);
		error("%s: more than %llu bytes, above the import limit of %llu bytes (%s)",
		      name, lim->bytes, lim->bytes, lim->from);
		return NULL;
	}
	if (read_errno) {
		json_decref(doc);
		errno = read_errno;
		error_errno("%s: cannot read", name);
		return NULL;
	}
	if (!doc) {
		if (err.line > 0)
			error("%s:%d:%d: %s", name, err.line, err.column,
			      err.text);
		else
			error("%s: %s", name, err.text);
		return NULL;
	}
	if (export_validate(doc, name)) {
		json_decref(doc);
		return NULL;
	}
	export_upgrade(doc);
	return doc;
}
