// SPDX-License-Identifier: GPL-2.0-only
/*
 * Common sense for a huge difference, through compare_build() as
 * compare and judge call it: one run a side, no store (no model), the
 * candidate's iterations 2.5 times as long and using 2.5 times the CPU
 * time. Both runs on a quiet machine: regressed, by common sense. Other
 * processes using 60% of the CPUs while either run ran (the run's
 * others_during_run): inconclusive, the why saying whose run it was and
 * how busy; at 20% (under NOISE_HUGE_OTHERS_MAX) it still decides, and
 * a run that does not say (an older one) is taken as quiet.
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

#include "compare/compare.h"
#include "compare/session.h"
#include "model/run.h"
#include "stats/noise.h"
#include "store/store.h"

#define NITER 5

/* A run of job msg whose iteration i takes (1 + i / 100) * factor s
 * and half that in CPU time; others: its others_during_run, NAN: not
 * recorded. */
static void make_run(const char *uuid, double factor, double others,
		     struct run *r)
{
	json_t *t = json_array(), *u = json_array(), *s = json_array();
	json_t *env = json_object(), *doc;

	for (int i = 0; i < NITER; i++) {
		double x = (1 + i / 100.0) * factor;

		json_array_append_new(t, json_real(x));
		json_array_append_new(u, json_real(x * 0.3));
		json_array_append_new(s, json_real(x * 0.2));
	}
	if (!isnan(others))
		json_object_set_new(env, "others_during_run",
				    json_pack("{s:b, s:f}", "available", 1,
					      "value", others));
	doc = json_pack("{s:s, s:{s:s, s:s, s:n, s:f, s:f, s:s, s:n, s:n},"
			" s:o, s:{s:{s:s, s:s, s:b, s:s}, s:{s:s, s:s, s:b, s:s},"
			" s:{s:s, s:s, s:b, s:s}},"
			" s:[{s:i, s:s, s:s, s:i, s:s, s:s, s:s, s:s, s:n,"
			" s:{}, s:{}, s:i, s:{s:o, s:o, s:o}}]}",
			"schema", EXPORT_SCHEMA, "run", "uuid", uuid, "label",
			uuid, "host", "started", 1.0, "ended", 2.0, "status",
			"complete", "command", "schedlab_version",
			"environment", env,
			"metrics", "messaging.time", "unit", "s", "better",
			"lower", "headline", 1, "help", "time",
			"process.user_s", "unit", "s", "better", "lower",
			"headline", 0, "help", "user CPU",
			"process.sys_s", "unit", "s", "better", "lower",
			"headline", 0, "help", "system CPU",
			"cases", "seq", 0, "job", "msg", "workload", "messaging",
			"version", 1, "params", "", "sweep_keys", "", "sweep", "",
			"status", "complete", "reason", "parameters", "settings",
			"iterations", NITER, "samples", "messaging.time", t,
			"process.user_s", u, "process.sys_s", s);
	assert_non_null(doc);
	assert_int_equal(export_validate(doc, uuid), 0);
	assert_int_equal(run_from_export(doc, uuid, r), 0);
	json_decref(doc);
}

/* The headline's result of base against a candidate 2.5 times slower,
 * with their others_during_run; the why into why. */
static enum verdict decide(double base_others, double cand_others,
			   bool *huge, char *why, size_t len)
{
	struct run r[2];
	const struct run *rp[2] = { &r[0], &r[1] };
	const char *names[2] = { "base", "cand" };
	struct cmp_opts o = compare_opts_default(TEST_DEFAULT);
	struct comparison c;
	enum verdict v;

	make_run("u-base", 1.0, base_others, &r[0]);
	make_run("u-cand", 2.5, cand_others, &r[1]);
	assert_int_equal(compare_build(rp, names, 2, &o, false, NULL, &c), 0);
	assert_int_equal(c.njobs, 1);
	assert_int_equal(c.jobs[0].ncases, 1);
	assert_true(c.jobs[0].cases[0].cell[1].ok);
	v = c.jobs[0].cases[0].cell[1].r.verdict;
	*huge = c.jobs[0].cases[0].cell[1].r.huge;
	snprintf(why, len, "%s", c.jobs[0].cases[0].cell[1].r.why);
	compare_free(&c);
	run_free(&r[0]);
	run_free(&r[1]);
	return v;
}

static void test_quiet_runs_are_decided(void **state)
{
	char why[CMP_WHY_LEN];
	bool huge;

	(void)state;
	assert_int_equal(decide(1, 2, &huge, why, sizeof(why)), V_REGRESSED);
	assert_true(huge);
	assert_non_null(strstr(why, "2.50 times the time and 2.50 times the CPU time"));
	/* under the bound still quiet; unrecorded taken as quiet */
	assert_int_equal(decide(20, NOISE_HUGE_OTHERS_MAX - 0.1, &huge, why,
				sizeof(why)), V_REGRESSED);
	assert_int_equal(decide(NAN, NAN, &huge, why, sizeof(why)), V_REGRESSED);
}

static void test_busy_runs_are_not(void **state)
{
	char why[CMP_WHY_LEN];
	bool huge;

	(void)state;
	assert_int_equal(decide(1, 60, &huge, why, sizeof(why)), V_INCONCLUSIVE);
	assert_false(huge);
	assert_non_null(strstr(why, "other processes used 60% of the CPUs while the candidate ran"));
	assert_non_null(strstr(why, "-150.0% is a difference no such noise makes"));
	assert_int_equal(decide(60, 1, &huge, why, sizeof(why)), V_INCONCLUSIVE);
	assert_non_null(strstr(why, "while the baseline ran"));
	assert_int_equal(decide(NOISE_HUGE_OTHERS_MAX + 0.1, NAN, &huge, why,
				sizeof(why)), V_INCONCLUSIVE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet_runs_are_decided),
		cmocka_unit_test(test_busy_runs_are_not),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
