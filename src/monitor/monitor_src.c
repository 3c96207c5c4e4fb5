// SPDX-License-Identifier: GPL-2.0-only
/*
 * monitor_src.c: the monitors (monitor/monitor.h), each a struct
 * monitor_ops over one source: open reads it once (the baseline, and
 * the columns it has here), sample reads it again and writes the values
 * over the interval between. Counters become rates per second or shares
 * of the interval; gauges are the value at the interval's end. The
 * parsers of /proc/stat, PSI and /proc/schedstat are probe/procfs.h's.
 * Here the system's counters (cpu, runq, ctxsw, psi, vmstat); the table
 * of all is monitor.h's MONITOR_LIST, the helpers monitor_util.c's;
 * the scheduler's and the CPUs' own (schedstat, sched_debug, cpufreq)
 * are monitor_sched.c's.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "monitor/monitor.h"
#include "monitor/monitor_src.h"
#include "probe/procfs.h"
#include "probe/sysenv.h"
#include "util.h"

/* ---- cpu: /proc/stat per CPU ------------------------------------- */

struct cpu_mon {
	struct stat_cpus prev;
	int *cpu;		/* the CPU of each per-CPU column */
	int ncpu;
};

static int read_stat(struct stat_cpus *s)
{
	size_t len;
	char *buf = monitor_slurp("/proc/stat", &len);
	int rc = buf ? procfs_parse_stat(buf, len, s) : -1;

	free(buf);
	return rc;
}

static int cpu_open(void **state, struct monitor_set *s, char *why, size_t len)
{
	struct cpu_mon *m = xcalloc(1, sizeof(*m));

	errno = 0;
	if (read_stat(&m->prev)) {
		free(m);
		return errno ? mon_unreadable("/proc/stat", NULL, why, len) :
			       mon_unparsed("/proc/stat", why, len);
	}
	monitor_col_add(s, true, "%", "share of all CPUs' time not idle or in iowait", "busy_pct");
	monitor_col_add(s, true, "%", "share of all CPUs' time idle waiting for I/O", "iowait_pct");
	monitor_col_add(s, true, "%", "share of all CPUs' time stolen by the hypervisor", "steal_pct");
	monitor_col_add(s, true, "%", "busiest CPU's busy_pct less the idlest's", "imbalance_pct");
	m->ncpu = mon_cpu_cols(s, m->prev.nr_cpus, m->prev.present, &m->cpu,
			       "%", "this CPU's time not idle or in iowait",
			       "busy_pct");
	*state = m;
	return 0;
}

static void cpu_sample(void *state, double dt, double *out)
{
	struct cpu_mon *m = state;
	struct stat_cpus now;
	double lo = INFINITY, hi = -INFINITY;

	(void)dt;
	for (int i = 0; i < 4 + m->ncpu; i++)
		out[i] = NAN;
	if (read_stat(&now))
		return;
	{
		const struct cpu_times *a = &m->prev.all, *b = &now.all;
		uint64_t tot = cpu_times_total(b) - cpu_times_total(a);

		out[0] = mon_pct(cpu_times_busy(b) - cpu_times_busy(a), tot);
		out[1] = mon_pct(b->iowait - a->iowait, tot);
		out[2] = mon_pct(b->steal - a->steal, tot);
	}
	for (int i = 0; i < m->ncpu; i++) {
		int c = m->cpu[i];
		const struct cpu_times *a, *b;
		double v;

		if (c >= now.nr_cpus || c >= m->prev.nr_cpus ||
		    !now.present[c] || !m->prev.present[c])
			continue;
		a = &m->prev.cpu[c];
		b = &now.cpu[c];
		v = mon_pct(cpu_times_busy(b) - cpu_times_busy(a), cpu_times_total(b) - cpu_times_total(a));
		out[4 + i] = v;
		if (isfinite(v)) {
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	}
	if (hi >= lo)
		out[3] = hi - lo;
	stat_cpus_free(&m->prev);
	m->prev = now;
}

static void cpu_close(void *state)
{
	struct cpu_mon *m = state;

	stat_cpus_free(&m->prev);
	free(m->cpu);
	free(m);
}

const struct monitor_ops cpu_ops = { cpu_open, cpu_sample, cpu_close };

/* ---- runq: procs_running, procs_blocked, load average ------------- */

static int runq_open(void **state, struct monitor_set *s, char *why, size_t len)
{
	size_t n;
	char *st, *la;
	uint64_t v;
	double load[3];
	int a, b, rc = 0;

	errno = 0;
	st = monitor_slurp("/proc/stat", &n);
	if (!st)
		return mon_unreadable("/proc/stat", NULL, why, len);
	errno = 0;
	la = monitor_slurp("/proc/loadavg", &n);
	if (!la)
		rc = mon_unreadable("/proc/loadavg", NULL, why, len);
	else if (mon_line_u64(st, "procs_running", &v) || mon_line_u64(st, "procs_blocked", &v))
		rc = mon_unparsed("/proc/stat", why, len);
	else if (sysenv_parse_loadavg(la, load, &a, &b))
		rc = mon_unparsed("/proc/loadavg", why, len);
	free(st);
	free(la);
	if (rc)
		return rc;
	monitor_col_add(s, true, "tasks", "tasks runnable (procs_running, less the sampler)", "running");
	monitor_col_add(s, true, "tasks", "tasks blocked on I/O (procs_blocked)", "blocked");
	monitor_col_add(s, true, "", "1-minute load average", "load1");
	*state = NULL;
	return 0;
}

static void runq_sample(void *state, double dt, double *out)
{
	size_t n;
	char *st = monitor_slurp("/proc/stat", &n);
	char *la = monitor_slurp("/proc/loadavg", &n);
	uint64_t v;
	double load[3];
	int a, b;

	(void)state;
	(void)dt;
	out[0] = out[1] = out[2] = NAN;
	/* the sampler itself is running while it reads */
	if (st && !mon_line_u64(st, "procs_running", &v))
		out[0] = v ? (double)(v - 1) : 0;
	if (st && !mon_line_u64(st, "procs_blocked", &v))
		out[1] = (double)v;
	if (la && !sysenv_parse_loadavg(la, load, &a, &b))
		out[2] = load[0];
	free(st);
	free(la);
}

const struct monitor_ops runq_ops = { runq_open, runq_sample, mon_free };

/* ---- ctxsw: context switches, interrupts, softirqs, forks --------- */

static const char *const ctxsw_keys[] = { "ctxt", "intr", "softirq", "processes" };

struct counters {
	uint64_t v[16];
	bool have[16];
};

static void read_ctxsw(struct counters *c)
{
	size_t n;
	char *st = monitor_slurp("/proc/stat", &n);

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; st && i < ARRAY_SIZE(ctxsw_keys); i++)
		c->have[i] = !mon_line_u64(st, ctxsw_keys[i], &c->v[i]);
	free(st);
}

static int ctxsw_open(void **state, struct monitor_set *s, char *why, size_t len)
{
	struct counters *c = xcalloc(1, sizeof(*c));

	errno = 0;
	read_ctxsw(c);
	if (!c->have[0] || !c->have[1]) {
		int rc = errno ? mon_unreadable("/proc/stat", NULL, why, len) :
				 mon_unparsed("/proc/stat", why, len);

		free(c);
		return rc;
	}
	monitor_col_add(s, true, "/s", "context switches per second (ctxt)", "ctxsw_per_s");
	monitor_col_add(s, true, "/s", "interrupts per second (intr)", "intr_per_s");
	monitor_col_add(s, true, "/s", "softirqs per second", "softirq_per_s");
	monitor_col_add(s, true, "/s", "processes and threads created per second", "forks_per_s");
	*state = c;
	return 0;
}

static void ctxsw_sample(void *state, double dt, double *out)
{
	struct counters *c = state, now;

	read_ctxsw(&now);
	for (size_t i = 0; i < ARRAY_SIZE(ctxsw_keys); i++)
		out[i] = c->have[i] && now.have[i] ? mon_rate(c->v[i], now.v[i], dt) : NAN;
	*c = now;
}

const struct monitor_ops ctxsw_ops = { ctxsw_open, ctxsw_sample, mon_free };

/* ---- psi: /proc/pressure/{cpu,memory,io} ------------------------- */

static const char *const psi_files[] = { "cpu", "memory", "io" };

struct psi_mon {
	bool have[3], full[3];
	struct psi_cpu prev[3];
};

static int read_psi(int i, struct psi_cpu *p)
{
	char path[64];
	size_t n;
	char *buf;
	int rc;

	snprintf(path, sizeof(path), "/proc/pressure/%s", psi_files[i]);
	buf = monitor_slurp(path, &n);
	rc = buf ? procfs_parse_psi_cpu(buf, n, p) : -1;
	free(buf);
	return rc;
}

static int psi_open(void **state, struct monitor_set *s, char *why, size_t len)
{
	struct psi_mon *m = xcalloc(1, sizeof(*m));

	for (int i = 0; i < 3; i++) {
		errno = 0;
		m->have[i] = !read_psi(i, &m->prev[i]);
		m->full[i] = m->have[i] && m->prev[i].have_full;
		if (!m->have[i] && i == 0) {
			int rc = errno ? mon_unreadable("/proc/pressure/cpu",
						    "the kernel needs CONFIG_PSI and psi=1",
						    why, len) :
					 mon_unparsed("/proc/pressure/cpu", why, len);

			free(m);
			return rc;
		}
		if (!m->have[i])
			continue;
		monitor_col_add(s, true, "%", "share of the interval some tasks stalled", "%s_some_pct",
				psi_files[i]);
		if (m->full[i])
			monitor_col_add(s, true, "%", "share of the interval all non-idle tasks stalled",
					"%s_full_pct", psi_files[i]);
	}
	*state = m;
	return 0;
}

static void psi_sample(void *state, double dt, double *out)
{
	struct psi_mon *m = state;
	size_t k = 0;

	for (int i = 0; i < 3; i++) {
		struct psi_cpu now;
		bool ok;

		if (!m->have[i])
			continue;
		ok = !read_psi(i, &now);
		out[k++] = ok ? mon_rate(m->prev[i].some_total_us, now.some_total_us,
				     dt) / 1e4 : NAN;
		if (m->full[i])
			out[k++] = ok && now.have_full ?
				   mon_rate(m->prev[i].full_total_us,
					now.full_total_us, dt) / 1e4 : NAN;
		if (ok)
			m->prev[i] = now;
	}
}

const struct monitor_ops psi_ops = { psi_open, psi_sample, mon_free };

/* ---- vmstat: /proc/vmstat ---------------------------------------- */

/* each column: the sum of the counters whose names start with a prefix */
static const struct {
	const char *col, *help;
	const char *prefix[3];
	bool gauge;
} vm_cols[] = {
	{ "pgpgin_per_s", "KiB paged in per second", { "pgpgin" }, false },
	{ "pgpgout_per_s", "KiB paged out per second", { "pgpgout" }, false },
	{ "pswpin_per_s", "pages swapped in per second", { "pswpin" }, false },
	{ "pswpout_per_s", "pages swapped out per second", { "pswpout" }, false },
	{ "pgfault_per_s", "page faults per second", { "pgfault" }, false },
	{ "pgmajfault_per_s", "major page faults per second", { "pgmajfault" }, false },
	{ "pgscan_per_s", "pages scanned for reclaim per second (kswapd, direct, khugepaged)", { "pgscan_kswapd", "pgscan_direct", "pgscan_khugepaged" }, false },
	{ "pgsteal_per_s", "pages reclaimed per second", { "pgsteal_kswapd", "pgsteal_direct", "pgsteal_khugepaged" }, false },
	{ "allocstall_per_s", "direct reclaim stalls per second", { "allocstall" }, false },
	{ "compact_stall_per_s", "direct compaction stalls per second", { "compact_stall" }, false },
	{ "free_mib", "free memory at the interval's end", { "nr_free_pages" }, true },
};
#define VM_N ARRAY_SIZE(vm_cols)

struct vm_mon {
	uint64_t v[VM_N];
	bool have[VM_N];
};

static int read_vmstat(struct vm_mon *m)
{
	size_t n;
	char *buf = monitor_slurp("/proc/vmstat", &n);

	memset(m, 0, sizeof(*m));
	if (!buf)
		return -1;
	for (char *p = buf; *p; ) {
		char *nl = strchr(p, '\n'), *sp = strchr(p, ' ');
		uint64_t v;

		if (!nl)
			break;
		if (sp && sp < nl) {
			v = strtoull(sp + 1, NULL, 10);
			for (size_t c = 0; c < VM_N; c++)
				for (int k = 0; k < 3 && vm_cols[c].prefix[k]; k++) {
					size_t pl = strlen(vm_cols[c].prefix[k]);

					/* an exact name, or allocstall_normal etc. */
					if (!strncmp(p, vm_cols[c].prefix[k], pl) &&
					    (p + pl == sp || (p[pl] == '_' &&
					     !strcmp(vm_cols[c].prefix[k], "allocstall")))) {
						m->v[c] += v;
						m->have[c] = true;
					}
				}
		}
		p = nl + 1;
	}
	free(buf);
	return m->have[4] ? 0 : -1;	/* pgfault: every kernel has it */
}

static int vm_open(void **state, struct monitor_set *s, char *why, size_t len)
{
	struct vm_mon *m = xcalloc(1, sizeof(*m));

	errno = 0;
	if (read_vmstat(m)) {
		int rc = errno ? mon_unreadable("/proc/vmstat", NULL, why, len) :
				 mon_unparsed("/proc/vmstat", why, len);

		free(m);
		return rc;
	}
	for (size_t c = 0; c < VM_N; c++)
		monitor_col_add(s, true, vm_cols[c].gauge ? "MiB" : "/s",
				vm_cols[c].help, "%s", vm_cols[c].col);
	*state = m;
	return 0;
}

static void vm_sample(void *state, double dt, double *out)
{
	struct vm_mon *m = state, now;
	long page = sysconf(_SC_PAGESIZE);
	bool ok = !read_vmstat(&now);

	for (size_t c = 0; c < VM_N; c++) {
		if (!ok || !now.have[c] || !m->have[c])
			out[c] = NAN;
		else if (vm_cols[c].gauge)
			out[c] = (double)now.v[c] * (double)page / 1048576.0;
		else
			out[c] = mon_rate(m->v[c], now.v[c], dt);
	}
	if (ok)
		*m = now;
}

const struct monitor_ops vmstat_ops = { vm_open, vm_sample, mon_free };
