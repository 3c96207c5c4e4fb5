// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare --metrics, --ratio and --brief, and the text layout's header,
 * over comparisons built by compare_build() from made-up runs: one table
 * per job and metric with the headline's first, only the headline's
 * tables deciding the verdict, a typo in --metrics refused, mmtests'
 * Gmean ratio row against a hand calculation, the brief text byte for
 * byte, run names never cut and the 80 columns kept or a note saying
 * how to narrow the table.
 */
#include <math.h>
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
#include "store/store.h"

#define NITER 8

/*
 * A run of job msg swept over groups (1 and 2): messaging.time of
 * iteration i is (1 + i / 100) * f[c] * (c + 1) for case c, the rate
 * messaging.rate 1000 / time * g (higher is better; g lets a candidate
 * regress on it while its time improves), messaging.count 7 (no
 * direction), and the scheduler's sched.migrations 100 * f[c] * (c + 1)
 * and sched.ctxsw_invol 50 / f[c] + i.
 */
static void make_run(const char *label, const char *uuid, const double f[2],
		     double g, struct run *r)
{
	json_t *cases = json_array();
	json_t *doc;

	for (int c = 0; c < 2; c++) {
		json_t *t = json_array(), *rate = json_array();
		json_t *cnt = json_array(), *mig = json_array();
		json_t *inv = json_array();
		char sweep[8];

		for (int i = 0; i < NITER; i++) {
			double x = (1 + i / 100.0) * f[c] * (c + 1);

			json_array_append_new(t, json_real(x));
			json_array_append_new(rate, json_real(1000 / x * g));
			json_array_append_new(cnt, json_real(7));
			json_array_append_new(mig, json_real(100 * f[c] * (c + 1)));
			json_array_append_new(inv, json_real(50 / f[c] + i));
		}
		snprintf(sweep, sizeof(sweep), "%d", c + 1);
		json_array_append_new(cases, json_pack(
			"{s:i, s:s, s:s, s:i, s:s, s:s, s:s, s:s, s:n,"
			" s:{}, s:{}, s:i, s:{s:o, s:o, s:o, s:o, s:o}}",
			"seq", c, "job", "msg", "workload", "messaging",
			"version", 1, "params", c ? "groups=2" : "", "sweep_keys",
			"groups", "sweep", sweep, "status", "complete", "reason",
			"parameters", "settings", "iterations", NITER, "samples",
			"messaging.time", t, "messaging.rate", rate,
			"messaging.count", cnt, "sched.migrations", mig,
			"sched.ctxsw_invol", inv));
	}
	doc = json_pack("{s:s, s:{s:s, s:s, s:n, s:f, s:f, s:s, s:n, s:n},"
			" s:{}, s:{s:{s:s, s:s, s:b, s:s}, s:{s:s, s:s, s:b, s:s},"
			" s:{s:s, s:s, s:b, s:s}, s:{s:s, s:s, s:b, s:s},"
			" s:{s:s, s:s, s:b, s:s}}, s:o}",
			"schema", EXPORT_SCHEMA, "run", "uuid", uuid, "label",
			label, "host", "started", 1.0, "ended", 2.0, "status",
			"complete", "command", "schedlab_version",
			"environment", "metrics",
			"messaging.time", "unit", "s", "better", "lower",
			"headline", 1, "help", "time",
			"messaging.rate", "unit", "msgs/s", "better", "higher",
			"headline", 0, "help", "rate",
			"messaging.count", "unit", "", "better", "none",
			"headline", 0, "help", "count",
			"sched.migrations", "unit", "migrations", "better", "none",
			"headline", 0, "help", "m",
			"sched.ctxsw_invol", "unit", "switches", "better", "none",
			"headline", 0, "help", "i",
			"cases", cases);
	assert_non_null(doc);
	assert_int_equal(export_validate(doc, label), 0);
	assert_int_equal(run_from_export(doc, label, r), 0);
	json_decref(doc);
}

struct runs {
	struct run r[3];
	size_t n;
	struct comparison c;
};

/*
 * The baseline and a candidate 10% and 20% faster in the two cases
 * whose rate is half (a regression by that table); a third run as fast
 * as the baseline when n is 3. -1 when compare_build() refuses.
 */
static int build(struct runs *t, size_t n, const char *const names[],
		 const char *metrics)
{
	static const char *const uuids[] = { "u-1", "u-2", "u-3" };
	static const double f[3][2] = { { 1, 1 }, { 0.9, 0.8 }, { 1, 1 } };
	static const double g[3] = { 1, 0.5, 1 };
	const struct run *rp[3];
	struct cmp_opts o = {
		.test = TEST_MWU, .alpha = 0.05, .threshold = 5,
		.nboot = BOOT_RESAMPLES, .seed = BOOT_SEED, .metrics = metrics,
	};
	int rc;

	t->n = n;
	for (size_t k = 0; k < n; k++) {
		make_run(names[k], uuids[k], f[k], g[k], &t->r[k]);
		rp[k] = &t->r[k];
	}
	rc = compare_build(rp, names, n, &o, false, NULL, &t->c);
	if (rc)
		for (size_t k = 0; k < n; k++)
			run_free(&t->r[k]);
	return rc;
}

static void runs_free(struct runs *t)
{
	compare_free(&t->c);
	for (size_t k = 0; k < t->n; k++)
		run_free(&t->r[k]);
}

static char *render(const struct comparison *c, bool markdown)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (markdown)
		render_compare_markdown(f, c);
	else
		render_compare_text(f, c);
	fclose(f);
	return buf;
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

static const char *const short_names[] = { "base", "fast", "same" };

/* The default builds the headline's table alone, as "headline" does. */
static void test_metrics_headline_default(void **state)
{
	struct runs a, b;
	char *x, *y;

	(void)state;
	assert_int_equal(build(&a, 2, short_names, NULL), 0);
	assert_int_equal(build(&b, 2, short_names, "headline"), 0);
	assert_int_equal(a.c.njobs, 1);
	assert_string_equal(a.c.jobs[0].metric.name, "messaging.time");
	assert_true(a.c.jobs[0].metric.headline);
	x = render(&a.c, false);
	y = render(&b.c, false);
	assert_string_equal(x, y);
	assert_null(strstr(x, "messaging.rate"));
	assert_null(strstr(x, "Gmean"));
	free(x);
	free(y);
	runs_free(&a);
	runs_free(&b);
}

/*
 * all: the workload's metrics, the headline first, not the scheduler's;
 * a glob adds those. The rate regresses by half, but the verdict is the
 * headline's: improved. The count has no direction: no verdict.
 */
static void test_metrics_all(void **state)
{
	struct runs t;
	char *out;
	size_t rate = 0, count = 0;

	(void)state;
	assert_int_equal(build(&t, 2, short_names, "all"), 0);
	assert_int_equal(t.c.njobs, 3);
	assert_string_equal(t.c.jobs[0].metric.name, "messaging.time");
	for (size_t j = 1; j < 3; j++) {
		assert_false(t.c.jobs[j].metric.headline);
		if (!strcmp(t.c.jobs[j].metric.name, "messaging.rate"))
			rate = j;
		if (!strcmp(t.c.jobs[j].metric.name, "messaging.count"))
			count = j;
	}
	assert_true(rate && count);
	assert_int_equal(t.c.jobs[0].cases[0].cell[1].r.verdict, V_IMPROVED);
	assert_int_equal(t.c.jobs[rate].cases[0].cell[1].r.verdict, V_REGRESSED);
	assert_int_equal(t.c.overall, V_IMPROVED);
	assert_int_equal(t.c.verdict[1], V_IMPROVED);
	out = render(&t.c, false);
	assert_non_null(strstr(out, "msg by groups: messaging.rate, msgs/s (higher is better)\n"));
	assert_non_null(strstr(out, "msg by groups: messaging.count, count (no direction: + is more, no verdict)\n"));
	assert_non_null(strstr(out, "p=0.0002  regressed\n"));
	assert_non_null(strstr(out, "\nverdict: improved\n"));
	/* the verdict's reasons are the headline's */
	assert_null(strstr(out, "in fast: messaging.rate"));
	assert_non_null(strstr(out, "  msg 1 in fast: messaging.time "));
	/* the explanation is said once, under the headline */
	assert_non_null(strstr(out, "  msg 1 fast:\n"));
	assert_null(strstr(strstr(out, "  msg 1 fast:\n") + 1, "  msg 1 fast:\n"));
	free(out);
	runs_free(&t);

	assert_int_equal(build(&t, 2, short_names, "headline,sched.*"), 0);
	assert_int_equal(t.c.njobs, 3);
	assert_string_equal(t.c.jobs[0].metric.name, "messaging.time");
	assert_int_equal(strncmp(t.c.jobs[1].metric.name, "sched.", 6), 0);
	assert_int_equal(strncmp(t.c.jobs[2].metric.name, "sched.", 6), 0);
	runs_free(&t);
}

/* A --metrics word that matches nothing is refused, not an empty table. */
static void test_metrics_typo(void **state)
{
	struct runs t;

	(void)state;
	assert_int_equal(build(&t, 2, short_names, "headline,messaging.rte"), -1);
	assert_int_equal(build(&t, 2, short_names, ""), -1);
}

/*
 * The Gmean row: the candidate's means are 0.9 and 0.8 of the
 * baseline's, sqrt(0.9 * 0.8) = 0.848528...; the third run's 1.
 */
static void test_ratio_row(void **state)
{
	struct runs t;
	char *out;

	(void)state;
	assert_int_equal(build(&t, 3, short_names, NULL), 0);
	t.c.ratio = true;
	assert_true(fabs(t.c.jobs[0].gmean_ratio[1] - 0.848528137) < 1e-6);
	out = render(&t.c, false);
	assert_non_null(strstr(out, "\nGmean     ratio      1.0000                 0.8485                 1.0000\nChange"));
	free(out);
	out = render(&t.c, true);
	assert_non_null(strstr(out, "\n| Gmean | ratio | 1.0000 | 0.8485 | 1.0000 |\n"));
	free(out);
	runs_free(&t);
}

/*
 * --brief=1: per case the mean row and the change line, the metric that
 * moved most, no Duration block, each note on one line.
 */
static void test_brief_text(void **state)
{
	static const char *const want =
		"mann-whitney test, 95% intervals, threshold 5%; + is better, * significant\n"
		"\n"
		"msg by groups: messaging.time, s (lower is better)\n"
		"                                 base                   fast\n"
		"Amean     1         1.0350 (   0.00%)      0.9315 *  10.00%*\n"
		"Amean     2         2.0700 (   0.00%)      1.6560 *  20.00%*\n"
		"Change (median) 1    fast       +10.0% [+6.9, +13.0]   p=0.0002  improved\n"
		"Change (median) 2    fast       +20.0% [+17.3, +22.6]  p=0.0002  improved\n"
		"\n"
		"        base          %change    candidate         metric (lkp-tests: + is more)\n"
		"  msg 1 fast:\n"
		"        53.5 +-  4%    +10.4%      59.0556 +-  4%  sched.ctxsw_invol\n"
		"  msg 2 fast:\n"
		"        53.5 +-  4%    +23.4%           66 +-  3%  sched.ctxsw_invol\n"
		"\n"
		"Notes:\n"
		"  all 2 cases: < 3 runs labelled base here, no run-to-run noise counted\n"
		"\n"
		"verdict: improved\n"
		"  msg 1 in fast: messaging.time +10.0% [+6.9, +13.0]: significant, beyond 5%\n"
		"  msg 2 in fast: messaging.time +20.0% [+17.3, +22.6]: significant, beyond 5%\n";
	struct runs t;
	char *out;

	(void)state;
	assert_int_equal(build(&t, 2, short_names, NULL), 0);
	t.c.brief = true;
	t.c.brief_top = 1;
	out = render(&t.c, false);
	assert_string_equal(out, want);
	free(out);
	/* the full text has both metrics that moved, and the Duration block */
	t.c.brief = false;
	out = render(&t.c, false);
	assert_non_null(strstr(out, "-20.0%          160         sched.migrations\n"));
	assert_non_null(strstr(out, "\nDuration User "));
	free(out);
	runs_free(&t);
}

/*
 * Long names are never cut: over two header lines, bottom-aligned, and
 * each change row's name whole. Two candidates' tables are wider than
 * 80 columns: a note says how to narrow them; one candidate's fit.
 */
static void test_long_names(void **state)
{
	static const char *const mid_names[] = { "0ee84f0", "0ee84f0/good" };
	static const char *const names[] = {
		"vm-6.18.44-fc-v857/baseline", "vm-6.18.44-fc-v857/eevdf-slice",
		"vm-6.18.44-fc-v857/n7",
	};
	struct runs t;
	char *out, *tables;

	(void)state;
	assert_int_equal(build(&t, 2, names, NULL), 0);
	out = render(&t.c, false);
	assert_non_null(strstr(out, "\n"
		"                  vm-6.18.44-fc-v857/    vm-6.18.44-fc-v857/\n"
		"                             baseline            eevdf-slice\n"
		"Min       1 "));
	assert_non_null(strstr(out, "\n"
		"Change (median) 1    vm-6.18.44-fc-v857/eevdf-slice\n"
		"                                +10.0% [+6.9, +13.0]   p=0.0002  improved\n"));
	tables = strndup(out, (size_t)(strstr(out, "\nNotes:") - out));
	assert_true(widest_line(tables) <= 80);
	assert_null(strstr(out, "columns: for 80,"));
	free(tables);
	free(out);
	runs_free(&t);

	/* a name a little past the 10 columns widens them, and stays whole */
	assert_int_equal(build(&t, 2, mid_names, NULL), 0);
	out = render(&t.c, false);
	assert_non_null(strstr(out, "\nChange (median) 1    0ee84f0/good +10.0% [+6.9, +13.0]   p=0.0002  improved\n"));
	free(out);
	runs_free(&t);

	assert_int_equal(build(&t, 3, names, NULL), 0);
	out = render(&t.c, false);
	assert_non_null(strstr(out, "                             baseline            eevdf-slice  vm-6.18.44-fc-v857/n7\n"));
	assert_non_null(strstr(out, "\n(lines up to 83 columns: for 80, compare one candidate at a time, or --format markdown)\n"));
	free(out);
	runs_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metrics_headline_default),
		cmocka_unit_test(test_metrics_all),
		cmocka_unit_test(test_metrics_typo),
		cmocka_unit_test(test_ratio_row),
		cmocka_unit_test(test_brief_text),
		cmocka_unit_test(test_long_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
