// SPDX-License-Identifier: GPL-2.0-only
/*
 * report/render_queue.c: schedlab queue list's output - the fleet's
 * jobs (store/queue.h) as a table, or a JSON array, with where each ran
 * and what came of it (report/render_queue.h).
 */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/render_queue.h"
#include "store/queue.h"
#include "util.h"

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *num_or_null(double x)
{
	return isnan(x) ? json_null() : json_real(x);
}

int render_queue_json(FILE *f, const struct queue_row *r, size_t n)
{
	json_t *a = json_array();
	int rc;

	for (size_t i = 0; i < n; i++, r++)
		json_array_append_new(a, json_pack(
			"{s:I, s:s, s:i, s:s, s:o, s:o, s:o, s:o, s:o, s:i, s:o,"
			" s:o, s:o, s:b, s:b, s:o, s:o, s:o, s:o, s:o}",
			"id", (json_int_t)r->id, "state", r->state,
			"priority", r->priority, "name", r->name,
			"label", str_or_null(r->label),
			"hosts", str_or_null(r->hosts),
			"tags", str_or_null(r->tags),
			"kernel", str_or_null(r->kernel),
			"agent", str_or_null(r->agent),
			"attempts", r->attempts,
			"result_attempt", r->result_attempt ?
				json_integer(r->result_attempt) : json_null(),
			"run_uuid", str_or_null(r->run_uuid),
			"reason", str_or_null(r->reason),
			"needs_commands", r->needs_commands,
			"needs_knobs", r->needs_knobs,
			"exit_status", r->exit_status < 0 ? json_null() :
				json_integer(r->exit_status),
			"lease_left", num_or_null(r->lease_left),
			"created", num_or_null(r->created),
			"started", num_or_null(r->started),
			"ended", num_or_null(r->ended)));
	rc = json_dumpf(a, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(a);
	return rc;
}

/* WHERE: hosts, tags, kernel; "any" */
static void where_of(const struct queue_row *r, char *buf, size_t len)
{
	int n = 0;

	buf[0] = '\0';
	if (r->hosts && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "hosts=%s", r->hosts);
	if (r->tags && *r->tags && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%stags=%s", n ? " " : "",
			      r->tags);
	if (r->kernel && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%skernel=%s",
			      n ? " " : "", r->kernel);
	if (!*buf)
		snprintf(buf, len, "any");
}

/*
 * RESULT; a finished job's result that another attempt than the last
 * claim's produced says which ("attempt 1 of 2": AGENT ran it).
 */
static void result_of(const struct queue_row *r, char *buf, size_t len)
{
	char of[48] = "";

	if (r->result_attempt && r->result_attempt != r->attempts)
		snprintf(of, sizeof(of), " (attempt %d of %d)",
			 r->result_attempt, r->attempts);
	if (!strcmp(r->state, "done") && r->run_uuid)
		snprintf(buf, len, "%s%s", r->run_uuid, of);
	else if (!strcmp(r->state, "running") && !isnan(r->lease_left))
		snprintf(buf, len, "lease %.0fs", r->lease_left);
	else if (!strcmp(r->state, "failed"))
		snprintf(buf, len, "exit %d%s%s%s", r->exit_status,
			 r->reason ? ": " : "", r->reason ? r->reason : "", of);
	else
		snprintf(buf, len, "%s", r->reason ? r->reason : "-");
}

/* A row's texts, each one cell: a newline in a label is "\\n". */
struct row_text {
	char *name, *label, *where, *agent, *result;
};

static void row_text_of(const struct queue_row *r, struct row_text *t)
{
	char buf[512];

	t->name = text_field(r->name, "-");
	t->label = text_field(r->label, "-");
	where_of(r, buf, sizeof(buf));
	t->where = text_field(buf, "-");
	t->agent = text_field(r->agent, "-");
	result_of(r, buf, sizeof(buf));
	t->result = text_field(buf, "-");
}

static void row_text_free(struct row_text *t)
{
	free(t->name);
	free(t->label);
	free(t->where);
	free(t->agent);
	free(t->result);
}

int render_queue_text(FILE *f, const struct queue_row *r, size_t n)
{
	int wn = 4, wl = 5, ww = 5, wa = 5;
	struct row_text *t = xcalloc(n + 1, sizeof(*t));

	for (size_t i = 0; i < n; i++) {
		int k;

		row_text_of(&r[i], &t[i]);
		k = (int)strlen(t[i].name);
		wn = k > wn ? k : wn;
		k = (int)strlen(t[i].label);
		wl = k > wl ? k : wl;
		k = (int)strlen(t[i].where);
		ww = k > ww ? k : ww;
		k = (int)strlen(t[i].agent);
		wa = k > wa ? k : wa;
	}
	fprintf(f, "%6s  %-9s  %4s  %-*s  %-*s  %-*s  %-*s  %5s  %s\n", "ID",
	       "STATE", "PRI", wn, "NAME", wl, "LABEL", ww, "WHERE", wa,
	       "AGENT", "TRIES", "RESULT");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%6" PRId64 "  %-9s  %4d  %-*s  %-*s  %-*s  %-*s  %5d  %s\n",
		       r[i].id, r[i].state, r[i].priority, wn, t[i].name, wl,
		       t[i].label, ww, t[i].where, wa, t[i].agent, r[i].attempts,
		       t[i].result);
		row_text_free(&t[i]);
	}
	free(t);
	return 0;
}
