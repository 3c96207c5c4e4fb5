// SPDX-License-Identifier: GPL-2.0-only
/*
 * export: the "schedlab-run/1" document (doc/export.md) checked, one
 * that came from outside: its run and cases here, their series in
 * export_series.c. Reading and writing it as a file is export_file.c's;
 * building one from a database and storing one is sqlite.c's business.
 *
 * Validation is strict about what the document must hold (every field,
 * its JSON type, the allowed statuses, one value or null per iteration)
 * and silent about members it does not know, so that fields added
 * within the version do not break older readers. A document from
 * before a field was added (a case's version and settings) is read and
 * upgraded in place (export_upgrade()); one from before the A/B link
 * (run.ab, run.variant) reads as a run made alone.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/plan.h"
#include "store/export.h"
#include "store/store.h"
#include "util.h"
#include "workload/registry.h"

const char *const export_run_statuses[] = {
	"running", "complete", "partial", "failed", "abandoned", NULL
};
const char *const export_case_statuses[] = { "complete", "failed", NULL };

bool export_one_of(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(s, *set))
			return true;
	return false;
}

/* What a member must be. */
enum want {
	W_STRING,
	W_STRING_NULL,
	W_NUMBER,
	W_NUMBER_NULL,
	W_COUNT,	/* an integer >= 0 */
	W_BOOL,
	W_OBJECT,
	W_ARRAY,
};

static const char *const want_text[] = {
	[W_STRING] = "a string",
	[W_STRING_NULL] = "a string or null",
	[W_NUMBER] = "a number",
	[W_NUMBER_NULL] = "a number or null",
	[W_COUNT] = "a non-negative integer",
	[W_BOOL] = "true or false",
	[W_OBJECT] = "an object",
	[W_ARRAY] = "an array",
};

static bool is(const json_t *v, enum want w)
{
	switch (w) {
	case W_STRING:
		return json_is_string(v);
	case W_STRING_NULL:
		return json_is_string(v) || json_is_null(v);
	case W_NUMBER:
		return json_is_number(v);
	case W_NUMBER_NULL:
		return json_is_number(v) || json_is_null(v);
	case W_COUNT:
		return json_is_integer(v) && json_integer_value(v) >= 0;
	case W_BOOL:
		return json_is_boolean(v);
	case W_OBJECT:
		return json_is_object(v);
	case W_ARRAY:
		return json_is_array(v);
	}
	return false;
}

struct field {
	const char *key;
	enum want want;
	const char *const *one_of;	/* for strings, or NULL */
};

static const struct field run_fields[] = {
	{ "uuid", W_STRING, NULL },
	{ "label", W_STRING_NULL, NULL },
	{ "host", W_STRING_NULL, NULL },
	{ "started", W_NUMBER, NULL },
	{ "ended", W_NUMBER_NULL, NULL },
	{ "status", W_STRING, export_run_statuses },
	{ "command", W_STRING_NULL, NULL },
	{ "schedlab_version", W_STRING_NULL, NULL },
	{ 0 }
};

/* Optional members of run (documents before the A/B link have none). */
static const struct field run_optional[] = {
	{ "ab", W_STRING_NULL, NULL },
	{ "variant", W_STRING_NULL, NULL },
	{ 0 }
};

static const struct field metric_fields[] = {
	{ "unit", W_STRING, NULL },
	{ "better", W_STRING, better_names },
	{ "headline", W_BOOL, NULL },
	{ "help", W_STRING, NULL },
	{ 0 }
};

static const struct field case_fields[] = {
	{ "seq", W_COUNT, NULL },
	{ "job", W_STRING, NULL },
	{ "workload", W_STRING, NULL },
	{ "params", W_STRING_NULL, NULL },
	{ "sweep_keys", W_STRING_NULL, NULL },
	{ "sweep", W_STRING_NULL, NULL },
	{ "status", W_STRING, export_case_statuses },
	{ "reason", W_STRING_NULL, NULL },
	{ "parameters", W_OBJECT, NULL },
	{ "iterations", W_COUNT, NULL },
	{ "samples", W_OBJECT, NULL },
	{ 0 }
};

/* "a, b or c" */
static void set_text(const char *const *set, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; set[i] && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s",
			      !i ? "" : set[i + 1] ? ", " : " or ", set[i]);
}

/*
 * obj's member key, checked against want; at is obj's path ("" for the
 * document). NULL after error().
 */
static json_t *member(const char *origin, json_t *obj, const char *at,
		      const char *key, enum want want)
{
	json_t *v = json_object_get(obj, key);
	char path[512];

	snprintf(path, sizeof(path), "%s%s%s", at, *at ? "." : "", key);
	if (!v) {
		export_bad(origin, path, "missing");
		return NULL;
	}
	if (!is(v, want)) {
		export_bad(origin, path, "expected %s", want_text[want]);
		return NULL;
	}
	return v;
}

static int check_fields(const char *origin, json_t *obj, const char *at,
			const struct field *fields)
{
	for (const struct field *f = fields; f->key; f++) {
		json_t *v = member(origin, obj, at, f->key, f->want);
		char path[512], set[128];

		if (!v)
			return -1;
		if (!f->one_of || export_one_of(json_string_value(v), f->one_of))
			continue;
		snprintf(path, sizeof(path), "%s.%s", at, f->key);
		set_text(f->one_of, set, sizeof(set));
		return export_bad(origin, path, "\"%s\" is not %s",
			   json_string_value(v), set);
	}
	return 0;
}

/* fields that obj may lack, checked when it has them */
static int check_optional(const char *origin, json_t *obj, const char *at,
			  const struct field *fields)
{
	for (const struct field *f = fields; f->key; f++)
		if (json_object_get(obj, f->key) &&
		    !member(origin, obj, at, f->key, f->want))
			return -1;
	return 0;
}

static int check_metrics(const char *origin, json_t *metrics)
{
	const char *name;
	json_t *m;

	json_object_foreach(metrics, name, m) {
		char at[512];

		snprintf(at, sizeof(at), "metrics.%s", name);
		if (!*name)
			return export_bad(origin, "metrics", "a metric without a name");
		if (!json_is_object(m))
			return export_bad(origin, at, "expected an object");
		if (check_fields(origin, m, at, metric_fields))
			return -1;
	}
	return 0;
}

static int check_identity(const char *origin, json_t *c, const char *at)
{
	json_t *version = json_object_get(c, "version");
	json_t *settings = json_object_get(c, "settings"), *v;
	const char *name;
	char path[512];

	snprintf(path, sizeof(path), "%s.version", at);
	if (version && (!json_is_integer(version) ||
			json_integer_value(version) < 1 ||
			json_integer_value(version) > EXPORT_VERSION_MAX))
		return export_bad(origin, path, "expected an integer from 1 to %d",
			   EXPORT_VERSION_MAX);
	if (!settings)
		return 0;
	snprintf(path, sizeof(path), "%s.settings", at);
	if (!json_is_object(settings))
		return export_bad(origin, path, "expected an object");
	json_object_foreach(settings, name, v) {
		if (json_is_string(v))
			continue;
		snprintf(path, sizeof(path), "%s.settings.%s", at, name);
		return export_bad(origin, path, "expected a string");
	}
	return 0;
}

struct seq_at {
	json_int_t seq;
	size_t index;
};

static int cmp_seq(const void *a, const void *b)
{
	const struct seq_at *x = a, *y = b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int check_cases(const char *origin, json_t *cases, json_t *metrics)
{
	size_t n = json_array_size(cases), i;
	struct seq_at *seqs = xcalloc(n, sizeof(*seqs));
	int rc = -1;
	json_t *c;

	json_array_foreach(cases, i, c) {
		char at[64];

		snprintf(at, sizeof(at), "cases[%zu]", i);
		if (!json_is_object(c)) {
			export_bad(origin, at, "expected an object");
			goto out;
		}
		if (check_fields(origin, c, at, case_fields) ||
		    check_identity(origin, c, at) ||
		    export_check_samples(origin, c, at, metrics) ||
		    export_check_histograms(origin, c, at) ||
		    export_check_monitors(origin, c, at))
			goto out;
		seqs[i].seq = json_integer_value(json_object_get(c, "seq"));
		seqs[i].index = i;
	}
	qsort(seqs, n, sizeof(*seqs), cmp_seq);
	for (i = 1; i < n; i++) {
		char at[64];

		if (seqs[i].seq != seqs[i - 1].seq)
			continue;
		snprintf(at, sizeof(at), "cases[%zu].seq", seqs[i].index);
		export_bad(origin, at, "%" JSON_INTEGER_FORMAT " is also cases[%zu].seq",
		    seqs[i].seq, seqs[i - 1].index);
		goto out;
	}
	rc = 0;
out:
	free(seqs);
	return rc;
}

int export_validate(json_t *doc, const char *origin)
{
	json_t *schema = json_object_get(doc, "schema");
	const char *name = json_string_value(schema);
	json_t *run, *metrics, *cases;

	if (!name || strncmp(name, "schedlab-run/", 13))
		return error("%s: not a schedlab export (no \"schema\": \"%s\")",
			     origin, EXPORT_SCHEMA);
	if (strcmp(name, EXPORT_SCHEMA))
		return error("%s: schema \"%s\" is not one this schedlab reads (%s)",
			     origin, name, EXPORT_SCHEMA);
	run = member(origin, doc, "", "run", W_OBJECT);
	if (!run || check_fields(origin, run, "run", run_fields) ||
	    check_optional(origin, run, "run", run_optional))
		return -1;
	if (!*json_string_value(json_object_get(run, "uuid")))
		return export_bad(origin, "run.uuid", "expected a non-empty string");
	if (!member(origin, doc, "", "environment", W_OBJECT))
		return -1;
	metrics = member(origin, doc, "", "metrics", W_OBJECT);
	if (!metrics || check_metrics(origin, metrics))
		return -1;
	cases = member(origin, doc, "", "cases", W_ARRAY);
	if (!cases || check_cases(origin, cases, metrics))
		return -1;
	return 0;
}

/*
 * Unix times a run may start or end at: 1970-01-01 to the end of the
 * year 9999, the years a four-digit date can show.
 */
#define TIME_MIN 0.0
#define TIME_MAX 253402300799.0

static int check_time(const char *origin, json_t *run, const char *key)
{
	json_t *v = json_object_get(run, key);
	double t = json_number_value(v);
	char path[32];

	if (!json_is_number(v) || (t >= TIME_MIN && t <= TIME_MAX))
		return 0;
	snprintf(path, sizeof(path), "run.%s", key);
	return export_bad(origin, path, "%.17g is not a time schedlab writes (seconds since 1970 from 0 to %.0f, the end of 9999)",
		   t, TIME_MAX);
}

/*
 * A string member s (or null) at path that a run's rule refuses: the
 * value quoted escaped, what is accepted.
 */
static int refuse(const char *origin, const char *path, const char *s,
		  const char *accepted)
{
	char *safe = text_escape(s);
	int rc = export_bad(origin, path, "'%s' is not %s", safe, accepted);

	free(safe);
	return rc;
}

int export_check_written(json_t *doc, const char *origin)
{
	json_t *run = json_object_get(doc, "run"), *c;
	const char *uuid = json_string_value(json_object_get(run, "uuid"));
	const char *label = json_string_value(json_object_get(run, "label"));
	const char *host = json_string_value(json_object_get(run, "host"));
	const char *ab = json_string_value(json_object_get(run, "ab"));
	const char *variant = json_string_value(json_object_get(run, "variant"));
	size_t i;

	if (!uuid_valid(uuid))
		return refuse(origin, "run.uuid", uuid,
			      "a uuid (8-4-4-4-12 lowercase hex digits)");
	if (label && !*label)
		return export_bad(origin, "run.label", "empty (expected text or null)");
	if (host && (!*host || strlen(host) > 255 || strpbrk(host, " \t\n/") ||
		     host[strcspn(host, "\r\v\f")]))
		return refuse(origin, "run.host", host,
			      "a host name (1 to 255 characters, no blank or '/') or null");
	if (check_time(origin, run, "started") || check_time(origin, run, "ended"))
		return -1;
	if (ab && !uuid_valid(ab))
		return refuse(origin, "run.ab", ab,
			      "an A/B run's uuid (8-4-4-4-12 lowercase hex digits) or null");
	if (variant && !plan_variant_name_ok(variant))
		return refuse(origin, "run.variant", variant,
			      "a variant name (up to 32 letters, digits, '_', '-', '.' or '+') or null");
	json_array_foreach(json_object_get(doc, "cases"), i, c) {
		const char *job = json_string_value(json_object_get(c, "job"));
		const char *wl = json_string_value(json_object_get(c, "workload"));
		char path[64];

		snprintf(path, sizeof(path), "cases[%zu].job", i);
		if (!plan_job_name_ok(job)) {
			char accepted[128];

			snprintf(accepted, sizeof(accepted),
				 "a job name (1 to %d letters, digits, '.', '_', '-' or '+'; not global)",
				 PLAN_JOB_NAME_MAX);
			return refuse(origin, path, job, accepted);
		}
		snprintf(path, sizeof(path), "cases[%zu].workload", i);
		if (!workload_find(wl))
			return refuse(origin, path, wl,
				      "a workload of this schedlab (schedlab list workloads)");
	}
	return 0;
}
