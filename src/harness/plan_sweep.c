// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_sweep: one value of a job file - "4", "1,4,8", "1..64:*2",
 * "2*$ncpu", "pipe,socket" - expanded into the values it stands for,
 * each checked with the option's table and written as opt_format()
 * writes it, so that repeats ("4,04") are found and dropped.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/plan.h"
#include "harness/plan_int.h"
#include "util.h"

#define VALUE_MAX	1024	/* one formatted option value (a command line) */

void axis_free(struct axis *ax)
{
	for (size_t i = 0; i < ax->n; i++)
		free(ax->val[i]);
	free(ax->val);
	ax->val = NULL;
	ax->n = ax->raw = 0;
}

/* What expanding needs to say where a value came from and to check it. */
struct expansion {
	const char *path;
	unsigned ncpu;		/* what $ncpu stands for */
	const struct kv *kv;
	const struct opt_def *o;
	void *scratch;		/* a config of the workload, for opt_set() */
	struct axis *ax;
};

static int __attribute__((format(printf, 2, 3)))
sweep_error(const struct expansion *x, const char *fmt, ...)
{
	char msg[1024], at[PATH_MAX + 32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return error("%s: %s: %s", kv_where(x->path, x->kv, at, sizeof(at)),
		     x->kv->key, msg);
}

static const char *const term_help =
	"a number, $ncpu, N*$ncpu, $ncpu*N or $ncpu/N";

/* A number or $ncpu at *p, advancing past it and any blanks after. */
static int operand(const char **p, unsigned ncpu, unsigned long long *v,
		   bool *uses_ncpu)
{
	char *end;

	if (!strncmp(*p, "$ncpu", 5) && !isalnum((unsigned char)(*p)[5]) &&
	    (*p)[5] != '_') {
		*v = ncpu;
		*uses_ncpu = true;
		*p += 5;
	} else if (isdigit((unsigned char)**p)) {
		errno = 0;
		*v = strtoull(*p, &end, 10);
		if (errno)
			return -1;
		*p = end;
	} else {
		return -1;
	}
	while (isblank((unsigned char)**p))
		(*p)++;
	return 0;
}

/*
 * A term: a number or $ncpu, optionally times or divided by another.
 * Returns 0, -1 if it is not one, or -2 if it is 0 because of $ncpu.
 */
static int eval_term(const char *s, unsigned ncpu, unsigned long long *out)
{
	unsigned long long a, b;
	bool uses = false;
	char op;

	while (isblank((unsigned char)*s))
		s++;
	if (operand(&s, ncpu, &a, &uses))
		return -1;
	op = *s;
	if (op == '*' || op == '/') {
		s++;
		while (isblank((unsigned char)*s))
			s++;
		if (operand(&s, ncpu, &b, &uses))
			return -1;
		if (op == '*' && b && a > ULLONG_MAX / b)
			return -1;
		if (op == '/' && !b)
			return -1;
		a = op == '*' ? a * b : a / b;
	}
	if (*s)
		return -1;
	*out = a;
	return uses && !a ? -2 : 0;
}

static int term(const struct expansion *x, const char *item,
		unsigned long long *v)
{
	int rc = eval_term(item, x->ncpu, v);

	if (rc == -2)
		return sweep_error(x, "'%s' is 0 with %u CPUs", item,
				   x->ncpu);
	if (rc)
		return sweep_error(x, "'%s' is not a number or a term of $ncpu (expected %s)",
				   item, term_help);
	return 0;
}

/* Checks one value with the option table and keeps it unless repeated. */
static int add_value(const struct expansion *x, const char *text,
		     const char *from)
{
	char where[PATH_MAX + 256], canon[VALUE_MAX], at[PATH_MAX + 32];
	struct axis *ax = x->ax;

	kv_where(x->path, x->kv, at, sizeof(at));
	if (from)
		snprintf(where, sizeof(where), "%s: %s (from %s)", at,
			 x->kv->key, from);
	else
		snprintf(where, sizeof(where), "%s: %s", at, x->kv->key);
	if (opt_set(x->o, x->scratch, text, where))
		return -1;
	opt_format(x->o, x->scratch, canon, sizeof(canon));
	for (size_t i = 0; i < ax->n; i++)
		if (!strcmp(ax->val[i], canon))
			return 0;
	ax->val = plan_grow(ax->val, ax->n, sizeof(*ax->val));
	ax->val[ax->n++] = xstrdup(canon);
	return 0;
}

static int too_many(const struct expansion *x, unsigned long long more)
{
	if (x->ax->raw + more <= PLAN_MAX_CASES)
		return 0;
	return sweep_error(x, "'%s' lists more than %d values, the most cases a plan may have",
			   x->kv->value, PLAN_MAX_CASES);
}

/* "A..B", "A..B:STEP" or "A..B:*FACTOR". */
static int expand_range(const struct expansion *x, const char *item)
{
	unsigned long long a, b, step = 1, count, v;
	char *sa = xstrdup(item), *sb, *ss, *end, text[32];
	bool mul = false;
	int ra, rb, rc = -1;

	if (x->o->type != OPT_UINT && x->o->type != OPT_DURATION) {
		char acc[256];

		opt_accepts(x->o, acc, sizeof(acc));
		rc = sweep_error(x, "'%s' is a range, but %s takes %s", item,
				 x->o->name, acc);
		goto out;
	}
	sb = strstr(sa, "..");
	*sb = '\0';
	sb += 2;
	ss = strchr(sb, ':');
	if (ss)
		*ss++ = '\0';
	ra = eval_term(sa, x->ncpu, &a);
	rb = eval_term(sb, x->ncpu, &b);
	if (ra == -1 || rb == -1) {
		sweep_error(x, "'%s' is not a range (expected A..B, A..B:STEP or A..B:*FACTOR, with A and B %s)",
			    item, term_help);
		goto out;
	}
	if (ra == -2 || rb == -2) {
		sweep_error(x, "'%s' is 0 with %u CPUs, in '%s'",
			    plan_trim(ra == -2 ? sa : sb), x->ncpu, item);
		goto out;
	}
	if (ss) {
		mul = *ss == '*';
		ss += mul;
		errno = 0;
		step = isdigit((unsigned char)*ss) ? strtoull(ss, &end, 10) : 0;
		if (!step || errno || *end || step < 1u + mul) {
			sweep_error(x, "'%s' has a bad step (expected :N with N >= 1, or :*N with N >= 2)",
				    item);
			goto out;
		}
		if (mul && !a) {
			sweep_error(x, "'%s' starts at 0, which multiplying never leaves",
				    item);
			goto out;
		}
	}
	if (a > b) {
		sweep_error(x, "'%s' expands to nothing (%llu is above %llu)",
			    item, a, b);
		goto out;
	}
	if (mul)
		for (count = 1, v = a; v <= b / step; v *= step)
			count++;
	else
		count = (b - a) / step + 1;
	if (too_many(x, count))
		goto out;
	x->ax->raw += count;
	for (v = a;; v = mul ? v * step : v + step) {
		snprintf(text, sizeof(text), "%llu", v);
		if (add_value(x, text, item))
			goto out;
		if (mul ? v > b / step : b - v < step)
			break;
	}
	rc = 0;
out:
	free(sa);
	return rc;
}

static int expand_item(const struct expansion *x, char *item)
{
	unsigned long long v;
	char text[32];

	if (strstr(item, ".."))
		return expand_range(x, item);
	if (too_many(x, 1))
		return -1;
	x->ax->raw++;
	if ((x->o->type == OPT_UINT || x->o->type == OPT_DURATION) &&
	    strchr(item, '$')) {
		if (term(x, item, &v))
			return -1;
		snprintf(text, sizeof(text), "%llu", v);
		return add_value(x, text, item);
	}
	return add_value(x, item, NULL);
}

int sweep_expand(const char *path, const struct kv *kv,
		 const struct workload *wl, const struct opt_def *o,
		 unsigned ncpu, struct axis *ax)
{
	char *copy = xstrdup(kv->value), *p = copy, *comma;
	struct expansion x = { path, ncpu, kv, o, xcalloc(1, wl->cfg_size),
			       ax };
	int rc = 0;

	*ax = (struct axis){ .o = o, .kv = kv };
	ax->swept = strchr(kv->value, ',') || strstr(kv->value, "..");
	if (!ax->swept) {
		rc = expand_item(&x, copy);
		goto out;
	}
	do {
		char *item;

		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		item = plan_trim(p);
		if (!*item)
			rc = sweep_error(&x, "'%s' has an empty item", kv->value);
		else
			rc = expand_item(&x, item);
		/* not NULL + 1 past the last item: UB (fuzz_jobfile found it) */
		if (comma)
			p = comma + 1;
	} while (!rc && comma);
out:
	if (rc)
		axis_free(ax);
	free(x.scratch);
	free(copy);
	return rc;
}
