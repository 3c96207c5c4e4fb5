/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pipe_cgroup: perf bench sched pipe's -G SEND,RECV - which cgroup
 * directory each worker joins, and the joining.
 *
 * As perf (tools/perf/util/cgroup.c, tools/lib/api/fs/cgroup.c): a
 * name is relative to the mount of the cgroup v1 hierarchy that has
 * the perf_event controller, else to the cgroup v2 mount, from
 * /proc/mounts. Worker 0 joins SEND, worker 1 RECV: it opens the
 * directory, then writes its pid into cgroup.procs (-T: its tid into
 * cgroup.threads), or into v1's tasks when that file does not exist.
 */
#ifndef SCHEDLAB_PIPE_CGROUP_H
#define SCHEDLAB_PIPE_CGROUP_H

#include <limits.h>
#include <stdbool.h>

struct pipe_cgroups {
	char mnt[PATH_MAX];	/* the hierarchy's mount point */
	char name[2][PATH_MAX];	/* SEND, RECV */
};

/*
 * arg ("SEND,RECV") into *cg, the hierarchy found: 0, or -1 after
 * error() (no comma: perf's "it should have two cgroup names"; no
 * hierarchy). check: also opens both directories, and says as perf
 * does (with its hint) which one is missing.
 */
int pipe_cgroups_parse(const char *arg, bool check, struct pipe_cgroups *cg);

/*
 * Worker nr joins its cgroup. 0, or -1 with perf's message for it in
 * err ("Cannot enter to cgroup: NAME").
 */
int pipe_cgroup_enter(const struct pipe_cgroups *cg, int nr, bool threaded,
		      char *err, size_t errlen);

#endif
