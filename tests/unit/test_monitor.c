// SPDX-License-Identifier: GPL-2.0-only
/*
 * monitor: the monitors' list and interval as a job file or --monitor
 * gives them, a stored column read back, and rows into summaries and a
 * series (monitor/monitor.h). The monitors on real sources are
 * tests/integration/test_monitor.sh's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "monitor/monitor.h"

static void test_parse_list(void **state)
{
	char err[256], buf[256];
	unsigned m;

	(void)state;
	assert_int_equal(monitor_parse_list("cpu, psi", &m, err, sizeof(err)), 0);
	assert_int_equal(m, MON_BIT(MON_CPU) | MON_BIT(MON_PSI));
	monitor_list_format(m, buf, sizeof(buf));
	assert_string_equal(buf, "cpu,psi");
	assert_int_equal(monitor_parse_list("default", &m, err, sizeof(err)), 0);
	assert_int_equal(m, MON_DEFAULT);
	assert_false(m & MON_BIT(MON_SCHED_DEBUG));
	assert_int_equal(monitor_parse_list("all", &m, err, sizeof(err)), 0);
	assert_int_equal(m, MON_ALL);
	assert_int_equal(monitor_parse_list("none", &m, err, sizeof(err)), 0);
	assert_int_equal(m, 0);
	assert_int_equal(monitor_parse_list("", &m, err, sizeof(err)), 0);
	assert_int_equal(m, 0);
	assert_int_equal(monitor_parse_list("cpu,bogus", &m, err, sizeof(err)), -1);
	assert_string_equal(err, "'bogus' is not a monitor");
	assert_int_equal(monitor_parse_list("cpu,,psi", &m, err, sizeof(err)), -1);
	assert_string_equal(err, "an empty name in 'cpu,,psi'");
	assert_int_equal(monitor_parse_list("cpus", &m, err, sizeof(err)), -1);
}

static void test_parse_interval(void **state)
{
	char err[256];
	unsigned ms;

	(void)state;
	assert_int_equal(monitor_parse_interval("1s", &ms, err, sizeof(err)), 0);
	assert_int_equal(ms, 1000);
	assert_int_equal(monitor_parse_interval("250ms", &ms, err, sizeof(err)), 0);
	assert_int_equal(ms, 250);
	assert_int_equal(monitor_parse_interval("0.5", &ms, err, sizeof(err)), 0);
	assert_int_equal(ms, 500);
	assert_int_equal(monitor_parse_interval("2m", &ms, err, sizeof(err)), 0);
	assert_int_equal(ms, 120000);
	assert_int_equal(monitor_parse_interval("9ms", &ms, err, sizeof(err)), -1);
	assert_string_equal(err, "'9ms' is out of range");
	assert_int_equal(monitor_parse_interval("2h", &ms, err, sizeof(err)), -1);
	assert_int_equal(monitor_parse_interval("soon", &ms, err, sizeof(err)), -1);
	assert_string_equal(err, "'soon' is not a duration");
	assert_int_equal(monitor_parse_interval("1 s", &ms, err, sizeof(err)), -1);
	assert_int_equal(monitor_parse_interval("nan", &ms, err, sizeof(err)), -1);
}

static void test_column_parse(void **state)
{
	double *x;

	(void)state;
	assert_int_equal(monitor_column_parse("1 2.5 - 1e+05", &x), 4);
	assert_true(x[0] == 1 && x[1] == 2.5 && isnan(x[2]) && x[3] == 1e5);
	free(x);
	assert_int_equal(monitor_column_parse("", &x), 0);
	free(x);
	assert_int_equal(monitor_column_parse("1  2", &x), -1);
	assert_null(x);
	assert_int_equal(monitor_column_parse("1 x", &x), -1);
	assert_int_equal(monitor_column_parse("-5 -", &x), 2);
	assert_true(x[0] == -5 && isnan(x[1]));
	free(x);
}

/* Two columns of three rows into summaries and a series, by hand. */
static void test_rows_summaries_and_series(void **state)
{
	struct monitor_set s = { .mask = MON_BIT(MON_RUNQ), .interval_ms = 1000 };
	static const struct monitor_ops none;
	double t[] = { 1, 2, 2.5 }, dt[] = { 1, 1, 0.5 };
	double v[] = { 10, NAN, 20, 1, 40, 2 };	/* rows of (a, b) */
	struct monitor_rows rows = { 3, t, dt, v };
	double out[6];
	json_t *j;
	char *text;

	(void)state;
	s.ops[MON_RUNQ] = &none;
	monitor_col_add(&s, true, "", "a", "a");
	monitor_col_add(&s, true, "", "b", "b");
	s.col0[MON_RUNQ] = 0;
	s.ncol[MON_RUNQ] = 2;
	monitor_summaries(&s, &rows, out);
	/* a: (10 * 1 + 20 * 1 + 40 * 0.5) / 2.5 */
	assert_true(fabs(out[0] - 20) < 1e-9);
	assert_true(out[1] == 40);
	assert_true(fabs(out[2] - 38) < 1e-9);	/* type 7 of 10, 20, 40 */
	/* b: a NaN row left out: (1 * 1 + 2 * 0.5) / 1.5 */
	assert_true(fabs(out[3] - 4.0 / 3) < 1e-9);
	assert_true(out[4] == 2);
	j = monitor_rows_json(&s, &rows);
	text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_string_equal(text, "{\"runq\":{\"interval_ms\":1000,\"t\":\"1.000 2.000 2.500\",\"a\":\"10 20 40\",\"b\":\"- 1 2\"}}");
	free(text);
	json_decref(j);
	free(s.col);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_parse_interval),
		cmocka_unit_test(test_column_parse),
		cmocka_unit_test(test_rows_summaries_and_series),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
