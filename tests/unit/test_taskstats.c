// SPDX-License-Identifier: GPL-2.0-only
/*
 * taskstats records, built here the way the kernel lays them out
 * (kernel/taskstats.c: a TASKSTATS_TYPE_AGGR_PID attribute nesting the
 * pid and the struct taskstats), then cut short and garbled. The values
 * read back are the ones put in.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/taskstats.h>

#include "probe/taskstats.h"

static char buf[8192];

/* A message with one record of type kind; returns its payload. */
static void *record(int kind, size_t stats_len, size_t *len)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct taskstats ts;
	struct nlattr *nest;

	memset(&ts, 0, sizeof(ts));
	ts.version = TASKSTATS_VERSION;
	ts.ac_pid = 4242;
	ts.ac_ppid = 4200;
	ts.ac_tgid = 4242;
	ts.cpu_count = 77;
	ts.cpu_delay_total = 123456789;
	ts.cpu_run_real_total = 987654321;
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct genlmsghdr));
	nest = mnl_attr_nest_start(nlh, kind);
	mnl_attr_put_u32(nlh, kind == TASKSTATS_TYPE_AGGR_PID ?
			 TASKSTATS_TYPE_PID : TASKSTATS_TYPE_TGID, 4242);
	mnl_attr_put(nlh, TASKSTATS_TYPE_STATS, stats_len, &ts);
	mnl_attr_nest_end(nlh, nest);
	*len = mnl_nlmsg_get_payload_len(nlh) - MNL_ALIGN(sizeof(struct genlmsghdr));
	return mnl_nlmsg_get_payload_offset(nlh, sizeof(struct genlmsghdr));
}

static void test_whole_record(void **state)
{
	struct ts_task t;
	size_t len;
	void *p = record(TASKSTATS_TYPE_AGGR_PID, sizeof(struct taskstats), &len);

	(void)state;
	assert_int_equal(ts_parse(p, len, &t), 0);
	assert_int_equal(t.pid, 4242);
	assert_int_equal(t.ppid, 4200);
	assert_int_equal(t.tgid, 4242);
	assert_int_equal(t.cpu_count, 77);
	assert_int_equal(t.cpu_delay_ns, 123456789);
	assert_int_equal(t.run_real_ns, 987654321);
}

/* An older kernel's shorter struct: what it has is read, the rest is 0. */
static void test_older_struct(void **state)
{
	struct ts_task t;
	size_t len;
	void *p = record(TASKSTATS_TYPE_AGGR_PID,
			 offsetof(struct taskstats, ac_tgid), &len);

	(void)state;
	assert_int_equal(ts_parse(p, len, &t), 0);
	assert_int_equal(t.cpu_delay_ns, 123456789);
	assert_int_equal(t.tgid, 0);
}

static void test_thread_group_total_skipped(void **state)
{
	struct ts_task t;
	size_t len;
	void *p = record(TASKSTATS_TYPE_AGGR_TGID, sizeof(struct taskstats), &len);

	(void)state;
	assert_int_equal(ts_parse(p, len, &t), 1);
}

static void test_truncated_and_garbage(void **state)
{
	struct ts_task t;
	size_t len;
	void *p;
	char junk[64];

	(void)state;
	/* stats too short to hold the delays */
	p = record(TASKSTATS_TYPE_AGGR_PID, 16, &len);
	assert_int_equal(ts_parse(p, len, &t), -1);
	/* the message cut in the middle of the nest */
	p = record(TASKSTATS_TYPE_AGGR_PID, sizeof(struct taskstats), &len);
	assert_int_equal(ts_parse(p, 40, &t), -1);
	/* bytes that are no attribute at all */
	memset(junk, 0xff, sizeof(junk));
	assert_int_equal(ts_parse(junk, sizeof(junk), &t), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_record),
		cmocka_unit_test(test_older_struct),
		cmocka_unit_test(test_thread_group_total_skipped),
		cmocka_unit_test(test_truncated_and_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
