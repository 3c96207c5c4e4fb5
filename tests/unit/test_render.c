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

#include "report/render.h"
#include "workload/messaging.h"
#include "workload/pipe.h"
#include "workload/registry.h"

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
	struct run_outcome out = { 0 };
	json_t *doc, *m;
	json_error_t jerr;
	FILE *f;

	(void)state;
	opts_defaults(wl_pipe.options, &c);
	c.ordering = PIPE_TWO_TOKENS;
	wl_set(&out.result, PIPE_TIME, 1.5);
	wl_set(&out.result, PIPE_USECS_PER_OP, 1.5);
	wl_set(&out.result, PIPE_OPS_PER_SEC, 666666.7);
	out.maxrss_kib = 1234;
	f = capture();
	assert_int_equal(render_json(f, &wl_pipe, &c, &out), 0);
	fclose(f);
	doc = json_loads(buf, 0, &jerr);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")),
			    BENCH_SCHEMA);
	assert_string_equal(json_string_value(json_object_get(doc, "status")), "ok");
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(doc, "parameters"), "ordering")), "two-tokens");
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(doc, "parameters"), "loops")), 1000000);
	m = json_object_get(json_object_get(doc, "metrics"), "pipe.usecs_per_op");
	assert_non_null(m);
	assert_true(json_real_value(json_object_get(m, "value")) == 1.5);
	assert_string_equal(json_string_value(json_object_get(m, "unit")), "us");
	assert_string_equal(json_string_value(json_object_get(m, "better")), "lower");
	assert_true(json_is_true(json_object_get(m, "headline")));
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(doc, "process"), "maxrss_kib")), 1234);
	json_decref(doc);
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
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	free(buf);
	return rc;
}
