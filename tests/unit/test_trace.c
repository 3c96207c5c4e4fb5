// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace: the trace keys as a job file or --trace gives them, and perf
 * sched latency's table into trace.sched.* metrics (trace/trace.h). The
 * tracers as processes are tests/integration/test_trace.sh's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "trace/trace.h"

static void test_parse(void **state)
{
	char err[256], big[TRACE_CMD_MAX + 2];
	bool on;

	(void)state;
	assert_int_equal(trace_parse("none", &on, err, sizeof(err)), 0);
	assert_false(on);
	assert_int_equal(trace_parse("", &on, err, sizeof(err)), 0);
	assert_false(on);
	assert_int_equal(trace_parse("perf-sched", &on, err, sizeof(err)), 0);
	assert_true(on);
	assert_int_equal(trace_parse("trace-cmd record -e sched_switch", &on,
				     err, sizeof(err)), 0);
	assert_true(on);
	assert_int_equal(trace_parse("  ", &on, err, sizeof(err)), -1);
	assert_int_equal(trace_parse("a\nb", &on, err, sizeof(err)), -1);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(trace_parse(big, &on, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "too long"));

	assert_int_equal(trace_parse_tasks("schedlab", err, sizeof(err)), 0);
	assert_int_equal(trace_parse_tasks("sysbench, hackbench", err, sizeof(err)), 0);
	assert_int_equal(trace_parse_tasks("other", err, sizeof(err)), -1);
	assert_int_equal(trace_parse_tasks("a-name-of-16-chr", err, sizeof(err)), -1);
	assert_int_equal(trace_parse_tasks("", err, sizeof(err)), -1);
	assert_int_equal(trace_parse_tasks("a,b,c,d,e,f,g,h,i", err, sizeof(err)), -1);
}

static const char table[] =
	"\n"
	" ----------------------------------------------------------------\n"
	"  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms    | Max delay start           | Max delay end          |\n"
	" ----------------------------------------------------------------\n"
	"  schedlab:(40)         |     30.000 ms |      600 | avg:   0.100 ms | max:   7.900 ms | max start: 11863.069801 s | max end: 11863.077744 s\n"
	"  memfd:sealed-91:1675  |      0.200 ms |        2 | avg:   1.000 ms | max:   1.500 ms | max start: 11862.878497 s | max end: 11862.879847 s\n"
	"  perf:15456            |      0.300 ms |        2 | avg:   3.000 ms | max:   9.000 ms | max start: 11862.878497 s | max end: 11862.879847 s\n"
	"  sleep:15487           |      2.000 ms |        1 | avg:   0.000 ms | max:   0.000 ms | max start:     0.000000 s | max end:     0.000000 s\n"
	" ----------------------------------------------------------------\n"
	"  TOTAL:                |     32.500 ms |      605 |\n"
	" ---------------------------------------------------\n"
	"  INFO: 66.316% context switch bugs (63 out of 95)\n";

static void test_latency_table(void **state)
{
	struct trace_hook t;
	struct trace_spec spec = { .trace = TRACE_PERF_SCHED, .tasks = "schedlab,memfd:sealed-91",
				   .root = "/nonexistent", .seq = 1 };
	double out[64];

	(void)state;
	trace_open(&t, &spec);
	/* overall, schedlab, memfd:sealed-91, other: 4 fields each */
	assert_int_equal(t.nmetrics, 16);
	assert_string_equal(t.metrics[0].name, "trace.sched.switches");
	assert_string_equal(t.metrics[3].name, "trace.sched.delay_max_ms");
	assert_string_equal(t.metrics[7].name, "trace.sched.schedlab.delay_max_ms");
	assert_string_equal(t.metrics[8].name, "trace.sched.memfd_sealed-91.switches");
	assert_string_equal(t.metrics[15].name, "trace.sched.other.delay_max_ms");
	assert_int_equal(trace_perf_parse(&t, table, out), 0);
	assert_float_equal(out[0], 605, 1e-9);
	assert_float_equal(out[1], 32.5, 1e-9);
	/* (600 * 0.1 + 2 * 1 + 2 * 3 + 0) / 605 */
	assert_float_equal(out[2], 68.0 / 605, 1e-9);
	assert_float_equal(out[3], 9.0, 1e-9);
	assert_float_equal(out[4], 600, 1e-9);
	assert_float_equal(out[6], 0.1, 1e-9);
	assert_float_equal(out[7], 7.9, 1e-9);
	assert_float_equal(out[8], 2, 1e-9);
	assert_float_equal(out[11], 1.5, 1e-9);
	assert_float_equal(out[12], 3, 1e-9);		/* other: perf, sleep */
	assert_float_equal(out[14], 6.0 / 3, 1e-9);
	assert_float_equal(out[15], 9.0, 1e-9);
	assert_int_equal(trace_perf_parse(&t, "no table here\n", out), -1);
	assert_true(isnan(out[0]));
	trace_close(&t);
}

static void test_perf_argv(void **state)
{
	char **argv = trace_perf_argv("/d");

	(void)state;
	assert_string_equal(argv[0], "perf");
	assert_string_equal(argv[1], "sched");
	assert_string_equal(argv[2], "record");
	assert_string_equal(argv[5], "/d/perf.data");
	free(argv[5]);
	free(argv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_latency_table),
		cmocka_unit_test(test_perf_argv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
