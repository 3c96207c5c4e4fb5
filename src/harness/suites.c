// SPDX-License-Identifier: GPL-2.0-only
/*
 * suites: what `schedlab run SPEC` loads, and `schedlab list suites`.
 *
 * A SPEC that looks like a path (it has a '/', ends in .job, or names a
 * file that exists) is a job file and always wins. Any other SPEC is a
 * suite's name: looked up first in $SCHEDLAB_JOBS, a directory of one's
 * own suites (it may also replace a shipped one), then among the suites
 * built into the binary from jobs/ (suites.h). Neither ./jobs nor an
 * installed share/ directory is searched: the binary is the one place
 * the shipped suites live, so every copy of it, run from anywhere, has
 * the suites it was built with.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/plan.h"
#include "harness/plan_int.h"
#include "harness/suites.h"
#include "util.h"

#define SUMMARY_MAX	200

static bool ends_in_job(const char *s)
{
	size_t n = strlen(s);

	return n >= 4 && !strcmp(s + n - 4, ".job");
}

static bool is_path(const char *spec)
{
	struct stat st;

	return strchr(spec, '/') || ends_in_job(spec) ||
	       (!stat(spec, &st) && !S_ISDIR(st.st_mode));
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* $SCHEDLAB_JOBS, or NULL when unset or empty. */
static const char *jobs_dir(void)
{
	const char *env = getenv("SCHEDLAB_JOBS");

	return env && *env ? env : NULL;
}

/* NAME's file in $SCHEDLAB_JOBS into path; false if there is none. */
static bool in_jobs_dir(const char *name, char *path, size_t len)
{
	const char *dir = jobs_dir();
	int n;

	if (!dir)
		return false;
	n = snprintf(path, len, "%s/%s.job", dir, name);
	return n > 0 && (size_t)n < len && is_file(path);
}

static const struct suite *builtin(const char *name)
{
	for (const struct suite *s = builtin_suites; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

int plan_load_spec(const char *spec, const char *const *sets, size_t nsets,
		   struct plan *p)
{
	struct plan_set *v = xcalloc(nsets + 1, sizeof(*v));
	int rc;

	for (size_t i = 0; i < nsets; i++)
		v[i].text = sets[i];
	rc = plan_load_sets(spec, v, nsets, p);
	free(v);
	return rc;
}

int plan_load_sets(const char *spec, const struct plan_set *sets, size_t nsets,
		   struct plan *p)
{
	const struct suite *s;
	char path[PATH_MAX];

	if (is_path(spec))
		return plan_load_file_sets(spec, sets, nsets, p);
	if (in_jobs_dir(spec, path, sizeof(path)))
		return plan_load_file_sets(path, sets, nsets, p);
	s = builtin(spec);
	if (s) {
		snprintf(path, sizeof(path), "%s.job", s->name);
		return plan_load_text_sets(path, "built in", s->text, s->len,
					   sets, nsets, p);
	}
	memset(p, 0, sizeof(*p));
	return error("no suite or job file '%s' (see 'schedlab list suites')",
		     spec);
}

/* The whole of a regular file of at most 1 MiB, NUL-terminated. */
static int read_text(const char *path, char **text, size_t *len)
{
	int fd = open_regular(path, NULL);

	if (fd < 0)
		return -1;
	*text = read_fd_all(fd, 1 << 20, len);
	if (!*text) {
		if (errno == EFBIG)
			error("%s: too large for a job file (more than %d bytes)",
			      path, 1 << 20);
		else
			error_errno("cannot read '%s'", path);
	}
	close(fd);
	return *text ? 0 : -1;
}

int plan_spec_text(const char *spec, char **text, size_t *len, char *where,
		   size_t wlen)
{
	const struct suite *s;
	char path[PATH_MAX];

	if (is_path(spec) || in_jobs_dir(spec, path, sizeof(path))) {
		if (is_path(spec))
			snprintf(path, sizeof(path), "%s", spec);
		snprintf(where, wlen, "%s", path);
		return read_text(path, text, len);
	}
	s = builtin(spec);
	if (!s)
		return error("no suite or job file '%s' (see 'schedlab list suites')",
			     spec);
	snprintf(where, wlen, "%s.job", s->name);
	*text = xmalloc(s->len + 1);
	memcpy(*text, s->text, s->len + 1);
	*len = s->len;
	return 0;
}

/*
 * The first comment line of a job file's text (not an SPDX tag),
 * without its ';' or '#'.
 */
static void summary_of(const char *text, size_t len, char *buf, size_t blen)
{
	const char *end = text + len;

	buf[0] = '\0';
	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t n = (size_t)((nl ? nl : end) - text);
		char line[SUMMARY_MAX + 1], *s;

		snprintf(line, sizeof(line), "%.*s", (int)n, text);
		text += n + 1;
		line[strcspn(line, "\r")] = '\0';
		s = plan_trim(line);
		if (*s != ';' && *s != '#')
			break;
		s = plan_trim(s + 1);
		if (*s && !strstr(s, "SPDX-License-Identifier")) {
			snprintf(buf, blen, "%s", s);
			break;
		}
	}
}

static void print_suite(FILE *f, const char *name, const char *text,
			size_t len)
{
	char summary[SUMMARY_MAX];

	summary_of(text, len, summary, sizeof(summary));
	if (*summary)
		fprintf(f, "  %-18s %s\n", name, summary);
	else
		fprintf(f, "  %s\n", name);
}

/* The head of a file in dir, enough for its summary. */
static size_t file_head(const char *dir, const char *file, char *buf,
			size_t len)
{
	char path[PATH_MAX];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	n = fread(buf, 1, len, fp);
	fclose(fp);
	return n;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int job_file(const struct dirent *d)
{
	return ends_in_job(d->d_name) && strlen(d->d_name) > 4;
}

/* $SCHEDLAB_JOBS's suites, under its name; none if it is not there. */
static void list_jobs_dir(FILE *f, const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, job_file, by_name);
	bool heading = false;

	for (int k = 0; k < n; k++) {
		char name[NAME_MAX + 1], path[PATH_MAX], head[4096];
		size_t len;

		snprintf(name, sizeof(name), "%.*s",
			 (int)strlen(ents[k]->d_name) - 4, ents[k]->d_name);
		/* not a directory named x.job */
		if (in_jobs_dir(name, path, sizeof(path))) {
			if (!heading)
				fprintf(f, "%s/:\n", dir);
			heading = true;
			len = file_head(dir, ents[k]->d_name, head, sizeof(head));
			print_suite(f, name, head, len);
		}
		free(ents[k]);
	}
	if (n >= 0)
		free(ents);
}

int plan_list_suites(FILE *f)
{
	const char *dir = jobs_dir();
	char path[PATH_MAX];
	bool heading = false;

	if (dir)
		list_jobs_dir(f, dir);
	for (const struct suite *s = builtin_suites; s->name; s++) {
		/* replaced by a suite of the same name in $SCHEDLAB_JOBS */
		if (in_jobs_dir(s->name, path, sizeof(path)))
			continue;
		if (!heading)
			fprintf(f, "built in:\n");
		heading = true;
		print_suite(f, s->name, s->text, s->len);
	}
	return ferror(f) ? -1 : 0;
}
