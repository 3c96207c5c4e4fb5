// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workloads' text formats (the formats member of struct workload):
 * every table is well formed, and the formats that moved beside their
 * workloads print what the reference tools print, byte for byte.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness/runner.h"
#include "workload/command.h"
#include "workload/registry.h"
#include "workload/wakeup.h"

static char *buf;
static size_t len;

static FILE *capture(void)
{
	free(buf);
	buf = NULL;
	return open_memstream(&buf, &len);
}

/* Names unique and not json (bench adds it), help, something to print. */
static void test_tables_well_formed(void **state)
{
	(void)state;
	for (size_t i = 0; workloads[i]; i++) {
		const struct workload *wl = workloads[i];
		const struct text_format *tf = wl->formats;

		if (!tf)
			continue;	/* JSON only */
		assert_non_null(tf->name);
		assert_ptr_equal(wl_format_find(wl, NULL), tf);
		for (; tf->name; tf++) {
			assert_string_not_equal(tf->name, "json");
			assert_non_null(tf->help);
			assert_true(tf->result || tf->summary);
			assert_ptr_equal(wl_format_find(wl, tf->name), tf);
		}
	}
	assert_string_equal(wl_format_find(&wl_rr, NULL)->name, "netperf");
	assert_null(wl_format_find(&wl_messaging, "json"));
}

/* A case_result of command with rows {time, user, sys}. */
static void command_case(struct case_result *r, const double (*rows)[3],
			 size_t n)
{
	memset(r, 0, sizeof(*r));
	metric_cols_init(&r->cols, &wl_command);
	r->niter = n;
	r->values = calloc(n * r->cols.n, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		r->values[i * r->cols.n + CMD_TIME] = rows[i][0];
		r->values[i * r->cols.n + CMD_USER] = rows[i][1];
		r->values[i * r->cols.n + CMD_SYS] = rows[i][2];
	}
}

/*
 * perf stat's block: the command's words as it names them (no quotes),
 * mean +- the standard error with two digits past the error's first
 * significant one: sd(1.0, 1.1, 1.2) = 0.1, / sqrt(3) = 0.0577.
 */
static void test_perf_stat_block(void **state)
{
	static const double three[][3] = { { 1.0 }, { 1.1 }, { 1.2 } };
	static const double one[][3] = { { 0.5, 0.25, 0.125 } };
	const struct text_format *tf = wl_format_find(&wl_command, NULL);
	struct command_cfg c = { .argv = "sh -c 'echo a'" };
	struct case_result r;
	FILE *f;

	(void)state;
	assert_string_equal(tf->name, "perf-stat");
	assert_non_null(tf->summary);
	command_case(&r, three, 3);
	f = capture();
	tf->summary(f, &c, &(struct wl_rows){ r.values, r.niter, r.cols.n });
	fclose(f);
	assert_string_equal(buf,
		"\n Performance counter stats for 'sh -c echo a' (3 runs):\n\n"
		"            1.1000 +- 0.0577 seconds time elapsed  ( +-  5.25% )\n\n");
	free(r.values);
	metric_cols_free(&r.cols);

	command_case(&r, one, 1);
	f = capture();
	tf->summary(f, &c, &(struct wl_rows){ r.values, r.niter, r.cols.n });
	fclose(f);
	assert_string_equal(buf,
		"\n Performance counter stats for 'sh -c echo a':\n\n"
		"       0.500000000 seconds time elapsed\n\n"
		"       0.250000000 seconds user\n"
		"       0.125000000 seconds sys\n\n");
	free(r.values);
	metric_cols_free(&r.cols);
}

/* schbench's wakeup block from its metric layout; no block when not recorded. */
static void test_schbench_blocks(void **state)
{
	const struct text_format *tf = wl_format_find(&wl_wakeup, NULL);
	struct wakeup_cfg c;
	struct wl_result r = { 0 };
	FILE *f;

	(void)state;
	opts_defaults(wl_wakeup.options, &c);
	c.runtime = 10;
	assert_string_equal(tf->name, "schbench");
	assert_null(tf->header);	/* schbench prints nothing before */
	wl_set(&r, WK_RPS_AVG, 12.5);
	f = capture();
	tf->result(f, &c, &r);
	fclose(f);
	assert_string_equal(buf, "average rps: 12.50\n");

	for (int i = 0; i < WK_NPCT; i++) {
		wl_set(&r, WK_WAKE_P + i, 5 + i);
		wl_set(&r, WK_WAKE_LINE_N + i, 1 + i);
	}
	wl_set(&r, WK_WAKE_MIN, 2);
	wl_set(&r, WK_WAKE_MAX, 9);
	wl_set(&r, WK_WAKE_N, 10);
	f = capture();
	tf->result(f, &c, &r);
	fclose(f);
	assert_string_equal(buf,
		"Wakeup Latencies percentiles (usec) runtime 10 (s) (10 total samples)\n"
		"\t  50.0th: 5          (1 samples)\n"
		"\t  90.0th: 6          (2 samples)\n"
		"\t* 99.0th: 7          (3 samples)\n"
		"\t  99.9th: 8          (4 samples)\n"
		"\t  min=2, max=9\n"
		"average rps: 12.50\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_well_formed),
		cmocka_unit_test(test_perf_stat_block),
		cmocka_unit_test(test_schbench_blocks),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	free(buf);
	return rc;
}
