// SPDX-License-Identifier: GPL-2.0-only
/*
 * The variants' table (report/compare_table.c) over a comparison built
 * by compare_build() from three runs of one A/B: the label said once,
 * the columns headed by the variant names (never cut), the sweep values
 * as row labels, each candidate's change against the first run with its
 * mark where the test found it significant, the footer explaining the
 * mark, 80 columns for 3 runs and 2 sweep keys; the markdown pipe table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "model/run.h"
#include "report/render_compare.h"
#include "stats/summary.h"
#include "store/store.h"

#include "cmp_three.h"

static char *render(const struct comparison *c, bool markdown)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	render_compare_variants(f, c, markdown);
	fclose(f);
	return buf;
}

/* The line of text that starts with prefix, copied; fails when none. */
static char *line_of(const char *text, const char *prefix)
{
	for (const char *p = text; *p;) {
		const char *end = strchrnul(p, '\n');

		if (!strncmp(p, prefix, strlen(prefix)))
			return strndup(p, (size_t)(end - p));
		p = *end ? end + 1 : end;
	}
	fail_msg("no line starts with '%s' in:\n%s", prefix, text);
	return NULL;
}

static size_t widest_line(const char *text)
{
	size_t w = 0;

	for (const char *p = text; *p;) {
		const char *end = strchrnul(p, '\n');

		if ((size_t)(end - p) > w)
			w = (size_t)(end - p);
		p = *end ? end + 1 : end;
	}
	return w;
}

/* widest_line() of the table: after the title, before the notes. */
static size_t widest_table_line(const char *text)
{
	const char *n = strstr(text, "\nNotes:\n"), *t = strchr(text, '\n') + 1;
	char *head = strndup(t, n ? (size_t)(n - t) : strlen(t));
	size_t w = widest_line(head);

	free(head);
	return w;
}

static void test_variants_text(void **state)
{
	static const char *const names[] = { "box-6.18/base", "box-6.18/slice",
					     "box-6.18/n7" };
	struct three t;
	char *out, *line;

	(void)state;
	build(&t, names);
	/* what the table shows is the model's */
	assert_true(t.c.jobs[0].cases[0].cell[1].r.significant);
	assert_false(t.c.jobs[0].cases[0].cell[2].r.significant);
	out = render(&t.c, false);

	line = line_of(out, "runs of ");
	assert_string_equal(line, "runs of box-6.18: change against base in %, + is better");
	free(line);
	line = line_of(out, "msg ");
	assert_string_equal(line, "msg by groups fds: messaging.time, s, median (lower is better)");
	free(line);
	/* the variant names, the label cut once, over their columns */
	line = line_of(out, "groups");
	assert_string_equal(line, "groups  fds   base          slice            n7");
	free(line);
	/* 1.035 s, its 10% faster candidate (marked) and the one as fast */
	line = line_of(out, "     1    1");
	assert_string_equal(line, "     1    1  1.035  0.931 +10.0%*  1.036 -0.1%");
	free(line);
	line = line_of(out, "     1    2");
	assert_string_equal(line, "     1    2  2.070  1.863 +10.0%*  2.072 -0.1%");
	free(line);
	line = line_of(out, "* ");
	assert_string_equal(line, "* significant at p<0.05 (mann-whitney); 8 iterations");
	free(line);
	assert_true(widest_line(out) <= 80);
	free(out);
	three_free(&t);
}

/* Names without a shared prefix are shown whole, never cut: the column widens. */
static void test_variants_long_names(void **state)
{
	static const char *const names[] = {
		"baseline-kernel", "sched.base_slice_ns=1500000", "n7",
	};
	struct three t;
	char *out, *head, *row;

	(void)state;
	build(&t, names);
	out = render(&t.c, false);
	assert_null(strstr(out, "runs of "));
	assert_non_null(strstr(out, "change against baseline-kernel in %"));
	head = line_of(out, "groups");
	row = line_of(out, "     1    1");
	assert_non_null(strstr(head, " baseline-kernel  sched.base_slice_ns=1500000  "));
	/* each value ends where its heading ends */
	assert_int_equal(strstr(head, "baseline-kernel") - head + strlen("baseline-kernel"),
			 strstr(row, "1.035") - row + strlen("1.035"));
	assert_non_null(strstr(row, "+10.0%*"));
	free(head);
	free(row);
	free(out);
	three_free(&t);
}

static void test_variants_markdown(void **state)
{
	static const char *const names[] = { "box-6.18/base", "box-6.18/slice",
					     "box-6.18/n7" };
	struct three t;
	char *out, *line;

	(void)state;
	build(&t, names);
	out = render(&t.c, true);
	line = line_of(out, "### ");
	assert_string_equal(line, "### msg by groups fds: messaging.time, s, median (lower is better)");
	free(line);
	line = line_of(out, "| groups");
	assert_string_equal(line, "| groups | fds | base | slice | % | n7 | % |");
	free(line);
	line = line_of(out, "|---");
	assert_string_equal(line, "|---:|---:|---:|---:|---:|---:|---:|");
	free(line);
	line = line_of(out, "| 1 | 1 ");
	assert_string_equal(line, "| 1 | 1 | 1.035 | 0.931 | **+10.0%** | 1.036 | -0.1% |");
	free(line);
	line = line_of(out, "**bold**");
	assert_string_equal(line, "**bold**: significant at p<0.05 (mann-whitney); 8 iterations");
	free(line);
	free(out);
	three_free(&t);
}

/* The statistic is the test's: Welch's change is of the mean, so the Amean. */
static void test_variants_mean_test(void **state)
{
	static const char *const names[] = { "a/base", "a/x", "a/y" };
	struct three t;
	char *out, *line;

	(void)state;
	build(&t, names);
	t.c.opts.test = TEST_WELCH;	/* what the title and footer say */
	out = render(&t.c, false);
	line = line_of(out, "msg ");
	assert_string_equal(line, "msg by groups fds: messaging.time, s, Amean (lower is better)");
	free(line);
	assert_non_null(strstr(out, "* significant at p<0.05 (welch); 8 iterations"));
	free(out);
	three_free(&t);
}

/* The whole output of a layout over t's comparison. */
static char *rendered_layout(const struct comparison *c,
			   void (*fn)(FILE *, const struct comparison *,
				      const struct layout_opts *),
			   int stat, bool markdown, int width)
{
	struct layout_opts lo = { .stat = stat, .markdown = markdown,
				  .width = width };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, c, &lo);
	fclose(f);
	return buf;
}

static int stat_index(const char *name)
{
	for (int i = 0; cmp_stat_names[i]; i++)
		if (!strcmp(cmp_stat_names[i], name))
			return i;
	fail_msg("no statistic %s", name);
	return -1;
}

static const char *const long_names[] = {
	"3.10.0-default", "3.10.0-defaultx", "3.10.0-n7",
};

/* Seed 000's tbench table: a row per run, the sweep values as columns. */
static void test_wide_text(void **state)
{
	struct three t;
	char *out;

	(void)state;
	build(&t, long_names);
	out = rendered_layout(&t.c, render_compare_wide, 0, false, 0);
	assert_string_equal(out,
		"msg by groups fds: messaging.time, s, Amean (lower is better)\n"
		"                   1 1    1 2\n"
		"3.10.0-default  1.0350 2.0700\n"
		"3.10.0-defaultx 0.9315 1.8630\n"
		"3.10.0-n7       1.0360 2.0721\n"
		"\n"
		"Notes:\n"
		"  all 2 cases: < 3 runs labelled 3.10.0-default here, no run-to-run noise\n"
		"    counted\n");
	free(out);
	three_free(&t);
}

/* Wider than the width: blocks of columns, each repeating the names. */
static void test_wide_blocks(void **state)
{
	struct three t;
	char *out;

	(void)state;
	build(&t, long_names);
	out = rendered_layout(&t.c, render_compare_wide, stat_index("max"), false, 26);
	assert_string_equal(out,
		"msg by groups fds: messaging.time, s, Max (lower is better)\n"
		"                   1 1\n"
		"3.10.0-default  1.0700\n"
		"3.10.0-defaultx 0.9630\n"
		"3.10.0-n7       1.0711\n"
		"\n"
		"                   1 2\n"
		"3.10.0-default  2.1400\n"
		"3.10.0-defaultx 1.9260\n"
		"3.10.0-n7       2.1421\n"
		"\n"
		"Notes:\n"
		"  all 2 cases: < 3 runs labelled 3.10.0-default here, no run-to-run noise\n"
		"    counted\n");
	assert_true(widest_table_line(out) <= 26);
	free(out);
	three_free(&t);
}

static void test_wide_markdown(void **state)
{
	struct three t;
	char *out;

	(void)state;
	build(&t, long_names);
	out = rendered_layout(&t.c, render_compare_wide, stat_index("median"), true, 0);
	assert_string_equal(out,
		"### msg by groups fds: messaging.time, s, Median (lower is better)\n"
		"\n"
		"| groups fds | 1 1 | 1 2 |\n"
		"|:---|---:|---:|\n"
		"| 3.10.0-default | 1.0350 | 2.0700 |\n"
		"| 3.10.0-defaultx | 0.9315 | 1.8630 |\n"
		"| 3.10.0-n7 | 1.0360 | 2.0721 |\n"
		"\n"
		"Notes:\n"
		"- all 2 cases: < 3 runs labelled 3.10.0-default here, no run-to-run noise counted\n");
	free(out);
	three_free(&t);
}

/* The variants' table without the changes, of the statistic asked for. */
static void test_grid_text(void **state)
{
	static const char *const names[] = { "box/base", "box/performance",
					     "box/powersaving" };
	struct three t;
	char *out;

	(void)state;
	build(&t, names);
	out = rendered_layout(&t.c, render_compare_grid, stat_index("min"), false, 0);
	assert_string_equal(out,
		"runs of box\n"
		"\n"
		"msg by groups fds: messaging.time, s, Min (lower is better)\n"
		"groups  fds   base  performance  powersaving\n"
		"     1    1  1.000        0.900        1.001\n"
		"     1    2  2.000        1.800        2.002\n"
		"8 iterations\n"
		"\n"
		"Notes:\n"
		"  all 2 cases: < 3 runs labelled box/base here, no run-to-run noise counted\n");
	free(out);
	three_free(&t);
}

static void test_grid_markdown(void **state)
{
	static const char *const names[] = { "box/base", "box/performance",
					     "box/powersaving" };
	struct three t;
	char *out;

	(void)state;
	build(&t, names);
	out = rendered_layout(&t.c, render_compare_grid, stat_index("median"), true, 0);
	assert_string_equal(out,
		"runs of box\n"
		"\n"
		"### msg by groups fds: messaging.time, s, Median (lower is better)\n"
		"\n"
		"| groups | fds | base | performance | powersaving |\n"
		"|---:|---:|---:|---:|---:|\n"
		"| 1 | 1 | 1.035 | 0.931 | 1.036 |\n"
		"| 1 | 2 | 2.070 | 1.863 | 2.072 |\n"
		"\n"
		"8 iterations\n"
		"\n"
		"Notes:\n"
		"- all 2 cases: < 3 runs labelled box/base here, no run-to-run noise counted\n");
	free(out);
	three_free(&t);
}

/* Seed 000's Time: lines, every iteration in order, wrapped past the width. */
static void test_raw_text(void **state)
{
	struct three t;
	char *out;

	(void)state;
	build(&t, long_names);
	out = rendered_layout(&t.c, render_compare_raw, 0, false, 60);
	assert_string_equal(out,
		"msg by groups fds: messaging.time, s, every iteration (lower is better)\n"
		"3.10.0-default  1 1: 1.0000 1.0100 1.0200 1.0300 1.0400\n"
		"                     1.0500 1.0600 1.0700\n"
		"3.10.0-defaultx 1 1: 0.9000 0.9090 0.9180 0.9270 0.9360\n"
		"                     0.9450 0.9540 0.9630\n"
		"3.10.0-n7       1 1: 1.0010 1.0110 1.0210 1.0310 1.0410\n"
		"                     1.0511 1.0611 1.0711\n"
		"3.10.0-default  1 2: 2.0000 2.0200 2.0400 2.0600 2.0800\n"
		"                     2.1000 2.1200 2.1400\n"
		"3.10.0-defaultx 1 2: 1.8000 1.8180 1.8360 1.8540 1.8720\n"
		"                     1.8900 1.9080 1.9260\n"
		"3.10.0-n7       1 2: 2.0020 2.0220 2.0420 2.0621 2.0821\n"
		"                     2.1021 2.1221 2.1421\n"
		"\n"
		"Notes:\n"
		"  all 2 cases: < 3 runs labelled 3.10.0-default here, no run-to-run noise\n"
		"    counted\n");
	assert_true(widest_table_line(out) <= 60);
	free(out);
	three_free(&t);
}

/* The means --stat names, from the cell's samples by src/stats/. */
static void test_cell_stats(void **state)
{
	struct three t;
	const struct cmp_cell *cell;
	double want;

	(void)state;
	build(&t, long_names);
	cell = &t.c.jobs[0].cases[1].cell[1];
	assert_int_equal(cell->n, NITER);
	assert_true(cell->x[3] == (1 + 3 / 100.0) * 0.9 * 2);
	assert_true(cmp_cell_stat(cell, stat_index("mean")) == cell->s.mean);
	assert_int_equal(stats_hmean(cell->x, cell->n, &want), 0);
	assert_true(cmp_cell_stat(cell, stat_index("hmean")) == want);
	assert_int_equal(stats_gmean(cell->x, cell->n, &want), 0);
	assert_true(cmp_cell_stat(cell, stat_index("gmean")) == want);
	assert_true(cmp_cell_stat(cell, stat_index("amean")) == cell->s.mean);
	assert_true(cmp_cell_stat(cell, stat_index("coeffvar")) == cell->s.coeffvar);
	assert_string_equal(cmp_stat_label(stat_index("mean"), &t.c.jobs[0]), "Amean");
	assert_string_equal(cmp_stat_label(stat_index("bamean95"), &t.c.jobs[0]), "BAmean-95");
	three_free(&t);
}

/*
 * A compute run (AIM7's columns) at 1 and 2 tasks, 3 iterations:
 * Jobs/Min 100, 110, 120 times the tasks times factor, the others fixed.
 */
static void make_compute_run(const char *label, const char *uuid,
			     double factor, struct run *r)
{
	json_t *cases = json_array(), *doc;

	for (int c = 0; c < 2; c++) {
		json_t *jpm = json_array();

		for (int i = 0; i < 3; i++)
			json_array_append_new(jpm, json_real((100 + 10 * i) *
							     (c + 1) * factor));
		json_array_append_new(cases, json_pack(
			"{s:i, s:s, s:s, s:i, s:s, s:s, s:s, s:s, s:n, s:{}, s:{},"
			" s:i, s:{s:o, s:[i,i,i], s:[f,f,f], s:[f,f,f], s:[f,f,f]}}",
			"seq", c, "job", "aim7", "workload", "compute", "version", 1,
			"params", "", "sweep_keys", "tasks", "sweep", c ? "2" : "1",
			"status", "complete", "reason", "parameters", "settings",
			"iterations", 3, "samples", "compute.jobs_per_min", jpm,
			"compute.jti", 100, 99, 98, "compute.real_s", 14.2, 14.5, 14.2,
			"compute.cpu_s", 4.1, 4.1, 4.2,
			"compute.jobs_per_sec_task", 7.1328, 6.9655, 7.1277));
	}
	doc = json_pack("{s:s, s:{s:s, s:s, s:n, s:f, s:f, s:s, s:n, s:n}, s:{},"
			" s:{s:{s:s, s:s, s:b, s:s}, s:{s:s, s:s, s:b, s:s},"
			" s:{s:s, s:s, s:b, s:s}, s:{s:s, s:s, s:b, s:s},"
			" s:{s:s, s:s, s:b, s:s}}, s:o}",
			"schema", EXPORT_SCHEMA, "run", "uuid", uuid, "label", label,
			"host", "started", 1.0, "ended", 2.0, "status", "complete",
			"command", "schedlab_version", "environment", "metrics",
			"compute.jobs_per_min", "unit", "jobs/min", "better", "higher",
			"headline", 1, "help", "j",
			"compute.jti", "unit", "index", "better", "higher", "headline", 0, "help", "j",
			"compute.real_s", "unit", "s", "better", "lower", "headline", 0, "help", "r",
			"compute.cpu_s", "unit", "s", "better", "none", "headline", 0, "help", "c",
			"compute.jobs_per_sec_task", "unit", "jobs/s", "better", "higher",
			"headline", 0, "help", "t", "cases", cases);
	assert_non_null(doc);
	assert_int_equal(export_validate(doc, label), 0);
	assert_int_equal(run_from_export(doc, label, r), 0);
	json_decref(doc);
}

/* Seed 000's AIM7 table from stored runs: compute's declared columns. */
static void test_workload_table(void **state)
{
	static const char *const names[] = { "3.10.0-default", "3.10.0-defaultx" };
	struct cmp_opts o = {
		.test = TEST_MWU, .alpha = 0.05, .threshold = 5,
		.nboot = BOOT_RESAMPLES, .seed = BOOT_SEED,
	};
	struct layout_opts lo = { .stat = 0 };
	struct run r[2];
	const struct run *rp[2] = { &r[0], &r[1] };
	struct comparison c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	make_compute_run(names[0], "u-1", 1, &r[0]);
	make_compute_run(names[1], "u-2", 1.1, &r[1]);
	assert_int_equal(compare_build(rp, names, 2, &o, false, NULL, &c), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(render_compare_workload(f, &c, rp, &lo), 0);
	fclose(f);
	/*
	 * Every iteration first, the runs side by side (seed 000's rows);
	 * then Hmean of 100, 110, 120: 109.39; the CPU's (no direction)
	 * Amean. CPU's smallest value, 4.1, to 3 significant digits.
	 */
	assert_string_equal(buf,
		"aim7 by tasks: compute, every iteration, the runs side by side\n"
		"       3.10.0-default                        3.10.0-defaultx\n"
		"Tasks  Jobs/Min JTI Real  CPU Jobs/sec/task  Jobs/Min JTI Real  CPU Jobs/sec/task\n"
		"    1     100.0 100 14.2 4.10        7.1328     110.0 100 14.2 4.10        7.1328\n"
		"    1     110.0  99 14.5 4.10        6.9655     121.0  99 14.5 4.10        6.9655\n"
		"    1     120.0  98 14.2 4.20        7.1277     132.0  98 14.2 4.20        7.1277\n"
		"    2     200.0 100 14.2 4.10        7.1328     220.0 100 14.2 4.10        7.1328\n"
		"    2     220.0  99 14.5 4.10        6.9655     242.0  99 14.5 4.10        6.9655\n"
		"    2     240.0  98 14.2 4.20        7.1277     264.0  98 14.2 4.20        7.1277\n"
		"\n"
		"aim7 by tasks: compute, the mean of each column (Hmean where higher is better, else Amean)\n"
		"Tasks  run              Jobs/Min  JTI  Real   CPU  Jobs/sec/task\n"
		"    1  3.10.0-default      109.4   99  14.3  4.13         7.0745\n"
		"    1  3.10.0-defaultx     120.3   99  14.3  4.13         7.0745\n"
		"    2  3.10.0-default      218.8   99  14.3  4.13         7.0745\n"
		"    2  3.10.0-defaultx     240.7   99  14.3  4.13         7.0745\n"
		"\n");
	free(buf);
	compare_free(&c);
	run_free(&r[0]);
	run_free(&r[1]);
}

/* render_layout(): each table for reading is its renderer's output; the
 * views that are not tables for reading print nothing and say so. */
static void test_layout_table(void **state)
{
	struct layout_opts lo = { .stat = 0 };
	static const struct {
		enum out_layout l;
		void (*fn)(FILE *, const struct comparison *,
			   const struct layout_opts *);
	} direct[] = {
		{ LAYOUT_WIDE, render_compare_wide },
		{ LAYOUT_GRID, render_compare_grid },
		{ LAYOUT_RAW, render_compare_raw },
	};
	struct three t;
	char *buf, *want;
	size_t len;
	FILE *f;

	(void)state;
	build(&t, long_names);
	for (size_t k = 0; k < sizeof(direct) / sizeof(direct[0]); k++) {
		f = open_memstream(&buf, &len);
		assert_int_equal(render_layout(f, direct[k].l, &t.c, NULL, &lo), 0);
		fclose(f);
		want = rendered_layout(&t.c, direct[k].fn, 0, false, 0);
		assert_string_equal(buf, want);
		free(buf);
		free(want);
	}
	f = open_memstream(&buf, &len);
	assert_int_equal(render_layout(f, LAYOUT_VARIANTS, &t.c, NULL, &lo), 0);
	fclose(f);
	assert_true(len > 0);
	free(buf);
	for (enum out_layout l = LAYOUT_RUN; l <= LAYOUT_MMTESTS; l++) {
		f = open_memstream(&buf, &len);
		assert_int_equal(render_layout(f, l, &t.c, NULL, &lo), -1);
		fclose(f);
		assert_int_equal(len, 0);
		free(buf);
	}
	three_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variants_text),
		cmocka_unit_test(test_variants_long_names),
		cmocka_unit_test(test_variants_markdown),
		cmocka_unit_test(test_variants_mean_test),
		cmocka_unit_test(test_wide_text),
		cmocka_unit_test(test_wide_blocks),
		cmocka_unit_test(test_wide_markdown),
		cmocka_unit_test(test_grid_text),
		cmocka_unit_test(test_grid_markdown),
		cmocka_unit_test(test_raw_text),
		cmocka_unit_test(test_cell_stats),
		cmocka_unit_test(test_workload_table),
		cmocka_unit_test(test_layout_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
