// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "harness/options.h"
#include "util.h"

static void *field(const struct opt_def *o, void *cfg)
{
	return (char *)cfg + o->offset;
}

static const void *cfield(const struct opt_def *o, const void *cfg)
{
	return (const char *)cfg + o->offset;
}

const struct opt_def *opt_find(const struct opt_def *tab, const char *name)
{
	for (; tab->name; tab++)
		if (!tab->set && !strcmp(tab->name, name))
			return tab;
	return NULL;
}

void opt_spelling(const struct opt_def *o, char *buf, size_t len)
{
	const char *lng = o->long_flag ? o->long_flag : o->name;

	if (o->short_flag)
		snprintf(buf, len, "-%c/--%s", o->short_flag, lng);
	else
		snprintf(buf, len, "--%s", lng);
}

void opt_accepts(const struct opt_def *o, char *buf, size_t len)
{
	size_t n;

	switch (o->type) {
	case OPT_UINT:
		snprintf(buf, len, "a whole number in %llu..%llu", o->min,
			 o->max);
		break;
	case OPT_BOOL:
		snprintf(buf, len, "true or false");
		break;
	case OPT_STRING:
		snprintf(buf, len, "text");
		break;
	case OPT_ENUM:
		n = (size_t)snprintf(buf, len, "one of");
		for (const char *const *c = o->choices; *c && n < len; c++)
			n += (size_t)snprintf(buf + n, len - n, "%s %s",
					      c == o->choices ? "" : ",", *c);
		break;
	}
}

static int bad_value(const struct opt_def *o, const char *text,
		     const char *where, const char *why)
{
	char acc[256];

	opt_accepts(o, acc, sizeof(acc));
	return error("%s: '%s' %s (expected %s)", where, text, why, acc);
}

/*
 * Strict unsigned parsing: digits only (no sign, no blanks, no trailing
 * garbage), overflow detected rather than wrapped.
 */
static int parse_uint(const char *s, unsigned long long *out, bool *overflow)
{
	char *end;

	*overflow = false;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (*end)
		return -1;
	if (errno == ERANGE) {
		*overflow = true;
		return -1;
	}
	return 0;
}

static int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

int opt_set(const struct opt_def *o, void *cfg, const char *text,
	    const char *where)
{
	unsigned long long v;
	bool overflow, b;

	switch (o->type) {
	case OPT_UINT:
		if (parse_uint(text, &v, &overflow)) {
			if (overflow)
				return bad_value(o, text, where, "is too large");
			if (*text == '-')
				return bad_value(o, text, where,
						 "is negative");
			return bad_value(o, text, where, "is not a number");
		}
		if (v < o->min || v > o->max)
			return bad_value(o, text, where, "is out of range");
		*(unsigned int *)field(o, cfg) = (unsigned int)v;
		return 0;
	case OPT_BOOL:
		if (parse_bool(text, &b))
			return bad_value(o, text, where, "is not a boolean");
		*(bool *)field(o, cfg) = b;
		return 0;
	case OPT_ENUM:
		for (int i = 0; o->choices[i]; i++) {
			if (!strcmp(o->choices[i], text)) {
				*(int *)field(o, cfg) = i;
				return 0;
			}
		}
		return bad_value(o, text, where, "is not a known value");
	case OPT_STRING:
		if (!*text)
			return bad_value(o, text, where, "is empty");
		*(const char **)field(o, cfg) = text;
		return 0;
	}
	return -1;
}

void opts_defaults(const struct opt_def *tab, void *cfg)
{
	for (const struct opt_def *o = tab; o->name; o++) {
		if (o->set)
			continue;
		memset(field(o, cfg), 0,
		       o->type == OPT_UINT ? sizeof(unsigned int) :
		       o->type == OPT_BOOL ? sizeof(bool) :
		       o->type == OPT_STRING ? sizeof(char *) : sizeof(int));
		/* defaults are part of the table: a bad one is a bug */
		if (o->def && opt_set(o, cfg, o->def, o->name))
			abort();
	}
}

void opt_format(const struct opt_def *o, const void *cfg, char *buf,
		size_t len)
{
	switch (o->type) {
	case OPT_UINT:
		snprintf(buf, len, "%u", *(const unsigned int *)cfield(o, cfg));
		break;
	case OPT_BOOL:
		snprintf(buf, len, "%s",
			 *(const bool *)cfield(o, cfg) ? "true" : "false");
		break;
	case OPT_ENUM:
		snprintf(buf, len, "%s",
			 o->choices[*(const int *)cfield(o, cfg)]);
		break;
	case OPT_STRING:
		snprintf(buf, len, "%s", *(const char *const *)cfield(o, cfg) ?
			 *(const char *const *)cfield(o, cfg) : "");
		break;
	}
}

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

int opts_parse_argv(struct opt_target *targets, size_t ntargets, int argc,
		    char **argv, const char *who, bool allow_operands)
{
	size_t nentries = 0, nlong = 0, nsp = 0;
	struct spelling *sp, *by_short[256] = { 0 };
	const struct opt_def **flag_of;	/* which flag last set a target */
	struct option *lo;
	char shortopts[512] = ":";
	size_t slen = 1;
	int c, ret = -1;

	for (size_t t = 0; t < ntargets; t++)
		for (const struct opt_def *o = targets[t].tab; o->name; o++)
			nentries++;
	sp = xcalloc(nentries, sizeof(*sp));
	flag_of = xcalloc(nentries, sizeof(*flag_of));
	lo = xcalloc(2 * nentries + 1, sizeof(*lo));

	for (size_t t = 0; t < ntargets; t++) {
		for (const struct opt_def *o = targets[t].tab; o->name; o++) {
			struct spelling *s = &sp[nsp];
			int has_arg = o->set ? no_argument :
				      o->type == OPT_BOOL ? optional_argument :
				      required_argument;
			const char *names[2] = { o->long_flag,
						 o->set ? NULL : o->name };

			s->def = o;
			s->cfg = targets[t].cfg;
			s->target = o->set ? opt_find(targets[t].tab, o->name)
					   : o;
			if (!s->target)
				abort();	/* flag for a missing option */
			for (int k = 0; k < 2; k++) {
				if (!names[k] || long_taken(lo, nlong, names[k]))
					continue;
				lo[nlong].name = names[k];
				lo[nlong].has_arg = has_arg;
				lo[nlong].val = LONG_BASE + (int)nsp;
				nlong++;
			}
			if (o->short_flag) {
				by_short[(unsigned char)o->short_flag] = s;
				shortopts[slen++] = (char)o->short_flag;
				if (has_arg == required_argument)
					shortopts[slen++] = ':';
			}
			nsp++;
		}
	}
	shortopts[slen] = '\0';

	opterr = 0;
	optind = 1;
	for (;;) {
		char where[128], spell[64];
		struct spelling *s;
		int li = -1;

		c = getopt_long(argc, argv, shortopts, lo, &li);
		if (c == -1)
			break;
		if (c == '?' || c == ':') {
			const char *arg = argv[optind - 1];

			if (c == ':')
				error("%s: option '%s' needs a value (see 'schedlab %s --help')",
				      who, arg, who);
			else if (optopt >= LONG_BASE)
				error("%s: option '%s' takes no value", who, arg);
			else if (optopt)
				error("%s: unknown option '-%c' (see 'schedlab %s --help')",
				      who, optopt, who);
			else
				error("%s: unknown option '%s' (see 'schedlab %s --help')",
				      who, arg, who);
			goto out;
		}
		s = c >= LONG_BASE ? &sp[c - LONG_BASE] : by_short[c];
		opt_spelling(s->def, spell, sizeof(spell));
		snprintf(where, sizeof(where), "%s: option %s", who, spell);
		if (s->def->set) {
			/* spellings follow table order: this finds the target's */
			size_t ti = (size_t)((s - sp) + (s->target - s->def));
			const struct opt_def *prev = flag_of[ti];

			if (prev && prev != s->def &&
			    strcmp(prev->set, s->def->set)) {
				char p[64];

				opt_spelling(prev, p, sizeof(p));
				error("%s: options %s and %s cannot be used together",
				      who, p, spell);
				goto out;
			}
			flag_of[ti] = s->def;
			if (opt_set(s->target, s->cfg, s->def->set, where))
				goto out;
		} else if (s->def->type == OPT_BOOL && !optarg) {
			*(bool *)((char *)s->cfg + s->def->offset) = true;
		} else if (opt_set(s->def, s->cfg, optarg, where)) {
			goto out;
		}
	}
	if (!allow_operands && optind < argc) {
		error("%s: unexpected argument '%s' (see 'schedlab %s --help')",
		      who, argv[optind], who);
		goto out;
	}
	ret = optind;
out:
	free(sp);
	free(flag_of);
	free(lo);
	return ret;
}

void opts_help(FILE *f, const struct opt_def *tab)
{
	for (const struct opt_def *o = tab; o->name; o++) {
		const char *lng = o->long_flag ? o->long_flag : o->name;
		char left[96], acc[200], def[64] = "";
		int n;

		if (o->short_flag)
			n = snprintf(left, sizeof(left), "  -%c, --%s",
				     o->short_flag, lng);
		else
			n = snprintf(left, sizeof(left), "      --%s", lng);
		if (!o->set && o->type != OPT_BOOL)
			snprintf(left + n, sizeof(left) - (size_t)n, "=%s",
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
		if (o->long_flag && strcmp(o->long_flag, o->name))
			fprintf(f, "%-28s (also --%s; '%s' in job files)\n", "",
				o->name, o->name);
	}
}
