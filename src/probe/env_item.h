/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * env_item: one item of the environment object (probe/sysenv.h), for
 * sysenv.c, cpus.c and the other readers of the machine:
 *	{ "available": true,  "value": V }		(V any JSON type)
 *	{ "available": false, "reason": "PATH: why; likely cause" }
 * an available one perhaps with "source" (where V came from); and the
 * first line of a file, which most items are.
 */
#ifndef SCHEDLAB_ENV_ITEM_H
#define SCHEDLAB_ENV_ITEM_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Item constructors and accessors (the shape above). */
json_t *sysenv_item(json_t *value);	/* steals value */
json_t *sysenv_missing(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
bool sysenv_item_ok(const json_t *item);
json_t *sysenv_item_value(const json_t *item);	/* borrowed; NULL if missing */
const char *sysenv_item_reason(const json_t *item); /* "" if available */
/* Adds "source" to an item; returns it. */
json_t *sysenv_with_source(json_t *item, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Not available: "PATH: strerror(err)", and "; enoent" for a missing file. */
json_t *sysenv_file_missing(const char *path, int err, const char *enoent);
/* The first line of path as an integer or string item, or why not. */
json_t *sysenv_file_item(const char *path, const char *enoent);
/* An integer when s is one, else the string. */
json_t *sysenv_scalar(const char *s);

/*
 * The first line of a file without its trailing whitespace. Returns 0,
 * or -errno (nothing printed: a missing file is an answer here).
 */
int sysenv_read_line(const char *path, char *buf, size_t len);

#endif
