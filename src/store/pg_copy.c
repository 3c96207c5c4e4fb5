// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/pg_copy.c: rows sent by COPY ... FROM STDIN in text format
 * (pg.h), for samples and histograms, nearly all of a run's bytes. Rows
 * are built in a buffer of tab-separated fields (a field's backslash,
 * tab, newline and carriage return escaped) and sent with
 * PQputCopyData() each time it passes COPY_CHUNK. A stored case's
 * and an export document's samples and histograms go in this way.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"
#include "store/pg.h"
#include "util.h"

#define COPY_CHUNK (1u << 20)

static int copy_flush(struct copy *c)
{
	if (!c->len || c->failed)
		return c->failed ? -1 : 0;
	if (PQputCopyData(c->s->conn, c->buf, (int)c->len) != 1) {
		c->failed = true;
		return pg_error(c->s, NULL, "cannot store %s", c->table);
	}
	c->len = 0;
	return 0;
}

static void copy_room(struct copy *c, size_t n)
{
	if (c->len + n <= c->cap)
		return;
	while (c->len + n > c->cap)
		c->cap = c->cap ? 2 * c->cap : COPY_CHUNK + 4096;
	c->buf = xrealloc(c->buf, c->cap);
}

static void copy_raw(struct copy *c, const char *p, size_t n)
{
	copy_room(c, n);
	memcpy(c->buf + c->len, p, n);
	c->len += n;
}

static void copy_field(struct copy *c, const char *v)
{
	size_t n = strlen(v);

	copy_room(c, 2 * n + 1);
	for (; *v; v++) {
		char e = *v == '\\' ? '\\' : *v == '\t' ? 't' :
			 *v == '\n' ? 'n' : *v == '\r' ? 'r' : 0;

		if (e) {
			c->buf[c->len++] = '\\';
			c->buf[c->len++] = e;
		} else {
			c->buf[c->len++] = *v;
		}
	}
}

int copy_begin(struct copy *c, struct pg_store *s, const char *table,
		      const char *sql)
{
	PGresult *res;

	*c = (struct copy){ .s = s, .table = table };
	res = PQexec(s->conn, sql);
	if (PQresultStatus(res) != PGRES_COPY_IN) {
		pg_error(s, res, "cannot store %s", table);
		PQclear(res);
		return -1;
	}
	PQclear(res);
	c->open = true;
	return 0;
}

/* One row's end; sends the buffer when it is full. */
int copy_row_end(struct copy *c)
{
	c->buf[c->len - 1] = '\n';	/* the last field's tab */
	return c->len >= COPY_CHUNK ? copy_flush(c) : 0;
}

/* Ends the COPY: 0 when every row is stored. Frees the buffer. */
int copy_end(struct copy *c, bool ok)
{
	PGresult *res;
	int rc = -1;

	if (!c->open) {
		free(c->buf);
		return -1;
	}
	if (ok && !copy_flush(c) && PQputCopyEnd(c->s->conn, NULL) == 1) {
		rc = 0;
	} else if (!c->failed) {
		PQputCopyEnd(c->s->conn, "schedlab: cancelled");
		c->failed = true;
	}
	while ((res = PQgetResult(c->s->conn))) {
		if (!rc && PQresultStatus(res) != PGRES_COMMAND_OK)
			rc = pg_error(c->s, res, "cannot store %s", c->table);
		PQclear(res);
	}
	free(c->buf);
	c->buf = NULL;
	c->open = false;
	return ok ? rc : -1;
}

void copy_sample(struct copy *c, const char *case_id, const char *metric,
			int64_t iteration, double value)
{
	char num[64];
	int n;

	copy_raw(c, case_id, strlen(case_id));
	copy_field(c, metric);
	n = snprintf(num, sizeof(num), "\t%" PRId64 "\t%.17g\t", iteration, value);
	copy_raw(c, num, (size_t)n);
}

void copy_hist(struct copy *c, const char *case_id, const char *metric,
		      int64_t iteration, const char *buckets)
{
	char num[32];
	int n;

	copy_raw(c, case_id, strlen(case_id));
	copy_field(c, metric);
	n = snprintf(num, sizeof(num), "\t%" PRId64 "\t", iteration);
	copy_raw(c, num, (size_t)n);
	copy_field(c, buckets);
	copy_raw(c, "\t", 1);
}

#define COPY_SAMPLES "COPY samples (case_id, metric, iteration, value) FROM STDIN"
#define COPY_HISTS "COPY histograms (case_id, metric, iteration, buckets) FROM STDIN"

/* The case's samples and latency histograms, by COPY. */
int pg_copy_case(struct pg_store *s, int64_t case_id,
		 const struct store_case *c)
{
	struct copy cp;
	char idbuf[24];
	bool ok = true;
	size_t i, m;

	snprintf(idbuf, sizeof(idbuf), "%" PRId64 "\t", case_id);
	if (c->niter && c->nmetrics) {
		if (copy_begin(&cp, s, "samples", COPY_SAMPLES))
			return -1;
		for (i = 0; i < c->niter && ok; i++)
			for (m = 0; m < c->nmetrics && ok; m++) {
				double v = c->values[i * c->nmetrics + m];

				if (isnan(v))
					continue;
				copy_sample(&cp, idbuf, c->metrics[m].name,
					    (int64_t)i + 1, v);
				ok = !copy_row_end(&cp);
			}
		if (copy_end(&cp, ok))
			return -1;
	}
	for (i = 0; c->latency && i < c->niter && !c->latency[i]; i++)
		;
	if (!c->latency || i == c->niter)
		return 0;
	if (copy_begin(&cp, s, "histograms", COPY_HISTS))
		return -1;
	for (; i < c->niter && ok; i++) {
		json_t *h;
		char *text;

		if (!c->latency[i])
			continue;
		h = hist_to_json(c->latency[i]);
		text = h ? json_dumps(h, JSON_COMPACT) : NULL;
		json_decref(h);
		if (!text) {
			ok = false;
			error("%s: cannot encode histogram latency[%zu]",
			      s->base.name, i + 1);
			break;
		}
		copy_hist(&cp, idbuf, "latency", (int64_t)i + 1, text);
		free(text);
		ok = !copy_row_end(&cp);
	}
	return copy_end(&cp, ok);
}

/* fn of copy_member(): one value v of an export document into cp. */
typedef int (*copy_value_fn)(struct copy *cp, const char *case_id,
			     const char *name, size_t i, json_t *v);

/* Sample name[i] of case case_id (its id and a tab): a row, when a number. */
static int copy_sample_value(struct copy *cp, const char *case_id,
			     const char *name, size_t i, json_t *v)
{
	if (!json_is_number(v))
		return 0;
	copy_sample(cp, case_id, name, (int64_t)i + 1, json_number_value(v));
	return copy_row_end(cp);
}

/* Histogram name[i] of case case_id: a row, when an object. */
static int copy_hist_value(struct copy *cp, const char *case_id,
			   const char *name, size_t i, json_t *v)
{
	char *text;

	if (!json_is_object(v))
		return 0;
	text = json_dumps(v, JSON_COMPACT);
	if (!text)
		return error("%s: cannot encode histogram %s[%zu]",
			     cp->s->base.name, name, i + 1);
	copy_hist(cp, case_id, name, (int64_t)i + 1, text);
	free(text);
	return copy_row_end(cp);
}

/*
 * Member table ("samples", "histograms": {"NAME": [value, ...]}) of
 * every case, case k as ids[k], in one COPY of sql: fn adds each value.
 */
static int copy_member(struct pg_store *s, json_t *cases, const int64_t *ids,
		       const char *table, const char *sql, copy_value_fn fn)
{
	struct copy cp;
	const char *name;
	char idbuf[24];
	json_t *c, *arr, *v;
	bool ok = true;
	size_t k, i;

	if (copy_begin(&cp, s, table, sql))
		return -1;
	json_array_foreach(cases, k, c) {
		snprintf(idbuf, sizeof(idbuf), "%" PRId64 "\t", ids[k]);
		json_object_foreach(json_object_get(c, table), name, arr)
			json_array_foreach(arr, i, v)
				if (fn(&cp, idbuf, name, i, v)) {
					ok = false;
					goto done;
				}
	}
done:
	return copy_end(&cp, ok);
}

/* Every case's samples in one COPY, then every histogram in another. */
int pg_copy_import(struct pg_store *s, json_t *cases, const int64_t *ids)
{
	json_t *c;
	bool any = false;
	size_t k;

	if (copy_member(s, cases, ids, "samples", COPY_SAMPLES,
			copy_sample_value))
		return -1;
	json_array_foreach(cases, k, c)
		if (json_object_size(json_object_get(c, "histograms")))
			any = true;
	if (!any)
		return 0;
	return copy_member(s, cases, ids, "histograms", COPY_HISTS,
			   copy_hist_value);
}
