/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rundoc: a run as its export document (store.h), the way every command
 * that reads runs finds and reads one - show, export, compare, judge.
 * RUN is an exported JSON file ("-": standard input), else a run id or a
 * label (the latest run with it) in the database.
 */
#ifndef SCHEDLAB_CMD_RUNDOC_H
#define SCHEDLAB_CMD_RUNDOC_H

#include <jansson.h>
#include <stddef.h>

#include "workload/workload.h"

/* db: --db as given (NULL: store_default_path()). Writes the path; -1 after error(). */
int rundoc_db_path(const char *db, char *buf, size_t len);

/* RUN to its validated export document; NULL after error() naming RUN. */
json_t *rundoc_load(const char *spec, const char *db);

/* The headline metric of a workload among a document's metrics, or NULL. */
const char *rundoc_headline(const json_t *metrics, const char *workload);

/* "higher", "lower", "none" (or NULL) to enum better. */
enum better rundoc_better(const char *s);

/*
 * The finite samples of one metric of a case, in a new array (*x, to be
 * freed; never NULL); returns how many. Nulls (not measured) are skipped.
 */
size_t rundoc_samples(const json_t *c, const char *metric, double **x);

/* A string member, "" when absent or null. */
const char *rundoc_str(const json_t *o, const char *key);

#endif
