// SPDX-License-Identifier: GPL-2.0-only
/*
 * The counters each worker reads of itself, /proc/thread-self/schedstat
 * (on-CPU time, run-queue wait, timeslices) and /proc/thread-self/sched
 * (migrations, voluntary and involuntary switches) - /proc/self/... in a
 * worker process - from the start barrier to its end, and their sums
 * over the workload's tasks.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "probe/procfs.h"
#include "probe/source.h"

void task_files_open(struct task_files *f, bool single)
{
	f->schedstat = open(single ? "/proc/self/schedstat" :
			    "/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	f->sched = open(single ? "/proc/self/sched" : "/proc/thread-self/sched",
			O_RDONLY | O_CLOEXEC);
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

	task_files_open(&f, false);
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

static bool schedstat_available(enum probe_level level, char *why, size_t len)
{
	struct task_probe tp = { 0 };

	(void)level;
	task_probe_collect(&tp);
	return probe_file_ok("/proc/self/schedstat", tp.have_schedstat,
			     "kernel without CONFIG_SCHED_INFO", why, len);
}

static bool sched_available(enum probe_level level, char *why, size_t len)
{
	struct task_probe tp = { 0 };

	(void)level;
	task_probe_collect(&tp);
	return probe_file_ok("/proc/self/sched", tp.have_sched,
			     "kernel before 6.15 without CONFIG_SCHED_DEBUG",
			     why, len);
}

/* Read by the tasks themselves (task/instrument.c): no snapshot here. */
const struct probe_source probe_task_schedstat = {
	.name = "task_schedstat", .available = schedstat_available,
};

const struct probe_source probe_task_sched = {
	.name = "task_sched", .available = sched_available,
};
