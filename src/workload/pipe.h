/* SPDX-License-Identifier: GPL-2.0-only */
/* pipe: perf bench sched pipe. */
#ifndef SCHEDLAB_PIPE_H
#define SCHEDLAB_PIPE_H

#include <stdbool.h>

enum pipe_mode { PIPE_PROCESS, PIPE_THREAD };

/*
 * perf changed the loop in Linux 6.15: before, one token ping-pongs
 * (worker 0 reads then writes, worker 1 writes then reads); since, both
 * write then read, so two tokens are in flight. Results of the two are
 * not comparable, so the ordering is a parameter of every result.
 */
enum pipe_ordering { PIPE_ONE_TOKEN, PIPE_TWO_TOKENS };

struct pipe_cfg {
	unsigned loops;
	int mode;	/* enum pipe_mode */
	int ordering;	/* enum pipe_ordering */
	bool nonblock;	/* perf -n: O_NONBLOCK pipes, epoll_wait before a read */
	const char *cgroups;	/* perf -G SEND,RECV; NULL: none */
};

enum { PIPE_TIME, PIPE_USECS_PER_OP, PIPE_OPS_PER_SEC };

extern const char *const pipe_ordering_names[];

#endif
