/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The comparison the renderers' unit tests format (test_compare_render.c,
 * test_html.c): three made-up runs of one job swept over two cases, the
 * baseline, a candidate 10% faster and one as fast, compared by
 * compare_build() as compare does. Include after <cmocka.h>.
 */
#ifndef SCHEDLAB_TEST_CMP_THREE_H
#define SCHEDLAB_TEST_CMP_THREE_H

#include <jansson.h>

#include "model/run.h"
#include "report/render_compare.h"
#include "store/store.h"

#define NITER 8

/*
 * A run of job msg swept over groups and fds (cases "1 1" and "1 2"):
 * messaging.time of iteration i is (1 + i / 100) * factor, the second
 * case twice that.
 */
static void make_run(const char *label, const char *uuid, double factor,
		     struct run *r)
{
	json_t *cases = json_array();
	json_t *doc;

	for (int c = 0; c < 2; c++) {
		json_t *x = json_array();

		for (int i = 0; i < NITER; i++)
			json_array_append_new(x, json_real((1 + i / 100.0) *
							   factor * (c + 1)));
		json_array_append_new(cases, json_pack(
			"{s:i, s:s, s:s, s:i, s:s, s:s, s:s, s:s, s:n,"
			" s:{}, s:{}, s:i, s:{s:o}}",
			"seq", c, "job", "msg", "workload", "messaging",
			"version", 1, "params", c ? "fds=2" : "", "sweep_keys",
			"groups fds", "sweep", c ? "1 2" : "1 1", "status",
			"complete", "reason", "parameters", "settings",
			"iterations", NITER, "samples", "messaging.time", x));
	}
	doc = json_pack("{s:s, s:{s:s, s:s, s:n, s:f, s:f, s:s, s:n, s:n},"
			" s:{}, s:{s:{s:s, s:s, s:b, s:s}}, s:o}",
			"schema", EXPORT_SCHEMA, "run", "uuid", uuid, "label",
			label, "host", "started", 1.0, "ended", 2.0, "status",
			"complete", "command", "schedlab_version",
			"environment", "metrics", "messaging.time", "unit", "s",
			"better", "lower", "headline", 1, "help", "time",
			"cases", cases);
	assert_non_null(doc);
	assert_int_equal(export_validate(doc, label), 0);
	assert_int_equal(run_from_export(doc, label, r), 0);
	json_decref(doc);
}

struct three {
	struct run r[3];
	struct comparison c;
};

/* base, a candidate 10% faster, one as fast; names as given. */
static void build(struct three *t, const char *const names[3])
{
	static const char *const uuids[] = { "u-1", "u-2", "u-3" };
	static const double factor[] = { 1, 0.9, 1.001 };
	const struct run *rp[3];
	struct cmp_opts o = {
		.test = TEST_MWU, .alpha = 0.05, .threshold = 5,
		.nboot = BOOT_RESAMPLES, .seed = BOOT_SEED,
	};

	for (int k = 0; k < 3; k++) {
		make_run(names[k], uuids[k], factor[k], &t->r[k]);
		rp[k] = &t->r[k];
	}
	assert_int_equal(compare_build(rp, names, 3, &o, false, NULL, &t->c), 0);
}

static void three_free(struct three *t)
{
	compare_free(&t->c);
	for (int k = 0; k < 3; k++)
		run_free(&t->r[k]);
}

#endif
