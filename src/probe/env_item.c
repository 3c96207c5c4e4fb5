// SPDX-License-Identifier: GPL-2.0-only
/*
 * env_item: the items of the environment object (env_item.h) - a value
 * or why it could not be read - and the first line of a file.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/env_item.h"

#define LINE		4096

json_t *sysenv_item(json_t *value)
{
	json_t *it = json_object();

	json_object_set_new(it, "available", json_true());
	json_object_set_new(it, "value", value ? value : json_null());
	return it;
}

json_t *sysenv_missing(const char *fmt, ...)
{
	json_t *it = json_object();
	char why[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	json_object_set_new(it, "available", json_false());
	json_object_set_new(it, "reason", json_string(why));
	return it;
}

bool sysenv_item_ok(const json_t *item)
{
	return json_is_true(json_object_get(item, "available"));
}

json_t *sysenv_item_value(const json_t *item)
{
	return sysenv_item_ok(item) ? json_object_get(item, "value") : NULL;
}

const char *sysenv_item_reason(const json_t *item)
{
	const char *r = json_string_value(json_object_get(item, "reason"));

	return r ? r : "";
}

json_t *sysenv_with_source(json_t *item, const char *fmt, ...)
{
	char src[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(src, sizeof(src), fmt, ap);
	va_end(ap);
	json_object_set_new(item, "source", json_string(src));
	return item;
}

json_t *sysenv_file_missing(const char *path, int err, const char *enoent)
{
	if (err == ENOENT && enoent && *enoent)
		return sysenv_missing("%s: %s; %s", path, strerror(err), enoent);
	return sysenv_missing("%s: %s", path, strerror(err));
}

json_t *sysenv_scalar(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (*s && !*end && !errno)
		return json_integer(v);
	return json_string(s);
}

json_t *sysenv_file_item(const char *path, const char *enoent)
{
	char buf[LINE];
	int err = sysenv_read_line(path, buf, sizeof(buf));

	if (err)
		return sysenv_file_missing(path, -err, enoent);
	return sysenv_item(sysenv_scalar(buf));
}

int sysenv_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	errno = 0;
	if (!fgets(buf, (int)len, f)) {
		int err = ferror(f) ? (errno ? errno : EIO) : 0;

		fclose(f);
		buf[0] = '\0';
		return -err;
	}
	fclose(f);
	n = strlen(buf);
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}
