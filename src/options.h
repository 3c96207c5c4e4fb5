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
 *
 * An option's name is its job-file key and its long option alike. Other
 * spellings of it - a reference tool's long flag (perf's --loop), an old
 * name (rr's length) - are its .alias list; they are accepted wherever
 * the name is (job files, the command line, run --set) and opt_find()
 * resolves them to the canonical entry. '_' and '-' are the same letter
 * in every name and alias: request_size is also request-size.
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
	OPT_DURATION,	/* unsigned int seconds in [min, max]: 30, 30s, 2m, 1h */
	OPT_LIST,	/* struct opt_list: every value given, in order */
};

/* An OPT_LIST's values: texts that must outlive it (argv's). */
#define OPT_LIST_MAX 64
struct opt_list {
	const char *v[OPT_LIST_MAX];
	size_t n;
};

/* An alias list for struct opt_def: OPT_ALIASES("length", "len"). */
#define OPT_ALIASES(...) ((const char *const[]){ __VA_ARGS__, NULL })

struct opt_def {
	const char *name;	/* canonical: job files, JSON, --name */
	const char *const *alias;	/* other names, NULL-terminated, or NULL */
	enum opt_type type;
	size_t offset;		/* of the value in the config struct */
	const char *def;	/* default as text (NULL: zero) */
	unsigned long long min, max;
	const char *const *choices;	/* OPT_ENUM, NULL-terminated */
	/* OPT_ENUM: the choices taken, bit i for choices[i] (0: all); the
	 * others are refused, and left out of what errors say is taken */
	unsigned accept;
	const char *arg;	/* value placeholder in --help */
	const char *help;
	int short_flag;		/* the reference tool's short flag */
	const char *long_flag;	/* a flag's long spelling (options: .alias) */
	const char *set;	/* flag: no argument, sets .name to this */
	/* the value of --name given without one (--brief, --brief=5);
	 * NULL: the argument is required (OPT_BOOL: "1") */
	const char *bare;
};

/* A table and the config struct it fills. */
struct opt_target {
	const struct opt_def *tab;	/* terminated by { .name = NULL } */
	void *cfg;
};

/* Sets every option of tab to its default. */
void opts_defaults(const struct opt_def *tab, void *cfg);

/*
 * The canonical entry called name or one of its aliases ('-' and '_'
 * alike), or NULL.
 */
const struct opt_def *opt_find(const struct opt_def *tab, const char *name);

/* Whether two option names are the same, '-' and '_' alike. */
bool opt_name_eq(const char *a, const char *b);

/*
 * "30", "30s", "2m", "1h" into seconds: 0, -1 if s is not a duration,
 * -2 if it is above max seconds.
 */
int opt_parse_duration(const char *s, unsigned long long max,
		       unsigned long long *secs);

/*
 * The one parser of a percentage, for every command's option that takes
 * one (--threshold, --effect): "5", "5%", "5.0%" into *out, within
 * [lo, hi]. On bad input says "WHO: option --OPT: expected a percentage
 * in LO..HI (such as 5 or 2.5%), got 'S'" and returns -1.
 */
int opt_parse_percent(const char *who, const char *opt, const char *s,
		      double lo, double hi, double *out);

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

/*
 * "-g/--groups" or "--ipc": how the user spells it on a command line
 * (the canonical name; a flag's long_flag).
 */
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

/*
 * The --help lines for a table: every spelling of an option,
 * "-l, --runtime, --length=SECS", then its help and what it accepts.
 */
void opts_help(FILE *f, const struct opt_def *tab);

#endif
