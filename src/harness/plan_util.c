// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_util: the small helpers every file of plan uses (plan_int.h) -
 * where a key was written, a value's blanks cut, an array grown. A leaf,
 * so that plan.c and the files it calls do not call each other.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/plan_int.h"
#include "util.h"

const char *kv_where(const char *path, const struct kv *kv, char *buf,
		     size_t len)
{
	if (kv->origin)
		snprintf(buf, len, "%s", kv->origin);
	else
		snprintf(buf, len, "%s:%u", path, kv->line);
	return buf;
}

char *plan_trim(char *s)
{
	char *e = s + strlen(s);

	while (isblank((unsigned char)*s))
		s++;
	while (e > s && isblank((unsigned char)e[-1]))
		e--;
	*e = '\0';
	return s;
}

/* Room for element n of an array that grows by doubling. */
void *plan_grow(void *arr, size_t n, size_t size)
{
	void *p;

	if (n & (n - 1))
		return arr;	/* not a power of two: there is room */
	p = xmalloc((n ? 2 * n : 1) * size);
	if (n)
		memcpy(p, arr, n * size);
	free(arr);
	return p;
}
