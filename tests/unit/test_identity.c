// SPDX-License-Identifier: GPL-2.0-only
/*
 * identity: a case's params are the options that differ from their
 * defaults, in the order of their names; an option added later with a
 * default that keeps the old behaviour changes no identity, not even of
 * a case already stored; the full parameter strings of older runs
 * upgrade to exactly the identity of the same configuration, for every
 * registered workload; run settings are what the case was run with.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness/identity.h"
#include "harness/plan.h"
#include "probe/probe.h"
#include "store/store.h"
#include "util.h"
#include "workload/messaging.h"
#include "workload/registry.h"

static void *defaults(const struct workload *wl)
{
	void *cfg = calloc(1, wl->cfg_size + 64);

	assert_non_null(cfg);
	opts_defaults(wl->options, cfg);
	return cfg;
}

/* What an older schedlab stored: every option, in table order. */
static char *full_params(const struct workload *wl, const void *cfg)
{
	static char buf[8192];
	char v[4096];
	size_t n = 0;

	buf[0] = '\0';
	for (const struct opt_def *o = wl->options; o->name; o++) {
		if (o->set)
			continue;
		opt_format(o, cfg, v, sizeof(v));
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s=%s",
				      n ? " " : "", o->name, v);
	}
	return buf;
}

static void assert_identity(const struct workload *wl, const void *cfg,
			    const char *want)
{
	char *id = identity_params(wl, cfg);

	assert_string_equal(id, want);
	free(id);
}

static void assert_upgrade(const char *wl, const char *old, const char *want)
{
	char *id = identity_upgrade(wl, old);

	assert_string_equal(id, want);
	free(id);
}

static void test_defaults_and_changes(void **state)
{
	struct messaging_cfg *m = defaults(&wl_messaging);

	(void)state;
	assert_identity(&wl_messaging, m, "");
	m->groups = 4;
	assert_identity(&wl_messaging, m, "groups=4");
	/* by name, not by table order (groups fds loops datasize ipc mode fifo) */
	m->fifo = true;
	m->datasize = 50;
	m->mode = MSG_THREAD;
	assert_identity(&wl_messaging, m, "datasize=50 fifo=true groups=4 mode=thread");
	/* set back to the default: not part of it */
	m->datasize = 100;
	assert_identity(&wl_messaging, m, "fifo=true groups=4 mode=thread");
	assert_int_equal(identity_version(&wl_messaging), 1);
	free(m);
}

/* messaging as a later schedlab might have it: one option more. */
struct grown_cfg {
	struct messaging_cfg m;
	bool spread;
};

static struct opt_def grown_options[32];
static struct workload grown;

static void grow(void)
{
	size_t n = 0;

	for (; wl_messaging.options[n].name; n++)
		grown_options[n] = wl_messaging.options[n];
	assert_true(n + 2 <= sizeof(grown_options) / sizeof(grown_options[0]));
	/* in the middle of the table, and its name sorts among the others */
	memmove(&grown_options[2], &grown_options[1],
		(n - 1) * sizeof(grown_options[0]));
	grown_options[1] = (struct opt_def){
		.name = "cpu_spread", .type = OPT_BOOL,
		.offset = offsetof(struct grown_cfg, spread), .def = "false",
		.help = "spread the groups over the CPUs",
	};
	grown_options[n + 1] = (struct opt_def){ .name = NULL };
	grown = wl_messaging;
	grown.options = grown_options;
	grown.cfg_size = sizeof(struct grown_cfg);
}

static void test_added_option_keeps_identity(void **state)
{
	struct messaging_cfg *old = defaults(&wl_messaging);
	struct grown_cfg *now;
	struct store *s;
	char db[] = "/tmp/schedlab-identity-XXXXXX", path[64];
	char *stored, *id;
	int64_t run;
	double secs = 0, wall[] = { 1.5 };
	const struct metric_def wall_def[] = {
		{ "process.wall_s", "s", BETTER_LOWER, true, "" },
	};

	(void)state;
	grow();
	now = defaults(&grown);
	assert_identity(&grown, now, "");
	old->groups = now->m.groups = 8;
	old->ipc = now->m.ipc = MSG_PIPE;
	stored = identity_params(&wl_messaging, old);
	assert_string_equal(stored, "groups=8 ipc=pipe");
	assert_identity(&grown, now, stored);
	/* the new option, used, is part of it - in its place by name */
	now->spread = true;
	assert_identity(&grown, now, "cpu_spread=true groups=8 ipc=pipe");
	now->spread = false;

	/* a case stored with the old table is found by one made with the new */
	assert_non_null(mkdtemp(db));
	snprintf(path, sizeof(path), "%s/r.db", db);
	s = store_open(path);
	assert_non_null(s);
	assert_int_equal(store_run_begin(s, &(struct store_run){ .started = 1 }, &run), 0);
	assert_int_equal(store_case_add(s, run, &(struct store_case){
		.seq = 1, .job = "hb", .workload = "messaging", .version = 1,
		.params = stored, .status = "complete", .metrics = wall_def,
		.nmetrics = 1, .niter = 1, .values = wall }), 0);
	id = identity_params(&grown, now);
	assert_int_equal(store_estimate(s, "messaging", identity_version(&grown),
					id, &secs), 1);
	assert_true(secs == 1.5);
	/* another version of what messaging measures is another case */
	grown.version = 2;
	assert_int_equal(store_estimate(s, "messaging", identity_version(&grown),
					id, &secs), 0);
	store_close(s);
	unlink(path);
	snprintf(path, sizeof(path), "%s/r.db-wal", db);
	unlink(path);
	snprintf(path, sizeof(path), "%s/r.db-shm", db);
	unlink(path);
	assert_int_equal(rmdir(db), 0);
	free(id);
	free(stored);
	free(old);
	free(now);
}

/*
 * A value other than the default that the option accepts, whatever its
 * type: the first of a few candidates that opt_set() takes and that
 * formats differently.
 */
static void other_value(const struct opt_def *o, void *cfg)
{
	/* an OPT_STRING keeps a pointer to its text: it must stay */
	static char pool[2048][3][32];
	static size_t used;
	char v[4096], def[4096], *lo = pool[used][0], *hi = pool[used][1];
	char *mid = pool[used][2];
	const char *try[] = { lo, hi, mid, "true", "false", "x-y", "7s",
			      o->choices ? o->choices[0] : "x",
			      o->choices && o->choices[0] ? o->choices[1] : "x",
			      NULL };

	assert_true(++used < sizeof(pool) / sizeof(pool[0]));
	snprintf(lo, 32, "%llu", o->min);
	snprintf(hi, 32, "%llu", o->max);
	snprintf(mid, 32, "%llu", o->min + (o->max - o->min) / 2);
	opt_format(o, cfg, def, sizeof(def));
	for (int i = 0; try[i]; i++) {
		void *scratch = calloc(1, 1 << 16);
		int bad;

		/* try on a copy: a refused value must leave cfg alone */
		assert_non_null(scratch);
		error_mute(1);
		bad = opt_set(o, scratch, try[i], o->name);
		error_mute(0);
		free(scratch);
		if (bad)
			continue;
		assert_int_equal(opt_set(o, cfg, try[i], o->name), 0);
		opt_format(o, cfg, v, sizeof(v));
		if (strcmp(v, def))
			return;
	}
	fail_msg("%s: no value other than the default", o->name);
}

static void test_upgrade_every_workload(void **state)
{
	(void)state;
	for (size_t i = 0; workloads[i]; i++) {
		const struct workload *wl = workloads[i];
		void *cfg = defaults(wl);

		assert_upgrade(wl->name, full_params(wl, cfg), "");
		/* each option changed alone, then all of them at once */
		for (const struct opt_def *o = wl->options; o->name; o++) {
			void *one = defaults(wl);
			char *id, want[4200], v[4096];

			if (o->set || (o->type == OPT_ENUM && !o->choices[1])) {
				free(one);
				continue;
			}
			other_value(o, one);
			other_value(o, cfg);
			opt_format(o, one, v, sizeof(v));
			snprintf(want, sizeof(want), "%s=%s", o->name, v);
			assert_identity(wl, one, want);
			id = identity_upgrade(wl->name, full_params(wl, one));
			if (strcmp(id, want))
				fail_msg("%s: %s upgraded to '%s', not '%s'",
					 wl->name, full_params(wl, one), id, want);
			free(id);
			free(one);
		}
		{
			char *want = identity_params(wl, cfg);
			char *id = identity_upgrade(wl->name, full_params(wl, cfg));

			assert_string_equal(id, want);
			/* an identity upgrades to itself */
			free(id);
			id = identity_upgrade(wl->name, want);
			assert_string_equal(id, want);
			free(id);
			free(want);
		}
		free(cfg);
	}
}

static void test_upgrade_odd_words(void **state)
{
	(void)state;
	/* any order; the last word for an option wins */
	assert_upgrade("messaging", "ipc=pipe groups=10 groups=3", "groups=3 ipc=pipe");
	assert_upgrade("messaging", "groups=3 ipc=pipe groups=10", "ipc=pipe");
	/* what it cannot resolve is kept as it was, in its place by name */
	assert_upgrade("messaging", "zeta=1 groups=0 loops=100 fifo=maybe",
		       "fifo=maybe groups=0 zeta=1");
	/* a blank-separated token without '=' belongs to the value before */
	assert_upgrade("messaging", "loops=100 x groups=2", "groups=2 loops=100 x");
	/* a value with blanks (a command's argv) stays one word */
	assert_upgrade("command", "argv=sleep 1 -x", "argv=sleep 1 -x");
	/* old names land on the canonical one; at the default, dropped */
	assert_upgrade("rr", "test=TCP_RR pairs=1 length=5", "runtime=5");
	assert_upgrade("tbench", "clients=4 time=60", "clients=4");
	assert_upgrade("pipe", "loop=5 mode=process", "loops=5");
	assert_upgrade("no-such-workload", "b=2 a=1", "b=2 a=1");
	assert_upgrade("messaging", "", "");
	assert_null(identity_upgrade("messaging", NULL));
}

static void test_settings(void **state)
{
	struct plan_case c = { .wl = &wl_pipe, .probes = PROBES_ON };
	json_t *s;
	char *text;

	(void)state;
	s = identity_settings(&c);
	assert_int_equal(json_object_size(s), 0);
	json_decref(s);
	c.cpus = "0-1";
	c.probes = PROBES_OFF;
	s = identity_settings(&c);
	text = json_dumps(s, JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_string_equal(text, "{\"cpus\":\"0-1\",\"probes\":\"off\"}");
	free(text);
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_changes),
		cmocka_unit_test(test_added_option_keeps_identity),
		cmocka_unit_test(test_upgrade_every_workload),
		cmocka_unit_test(test_upgrade_odd_words),
		cmocka_unit_test(test_settings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
