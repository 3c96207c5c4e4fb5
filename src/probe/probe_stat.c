// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-CPU /proc/stat over the timed region: busy, idle, iowait and steal
 * as shares of all online CPUs' time, and idle CPU-seconds (which
 * probe_derive() turns into idle CPU-seconds while tasks waited).
 */
#include <unistd.h>

#include "probe/procfs.h"
#include "probe/source.h"

static int parse_stat(const char *buf, size_t len, void *snap)
{
	return procfs_parse_stat(buf, len, snap);
}

static void release_stat(void *snap)
{
	stat_cpus_free(snap);
}

static const struct probe_snap_kind stat_file = {
	.path = "/proc/stat", .size = sizeof(struct stat_cpus),
	.parse = parse_stat, .release = release_stat,
};

static void end(void *st, double *out)
{
	const struct probe_snap *s = st;
	const struct stat_cpus *s0 = s->s0;
	struct stat_cpus s1;
	uint64_t total = 0, idle = 0, iowait = 0, steal = 0;

	if (!s->have || !probe_snap_read(&stat_file, &s1))
		return;
	for (int c = 0; c < s1.nr_cpus && c < s0->nr_cpus; c++) {
		const struct cpu_times *a = &s0->cpu[c], *b = &s1.cpu[c];

		if (!s1.present[c] || !s0->present[c])
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

const struct probe_source probe_proc_stat = {
	.name = "proc_stat", .snap = &stat_file, .end = end,
};
