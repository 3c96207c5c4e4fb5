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
#include "report/compare.h"
#include "store/store.h"

#define NITER 8

/*
 * A run of job msg swept over groups and fds (cases "1 1" and "1 2"):
 * messaging.time of iteration i is (1 + i / 100) * factor, the second
 * case twice that.
 */
static void make_run(const char *label, const char *uuid, double factor,
		     struct run *r)
{
	json_t *cases = json_array();
	json_t *doc;

	for (int c = 0; c < 2; c++) {
		json_t *x = json_array();

		for (int i = 0; i < NITER; i++)
			json_array_append_new(x, json_real((1 + i / 100.0) *
							   factor * (c + 1)));
		json_array_append_new(cases, json_pack(
			"{s:i, s:s, s:s, s:i, s:s, s:s, s:s, s:s, s:n,"
			" s:{}, s:{}, s:i, s:{s:o}}",
			"seq", c, "job", "msg", "workload", "messaging",
			"version", 1, "params", c ? "fds=2" : "", "sweep_keys",
			"groups fds", "sweep", c ? "1 2" : "1 1", "status",
			"complete", "reason", "parameters", "settings",
			"iterations", NITER, "samples", "messaging.time", x));
	}
	doc = json_pack("{s:s, s:{s:s, s:s, s:n, s:f, s:f, s:s, s:n, s:n},"
			" s:{}, s:{s:{s:s, s:s, s:b, s:s}}, s:o}",
			"schema", EXPORT_SCHEMA, "run", "uuid", uuid, "label",
			label, "host", "started", 1.0, "ended", 2.0, "status",
			"complete", "command", "schedlab_version",
			"environment", "metrics", "messaging.time", "unit", "s",
			"better", "lower", "headline", 1, "help", "time",
			"cases", cases);
	assert_non_null(doc);
	assert_int_equal(export_validate(doc, label), 0);
	assert_int_equal(run_from_export(doc, label, r), 0);
	json_decref(doc);
}

struct three {
	struct run r[3];
	struct comparison c;
};

/* base, a candidate 10% faster, one as fast; names as given. */
static void build(struct three *t, const char *const names[3])
{
	static const char *const uuids[] = { "u-1", "u-2", "u-3" };
	static const double factor[] = { 1, 0.9, 1.001 };
	const struct run *rp[3];
	struct cmp_opts o = {
		.test = TEST_MWU, .alpha = 0.05, .threshold = 5,
		.nboot = BOOT_RESAMPLES, .seed = BOOT_SEED,
	};

	for (int k = 0; k < 3; k++) {
		make_run(names[k], uuids[k], factor[k], &t->r[k]);
		rp[k] = &t->r[k];
	}
	assert_int_equal(compare_build(rp, names, 3, &o, false, NULL, &t->c), 0);
}

static void three_free(struct three *t)
{
	compare_free(&t->c);
	for (int k = 0; k < 3; k++)
		run_free(&t->r[k]);
}

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variants_text),
		cmocka_unit_test(test_variants_long_names),
		cmocka_unit_test(test_variants_markdown),
		cmocka_unit_test(test_variants_mean_test),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
