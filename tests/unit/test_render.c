// SPDX-License-Identifier: GPL-2.0-only
/* Renderers: the reference tools' lines, byte for byte, and JSON. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>
#include <math.h>

#include "probe/probe.h"
#include "report/render.h"
#include "workload/messaging.h"
#include "workload/pipe.h"
#include "workload/registry.h"
#include "workload/text.h"

static char *buf;
static size_t len;

static FILE *capture(void)
{
	free(buf);
	buf = NULL;
	return open_memstream(&buf, &len);
}

static void test_seconds_truncate_like_timeval(void **state)
{
	static const struct { double s; const char *want; } cases[] = {
		{ 0.6629, "0.662" }, { 0.0009999, "0.000" }, { 1.0, "1.000" },
		{ 12.3456789, "12.345" }, { 0.001, "0.001" },
		{ 3599.9995, "3599.999" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = capture();

		print_secs_ms(f, cases[i].s);
		fclose(f);
		assert_string_equal(buf, cases[i].want);
	}
}

static void test_hackbench_lines(void **state)
{
	struct messaging_cfg c;
	struct wl_result r = { 0 };
	const struct text_format *tf = text_format_find("messaging", NULL);
	FILE *f;

	(void)state;
	opts_defaults(wl_messaging.options, &c);
	assert_string_equal(tf->name, "hackbench");
	wl_set(&r, MSG_TIME, 0.6625);
	f = capture();
	tf->header(f, &c);
	tf->result(f, &c, &r);
	fclose(f);
	assert_string_equal(buf,
		"Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n"
		"Each sender will pass 100 messages of 100 bytes\n"
		"Time: 0.662\n");

	c.mode = MSG_THREAD;
	c.groups = 4;
	c.fds = 5;
	c.loops = 1000;
	f = capture();
	tf->header(f, &c);
	fclose(f);
	assert_string_equal(buf,
		"Running in threaded mode with 4 groups using 10 file descriptors each (== 40 tasks)\n"
		"Each sender will pass 1000 messages of 100 bytes\n");
}

static void test_perf_messaging_block(void **state)
{
	struct messaging_cfg c;
	struct wl_result r = { 0 };
	const struct text_format *tf = text_format_find("messaging", "perf");
	FILE *f;

	(void)state;
	opts_defaults(wl_messaging.options, &c);
	wl_set(&r, MSG_TIME, 0.7129);
	f = capture();
	tf->header(f, &c);
	tf->result(f, &c, &r);
	fclose(f);
	assert_string_equal(buf,
		"# Running 'sched/messaging' benchmark:\n"
		"# 20 sender and receiver processes per group\n"
		"# 10 groups == 400 processes run\n"
		"\n"
		"     Total time: 0.712 [sec]\n");
}

static void test_perf_pipe_block(void **state)
{
	struct pipe_cfg c;
	struct wl_result r = { 0 };
	const struct text_format *tf = text_format_find("pipe", NULL);
	FILE *f;

	(void)state;
	opts_defaults(wl_pipe.options, &c);
	c.loops = 100000;
	wl_set(&r, PIPE_TIME, 2.96709200);
	wl_set(&r, PIPE_USECS_PER_OP, 29.670920);
	wl_set(&r, PIPE_OPS_PER_SEC, 33703.9);
	f = capture();
	tf->header(f, &c);
	tf->result(f, &c, &r);
	fclose(f);
	assert_string_equal(buf,
		"# Running 'sched/pipe' benchmark:\n"
		"# Loop ordering: one-token (as perf up to Linux 6.14)\n"
		"# Executed 100000 pipe operations between two processes\n"
		"\n"
		"     Total time: 2.967 [sec]\n"
		"\n"
		"      29.670920 usecs/op\n"
		"          33703 ops/sec\n");

	c.mode = PIPE_THREAD;
	c.ordering = PIPE_TWO_TOKENS;
	f = capture();
	tf->header(f, &c);
	fclose(f);
	assert_non_null(strstr(buf, "two-tokens (as perf since Linux 6.15)"));
	assert_non_null(strstr(buf, "between two threads"));
}

static void test_formats_per_workload(void **state)
{
	const struct text_format *tf[8];

	(void)state;
	assert_int_equal(text_formats("messaging", tf, 8), 2);
	assert_int_equal(text_formats("pipe", tf, 8), 1);
	assert_null(text_format_find("pipe", "hackbench"));
	assert_int_equal(text_formats("nope", tf, 8), 0);
}

static void test_json_carries_everything(void **state)
{
	struct pipe_cfg c;
	struct case_result r = { 0 };
	json_t *doc, *m, *s;
	json_error_t jerr;
	FILE *f;

	(void)state;
	opts_defaults(wl_pipe.options, &c);
	c.ordering = PIPE_TWO_TOKENS;
	metric_cols_init(&r.cols, &wl_pipe);
	r.niter = 2;
	r.values = calloc(2 * r.cols.n, sizeof(double));
	/* two runs: usecs/op 1.0 and 2.0; maxrss 1000 and 1234 */
	r.values[PIPE_USECS_PER_OP] = 1.0;
	r.values[r.cols.n + PIPE_USECS_PER_OP] = 2.0;
	for (size_t i = 0; i < r.cols.n; i++)
		if (!strcmp(r.cols.def[i].name, "process.maxrss_kib")) {
			r.values[i] = 1000;
			r.values[r.cols.n + i] = 1234;
		}
	f = capture();
	assert_int_equal(render_json(f, &wl_pipe, &c, &r), 0);
	fclose(f);
	doc = json_loads(buf, 0, &jerr);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")),
			    BENCH_SCHEMA);
	assert_string_equal(json_string_value(json_object_get(doc, "status")), "ok");
	assert_int_equal(json_integer_value(json_object_get(doc, "runs")), 2);
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(doc, "parameters"), "ordering")), "two-tokens");
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(doc, "parameters"), "loops")), 1000000);
	m = json_object_get(json_object_get(doc, "metrics"), "pipe.usecs_per_op");
	assert_non_null(m);
	/* value is the mean, stddev the sample one: sd(1, 2) = 0.7071... */
	assert_true(json_real_value(json_object_get(m, "value")) == 1.5);
	assert_true(fabs(json_real_value(json_object_get(m, "stddev")) -
			 0.70710678118654757) < 1e-12);
	s = json_object_get(m, "samples");
	assert_int_equal(json_array_size(s), 2);
	assert_true(json_real_value(json_array_get(s, 1)) == 2.0);
	assert_string_equal(json_string_value(json_object_get(m, "unit")), "us");
	assert_string_equal(json_string_value(json_object_get(m, "better")), "lower");
	assert_true(json_is_true(json_object_get(m, "headline")));
	assert_true(json_real_value(json_object_get(
		json_object_get(doc, "process"), "maxrss_kib")) == 1117);
	json_decref(doc);
	free(r.values);
	metric_cols_free(&r.cols);
}

static void test_repeat_footer_like_perf_stat(void **state)
{
	struct case_result r = { 0 };

	(void)state;
	metric_cols_init(&r.cols, &wl_messaging);
	r.niter = 4;
	r.values = calloc(4 * r.cols.n, sizeof(double));
	/* times 1, 2, 3, 4: mean 2.5, sd 1.2910, sem 0.6455 = 25.82% */
	for (size_t i = 0; i < 4; i++) {
		r.values[i * r.cols.n + MSG_TIME] = (double)(i + 1);
		r.values[i * r.cols.n + MSG_RATE] = 100.0;
	}
	FILE *f = capture();
	render_repeat_summary(f, &r);
	fclose(f);
	assert_non_null(strstr(buf,
		"          2.500000 +- 0.645497 s messaging.time  ( +- 25.82% )\n"));
	assert_non_null(strstr(buf,
		"        100.000000 +- 0.000000 msgs/s messaging.msgs_per_sec  ( +-  0.00% )\n"));
	assert_non_null(strstr(buf, "4 runs"));
	free(r.values);
	metric_cols_free(&r.cols);
}

/* The explanation line: wait over CPU time past 100% reads as a ratio. */
static void test_explain_wait_reads_right(void **state)
{
	static const struct { double pct; const char *want; } cases[] = {
		{ 1503.6, "  4: run-queue wait 1573.3 us/switch, waited 15.0x its CPU time\n" },
		{ 100.0, "  4: run-queue wait 1573.3 us/switch, waited 1.0x its CPU time\n" },
		{ 8.14, "  4: run-queue wait 1573.3 us/switch, waited 8.1% of its CPU time\n" },
	};
	double pm[PM_N];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = capture();

		for (size_t k = 0; k < PM_N; k++)
			pm[k] = NAN;
		pm[PM_WAIT_PER_SLICE_US] = 1573.3;
		pm[PM_WAIT_PCT] = cases[i].pct;
		render_explain(f, "4", "messages", pm);
		fclose(f);
		assert_string_equal(buf, cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seconds_truncate_like_timeval),
		cmocka_unit_test(test_hackbench_lines),
		cmocka_unit_test(test_perf_messaging_block),
		cmocka_unit_test(test_perf_pipe_block),
		cmocka_unit_test(test_formats_per_workload),
		cmocka_unit_test(test_json_carries_everything),
		cmocka_unit_test(test_repeat_footer_like_perf_stat),
		cmocka_unit_test(test_explain_wait_reads_right),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	free(buf);
	return rc;
}
