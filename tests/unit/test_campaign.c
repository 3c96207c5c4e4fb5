// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign_decide() as a VM campaign's driver calls it: once after each
 * boot, in one process. What it knew is updated with each new boot's
 * run (loaded once); its last decision must read exactly what one
 * decision made from all the boots at once (every run loaded) reads -
 * same verdicts, same words, 3 and 3 runs - and a boot whose run is not
 * in the store is an error that leaves nothing half-known behind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "campaign/campaign.h"
#include "model/run.h"
#include "store/store.h"

#define TMPDIR_TAG "campaign"
#include "tmpdir.h"

#define NITER 4
#define NBOOTS 6

static const char *const uuids[NBOOTS] = {
	"00000000-0000-4000-8000-000000000001",
	"00000000-0000-4000-8000-000000000002",
	"00000000-0000-4000-8000-000000000003",
	"00000000-0000-4000-8000-000000000004",
	"00000000-0000-4000-8000-000000000005",
	"00000000-0000-4000-8000-000000000006",
};

/* Boot k's run of job msg: state a (even k) takes about 1 s an
 * iteration, b 3% longer; each boot 0-2% off its state's - too close
 * for two boots a side to decide, so the campaign looks twice. */
static void store_boot(struct store *st, size_t k)
{
	double factor = (k % 2 ? 1.03 : 1.0) * (1 + 0.01 * (double)(k % 3));
	json_t *x = json_array(), *doc;
	int64_t id;

	for (int i = 0; i < NITER; i++)
		json_array_append_new(x, json_real(factor * (1 + i / 200.0)));
	doc = json_pack("{s:s, s:{s:s, s:s, s:s, s:f, s:f, s:s, s:s, s:s},"
			" s:{}, s:{s:{s:s, s:s, s:b, s:s}},"
			" s:[{s:i, s:s, s:s, s:i, s:s, s:s, s:s, s:s, s:n,"
			" s:{}, s:{}, s:i, s:{s:o}}]}",
			"schema", EXPORT_SCHEMA, "run", "uuid", uuids[k],
			"label", k % 2 ? "c/b" : "c/a", "host", "box",
			"started", 1.0 + (double)k, "ended", 1.5 + (double)k,
			"status", "complete", "command", "schedlab run",
			"schedlab_version", "0.1",
			"environment", "metrics", "messaging.time", "unit", "s",
			"better", "lower", "headline", 1, "help", "time",
			"cases", "seq", 0, "job", "msg", "workload", "messaging",
			"version", 1, "params", "", "sweep_keys", "", "sweep", "",
			"status", "complete", "reason", "parameters", "settings",
			"iterations", NITER, "samples", "messaging.time", x);
	assert_non_null(doc);
	assert_int_equal(store_import(st, doc, "boot", &id), 0);
	json_decref(doc);
}

static void init(struct campaign *c)
{
	memset(c, 0, sizeof(*c));
	c->nstates = 2;
	c->states = calloc(2, sizeof(*c->states));
	assert_non_null(c->states);
	c->states[0].name = strdup("a");
	c->states[1].name = strdup("b");
	c->max_boots = NBOOTS;
	c->threshold = 5;
	c->boots = calloc(NBOOTS, sizeof(*c->boots));
	assert_non_null(c->boots);
}

/* Boot k measured (state a and b in turn). */
static void boot_done(struct campaign *c, size_t k)
{
	struct camp_boot *b = &c->boots[c->nboots++];

	b->state = (unsigned)(k % 2);
	b->phase = PH_DONE;
	snprintf(b->uuid, sizeof(b->uuid), "%s", uuids[k]);
}

static void test_decide_after_each_boot_is_one_decision(void **state)
{
	struct store *st = store_open(path("c.db"));
	struct campaign c, all;
	bool done = false, done_all = false;

	(void)state;
	assert_non_null(st);
	for (size_t k = 0; k < NBOOTS; k++)
		store_boot(st, k);

	init(&c);
	for (size_t k = 0; k < NBOOTS && !done; k++) {
		boot_done(&c, k);
		assert_int_equal(campaign_decide(&c, st, &done), 0);
		/* the first look, after two rounds, cannot decide */
		if (k == 3) {
			assert_non_null(c.verdict);
			assert_false(done);
		}
	}
	assert_true(done);
	assert_int_equal(c.nboots, NBOOTS);

	init(&all);
	for (size_t k = 0; k < c.nboots; k++)
		boot_done(&all, k);
	assert_int_equal(campaign_decide(&all, st, &done_all), 0);
	assert_true(done_all);
	assert_non_null(c.verdict);
	assert_string_equal(c.verdict, all.verdict);
	assert_int_equal(c.code, all.code);
	assert_non_null(strstr(c.verdict, "(3 and 3 runs)"));
	campaign_free(&all);
	campaign_free(&c);
	store_close(st);
}

static void test_a_run_not_stored_is_an_error(void **state)
{
	struct store *st = store_open(path("c.db"));
	struct campaign c;
	bool done;

	(void)state;
	assert_non_null(st);
	init(&c);
	boot_done(&c, 0);
	boot_done(&c, 1);
	boot_done(&c, 2);
	boot_done(&c, 3);
	snprintf(c.boots[3].uuid, sizeof(c.boots[3].uuid), "%s",
		 "00000000-0000-4000-8000-0000000000ff");
	capture();
	assert_int_equal(campaign_decide(&c, st, &done), -1);
	captured();
	assert_said("00000000-0000-4000-8000-0000000000ff");
	assert_null(c.known);
	/* the boot's run found again: the next look loads all it needs */
	snprintf(c.boots[3].uuid, sizeof(c.boots[3].uuid), "%s", uuids[3]);
	assert_int_equal(campaign_decide(&c, st, &done), 0);
	assert_non_null(strstr(c.verdict, "(2 and 2 runs)"));
	campaign_free(&c);
	store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_after_each_boot_is_one_decision),
		cmocka_unit_test(test_a_run_not_stored_is_an_error),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
