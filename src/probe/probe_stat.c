// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-CPU /proc/stat over the timed region: busy, idle, iowait and steal
 * as shares of all online CPUs' time, and idle CPU-seconds (which
 * probe_derive() turns into idle CPU-seconds while tasks waited).
 */
#include <stdlib.h>
#include <unistd.h>

#include "probe/procfs.h"
#include "probe/source.h"
#include "util.h"

struct stat_state {
	struct stat_cpus s0;
	bool have;
};

static bool read_stat(struct stat_cpus *s)
{
	size_t len;
	char *buf = probe_slurp_alloc("/proc/stat", &len);
	bool ok = buf && !procfs_parse_stat(buf, len, s);

	free(buf);
	return ok;
}

static bool available(enum probe_level level, char *why, size_t len)
{
	struct stat_cpus st;
	bool ok = read_stat(&st);

	(void)level;
	if (ok)
		stat_cpus_free(&st);
	return probe_file_ok("/proc/stat", ok, NULL, why, len);
}

static void *open_stat(enum probe_level level)
{
	(void)level;
	return xcalloc(1, sizeof(struct stat_state));
}

static void begin(void *st)
{
	struct stat_state *s = st;

	s->have = read_stat(&s->s0);
}

static void end(void *st, double *out)
{
	const struct stat_state *s = st;
	struct stat_cpus s1;
	uint64_t total = 0, idle = 0, iowait = 0, steal = 0;

	if (!s->have || !read_stat(&s1))
		return;
	for (int c = 0; c < s1.nr_cpus && c < s->s0.nr_cpus; c++) {
		const struct cpu_times *a = &s->s0.cpu[c], *b = &s1.cpu[c];

		if (!s1.present[c] || !s->s0.present[c])
			continue;
		total += cpu_times_total(b) - cpu_times_total(a);
		idle += b->idle - a->idle;
		iowait += b->iowait - a->iowait;
		steal += b->steal - a->steal;
	}
	if (total) {
		out[PM_CPU_BUSY_PCT] = 100.0 * (double)(total - idle - iowait - steal) / (double)total;
		out[PM_CPU_IDLE_PCT] = 100.0 * (double)idle / (double)total;
		out[PM_CPU_IOWAIT_PCT] = 100.0 * (double)iowait / (double)total;
		out[PM_CPU_STEAL_PCT] = 100.0 * (double)steal / (double)total;
		/* USER_HZ comes from the auxiliary vector: no system call */
		out[PM_CPU_IDLE_S] = (double)idle / (double)sysconf(_SC_CLK_TCK);
	}
	stat_cpus_free(&s1);
}

static void close_stat(void *st)
{
	struct stat_state *s = st;

	if (s->have)
		stat_cpus_free(&s->s0);
	free(s);
}

const struct probe_source probe_proc_stat = {
	.name = "proc_stat", .available = available, .open = open_stat,
	.begin = begin, .end = end, .close = close_stat,
};
