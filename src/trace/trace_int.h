/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace_int: what trace.c (a case's tracer, started and stopped per
 * iteration or case) and trace_keeper.c (the keeper process that runs
 * the tracer) share. Not for use outside trace/.
 */
#ifndef SCHEDLAB_TRACE_INT_H
#define SCHEDLAB_TRACE_INT_H

#include <stddef.h>

#include "trace/trace.h"

#define STOP_GRACE_MS 10000	/* SIGINT: perf writes its data */
#define TERM_GRACE_MS 2000	/* SIGTERM */
#define ACK_WAIT_MS 30000	/* perf's first ack: it opens an event a CPU */

/* What the keeper says when its tracer is over. */
struct keeper_end {
	int status;		/* waitpid()'s; -1: never started */
	int err;		/* exec's errno, when it never started */
	int early;		/* it ended before it was told to stop */
	int killed;		/* it outlived SIGINT and SIGTERM */
};

/* The keeper of t's tracer for iteration iter started: 0, or -1 after
 * error(). */
int trace_keeper_start(struct trace_hook *t, unsigned iter);
/* Tells the keeper to stop and waits for its word and its end. */
int trace_keeper_stop(struct trace_hook *t, struct keeper_end *e);
/*
 * write_all() to a pipe whose reader may be gone: EPIPE, not the
 * SIGPIPE that would end schedlab (which does not ignore it).
 */
int trace_write_pipe(int fd, const void *buf, size_t len);

#endif
