// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job summary `run` and `show` share (report/run_text.h), fed by the
 * run model: a case the harness just measured (run_case_from_result())
 * reads as the same text as that case stored and loaded back
 * (store_case_add() -> store_load()); the explanation line carries the
 * means of the probe metrics; settings go beside the job heading when
 * every case has the same, beside each sweep value when they differ.
 * The values are chosen so the expected means are exact (1, 3 -> 2).
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

#include "harness/plan.h"
#include "harness/runner.h"
#include "harness/result.h"
#include "model/run.h"
#include "probe/probe.h"
#include "report/render.h"
#include "report/run_text.h"
#include "store/store.h"

#define TMPDIR_TAG "runtext"
#include "tmpdir.h"

/* What render_job_text() printed for cases [from, to) of r; to be freed. */
static char *job_text(const struct run *r, size_t from, size_t to)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	render_job_text(f, r, from, to);
	fclose(f);
	return buf;
}

#define assert_has(text, s) do {					\
	if (!strstr((text), (s)))					\
		fail_msg("expected \"%s\" in:\n%s", (s), (text));	\
} while (0)

/*
 * A two-case messaging job (groups = 1,2) of two iterations: the second
 * case failed before its first. Every column gets k + 10 * i + 1 in
 * iteration i, so each case's mean of a column is known.
 */
static void fake_result(const struct plan_case *pc, struct case_result *res,
			bool fail)
{
	memset(res, 0, sizeof(*res));
	metric_cols_init(&res->cols, pc->wl);
	res->niter = fail ? 0 : 2;
	res->values = calloc(res->niter * res->cols.n + 1, sizeof(double));
	assert_non_null(res->values);
	for (size_t i = 0; i < res->niter; i++)
		for (size_t k = 0; k < res->cols.n; k++)
			res->values[i * res->cols.n + k] = (double)(k + 10 * i + 1);
	/* a probe metric never measured: left out, as stored */
	for (size_t i = 0; i < res->niter; i++)
		res->values[i * res->cols.n + res->cols.probe0 + PM_LAT_P99] = NAN;
	res->status = fail ? RUN_FAILED : RUN_OK;
	if (fail)
		snprintf(res->reason, sizeof(res->reason), "worker 3 killed");
}

static void test_run_summary_is_show_summary(void **state)
{
	struct plan plan;
	struct case_result res[2];
	struct run live = { .id = -1 }, stored;
	struct store *st;
	char *a, *b, want[128];
	size_t wait_col = 0;
	int64_t id;
	FILE *f;

	(void)state;
	f = fopen(path("j.job"), "w");
	assert_non_null(f);
	fputs("[msg]\nworkload = messaging\ngroups = 1,2\nloops = 10\niterations = 2\nprobes = on\n", f);
	fclose(f);
	assert_int_equal(plan_load(path("j.job"), &plan), 0);
	assert_int_equal(plan.ncases, 2);

	st = store_open(path("r.db"));
	assert_non_null(st);
	assert_int_equal(store_run_begin(st, &(struct store_run){
		.uuid = "0b8c1f0e-0000-4000-8000-00000000000a",
		.label = "x", .started = 1 }, &id), 0);
	for (size_t i = 0; i < 2; i++) {
		const struct plan_case *pc = &plan.cases[i];
		json_t *params = json_parameters(pc->wl, pc->cfg);
		struct run_case *c;

		fake_result(pc, &res[i], i == 1);
		wait_col = res[i].cols.probe0 + PM_WAIT_PER_SLICE_US;
		c = run_case_from_result(&live, pc, &res[i]);
		assert_ptr_equal(c, &live.cases[i]);
		assert_string_equal(c->sweep, i ? "2" : "1");
		assert_int_equal(c->complete, i == 0);
		assert_int_equal(store_case_add(st, id, &(struct store_case){
			.seq = pc->seq, .job = pc->job, .workload = pc->wl->name,
			.params = pc->params, .sweep_keys = pc->sweep_keys,
			.sweep = pc->sweep, .status = i ? "failed" : "complete",
			.reason = i ? res[i].reason : NULL, .parameters = params,
			.metrics = res[i].cols.def, .nmetrics = res[i].cols.n,
			.niter = res[i].niter, .values = res[i].values }), 0);
		json_decref(params);
		case_result_free(&res[i]);	/* the model holds copies */
	}
	assert_int_equal(store_load(st, id, &stored), 0);
	store_close(st);

	assert_null(run_series_of(&live.cases[0], run_metric(&live,
		probe_metrics[PM_LAT_P99].name)));
	a = job_text(&live, 0, live.ncases);
	b = job_text(&stored, 0, stored.ncases);
	assert_string_equal(a, b);
	assert_has(a, "msg by groups: messaging.time, s (lower is better)\n");
	assert_has(a, "Failed    2    worker 3 killed\n");
	/* the probe means: column k has (k + 1 + k + 11) / 2 = k + 6 */
	snprintf(want, sizeof(want), "  1: run-queue wait %.1f us/switch",
		 (double)(wait_col + 6));
	assert_has(a, want);
	assert_true(a[strlen(a) - 1] == '\n' && a[strlen(a) - 2] == '\n');
	free(a);
	free(b);
	run_free(&stored);
	run_free(&live);
	plan_free(&plan);
}

static const char doc_text[] =
	"{\"schema\": \"schedlab-run/1\","
	" \"run\": {\"uuid\": \"u\", \"label\": null, \"host\": null,"
	"  \"started\": 1, \"ended\": null, \"status\": \"complete\","
	"  \"command\": null, \"schedlab_version\": null},"
	" \"environment\": {},"
	" \"metrics\": {\"pipe.x\": {\"unit\": \"s\", \"better\": \"lower\","
	"  \"headline\": true, \"help\": \"\"}},"
	" \"cases\": ["
	"  {\"seq\": 0, \"job\": \"p\", \"workload\": \"pipe\", \"params\": \"\","
	"   \"sweep_keys\": \"loops\", \"sweep\": \"10\", \"status\": \"complete\","
	"   \"reason\": null, \"parameters\": {}, \"settings\": {\"cpus\": \"0-1\"},"
	"   \"iterations\": 1, \"samples\": {\"pipe.x\": [1.0]}},"
	"  {\"seq\": 1, \"job\": \"p\", \"workload\": \"pipe\", \"params\": \"\","
	"   \"sweep_keys\": \"loops\", \"sweep\": \"20\", \"status\": \"complete\","
	"   \"reason\": null, \"parameters\": {}, \"settings\": {\"cpus\": \"0-1\"},"
	"   \"iterations\": 1, \"samples\": {\"pipe.x\": [2.0]}}"
	" ]}";

static void test_settings_beside_heading_or_sweep(void **state)
{
	json_t *doc = json_loads(doc_text, 0, NULL);
	struct run r;
	char *t;

	(void)state;
	assert_non_null(doc);
	assert_int_equal(export_validate(doc, "doc"), 0);
	assert_int_equal(run_from_export(doc, "doc", &r), 0);
	t = job_text(&r, 0, 2);
	assert_has(t, "p [cpus=0-1] by loops: pipe.x, s (lower is better)\n");
	assert_has(t, "Min       10         1.0000\n");
	free(t);
	run_free(&r);

	json_object_set_new(json_object_get(json_array_get(json_object_get(doc,
		"cases"), 1), "settings"), "cpus", json_string("2-3"));
	assert_int_equal(run_from_export(doc, "doc", &r), 0);
	t = job_text(&r, 0, 2);
	assert_has(t, "p by loops: pipe.x");
	assert_has(t, "Min       10 [cpus=0-1]       1.0000\n");
	assert_has(t, "Min       20 [cpus=2-3]       2.0000\n");
	free(t);
	run_free(&r);
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_summary_is_show_summary),
		cmocka_unit_test(test_settings_beside_heading_or_sweep),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
