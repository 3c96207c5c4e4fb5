// SPDX-License-Identifier: GPL-2.0-only
/*
 * The temporary directories a run owns for its external programs
 * (external.h): made under $TMPDIR, the programs still in one killed,
 * and those of a schedlab killed before it could clean up swept away.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload/external.h"
#include "util.h"

int ext_tmpdir(struct wl_ctx *ctx, const char *tag, char *path, size_t len)
{
	const char *base = ext_tmpbase();

	/* the workload process's parent is schedlab */
	snprintf(path, len, "%s/schedlab-%s.%d.XXXXXX", base, tag,
		 (int)getppid());
	if (!mkdtemp(path))
		return wl_fail_errno(ctx, "cannot create a directory in %s",
				     base);
	return wl_own_dir(ctx, path);
}

void ext_kill_cwd(const char *dir)
{
	size_t len = strlen(dir);

	for (int round = 0; round < 500; round++) {
		struct dirent *e;
		DIR *d = opendir("/proc");
		int found = 0;

		while (d && (e = readdir(d))) {
			char link[300], cwd[PATH_MAX];
			ssize_t n;

			if (e->d_name[0] < '1' || e->d_name[0] > '9')
				continue;
			snprintf(link, sizeof(link), "/proc/%s/cwd", e->d_name);
			n = readlink(link, cwd, sizeof(cwd) - 1);
			if (n < (ssize_t)len || strncmp(cwd, dir, len) ||
			    (cwd[len] && cwd[len] != '/'))
				continue;
			kill((pid_t)atoi(e->d_name), SIGKILL);
			found++;
		}
		if (d)
			closedir(d);
		/* as a subreaper, orphans of the cluster may be ours to reap */
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (!found)
			return;
		usleep(10000);
	}
}

/*
 * "schedlab-TAG.PID.XXXXXX": PID is the schedlab process the directory
 * belongs to. One whose schedlab is gone (killed with SIGKILL, so that
 * nothing could clean up) and which is ours is removed, with whatever
 * still runs in it.
 */
void ext_sweep_stale(const char *base)
{
	DIR *d = opendir(base);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		const char *dot = strchr(e->d_name, '.');
		char path[PATH_MAX];
		struct stat st;
		long pid;
		char *end;

		if (strncmp(e->d_name, "schedlab-", 9) || !dot)
			continue;
		pid = strtol(dot + 1, &end, 10);
		if (pid <= 0 || *end != '.' || strlen(end) != 7)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", base, e->d_name);
		if (lstat(path, &st) || !S_ISDIR(st.st_mode) ||
		    st.st_uid != geteuid())
			continue;
		ext_kill_cwd(path);
		rm_tree(path);
	}
	if (d)
		closedir(d);
}

const char *ext_tmpbase(void)
{
	const char *base = getenv("TMPDIR");

	/* a unix socket path inside must fit in sun_path (108 bytes) */
	if (!base || !*base || strlen(base) > 60)
		base = "/tmp";
	return base;
}
