// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/pg_copy.c: rows sent by COPY ... FROM STDIN in text format
 * (pg.h), for samples and histograms, nearly all of a run's bytes. Rows
 * are built in a buffer of tab-separated fields (a field's backslash,
 * tab, newline and carriage return escaped) and sent with
 * PQputCopyData() each time it passes COPY_CHUNK.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
