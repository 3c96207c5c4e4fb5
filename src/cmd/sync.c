// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab push [RUN...] --to DB and schedlab pull RUN... --from DB:
 * stored runs copied between databases, a SQLite file or a PostgreSQL
 * URL on either side, so that a machine can run offline into its local
 * file and hand its runs to the fleet's database later. Each run goes as
 * its export document (store_export(), store_import_once()): what the
 * target stores is what `export` prints, and a run whose uuid the target
 * already has is left alone, so pushing twice - or two pushes at once -
 * stores it once. A run still running is not copied: it is pushed when
 * a later push finds it ended. Exit 0 when every run went (or was
 * already there), 1 when some failed (the others were still copied), 2
 * for bad input or a database that cannot be opened.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "model/run.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"

struct sync_opts {
	const char *db;
	const char *to, *from;
	bool help;
};

#define O(f) offsetof(struct sync_opts, f)
static const struct opt_def push_options[] = {
	{ .name = "to", .type = OPT_STRING, .offset = O(to), .arg = "DB",
	  .help = "the database the runs go to: a SQLite file (created when missing) or a postgresql:// URL" },
	OPT_DB(struct sync_opts, db),
	OPT_HELP(struct sync_opts, help),
	{ .name = NULL },
};
static const struct opt_def pull_options[] = {
	{ .name = "from", .type = OPT_STRING, .offset = O(from), .arg = "DB",
	  .help = "the database the runs come from: a SQLite file or a postgresql:// URL" },
	OPT_DB(struct sync_opts, db),
	OPT_HELP(struct sync_opts, help),
	{ .name = NULL },
};
#undef O

/* What one push or pull did, for its summary line. */
struct sync_tally {
	unsigned copied, there, running, failed;
	int64_t samples;	/* of the runs copied */
};

/* The samples of an export document: every measured value of its cases. */
static int64_t doc_samples(const json_t *doc)
{
	const json_t *c, *series, *v;
	const char *metric;
	int64_t n = 0;
	size_t i, j;

	json_array_foreach(json_object_get(doc, "cases"), i, c)
		json_object_foreach(json_object_get(c, "samples"), metric, series)
			json_array_foreach(series, j, v)
				n += json_is_number(v);
	return n;
}

static const char *doc_str(const json_t *doc, const char *key)
{
	return json_string_value(json_object_get(json_object_get(doc, "run"), key));
}

/*
 * Copies run id of from (uuid, label: NULL when not known yet) into to,
 * unless to has its uuid already. verb: "pushed" or "pulled". Counts it
 * in t; says what it did in one line.
 */
static void copy_run(struct store *from, struct store *to, int64_t id,
		     const char *uuid, const char *label, const char *verb,
		     struct sync_tally *t)
{
	int64_t there;
	json_t *doc = NULL;
	char origin[64], *shown = text_field(label, "-");
	int rc;

	if (uuid && (rc = store_find_uuid(to, uuid, &there))) {
		if (rc < 0) {
			t->failed++;
			goto out;
		}
		t->there++;
		printf("run %" PRId64 " (%s): already in %s as run %" PRId64 "\n",
		       id, shown, store_path(to), there);
		goto out;
	}
	doc = store_export(from, id);
	if (!doc) {
		t->failed++;
		printf("run %" PRId64 " (%s): failed, not %s\n", id, shown,
		       verb);
		goto out;
	}
	free(shown);
	shown = text_field(doc_str(doc, "label"), "-");
	if (!strcmp(doc_str(doc, "status") ?: "", "running")) {
		/* a pull from a database being written: as push, later */
		t->running++;
		printf("run %" PRId64 " (%s): still running, not %s (%.4s it when it ends)\n",
		       id, shown, verb, verb);
		goto out;
	}
	snprintf(origin, sizeof(origin), "run %" PRId64, id);
	/* what import would refuse (written into the store by other means,
	 * or by an older schedlab) is not copied on either */
	if (export_check_written(doc, origin)) {
		t->failed++;
		printf("run %" PRId64 " (%s): failed, not %s: it holds what schedlab run could not have written\n",
		       id, shown, verb);
		goto out;
	}
	rc = store_import_once(to, doc, origin, &there);
	if (rc < 0) {
		t->failed++;
		printf("run %" PRId64 " (%s): failed, not %s\n", id, shown,
		       verb);
	} else if (rc > 0) {
		t->there++;
		printf("run %" PRId64 " (%s): already in %s as run %" PRId64 "\n",
		       id, shown, store_path(to), there);
	} else {
		int64_t n = doc_samples(doc);

		t->copied++;
		t->samples += n;
		printf("%s run %" PRId64 " (%s, %" PRId64 " samples) as run %" PRId64 "\n",
		       verb, id, shown, n, there);
	}
out:
	json_decref(doc);
	free(shown);
}

/*
 * "pushed 3 runs (412 samples) to DB; 5 already there; 1 still running,
 * skipped; 1 failed" and the exit code it makes. where: "to DB", "from
 * DB into LOCAL".
 */
static int summary(const char *verb, const char *where,
		   const struct sync_tally *t)
{
	printf("%s %u run%s (%" PRId64 " samples) %s", verb, t->copied,
	       t->copied == 1 ? "" : "s", t->samples, where);
	if (t->there)
		printf("; %u already there", t->there);
	if (t->running)
		printf("; %u still running, skipped", t->running);
	if (t->failed)
		printf("; %u failed", t->failed);
	putchar('\n');
	return t->failed ? EXIT_RUN_FAILED : EXIT_OK;
}

/*
 * RUN... resolved in st into ids[] (every one of them, before anything
 * is copied: a RUN that is not there is bad input). -1 after error().
 */
static int resolve_all(struct store *st, char **specs, int n, int64_t *ids)
{
	int bad = 0;

	for (int i = 0; i < n; i++)
		bad |= store_resolve(st, specs[i], &ids[i]);
	return bad ? -1 : 0;
}

int cmd_push(int argc, char **argv)
{
	static const char usage[] = "push [RUN...] --to DB [--db LOCAL]";
	struct sync_tally t = { 0 };
	struct store *local, *to = NULL;
	struct store_run_info *runs = NULL;
	struct sync_opts o;
	struct cmd_args a = { CMD_ARGS(push_options, o), .usage_line = usage };
	size_t nruns = 0;
	int64_t *ids = NULL;
	char *where;
	int first, n, rc;

	first = cmd_parse(argc, argv, &a, &rc);
	if (first < 0)
		return rc;
	if (!o.to) {
		error("push: --to DB is required: the database the runs go to (usage: schedlab %s)",
		      usage);
		return EXIT_USAGE;
	}
	n = argc - first;
	local = cmd_store_ro(&a, "see 'schedlab run'");
	rc = EXIT_USAGE;
	if (!local)
		goto out;
	if (store_runs(local, &runs, &nruns))
		goto out;
	ids = xcalloc((size_t)(n ? n : 1), sizeof(*ids));
	if (resolve_all(local, argv + first, n, ids))
		goto out;
	to = store_open(o.to);
	if (!to)
		goto out;
	/* no RUN: every run, oldest first (the order they were made in) */
	for (size_t k = nruns; k-- > 0;) {
		const struct store_run_info *r = &runs[k];
		bool chosen = !n;

		for (int i = 0; i < n; i++)
			chosen |= ids[i] == r->id;
		if (!chosen)
			continue;
		if (!strcmp(r->status, "running")) {
			t.running++;
			char *shown = text_field(r->label, "-");

			printf("run %" PRId64 " (%s): still running, not pushed (push it when it ends)\n",
			       r->id, shown);
			free(shown);
			continue;
		}
		copy_run(local, to, r->id, r->uuid, r->label, "pushed", &t);
	}
	where = xmalloc(strlen(store_path(to)) + 4);
	sprintf(where, "to %s", store_path(to));
	rc = summary("pushed", where, &t);
	free(where);
out:
	free(ids);
	store_runs_free(runs, nruns);
	store_close(to);
	cmd_args_done(&a);
	return rc;
}

int cmd_pull(int argc, char **argv)
{
	static const char usage[] = "pull RUN... --from DB [--db LOCAL]";
	struct sync_tally t = { 0 };
	struct store *from, *local = NULL;
	struct sync_opts o;
	struct cmd_args a = { CMD_ARGS(pull_options, o), .usage_line = usage };
	int64_t *ids;
	char *where;
	int first, n, rc;

	first = cmd_parse(argc, argv, &a, &rc);
	if (first < 0)
		return rc;
	n = argc - first;
	if (!o.from || !n) {
		error("pull: %s (usage: schedlab %s)", !o.from ?
		      "--from DB is required: the database the runs come from" :
		      "expected at least one RUN (id, label or uuid in the --from database)",
		      usage);
		return EXIT_USAGE;
	}
	if (store_missing(o.from)) {
		error("pull: no database at %s", o.from);
		return EXIT_USAGE;
	}
	from = store_open_ro(o.from);
	if (!from)
		return EXIT_USAGE;
	rc = EXIT_USAGE;
	ids = xcalloc((size_t)n, sizeof(*ids));
	if (resolve_all(from, argv + first, n, ids))
		goto out;
	local = store_open(a.db);
	if (!local)
		goto out;
	for (int i = 0; i < n; i++) {
		bool twice = false;

		for (int j = 0; j < i; j++)
			twice |= ids[j] == ids[i];
		if (!twice)	/* RUN given twice (an id and its label) */
			copy_run(from, local, ids[i],
				 uuid_valid(argv[first + i]) ? argv[first + i] : NULL,
				 NULL, "pulled", &t);
	}
	where = xmalloc(strlen(store_path(from)) + strlen(store_path(local)) + 12);
	sprintf(where, "from %s into %s", store_path(from), store_path(local));
	rc = summary("pulled", where, &t);
	free(where);
out:
	free(ids);
	store_close(local);
	store_close(from);
	return rc;
}
