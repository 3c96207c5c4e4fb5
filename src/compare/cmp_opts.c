// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare/cmp_opts.c: a command's comparison options into a struct
 * cmp_opts (cmp_opts.h), and the check that --test decided what it was
 * given for.
 */
#include "compare/cmp_opts.h"
#include "compare/session.h"
#include "options.h"
#include "util.h"

/* stat_test_names[] after "auto", in its order */
const char *const cmp_test_choices[] = {
	"auto", STAT_TEST_LIST(STAT_TEST_NAME_) NULL,
};
_Static_assert(ARRAY_SIZE(cmp_test_choices) == CMP_TEST_FIRST + TEST_N + 1,
	       "cmp_test_choices[] is stat_test_names[] after auto");
const char *const compare_units[] = { [UNIT_RUN] = "run",
				      [UNIT_ITERATION] = "iteration", NULL };
const char *const compare_matches[] = { [MATCH_PARAMS] = "params",
					[MATCH_JOB] = "job", NULL };
const char *const compare_bys[] = { [BY_RUN] = "run", [BY_HOST] = "host", NULL };

struct cmp_opts compare_opts_default(enum stat_test test)
{
	/* separate runs compared run against run (runs of one A/B keep
	 * the iterations as the unit: build_runs_unit()) */
	return (struct cmp_opts){ .test = test, .alpha = 0.05,
				  .nboot = BOOT_RESAMPLES, .seed = BOOT_SEED,
				  .runs_unit = true };
}

int compare_opts_from(const char *who, int test, enum cmp_unit unit,
		      const char *threshold, const char *metrics,
		      struct cmp_opts *co)
{
	*co = compare_opts_default(test == CMP_TEST_AUTO ? TEST_DEFAULT :
				   (enum stat_test)(test - CMP_TEST_FIRST));
	co->metrics = metrics;
	co->runs_unit = unit == UNIT_RUN;
	return opt_parse_percent(who, "threshold", threshold ? threshold : "5",
				 0, 1000, &co->threshold);
}

int compare_test_decided(const char *who, int test, const struct comparison *c)
{
	if (test == CMP_TEST_AUTO || !c->runs_used)
		return 0;
	return error("%s: --test %s cannot decide between separate runs: with --unit run (the default) each run's median is the sample and runs-t decides; leave --test out, or give --unit iteration where the runs were interleaved",
		     who, cmp_test_choices[test]);
}
