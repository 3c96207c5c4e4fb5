/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * suites: the job files of jobs/ built into the binary, so that a suite
 * is found wherever schedlab runs, installed or not. The Makefile turns
 * every jobs/NAME.job into $(O)/gen/suites.c with tools/gen-suites.sh; jobs/
 * stays the source. Finding a suite by name, and listing suites, are in
 * plan.h (plan_load_spec(), plan_list_suites()).
 */
#ifndef SCHEDLAB_SUITES_H
#define SCHEDLAB_SUITES_H

#include <stddef.h>

struct suite {
	const char *name;	/* the job file's name without .job */
	const char *text;	/* its bytes, NUL-terminated */
	size_t len;		/* without the NUL */
};

/* In the order of their file names; ends with a NULL name. */
extern const struct suite builtin_suites[];

#endif
