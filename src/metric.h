/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metric: what a measured value means - its dotted name, unit, which
 * direction is better, whether it is the headline a comparison leads
 * with. Workloads and probes declare tables of these; stats, store and
 * report read them. The words for a direction are spelled here once.
 */
#ifndef SCHEDLAB_METRIC_H
#define SCHEDLAB_METRIC_H

#include <stdbool.h>

enum better {
	BETTER_LOWER,
	BETTER_HIGHER,
	BETTER_NONE,	/* explanatory: no direction */
};

struct metric_def {
	const char *name;	/* dotted: "messaging.time" */
	const char *unit;	/* "s", "us", "msgs/s"; "" for a count */
	enum better better;
	bool headline;		/* the number a comparison leads with */
	const char *help;
};

/* "lower", "higher", "none" by enum better; NULL-terminated. */
extern const char *const better_names[];

/* A word of better_names[] to its direction; -1 for anything else. */
int better_parse(const char *s);

/*
 * How a table or heading says it: "lower" or "higher", and "-" for
 * BETTER_NONE where a table wants a dash.
 */
const char *better_word(enum better b);

#endif
