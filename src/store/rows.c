// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/rows.c: runs and cases as rows for every backend (rows.h) -
 * from `schedlab run`'s structs or an export document, checked for
 * what a schema cannot say - and histograms read back into the run
 * model. The backends only bind, send and fetch them.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "stats/hist.h"
#include "store/export.h"
#include "store/rows.h"
#include "util.h"

char *row_json_text(const char *db, json_t *obj, const char *what)
{
	char *text;

	if (!obj)
		return xstrdup("{}");
	if (!json_is_object(obj)) {
		error("%s: %s is not a JSON object", db, what);
		return NULL;
	}
	text = json_dumps(obj, STORE_JSON_FLAGS);
	if (!text)
		error("%s: cannot encode %s as JSON", db, what);
	return text;
}

const char *row_str(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

int row_run_begin(struct run_row *row, const char *db,
		  const struct store_run *r, char uuid[37])
{
	*row = (struct run_row){
		.uuid = r->uuid, .label = r->label, .host = r->host,
		.command = r->command, .version = r->version,
		.ab = r->ab, .variant = r->variant,
		.status = "running", .started = r->started, .ended = NAN,
	};
	row->environment = row_json_text(db, r->environment, "the environment");
	if (!row->environment)
		return -1;
	if (!row->uuid) {
		uuid_new(uuid, 37);
		row->uuid = uuid;
	}
	store_writer_self(&row->w);
	return 0;
}

int row_end_check(const char *db, int64_t id, const char *status)
{
	static const char *const ends[] = { "complete", "partial", "failed", NULL };

	if (!status || !export_one_of(status, ends))
		return error("%s: run %" PRId64 ": cannot end with status '%s'",
			     db, id, status ? status : "(null)");
	return 0;
}

int row_run_import(struct run_row *row, const char *db, json_t *doc,
		   const char *origin)
{
	json_t *run = json_object_get(doc, "run");
	json_t *ended = json_object_get(run, "ended");

	*row = (struct run_row){ .ended = NAN };
	if (export_validate(doc, origin))
		return -1;
	export_upgrade(doc);
	row->environment = row_json_text(db, json_object_get(doc, "environment"),
					 "the environment");
	if (!row->environment)
		return -1;
	row->uuid = row_str(run, "uuid");
	row->label = row_str(run, "label");
	row->host = row_str(run, "host");
	row->command = row_str(run, "command");
	row->version = row_str(run, "schedlab_version");
	row->ab = row_str(run, "ab");
	row->variant = row_str(run, "variant");
	row->status = row_str(run, "status");
	row->started = json_number_value(json_object_get(run, "started"));
	row->ended = json_is_number(ended) ? json_number_value(ended) : NAN;
	return 0;
}

void row_run_free(struct run_row *row)
{
	free(row->environment);
	row->environment = NULL;
}

/* What the schema cannot check, before anything is locked or sent. */
static int check_case(const char *db, int64_t run_id, const struct store_case *c)
{
	if (!c->job || !c->workload)
		return error("%s: run %" PRId64 ": case %u has no %s", db,
			     run_id, c->seq, c->job ? "workload" : "job");
	if (!c->status || !export_one_of(c->status, export_case_statuses))
		return error("%s: run %" PRId64 ": case %u: bad status '%s'",
			     db, run_id, c->seq,
			     c->status ? c->status : "(null)");
	if (c->niter && c->nmetrics && !c->values)
		return error("%s: run %" PRId64 ": case %u: no values", db,
			     run_id, c->seq);
	for (size_t m = 0; m < c->nmetrics; m++) {
		const struct metric_def *d = &c->metrics[m];

		if (!d->name || !*d->name || (unsigned)d->better > BETTER_NONE)
			return error("%s: run %" PRId64 ": case %u: metric %zu has no name or direction",
				     db, run_id, c->seq, m);
		for (size_t i = 0; i < c->niter; i++)
			if (isinf(c->values[i * c->nmetrics + m]))
				return error("%s: run %" PRId64 ": case %u: %s, iteration %zu: infinite value",
					     db, run_id, c->seq, d->name, i + 1);
	}
	return 0;
}

int row_case_add(struct case_row *row, const char *db, int64_t run_id,
		 const struct store_case *c, char **env)
{
	*row = (struct case_row){
		.seq = c->seq, .job = c->job, .workload = c->workload,
		.params = c->params, .sweep_keys = c->sweep_keys,
		.sweep = c->sweep, .status = c->status, .reason = c->reason,
		.iterations = (int64_t)c->niter,
		.version = c->version ? c->version : 1,
	};
	*env = NULL;
	if (check_case(db, run_id, c))
		return -1;
	row->parameters = row_json_text(db, c->parameters, "the case's parameters");
	if (!row->parameters ||
	    !(row->settings = row_json_text(db, c->settings, "the case's settings")))
		return -1;
	if (c->run_status && c->run_environment &&
	    !(*env = row_json_text(db, c->run_environment, "the environment")))
		return -1;
	return 0;
}

int row_case_import(struct case_row *row, const char *db, json_t *c)
{
	*row = (struct case_row){
		.seq = json_integer_value(json_object_get(c, "seq")),
		.job = row_str(c, "job"), .workload = row_str(c, "workload"),
		.params = row_str(c, "params"),
		.sweep_keys = row_str(c, "sweep_keys"),
		.sweep = row_str(c, "sweep"), .status = row_str(c, "status"),
		.reason = row_str(c, "reason"),
		.iterations = json_integer_value(json_object_get(c, "iterations")),
		.version = json_integer_value(json_object_get(c, "version")),
	};
	/* both, as before: each says what is wrong with it */
	row->parameters = row_json_text(db, json_object_get(c, "parameters"),
					"the case's parameters");
	row->settings = row_json_text(db, json_object_get(c, "settings"),
				      "the case's settings");
	if (!row->parameters || !row->settings)
		return -1;
	if (row->version < 1)
		row->version = 1;
	return 0;
}

void row_case_free(struct case_row *row)
{
	free(row->parameters);
	free(row->settings);
	row->parameters = row->settings = NULL;
}

int row_hist_load(struct run_case *c, const char *db, int64_t case_id,
		  const char *name, int64_t it, const char *text,
		  struct hist **check)
{
	bool latency = name && !strcmp(name, "latency");
	struct hist *h;
	json_t *j;
	int bad;

	if (it < 1 || (uint64_t)it > c->niter || !text)
		return error("%s: case %" PRId64 ": histogram %s[%" PRId64
			     "] does not fit its case", db, case_id, name, it);
	if (latency && !c->latency)
		c->latency = xcalloc(c->niter, sizeof(*c->latency));
	if (latency && !c->latency[it - 1])
		c->latency[it - 1] = xcalloc_lines(1, sizeof(struct hist));
	if (!latency && !*check)
		*check = xcalloc_lines(1, sizeof(**check));
	h = latency ? c->latency[it - 1] : *check;
	error_context("%s: case %" PRId64 ": histogram %s[%" PRId64 "]",
		      db, case_id, name, it);
	j = json_loads(text, 0, NULL);
	bad = j ? hist_from_json(j, h) : error("not JSON");
	error_context(NULL);
	json_decref(j);
	return bad ? -1 : 0;
}

int row_mon_load(struct run_case *c, const char *db, int64_t case_id,
		 const char *name, int64_t it, const char *text)
{
	char err[256];
	json_t *j, *arr;

	if (it < 1 || (uint64_t)it > c->niter || !text || !name)
		return error("%s: case %" PRId64 ": monitor %s[%" PRId64
			     "] does not fit its case", db, case_id,
			     name ? name : "(null)", it);
	j = json_loads(text, 0, NULL);
	if (!j || export_check_series(j, err, sizeof(err))) {
		json_decref(j);
		return error("%s: case %" PRId64 ": monitor %s[%" PRId64 "]: %s",
			     db, case_id, name, it, j ? err : "not JSON");
	}
	if (!c->monitors)
		c->monitors = json_object();
	arr = json_object_get(c->monitors, name);
	if (!arr) {
		arr = json_array();
		for (size_t i = 0; i < c->niter; i++)
			json_array_append_new(arr, json_null());
		json_object_set_new(c->monitors, name, arr);
	}
	json_array_set_new(arr, (size_t)it - 1, j);
	return 0;
}
