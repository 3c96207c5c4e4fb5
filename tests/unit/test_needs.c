// SPDX-License-Identifier: GPL-2.0-only
/*
 * needs: what a plan asks of its machine (harness/needs.h) - commands
 * (workload command, env.*, scx) and knobs (sysctl.*, sched.*,
 * sched_feat, /proc and /sys paths, cgroup.*, scx) - and the queue's
 * host patterns as LIKE patterns (store/queue.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness/needs.h"
#include "harness/plan.h"
#include "store/queue.h"

static void needs_of(const char *text, struct plan_needs *n)
{
	struct plan p;

	assert_int_equal(plan_load_text_sets("t.job", "t.job", text,
					     strlen(text), NULL, 0, &p), 0);
	plan_needs(&p, n);
	plan_free(&p);
}

static void test_plain_workloads_need_nothing(void **state)
{
	struct plan_needs n;

	(void)state;
	needs_of("[a]\nworkload = messaging\nloops = 10\nnice = 5\n"
		 "[b]\nworkload = pipe\npolicy = batch\n", &n);
	assert_false(n.commands);
	assert_false(n.knobs);
	assert_string_equal(n.commands_why, "");
}

static void test_commands(void **state)
{
	struct plan_needs n;

	(void)state;
	needs_of("[m]\nworkload = messaging\n[run-it]\nworkload = command\nargv = true\n", &n);
	assert_true(n.commands);
	assert_false(n.knobs);
	assert_string_equal(n.commands_why, "workload command in [run-it]");
	needs_of("[m]\nworkload = messaging\nenv.LD_PRELOAD = /tmp/x.so\n", &n);
	assert_true(n.commands);
	assert_string_equal(n.commands_why, "setting env.LD_PRELOAD in [m]");
}

static void test_knobs(void **state)
{
	struct plan_needs n;

	(void)state;
	needs_of("[global]\nsysctl.kernel.sched_child_runs_first = 0\n"
		 "[m]\nworkload = messaging\n", &n);
	assert_false(n.commands);
	assert_true(n.knobs);
	assert_string_equal(n.knobs_why, "setting sysctl.kernel.sched_child_runs_first in [m]");
	needs_of("[m]\nworkload = messaging\ncgroup.cpu.weight = 50\n", &n);
	assert_true(n.knobs);
	needs_of("[m]\nworkload = messaging\n/proc/sys/kernel/sched_rr_timeslice_ms = 10\n", &n);
	assert_true(n.knobs);
	needs_of("[m]\nworkload = messaging\nscx = scx_simple\n", &n);
	assert_true(n.knobs);
	assert_true(n.commands);	/* scx runs a program too */
}

static void test_hosts_like(void **state)
{
	char *l;

	(void)state;
	l = queue_hosts_like("web*, db?,100%,a_b,c\\d");
	assert_string_equal(l, "{\"web%\",\"db_\",\"100\\\\%\",\"a\\\\_b\",\"c\\\\\\\\d\"}");
	free(l);
	l = queue_hosts_like(" , ");
	assert_string_equal(l, "{}");
	free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_workloads_need_nothing),
		cmocka_unit_test(test_commands),
		cmocka_unit_test(test_knobs),
		cmocka_unit_test(test_hosts_like),
	};

	setenv("SCHEDLAB_NCPU", "2", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
