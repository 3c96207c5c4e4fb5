// SPDX-License-Identifier: GPL-2.0-only
/*
 * store and export: what goes into a database comes out of its export
 * unchanged; export -> import -> export is byte-identical; import is all
 * or nothing; damaged databases and documents are refused with one
 * message naming the file (and the JSON path); two processes can write
 * one database at once. Every database lives in one mkdtemp directory,
 * removed at the end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <ftw.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "stats/hist.h"
#include "store/sqlite.h"
#include "store/store.h"

#define TMPDIR_TAG "store"
#include "tmpdir.h"

/* How many lines were captured. */
static int lines_said(void)
{
	int n = 0;

	for (const char *p = captured(); *p; p++)
		n += *p == '\n';
	return n;
}


static char *dump(json_t *doc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(export_dump(doc, f), 0);
	fclose(f);
	return buf;
}

static void write_file(const char *p, const char *text, size_t len)
{
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

/* raw SQL beside the store, for what the API does not offer */
static void sql(const char *db, const char *text)
{
	sqlite3 *h;

	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	if (sqlite3_exec(h, text, NULL, NULL, NULL) != SQLITE_OK)
		fail_msg("%s: %s", text, sqlite3_errmsg(h));
	sqlite3_close(h);
}

static const char *sql_text(const char *db, const char *query)
{
	static char out[1024];
	sqlite3 *h;
	sqlite3_stmt *st;

	out[0] = '\0';
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, query, -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
			 out[0] ? " " : "", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(h);
	return out;
}

static const struct metric_def mdefs[] = {
	{ "messaging.time", "s", BETTER_LOWER, true, "wall time of the run" },
	{ "messaging.msgs_per_sec", "msgs/s", BETTER_HIGHER, false, "throughput" },
	{ "cpu.idle_pct", "%", BETTER_NONE, false, "idle share of the CPUs" },
};

/* 3 iterations x 3 metrics, 5 values; cpu.idle_pct never measured */
static const double vals[] = {
	0.1, 123456789.123456789, NAN,
	NAN, 1e-300, NAN,
	2.0 / 3.0, 5, NAN,
};

static int64_t begin_run(struct store *s, const char *uuid, const char *label,
			 double started)
{
	json_t *env = json_pack("{s:s, s:i, s:f}", "kernel", "6.1.0",
				"ncpu", 8, "steal_pct", 0.25);
	struct store_run r = {
		.uuid = uuid, .label = label, .host = "box",
		.command = "schedlab run jobs.ini", .version = "0.1-gtest",
		.started = started, .environment = env,
	};
	int64_t id = -1;

	assert_int_equal(store_run_begin(s, &r, &id), 0);
	json_decref(env);
	return id;
}

static void add_case(struct store *s, int64_t run, unsigned seq)
{
	json_t *p = json_pack("{s:i, s:s, s:b}", "groups", 4, "ipc", "pipe",
			      "threads", 0);
	struct store_case c = {
		.seq = seq, .job = "hackbench", .workload = "messaging",
		.params = "groups=4,ipc=pipe", .sweep_keys = "groups",
		.sweep = "4", .status = "complete", .parameters = p,
		.metrics = mdefs, .nmetrics = 3, .niter = 3, .values = vals,
	};

	assert_int_equal(store_case_add(s, run, &c), 0);
	json_decref(p);
}

static int64_t make_run(struct store *s, const char *uuid, const char *label,
			double started, unsigned ncases)
{
	int64_t id = begin_run(s, uuid, label, started);

	for (unsigned i = 0; i < ncases; i++)
		add_case(s, id, i);
	assert_int_equal(store_run_end(s, id, "complete", started + 60, NULL), 0);
	return id;
}

static void test_open_creates_schema(void **state)
{
	const char *db = path("new/sub/results.db");
	struct store *s;

	(void)state;
	s = store_open(db);
	assert_non_null(s);
	assert_string_equal(store_path(s), db);
	store_close(s);
	assert_string_equal(sql_text(db, "SELECT name FROM sqlite_master"
		" WHERE type = 'table' ORDER BY name"),
		"campaigns cases histograms monitors run_metrics runs samples schema_version");
	assert_string_equal(sql_text(db, "SELECT max(version) FROM schema_version"), "7");
	assert_string_equal(sql_text(db, "PRAGMA journal_mode"), "wal");
	s = store_open(db);	/* and again, migrated already */
	assert_non_null(s);
	store_close(s);
	assert_string_equal(sql_text(db, "SELECT count(*) FROM schema_version"), "1");
	assert_string_equal(sql_text(db, "SELECT name FROM pragma_index_info('cases_config')"
		" ORDER BY seqno"), "workload version params");
}

/* The tables of schema 1 as doc/store.md gave them, by hand. */
static const char schema_1[] =
	"CREATE TABLE schema_version (version INTEGER NOT NULL);"
	"INSERT INTO schema_version VALUES (1);"
	"CREATE TABLE runs (id INTEGER PRIMARY KEY, uuid TEXT UNIQUE NOT NULL,"
	" label TEXT, host TEXT, started REAL NOT NULL, ended REAL,"
	" status TEXT NOT NULL CHECK (status IN"
	"  ('running', 'complete', 'partial', 'failed')),"
	" command TEXT, schedlab_version TEXT,"
	" environment TEXT NOT NULL DEFAULT '{}');"
	"CREATE INDEX runs_label ON runs (label, started);"
	"CREATE INDEX runs_started ON runs (started);"
	"CREATE TABLE run_metrics ("
	" run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
	" name TEXT NOT NULL, unit TEXT NOT NULL,"
	" better TEXT NOT NULL CHECK (better IN ('lower', 'higher', 'none')),"
	" headline INTEGER NOT NULL CHECK (headline IN (0, 1)),"
	" help TEXT NOT NULL, PRIMARY KEY (run_id, name));"
	"CREATE TABLE cases (id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, job TEXT NOT NULL, workload TEXT NOT NULL,"
	" params TEXT, sweep_keys TEXT, sweep TEXT, status TEXT NOT NULL,"
	" reason TEXT, parameters TEXT NOT NULL DEFAULT '{}',"
	" iterations INTEGER NOT NULL CHECK (iterations >= 0),"
	" UNIQUE (run_id, seq));"
	"CREATE TABLE samples ("
	" case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,"
	" metric TEXT NOT NULL,"
	" iteration INTEGER NOT NULL CHECK (iteration >= 1),"
	" value REAL NOT NULL,"
	" PRIMARY KEY (case_id, metric, iteration)) WITHOUT ROWID;"
	"CREATE TABLE histograms ("
	" case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,"
	" metric TEXT NOT NULL,"
	" iteration INTEGER NOT NULL CHECK (iteration >= 1),"
	" buckets TEXT NOT NULL,"
	" PRIMARY KEY (case_id, metric, iteration)) WITHOUT ROWID;";

/* A run stored by an older schedlab: every option in params. */
static const char old_run[] =
	"INSERT INTO runs VALUES (1, 'old-1', 'base', 'box', 10, 20,"
	" 'complete', NULL, '0.1', '{}');"
	"INSERT INTO run_metrics VALUES (1, 'process.wall_s', 's', 'lower', 1, '');"
	"INSERT INTO cases VALUES (1, 1, 0, 'hb', 'messaging',"
	" 'groups=4 fds=20 loops=100 datasize=100 ipc=socket mode=process fifo=false',"
	" 'groups', '4', 'complete', NULL, '{\"groups\": 4}', 1);"
	"INSERT INTO cases VALUES (2, 1, 1, 'pp', 'pipe',"
	" 'loops=1000000 mode=process ordering=one-token', '', '',"
	" 'complete', NULL, '{}', 1);"
	"INSERT INTO cases VALUES (3, 1, 2, 'gone', 'retired',"
	" 'b=2 a=1', '', '', 'complete', NULL, '{}', 1);"
	"INSERT INTO samples VALUES (1, 'process.wall_s', 1, 2.5);"
	"INSERT INTO samples VALUES (2, 'process.wall_s', 1, 4);";

/*
 * Schema 2 (and 1) to 3: the cases gain version 1 and settings {}, and
 * their full parameter strings become identities, which a run made now
 * finds (the estimate looks cases up by identity); a workload the
 * binary does not know keeps its text.
 */
static void test_migrate_to_schema_3(void **state)
{
	(void)state;
	for (int from = 1; from <= 2; from++) {
		const char *db = path(from == 1 ? "schema1.db" : "schema2.db");
		struct store *s;
		json_t *doc, *c;
		double secs = 0;

		sql(db, schema_1);
		if (from == 2)
			sql(db, "CREATE INDEX cases_config ON cases (workload, params);"
			    "UPDATE schema_version SET version = 2");
		sql(db, old_run);
		s = store_open(db);
		assert_non_null(s);
		assert_string_equal(sql_text(db, "SELECT version FROM schema_version"), "7");
		assert_string_equal(sql_text(db, "SELECT '[' || params || ']' FROM cases ORDER BY id"),
				    "[groups=4] [] [b=2 a=1]");
		assert_string_equal(sql_text(db, "SELECT version || settings FROM cases ORDER BY id"),
				    "1{} 1{} 1{}");
		assert_string_equal(sql_text(db, "SELECT name FROM pragma_index_info('cases_config')"
			" ORDER BY seqno"), "workload version params");
		assert_int_equal(store_estimate(s, "messaging", 1, "groups=4", &secs), 1);
		assert_true(secs == 2.5);
		assert_int_equal(store_estimate(s, "pipe", 1, "", &secs), 1);
		assert_true(secs == 4);
		assert_int_equal(store_estimate(s, "messaging", 2, "groups=4", &secs), 0);
		/* 4 rebuilt runs: its rows, their cases and the references
		 * kept; pid and boot id unknown; 'abandoned' a status */
		assert_string_equal(sql_text(db, "SELECT count(*) || ' ' ||"
			" count(pid) || count(boot_id) FROM runs"), "1 00");
		assert_string_equal(sql_text(db, "SELECT count(*) FROM cases"), "3");
		assert_string_equal(sql_text(db, "SELECT count(*) FROM pragma_foreign_key_check"), "0");
		assert_string_equal(sql_text(db, "SELECT sql LIKE '%''abandoned''%'"
			" FROM sqlite_master WHERE name = 'runs'"), "1");
		/* 5: the A/B link, none for a run stored before it */
		assert_string_equal(sql_text(db, "SELECT count(ab) || count(variant)"
			" FROM runs"), "00");
		assert_string_equal(sql_text(db, "SELECT name FROM pragma_index_info('runs_ab')"),
				    "ab");

		doc = store_export(s, 1);
		assert_non_null(doc);
		assert_int_equal(export_validate(doc, "migrated"), 0);
		assert_true(json_is_null(json_object_get(json_object_get(doc, "run"), "ab")));
		assert_true(json_is_null(json_object_get(json_object_get(doc, "run"), "variant")));
		c = json_array_get(json_object_get(doc, "cases"), 0);
		assert_int_equal(json_integer_value(json_object_get(c, "version")), 1);
		assert_string_equal(json_string_value(json_object_get(c, "params")), "groups=4");
		assert_int_equal(json_object_size(json_object_get(c, "settings")), 0);
		json_decref(doc);
		store_close(s);
	}
}

/* The members of a case in the order doc/export.md gives them. */
static const char case_order[] =
	"seq job workload version params sweep_keys sweep status reason"
	" parameters settings iterations samples";

static const char *case_keys(json_t *c)
{
	static char buf[512];
	const char *key;
	json_t *v;

	buf[0] = '\0';
	json_object_foreach(c, key, v)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
			 buf[0] ? " " : "", key);
	return buf;
}

static void test_values_come_back(void **state)
{
	struct store *s = store_open(path("values.db"));
	json_t *doc, *run, *m, *c, *arr, *env, *p;
	json_t *settings = json_pack("{s:s}", "cpus", "0-1");
	struct store_case failed = {
		.seq = 1, .job = "hackbench", .workload = "messaging",
		.version = 2, .settings = settings,
		.params = "groups=64", .status = "failed",
		.reason = "worker 3 killed by SIGKILL", .metrics = mdefs,
		.nmetrics = 1, .niter = 0,
	};
	int64_t id;

	(void)state;
	assert_non_null(s);
	id = begin_run(s, "0b8c1f0e-0000-4000-8000-000000000001", "base",
		       1700000000.123456789);
	add_case(s, id, 0);
	assert_int_equal(store_case_add(s, id, &failed), 0);

	doc = store_export(s, id);
	assert_non_null(doc);
	assert_int_equal(export_validate(doc, "export"), 0);
	run = json_object_get(doc, "run");
	assert_string_equal(json_string_value(json_object_get(run, "status")), "running");
	assert_true(json_is_null(json_object_get(run, "ended")));
	json_decref(doc);

	env = json_pack("{s:s, s:f}", "kernel", "6.1.0", "steal_pct", 1.5);
	assert_int_equal(store_run_end(s, id, "partial", 1700000123.5, env), 0);
	doc = store_export(s, id);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), EXPORT_SCHEMA);
	run = json_object_get(doc, "run");
	assert_null(json_object_get(run, "id"));	/* the local id stays local */
	assert_string_equal(json_string_value(json_object_get(run, "uuid")),
			    "0b8c1f0e-0000-4000-8000-000000000001");
	assert_string_equal(json_string_value(json_object_get(run, "label")), "base");
	assert_string_equal(json_string_value(json_object_get(run, "host")), "box");
	assert_true(json_real_value(json_object_get(run, "started")) == 1700000000.123456789);
	assert_true(json_real_value(json_object_get(run, "ended")) == 1700000123.5);
	assert_string_equal(json_string_value(json_object_get(run, "status")), "partial");
	assert_string_equal(json_string_value(json_object_get(run, "command")), "schedlab run jobs.ini");
	assert_string_equal(json_string_value(json_object_get(run, "schedlab_version")), "0.1-gtest");
	assert_true(json_equal(json_object_get(doc, "environment"), env));
	json_decref(env);

	/* metadata of every metric, in table order, even one never measured */
	m = json_object_get(doc, "metrics");
	assert_int_equal(json_object_size(m), 3);
	assert_string_equal(json_object_iter_key(json_object_iter(m)), "messaging.time");
	for (size_t i = 0; i < 3; i++) {
		json_t *d = json_object_get(m, mdefs[i].name);
		static const char *const better[] = { "lower", "higher", "none" };

		assert_non_null(d);
		assert_string_equal(json_string_value(json_object_get(d, "unit")), mdefs[i].unit);
		assert_string_equal(json_string_value(json_object_get(d, "better")), better[i]);
		assert_int_equal(json_is_true(json_object_get(d, "headline")), mdefs[i].headline);
		assert_string_equal(json_string_value(json_object_get(d, "help")), mdefs[i].help);
	}

	assert_int_equal(json_array_size(json_object_get(doc, "cases")), 2);
	c = json_array_get(json_object_get(doc, "cases"), 0);
	assert_int_equal(json_integer_value(json_object_get(c, "seq")), 0);
	assert_string_equal(case_keys(c), case_order);
	assert_int_equal(json_integer_value(json_object_get(c, "version")), 1);
	assert_int_equal(json_object_size(json_object_get(c, "settings")), 0);
	assert_string_equal(json_string_value(json_object_get(c, "job")), "hackbench");
	assert_string_equal(json_string_value(json_object_get(c, "workload")), "messaging");
	assert_string_equal(json_string_value(json_object_get(c, "params")), "groups=4,ipc=pipe");
	assert_string_equal(json_string_value(json_object_get(c, "sweep_keys")), "groups");
	assert_string_equal(json_string_value(json_object_get(c, "sweep")), "4");
	assert_string_equal(json_string_value(json_object_get(c, "status")), "complete");
	assert_true(json_is_null(json_object_get(c, "reason")));
	p = json_pack("{s:i, s:s, s:b}", "groups", 4, "ipc", "pipe", "threads", 0);
	assert_true(json_equal(json_object_get(c, "parameters"), p));
	json_decref(p);
	assert_int_equal(json_integer_value(json_object_get(c, "iterations")), 3);
	assert_int_equal(json_object_size(json_object_get(c, "samples")), 2);
	arr = json_object_get(json_object_get(c, "samples"), "messaging.time");
	assert_int_equal(json_array_size(arr), 3);
	assert_true(json_real_value(json_array_get(arr, 0)) == 0.1);
	assert_true(json_is_null(json_array_get(arr, 1)));	/* NAN */
	assert_true(json_real_value(json_array_get(arr, 2)) == 2.0 / 3.0);
	arr = json_object_get(json_object_get(c, "samples"), "messaging.msgs_per_sec");
	assert_true(json_real_value(json_array_get(arr, 0)) == 123456789.123456789);
	assert_true(json_real_value(json_array_get(arr, 1)) == 1e-300);
	assert_true(json_real_value(json_array_get(arr, 2)) == 5);
	assert_null(json_object_get(json_object_get(c, "samples"), "cpu.idle_pct"));

	c = json_array_get(json_object_get(doc, "cases"), 1);
	assert_int_equal(json_integer_value(json_object_get(c, "version")), 2);
	assert_true(json_equal(json_object_get(c, "settings"), settings));
	json_decref(settings);
	assert_string_equal(json_string_value(json_object_get(c, "status")), "failed");
	assert_string_equal(json_string_value(json_object_get(c, "reason")),
			    "worker 3 killed by SIGKILL");
	assert_true(json_is_null(json_object_get(c, "sweep")));
	assert_int_equal(json_object_size(json_object_get(c, "parameters")), 0);
	assert_int_equal(json_integer_value(json_object_get(c, "iterations")), 0);
	assert_int_equal(json_object_size(json_object_get(c, "samples")), 0);
	json_decref(doc);
	store_close(s);
}

/*
 * The A/B link: runs begun with one ab come back from store_ab_runs()
 * by id with their variant names, from store_runs() and in the export;
 * import keeps both; a run made alone has neither.
 */
static void test_ab_runs(void **state)
{
	static const char *const names[] = { "base", "slice", "n7" };
	static const char ab[] = "3f2a0000-0000-4000-8000-00000000000a";
	struct store *s = store_open(path("ab.db"));
	struct store *t = store_open(path("ab2.db"));
	struct store_run_info *runs;
	struct store_ab_run *abr;
	int64_t ids[3], alone, imported;
	json_t *doc, *run;
	size_t n;

	(void)state;
	assert_non_null(s);
	assert_non_null(t);
	alone = begin_run(s, NULL, "alone", 1);
	for (int i = 0; i < 3; i++) {
		char label[32];
		struct store_run r = {
			.label = label, .started = 2 + i, .ab = ab,
			.variant = names[i],
		};

		snprintf(label, sizeof(label), "l/%s", names[i]);
		assert_int_equal(store_run_begin(s, &r, &ids[i]), 0);
	}
	begin_run(s, NULL, "after", 9);
	assert_int_equal(store_ab_runs(s, ab, &abr, &n), 0);
	assert_int_equal(n, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(abr[i].id, ids[i]);
		assert_string_equal(abr[i].variant, names[i]);
	}
	assert_string_equal(abr[1].label, "l/slice");
	store_ab_runs_free(abr, n);
	assert_int_equal(store_ab_runs(s, "no-such-ab", &abr, &n), 0);
	assert_int_equal(n, 0);
	assert_null(abr);

	assert_int_equal(store_runs(s, &runs, &n), 0);
	assert_int_equal(n, 5);
	assert_null(runs[4].ab);		/* alone, the oldest */
	assert_int_equal(runs[4].id, alone);
	assert_null(runs[4].variant);
	assert_string_equal(runs[1].ab, ab);	/* n7 */
	assert_string_equal(runs[1].variant, "n7");
	store_runs_free(runs, n);

	doc = store_export(s, ids[1]);
	run = json_object_get(doc, "run");
	assert_string_equal(json_string_value(json_object_get(run, "ab")), ab);
	assert_string_equal(json_string_value(json_object_get(run, "variant")), "slice");
	assert_int_equal(store_import(t, doc, "doc", &imported), 0);
	json_decref(doc);
	doc = store_export(t, imported);
	run = json_object_get(doc, "run");
	assert_string_equal(json_string_value(json_object_get(run, "ab")), ab);
	assert_string_equal(json_string_value(json_object_get(run, "variant")), "slice");
	json_decref(doc);
	assert_int_equal(store_ab_runs(t, ab, &abr, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(abr[0].id, imported);
	store_ab_runs_free(abr, n);

	doc = store_export(s, alone);
	run = json_object_get(doc, "run");
	assert_true(json_is_null(json_object_get(run, "ab")));
	assert_true(json_is_null(json_object_get(run, "variant")));
	/* a document from before the link: no members at all */
	json_object_del(run, "ab");
	json_object_del(run, "variant");
	assert_int_equal(export_validate(doc, "old"), 0);
	assert_int_equal(store_import(t, doc, "old", &imported), 0);
	assert_string_equal(sql_text(path("ab2.db"), "SELECT count(ab) || count(variant)"
				     " FROM runs"), "11");
	/* and one that has them must have strings or null */
	json_object_set_new(run, "variant", json_integer(7));
	capture();
	assert_int_equal(export_validate(doc, "bad"), -1);
	assert_said("bad: run.variant: expected a string or null");
	json_decref(doc);
	store_close(s);
	store_close(t);
}

static void test_uuid_made_when_missing(void **state)
{
	struct store *s = store_open(path("uuid.db"));
	int64_t a = begin_run(s, NULL, NULL, 1), b = begin_run(s, NULL, NULL, 2);
	json_t *da = store_export(s, a), *db = store_export(s, b);
	const char *ua = json_string_value(json_object_get(json_object_get(da, "run"), "uuid"));
	const char *ub = json_string_value(json_object_get(json_object_get(db, "run"), "uuid"));

	(void)state;
	assert_int_equal(strlen(ua), 36);
	assert_int_equal(ua[14], '4');
	assert_string_not_equal(ua, ub);
	assert_true(json_is_null(json_object_get(json_object_get(da, "run"), "label")));
	json_decref(da);
	json_decref(db);
	store_close(s);
}

static void test_case_add_refusals(void **state)
{
	struct store *s = store_open(path("refuse.db"));
	int64_t id = begin_run(s, "r-1", NULL, 1);
	double inf[] = { INFINITY };
	struct store_case c = {
		.seq = 7, .job = "j", .workload = "pipe", .status = "complete",
		.metrics = mdefs, .nmetrics = 1, .niter = 1, .values = inf,
	};
	struct store_run_info *runs;
	size_t n;

	(void)state;
	capture();
	assert_int_equal(store_case_add(s, id, &c), -1);
	assert_said("case 7: messaging.time, iteration 1: infinite value");

	inf[0] = 1;
	c.seq = 0;
	add_case(s, id, 0);
	capture();
	assert_int_equal(store_case_add(s, id, &c), -1);
	assert_said("run 1 already has a case 0");

	capture();
	assert_int_equal(store_case_add(s, 99, &c), -1);
	assert_said("no run 99 in ");

	c.status = "done";
	capture();
	assert_int_equal(store_case_add(s, id, &c), -1);
	assert_said("bad status 'done'");

	capture();
	assert_int_equal(store_run_end(s, 99, "complete", 2, NULL), -1);
	assert_said("no run 99 in ");
	capture();
	assert_int_equal(store_run_end(s, id, "running", 2, NULL), -1);
	assert_said("cannot end with status 'running'");

	assert_int_equal(store_runs(s, &runs, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(runs[0].cases, 1);
	assert_int_equal(runs[0].samples, 5);
	store_runs_free(runs, n);
	store_close(s);
}

static void test_resolve(void **state)
{
	struct store *s = store_open(path("resolve.db"));
	int64_t a1 = make_run(s, "a-1", "base", 100, 0);
	int64_t a2 = make_run(s, "a-2", "base", 200, 0);
	int64_t b = make_run(s, "b-1", "new", 150, 0);
	int64_t a3 = make_run(s, "a-3", "tie", 300, 0);
	int64_t a4 = make_run(s, "a-4", "tie", 300, 0);
	int64_t id;

	(void)state;
	assert_int_equal(store_resolve(s, "base", &id), 0);
	assert_int_equal(id, a2);
	assert_int_equal(store_resolve(s, "new", &id), 0);
	assert_int_equal(id, b);
	assert_int_equal(store_resolve(s, "tie", &id), 0);
	assert_int_equal(id, a4);
	assert_true(a3 < a4);
	assert_int_equal(store_resolve(s, "1", &id), 0);
	assert_int_equal(id, a1);

	capture();
	assert_int_equal(store_resolve(s, "99", &id), -1);
	assert_said("no run '99' in ");
	capture();
	assert_int_equal(store_resolve(s, "nope", &id), -1);
	assert_said("resolve.db (see 'schedlab list runs')");
	capture();
	assert_int_equal(store_resolve(s, "99999999999999999999999", &id), -1);
	assert_said("no run '99999999999999999999999'");
	store_close(s);
}

static void test_runs_newest_first(void **state)
{
	struct store *s = store_open(path("runs.db"));
	int64_t old = make_run(s, "o", "old", 100, 2);
	int64_t mid = make_run(s, "m", NULL, 200, 0);
	int64_t new = begin_run(s, "n", "new", 300);
	struct store_run_info *runs, *r;
	size_t n;

	(void)state;
	add_case(s, new, 0);
	assert_int_equal(store_runs(s, &runs, &n), 0);
	assert_int_equal(n, 3);
	r = &runs[0];
	assert_int_equal(r->id, new);
	assert_string_equal(r->status, "running");
	assert_true(isnan(r->ended));
	assert_int_equal(r->cases, 1);
	assert_int_equal(r->samples, 5);
	r = &runs[1];
	assert_int_equal(r->id, mid);
	assert_null(r->label);
	assert_int_equal(r->cases, 0);
	r = &runs[2];
	assert_int_equal(r->id, old);
	assert_string_equal(r->label, "old");
	assert_string_equal(r->uuid, "o");
	assert_string_equal(r->host, "box");
	assert_true(r->started == 100);
	assert_true(r->ended == 160);
	assert_string_equal(r->status, "complete");
	assert_int_equal(r->cases, 2);
	assert_int_equal(r->samples, 10);
	store_runs_free(runs, n);
	store_close(s);
}

/* A run whose environment is the JSON text env, started at t. */
static void begin_run_env(struct store *s, const char *env, double t)
{
	json_t *e = json_loads(env, 0, NULL);
	struct store_run r = {
		.uuid = NULL, .host = "box", .started = t, .environment = e,
	};
	int64_t id;

	assert_non_null(e);
	assert_int_equal(store_run_begin(s, &r, &id), 0);
	json_decref(e);
}

/*
 * list runs' commit: the environment's git describe (sysenv.h), NULL
 * when the item is missing, absent (older runs) or the text damaged.
 */
static void test_runs_commit(void **state)
{
	const char *db = path("commit.db");
	struct store *s = store_open(db);
	struct store_run_info *runs;
	size_t n;

	(void)state;
	begin_run_env(s, "{\"git\": {\"available\": true, \"value\": "
		"{\"describe\": \"v1-2-gdeadbee-dirty\", \"commit\": \"deadbee\"}}}", 5);
	begin_run_env(s, "{\"git\": {\"available\": false, \"reason\": "
		"\"/x: not inside a git work tree\"}}", 4);
	begin_run_env(s, "{\"kernel\": {}}", 3);
	begin_run_env(s, "{\"git\": {\"available\": true, \"value\": "
		"{\"describe\": \"v2\"}}}", 2);
	store_close(s);
	sql(db, "UPDATE runs SET environment = '{\"git\": ' WHERE started = 2");
	s = store_open_ro(db);
	assert_non_null(s);
	assert_int_equal(store_runs(s, &runs, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(runs[0].commit, "v1-2-gdeadbee-dirty");
	assert_null(runs[1].commit);
	assert_null(runs[2].commit);
	assert_null(runs[3].commit);
	store_runs_free(runs, n);
	store_close(s);
}

static void test_export_import_export_is_identical(void **state)
{
	struct store *a = store_open(path("one.db"));
	struct store *b = store_open(path("two.db"));
	int64_t ida = make_run(a, "rt-1", "rt", 1700000000.5, 5), idb, other;
	json_t *doc = store_export(a, ida), *again, *loaded;
	char *text = dump(doc), *text2, *text3;

	(void)state;
	make_run(b, "unrelated", "x", 5, 1);	/* so local ids differ */
	assert_int_equal(store_import(b, doc, "one.json", &idb), 0);
	assert_int_not_equal(idb, ida);
	again = store_export(b, idb);
	text2 = dump(again);
	assert_string_equal(text, text2);

	/* and through a file */
	write_file(path("one.json"), text, strlen(text));
	loaded = export_load(path("one.json"));
	assert_non_null(loaded);
	store_close(b);
	b = store_open(path("three.db"));
	assert_int_equal(store_import(b, loaded, "one.json", &other), 0);
	json_decref(again);
	again = store_export(b, other);
	text3 = dump(again);
	assert_string_equal(text, text3);

	free(text);
	free(text2);
	free(text3);
	json_decref(doc);
	json_decref(again);
	json_decref(loaded);
	store_close(a);
	store_close(b);
}

/*
 * A case's latency histograms: stored per iteration (a missing one stays
 * null), exported with exactly the values recorded, carried through
 * import, and refused with their JSON path when damaged.
 */
static void test_histograms(void **state)
{
	struct store *s = store_open(path("hist.db"));
	struct store *b = store_open(path("hist2.db"));
	struct hist *h = aligned_alloc(64, sizeof(*h)), *back = aligned_alloc(64, sizeof(*h));
	struct hist *rows[3] = { h, NULL, h };
	json_t *p = json_object(), *doc, *arr, *again;
	struct store_case c = {
		.seq = 0, .job = "j", .workload = "messaging",
		.status = "complete", .parameters = p, .metrics = mdefs,
		.nmetrics = 3, .niter = 3, .values = vals, .latency = rows,
	};
	int64_t id = begin_run(s, "hist-1", "h", 10), id2;
	char *t1, *t2;

	(void)state;
	hist_init(h);
	/* 3 values below 512 ns (exact buckets) and one of 1 ms */
	hist_record(h, 100);
	hist_record(h, 100);
	hist_record(h, 300);
	hist_record(h, 1000000);
	assert_int_equal(store_case_add(s, id, &c), 0);
	doc = store_export(s, id);
	assert_non_null(doc);
	arr = json_object_get(json_object_get(json_array_get(
		json_object_get(doc, "cases"), 0), "histograms"), "latency");
	assert_int_equal(json_array_size(arr), 3);
	assert_true(json_is_null(json_array_get(arr, 1)));
	assert_int_equal(hist_from_json(json_array_get(arr, 2), back), 0);
	assert_int_equal(hist_count(back), 4);
	assert_int_equal(hist_min(back), 100);
	assert_int_equal(hist_max(back), 1000000);
	assert_int_equal(hist_percentile(back, 50), 100);
	assert_int_equal(hist_percentile(back, 75), 300);

	assert_int_equal(store_import(b, doc, "h.json", &id2), 0);
	again = store_export(b, id2);
	t1 = dump(doc);
	t2 = dump(again);
	assert_string_equal(t1, t2);

	/* a damaged row in the database: one message naming it */
	sql(path("hist.db"), "UPDATE histograms SET buckets = '{\"unit\": \"s\"}'"
	    " WHERE iteration = 3");
	capture();
	assert_null(store_export(s, id));
	assert_said("hist.db: case 1: histogram latency[3]: histogram: unit \"s\" is not \"ns\"");
	assert_int_equal(lines_said(), 1);

	/* one bucket count off: the path and what is wrong */
	json_integer_set(json_object_get(json_array_get(arr, 0), "count"), 5);
	capture();
	assert_int_equal(export_validate(doc, "h.json"), -1);
	assert_said("h.json: cases[0].histograms.latency[0]: histogram: bucket counts add up to 4, not count 5");
	json_array_set_new(arr, 0, json_null());
	json_array_remove(arr, 2);
	capture();
	assert_int_equal(export_validate(doc, "h.json"), -1);
	assert_said("h.json: cases[0].histograms.latency: 2 histograms for 3 iterations");

	free(t1);
	free(t2);
	free(h);
	free(back);
	json_decref(p);
	json_decref(doc);
	json_decref(again);
	store_close(s);
	store_close(b);
}

static void test_import_twice_is_refused(void **state)
{
	struct store *a = store_open(path("src.db"));
	struct store *b = store_open(path("dst.db"));
	json_t *doc = store_export(a, make_run(a, "twice", "t", 10, 3));
	struct store_run_info *runs;
	json_t *before, *after;
	int64_t id, id2 = -5;
	size_t n;

	(void)state;
	assert_int_equal(store_import(b, doc, "t.json", &id), 0);
	before = store_export(b, id);
	capture();
	assert_int_equal(store_import(b, doc, "t.json", &id2), -1);
	assert_said("t.json: run twice is already in ");
	assert_said("dst.db as run 1");
	assert_int_equal(store_runs(b, &runs, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(runs[0].id, id);
	store_runs_free(runs, n);
	after = store_export(b, id);
	assert_true(json_equal(before, after));
	json_decref(before);
	json_decref(after);
	json_decref(doc);
	store_close(a);
	store_close(b);
}

/* A failure half-way through an import leaves nothing behind. */
static void test_import_is_all_or_nothing(void **state)
{
	struct store *a = store_open(path("half-src.db"));
	struct store *b;
	json_t *doc = store_export(a, make_run(a, "half", "h", 10, 4));
	struct store_run_info *runs;
	int64_t id;
	size_t n;

	(void)state;
	store_close(a);
	b = store_open(path("half.db"));
	store_close(b);
	sql(path("half.db"), "CREATE TRIGGER boom BEFORE INSERT ON samples"
	    " WHEN (SELECT count(*) FROM cases) = 3"
	    " BEGIN SELECT RAISE(ABORT, 'disk on fire'); END");
	b = store_open(path("half.db"));
	capture();
	assert_int_equal(store_import(b, doc, "h.json", &id), -1);
	assert_said("disk on fire");
	assert_int_equal(store_runs(b, &runs, &n), 0);
	assert_int_equal(n, 0);
	store_runs_free(runs, n);
	store_close(b);
	assert_string_equal(sql_text(path("half.db"),
		"SELECT (SELECT count(*) FROM runs) + (SELECT count(*) FROM cases)"
		" + (SELECT count(*) FROM run_metrics) + (SELECT count(*) FROM samples)"), "0");
	json_decref(doc);
}

static const char good_doc[] =
	"{\"schema\": \"schedlab-run/1\","
	" \"run\": {\"uuid\": \"u-1\", \"label\": null, \"host\": \"h\","
	"  \"started\": 1.5, \"ended\": null, \"status\": \"running\","
	"  \"command\": \"schedlab run\", \"schedlab_version\": \"0.1\"},"
	" \"environment\": {\"kernel\": \"6.1\"},"
	" \"metrics\": {\"messaging.time\": {\"unit\": \"s\", \"better\": \"lower\","
	"  \"headline\": true, \"help\": \"\"}},"
	" \"cases\": ["
	"  {\"seq\": 0, \"job\": \"j\", \"workload\": \"messaging\", \"params\": \"\","
	"   \"sweep_keys\": null, \"sweep\": null, \"status\": \"complete\","
	"   \"reason\": null, \"parameters\": {}, \"iterations\": 1,"
	"   \"samples\": {\"messaging.time\": [1]}},"
	"  {\"seq\": 1, \"job\": \"j\", \"workload\": \"messaging\", \"params\": \"\","
	"   \"sweep_keys\": null, \"sweep\": null, \"status\": \"failed\","
	"   \"reason\": \"timeout\", \"parameters\": {}, \"iterations\": 0,"
	"   \"samples\": {}},"
	"  {\"seq\": 2, \"job\": \"j\", \"workload\": \"messaging\", \"params\": \"\","
	"   \"sweep_keys\": \"groups\", \"sweep\": \"4\", \"status\": \"complete\","
	"   \"reason\": null, \"parameters\": {\"groups\": 4}, \"iterations\": 4,"
	"   \"samples\": {\"messaging.time\": [1, null, 2.5, 3]}}]}";

struct mutation {
	const char *parent[5];	/* keys; "#N": array index N */
	const char *key;
	const char *value;	/* JSON; NULL: delete */
	const char *expect;
};

static const struct mutation mutations[] = {
	{ {}, "schema", "\"schedlab-run/2\"",
	  "doc.json: schema \"schedlab-run/2\" is not one this schedlab reads (schedlab-run/1)" },
	{ {}, "schema", "\"fio/3\"",
	  "doc.json: not a schedlab export (no \"schema\": \"schedlab-run/1\")" },
	{ {}, "schema", NULL, "doc.json: not a schedlab export" },
	{ {}, "run", NULL, "doc.json: run: missing" },
	{ {}, "run", "[]", "doc.json: run: expected an object" },
	{ { "run" }, "uuid", NULL, "doc.json: run.uuid: missing" },
	{ { "run" }, "uuid", "\"\"", "doc.json: run.uuid: expected a non-empty string" },
	{ { "run" }, "started", "\"yesterday\"", "doc.json: run.started: expected a number" },
	{ { "run" }, "ended", "true", "doc.json: run.ended: expected a number or null" },
	{ { "run" }, "label", "3", "doc.json: run.label: expected a string or null" },
	{ { "run" }, "status", "\"done\"",
	  "doc.json: run.status: \"done\" is not running, complete, partial, failed or abandoned" },
	{ {}, "environment", NULL, "doc.json: environment: missing" },
	{ {}, "environment", "\"linux\"", "doc.json: environment: expected an object" },
	{ {}, "metrics", "[]", "doc.json: metrics: expected an object" },
	{ { "metrics" }, "messaging.time", "7", "doc.json: metrics.messaging.time: expected an object" },
	{ { "metrics", "messaging.time" }, "unit", NULL,
	  "doc.json: metrics.messaging.time.unit: missing" },
	{ { "metrics", "messaging.time" }, "headline", "\"yes\"",
	  "doc.json: metrics.messaging.time.headline: expected true or false" },
	{ { "metrics", "messaging.time" }, "better", "\"up\"",
	  "doc.json: metrics.messaging.time.better: \"up\" is not lower, higher or none" },
	{ {}, "cases", "{}", "doc.json: cases: expected an array" },
	{ { "cases" }, "#1", "3", "doc.json: cases[1]: expected an object" },
	{ { "cases", "#0" }, "seq", "-1", "doc.json: cases[0].seq: expected a non-negative integer" },
	{ { "cases", "#0" }, "seq", "0.5", "doc.json: cases[0].seq: expected a non-negative integer" },
	{ { "cases", "#2" }, "seq", "0", "doc.json: cases[2].seq: 0 is also cases[0].seq" },
	{ { "cases", "#0" }, "job", NULL, "doc.json: cases[0].job: missing" },
	{ { "cases", "#0" }, "status", "\"running\"",
	  "doc.json: cases[0].status: \"running\" is not complete or failed" },
	{ { "cases", "#1" }, "reason", "5", "doc.json: cases[1].reason: expected a string or null" },
	{ { "cases", "#0" }, "parameters", "[]", "doc.json: cases[0].parameters: expected an object" },
	{ { "cases", "#0" }, "iterations", NULL, "doc.json: cases[0].iterations: missing" },
	{ { "cases", "#0" }, "samples", "[]", "doc.json: cases[0].samples: expected an object" },
	{ { "cases", "#0" }, "version", "0", "doc.json: cases[0].version: expected an integer from 1 to 1000000" },
	{ { "cases", "#0" }, "version", "\"2\"", "doc.json: cases[0].version: expected an integer from 1 to 1000000" },
	{ { "cases", "#0" }, "version", "1000001", "doc.json: cases[0].version: expected an integer from 1 to 1000000" },
	{ { "cases", "#1" }, "settings", "[]", "doc.json: cases[1].settings: expected an object" },
	{ { "cases", "#1" }, "settings", "{\"cpus\": 1}",
	  "doc.json: cases[1].settings.cpus: expected a string" },
	{ { "cases", "#2", "samples" }, "messaging.time", "[1, 2]",
	  "doc.json: cases[2].samples.messaging.time: 2 values for 4 iterations" },
	{ { "cases", "#2", "samples" }, "messaging.time", "{}",
	  "doc.json: cases[2].samples.messaging.time: expected an array" },
	{ { "cases", "#2", "samples", "messaging.time" }, "#3", "\"3\"",
	  "doc.json: cases[2].samples.messaging.time[3]: expected a number or null" },
	{ { "cases", "#2", "samples" }, "wakeup.p99_us", "[1, 2, 3, 4]",
	  "doc.json: cases[2].samples.wakeup.p99_us: metric has no entry in \"metrics\"" },
};

/*
 * A document written before identities (good_doc: no version, no
 * settings) is upgraded as it is read and imported: version 1, settings
 * {}, the full parameter string as the identity, members in the
 * documented order; a case that has a version is left as it is.
 */
static void test_old_export_is_upgraded(void **state)
{
	json_t *doc = json_loads(good_doc, 0, NULL), *c, *again;
	struct store *s = store_open(path("upgrade.db"));
	char *text;
	int64_t id;

	(void)state;
	c = json_array_get(json_object_get(doc, "cases"), 0);
	json_object_set_new(c, "params", json_string(
		"groups=4 fds=20 loops=100 datasize=100 ipc=pipe mode=process fifo=false"));
	c = json_array_get(json_object_get(doc, "cases"), 2);
	json_object_set_new(c, "version", json_integer(3));
	json_object_set_new(c, "params", json_string("groups=4 fds=20"));
	text = json_dumps(doc, JSON_PRESERVE_ORDER);
	write_file(path("old.json"), text, strlen(text));
	free(text);
	json_decref(doc);

	doc = export_load(path("old.json"));
	assert_non_null(doc);
	c = json_array_get(json_object_get(doc, "cases"), 0);
	assert_string_equal(case_keys(c), case_order);
	assert_int_equal(json_integer_value(json_object_get(c, "version")), 1);
	assert_string_equal(json_string_value(json_object_get(c, "params")),
			    "groups=4 ipc=pipe");
	assert_int_equal(json_object_size(json_object_get(c, "settings")), 0);
	c = json_array_get(json_object_get(doc, "cases"), 2);
	assert_int_equal(json_integer_value(json_object_get(c, "version")), 3);
	assert_string_equal(json_string_value(json_object_get(c, "params")),
			    "groups=4 fds=20");
	assert_null(json_object_get(c, "settings"));
	assert_int_equal(export_validate(doc, "old.json"), 0);

	/* import stores the upgraded form; a missing settings is {} */
	assert_int_equal(store_import(s, doc, "old.json", &id), 0);
	again = store_export(s, id);
	c = json_array_get(json_object_get(again, "cases"), 0);
	assert_string_equal(json_string_value(json_object_get(c, "params")),
			    "groups=4 ipc=pipe");
	c = json_array_get(json_object_get(again, "cases"), 2);
	assert_int_equal(json_integer_value(json_object_get(c, "version")), 3);
	assert_string_equal(case_keys(c), case_order);
	json_decref(again);
	json_decref(doc);

	/* store_import() upgrades a document it is handed directly too */
	doc = json_loads(good_doc, 0, NULL);
	json_object_set_new(json_object_get(doc, "run"), "uuid", json_string("u-2"));
	c = json_array_get(json_object_get(doc, "cases"), 0);
	json_object_set_new(c, "params", json_string("loops=100 groups=2"));
	assert_int_equal(store_import(s, doc, "direct", &id), 0);
	again = store_export(s, id);
	c = json_array_get(json_object_get(again, "cases"), 0);
	assert_string_equal(json_string_value(json_object_get(c, "params")), "groups=2");
	assert_int_equal(json_integer_value(json_object_get(c, "version")), 1);
	json_decref(again);
	json_decref(doc);
	store_close(s);
}

static json_t *child(json_t *j, const char *key)
{
	return key[0] == '#' ? json_array_get(j, strtoul(key + 1, NULL, 10))
			     : json_object_get(j, key);
}

static void test_validate_rejects(void **state)
{
	json_error_t err;
	json_t *doc = json_loads(good_doc, 0, &err);
	struct store *s = store_open(path("validate.db"));
	struct store_run_info *runs;
	int64_t id;
	size_t n;

	(void)state;
	if (!doc)
		fail_msg("good_doc:%d:%d: %s", err.line, err.column, err.text);
	assert_int_equal(export_validate(doc, "doc.json"), 0);
	json_decref(doc);

	for (size_t i = 0; i < sizeof(mutations) / sizeof(mutations[0]); i++) {
		const struct mutation *m = &mutations[i];
		json_t *parent = doc = json_loads(good_doc, 0, NULL);

		for (int k = 0; k < 5 && m->parent[k]; k++)
			parent = child(parent, m->parent[k]);
		assert_non_null(parent);
		if (m->key[0] == '#') {
			size_t at = strtoul(m->key + 1, NULL, 10);

			assert_int_equal(json_array_set_new(parent, at,
				json_loads(m->value, JSON_DECODE_ANY, NULL)), 0);
		} else if (m->value) {
			assert_int_equal(json_object_set_new(parent, m->key,
				json_loads(m->value, JSON_DECODE_ANY, NULL)), 0);
		} else {
			assert_int_equal(json_object_del(parent, m->key), 0);
		}
		capture();
		assert_int_equal(export_validate(doc, "doc.json"), -1);
		assert_said(m->expect);
		/* and import refuses it with the same words, storing nothing */
		capture();
		assert_int_equal(store_import(s, doc, "doc.json", &id), -1);
		assert_said(m->expect);
		json_decref(doc);
	}
	doc = json_array();
	capture();
	assert_int_equal(export_validate(doc, "doc.json"), -1);
	assert_said("doc.json: not a schedlab export");
	json_decref(doc);

	assert_int_equal(store_runs(s, &runs, &n), 0);
	store_runs_free(runs, n);
	assert_string_equal(sql_text(path("validate.db"), "SELECT count(*) FROM runs"), "0");
	/* the good one goes in, with its integers as reals */
	doc = json_loads(good_doc, 0, NULL);
	assert_int_equal(store_import(s, doc, "doc.json", &id), 0);
	json_decref(doc);
	doc = store_export(s, id);
	assert_true(json_is_real(json_array_get(json_object_get(json_object_get(
		json_array_get(json_object_get(doc, "cases"), 2), "samples"),
		"messaging.time"), 3)));
	json_decref(doc);
	store_close(s);
}

static void test_export_load_refusals(void **state)
{
	struct store *s = store_open(path("load.db"));
	json_t *doc = store_export(s, make_run(s, "load", NULL, 1, 2)), *got;
	char *text = dump(doc);
	size_t len = strlen(text);
	const char *p = path("trunc.json"), *msg;
	int line, col;

	(void)state;
	/* every truncation is a clear error, none a crash */
	for (size_t n = 0; n + 1 < len; n++) {
		write_file(p, text, n);
		capture();
		got = export_load(p);
		msg = captured();
		if (got)
			fail_msg("a truncation to %zu bytes loaded", n);
		if (!strstr(msg, "trunc.json:"))
			fail_msg("truncated to %zu: %s", n, msg);
	}
	write_file(p, text, len / 2);
	capture();
	assert_null(export_load(p));
	msg = captured();
	msg = strstr(msg, "trunc.json:");
	assert_non_null(msg);
	assert_int_equal(sscanf(msg, "trunc.json:%d:%d: ", &line, &col), 2);
	assert_true(line > 1);

	write_file(p, "hello, world\n", 13);
	capture();
	assert_null(export_load(p));
	assert_said("trunc.json:1:5: '[' or '{' expected near 'hello'");

	write_file(p, "{\"a\": 1}\n", 9);
	capture();
	assert_null(export_load(p));
	assert_said("trunc.json: not a schedlab export (no \"schema\": \"schedlab-run/1\")");

	write_file(p, "{\"schema\": 1, \"schema\": 2}", 26);
	capture();
	assert_null(export_load(p));
	assert_said("trunc.json:1:");

	capture();
	assert_null(export_load(path("missing.json")));
	assert_said("missing.json: cannot open: No such file or directory");

	capture();
	assert_null(export_load(tmp));
	assert_said(": cannot read");

	write_file(p, text, len);
	got = export_load(p);
	assert_non_null(got);
	assert_true(json_equal(got, doc));
	json_decref(got);
	free(text);
	json_decref(doc);
	store_close(s);
}

static void test_open_refusals(void **state)
{
	char junk[8192];
	struct store *s;

	(void)state;
	memset(junk, 'x', sizeof(junk));
	write_file(path("garbage.db"), junk, sizeof(junk));
	capture();
	assert_null(store_open(path("garbage.db")));
	assert_said("garbage.db: not a schedlab database (file is not a database)");

	sql(path("other.db"), "CREATE TABLE t (x)");
	capture();
	assert_null(store_open(path("other.db")));
	assert_said("other.db: not a schedlab database (it holds tables of another program)");

	capture();
	assert_null(store_open("/proc/schedlab-no-such-dir/sub/results.db"));
	assert_said("/proc/schedlab-no-such-dir/sub/results.db: cannot create directory /proc/schedlab-no-such-dir: ");

	capture();
	assert_null(store_open(tmp));
	assert_said(": cannot open database (");

	s = store_open(path("future.db"));
	assert_non_null(s);
	store_close(s);
	sql(path("future.db"), "UPDATE schema_version SET version = 99");
	capture();
	assert_null(store_open(path("future.db")));
	assert_said("future.db: database schema version 99 is newer than this schedlab (7)");
}

/* A file's bytes (NULL when it does not exist), for "unchanged" checks. */
static char *slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "r");
	char *buf = NULL;
	size_t n = 0;
	FILE *m;
	int c;

	*len = 0;
	if (!f)
		return NULL;
	m = open_memstream(&buf, &n);
	assert_non_null(m);
	while ((c = getc(f)) != EOF)
		putc(c, m);
	fclose(f);
	fclose(m);
	*len = n;
	return buf;
}

/* store_open(p) refuses p, saying what, and leaves it byte for byte as
 * it was, with no -wal or -shm beside it. */
static void refused_unchanged(const char *p, const char *what)
{
	char side[600];
	size_t n0, n1;
	char *before = slurp(p, &n0), *after;

	assert_non_null(before);
	capture();
	assert_null(store_open(p));
	assert_said(what);
	assert_int_equal(lines_said(), 1);
	after = slurp(p, &n1);
	assert_non_null(after);
	assert_int_equal(n0, n1);
	assert_memory_equal(before, after, n0);
	snprintf(side, sizeof(side), "%s-wal", p);
	assert_int_not_equal(access(side, F_OK), 0);
	snprintf(side, sizeof(side), "%s-shm", p);
	assert_int_not_equal(access(side, F_OK), 0);
	free(before);
	free(after);
}

/*
 * Issue 12, defect 1: a schema_version that is negative, 0 with the
 * tables there, missing, not one row or not a number is a damaged or
 * foreign file - refused, never an index into the migrations, never
 * written to.
 */
static void test_open_bad_schema_version(void **state)
{
	static const struct {
		const char *sql, *said;
	} bad[] = {
		{ "UPDATE schema_version SET version = -1",
		  "not a schedlab database (its schema_version is -1)" },
		{ "UPDATE schema_version SET version = -100000",
		  "not a schedlab database (its schema_version is -100000)" },
		{ "UPDATE schema_version SET version = 0",
		  "not a schedlab database (its schema_version is 0)" },
		{ "DELETE FROM schema_version",
		  "not a schedlab database (its schema_version is empty)" },
		{ "INSERT INTO schema_version VALUES (3)",
		  "not a schedlab database (its schema_version has 2 rows)" },
		{ "UPDATE schema_version SET version = 'three'",
		  "not a schedlab database (its schema_version is not an integer)" },
		{ "UPDATE schema_version SET version = 2.5",
		  "not a schedlab database (its schema_version is not an integer)" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char name[32];
		const char *p;
		struct store *s;

		snprintf(name, sizeof(name), "badversion%zu.db", i);
		p = path(name);
		s = store_open(p);
		assert_non_null(s);
		store_close(s);
		/* a rollback journal, so that nothing but the file itself
		 * could change */
		sql(p, "PRAGMA journal_mode = DELETE");
		sql(p, bad[i].sql);
		refused_unchanged(p, bad[i].said);
	}
}

/*
 * Issue 12, defect 6: another program's SQLite file, or a schedlab
 * database newer than this binary, is refused before anything is
 * written to it (it used to be switched to WAL first).
 */
static void test_open_foreign_unchanged(void **state)
{
	struct store *s;

	(void)state;
	sql(path("foreign.db"), "CREATE TABLE t (x); INSERT INTO t VALUES (1)");
	refused_unchanged(path("foreign.db"),
			  "foreign.db: not a schedlab database (it holds tables of another program)");

	s = store_open(path("newer.db"));
	assert_non_null(s);
	store_close(s);
	sql(path("newer.db"), "PRAGMA journal_mode = DELETE;"
	    " UPDATE schema_version SET version = 8");
	refused_unchanged(path("newer.db"),
			  "newer.db: database schema version 8 is newer than this schedlab (7)");
}

/*
 * Issue 12, defect 14: a damaged page in the middle of the file is
 * found when the database is opened for writing (quick_check), not
 * after a whole run that then cannot be stored.
 */
static void test_open_corrupt_page(void **state)
{
	const char *p = path("corrupt.db");
	struct store *s = store_open(p);
	char junk[4096];
	FILE *f;
	long size;

	(void)state;
	assert_non_null(s);
	make_run(s, NULL, "big", 1000, 200);
	store_close(s);
	f = fopen(p, "r+");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	assert_true(size > 16 * 4096);
	memset(junk, 0xa5, sizeof(junk));
	fseek(f, size / 4096 / 2 * 4096, SEEK_SET);
	assert_int_equal(fwrite(junk, 1, sizeof(junk), f), sizeof(junk));
	fclose(f);
	capture();
	assert_null(store_open(p));
	assert_said("corrupt.db: the database is corrupt (quick_check: ");
	assert_int_equal(lines_said(), 1);
	assert_said("quick_check: Page ");
}

/*
 * store_open_ro() creates nothing, refuses what store_open() refuses
 * without writing, and reads what is there, leaving no -wal or -shm.
 */
static void test_open_ro(void **state)
{
	struct store_run_info *runs;
	const char *p;
	struct store *s;
	size_t n;

	(void)state;
	capture();
	assert_null(store_open_ro(path("ro-missing/none.db")));
	assert_said("ro-missing/none.db: cannot open database (");
	assert_int_not_equal(access(path("ro-missing"), F_OK), 0);

	sql(path("ro-foreign.db"), "CREATE TABLE t (x)");
	capture();
	assert_null(store_open_ro(path("ro-foreign.db")));
	assert_said("not a schedlab database (it holds tables of another program)");

	p = path("ro.db");
	s = store_open(p);
	assert_non_null(s);
	make_run(s, NULL, "ro", 1000, 2);
	store_close(s);
	s = store_open_ro(p);
	assert_non_null(s);
	assert_int_equal(store_runs(s, &runs, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(runs[0].label, "ro");
	store_runs_free(runs, n);
	store_close(s);
	assert_int_not_equal(access(path("ro.db-wal"), F_OK), 0);
	assert_int_not_equal(access(path("ro.db-shm"), F_OK), 0);
}

static void test_default_path(void **state)
{
	char buf[256], small[8];
	char *saved[3];
	static const char *const vars[] = { "SCHEDLAB_DB", "XDG_DATA_HOME", "HOME" };

	(void)state;
	for (int i = 0; i < 3; i++) {
		const char *v = getenv(vars[i]);

		saved[i] = v ? strdup(v) : NULL;
	}
	setenv("SCHEDLAB_DB", "/x/y.db", 1);
	setenv("XDG_DATA_HOME", "/data", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(store_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x/y.db");
	unsetenv("SCHEDLAB_DB");
	assert_int_equal(store_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/data/schedlab/results.db");
	setenv("XDG_DATA_HOME", "relative", 1);	/* invalid: ignored */
	assert_int_equal(store_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.local/share/schedlab/results.db");
	capture();
	assert_int_equal(store_default_path(small, sizeof(small)), -1);
	assert_said("too long");
	for (int i = 0; i < 3; i++) {
		if (saved[i])
			setenv(vars[i], saved[i], 1);
		else
			unsetenv(vars[i]);
		free(saved[i]);
	}
}

/* Two processes adding cases to one run at once: both succeed. */
#define PER_WRITER 200

static int writer(const char *db, int64_t run, unsigned first, int go)
{
	static const double v[] = { 1, 2, 3, 4 };
	struct store *s;
	char c;
	int rc = 0;

	if (read(go, &c, 1) < 0)	/* EOF when the parent says go */
		return 1;
	s = store_open(db);
	if (!s)
		return 1;
	for (unsigned i = 0; i < PER_WRITER && !rc; i++) {
		struct store_case sc = {
			.seq = first + i, .job = "j", .workload = "pipe",
			.status = "complete", .metrics = mdefs, .nmetrics = 2,
			.niter = 2, .values = v,
		};

		rc = store_case_add(s, run, &sc);
	}
	store_close(s);
	return rc ? 1 : 0;
}

static void test_two_writers(void **state)
{
	const char *db = path("shared.db");
	struct store *s = store_open(db);
	int64_t run = begin_run(s, "shared", "both", 1);
	int go[2], status;
	pid_t pid[2];
	struct store_run_info *runs;
	json_t *doc, *cases, *c;
	size_t i, n;

	(void)state;
	store_close(s);	/* no connection crosses a fork */
	assert_int_equal(pipe(go), 0);
	for (int w = 0; w < 2; w++) {
		pid[w] = fork();
		assert_true(pid[w] >= 0);
		if (!pid[w]) {
			close(go[1]);
			_exit(writer(db, run, w * PER_WRITER, go[0]));
		}
	}
	close(go[0]);
	close(go[1]);
	for (int w = 0; w < 2; w++) {
		assert_int_equal(waitpid(pid[w], &status, 0), pid[w]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	s = store_open(db);
	doc = store_export(s, run);
	cases = json_object_get(doc, "cases");
	assert_int_equal(json_array_size(cases), 2 * PER_WRITER);
	json_array_foreach(cases, i, c)
		assert_int_equal(json_integer_value(json_object_get(c, "seq")), i);
	json_decref(doc);
	assert_int_equal(store_runs(s, &runs, &n), 0);
	assert_int_equal(runs[0].samples, 2 * PER_WRITER * 4);
	store_runs_free(runs, n);
	store_close(s);
}

/*
 * The last case and the run's end in one transaction: both stored, or
 * (the end refused) neither - never a run complete without its case.
 */
static void test_last_case_ends_the_run(void **state)
{
	const char *db = path("end.db");
	struct store_case c = {
		.seq = 1, .job = "hackbench", .workload = "messaging",
		.status = "complete", .metrics = mdefs, .nmetrics = 3,
		.niter = 3, .values = vals,
		.run_status = "complete", .run_ended = 1060,
	};
	struct store *s;
	int64_t id;

	(void)state;
	s = store_open(db);
	assert_non_null(s);
	id = begin_run(s, "end-1", "e", 1000);
	assert_int_equal(store_case_add(s, id, &c), 0);
	assert_string_equal(sql_text(db, "SELECT status || ended || ' ' ||"
		" (SELECT count(*) FROM cases) FROM runs"), "complete1060.0 1");

	id = begin_run(s, "end-2", "e", 2000);
	c.run_status = "done";
	capture();
	assert_int_equal(store_case_add(s, id, &c), -1);
	assert_said("cannot end with status 'done'");
	assert_string_equal(sql_text(db, "SELECT status || coalesce(ended, '-') ||"
		" ' ' || (SELECT count(*) FROM cases WHERE run_id = r.id)"
		" FROM runs r WHERE uuid = 'end-2'"), "running- 0");
	store_close(s);
}

/*
 * Whether a run's writer is alive (sqlite_life.c): this process is; a
 * child reaped is gone; a live pid with another start time (reused) is
 * gone; another boot of this host is gone; another host's run is never
 * judged; a writer of unknown boot (imported, schema 3) neither.
 */
static void test_writer_gone(void **state)
{
	struct store_writer me, w;
	char host[256] = "";
	FILE *f;
	long long start = 0;
	pid_t pid;

	(void)state;
	gethostname(host, sizeof(host) - 1);
	store_writer_self(&me);
	if (!*me.boot)
		skip();
	f = popen("awk '{ sub(/.*\\) /, \"\"); print $20 }' /proc/$PPID/stat", "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lld", &start), 1);
	pclose(f);
	assert_true(start == me.start);
	assert_false(store_writer_gone(host, &me));
	assert_string_equal(store_status_shown("running", host, &me), "running");

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	w = me;
	w.pid = pid;
	assert_true(store_writer_gone(host, &w));
	assert_string_equal(store_status_shown("running", host, &w), "abandoned");
	assert_string_equal(store_status_shown("partial", host, &w), "partial");

	w = me;
	w.pid = 1;		/* alive, started long before this test */
	w.start = me.start;
	assert_true(store_writer_gone(host, &w));

	w = me;
	w.pid = pid;
	snprintf(w.boot, sizeof(w.boot), "another-boot");
	assert_true(store_writer_gone(host, &w));
	assert_false(store_writer_gone("another-host", &w));
	*w.boot = '\0';
	assert_false(store_writer_gone(host, &w));
}

/* A database as messages and stored command lines name it: a file as it
 * is, a URL without its password (in the authority or the query). */
static void test_url_redact(void **state)
{
	static const char *const cases[][2] = {
		{ "/tmp/r.db", "/tmp/r.db" },
		{ "relative:name.db", "relative:name.db" },
		{ "postgresql://u:pw@host/db", "postgresql://u@host/db" },
		{ "postgres://u:p@ss@host:5/db", "postgres://u@host:5/db" },
		{ "postgresql://host/db?password=x&sslmode=require",
		  "postgresql://host/db?sslmode=require" },
		{ "postgresql://", "postgresql://" },
	};
	char *r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r = store_url_redact(cases[i][0]);
		assert_string_equal(r, cases[i][1]);
		free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_creates_schema),
		cmocka_unit_test(test_migrate_to_schema_3),
		cmocka_unit_test(test_values_come_back),
		cmocka_unit_test(test_ab_runs),
		cmocka_unit_test(test_uuid_made_when_missing),
		cmocka_unit_test(test_case_add_refusals),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_runs_newest_first),
		cmocka_unit_test(test_runs_commit),
		cmocka_unit_test(test_export_import_export_is_identical),
		cmocka_unit_test(test_histograms),
		cmocka_unit_test(test_import_twice_is_refused),
		cmocka_unit_test(test_import_is_all_or_nothing),
		cmocka_unit_test(test_validate_rejects),
		cmocka_unit_test(test_old_export_is_upgraded),
		cmocka_unit_test(test_export_load_refusals),
		cmocka_unit_test(test_open_refusals),
		cmocka_unit_test(test_open_bad_schema_version),
		cmocka_unit_test(test_open_foreign_unchanged),
		cmocka_unit_test(test_open_corrupt_page),
		cmocka_unit_test(test_open_ro),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_two_writers),
		cmocka_unit_test(test_last_case_ends_the_run),
		cmocka_unit_test(test_writer_gone),
		cmocka_unit_test(test_url_redact),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
