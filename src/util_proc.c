// SPDX-License-Identifier: GPL-2.0-only
/*
 * util_proc: util.h's process limits and /proc reads - a process's
 * /proc/PID/stat fields (its parent, group, state, start), and the stack
 * and open-file limits raised to what a run needs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util.h"

/* /proc/PID/stat's fields after the command name (which may hold ')'
 * and blanks) into buf: a pointer to them, or NULL when pid is gone. */
static const char *proc_stat_fields(const char *pid, char *buf, size_t size)
{
	char path[300], *p;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len <= 0)
		return NULL;
	buf[len] = '\0';
	p = strrchr(buf, ')');
	return p ? p + 1 : NULL;
}

int proc_stat_ids(const char *pid, char *state, long *ppid, long *pgrp)
{
	char buf[512];
	const char *f = proc_stat_fields(pid, buf, sizeof(buf));

	/* " S PPID PGRP ..." */
	return f && sscanf(f, " %c %ld %ld", state, ppid, pgrp) == 3 ? 0 : -1;
}

int proc_stat_start(const char *pid, long *pgrp, unsigned long long *start)
{
	char buf[1024];
	const char *f = proc_stat_fields(pid, buf, sizeof(buf));

	/* " S PPID PGRP SID TTY TPGID FLAGS MINFLT CMINFLT MAJFLT CMAJFLT
	 * UTIME STIME CUTIME CSTIME PRIO NICE THREADS ITREAL START" */
	if (!f || f[0] != ' ' || f[1] == 'Z' || f[1] == 'X')
		return -1;
	return sscanf(f + 1, "%*c %*d %ld %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
		      pgrp, start) == 2 ? 0 : -1;
}

/* /proc/PID/stat's utime + stime + cutime + cstime, in clock ticks (pid
 * a decimal string), and its parent; -1 when it is gone */
static long long proc_cpu_ticks(const char *pid, long *ppid)
{
	char buf[1024];
	const char *f = proc_stat_fields(pid, buf, sizeof(buf));
	long long ut, st, cut, cst;

	if (!f || sscanf(f, " %*c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %lld %lld %lld %lld",
			 ppid, &ut, &st, &cut, &cst) != 5)
		return -1;
	return ut + st + cut + cst;
}

/*
 * A server's CPU time in clock ticks: its own and its children's, the
 * ones it reaped (cutime, cstime) and the ones still there - a backend
 * that served the run and exited but is not reaped yet is counted all
 * the same (a zombie keeps its times), so that the figure does not
 * depend on when the server gets to its SIGCHLD. -1 when it is gone.
 */
static long long proc_tree_ticks(long pid)
{
	char name[32];
	long long total, t;
	long ppid;
	struct dirent *d;
	DIR *dir;

	snprintf(name, sizeof(name), "%ld", pid);
	total = proc_cpu_ticks(name, &ppid);
	if (total < 0 || !(dir = opendir("/proc")))
		return total;
	while ((d = readdir(dir)))
		if (d->d_name[0] >= '1' && d->d_name[0] <= '9' &&
		    (t = proc_cpu_ticks(d->d_name, &ppid)) >= 0 && ppid == pid)
			total += t;
	closedir(dir);
	return total;
}

static struct {
	long pid;
	long long ticks0;
} serving[8];
static size_t nserving;

void proc_serving_add(long pid)
{
	long long t = pid > 0 ? proc_tree_ticks(pid) : -1;

	for (size_t i = 0; i < nserving; i++)
		if (serving[i].pid == pid)
			return;
	if (t < 0 || nserving >= sizeof(serving) / sizeof(serving[0]))
		return;
	serving[nserving].pid = pid;
	serving[nserving++].ticks0 = t;
}

double proc_serving_cpu_s(char *what, size_t len)
{
	long hz = sysconf(_SC_CLK_TCK);
	double s = 0;
	size_t at = 0;

	if (what && len)
		*what = '\0';
	for (size_t i = 0; i < nserving && hz > 0; i++) {
		long long t = proc_tree_ticks(serving[i].pid);
		char path[64], comm[64] = "?";
		FILE *f;

		if (t >= serving[i].ticks0)
			s += (double)(t - serving[i].ticks0) / (double)hz;
		snprintf(path, sizeof(path), "/proc/%ld/comm", serving[i].pid);
		f = fopen(path, "re");
		if (f && fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		if (f)
			fclose(f);
		if (what && at < len)
			at += (size_t)snprintf(what + at, len - at, "%s%s %ld",
					       i ? ", " : "", comm, serving[i].pid);
	}
	return s;
}

/*
 * fs.nr_open, or the kernel's default when it cannot be read; with
 * pread, so that strace's read() count is the workload's alone.
 */
int stack_raise(unsigned long long need, unsigned long long *hard)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_STACK, &rl))
		return error_errno("getrlimit(RLIMIT_STACK)");
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		*hard = rl.rlim_max;
		return 1;
	}
	rl.rlim_cur = need;
	if (setrlimit(RLIMIT_STACK, &rl))
		return error_errno("setrlimit(RLIMIT_STACK)");
	return 0;
}

static unsigned long long nr_open(void)
{
	unsigned long long v = 1048576;	/* the kernel's default */
	char buf[32];
	int fd = open("/proc/sys/fs/nr_open", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : pread(fd, buf, sizeof(buf) - 1, 0);

	if (n > 0) {
		buf[n] = '\0';
		v = strtoull(buf, NULL, 10);
	}
	if (fd >= 0)
		close(fd);
	return v ? v : 1048576;
}

int nofile_raise(unsigned long long need, struct nofile_limits *lim)
{
	struct rlimit rl;

	lim->nr_open = nr_open();
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return error_errno("getrlimit(RLIMIT_NOFILE)");
	lim->hard = rl.rlim_max;
	if (rl.rlim_cur >= need)
		return 0;
	/* Raise the soft limit as far as allowed; when privileged, the hard one. */
	if (rl.rlim_max < need && need <= lim->nr_open) {
		struct rlimit up = { need, need };

		if (!setrlimit(RLIMIT_NOFILE, &up)) {
			lim->hard = need;
			return 0;
		}
	}
	rl.rlim_cur = rl.rlim_max < need ? rl.rlim_max : need;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		return error_errno("setrlimit(RLIMIT_NOFILE)");
	return rl.rlim_cur >= need ? 0 : 1;
}
