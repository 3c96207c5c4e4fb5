/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cgroup: the cgroup a case's workload runs in (harness/settings.h's
 * cgroup.CONTROLLER.FILE keys), created by the run and removed by it.
 *
 * Each controller named is looked up in /proc/self/mountinfo: a cgroup
 * v1 hierarchy that has it (cpu, cpuset, ... as mount options), else
 * the v2 hierarchy when its root's cgroup.controllers lists it and
 * cgroup.subtree_control enables it. Settings of controllers that share
 * a hierarchy go in one directory; v1's cpu and cpuset here are two
 * hierarchies, so two directories, both joined. A directory is
 * HIERARCHY/NAME, NAME from the caller (schedlab-PID-N): flat under the
 * hierarchy's root, so that removing it leaves nothing behind. A v1
 * cpuset directory gets its parent's cpuset.cpus and cpuset.mems first
 * unless the settings give them (a task cannot join an empty cpuset).
 */
#ifndef SCHEDLAB_CGROUP_H
#define SCHEDLAB_CGROUP_H

#include <stddef.h>

#include "harness/settings.h"

struct cgroup_set {
	char **dirs;		/* one per hierarchy, to create */
	size_t ndirs;
	char **procs;		/* dirs[i]/cgroup.procs */
	struct setting *set;	/* the settings, key without "cgroup." */
	size_t nset;
	char **file;		/* set[i]'s file: dirs[h]/FILE */
	size_t created;		/* how many of dirs exist */
};

/*
 * Where the cgroup.* settings set[0..n) go, named name, into *cg;
 * creates nothing. 0, or -1 after error() naming the setting and why
 * (no hierarchy has the controller: "cgroup.cpu.weight: no cgroup
 * hierarchy has the cpu controller (v1 mounts: cpuset; v2: memory io)").
 */
int cgroup_plan(const struct setting *set, size_t n, const char *name,
		struct cgroup_set *cg);

/*
 * Creates the directories and writes the files, reading each back; a
 * file the controller does not have is named with the files it does
 * have of that controller. -1 after error(), with what was created
 * removed.
 */
int cgroup_create(struct cgroup_set *cg);

/*
 * Removes the directories: any task still in one (a leftover the
 * runner could not reap) is killed first, and the removal retried for
 * up to a second. -1 after warning() when one stays.
 */
int cgroup_remove(struct cgroup_set *cg);

/* cgroup_remove() of one directory, for a journal's recovery. */
int cgroup_remove_dir(const char *dir);

void cgroup_set_free(struct cgroup_set *cg);

#endif
