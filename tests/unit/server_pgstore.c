// SPDX-License-Identifier: GPL-2.0-only
/*
 * The PostgreSQL store through the store interface, against the server
 * at $SCHEDLAB_TEST_PGURL (tests/integration/test_pgstore.sh starts a
 * throwaway one and runs this binary, which is named server_* so that
 * tests/run.sh's loop of unit tests leaves it to that test; without a
 * server every test skips):
 * store_import_once() is idempotent, also when several processes import
 * one run at once; a case and the run's end are stored together; what
 * the schema cannot check is refused before anything is written.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "store/store.h"
#include "util.h"

static const char *url(void)
{
	const char *u = getenv("SCHEDLAB_TEST_PGURL");

	if (!u || !*u)
		skip();
	return u;
}

static const struct metric_def mdefs[] = {
	{ .name = "messaging.time", .unit = "s", .better = BETTER_LOWER,
	  .headline = true, .help = "wall time" },
	{ .name = "sched.migrations", .unit = "", .better = BETTER_NONE,
	  .help = "migrations" },
};

/* A run with one complete case of 3 iterations, its last value missing. */
static int64_t make_run(struct store *s, const char *uuid, const char *label)
{
	static const double values[] = { 1.5, 10, 1.25, 11, 0.1 + 0.2, NAN };
	struct store_run r = {
		.uuid = uuid, .label = label, .host = "box",
		.command = "schedlab run t.job", .version = "0.1-gtest",
		.started = 1700000000.123456789,
	};
	struct store_case c = {
		.seq = 0, .job = "hackbench", .workload = "messaging",
		.params = "groups=4", .status = "complete", .metrics = mdefs,
		.nmetrics = 2, .niter = 3, .values = values,
		.run_status = "complete", .run_ended = 1700000001.5,
	};
	int64_t id;

	assert_int_equal(store_run_begin(s, &r, &id), 0);
	assert_int_equal(store_case_add(s, id, &c), 0);
	return id;
}

static json_t *doc_of(struct store *s, int64_t id, const char *uuid)
{
	json_t *doc = store_export(s, id);

	assert_non_null(doc);
	json_object_set_new(json_object_get(doc, "run"), "uuid", json_string(uuid));
	return doc;
}

/* A uuid of this process's own, so that tests never meet old rows. */
static const char *fresh_uuid(char *buf)
{
	uuid_new(buf, 37);
	return buf;
}

static void test_case_and_end_together(void **state)
{
	struct store *s = store_open(url());
	char uuid[37];
	json_t *doc, *x;
	int64_t id;

	(void)state;
	assert_non_null(s);
	id = make_run(s, fresh_uuid(uuid), "together");
	doc = store_export(s, id);
	assert_non_null(doc);
	x = json_object_get(doc, "run");
	assert_string_equal(json_string_value(json_object_get(x, "status")), "complete");
	assert_true(json_real_value(json_object_get(x, "ended")) == 1700000001.5);
	assert_true(json_real_value(json_object_get(x, "started")) == 1700000000.123456789);
	x = json_object_get(json_object_get(json_array_get(json_object_get(doc,
		"cases"), 0), "samples"), "sched.migrations");
	assert_int_equal(json_array_size(x), 3);
	assert_true(json_real_value(json_array_get(x, 0)) == 10);
	assert_true(json_is_null(json_array_get(x, 2)));
	x = json_object_get(json_object_get(json_array_get(json_object_get(doc,
		"cases"), 0), "samples"), "messaging.time");
	assert_true(json_real_value(json_array_get(x, 2)) == 0.1 + 0.2);
	/* the metrics in the order they came */
	assert_string_equal(json_object_iter_key(json_object_iter(
		json_object_get(doc, "metrics"))), "messaging.time");
	json_decref(doc);
	store_close(s);
}

static void test_import_once(void **state)
{
	struct store *s = store_open(url());
	char uuid[37], other[37];
	int64_t id, again, found;
	json_t *doc;

	(void)state;
	assert_non_null(s);
	doc = doc_of(s, make_run(s, fresh_uuid(uuid), "once"), fresh_uuid(other));
	assert_int_equal(store_import_once(s, doc, "doc", &id), 0);
	assert_int_equal(store_import_once(s, doc, "doc", &again), 1);
	assert_int_equal(again, id);
	assert_int_equal(store_import(s, doc, "doc", &again), -1);
	assert_int_equal(store_find_uuid(s, other, &found), 1);
	assert_int_equal(found, id);
	json_decref(doc);
	store_close(s);
}

/* Four processes import one run at once: one stores it, three find it. */
static void test_import_once_at_once(void **state)
{
	struct store *s = store_open(url());
	char uuid[37], other[37];
	int stored = 0, found = 0;
	pid_t pid[4];
	json_t *doc;
	int64_t id;

	(void)state;
	assert_non_null(s);
	doc = doc_of(s, make_run(s, fresh_uuid(uuid), "at-once"), fresh_uuid(other));
	for (int i = 0; i < 4; i++) {
		pid[i] = fork();
		assert_true(pid[i] >= 0);
		if (!pid[i]) {
			struct store *c = store_open(url());
			int64_t cid;

			_exit(c ? store_import_once(c, doc, "doc", &cid) : 9);
		}
	}
	for (int i = 0; i < 4; i++) {
		int st;

		assert_int_equal(waitpid(pid[i], &st, 0), pid[i]);
		assert_true(WIFEXITED(st));
		stored += WEXITSTATUS(st) == 0;
		found += WEXITSTATUS(st) == 1;
	}
	assert_int_equal(stored, 1);
	assert_int_equal(found, 3);
	assert_int_equal(store_find_uuid(s, other, &id), 1);
	json_decref(doc);
	store_close(s);
}

static void test_case_add_refusals(void **state)
{
	struct store *s = store_open(url());
	static const double inf[] = { INFINITY, 1 };
	struct store_case c = {
		.seq = 0, .job = "j", .workload = "messaging", .status = "complete",
		.metrics = mdefs, .nmetrics = 2, .niter = 1, .values = inf,
	};
	char uuid[37];
	int64_t id;

	(void)state;
	assert_non_null(s);
	id = make_run(s, fresh_uuid(uuid), "refusals");
	assert_int_equal(store_case_add(s, id, &c), -1);	/* infinite */
	c.values = (const double[]){ 1, 2 };
	assert_int_equal(store_case_add(s, id, &c), -1);	/* seq 0 again */
	assert_int_equal(store_case_add(s, id + 1000000, &c), -1);	/* no run */
	c.status = "maybe";
	assert_int_equal(store_case_add(s, id, &c), -1);
	assert_int_equal(store_run_end(s, id, "running", 1, NULL), -1);
	assert_int_equal(store_run_end(s, id + 1000000, "complete", 1, NULL), -1);
	/* the connection is still good after the refusals */
	c.seq = 1;
	c.status = "complete";
	assert_int_equal(store_case_add(s, id, &c), 0);
	store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_case_and_end_together),
		cmocka_unit_test(test_import_once),
		cmocka_unit_test(test_import_once_at_once),
		cmocka_unit_test(test_case_add_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
