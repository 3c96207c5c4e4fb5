// SPDX-License-Identifier: GPL-2.0-only
/*
 * model: a run read from an export document and from the database into
 * struct run - every field, NAN where a value was null, by_metric, the
 * headline, settings and version (with their defaults for documents
 * that predate them), histograms - and back to the same document bytes;
 * the messages for what cannot be loaded. The expected values are the
 * ones written into the document below.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/run.h"
#include "stats/hist.h"
#include "store/load.h"
#include "store/store.h"

#define TMPDIR_TAG "model"
#include "tmpdir.h"

/* Two cases of one job, the second failed; one null sample. */
static const char doc_text[] =
	"{\"schema\": \"schedlab-run/1\","
	" \"run\": {\"uuid\": \"11111111-2222-4333-8444-555555555555\", \"label\": \"base\", \"host\": null,"
	"  \"started\": 100.5, \"ended\": 160.25, \"status\": \"partial\","
	"  \"command\": \"schedlab run x\", \"schedlab_version\": \"0.1\","
	"  \"ab\": \"11111111-2222-4333-8444-000000000000\", \"variant\": \"base\"},"
	" \"environment\": {\"kernel\": \"6.1\","
	"  \"busy_at_start\": {\"value\": 2.5}},"
	" \"metrics\": {"
	"  \"messaging.time\": {\"unit\": \"s\", \"better\": \"lower\","
	"   \"headline\": true, \"help\": \"time\"},"
	"  \"messaging.rate\": {\"unit\": \"msgs/s\", \"better\": \"higher\","
	"   \"headline\": false, \"help\": \"rate\"},"
	"  \"sched.csw\": {\"unit\": \"\", \"better\": \"none\","
	"   \"headline\": false, \"help\": \"switches\"}},"
	" \"cases\": ["
	"  {\"seq\": 0, \"job\": \"hb\", \"workload\": \"messaging\","
	"   \"version\": 2, \"params\": \"groups=4\", \"sweep_keys\": \"groups\","
	"   \"sweep\": \"4\", \"status\": \"complete\", \"reason\": null,"
	"   \"parameters\": {\"groups\": 4, \"ipc\": \"pipe\", \"w\": 0.5},"
	"   \"settings\": {\"cpus\": \"0-1\"},"
	"   \"iterations\": 3,"
	"   \"samples\": {\"messaging.time\": [1.5, null, 2.5],"
	"                 \"sched.csw\": [10.0, 20.0, 30.0]}},"
	"  {\"seq\": 1, \"job\": \"hb\", \"workload\": \"messaging\","
	"   \"params\": null, \"sweep_keys\": \"groups\", \"sweep\": \"8\","
	"   \"status\": \"failed\", \"reason\": \"killed\","
	"   \"parameters\": {}, \"iterations\": 0, \"samples\": {}}"
	" ]}";

static json_t *load_doc(void)
{
	json_error_t err;
	json_t *doc = json_loads(doc_text, 0, &err);

	if (!doc)
		fail_msg("doc_text: %d: %s", err.line, err.text);
	assert_int_equal(export_validate(doc, "doc"), 0);
	return doc;
}

static void test_from_export_fields(void **state)
{
	json_t *doc = load_doc();
	struct run r;
	const struct run_case *c;
	int t, rate, csw;

	(void)state;
	assert_int_equal(run_from_export(doc, "doc", &r), 0);
	json_decref(doc);
	assert_int_equal(r.id, -1);
	assert_string_equal(r.uuid, "11111111-2222-4333-8444-555555555555");
	assert_string_equal(r.label, "base");
	assert_null(r.host);
	assert_string_equal(r.status, "partial");
	assert_string_equal(r.command, "schedlab run x");
	assert_string_equal(r.ab, "11111111-2222-4333-8444-000000000000");
	assert_string_equal(r.variant, "base");
	assert_true(r.started == 100.5 && r.ended == 160.25);
	assert_true(r.busy_at_start == 2.5);
	assert_string_equal(json_string_value(json_object_get(r.environment,
							      "kernel")), "6.1");

	assert_int_equal(r.nmetrics, 3);
	t = run_metric(&r, "messaging.time");
	rate = run_metric(&r, "messaging.rate");
	csw = run_metric(&r, "sched.csw");
	assert_int_equal(t, 0);
	assert_int_equal(rate, 1);
	assert_int_equal(csw, 2);
	assert_int_equal(run_metric(&r, "nope"), -1);
	assert_string_equal(r.metrics[rate].unit, "msgs/s");
	assert_int_equal(r.metrics[rate].better, BETTER_HIGHER);
	assert_int_equal(r.metrics[csw].better, BETTER_NONE);
	assert_true(r.metrics[t].headline);
	assert_int_equal(run_headline(&r, "messaging"), t);
	assert_int_equal(run_headline(&r, "messagin"), -1);
	assert_int_equal(run_headline(&r, "sched"), -1);

	assert_int_equal(r.ncases, 2);
	c = &r.cases[0];
	assert_int_equal(c->seq, 0);
	assert_string_equal(c->job, "hb");
	assert_string_equal(c->workload, "messaging");
	assert_int_equal(c->version, 2);
	assert_string_equal(c->params, "groups=4");
	assert_string_equal(c->sweep_keys, "groups");
	assert_string_equal(c->sweep, "4");
	assert_true(c->complete);
	assert_null(c->reason);
	assert_int_equal(c->nparam, 3);
	assert_string_equal(c->param[0].name, "groups");
	assert_string_equal(c->param[0].value, "4");
	assert_string_equal(c->param[1].value, "pipe");
	assert_string_equal(c->param[2].value, "0.5");
	assert_string_equal(run_setting(c, "cpus"), "0-1");
	assert_null(run_setting(c, "probes"));
	assert_int_equal(c->niter, 3);
	assert_int_equal(c->nseries, 2);
	assert_int_equal(c->by_metric[rate], -1);
	assert_null(run_series_of(c, rate));
	assert_null(run_series_of(c, -1));
	assert_true(run_series_of(c, t)->x[0] == 1.5);
	assert_true(isnan(run_series_of(c, t)->x[1]));
	assert_true(run_series_of(c, csw)->x[2] == 30.0);
	assert_null(c->latency);
	{
		double x[3];

		assert_int_equal(run_samples(c, t, x), 2);
		assert_true(x[0] == 1.5 && x[1] == 2.5);
		assert_int_equal(run_samples(c, rate, x), 0);
	}

	c = &r.cases[1];
	assert_int_equal(c->version, 1);	/* absent: 1 */
	assert_int_equal(c->nsetting, 0);	/* absent: none */
	assert_null(run_setting(c, "cpus"));
	assert_string_equal(c->params, "");	/* null */
	assert_false(c->complete);
	assert_string_equal(c->reason, "killed");
	assert_int_equal(c->niter, 0);
	assert_int_equal(c->nseries, 0);
	assert_null(run_series_of(c, t));
	run_free(&r);
}

static char *dump(json_t *doc)
{
	char *s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			     JSON_REAL_PRECISION(17));

	assert_non_null(s);
	return s;
}

/* What cases[1] reads as: version 1, no settings, members in order. */
static const char case1_text[] =
	"{\"seq\": 1, \"job\": \"hb\", \"workload\": \"messaging\","
	" \"version\": 1, \"params\": null, \"sweep_keys\": \"groups\","
	" \"sweep\": \"8\", \"status\": \"failed\", \"reason\": \"killed\","
	" \"parameters\": {}, \"settings\": {}, \"iterations\": 0,"
	" \"samples\": {}}";

/* Back to the same document, byte for byte once dumped. */
static void test_to_export_same_document(void **state)
{
	json_t *doc = load_doc(), *back;
	struct run r;
	char *want, *got;

	(void)state;
	assert_int_equal(run_from_export(doc, "doc", &r), 0);
	json_array_set_new(json_object_get(doc, "cases"), 1,
			   json_loads(case1_text, 0, NULL));
	want = dump(doc);
	back = run_to_export(&r);
	got = dump(back);
	assert_string_equal(got, want);
	assert_int_equal(export_validate(back, "back"), 0);
	free(got);
	free(want);
	json_decref(back);
	run_free(&r);

	/* a document from before the A/B link: a run made alone, whose
	 * export says so with nulls */
	json_object_del(json_object_get(doc, "run"), "ab");
	json_object_del(json_object_get(doc, "run"), "variant");
	assert_int_equal(export_validate(doc, "old"), 0);
	assert_int_equal(run_from_export(doc, "old", &r), 0);
	assert_null(r.ab);
	assert_null(r.variant);
	back = run_to_export(&r);
	assert_true(json_is_null(json_object_get(json_object_get(back, "run"), "ab")));
	assert_true(json_is_null(json_object_get(json_object_get(back, "run"), "variant")));
	json_decref(back);
	json_decref(doc);
	run_free(&r);
}

static void test_histograms(void **state)
{
	static struct hist h;
	json_t *doc = load_doc(), *c0, *arr, *hs, *back;
	struct run r;

	(void)state;
	hist_init(&h);
	hist_record(&h, 1000);
	hist_record(&h, 5000);
	c0 = json_array_get(json_object_get(doc, "cases"), 0);
	arr = json_array();
	json_array_append_new(arr, hist_to_json(&h));
	json_array_append_new(arr, json_null());
	json_array_append_new(arr, hist_to_json(&h));
	hs = json_object();
	json_object_set_new(hs, "latency", arr);
	json_object_set_new(c0, "histograms", hs);
	assert_int_equal(export_validate(doc, "doc"), 0);
	assert_int_equal(run_from_export(doc, "doc", &r), 0);
	assert_non_null(r.cases[0].latency);
	assert_int_equal(hist_count(r.cases[0].latency[0]), 2);
	assert_null(r.cases[0].latency[1]);
	assert_int_equal(hist_max(r.cases[0].latency[2]), 5000);
	assert_null(r.cases[1].latency);
	back = run_to_export(&r);
	assert_true(json_equal(json_object_get(json_array_get(
		json_object_get(back, "cases"), 0), "histograms"), hs));
	assert_null(json_object_get(json_array_get(json_object_get(back, "cases"),
						   1), "histograms"));
	json_decref(back);
	run_free(&r);

	/* a damaged one is refused, naming where */
	json_object_set_new(json_array_get(arr, 0), "scheme", json_string("x"));
	capture();
	assert_int_equal(run_from_export(doc, "doc", &r), -1);
	captured();
	assert_said("doc: cases[0].histograms.latency[0]");
	json_decref(doc);
}

static void test_from_export_refusals(void **state)
{
	json_t *doc = load_doc(), *c0;
	struct run r;

	(void)state;
	c0 = json_array_get(json_object_get(doc, "cases"), 0);
	json_object_set_new(c0, "version", json_integer(0));
	capture();
	assert_int_equal(run_from_export(doc, "doc", &r), -1);
	captured();
	assert_said("doc: cases[0].version: expected an integer from 1");
	assert_null(r.cases);

	json_object_set_new(c0, "version", json_integer(1));
	json_object_set_new(c0, "settings", json_pack("{s:i}", "cpus", 2));
	capture();
	assert_int_equal(run_from_export(doc, "doc", &r), -1);
	captured();
	assert_said("doc: cases[0].settings.cpus: expected a string");
	json_decref(doc);
}

/* run_load: a file, "-" is not tried here, an id and a label in a database. */
static void test_load(void **state)
{
	json_t *doc = load_doc();
	struct store *st;
	struct run r;
	int64_t id;
	char spec[32];
	FILE *f;

	(void)state;
	f = fopen(path("run.json"), "w");
	assert_non_null(f);
	assert_int_equal(export_dump(doc, f), 0);
	fclose(f);
	assert_int_equal(run_load(path("run.json"), path("none.db"), &r), 0);
	assert_int_equal(r.id, -1);
	assert_int_equal(r.ncases, 2);
	assert_true(isnan(run_series_of(&r.cases[0], 0)->x[1]));
	run_free(&r);

	capture();
	assert_int_equal(run_load("base", path("none.db"), &r), -1);
	captured();
	assert_said("no run 'base': no database at ");

	st = store_open(path("a.db"));
	assert_non_null(st);
	assert_int_equal(store_import(st, doc, "doc", &id), 0);
	store_close(st);
	snprintf(spec, sizeof(spec), "%lld", (long long)id);
	assert_int_equal(run_load(spec, path("a.db"), &r), 0);
	assert_int_equal(r.id, id);
	assert_string_equal(r.label, "base");
	assert_int_equal(r.ncases, 2);
	assert_string_equal(r.cases[0].sweep, "4");
	assert_true(run_series_of(&r.cases[0], 0)->x[2] == 2.5);
	assert_true(isnan(run_series_of(&r.cases[0], 0)->x[1]));
	assert_string_equal(r.cases[1].reason, "killed");
	run_free(&r);
	assert_int_equal(run_load("base", path("a.db"), &r), 0);
	assert_int_equal(r.id, id);
	run_free(&r);

	capture();
	assert_int_equal(run_load("other", path("a.db"), &r), -1);
	captured();
	assert_said("no run 'other' in ");

	f = fopen(path("bad.json"), "w");
	fputs("{\"schema\": \"schedlab-run/1\"}\n", f);
	fclose(f);
	capture();
	assert_int_equal(run_load(path("bad.json"), NULL, &r), -1);
	captured();
	assert_said("bad.json: run: missing");
	json_decref(doc);
}

static const struct metric_def mdefs[] = {
	{ "messaging.time", "s", BETTER_LOWER, true, "time" },
	{ "messaging.rate", "msgs/s", BETTER_HIGHER, false, "rate" },
	{ "cpu.idle_pct", "%", BETTER_NONE, false, "idle" },
};

/*
 * store_load() gives the run store_export() + run_from_export() give,
 * and run_to_export() writes store_export()'s bytes back: a run with a
 * null sample, a value that needs 17 digits, histograms, a failed case
 * with null strings, a non-UTF-8 command line, a version and settings
 * (schema 3).
 */
static void test_store_load_is_the_export(void **state)
{
	static struct hist h;
	static const double values[] = {	/* 3 rows x 3 metrics */
		0.1, 123456789.123456789, NAN,
		NAN, 1e-300, NAN,
		2.0 / 3.0, 5, NAN,
	};
	struct hist *lat[3] = { &h, NULL, &h };
	struct store *st = store_open(path("load.db"));
	json_t *env = json_pack("{s:s, s:{s:f}}", "kernel", "6.1",
				"busy_at_start", "value", 7.25);
	json_t *parameters = json_pack("{s:i, s:s, s:b, s:f}", "groups", 4,
				       "ipc", "pipe", "threads", 0, "w", 0.1);
	json_t *settings = json_pack("{s:s, s:s}", "cpus", "0-1",
				     "probes", "off");
	struct store_run sr = {
		.uuid = "0b8c1f0e-0000-4000-8000-000000000009", .label = "b",
		.host = "box", .command = "schedlab run \xff\xfe",
		.version = "0.1", .started = 1700000000.123456789,
		.environment = env, .ab = "ab-2", .variant = "n7",
	};
	struct store_case ok = {
		.seq = 0, .job = "hb", .workload = "messaging", .version = 3,
		.settings = settings,
		.params = "groups=4", .sweep_keys = "groups", .sweep = "4",
		.status = "complete", .parameters = parameters,
		.metrics = mdefs, .nmetrics = 3, .niter = 3, .values = values,
		.latency = lat,
	};
	struct store_case failed = {
		.seq = 1, .job = "hb", .workload = "messaging",
		.status = "failed", .reason = "killed", .metrics = mdefs,
		.nmetrics = 1, .niter = 0,
	};
	struct run a, b;
	json_t *doc, *back;
	char *want, *got;
	int64_t id;

	(void)state;
	assert_non_null(st);
	hist_init(&h);
	hist_record(&h, 700);
	hist_record(&h, 90000);
	assert_int_equal(store_run_begin(st, &sr, &id), 0);
	assert_int_equal(store_case_add(st, id, &ok), 0);
	assert_int_equal(store_case_add(st, id, &failed), 0);
	assert_int_equal(store_run_end(st, id, "partial", 1700000100.5, NULL), 0);

	doc = store_export(st, id);
	assert_non_null(doc);
	want = dump(doc);
	assert_int_equal(store_load(st, id, &a), 0);
	assert_int_equal(a.id, id);
	assert_true(a.busy_at_start == 7.25);
	assert_string_equal(a.command, "schedlab run ??");
	assert_string_equal(a.ab, "ab-2");
	assert_string_equal(a.variant, "n7");
	assert_int_equal(a.cases[0].version, 3);
	assert_int_equal(a.cases[0].nsetting, 2);
	assert_string_equal(run_setting(&a.cases[0], "cpus"), "0-1");
	assert_string_equal(run_setting(&a.cases[0], "probes"), "off");
	assert_int_equal(a.cases[1].version, 1);
	assert_int_equal(a.cases[1].nsetting, 0);
	assert_int_equal(a.cases[1].nulls, RUN_NULL_PARAMS |
			 RUN_NULL_SWEEP_KEYS | RUN_NULL_SWEEP);
	assert_non_null(a.cases[0].latency);
	assert_null(a.cases[0].latency[1]);
	assert_int_equal(hist_max(a.cases[0].latency[2]), 90000);
	assert_true(isnan(run_series_of(&a.cases[0], 0)->x[1]));
	assert_null(run_series_of(&a.cases[0], 2));
	back = run_to_export(&a);
	got = dump(back);
	assert_string_equal(got, want);
	json_decref(back);
	free(got);

	assert_int_equal(run_from_export(doc, "doc", &b), 0);
	back = run_to_export(&b);
	got = dump(back);
	assert_string_equal(got, want);
	json_decref(back);
	free(got);
	run_free(&b);
	run_free(&a);

	capture();
	assert_int_equal(store_load(st, id + 1, &a), -1);
	captured();
	assert_said("no run ");
	assert_null(a.cases);

	free(want);
	json_decref(doc);
	json_decref(env);
	json_decref(parameters);
	json_decref(settings);
	store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_from_export_fields),
		cmocka_unit_test(test_to_export_same_document),
		cmocka_unit_test(test_histograms),
		cmocka_unit_test(test_from_export_refusals),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_store_load_is_the_export),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
