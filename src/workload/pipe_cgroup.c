// SPDX-License-Identifier: GPL-2.0-only
/*
 * pipe_cgroup: the cgroups of perf bench sched pipe -G (pipe_cgroup.h):
 * finding the hierarchy as perf does, checking the two names before
 * the run, and a worker's joining its cgroup.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "workload/pipe_cgroup.h"
#include "util.h"

/* Whether word is one of opts' ','-separated words. */
static bool has_opt(const char *opts, const char *word)
{
	size_t n = strlen(word);

	while (*opts) {
		size_t k = strcspn(opts, ",");

		if (k == n && !strncmp(opts, word, n))
			return true;
		opts += k;
		opts += strspn(opts, ",");
	}
	return false;
}

/*
 * perf's cgroupfs_find_mountpoint(..., "perf_event"): the v1 mount
 * whose options name perf_event, else the (last) v2 mount. 0, or -1.
 */
static int find_mount(char *buf, size_t len)
{
	FILE *f = fopen("/proc/mounts", "r");
	char dev[256], mnt[PATH_MAX], type[64], opts[1024];
	char v2[PATH_MAX] = "";
	int rc = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%255s %4095s %63s %1023s %*[^\n]", dev, mnt, type,
		      opts) == 4) {
		if (!strcmp(type, "cgroup2")) {
			snprintf(v2, sizeof(v2), "%s", mnt);
		} else if (!strcmp(type, "cgroup") && has_opt(opts, "perf_event")) {
			snprintf(buf, len, "%s", mnt);
			rc = 0;
			break;
		}
	}
	fclose(f);
	if (rc && *v2) {
		snprintf(buf, len, "%s", v2);
		rc = 0;
	}
	return rc;
}

static int check_dir(const struct pipe_cgroups *cg, int nr)
{
	char path[2 * PATH_MAX + 2];
	int fd, e;

	snprintf(path, sizeof(path), "%s/%s", cg->mnt, cg->name[nr]);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	e = errno;
	error("pipe: -G/--cgroups: no access to cgroup %s: %s", path,
	      strerror(e));
	if (e == ENOENT)
		return error("Failed to open cgroup file in %s (hint: create the cgroup first, like 'mkdir %s')",
			     cg->name[nr], path);
	if (e == EACCES && geteuid() > 0)
		return error("Failed to open cgroup file in %s (hint: try to run as root)",
			     cg->name[nr]);
	return error("Failed to open cgroup file in %s", cg->name[nr]);
}

int pipe_cgroups_parse(const char *arg, bool check, struct pipe_cgroups *cg)
{
	const char *comma = strchr(arg, ',');

	if (!comma)
		return error("pipe: -G/--cgroups takes SEND,RECV: it should have two cgroup names: %s",
			     arg);
	if ((size_t)(comma - arg) >= sizeof(cg->name[0]) ||
	    strlen(comma + 1) >= sizeof(cg->name[1]))
		return error("pipe: -G/--cgroups: a cgroup name is too long");
	snprintf(cg->name[0], sizeof(cg->name[0]), "%.*s", (int)(comma - arg),
		 arg);
	snprintf(cg->name[1], sizeof(cg->name[1]), "%s", comma + 1);
	if (find_mount(cg->mnt, sizeof(cg->mnt)))
		return error("pipe: -G/--cgroups: no cgroup hierarchy is mounted with the perf_event controller, and no cgroup v2 (as perf, /proc/mounts)");
	if (check && (check_dir(cg, 0) || check_dir(cg, 1)))
		return -1;
	return 0;
}

int pipe_cgroup_enter(const struct pipe_cgroups *cg, int nr, bool threaded,
		      char *err, size_t errlen)
{
	char path[2 * PATH_MAX + 2], id[32];
	pid_t pid = threaded ? (pid_t)syscall(SYS_gettid) : getpid();
	int dfd, fd, len;
	ssize_t w;

	snprintf(path, sizeof(path), "%s/%s", cg->mnt, cg->name[nr]);
	dfd = open(path, O_RDONLY);
	if (dfd < 0) {
		snprintf(err, errlen, "Failed to open cgroup file in %s: %s",
			 cg->name[nr], strerror(errno));
		return -1;
	}
	len = snprintf(id, sizeof(id), "%d\n", (int)pid);
	fd = openat(dfd, threaded ? "cgroup.threads" : "cgroup.procs", O_WRONLY);
	if (fd < 0 && errno == ENOENT)
		fd = openat(dfd, "tasks", O_WRONLY);	/* cgroup v1 */
	if (fd < 0) {
		snprintf(err, errlen, "Failed to open cgroup file in %s: %s",
			 cg->name[nr], strerror(errno));
		close(dfd);
		return -1;
	}
	w = write(fd, id, (size_t)len);
	if (w != len)
		snprintf(err, errlen, "Cannot enter to cgroup: %s%s%s", cg->name[nr],
			 w < 0 ? ": " : "", w < 0 ? strerror(errno) : "");
	close(fd);
	close(dfd);
	return w == len ? 0 : -1;
}
