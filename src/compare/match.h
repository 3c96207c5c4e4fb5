/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare/match.h: the one rule by which two cases are the same
 * experiment, for everything that pairs cases - compare_build() (compare,
 * report, ab, show's tables, compare --by host, campaigns) and judge, for
 * its stored and its live references alike.
 *
 * Cases match by job, workload, the workload's version and params (the
 * options off their defaults) - or, with match_job (--match job), by
 * job, workload, version and sweep values, whatever the other options.
 * Two that differ only in the version measure differently: not the same.
 */
#ifndef SCHEDLAB_COMPARE_MATCH_H
#define SCHEDLAB_COMPARE_MATCH_H

#include <stdbool.h>

struct run;
struct run_case;

/* What the rule reads of a case: a stored one's, or a plan case's. */
struct case_key {
	const char *job, *workload;
	unsigned version;
	const char *params, *sweep;
};

/* How two cases relate. */
enum case_likeness {
	CASE_OTHER,	/* another experiment */
	CASE_VERSION,	/* the same but for the workload's version */
	CASE_SAME,
};

/* A stored case's key (borrowing its strings). */
struct case_key case_key_of(const struct run_case *c);

enum case_likeness case_likeness(const struct case_key *x,
				 const struct case_key *y, bool match_job);

/* The first case of r that is k's experiment, or NULL. */
const struct run_case *case_find(const struct run *r, const struct case_key *k,
				 bool match_job);

#endif
