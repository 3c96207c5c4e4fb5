// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_argv.c: the option tables on the command line - getopt_long's
 * tables built from them (every name, alias and '_'/'-' twin, the short
 * flags), each option met set on its target, and --help's lines.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "util.h"

/* One command-line spelling: a getopt_long entry that maps to a def. */
struct spelling {
	const struct opt_def *def;
	void *cfg;
	const struct opt_def *target;	/* the canonical entry it sets */
};

#define LONG_BASE 0x1000

static bool long_taken(const struct option *lo, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(lo[i].name, name))
			return true;
	return false;
}

/* name with '_' and '-' swapped, or NULL if it has neither. */
static char *twin(const char *name)
{
	char *t;

	if (!strpbrk(name, "-_"))
		return NULL;
	t = xstrdup(name);
	for (char *c = t; *c; c++)
		if (*c == '-' || *c == '_')
			*c = *c == '-' ? '_' : '-';
	return t;
}

static size_t count_aliases(const struct opt_def *o)
{
	size_t n = 0;

	while (o->alias && o->alias[n])
		n++;
	return n;
}

/*
 * The long spellings of o into names (room for 2 * (1 + aliases)):
 * a flag's long_flag; an option's name and aliases, each also with '_'
 * and '-' swapped. The swapped copies are appended to owned, which
 * frees them.
 */
static size_t long_names(const struct opt_def *o, const char **names,
			 char **owned, size_t *nowned)
{
	size_t n = 0, na = count_aliases(o);

	if (o->set) {
		if (o->long_flag)
			names[n++] = o->long_flag;
		return n;
	}
	for (size_t i = 0; i <= na; i++) {
		const char *nm = i ? o->alias[i - 1] : o->name;
		char *t = twin(nm);

		names[n++] = nm;
		if (t) {
			owned[(*nowned)++] = t;
			names[n++] = t;
		}
	}
	return n;
}

/* The getopt_long tables built from the option tables, and what the
 * parse keeps beside them. */
struct argv_tables {
	struct spelling *sp;		/* one per entry, in table order */
	struct spelling *by_short[256];
	const struct opt_def **flag_of;	/* which flag last set a target */
	struct option *lo;
	char **owned;			/* the swapped spellings */
	size_t nowned;
	char shortopts[512];
};

/* Every entry of the targets' tables as getopt_long's long options (a
 * spelling once, the first entry's) and short options. */
static void argv_tables_build(struct argv_tables *at,
			      struct opt_target *targets, size_t ntargets)
{
	size_t nentries = 0, nnames = 0, nlong = 0, nsp = 0, slen = 1;
	const char **names;	/* one entry's long spellings */

	for (size_t t = 0; t < ntargets; t++)
		for (const struct opt_def *o = targets[t].tab; o->name; o++) {
			nentries++;
			nnames += 2 * (1 + count_aliases(o));
		}
	at->sp = xcalloc(nentries, sizeof(*at->sp));
	at->flag_of = xcalloc(nentries, sizeof(*at->flag_of));
	at->lo = xcalloc(nnames + 1, sizeof(*at->lo));
	at->owned = xcalloc(nnames, sizeof(*at->owned));
	names = xcalloc(nnames, sizeof(*names));
	at->shortopts[0] = ':';
	for (size_t t = 0; t < ntargets; t++) {
		for (const struct opt_def *o = targets[t].tab; o->name; o++) {
			struct spelling *s = &at->sp[nsp];
			int has_arg = o->set ? no_argument :
				      o->type == OPT_BOOL || o->bare ?
				      optional_argument :
				      required_argument;
			size_t nn = long_names(o, names, at->owned, &at->nowned);

			s->def = o;
			s->cfg = targets[t].cfg;
			s->target = o->set ? opt_find(targets[t].tab, o->name)
					   : o;
			if (!s->target)
				abort();	/* flag for a missing option */
			for (size_t k = 0; k < nn; k++) {
				if (long_taken(at->lo, nlong, names[k]))
					continue;
				at->lo[nlong].name = names[k];
				at->lo[nlong].has_arg = has_arg;
				at->lo[nlong].val = LONG_BASE + (int)nsp;
				nlong++;
			}
			if (o->short_flag) {
				at->by_short[(unsigned char)o->short_flag] = s;
				at->shortopts[slen++] = (char)o->short_flag;
				if (has_arg == required_argument)
					at->shortopts[slen++] = ':';
			}
			nsp++;
		}
	}
	at->shortopts[slen] = '\0';
	free(names);
}

static void argv_tables_free(struct argv_tables *at)
{
	for (size_t i = 0; i < at->nowned; i++)
		free(at->owned[i]);
	free(at->owned);
	free(at->sp);
	free(at->flag_of);
	free(at->lo);
}

/* What getopt_long's '?' or ':' (c) meant, said: a value missing or
 * given to a flag, an unknown option. Returns -1. */
static int bad_option(int c, char **argv, const char *who)
{
	const char *arg = argv[optind - 1];

	if (c == ':')
		return error("%s: option '%s' needs a value (see 'schedlab %s --help')",
			     who, arg, who);
	if (optopt >= LONG_BASE)
		return error("%s: option '%s' takes no value", who, arg);
	if (optopt)
		return error("%s: unknown option '-%c' (see 'schedlab %s --help')",
			     who, optopt, who);
	return error("%s: unknown option '%s' (see 'schedlab %s --help')",
		     who, arg, who);
}

/* The option met (s, its value in optarg) set on its target: a flag's
 * value, unless a different flag set the same option before; a bool or
 * bare option's value when none is given. 0, or -1 after error(). */
static int apply_option(struct argv_tables *at, const struct spelling *s,
			const char *who)
{
	char where[128], spell[64];

	opt_spelling(s->def, spell, sizeof(spell));
	snprintf(where, sizeof(where), "%s: option %s", who, spell);
	if (s->def->set) {
		/* spellings follow table order: this finds the target's */
		size_t ti = (size_t)((s - at->sp) + (s->target - s->def));
		const struct opt_def *prev = at->flag_of[ti];

		if (prev && prev != s->def && strcmp(prev->set, s->def->set)) {
			char p[64];

			opt_spelling(prev, p, sizeof(p));
			return error("%s: options %s and %s cannot be used together",
				     who, p, spell);
		}
		at->flag_of[ti] = s->def;
		return opt_set(s->target, s->cfg, s->def->set, where);
	}
	if (s->def->type == OPT_BOOL && !optarg) {
		*(bool *)((char *)s->cfg + s->def->offset) = true;
		return 0;
	}
	if (s->def->bare && !optarg)
		return opt_set(s->def, s->cfg, s->def->bare, where);
	return opt_set(s->def, s->cfg, optarg, where);
}

int opts_parse_argv(struct opt_target *targets, size_t ntargets, int argc,
		    char **argv, const char *who, bool allow_operands)
{
	struct argv_tables at = { 0 };
	int c, ret = -1;

	argv_tables_build(&at, targets, ntargets);
	opterr = 0;
	optind = 1;
	for (;;) {
		struct spelling *s;
		int li = -1;

		c = getopt_long(argc, argv, at.shortopts, at.lo, &li);
		if (c == -1)
			break;
		if (c == '?' || c == ':') {
			bad_option(c, argv, who);
			goto out;
		}
		s = c >= LONG_BASE ? &at.sp[c - LONG_BASE] : at.by_short[c];
		if (apply_option(&at, s, who))
			goto out;
	}
	if (!allow_operands && optind < argc) {
		error("%s: unexpected argument '%s' (see 'schedlab %s --help')",
		      who, argv[optind], who);
		goto out;
	}
	ret = optind;
out:
	argv_tables_free(&at);
	return ret;
}

/*
 * "--runtime, --length": the long spellings of o - its name, the name
 * with '-' for '_' (the command line's habit), its aliases as written.
 */
static int help_names(const struct opt_def *o, char *buf, size_t len)
{
	char *t = o->set || !strchr(o->name, '_') ? NULL : twin(o->name);
	int n;

	if (o->set)
		return snprintf(buf, len, "--%s", o->long_flag ? o->long_flag
							       : o->name);
	n = snprintf(buf, len, "--%s", o->name);
	if (t && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ", --%s", t);
	free(t);
	for (const char *const *a = o->alias; a && *a && (size_t)n < len; a++)
		n += snprintf(buf + n, len - (size_t)n, ", --%s", *a);
	return n;
}

void opts_help(FILE *f, const struct opt_def *tab)
{
	for (const struct opt_def *o = tab; o->name; o++) {
		char left[160], acc[200], def[64] = "";
		size_t n;

		if (o->short_flag)
			n = (size_t)snprintf(left, sizeof(left), "  -%c, ",
					     o->short_flag);
		else
			n = (size_t)snprintf(left, sizeof(left), "      ");
		n += (size_t)help_names(o, left + n, sizeof(left) - n);
		if (!o->set && o->type != OPT_BOOL && n < sizeof(left))
			snprintf(left + n, sizeof(left) - n, o->bare ? "[=%s]" : "=%s",
				 o->arg ? o->arg : "VALUE");
		if (o->set) {
			fprintf(f, "%-28s %s (same as %s=%s)\n", left, o->help,
				o->name, o->set);
			continue;
		}
		opt_accepts(o, acc, sizeof(acc));
		if (o->def)
			snprintf(def, sizeof(def), "; default %s", o->def);
		if (strlen(left) > 28)
			fprintf(f, "%s\n%-28s %s\n%-28s [%s%s]\n", left, "",
				o->help, "", acc, def);
		else
			fprintf(f, "%-28s %s\n%-28s [%s%s]\n", left, o->help,
				"", acc, def);
	}
}
