// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare/cases.c: what every part of the comparison's build asks of a
 * case - how two relate, its name, a metric's values (compare_int.h) -
 * in a leaf file that compare.c, notes.c and runs_unit.c all use.
 */
#include <stdio.h>

#include "compare/compare_int.h"

/* How two cases relate, by the one rule (compare/match.h). */
enum case_likeness build_likeness(const struct run_case *x,
				   const struct run_case *y, bool match_job)
{
	struct case_key a = case_key_of(x), b = case_key_of(y);

	return case_likeness(&a, &b, match_job);
}

const char *build_case_name(const struct run_case *cs, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", cs->job, *cs->sweep ? " " : "", cs->sweep);
	return buf;
}

/* The finite values of metric m (-1: none) of a case into x. */
size_t build_samples(const struct run_case *cs, int m, double *x)
{
	return m < 0 ? 0 : run_samples(cs, m, x);
}
