/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare/cmp_opts.h: what a command's comparison options mean, parsed
 * once for compare, judge and report (their option tables are cmd/'s):
 * --test, --unit, --match and --by as enums with their words, and
 * compare_opts_from(), the options into a struct cmp_opts built on
 * compare_opts_default(). --test decides at the level it names or is
 * refused (compare_test_decided()).
 */
#ifndef SCHEDLAB_COMPARE_CMP_OPTS_H
#define SCHEDLAB_COMPARE_CMP_OPTS_H

#include <stdbool.h>

#include "compare/compare.h"

/*
 * --test: CMP_TEST_AUTO (not given) lets the unit choose - runs-t
 * between separate runs, mann-whitney over interleaved iterations - and
 * CMP_TEST_FIRST + t is stat_test t, given.
 */
enum { CMP_TEST_AUTO, CMP_TEST_FIRST };
extern const char *const cmp_test_choices[];	/* "auto", stat_test_names */
#define CMP_TEST_HELP "what decides significance: auto (default) is runs-t between separate runs (--unit run) and mann-whitney over iterations; a test named decides over iterations, and is refused where separate runs are compared run against run; bands is mmtests' rule, lkp lkp-tests' (doc/statistics.md)"

/* --unit: what is replicated between separate runs. */
enum cmp_unit { UNIT_RUN, UNIT_ITERATION };
extern const char *const compare_units[];

/* --match: how cases pair up. */
enum cmp_match { MATCH_PARAMS, MATCH_JOB };
extern const char *const compare_matches[];

/* compare's --by: the runs as given, or a label's run per host. */
enum cmp_by { BY_RUN, BY_HOST };
extern const char *const compare_bys[];

/*
 * The options into *co, from compare_opts_default(): test a --test
 * choice (cmp_test_choices[]), threshold --threshold's text (NULL: 5),
 * metrics --metrics. -1 after error() naming who's option.
 */
int compare_opts_from(const char *who, int test, enum cmp_unit unit,
		      const char *threshold, const char *metrics,
		      struct cmp_opts *co);

/*
 * Whether a --test that was given (test not CMP_TEST_AUTO) decided c:
 * -1 after error() when c compared a candidate run against run, where
 * the runs' medians decide (runs-t) and no iteration test does.
 */
int compare_test_decided(const char *who, int test, const struct comparison *c);

/*
 * The options every comparison starts from: test, alpha 0.05,
 * BOOT_RESAMPLES resamples from BOOT_SEED, separate runs compared run
 * against run (runs_unit; compare's --unit iteration clears it);
 * callers set the rest.
 */
struct cmp_opts compare_opts_default(enum stat_test test);

#endif
