/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * source: how one probe source plugs into the probes (probes.c), one
 * file each - probe_perf.c, probe_rusage.c, probe_stat.c, probe_psi.c,
 * probe_schedstat.c, taskstats.c for the system-wide ones, which
 * snapshot when the workload's clock starts and stops, and probe_task.c
 * for the counters each task reads of itself.
 *
 * A source says whether it can measure here and why not, opens before
 * the workers exist (so that they inherit what must be inherited), takes
 * its snapshot at the start, and at the end fills its metrics (enum
 * probe_metric) from the difference. It never fails a run: what it
 * cannot measure stays NaN.
 */
#ifndef SCHEDLAB_PROBE_SOURCE_H
#define SCHEDLAB_PROBE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "probe/probe.h"

struct probe_snap_kind;

struct probe_source {
	const char *name;	/* its key in probes_availability() */
	/* Whether it measures at this level here; why not in why. */
	bool (*available)(enum probe_level level, char *why, size_t len);
	/*
	 * In the workload process, before the workers exist: its state, or
	 * NULL when it does not measure this time. NULL for sources that
	 * take no system-wide snapshot (the per-task ones).
	 */
	void *(*open)(enum probe_level level);
	void (*begin)(void *st);
	/* Its metrics from the difference into out[PM_*]; the rest alone. */
	void (*end)(void *st, double *out);
	void (*close)(void *st);
	/*
	 * Or, for a source whose snapshot is one /proc file: the file, and
	 * probes.c's shared available, open, begin and close serve it; the
	 * source gives only end.
	 */
	const struct probe_snap_kind *snap;
};

extern const struct probe_source probe_task_schedstat, probe_task_sched,
	probe_perf, probe_rusage, probe_proc_stat, probe_psi,
	probe_proc_schedstat, probe_taskstats;

/* Reads a whole small file with pread (so read() counts stay the workload's). */
ssize_t probe_slurp(const char *path, char *buf, size_t len);
/* The same for files of unknown size (/proc/stat, /proc/schedstat); free() it. */
char *probe_slurp_alloc(const char *path, size_t *len);
/*
 * Why a file-based source is not available: the file missing (with hint,
 * the kernel option it needs) or not parsed. False with why set.
 */
bool probe_file_ok(const char *path, bool parsed, const char *hint,
		   char *why, size_t len);

/*
 * A /proc file a source parses at begin and again at end (proc_stat,
 * psi, proc_schedstat): the file, the size of what parse fills, what
 * frees it (NULL: nothing to free) and the hint of probe_file_ok().
 */
struct probe_snap_kind {
	const char *path;
	size_t size;
	int (*parse)(const char *buf, size_t len, void *snap);
	void (*release)(void *snap);
	const char *hint;
};

/* Such a source's state: its kind and the snapshot taken at begin. */
struct probe_snap {
	const struct probe_snap_kind *kind;
	bool have;		/* s0 was read */
	void *s0;
};

/* Reads and parses the kind's file into snap; true when it parsed. */
bool probe_snap_read(const struct probe_snap_kind *k, void *snap);

#endif
