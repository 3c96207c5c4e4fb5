// SPDX-License-Identifier: GPL-2.0-only
/*
 * monitor_src.c: the monitors (monitor/monitor.h), each a struct
 * monitor_ops over one source: open reads it once (the baseline, and
 * the columns it has here), sample reads it again and writes the values
 * over the interval between. Counters become rates per second or shares
 * of the interval; gauges are the value at the interval's end. The
 * parsers of /proc/stat, PSI and /proc/schedstat are probe/procfs.h's.
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
#include "probe/procfs.h"
#include "probe/sysenv.h"
#include "util.h"

/* why = "PATH: strerror" for a file that cannot be read */
static int unreadable(const char *path, const char *hint, char *why, size_t len)
{
	char full[4096];

	snprintf(why, len, "%s: %s%s%s", monitor_path(path, full, sizeof(full)),
		 strerror(errno ? errno : ENOENT), hint ? "; " : "",
		 hint ? hint : "");
	return -1;
}

static int unparsed(const char *path, char *why, size_t len)
{
	char full[4096];

	snprintf(why, len, "%s: unexpected contents",
		 monitor_path(path, full, sizeof(full)));
	return -1;
}

/* "KEY N" at a line's start in buf: 0 with *v, or -1. */
static int line_u64(const char *buf, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);

	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		if (!strncmp(p, key, kl) && (p[kl] == ' ' || p[kl] == '\t')) {
			char *end;

			errno = 0;
			*v = strtoull(p + kl, &end, 10);
			return end == p + kl || errno ? -1 : 0;
		}
	}
	return -1;
}

static double rate(uint64_t a, uint64_t b, double dt)
{
	return dt > 0 && b >= a ? (double)(b - a) / dt : NAN;
}

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
		return errno ? unreadable("/proc/stat", NULL, why, len) :
			       unparsed("/proc/stat", why, len);
	}
	monitor_col_add(s, true, "%", "share of all CPUs' time not idle or in iowait", "busy_pct");
	monitor_col_add(s, true, "%", "share of all CPUs' time idle waiting for I/O", "iowait_pct");
	monitor_col_add(s, true, "%", "share of all CPUs' time stolen by the hypervisor", "steal_pct");
	monitor_col_add(s, true, "%", "busiest CPU's busy_pct less the idlest's", "imbalance_pct");
	m->cpu = xcalloc((size_t)m->prev.nr_cpus + 1, sizeof(int));
	for (int c = 0; c < m->prev.nr_cpus; c++)
		if (m->prev.present[c]) {
			m->cpu[m->ncpu++] = c;
			monitor_col_add(s, false, "%", "this CPU's time not idle or in iowait",
					"cpu%d.busy_pct", c);
		}
	*state = m;
	return 0;
}

static double pct(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : NAN;
}

static uint64_t busy_of(const struct cpu_times *t)
{
	return t->user + t->nice + t->system + t->irq + t->softirq;
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

		out[0] = pct(busy_of(b) - busy_of(a), tot);
		out[1] = pct(b->iowait - a->iowait, tot);
		out[2] = pct(b->steal - a->steal, tot);
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
		v = pct(busy_of(b) - busy_of(a), cpu_times_total(b) - cpu_times_total(a));
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

static const struct monitor_ops cpu_ops = { cpu_open, cpu_sample, cpu_close };

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
		return unreadable("/proc/stat", NULL, why, len);
	errno = 0;
	la = monitor_slurp("/proc/loadavg", &n);
	if (!la)
		rc = unreadable("/proc/loadavg", NULL, why, len);
	else if (line_u64(st, "procs_running", &v) || line_u64(st, "procs_blocked", &v))
		rc = unparsed("/proc/stat", why, len);
	else if (sysenv_parse_loadavg(la, load, &a, &b))
		rc = unparsed("/proc/loadavg", why, len);
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
	if (st && !line_u64(st, "procs_running", &v))
		out[0] = v ? (double)(v - 1) : 0;
	if (st && !line_u64(st, "procs_blocked", &v))
		out[1] = (double)v;
	if (la && !sysenv_parse_loadavg(la, load, &a, &b))
		out[2] = load[0];
	free(st);
	free(la);
}

static void no_close(void *state)
{
	free(state);
}

static const struct monitor_ops runq_ops = { runq_open, runq_sample, no_close };

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
		c->have[i] = !line_u64(st, ctxsw_keys[i], &c->v[i]);
	free(st);
}

static int ctxsw_open(void **state, struct monitor_set *s, char *why, size_t len)
{
	struct counters *c = xcalloc(1, sizeof(*c));

	errno = 0;
	read_ctxsw(c);
	if (!c->have[0] || !c->have[1]) {
		int rc = errno ? unreadable("/proc/stat", NULL, why, len) :
				 unparsed("/proc/stat", why, len);

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
		out[i] = c->have[i] && now.have[i] ? rate(c->v[i], now.v[i], dt) : NAN;
	*c = now;
}

static const struct monitor_ops ctxsw_ops = { ctxsw_open, ctxsw_sample, no_close };

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
			int rc = errno ? unreadable("/proc/pressure/cpu",
						    "the kernel needs CONFIG_PSI and psi=1",
						    why, len) :
					 unparsed("/proc/pressure/cpu", why, len);

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
		out[k++] = ok ? rate(m->prev[i].some_total_us, now.some_total_us,
				     dt) / 1e4 : NAN;
		if (m->full[i])
			out[k++] = ok && now.have_full ?
				   rate(m->prev[i].full_total_us,
					now.full_total_us, dt) / 1e4 : NAN;
		if (ok)
			m->prev[i] = now;
	}
}

static const struct monitor_ops psi_ops = { psi_open, psi_sample, no_close };

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
		int rc = errno ? unreadable("/proc/vmstat", NULL, why, len) :
				 unparsed("/proc/vmstat", why, len);

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
			out[c] = rate(m->v[c], now.v[c], dt);
	}
	if (ok)
		*m = now;
}

static const struct monitor_ops vmstat_ops = { vm_open, vm_sample, no_close };

/* ---- schedstat: /proc/schedstat per CPU and per domain level ------ */

struct ss_mon {
	struct schedstat prev;
	int *cpu;		/* CPU number of each per-CPU column pair */
	int ncpu, nlevel;
};

static int read_schedstat(struct schedstat *s)
{
	size_t len;
	char *buf = monitor_slurp("/proc/schedstat", &len);
	int rc = buf ? procfs_parse_schedstat(buf, len, s) : -1;

	if (rc && buf) {
		int v = procfs_schedstat_version(buf, len);

		errno = 0;
		rc = v > 0 && (v < 15 || v > 17) ? -2 : -1;
	}
	free(buf);
	return rc;
}

static const char *const ss_dom_cols[] = {
	"lb_count_per_s", "lb_failed_per_s", "lb_imbalance_per_s",
	"lb_gained_per_s", "alb_pushed_per_s", "ttwu_wake_remote_per_s",
	"ttwu_move_affine_per_s",
};
#define SS_NDOM ARRAY_SIZE(ss_dom_cols)
#define SS_NTOT 5

static int ss_open(void **state, struct monitor_set *s, char *why, size_t len)
{
	struct ss_mon *m = xcalloc(1, sizeof(*m));
	int rc;

	errno = 0;
	rc = read_schedstat(&m->prev);
	if (rc) {
		free(m);
		if (rc == -2)
			return snprintf(why, len, "/proc/schedstat: a version this schedlab does not read (15 to 17)"), -1;
		return errno ? unreadable("/proc/schedstat", "the kernel needs CONFIG_SCHEDSTATS",
					  why, len) :
			       unparsed("/proc/schedstat", why, len);
	}
	monitor_col_add(s, true, "/s", "wakeups (try_to_wake_up) per second, all CPUs", "ttwu_per_s");
	monitor_col_add(s, true, "%", "share of wakeups on the waking CPU", "ttwu_local_pct");
	monitor_col_add(s, true, "/s", "schedule() calls per second", "sched_per_s");
	monitor_col_add(s, true, "%", "share of schedule() calls that went idle", "goidle_pct");
	monitor_col_add(s, true, "tasks", "run delay per second: tasks waiting on run queues, on average", "wait_tasks");
	m->cpu = xcalloc((size_t)m->prev.nr_cpus + 1, sizeof(int));
	for (int i = 0; i < m->prev.nr_cpus; i++) {
		m->cpu[m->ncpu++] = m->prev.cpus[i].cpu;
		if (m->prev.cpus[i].nr_domains > m->nlevel)
			m->nlevel = m->prev.cpus[i].nr_domains;
	}
	for (int i = 0; i < m->ncpu; i++) {
		monitor_col_add(s, false, "tasks", "tasks waiting on this CPU's run queue, on average",
				"cpu%d.wait_tasks", m->cpu[i]);
		monitor_col_add(s, false, "/s", "wakeups on this CPU per second",
				"cpu%d.ttwu_per_s", m->cpu[i]);
	}
	for (int l = 0; l < m->nlevel; l++)
		for (size_t k = 0; k < SS_NDOM; k++)
			monitor_col_add(s, true, "/s", "this domain level, summed over CPUs",
					"domain%d.%s", l, ss_dom_cols[k]);
	*state = m;
	return 0;
}

static const struct schedstat_cpu *ss_cpu(const struct schedstat *s, int cpu)
{
	for (int i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i].cpu == cpu)
			return &s->cpus[i];
	return NULL;
}

static void ss_dom_sum(const struct schedstat_domain *d, uint64_t *v)
{
	for (int i = 0; i < LB_NR_IDLE; i++) {
		v[0] += d->lb_count[i];
		v[1] += d->lb_failed[i];
		v[2] += d->lb_imbalance[i];
		v[3] += d->lb_gained[i];
	}
	v[4] += d->alb_pushed;
	v[5] += d->ttwu_wake_remote;
	v[6] += d->ttwu_move_affine;
}

static void ss_sample(void *state, double dt, double *out)
{
	struct ss_mon *m = state;
	struct schedstat now;
	uint64_t ta[4] = { 0 }, tb[4] = { 0 }, da = 0, db = 0;
	size_t ncols = SS_NTOT + 2 * (size_t)m->ncpu + SS_NDOM * (size_t)m->nlevel;

	for (size_t i = 0; i < ncols; i++)
		out[i] = NAN;
	if (read_schedstat(&now))
		return;
	for (int i = 0; i < m->ncpu; i++) {
		const struct schedstat_cpu *a = ss_cpu(&m->prev, m->cpu[i]);
		const struct schedstat_cpu *b = ss_cpu(&now, m->cpu[i]);

		if (!a || !b)
			continue;
		ta[0] += a->ttwu_count; tb[0] += b->ttwu_count;
		ta[1] += a->ttwu_local; tb[1] += b->ttwu_local;
		ta[2] += a->sched_count; tb[2] += b->sched_count;
		ta[3] += a->sched_goidle; tb[3] += b->sched_goidle;
		da += a->run_delay_ns; db += b->run_delay_ns;
		out[SS_NTOT + 2 * i] = rate(a->run_delay_ns, b->run_delay_ns, dt) / 1e9;
		out[SS_NTOT + 2 * i + 1] = rate(a->ttwu_count, b->ttwu_count, dt);
		for (int l = 0; l < m->nlevel && l < a->nr_domains && l < b->nr_domains; l++) {
			uint64_t va[SS_NDOM] = { 0 }, vb[SS_NDOM] = { 0 };
			double *o = out + SS_NTOT + 2 * (size_t)m->ncpu + SS_NDOM * (size_t)l;

			ss_dom_sum(&a->domains[l], va);
			ss_dom_sum(&b->domains[l], vb);
			for (size_t k = 0; k < SS_NDOM; k++)
				o[k] = (isnan(o[k]) ? 0 : o[k]) + rate(va[k], vb[k], dt);
		}
	}
	out[0] = rate(ta[0], tb[0], dt);
	out[1] = pct(tb[1] - ta[1], tb[0] - ta[0]);
	out[2] = rate(ta[2], tb[2], dt);
	out[3] = pct(tb[3] - ta[3], tb[2] - ta[2]);
	out[4] = rate(da, db, dt) / 1e9;
	schedstat_free(&m->prev);
	m->prev = now;
}

static void ss_close(void *state)
{
	struct ss_mon *m = state;

	schedstat_free(&m->prev);
	free(m->cpu);
	free(m);
}

static const struct monitor_ops schedstat_ops = { ss_open, ss_sample, ss_close };

/* ---- sched_debug: per-CPU run queues ----------------------------- */

#define SD_MAX_CPUS 4096

struct sd_read {
	int ncpu;		/* highest CPU + 1 */
	int64_t nr_running[SD_MAX_CPUS];
	int64_t nr_unint[SD_MAX_CPUS];
	uint64_t nr_switches[SD_MAX_CPUS];
	bool have[SD_MAX_CPUS];
};

struct sd_mon {
	const char *path;
	struct sd_read prev;
	int *cpu;
	int ncpu;
};

static const char *const sd_paths[] = { "/sys/kernel/debug/sched/debug",
					 "/proc/sched_debug" };

/*
 * kernel/sched/debug.c print_cpu(): "cpu#N, 2400.000 MHz" or "cpu#N",
 * then "  .nr_running : 1" lines until the run queues' own blocks
 * (cfs_rq[N]:, rt_rq[N]:, dl_rq[N]:, runnable tasks:).
 */
static int parse_sched_debug(const char *buf, struct sd_read *r)
{
	int cur = -1;

	memset(r, 0, sizeof(*r));
	for (const char *p = buf; *p; ) {
		const char *nl = strchr(p, '\n');
		char line[256];
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		snprintf(line, sizeof(line), "%.*s", (int)(n < 255 ? n : 255), p);
		p += n + (nl ? 1 : 0);
		if (!strncmp(line, "cpu#", 4)) {
			cur = atoi(line + 4);
			if (cur < 0 || cur >= SD_MAX_CPUS)
				return -1;
			r->have[cur] = true;
			if (cur + 1 > r->ncpu)
				r->ncpu = cur + 1;
			continue;
		}
		if (cur < 0)
			continue;
		if (line[0] && !isspace((unsigned char)line[0])) {
			cur = -1;	/* cfs_rq[0]:/ and the rest: not the CPU's */
			continue;
		}
		{
			char *k = line;
			char *colon = strchr(line, ':');

			while (isspace((unsigned char)*k))
				k++;
			if (*k != '.' || !colon)
				continue;
			if (!strncmp(k, ".nr_running ", 12))
				r->nr_running[cur] = strtoll(colon + 1, NULL, 10);
			else if (!strncmp(k, ".nr_switches ", 13))
				r->nr_switches[cur] = strtoull(colon + 1, NULL, 10);
			else if (!strncmp(k, ".nr_uninterruptible ", 20))
				r->nr_unint[cur] = strtoll(colon + 1, NULL, 10);
		}
	}
	return r->ncpu ? 0 : -1;
}

static int read_sd(const char *path, struct sd_read *r)
{
	size_t n;
	char *buf = monitor_slurp(path, &n);
	int rc = buf ? parse_sched_debug(buf, r) : -1;

	free(buf);
	return rc;
}

static int sd_open(void **state, struct monitor_set *s, char *why, size_t len)
{
	struct sd_mon *m = xcalloc(1, sizeof(*m));
	int err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(sd_paths) && !m->path; i++) {
		errno = 0;
		if (!read_sd(sd_paths[i], &m->prev))
			m->path = sd_paths[i];
		else if (!i)
			err = errno;
	}
	if (!m->path) {
		char a[4096], b[4096];

		snprintf(why, len, "%s: %s, %s: %s (debugfs mounted and readable: root, CONFIG_SCHED_DEBUG)",
			 monitor_path(sd_paths[0], a, sizeof(a)),
			 err ? strerror(err) : "unexpected contents",
			 monitor_path(sd_paths[1], b, sizeof(b)),
			 errno ? strerror(errno) : "unexpected contents");
		free(m);
		return -1;
	}
	monitor_col_add(s, true, "tasks", "tasks on every CPU's run queue, running included", "nr_running");
	monitor_col_add(s, true, "tasks", "tasks in uninterruptible sleep", "nr_uninterruptible");
	monitor_col_add(s, true, "/s", "context switches per second", "nr_switches_per_s");
	m->cpu = xcalloc((size_t)m->prev.ncpu + 1, sizeof(int));
	for (int c = 0; c < m->prev.ncpu; c++)
		if (m->prev.have[c]) {
			m->cpu[m->ncpu++] = c;
			monitor_col_add(s, false, "tasks", "tasks on this CPU's run queue",
					"cpu%d.nr_running", c);
		}
	*state = m;
	return 0;
}

static void sd_sample(void *state, double dt, double *out)
{
	struct sd_mon *m = state;
	struct sd_read *now = xmalloc(sizeof(*now));
	int64_t run = 0, unint = 0;
	uint64_t sa = 0, sb = 0;

	for (int i = 0; i < 3 + m->ncpu; i++)
		out[i] = NAN;
	if (read_sd(m->path, now)) {
		free(now);
		return;
	}
	for (int i = 0; i < m->ncpu; i++) {
		int c = m->cpu[i];

		if (c >= now->ncpu || !now->have[c])
			continue;
		out[3 + i] = (double)now->nr_running[c];
		run += now->nr_running[c];
		unint += now->nr_unint[c];
		sa += m->prev.nr_switches[c];
		sb += now->nr_switches[c];
	}
	out[0] = (double)run;
	out[1] = (double)unint;
	out[2] = rate(sa, sb, dt);
	m->prev = *now;
	free(now);
}

static void sd_close(void *state)
{
	struct sd_mon *m = state;

	free(m->cpu);
	free(m);
}

static const struct monitor_ops sched_debug_ops = { sd_open, sd_sample, sd_close };

/* ---- cpufreq: scaling_cur_freq per CPU ---------------------------- */

struct freq_mon {
	int *cpu;
	int ncpu;
};

static int read_freq(int cpu, double *mhz)
{
	char path[128], *buf, *end;
	size_t n;
	unsigned long long khz;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
	buf = monitor_slurp(path, &n);
	if (!buf)
		return -1;
	errno = 0;
	khz = strtoull(buf, &end, 10);
	if (end == buf || errno || (*end && *end != '\n')) {
		free(buf);
		return -1;
	}
	free(buf);
	*mhz = (double)khz / 1000.0;
	return 0;
}

static int int_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int freq_open(void **state, struct monitor_set *s, char *why, size_t len)
{
	struct freq_mon *m = xcalloc(1, sizeof(*m));
	char dir[4096];
	struct dirent *e;
	DIR *d;
	size_t cap = 0;
	int *all = NULL, nall = 0;

	errno = 0;
	d = opendir(monitor_path("/sys/devices/system/cpu", dir, sizeof(dir)));
	while (d && (e = readdir(d))) {
		char *end;
		long c;

		if (strncmp(e->d_name, "cpu", 3) || !isdigit((unsigned char)e->d_name[3]))
			continue;
		c = strtol(e->d_name + 3, &end, 10);
		if (*end || c < 0 || c > 1 << 20)
			continue;
		if ((size_t)nall == cap) {
			cap = cap ? 2 * cap : 64;
			all = xrealloc(all, cap * sizeof(*all));
		}
		all[nall++] = (int)c;
	}
	if (d)
		closedir(d);
	if (nall)
		qsort(all, (size_t)nall, sizeof(*all), int_cmp);
	m->cpu = xcalloc((size_t)nall + 1, sizeof(int));
	for (int i = 0; i < nall; i++) {
		double mhz;

		if (!read_freq(all[i], &mhz))
			m->cpu[m->ncpu++] = all[i];
	}
	free(all);
	if (!m->ncpu) {
		char p[4096];

		snprintf(why, len, "%s: no CPU has cpufreq/scaling_cur_freq (no cpufreq driver: a virtual machine, or CONFIG_CPU_FREQ off)",
			 monitor_path("/sys/devices/system/cpu", p, sizeof(p)));
		free(m->cpu);
		free(m);
		return -1;
	}
	monitor_col_add(s, true, "MHz", "mean of the CPUs' current frequencies", "mhz");
	monitor_col_add(s, true, "MHz", "lowest CPU's current frequency", "min_mhz");
	for (int i = 0; i < m->ncpu; i++)
		monitor_col_add(s, false, "MHz", "this CPU's current frequency",
				"cpu%d.mhz", m->cpu[i]);
	*state = m;
	return 0;
}

static void freq_sample(void *state, double dt, double *out)
{
	struct freq_mon *m = state;
	double sum = 0, lo = INFINITY;
	int n = 0;

	(void)dt;
	for (int i = 0; i < m->ncpu; i++) {
		double mhz;

		out[2 + i] = NAN;
		if (read_freq(m->cpu[i], &mhz))
			continue;
		out[2 + i] = mhz;
		sum += mhz;
		lo = mhz < lo ? mhz : lo;
		n++;
	}
	out[0] = n ? sum / n : NAN;
	out[1] = n ? lo : NAN;
}

static void freq_close(void *state)
{
	struct freq_mon *m = state;

	free(m->cpu);
	free(m);
}

static const struct monitor_ops cpufreq_ops = { freq_open, freq_sample, freq_close };

const struct monitor_ops *const monitor_ops[MON_N] = {
	[MON_CPU] = &cpu_ops,
	[MON_RUNQ] = &runq_ops,
	[MON_CTXSW] = &ctxsw_ops,
	[MON_PSI] = &psi_ops,
	[MON_VMSTAT] = &vmstat_ops,
	[MON_SCHEDSTAT] = &schedstat_ops,
	[MON_SCHED_DEBUG] = &sched_debug_ops,
	[MON_CPUFREQ] = &cpufreq_ops,
};
