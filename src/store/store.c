// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/store.c: what of the store interface (store.h) needs no
 * backend: the default path, whether a file is missing, a URL without
 * its password, the command line as stored, freeing what the readers
 * return. The backends and the table of schemes that picks one are
 * backend.c's.
 */
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"
#include "util.h"

bool store_missing(const char *db)
{
	return store_scheme(db)->file && access(db, F_OK);
}

/*
 * "scheme://user:secret@host/db?password=x&sslmode=y" ->
 * "scheme://user@host/db?sslmode=y".
 */
char *store_url_redact(const char *db)
{
	char *out = xstrdup(db), *auth, *at, *slash, *q, *p;

	/* a file has no password; nor has a name without an authority */
	auth = strstr(out, "://");
	if (store_scheme(db)->file || !auth)
		return out;
	auth += 3;
	slash = auth + strcspn(auth, "/?");
	at = memchr(auth, '@', slash - auth);
	if (at) {
		/* the last '@' before the host: a user name may hold one */
		char *a;

		while ((a = memchr(at + 1, '@', slash - at - 1)))
			at = a;
		p = memchr(auth, ':', at - auth);
		if (p)
			memmove(p, at, strlen(at) + 1);
	}
	q = strchr(out, '?');
	if (!q)
		return out;
	p = q + 1;
	while (*p) {
		size_t len = strcspn(p, "&");

		if (!strncmp(p, "password=", 9)) {
			memmove(p, p + len + (p[len] == '&'),
				strlen(p + len + (p[len] == '&')) + 1);
			continue;
		}
		p += len + (p[len] == '&');
	}
	p = out + strlen(out);
	while (p > q + 1 && p[-1] == '&')
		*--p = '\0';
	if (p == q + 1)
		*q = '\0';
	return out;
}

char *store_command_line(char *const *argv)
{
	size_t n = 0;
	char **v, *words, *out;

	while (argv[n])
		n++;
	v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(argv[i], '=');

		if (!store_scheme(argv[i])->file) {
			v[i] = store_url_redact(argv[i]);
		} else if (eq && !store_scheme(eq + 1)->file) {
			char *r = store_url_redact(eq + 1);

			v[i] = xmalloc((eq + 1 - argv[i]) + strlen(r) + 1);
			sprintf(v[i], "%.*s%s", (int)(eq + 1 - argv[i]), argv[i], r);
			free(r);
		} else {
			v[i] = xstrdup(argv[i]);
		}
	}
	words = argv_join(v, true);
	out = xmalloc(strlen(words) + sizeof("schedlab "));
	sprintf(out, "schedlab %s", words);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	free(words);
	return out;
}

int store_default_path(char *buf, size_t len)
{
	const char *db = getenv("SCHEDLAB_DB"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n;

	if (db && *db) {
		n = snprintf(buf, len, "%s", db);
	} else if (xdg && *xdg == '/') {	/* relative ones are invalid */
		n = snprintf(buf, len, "%s/schedlab/results.db", xdg);
	} else {
		if (!home || !*home) {
			struct passwd *pw = getpwuid(getuid());

			home = pw ? pw->pw_dir : NULL;
		}
		if (!home)
			return error("no home directory for the database; set SCHEDLAB_DB");
		n = snprintf(buf, len, "%s/.local/share/schedlab/results.db",
			     home);
	}
	if (n < 0 || (size_t)n >= len)
		return error("database path too long");
	return 0;
}

void store_runs_free(struct store_run_info *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(runs[i].uuid);
		free(runs[i].status);
		free(runs[i].label);
		free(runs[i].host);
		free(runs[i].commit);
		free(runs[i].ab);
		free(runs[i].variant);
	}
	free(runs);
}

void store_ab_runs_free(struct store_ab_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(runs[i].variant);
		free(runs[i].label);
	}
	free(runs);
}
