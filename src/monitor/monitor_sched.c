// SPDX-License-Identifier: GPL-2.0-only
/*
 * monitor_sched.c: the monitors of the scheduler's and the CPUs' own
 * files - /proc/schedstat per CPU and per domain level, the sched debug
 * file's run queues, cpufreq's current frequency per CPU - each a struct
 * monitor_ops as monitor_src.c's, over the helpers of monitor_src.h.
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
		return errno ? mon_unreadable("/proc/schedstat", "the kernel needs CONFIG_SCHEDSTATS",
					  why, len) :
			       mon_unparsed("/proc/schedstat", why, len);
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
		out[SS_NTOT + 2 * i] = mon_rate(a->run_delay_ns, b->run_delay_ns, dt) / 1e9;
		out[SS_NTOT + 2 * i + 1] = mon_rate(a->ttwu_count, b->ttwu_count, dt);
		for (int l = 0; l < m->nlevel && l < a->nr_domains && l < b->nr_domains; l++) {
			uint64_t va[SS_NDOM] = { 0 }, vb[SS_NDOM] = { 0 };
			double *o = out + SS_NTOT + 2 * (size_t)m->ncpu + SS_NDOM * (size_t)l;

			ss_dom_sum(&a->domains[l], va);
			ss_dom_sum(&b->domains[l], vb);
			for (size_t k = 0; k < SS_NDOM; k++)
				o[k] = (isnan(o[k]) ? 0 : o[k]) + mon_rate(va[k], vb[k], dt);
		}
	}
	out[0] = mon_rate(ta[0], tb[0], dt);
	out[1] = mon_pct(tb[1] - ta[1], tb[0] - ta[0]);
	out[2] = mon_rate(ta[2], tb[2], dt);
	out[3] = mon_pct(tb[3] - ta[3], tb[2] - ta[2]);
	out[4] = mon_rate(da, db, dt) / 1e9;
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

const struct monitor_ops schedstat_ops = { ss_open, ss_sample, ss_close };

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
	m->ncpu = mon_cpu_cols(s, m->prev.ncpu, m->prev.have, &m->cpu, "tasks",
			       "tasks on this CPU's run queue", "nr_running");
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
	out[2] = mon_rate(sa, sb, dt);
	m->prev = *now;
	free(now);
}

static void sd_close(void *state)
{
	struct sd_mon *m = state;

	free(m->cpu);
	free(m);
}

const struct monitor_ops sched_debug_ops = { sd_open, sd_sample, sd_close };

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

const struct monitor_ops cpufreq_ops = { freq_open, freq_sample, freq_close };
