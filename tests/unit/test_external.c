// SPDX-License-Identifier: GPL-2.0-only
/*
 * The external workloads' shared code: words split and joined as a
 * shell would, and each tool's parser on the outputs captured from the
 * real tools (tests/fixtures/external/, see its README), plus truncated
 * and unexpected output. The expected numbers are read off the captured
 * text by eye: each is the figure the tool itself printed.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "workload/ext_parse.h"
#include "workload/external.h"
#include "util.h"

static char *load(const char *name)
{
	const char *top = getenv("TOP");
	char path[4096], *buf;
	long n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/fixtures/external/%s",
		 top && *top ? top : ".", name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("%s: cannot open", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The text up to (not including) the first line that contains cut. */
static char *cut_before(const char *text, const char *cut)
{
	const char *p = strstr(text, cut);
	char *s;

	assert_non_null(p);
	while (p > text && p[-1] != '\n')
		p--;
	s = strndup(text, (size_t)(p - text));
	assert_non_null(s);
	return s;
}

static void test_split_join(void **state)
{
	static const char *const words[] = { "sh", "-c", "echo \"$1\" 'x'",
					     "a b", "", "it's", NULL };
	const char *err;
	char *joined = argv_join((char *const *)words, true);
	char **back = ext_split(joined, &err);

	(void)state;
	assert_non_null(back);
	for (int i = 0; words[i]; i++)
		assert_string_equal(back[i], words[i]);
	assert_null(back[6]);
	ext_argv_free(back);
	free(joined);

	back = ext_split("  a\\ b \"c \\\"d\\\"\" 'e\\f'  ", &err);
	assert_non_null(back);
	assert_string_equal(back[0], "a b");
	assert_string_equal(back[1], "c \"d\"");
	assert_string_equal(back[2], "e\\f");
	assert_null(back[3]);
	ext_argv_free(back);

	assert_null(ext_split("a 'b", &err));
	assert_string_equal(err, "a ' is not closed");
	assert_null(ext_split("a \"b", &err));
	assert_null(ext_split("a\\", &err));
	assert_null(ext_split("   ", &err));
	assert_string_equal(err, "it has no words");
}

static void test_dbench(void **state)
{
	char *t = load("dbench.out"), err[256];
	struct dbench_out o;

	(void)state;
	assert_int_equal(parse_dbench(t, &o, err, sizeof(err)), 0);
	assert_true(o.mbps == 218.003);
	assert_true(o.max_latency_ms == 219.033);
	assert_int_equal(o.clients, 2);
	assert_int_equal(o.procs, 2);
	assert_int_equal(o.seconds, 2);
	assert_true(o.last_mbps == 218.00);
	free(t);

	t = load("dbench-warmup.out");
	assert_int_equal(parse_dbench(t, &o, err, sizeof(err)), 0);
	assert_true(o.mbps == 355.649);
	assert_true(o.max_latency_ms == 76.245);
	assert_int_equal(o.clients, 1);
	assert_int_equal(o.seconds, 5);
	free(t);

	t = load("tbench.out");
	assert_int_equal(parse_dbench(t, &o, err, sizeof(err)), 0);
	assert_true(o.mbps == 779.046);
	assert_true(o.max_latency_ms == 1.090);
	free(t);
}

static void test_dbench_bad(void **state)
{
	char *t = load("dbench.out"), *cut, err[256];
	struct dbench_out o;

	(void)state;
	/* killed before its last line */
	cut = cut_before(t, "Throughput");
	assert_int_equal(parse_dbench(cut, &o, err, sizeof(err)), -1);
	assert_string_equal(err, "no 'Throughput' line in its output (its last line: ' Flush           2965     0.839   214.183')");
	free(cut);
	/* a client that never connected, a server that went away */
	free(t);
	t = load("tbench-noserver.out");
	assert_int_equal(parse_dbench(t, &o, err, sizeof(err)), -1);
	free(t);
	/* a client killed mid-run: tbench reports the rest as if all ran */
	t = load("tbench-clientkilled.out");
	assert_int_equal(parse_dbench(t, &o, err, sizeof(err)), -1);
	assert_string_equal(err, "1 of its clients never finished (did one die?): its last cleanup line is '1  cleanup   5 sec'");
	free(t);
	t = load("tbench-srvkilled.out");
	assert_int_equal(parse_dbench(t, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "error reading header"));
	free(t);
	assert_int_equal(parse_dbench("", &o, err, sizeof(err)), -1);
	assert_string_equal(err, "no output, so no 'Throughput' line");
	assert_int_equal(parse_dbench("Throughput lots MB/sec\n", &o, err,
				      sizeof(err)), -1);
	assert_string_equal(err, "cannot parse the line 'Throughput lots MB/sec'");
	assert_int_equal(parse_dbench("Throughput 1.5 MB/sec  2 clients  2 procs  max_latency=\n",
				      &o, err, sizeof(err)), -1);
	assert_int_equal(parse_dbench("Throughput -1 MB/sec  2 clients  2 procs  max_latency=1 ms\n",
				      &o, err, sizeof(err)), -1);
	/* -s and friends add words after MB/sec */
	assert_int_equal(parse_dbench("Throughput 12.5 MB/sec (sync open)  3 clients  3 procs  max_latency=4.000 ms\n",
				      &o, err, sizeof(err)), 0);
	assert_true(o.mbps == 12.5);
	assert_int_equal(o.clients, 3);
}

static void test_pgbench(void **state)
{
	char *t = load("pgbench-S.out"), err[256];
	struct pgbench_out o;

	(void)state;
	assert_int_equal(parse_pgbench(t, &o, err, sizeof(err)), 0);
	assert_true(o.tps == 57735.009991);
	assert_true(o.latency_avg_ms == 0.035);
	assert_true(o.transactions == 115287);
	assert_true(o.failed == 0);
	free(t);
	t = load("pgbench-tpcb.out");
	assert_int_equal(parse_pgbench(t, &o, err, sizeof(err)), 0);
	assert_true(o.tps == 3358.937886);
	assert_true(o.latency_avg_ms == 0.595);
	free(t);

	/* PostgreSQL 13 and older: the tps without connecting is the second */
	assert_int_equal(parse_pgbench(
		"number of transactions actually processed: 100\n"
		"latency average = 0.020 ms\n"
		"tps = 49000.5 (including connections establishing)\n"
		"tps = 50000.25 (excluding connections establishing)\n",
		&o, err, sizeof(err)), 0);
	assert_true(o.tps == 50000.25);
	assert_true(isnan(o.failed));
}

static void test_pgbench_bad(void **state)
{
	char *t = load("pgbench-S.out"), *cut, err[256];
	struct pgbench_out o;

	(void)state;
	cut = cut_before(t, "tps = ");
	assert_int_equal(parse_pgbench(cut, &o, err, sizeof(err)), -1);
	assert_string_equal(err, "no 'tps = ' line in its output (its last line: 'initial connection time = 4.305 ms')");
	free(cut);
	free(t);
	t = load("pgbench-noserver.out");
	assert_int_equal(parse_pgbench(t, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "could not create connection for setup"));
	free(t);
	assert_int_equal(parse_pgbench("number of transactions actually processed: 5\ntps = fast\n",
				       &o, err, sizeof(err)), -1);
	assert_string_equal(err, "cannot parse the line 'tps = fast'");
}

static void test_sysbench(void **state)
{
	char *t = load("sb-ro.out"), err[256];
	struct sysbench_out o;

	(void)state;
	assert_int_equal(parse_sysbench(t, &o, err, sizeof(err)), 0);
	assert_true(o.tps == 3110.41);
	assert_true(o.eps == 3110.41);
	assert_true(o.qps == 49766.50);
	assert_true(o.events == 6943);
	assert_true(o.total_s == 2.2314);
	assert_true(o.lat_min == 0.31);
	assert_true(o.lat_avg == 0.64);
	assert_true(o.lat_max == 248.75);
	assert_true(o.lat_p95 == 0.80);
	free(t);
	t = load("sb-rw.out");
	assert_int_equal(parse_sysbench(t, &o, err, sizeof(err)), 0);
	assert_true(o.tps == 894.48);
	assert_true(o.lat_max == 1004.92);
	free(t);
	t = load("sb-cpu.out");
	assert_int_equal(parse_sysbench(t, &o, err, sizeof(err)), 0);
	assert_true(isnan(o.tps));
	assert_true(o.eps == 643.14);
	assert_true(o.lat_p95 == 1.30);
	free(t);
	/* threads prints no rate: 1800 events in 1.0024 s */
	t = load("sb-threads.out");
	assert_int_equal(parse_sysbench(t, &o, err, sizeof(err)), 0);
	assert_true(fabs(o.eps - 1800 / 1.0024) < 1e-9);
	assert_true(o.lat_avg == 1.11);
	free(t);
}

static void test_sysbench_bad(void **state)
{
	char *t = load("sb-ro.out"), *cut, err[256];
	struct sysbench_out o;

	(void)state;
	cut = cut_before(t, "Latency (ms):");
	assert_int_equal(parse_sysbench(cut, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no 'Latency (ms)' avg and 95th percentile line"));
	free(cut);
	cut = cut_before(t, "General statistics:");
	assert_int_equal(parse_sysbench(cut, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'total number of events' and 'total time'"));
	free(cut);
	free(t);
	assert_int_equal(parse_sysbench("    transactions: 12 (many per sec.)\n",
					&o, err, sizeof(err)), -1);
	assert_string_equal(err, "cannot parse the line 'transactions: 12 (many per sec.)'");
	assert_int_equal(parse_sysbench("FATAL: unable to connect\n", &o, err,
					sizeof(err)), -1);
}

static void test_sysbench_fileio(void **state)
{
	char *t = load("sb-fileio-rndrw.out"), *cut, err[256];
	struct fileio_out o;

	(void)state;
	assert_int_equal(parse_sysbench_fileio(t, &o, err, sizeof(err)), 0);
	assert_true(o.reads == 54278.81);
	assert_true(o.writes == 36185.21);
	assert_true(o.fsyncs == 1812.85);
	assert_true(o.read_mib == 212.03);
	assert_true(o.written_mib == 141.35);
	assert_true(o.sb.lat_avg == 0.02);
	assert_true(o.sb.lat_max == 22.18);
	assert_true(o.sb.lat_p95 == 0.00);
	assert_true(o.sb.events == 92433);
	cut = cut_before(t, "Throughput:");
	assert_int_equal(parse_sysbench_fileio(cut, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no 'Throughput' read and written MiB/s line"));
	free(cut);
	cut = cut_before(t, "File operations:");
	assert_int_equal(parse_sysbench_fileio(cut, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "reads/s, writes/s and fsyncs/s"));
	free(cut);
	free(t);
	t = load("sb-fileio-seqrd.out");
	assert_int_equal(parse_sysbench_fileio(t, &o, err, sizeof(err)), 0);
	assert_true(o.reads == 447223.87);
	assert_true(o.writes == 0);
	assert_true(o.read_mib == 6987.87);
	assert_true(o.written_mib == 0);
	assert_true(o.sb.lat_max == 76.26);
	free(t);
	assert_int_equal(parse_sysbench_fileio("    reads/s: lots\n", &o, err,
					       sizeof(err)), -1);
	assert_string_equal(err, "cannot parse the line 'reads/s: lots'");
}

/* fio --output-format=json: two jobs summed, one group-reported job */
static void test_fio(void **state)
{
	char *t = load("fio-randrw-2jobs.json"), err[256];
	struct fio_out o;
	double lat;

	(void)state;
	assert_int_equal(parse_fio(t, &o, err, sizeof(err)), 0);
	assert_int_equal(o.jobs, 2);
	assert_true(o.read.ios == 7148 + 7104);
	assert_true(fabs(o.read.iops - (7021.611002 + 7054.617676)) < 1e-6);
	assert_true(fabs(o.write.iops - (7061.886051 + 7182.720953)) < 1e-6);
	assert_true(fabs(o.read.mib - (28760518.0 + 28895714) / 1048576) < 1e-9);
	assert_true(fabs(o.write.mib - (28925485.0 + 29420425) / 1048576) < 1e-9);
	lat = (292234.125909 * 7148 + 282665.748733 * 7104) / (7148 + 7104) / 1000;
	assert_true(fabs(o.read.lat_avg_us - lat) < 1e-6);
	assert_true(fabs(o.read.clat_p95_us - 228.352) < 1e-9);
	assert_true(fabs(o.read.clat_p99_us - 1220.608) < 1e-9);
	assert_true(fabs(o.write.clat_p99_us - 2211.84) < 1e-9);
	free(t);
	t = load("fio-jobfile-group.json");
	assert_int_equal(parse_fio(t, &o, err, sizeof(err)), 0);
	assert_int_equal(o.jobs, 1);
	assert_true(o.read.iops == 21528.471528);
	assert_true(fabs(o.read.clat_p99_us - 489.472) < 1e-9);
	assert_true(o.write.ios == 0);
	assert_true(isnan(o.write.clat_p99_us) && isnan(o.write.lat_avg_us));
	free(t);
}

static void test_fio_bad(void **state)
{
	struct fio_out o;
	char err[256];

	(void)state;
	assert_int_equal(parse_fio("fio: engine bogus not loadable\n", &o, err,
				   sizeof(err)), -1);
	assert_string_equal(err, "no JSON in its output");
	assert_int_equal(parse_fio("{ \"jobs\": [ ", &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "its JSON does not parse"));
	assert_int_equal(parse_fio("{ \"jobs\": [] }", &o, err, sizeof(err)), -1);
	assert_string_equal(err, "its JSON has no jobs[]");
	assert_int_equal(parse_fio("{ \"jobs\": [ { \"jobname\": \"j\", \"error\": 5 } ] }",
				   &o, err, sizeof(err)), -1);
	assert_string_equal(err, "job 'j' ended with error 5");
	assert_int_equal(parse_fio("{ \"jobs\": [ { \"read\": { \"total_ios\": 0, \"iops\": 0, \"bw_bytes\": 0 } } ] }",
				   &o, err, sizeof(err)), -1);
	assert_string_equal(err, "a job has no 'write' object");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_join),
		cmocka_unit_test(test_dbench),
		cmocka_unit_test(test_dbench_bad),
		cmocka_unit_test(test_pgbench),
		cmocka_unit_test(test_pgbench_bad),
		cmocka_unit_test(test_sysbench),
		cmocka_unit_test(test_sysbench_bad),
		cmocka_unit_test(test_sysbench_fileio),
		cmocka_unit_test(test_fio),
		cmocka_unit_test(test_fio_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
