// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/load.c: RUN as the user names it into the run model
 * (store/load.h): an export file through run_from_export(), a stored run
 * through store_load() on the one handle a struct run_source opens.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/run.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"

int run_db_path(const char *db, char *buf, size_t len)
{
	if (db) {
		snprintf(buf, len, "%s", db);
		return 0;
	}
	return store_default_path(buf, len);
}

void run_source_init(struct run_source *src, const char *dbopt)
{
	memset(src, 0, sizeof(*src));
	src->dbopt = dbopt;
}

struct store *run_source_store(struct run_source *src)
{
	if (src->tried)
		return src->st;
	src->tried = true;
	if (run_db_path(src->dbopt, src->db, sizeof(src->db))) {
		src->failed = src->unresolved = true;
		return NULL;
	}
	src->missing = store_missing(src->db);
	if (src->missing)
		return NULL;
	src->st = src->rw ? store_open(src->db) : store_open_ro(src->db);
	src->failed = !src->st;
	return src->st;
}

void run_source_adopt(struct run_source *src, struct store *st)
{
	snprintf(src->db, sizeof(src->db), "%s", store_path(st));
	src->st = st;
	src->tried = true;
	src->missing = src->failed = src->unresolved = false;
}

void run_source_close(struct run_source *src)
{
	store_close(src->st);
	src->st = NULL;
}

/* Whether RUN names an export document rather than a stored run. */
static bool is_file(const char *spec)
{
	struct stat sb;

	return !strcmp(spec, "-") || (stat(spec, &sb) == 0 && S_ISREG(sb.st_mode));
}

static int load_file(const char *spec, struct run *r)
{
	const char *origin = !strcmp(spec, "-") ? "stdin" : spec;
	json_t *doc = export_load(spec);
	int rc;

	if (!doc)
		return -1;
	/* what import would refuse, show and compare refuse too */
	rc = export_check_written(doc, origin) ? -1 :
		run_from_export(doc, origin, r);
	json_decref(doc);
	return rc;
}

static int load_stored(struct run_source *src, const char *spec,
		       struct run *r)
{
	struct store *st = run_source_store(src);
	int64_t id;

	if (src->missing)
		return error("no run '%s': no database at %s (see 'schedlab run')",
			     spec, src->db);
	if (!st || store_resolve(st, spec, &id))
		return -1;
	return store_load(st, id, r);
}

int run_source_load(struct run_source *src, const char *spec, struct run *r)
{
	memset(r, 0, sizeof(*r));
	r->id = -1;
	return is_file(spec) ? load_file(spec, r) : load_stored(src, spec, r);
}

struct load_job {
	const char *spec;
	struct run *r;
	int rc;
	pthread_t thread;
	bool threaded;
};

static void *load_one(void *arg)
{
	struct load_job *j = arg;

	memset(j->r, 0, sizeof(*j->r));
	j->r->id = -1;
	j->rc = load_file(j->spec, j->r);
	return NULL;
}

int run_source_load_many(struct run_source *src, const char *const *specs,
			 size_t n, struct run *runs)
{
	struct load_job *job = xcalloc(n + 1, sizeof(*job));
	int rc = 0;

	json_object_seed(0);	/* jansson's hash seed, before any thread */
	for (size_t i = 0; i < n; i++) {
		job[i] = (struct load_job){ .spec = specs[i], .r = &runs[i] };
		/* the files a thread each; a thread not started: below */
		if (is_file(specs[i]) && strcmp(specs[i], "-"))
			job[i].threaded = !pthread_create(&job[i].thread, NULL,
							  load_one, &job[i]);
	}
	for (size_t i = 0; i < n; i++)
		if (!job[i].threaded)
			job[i].rc = run_source_load(src, specs[i], &runs[i]);
	for (size_t i = 0; i < n; i++) {
		if (job[i].threaded)
			pthread_join(job[i].thread, NULL);
		rc |= job[i].rc;
	}
	if (rc)
		for (size_t i = 0; i < n; i++)
			run_free(&runs[i]);
	free(job);
	return rc ? -1 : 0;
}

int run_load(const char *spec, const char *db, struct run *r)
{
	struct run_source src;
	int rc;

	run_source_init(&src, db);
	rc = run_source_load(&src, spec, r);
	run_source_close(&src);
	return rc;
}

int run_load_many(const char *const *specs, size_t n, const char *db,
		  struct run *runs)
{
	struct run_source src;
	int rc;

	run_source_init(&src, db);
	rc = run_source_load_many(&src, specs, n, runs);
	run_source_close(&src);
	return rc;
}
