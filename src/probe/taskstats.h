/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * taskstats: the kernel's per-task accounting, sent over generic netlink
 * as each task exits (Documentation/accounting/taskstats.rst). A
 * listener registered for every CPU before the workers exist receives
 * one record per exiting thread; what belongs to the workload - its
 * threads, its children and their descendants - is summed: CPU delay
 * (time runnable but waiting for a CPU, from delay accounting) and the
 * times a task was scheduled in.
 *
 * Needs CAP_NET_ADMIN to register, and kernel.task_delayacct = 1 (or
 * the delayacct boot option) for the delays: without it the kernel sends
 * zeros, so the probe says it is unavailable rather than record them.
 * It works for any process tree, the workers' own code or not.
 */
#ifndef SCHEDLAB_TASKSTATS_H
#define SCHEDLAB_TASKSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One exiting task, as the kernel reported it. */
struct ts_task {
	uint32_t pid, ppid, tgid;
	uint64_t cpu_count;		/* times scheduled in */
	uint64_t cpu_delay_ns;		/* waiting in a run queue */
	uint64_t run_real_ns;		/* on a CPU */
};

struct ts_sum {
	unsigned tasks;			/* exited tasks of the workload */
	uint64_t cpu_count, cpu_delay_ns, run_real_ns;
	bool lost;			/* the socket overflowed: incomplete */
};

/*
 * Whether this process can listen, with why not in why: no
 * CAP_NET_ADMIN, delay accounting off, no TASKSTATS family.
 */
bool ts_available(char *why, size_t len);

struct ts_listener;

/* Registers for the exits of every CPU's tasks; NULL when it cannot. */
struct ts_listener *ts_open(void);
/*
 * Takes what has arrived (the tasks of interest must have exited) and
 * sums the records of root's descendants and threads, root excluded.
 */
void ts_collect(struct ts_listener *l, pid_t root, struct ts_sum *out);
void ts_close(struct ts_listener *l);

/*
 * One TASKSTATS_TYPE_AGGR_PID record from a netlink message's payload
 * (after the genetlink header): 0 with t filled, 1 for another kind of
 * record (a thread group's total), -1 when it does not parse.
 */
int ts_parse(const void *payload, size_t len, struct ts_task *t);

#endif
