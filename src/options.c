// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options.h"
#include "util.h"

static void *field(const struct opt_def *o, void *cfg)
{
	return (char *)cfg + o->offset;
}

static const void *cfield(const struct opt_def *o, const void *cfg)
{
	return (const char *)cfg + o->offset;
}

bool opt_name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') &&
				  (*b == '-' || *b == '_')))
			return false;
	return *a == *b;
}

static bool answers_to(const struct opt_def *o, const char *name)
{
	if (opt_name_eq(o->name, name))
		return true;
	for (const char *const *a = o->alias; a && *a; a++)
		if (opt_name_eq(*a, name))
			return true;
	return false;
}

const struct opt_def *opt_find(const struct opt_def *tab, const char *name)
{
	for (; tab->name; tab++)
		if (!tab->set && answers_to(tab, name))
			return tab;
	return NULL;
}

void opt_spelling(const struct opt_def *o, char *buf, size_t len)
{
	const char *lng = o->set && o->long_flag ? o->long_flag : o->name;

	if (o->short_flag)
		snprintf(buf, len, "-%c/--%s", o->short_flag, lng);
	else
		snprintf(buf, len, "--%s", lng);
}

/* Whether the OPT_ENUM o takes choices[i]. */
static bool enum_takes(const struct opt_def *o, int i)
{
	return !o->accept || (o->accept & (1u << i));
}

void opt_accepts(const struct opt_def *o, char *buf, size_t len)
{
	bool first = true;
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
	case OPT_LIST:
		snprintf(buf, len, "text, given up to %d times", OPT_LIST_MAX);
		break;
	case OPT_DURATION:
		snprintf(buf, len, "a duration in %llu..%llu seconds, such as 30, 30s, 2m or 1h",
			 o->min, o->max);
		break;
	case OPT_ENUM:
		n = (size_t)snprintf(buf, len, "one of");
		for (int i = 0; o->choices[i] && n < len; i++) {
			if (!enum_takes(o, i))
				continue;
			n += (size_t)snprintf(buf + n, len - n, "%s %s",
					      first ? "" : ",", o->choices[i]);
			first = false;
		}
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

int opt_parse_duration(const char *s, unsigned long long max,
		       unsigned long long *secs)
{
	unsigned long long v, unit = 1;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end == 'm')
		unit = 60;
	else if (*end == 'h')
		unit = 3600;
	else if (*end && *end != 's')
		return -1;
	if (*end && end[1])
		return -1;
	if (errno == ERANGE || v > max / unit)
		return -2;
	*secs = v * unit;
	return 0;
}

int opt_parse_percent(const char *who, const char *opt, const char *s,
		      double lo, double hi, double *out)
{
	char *end;
	double v = NAN;

	if (s && *s && !isspace((unsigned char)*s)) {
		v = strtod(s, &end);
		if (end == s)
			v = NAN;
		else if (*end == '%')
			end++;
		if (*end)
			v = NAN;
	}
	if (!(v >= lo && v <= hi))
		return error("%s: option --%s: expected a percentage in %g..%g (such as 5 or 2.5%%), got '%s'",
			     who, opt, lo, hi, s ? s : "");
	*out = v;
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
	int rc;

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
	case OPT_DURATION:
		rc = opt_parse_duration(text, o->max, &v);
		if (rc == -1)
			return bad_value(o, text, where, "is not a duration");
		if (rc || v < o->min)
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
			if (strcmp(o->choices[i], text))
				continue;
			if (!enum_takes(o, i))
				return bad_value(o, text, where,
						 "is not one this command takes");
			*(int *)field(o, cfg) = i;
			return 0;
		}
		return bad_value(o, text, where, "is not a known value");
	case OPT_STRING:
		if (!*text)
			return bad_value(o, text, where, "is empty");
		*(const char **)field(o, cfg) = text;
		return 0;
	case OPT_LIST: {
		struct opt_list *l = field(o, cfg);

		if (l->n == OPT_LIST_MAX)
			return bad_value(o, text, where, "is one too many");
		l->v[l->n++] = text;
		return 0;
	}
	}
	return -1;
}

void opts_defaults(const struct opt_def *tab, void *cfg)
{
	for (const struct opt_def *o = tab; o->name; o++) {
		if (o->set)
			continue;
		memset(field(o, cfg), 0,
		       o->type == OPT_UINT || o->type == OPT_DURATION ?
		       sizeof(unsigned int) :
		       o->type == OPT_BOOL ? sizeof(bool) :
		       o->type == OPT_STRING ? sizeof(char *) :
		       o->type == OPT_LIST ? sizeof(struct opt_list) :
		       sizeof(int));
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
	case OPT_DURATION:
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
	case OPT_LIST: {
		const struct opt_list *l = cfield(o, cfg);
		size_t n = 0;

		buf[0] = '\0';
		for (size_t i = 0; i < l->n && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      i ? " " : "", l->v[i]);
		break;
	}
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

int opts_parse_argv(struct opt_target *targets, size_t ntargets, int argc,
		    char **argv, const char *who, bool allow_operands)
{
	size_t nentries = 0, nnames = 0, nlong = 0, nsp = 0, nowned = 0;
	struct spelling *sp, *by_short[256] = { 0 };
	const struct opt_def **flag_of;	/* which flag last set a target */
	struct option *lo;
	char **owned;		/* the swapped spellings */
	const char **names;	/* one entry's long spellings */
	char shortopts[512] = ":";
	size_t slen = 1;
	int c, ret = -1;

	for (size_t t = 0; t < ntargets; t++)
		for (const struct opt_def *o = targets[t].tab; o->name; o++) {
			nentries++;
			nnames += 2 * (1 + count_aliases(o));
		}
	sp = xcalloc(nentries, sizeof(*sp));
	flag_of = xcalloc(nentries, sizeof(*flag_of));
	lo = xcalloc(nnames + 1, sizeof(*lo));
	owned = xcalloc(nnames, sizeof(*owned));
	names = xcalloc(nnames, sizeof(*names));

	for (size_t t = 0; t < ntargets; t++) {
		for (const struct opt_def *o = targets[t].tab; o->name; o++) {
			struct spelling *s = &sp[nsp];
			int has_arg = o->set ? no_argument :
				      o->type == OPT_BOOL || o->bare ?
				      optional_argument :
				      required_argument;
			size_t nn = long_names(o, names, owned, &nowned);

			s->def = o;
			s->cfg = targets[t].cfg;
			s->target = o->set ? opt_find(targets[t].tab, o->name)
					   : o;
			if (!s->target)
				abort();	/* flag for a missing option */
			for (size_t k = 0; k < nn; k++) {
				if (long_taken(lo, nlong, names[k]))
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
		} else if (s->def->bare && !optarg) {
			if (opt_set(s->def, s->cfg, s->def->bare, where))
				goto out;
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
	for (size_t i = 0; i < nowned; i++)
		free(owned[i]);
	free(owned);
	free(names);
	free(sp);
	free(flag_of);
	free(lo);
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
