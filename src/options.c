// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
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
