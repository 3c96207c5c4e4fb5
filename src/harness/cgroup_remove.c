// SPDX-License-Identifier: GPL-2.0-only
/*
 * cgroup_remove: the removal of harness/cgroup.h's cgroups - the ones a
 * workload made inside them first, then each directory, killing what
 * is still in it (for up to a second) while rmdir() finds it busy.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/cgroup.h"
#include "util.h"

/* Kills every task listed in dir's cgroup.procs but this one. */
static void kill_listed(const char *dir)
{
	char path[PATH_MAX + 16];
	FILE *f;
	long pid;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fscanf(f, "%ld", &pid) == 1)
		if (pid > 0 && pid != (long)getpid())
			kill((pid_t)pid, SIGKILL);
	fclose(f);
}

/* dir's subdirectories (cgroups a workload made in it) removed first. */
static int remove_children(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(d))) {
		char sub[PATH_MAX];

		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) >=
		    (int)sizeof(sub))
			continue;
		if (cgroup_remove_dir(sub))
			rc = -1;
	}
	closedir(d);
	return rc;
}

int cgroup_remove_dir(const char *dir)
{
	uint64_t end = now_ns() + 1000000000ull;

	if (remove_children(dir))
		return -1;
	for (;;) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if (errno != EBUSY) {
			warning("cannot remove the cgroup %s: %s", dir,
				strerror(errno));
			return -1;
		}
		kill_listed(dir);
		if (now_ns() > end) {
			warning("cannot remove the cgroup %s: tasks are still in it after a second",
				dir);
			return -1;
		}
		usleep(10000);
	}
}

int cgroup_remove(struct cgroup_set *cg)
{
	int rc = 0;

	for (size_t h = cg->created; h-- > 0;)
		if (cgroup_remove_dir(cg->dirs[h]))
			rc = -1;
	if (!rc)
		cg->created = 0;
	return rc;
}
