// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler-metric probes: the metric table, availability, and the
 * snapshots each source takes (see probe.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "probe/probe.h"
#include "probe/procfs.h"
#include "probe/taskstats.h"
#include "util.h"

#define M(name, unit, better, help) { name, unit, better, false, help }
const struct metric_def probe_metrics[PM_N] = {
	[PM_RUN_S] = M("sched.run_s", "s", BETTER_NONE, "on-CPU time of the workload's tasks, summed (schedstat)"),
	[PM_WAIT_S] = M("sched.wait_s", "s", BETTER_LOWER, "time the tasks spent runnable in a run queue, summed (schedstat)"),
	[PM_SLICES] = M("sched.timeslices", "switches", BETTER_NONE, "times the tasks were scheduled in (schedstat pcount)"),
	[PM_WAIT_PER_SLICE_US] = M("sched.wait_per_slice_us", "us", BETTER_LOWER, "run-queue wait per time scheduled in"),
	[PM_WAIT_PCT] = M("sched.wait_pct", "%", BETTER_LOWER, "run-queue wait as a percentage of on-CPU time"),
	[PM_MIGRATIONS] = M("sched.migrations", "migrations", BETTER_NONE, "migrations of the tasks, summed (se.nr_migrations)"),
	[PM_CTXSW_VOL] = M("sched.ctxsw_vol", "switches", BETTER_NONE, "voluntary context switches of the tasks"),
	[PM_CTXSW_INVOL] = M("sched.ctxsw_invol", "switches", BETTER_NONE, "involuntary context switches (preemptions) of the tasks"),
	[PM_INVOL_PCT] = M("sched.ctxsw_invol_pct", "%", BETTER_NONE, "involuntary switches as a percentage of all"),
	[PM_RU_NVCSW] = M("rusage.nvcsw", "switches", BETTER_NONE, "voluntary switches, getrusage of the workload process and its workers"),
	[PM_RU_NIVCSW] = M("rusage.nivcsw", "switches", BETTER_NONE, "involuntary switches, getrusage"),
	[PM_CPU_BUSY_PCT] = M("cpu.busy_pct", "%", BETTER_NONE, "CPU time busy over all online CPUs (/proc/stat)"),
	[PM_CPU_IDLE_PCT] = M("cpu.idle_pct", "%", BETTER_NONE, "CPU time idle over all online CPUs"),
	[PM_CPU_IOWAIT_PCT] = M("cpu.iowait_pct", "%", BETTER_NONE, "CPU time in iowait"),
	[PM_CPU_STEAL_PCT] = M("cpu.steal_pct", "%", BETTER_LOWER, "CPU time stolen by the hypervisor"),
	[PM_CPU_IDLE_S] = M("cpu.idle_s", "CPU-s", BETTER_NONE, "idle CPU-seconds over the interval, all online CPUs"),
	[PM_IDLE_WHILE_WAITING_S] = M("cpu.idle_while_waiting_s", "CPU-s", BETTER_LOWER,
		"idle CPU-seconds while tasks waited in run queues: idle CPU-s x min(1, wait task-s / interval s), "
		"an estimate that assumes both spread evenly over the interval"),
	[PM_PSI_SOME_US] = M("psi.cpu_some_us", "us", BETTER_LOWER, "time some task waited for a CPU (/proc/pressure/cpu)"),
	[PM_SS_TTWU] = M("schedstat.ttwu", "wakeups", BETTER_NONE, "wakeups, all CPUs (/proc/schedstat)"),
	[PM_SS_TTWU_LOCAL_PCT] = M("schedstat.ttwu_local_pct", "%", BETTER_NONE, "wakeups on the waker's CPU"),
	[PM_SS_RUN_DELAY_S] = M("schedstat.run_delay_s", "s", BETTER_LOWER, "run-queue wait of every task, all CPUs"),
	[PM_SS_WAKE_REMOTE] = M("schedstat.ttwu_wake_remote", "wakeups", BETTER_NONE, "wakeups of a task last run on another CPU of the domain"),
	[PM_SS_MOVE_AFFINE] = M("schedstat.ttwu_move_affine", "wakeups", BETTER_NONE, "wake-affine pulls"),
	[PM_SS_LB_COUNT] = M("schedstat.lb_count", "balances", BETTER_NONE, "load-balance attempts, all domains and idle types"),
	[PM_SS_LB_FAILED] = M("schedstat.lb_failed", "balances", BETTER_NONE, "load-balance attempts that failed to move a task"),
	[PM_PERF_CS] = M("perf.context_switches", "switches", BETTER_NONE, "PERF_COUNT_SW_CONTEXT_SWITCHES, inherited by every worker"),
	[PM_PERF_MIGRATIONS] = M("perf.cpu_migrations", "migrations", BETTER_NONE, "PERF_COUNT_SW_CPU_MIGRATIONS, inherited"),
	[PM_PERF_TASK_CLOCK_S] = M("perf.task_clock_s", "s", BETTER_NONE, "PERF_COUNT_SW_TASK_CLOCK, inherited"),
	[PM_TS_CPU_DELAY_S] = M("taskstats.cpu_delay_s", "s", BETTER_LOWER,
		"run-queue wait of the workload's tasks by delay accounting, sent by the kernel as each exited (taskstats)"),
	[PM_TS_CPU_COUNT] = M("taskstats.cpu_count", "timeslices", BETTER_NONE, "times the exited tasks were scheduled in (taskstats)"),
	[PM_TS_TASKS] = M("taskstats.tasks", "tasks", BETTER_NONE, "the workload's tasks whose exit taskstats reported"),
	[PM_LAT_P50] = M("latency.p50_us", "us", BETTER_LOWER, "median latency measured inside the workload"),
	[PM_LAT_P90] = M("latency.p90_us", "us", BETTER_LOWER, "90th percentile latency"),
	[PM_LAT_P99] = M("latency.p99_us", "us", BETTER_LOWER, "99th percentile latency"),
	[PM_LAT_P999] = M("latency.p999_us", "us", BETTER_LOWER, "99.9th percentile latency"),
	[PM_LAT_MAX] = M("latency.max_us", "us", BETTER_LOWER, "largest latency"),
	[PM_LAT_N] = M("latency.samples", "samples", BETTER_NONE, "latencies recorded"),
	[PM_CPU_MOVES] = M("sched.cpu_moves", "moves", BETTER_NONE, "changes of CPU seen message by message (sched_getcpu)"),
	[PM_CPU_MOVES_XLLC] = M("sched.cpu_moves_xllc", "moves", BETTER_NONE, "of which to a CPU under another last-level cache"),
	[PM_PROBE_END_MS] = M("probes.end_cost_ms", "ms", BETTER_NONE, "the probes' own work at the end of the iteration: snapshots, sums, percentiles"),
	[PM_CPU_MOVES_XNODE] = M("sched.cpu_moves_xnode", "moves", BETTER_NONE, "of which to another NUMA node"),
};
#undef M

/* Reads a whole small file with pread (so read() counts stay the workload's). */
static ssize_t slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = -1, r;

	if (fd < 0)
		return -1;
	n = 0;
	while ((size_t)n < len && (r = pread(fd, buf + n, len - (size_t)n, n)) > 0)
		n += r;
	close(fd);
	return n;
}

/* The same for files of unknown size (/proc/stat, /proc/schedstat). */
static char *slurp_alloc(const char *path, size_t *len)
{
	size_t cap = 64 * 1024;

	for (;;) {
		char *buf = xmalloc(cap);
		ssize_t n = slurp(path, buf, cap);

		if (n < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < cap) {
			*len = (size_t)n;
			return buf;
		}
		free(buf);
		cap *= 4;
	}
}

void task_files_open(struct task_files *f)
{
	f->schedstat = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	f->sched = open("/proc/thread-self/sched", O_RDONLY | O_CLOEXEC);
}

void task_files_close(struct task_files *f)
{
	if (f->schedstat >= 0)
		close(f->schedstat);
	if (f->sched >= 0)
		close(f->sched);
	f->schedstat = f->sched = -1;
}

/*
 * One pread from the start: both files are a few hundred bytes to 2 kB,
 * made whole by one call, and a seq_file read from offset 0 is made
 * afresh.
 */
static ssize_t pread_all(int fd, char *buf, size_t len)
{
	return fd < 0 ? -1 : pread(fd, buf, len, 0);
}

void task_probe_read(const struct task_files *f, struct task_probe *p)
{
	char buf[8192];
	ssize_t n;
	struct task_schedstat ss;
	struct task_sched sc;

	n = pread_all(f->schedstat, buf, sizeof(buf));
	if (n > 0 && !procfs_parse_task_schedstat(buf, (size_t)n, &ss)) {
		p->run_ns = ss.run_ns;
		p->wait_ns = ss.wait_ns;
		p->slices = ss.pcount;
		p->have_schedstat = 1;
	}
	n = pread_all(f->sched, buf, sizeof(buf));
	if (n > 0 && !procfs_parse_task_sched(buf, (size_t)n, &sc)) {
		p->migrations = sc.nr_migrations;
		p->vol = sc.nr_voluntary_switches;
		p->invol = sc.nr_involuntary_switches;
		p->have_sched = 1;
	}
	p->done = 1;
}

void task_probe_collect(struct task_probe *p)
{
	struct task_files f;

	task_files_open(&f);
	task_probe_read(&f, p);
	task_files_close(&f);
}

void task_probes_sum(const struct task_probe *slots, unsigned n, double *out)
{
	uint64_t run = 0, wait = 0, sl = 0, mig = 0, vol = 0, inv = 0;
	uint64_t mv = 0, mvl = 0, mvn = 0;
	unsigned nss = 0, nsc = 0, ndone = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct task_probe *p = &slots[i];

		if (!p->done)
			continue;
		ndone++;
		mv += p->cpu_moves;
		mvl += p->cpu_moves_xllc;
		mvn += p->cpu_moves_xnode;
		if (p->have_schedstat) {
			nss++;
			run += p->run_ns;
			wait += p->wait_ns;
			sl += p->slices;
		}
		if (p->have_sched) {
			nsc++;
			mig += p->migrations;
			vol += p->vol;
			inv += p->invol;
		}
	}
	if (nss) {
		out[PM_RUN_S] = (double)run / 1e9;
		out[PM_WAIT_S] = (double)wait / 1e9;
		out[PM_SLICES] = (double)sl;
		out[PM_WAIT_PER_SLICE_US] = sl ? (double)wait / 1e3 / (double)sl : NAN;
		out[PM_WAIT_PCT] = run ? 100.0 * (double)wait / (double)run : NAN;
	}
	if (nsc) {
		out[PM_MIGRATIONS] = (double)mig;
		out[PM_CTXSW_VOL] = (double)vol;
		out[PM_CTXSW_INVOL] = (double)inv;
		out[PM_INVOL_PCT] = vol + inv ? 100.0 * (double)inv / (double)(vol + inv) : NAN;
	}
	if (ndone) {
		out[PM_CPU_MOVES] = (double)mv;
		out[PM_CPU_MOVES_XLLC] = (double)mvl;
		out[PM_CPU_MOVES_XNODE] = (double)mvn;
	}
}

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

void probe_derive(double *out, double interval_s)
{
	double waiting;

	if (isnan(out[PM_CPU_IDLE_S]) || isnan(out[PM_WAIT_S]) || interval_s <= 0)
		return;
	/*
	 * Idle CPU-seconds over the interval, times the share of it during
	 * which some task is taken to be waiting (at most all of it): the
	 * two are known only as totals over the same interval.
	 */
	waiting = out[PM_WAIT_S] / interval_s;
	out[PM_IDLE_WHILE_WAITING_S] = out[PM_CPU_IDLE_S] * (waiting < 1 ? waiting : 1);
}

/* ---- topology, for counting moves ---- */

static int first_cpu_of(const char *path)
{
	char buf[4096];
	struct cpumask m;
	ssize_t n = slurp(path, buf, sizeof(buf) - 1);

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
	ssize_t k = slurp("/sys/devices/system/cpu/possible", buf, sizeof(buf) - 1);
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
		k = slurp(path, buf, sizeof(buf) - 1);
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

/* ---- system-wide snapshots ---- */

enum { PERF_CS, PERF_MIG, PERF_CLOCK, NPERF };

struct probe_state {
	int perf_fd[NPERF];
	uint64_t perf0[NPERF];
	struct stat_cpus stat0;
	bool have_stat0;
	struct psi_cpu psi0;
	bool have_psi0;
	struct schedstat ss0;
	bool have_ss0;
	struct rusage self0, kids0;
	struct ts_listener *ts;
	pid_t root;
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

static bool read_stat(struct stat_cpus *s)
{
	size_t len;
	char *buf = slurp_alloc("/proc/stat", &len);
	bool ok = buf && !procfs_parse_stat(buf, len, s);

	free(buf);
	return ok;
}

static bool read_psi(struct psi_cpu *p)
{
	char buf[512];
	ssize_t n = slurp("/proc/pressure/cpu", buf, sizeof(buf));

	return n > 0 && !procfs_parse_psi_cpu(buf, (size_t)n, p);
}

static bool read_schedstat(struct schedstat *s)
{
	size_t len;
	char *buf = slurp_alloc("/proc/schedstat", &len);
	bool ok = buf && !procfs_parse_schedstat(buf, len, s);

	free(buf);
	return ok;
}

const char *const probe_level_names[] = { "on", "off", "perf", NULL };

struct probe_state *probe_open(bool perf)
{
	static const uint64_t cfg[NPERF] = {
		PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_CPU_MIGRATIONS,
		PERF_COUNT_SW_TASK_CLOCK,
	};
	struct probe_state *ps = xcalloc(1, sizeof(*ps));

	for (int i = 0; i < NPERF; i++)
		ps->perf_fd[i] = perf ? perf_open(cfg[i]) : -1;
	ps->ts = ts_open();
	ps->root = getpid();
	return ps;
}

void probe_begin(struct probe_state *ps)
{
	for (int i = 0; i < NPERF; i++)
		if (perf_read(ps->perf_fd[i], &ps->perf0[i]))
			ps->perf0[i] = UINT64_MAX;
	ps->have_stat0 = read_stat(&ps->stat0);
	ps->have_psi0 = read_psi(&ps->psi0);
	ps->have_ss0 = read_schedstat(&ps->ss0);
	getrusage(RUSAGE_SELF, &ps->self0);
	getrusage(RUSAGE_CHILDREN, &ps->kids0);
}

static void end_stat(struct probe_state *ps, double *out)
{
	struct stat_cpus s1;
	uint64_t total = 0, idle = 0, iowait = 0, steal = 0;

	if (!ps->have_stat0 || !read_stat(&s1))
		return;
	for (int c = 0; c < s1.nr_cpus && c < ps->stat0.nr_cpus; c++) {
		const struct cpu_times *a = &ps->stat0.cpu[c], *b = &s1.cpu[c];

		if (!s1.present[c] || !ps->stat0.present[c])
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

static void end_schedstat(struct probe_state *ps, double *out)
{
	struct schedstat s1;
	uint64_t v[6][2] = { { 0 } };	/* ttwu, local, delay, remote, affine, lb, failed */
	uint64_t lbf[2] = { 0 };

	if (!ps->have_ss0 || !read_schedstat(&s1))
		return;
	for (int k = 0; k < 2; k++) {
		const struct schedstat *s = k ? &s1 : &ps->ss0;

		for (int c = 0; c < s->nr_cpus; c++) {
			v[0][k] += s->cpus[c].ttwu_count;
			v[1][k] += s->cpus[c].ttwu_local;
			v[2][k] += s->cpus[c].run_delay_ns;
		}
		for (int d = 0; d < s->nr_domains; d++) {
			const struct schedstat_domain *dm = &s->domains[d];

			v[3][k] += dm->ttwu_wake_remote;
			v[4][k] += dm->ttwu_move_affine;
			for (int i = 0; i < LB_NR_IDLE; i++) {
				v[5][k] += dm->lb_count[i];
				lbf[k] += dm->lb_failed[i];
			}
		}
	}
	out[PM_SS_TTWU] = (double)(v[0][1] - v[0][0]);
	if (v[0][1] > v[0][0])
		out[PM_SS_TTWU_LOCAL_PCT] = 100.0 * (double)(v[1][1] - v[1][0]) /
					    (double)(v[0][1] - v[0][0]);
	out[PM_SS_RUN_DELAY_S] = (double)(v[2][1] - v[2][0]) / 1e9;
	out[PM_SS_WAKE_REMOTE] = (double)(v[3][1] - v[3][0]);
	out[PM_SS_MOVE_AFFINE] = (double)(v[4][1] - v[4][0]);
	out[PM_SS_LB_COUNT] = (double)(v[5][1] - v[5][0]);
	out[PM_SS_LB_FAILED] = (double)(lbf[1] - lbf[0]);
	schedstat_free(&s1);
}

/* The workers have exited (reaped or joined): their records are in. */
static void end_taskstats(struct probe_state *ps, double *out)
{
	struct ts_sum sum;

	if (!ps->ts)
		return;
	ts_collect(ps->ts, ps->root, &sum);
	if (sum.lost || !sum.tasks)
		return;		/* an incomplete sum would mislead */
	out[PM_TS_CPU_DELAY_S] = (double)sum.cpu_delay_ns / 1e9;
	out[PM_TS_CPU_COUNT] = (double)sum.cpu_count;
	out[PM_TS_TASKS] = sum.tasks;
}

void probe_end(struct probe_state *ps, double *out)
{
	static const int pm[NPERF] = { PM_PERF_CS, PM_PERF_MIGRATIONS, PM_PERF_TASK_CLOCK_S };
	struct rusage self, kids;
	struct psi_cpu p1;

	for (int i = 0; i < NPERF; i++) {
		uint64_t v;

		if (ps->perf0[i] == UINT64_MAX || perf_read(ps->perf_fd[i], &v))
			continue;
		out[pm[i]] = (double)(v - ps->perf0[i]) / (i == PERF_CLOCK ? 1e9 : 1);
	}
	if (!getrusage(RUSAGE_SELF, &self) && !getrusage(RUSAGE_CHILDREN, &kids)) {
		out[PM_RU_NVCSW] = (double)(self.ru_nvcsw - ps->self0.ru_nvcsw +
					    kids.ru_nvcsw - ps->kids0.ru_nvcsw);
		out[PM_RU_NIVCSW] = (double)(self.ru_nivcsw - ps->self0.ru_nivcsw +
					     kids.ru_nivcsw - ps->kids0.ru_nivcsw);
	}
	end_stat(ps, out);
	if (ps->have_psi0 && read_psi(&p1))
		out[PM_PSI_SOME_US] = (double)(p1.some_total_us - ps->psi0.some_total_us);
	end_schedstat(ps, out);
	end_taskstats(ps, out);
}

void probe_close(struct probe_state *ps)
{
	if (!ps)
		return;
	for (int i = 0; i < NPERF; i++)
		if (ps->perf_fd[i] >= 0)
			close(ps->perf_fd[i]);
	if (ps->have_stat0)
		stat_cpus_free(&ps->stat0);
	if (ps->have_ss0)
		schedstat_free(&ps->ss0);
	ts_close(ps->ts);
	free(ps);
}

/* ---- availability ---- */

static json_t *avail(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static json_t *avail(bool ok, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	if (ok)
		return json_pack("{s:b}", "available", 1);
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return json_pack("{s:b, s:s}", "available", 0, "reason", why);
}

static json_t *file_avail(const char *path, bool parsed, const char *hint)
{
	if (access(path, R_OK))
		return avail(false, "%s: %s%s%s", path, strerror(errno),
			     hint ? "; " : "", hint ? hint : "");
	return avail(parsed, "%s: unexpected contents", path);
}

json_t *probes_availability(enum probe_level level)
{
	json_t *j = json_object();
	struct task_probe tp = { 0 };
	struct stat_cpus st;
	struct psi_cpu psi;
	struct schedstat ss;
	char why[256];
	bool ok;
	int fd;

	task_probe_collect(&tp);
	json_object_set_new(j, "task_schedstat",
		file_avail("/proc/self/schedstat", tp.have_schedstat,
			   "kernel without CONFIG_SCHED_INFO"));
	json_object_set_new(j, "task_sched",
		file_avail("/proc/self/sched", tp.have_sched,
			   "kernel before 6.15 without CONFIG_SCHED_DEBUG"));
	json_object_set_new(j, "rusage", avail(true, "%s", ""));
	ok = read_stat(&st);
	if (ok)
		stat_cpus_free(&st);
	json_object_set_new(j, "proc_stat", file_avail("/proc/stat", ok, NULL));
	json_object_set_new(j, "psi", file_avail("/proc/pressure/cpu", read_psi(&psi),
		"kernel without CONFIG_PSI, or booted with psi=0"));
	if (read_schedstat(&ss)) {
		json_object_set_new(j, "proc_schedstat", avail(true, "%s", ""));
		schedstat_free(&ss);
	} else {
		json_object_set_new(j, "proc_schedstat", file_avail("/proc/schedstat", false,
			"kernel without CONFIG_SCHEDSTATS"));
	}
	if (ts_available(why, sizeof(why)))
		json_object_set_new(j, "taskstats", avail(true, "%s", ""));
	else
		json_object_set_new(j, "taskstats", avail(false, "%s", why));
	fd = level == PROBES_PERF ? perf_open(PERF_COUNT_SW_CONTEXT_SWITCHES) : -1;
	if (level != PROBES_PERF) {
		json_object_set_new(j, "perf", avail(false,
			"not asked for: probes = perf (they slow every context switch)"));
	} else if (fd >= 0) {
		json_object_set_new(j, "perf", avail(true, "%s", ""));
		close(fd);
	} else {
		json_object_set_new(j, "perf", avail(false,
			"perf_event_open: %s; needs perf_event_paranoid <= 1, root or CAP_PERFMON",
			strerror(errno)));
	}
	return j;
}
