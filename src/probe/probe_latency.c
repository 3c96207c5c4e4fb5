// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the workloads record themselves: latency percentiles from the
 * merged histogram, and the CPU a task runs on, message by message,
 * with the topology to tell moves across LLCs and nodes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "probe/cpus.h"
#include "probe/source.h"
#include "util.h"

void latency_fill(const struct hist *h, double *out)
{
	if (!hist_count(h))
		return;
	out[PM_LAT_P50] = (double)hist_percentile(h, 50) / 1e3;
	out[PM_LAT_P90] = (double)hist_percentile(h, 90) / 1e3;
	out[PM_LAT_P99] = (double)hist_percentile(h, 99) / 1e3;
	out[PM_LAT_P999] = (double)hist_percentile(h, 99.9) / 1e3;
	out[PM_LAT_MAX] = (double)hist_max(h) / 1e3;
	out[PM_LAT_N] = (double)hist_count(h);
}

/* ---- topology, for counting moves ---- */

static int first_cpu_of(const char *path)
{
	char buf[4096];
	struct cpumask m;
	ssize_t n = probe_slurp(path, buf, sizeof(buf) - 1);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (cpulist_parse(buf, &m) <= 0)
		return -1;
	return cpumask_next(&m, 0);
}

int cpu_topo_load(struct cpu_topo *t)
{
	char path[160], buf[4096];
	struct cpumask m;
	ssize_t k = probe_slurp("/sys/devices/system/cpu/possible", buf, sizeof(buf) - 1);
	int n = 0, c;

	/* read here with pread, as sysconf() would with read() */
	if (k > 0) {
		buf[k] = '\0';
		if (cpulist_parse(buf, &m) > 0)
			for_each_cpu(c, &m)
				n = c + 1;
	}
	t->ncpu = n > 0 ? n : 1;
	t->llc = xcalloc((size_t)t->ncpu, sizeof(int));
	t->node = xcalloc((size_t)t->ncpu, sizeof(int));
	for (int c = 0; c < t->ncpu; c++) {
		t->llc[c] = t->node[c] = -1;
		/* the highest cache index shared: the last-level cache */
		for (int idx = 7; idx >= 0 && t->llc[c] < 0; idx--) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
				 c, idx);
			t->llc[c] = first_cpu_of(path);
		}
	}
	for (int node = 0; node < 1024; node++) {
		char buf[4096];
		struct cpumask m;
		ssize_t k;
		int c;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
		k = probe_slurp(path, buf, sizeof(buf) - 1);
		if (k <= 0) {
			if (node > 64)
				break;
			continue;
		}
		buf[k] = '\0';
		if (cpulist_parse(buf, &m) < 0)
			continue;
		for_each_cpu(c, &m)
			if (c < t->ncpu)
				t->node[c] = node;
	}
	return 0;
}

void cpu_topo_free(struct cpu_topo *t)
{
	free(t->llc);
	free(t->node);
	t->llc = t->node = NULL;
}

void cpu_track_note(struct cpu_track *c, const struct cpu_topo *t, int cpu)
{
	int last = c->last;

	c->last = cpu;
	if (last < 0 || cpu == last || cpu < 0)
		return;
	c->moves++;
	if (cpu < t->ncpu && last < t->ncpu) {
		if (t->llc[cpu] != t->llc[last])
			c->xllc++;
		if (t->node[cpu] != t->node[last])
			c->xnode++;
	}
}
