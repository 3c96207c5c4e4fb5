/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/store: the value sets and JSON formatting that the
 * export document (export.c, export_series.c, export_file.c) and the
 * database (sqlite.c) share, so that both accept exactly the same things.
 */
#ifndef SCHEDLAB_STORE_EXPORT_H
#define SCHEDLAB_STORE_EXPORT_H

#include <jansson.h>
#include <stdbool.h>

/* Export files: readable, keys in order, doubles that read back exactly. */
#define EXPORT_DUMP_FLAGS \
	(JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))
/* JSON kept in a database column (environment, parameters). */
#define STORE_JSON_FLAGS \
	(JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

/* The largest workload version a document may give a case. */
#define EXPORT_VERSION_MAX 1000000

/* NULL-terminated sets of allowed strings. */
extern const char *const export_run_statuses[];	/* running complete ... */
extern const char *const export_case_statuses[];	/* complete failed */

/*
 * Whether ser is a monitor's series as monitor_rows_json() writes it: an
 * object with interval_ms, t and columns of as many numbers as t. 0, or
 * -1 with what is wrong in err.
 */
int export_check_series(const json_t *ser, char *err, size_t len);

/* Whether s is one of set (NULL-terminated). */
bool export_one_of(const char *s, const char *const *set);

/* export.c's checks for export_series.c: "ORIGIN: PATH: MSG", -1. */
int export_bad(const char *origin, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A case's series at path at (export_series.c): 0, or -1 after error(). */
int export_check_samples(const char *origin, json_t *c, const char *at,
			 json_t *metrics);
int export_check_histograms(const char *origin, json_t *c, const char *at);
int export_check_monitors(const char *origin, json_t *c, const char *at);

#endif
