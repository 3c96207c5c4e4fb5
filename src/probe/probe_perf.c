// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf_event_open software counters - context switches, CPU migrations,
 * task clock - opened by the workload process before the workers exist,
 * with inherit, so that every worker counts into them. Only with
 * probes = perf: they make every context switch of the workload dearer.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "probe/source.h"
#include "util.h"

enum { PERF_CS, PERF_MIG, PERF_CLOCK, NPERF };

struct perf_state {
	int fd[NPERF];
	uint64_t v0[NPERF];
};

static int perf_open(uint64_t config)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = config,
		.inherit = 1,
	};

	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/*
 * A counter's value, with readv: perf fds cannot pread, and read() is
 * what the workloads' counts are checked on.
 */
static int perf_read(int fd, uint64_t *v)
{
	struct iovec iov = { v, sizeof(*v) };

	return fd >= 0 && readv(fd, &iov, 1) == sizeof(*v) ? 0 : -1;
}

static bool available(enum probe_level level, char *why, size_t len)
{
	int fd;

	if (level != PROBES_PERF) {
		snprintf(why, len, "not asked for: probes = perf (they slow every context switch)");
		return false;
	}
	fd = perf_open(PERF_COUNT_SW_CONTEXT_SWITCHES);
	if (fd < 0) {
		snprintf(why, len, "perf_event_open: %s; needs perf_event_paranoid <= 1, root or CAP_PERFMON",
			 strerror(errno));
		return false;
	}
	close(fd);
	return true;
}

static void *open_counters(enum probe_level level)
{
	static const uint64_t cfg[NPERF] = {
		PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_CPU_MIGRATIONS,
		PERF_COUNT_SW_TASK_CLOCK,
	};
	struct perf_state *ps;

	if (level != PROBES_PERF)
		return NULL;
	ps = xcalloc(1, sizeof(*ps));
	for (int i = 0; i < NPERF; i++)
		ps->fd[i] = perf_open(cfg[i]);
	return ps;
}

static void begin(void *st)
{
	struct perf_state *ps = st;

	for (int i = 0; i < NPERF; i++)
		if (perf_read(ps->fd[i], &ps->v0[i]))
			ps->v0[i] = UINT64_MAX;
}

static void end(void *st, double *out)
{
	static const int pm[NPERF] = { PM_PERF_CS, PM_PERF_MIGRATIONS, PM_PERF_TASK_CLOCK_S };
	struct perf_state *ps = st;

	for (int i = 0; i < NPERF; i++) {
		uint64_t v;

		if (ps->v0[i] == UINT64_MAX || perf_read(ps->fd[i], &v))
			continue;
		out[pm[i]] = (double)(v - ps->v0[i]) / (i == PERF_CLOCK ? 1e9 : 1);
	}
}

static void close_counters(void *st)
{
	struct perf_state *ps = st;

	for (int i = 0; i < NPERF; i++)
		if (ps->fd[i] >= 0)
			close(ps->fd[i]);
	free(ps);
}

const struct probe_source probe_perf = {
	.name = "perf", .available = available, .open = open_counters,
	.begin = begin, .end = end, .close = close_counters,
};
