/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options: one declarative table per workload (and per command) drives
 * the command line, job files, validation messages and --help.
 *
 * An entry either describes an option (name, type, where it lives in the
 * config struct, default, bounds, help), or, when .set is given, a flag
 * that takes no argument and sets the option called .name to .set - the
 * way hackbench's -p means "ipc = pipe". Flags are how reference tools'
 * command lines are accepted without a second parser.
 */
#ifndef SCHEDLAB_OPTIONS_H
#define SCHEDLAB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum opt_type {
	OPT_UINT,	/* unsigned int, bounded by [min, max] */
	OPT_BOOL,	/* bool; "1/0, yes/no, true/false, on/off" */
	OPT_ENUM,	/* int index into .choices */
	OPT_STRING,	/* const char *: points at the text, which must outlive it */
};

struct opt_def {
	const char *name;	/* canonical: job files, JSON, --name */
	enum opt_type type;
	size_t offset;		/* of the value in the config struct */
	const char *def;	/* default as text (NULL: zero) */
	unsigned long long min, max;
	const char *const *choices;	/* OPT_ENUM, NULL-terminated */
	const char *arg;	/* value placeholder in --help */
	const char *help;
	int short_flag;		/* the reference tool's short flag */
	const char *long_flag;	/* its long flag, when not .name */
	const char *set;	/* flag: no argument, sets .name to this */
};

/* A table and the config struct it fills. */
struct opt_target {
	const struct opt_def *tab;	/* terminated by { .name = NULL } */
	void *cfg;
};

/* Sets every option of tab to its default. */
void opts_defaults(const struct opt_def *tab, void *cfg);

/* The canonical entry called name, or NULL. */
const struct opt_def *opt_find(const struct opt_def *tab, const char *name);

/*
 * Parses text into option o of cfg. On bad input says so, naming `where`
 * (e.g. "option -g/--groups" or "quick.ini:12: groups") and the accepted
 * values, and returns -1.
 */
int opt_set(const struct opt_def *o, void *cfg, const char *text,
	    const char *where);

/* The current value as text ("10", "pipe", "true"). */
void opt_format(const struct opt_def *o, const void *cfg, char *buf,
		size_t len);

/* "-g/--groups" or "--ipc": how the user spells it on a command line. */
void opt_spelling(const struct opt_def *o, char *buf, size_t len);

/* What the option accepts: "a whole number in 1..100000". */
void opt_accepts(const struct opt_def *o, char *buf, size_t len);

/*
 * getopt_long over several tables at once. `who` prefixes messages
 * ("bench messaging"). Returns the index of the first operand, or -1
 * after printing one message (unknown option, bad value, conflicting
 * flags). Operands are not allowed unless allow_operands.
 */
int opts_parse_argv(struct opt_target *targets, size_t ntargets, int argc,
		    char **argv, const char *who, bool allow_operands);

/* The --help lines for a table. */
void opts_help(FILE *f, const struct opt_def *tab);

#endif
