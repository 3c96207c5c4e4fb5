// SPDX-License-Identifier: GPL-2.0-only
#include <jansson.h>

#include "report/render.h"
#include "version.h"

static const char *const better_names[] = {
	[BETTER_LOWER] = "lower",
	[BETTER_HIGHER] = "higher",
	[BETTER_NONE] = "none",
};

static const char *const status_names[] = {
	[RUN_OK] = "ok",
	[RUN_FAILED] = "failed",
	[RUN_TIMEOUT] = "timeout",
	[RUN_INTERRUPTED] = "interrupted",
};

static json_t *parameters(const struct workload *wl, const void *cfg)
{
	json_t *p = json_object();

	for (const struct opt_def *o = wl->options; o->name; o++) {
		const void *v = (const char *)cfg + o->offset;
		char buf[64];

		if (o->set)
			continue;
		switch (o->type) {
		case OPT_UINT:
			json_object_set_new(p, o->name,
				json_integer(*(const unsigned int *)v));
			break;
		case OPT_BOOL:
			json_object_set_new(p, o->name,
				json_boolean(*(const bool *)v));
			break;
		case OPT_ENUM:
			opt_format(o, cfg, buf, sizeof(buf));
			json_object_set_new(p, o->name, json_string(buf));
			break;
		}
	}
	return p;
}

static json_t *metrics(const struct workload *wl, const struct wl_result *r)
{
	json_t *m = json_object();

	for (int i = 0; wl->metrics[i].name; i++) {
		const struct metric_def *d = &wl->metrics[i];

		if (!r->have[i])
			continue;
		json_object_set_new(m, d->name, json_pack("{s:f, s:s, s:s, s:b}",
			"value", r->value[i], "unit", d->unit,
			"better", better_names[d->better],
			"headline", d->headline));
	}
	return m;
}

int render_json(FILE *f, const struct workload *wl, const void *cfg,
		const struct run_outcome *out)
{
	json_t *doc = json_pack("{s:s, s:s, s:s, s:o, s:s}",
		"schema", BENCH_SCHEMA,
		"schedlab_version", SCHEDLAB_VERSION,
		"workload", wl->name,
		"parameters", parameters(wl, cfg),
		"status", status_names[out->status]);
	int rc;

	if (out->status != RUN_OK)
		json_object_set_new(doc, "reason", json_string(out->reason));
	json_object_set_new(doc, "metrics", metrics(wl, &out->result));
	json_object_set_new(doc, "process", json_pack(
		"{s:f, s:f, s:f, s:I, s:I}",
		"wall_s", out->wall_s, "user_s", out->user_s,
		"sys_s", out->sys_s, "maxrss_kib", (json_int_t)out->maxrss_kib,
		"leftover_killed", (json_int_t)out->killed));
	rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			JSON_REAL_PRECISION(12));
	fputc('\n', f);
	json_decref(doc);
	return rc;
}
