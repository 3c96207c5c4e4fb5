// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_keeper: the keeper process of a case's tracer (trace.h says why
 * there is one) - a child subreaper that forks the tracer into a process
 * group of its own, and when told, or when schedlab dies, stops it with
 * SIGINT, then SIGTERM and SIGKILL after grace periods, kills what is
 * left below it and reports the tracer's end - and the keepers this
 * process runs, for trace_keeps().
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace/trace_int.h"
#include "util.h"

/*
 * The keepers this process runs, for trace_keeps(): a case's tracer runs
 * across iterations, those of every side of an interleaved ab.
 */
#define KEEPERS_MAX 64
static struct {
	pid_t pid, owner;
} keepers[KEEPERS_MAX];

static void keepers_add(pid_t pid)
{
	for (int i = 0; i < KEEPERS_MAX; i++)
		if (!keepers[i].pid) {
			keepers[i].pid = pid;
			keepers[i].owner = getpid();
			return;
		}
}

static void keepers_del(pid_t pid)
{
	for (int i = 0; i < KEEPERS_MAX; i++)
		if (keepers[i].pid == pid)
			keepers[i].pid = 0;
}

bool trace_keeps(pid_t pid)
{
	for (int i = 0; i < KEEPERS_MAX; i++)
		if (pid && keepers[i].pid == pid && keepers[i].owner == getpid())
			return true;
	return false;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * write_all() to a pipe whose reader may be gone: EPIPE, not the
 * SIGPIPE that would end schedlab (which does not ignore it).
 */
int trace_write_pipe(int fd, const void *buf, size_t len)
{
	static const struct timespec now = { 0, 0 };
	sigset_t pipe, old, pending;
	bool was;
	int rc;

	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe, &old);
	sigpending(&pending);
	was = sigismember(&pending, SIGPIPE);
	rc = write_all(fd, buf, len);
	if (rc && errno == EPIPE && !was)
		sigtimedwait(&pipe, NULL, &now);	/* ours: taken off */
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* The tracer's environment: the trace variables over schedlab's. */
static void tracer_env(const struct trace_hook *t, unsigned iter)
{
	const char *uuid = t->spec.uuid, *slash = strrchr(t->spec.root, '/');
	char num[16];

	if (!uuid)
		uuid = slash ? slash + 1 : t->spec.root;
	setenv("SCHEDLAB_TRACE_DIR", t->dir, 1);
	setenv("SCHEDLAB_RUN_UUID", uuid, 1);
	snprintf(num, sizeof(num), "%u", t->spec.seq);
	setenv("SCHEDLAB_CASE", num, 1);
	setenv("SCHEDLAB_JOB", t->spec.job ? t->spec.job : "", 1);
	snprintf(num, sizeof(num), "%u", iter);
	setenv("SCHEDLAB_ITERATION", iter ? num : "", 1);
}

/*
 * The tracer, in a process group of its own: standard output and error
 * into the directory, perf's control at descriptors 3 and 4, exec's
 * errno through err (close-on-exec) when it fails.
 */
static void __attribute__((noreturn))
tracer(const struct trace_hook *t, unsigned iter, int pctl, int pack, int err)
{
	char path[4200];
	sigset_t none;
	int fd;

	setpgid(0, 0);
	/* the signals that stop it at their defaults, whatever schedlab
	 * was started with (a background job ignores SIGINT) */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	tracer_env(t, iter);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		dup2(fd, 0);
	snprintf(path, sizeof(path), "%s/trace.stdout", t->dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0)
		dup2(fd, 1);
	snprintf(path, sizeof(path), "%s/trace.stderr", t->dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0)
		dup2(fd, 2);
	/* out of the way of 3 and 4 first */
	err = fcntl(err, F_DUPFD_CLOEXEC, 20);
	if (t->perf) {
		char **argv = trace_perf_argv(t->dir);

		pctl = fcntl(pctl, F_DUPFD, 20);
		pack = fcntl(pack, F_DUPFD, 20);
		if (err < 0 || pctl < 0 || pack < 0 ||
		    dup2(pctl, 3) < 0 || dup2(pack, 4) < 0)
			_exit(127);
		/* 4: CLOSE_RANGE_CLOEXEC (Linux 5.11), so err stays till exec */
		syscall(SYS_close_range, 5u, ~0u, 4u);
		execvp(argv[0], argv);
	} else {
		char *argv[] = { "sh", "-c", (char *)t->spec.trace, NULL };

		if (err < 0)
			_exit(127);
		syscall(SYS_close_range, 3u, ~0u, 4u);
		execv("/bin/sh", argv);
	}
	fd = errno;
	if (write(err, &fd, sizeof(fd)) < 0)
		_exit(127);
	_exit(127);
}

/* The children of the keeper, from /proc; how many were signalled. */
static int kill_children(void)
{
	char path[64];
	long c;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fscanf(f, "%ld", &c) == 1)
		n += !kill((pid_t)c, SIGKILL);
	fclose(f);
	return n;
}

/* Whether pid has ended (not reaped: its pid stays the group's id). */
static bool ended(pid_t pid)
{
	siginfo_t si = { 0 };

	return !waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
	       si.si_pid == pid;
}

/* Whether a process of group pgid is alive (not a zombie), from /proc. */
static bool group_alive(pid_t pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	bool alive = false;

	while (d && !alive && (de = readdir(d))) {
		long ppid, pg;
		char state;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		if (!proc_stat_ids(de->d_name, &state, &ppid, &pg) &&
		    pg == pgid && state != 'Z' && state != 'X')
			alive = true;
	}
	if (d)
		closedir(d);
	return alive;
}

/* Waits up to ms for group pgid to have no live process; true if so. */
static bool group_gone_within(pid_t pgid, int ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ull;

	while (group_alive(pgid)) {
		if (now_ns() >= end)
			return false;
		usleep(10000);
	}
	return true;
}

/*
 * The tracer is over or must be: its group told to stop (SIGINT, then
 * SIGTERM, then SIGKILL, each when some of it is still alive after a
 * grace period), killed while its leader's pid, not yet reaped, still
 * names the group; the leader reaped, then whatever it left below the
 * keeper (setsid() escapees, adopted by the subreaper) killed.
 */
static void keeper_finish(pid_t pid, struct keeper_end *e)
{
	if (group_alive(pid)) {
		kill(-pid, SIGINT);
		if (!group_gone_within(pid, STOP_GRACE_MS)) {
			kill(-pid, SIGTERM);
			if (!group_gone_within(pid, TERM_GRACE_MS))
				e->killed = 1;
		}
	}
	kill(-pid, SIGKILL);
	while (waitpid(pid, &e->status, 0) < 0 && errno == EINTR)
		;
	for (int round = 0; round < 1000; round++) {
		int n = kill_children();

		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (!n)
			break;
		usleep(1000);
	}
}

static void __attribute__((noreturn))
keeper(const struct trace_hook *t, unsigned iter, int ctl, int st, int pctl,
       int pack, pid_t parent)
{
	struct keeper_end e = { .status = -1 };
	int errp[2], keep[] = { ctl, st, pctl, pack };
	pid_t pid;
	bool stop = false;

	sigset_t all;

	/* schedlab takes the terminal's signals; the keeper acts on its word */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	prctl(PR_SET_NAME, "schedlab-trace");
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* nothing of schedlab's but its own: a sampler's pipe held here
	 * would keep the sampler from seeing its end */
	for (int fd = 3; fd < 1024; fd++) {
		bool mine = false;

		for (size_t i = 0; i < ARRAY_SIZE(keep); i++)
			mine |= keep[i] == fd;
		if (!mine)
			close(fd);
	}
	if (pipe2(errp, O_CLOEXEC))
		_exit(1);
	pid = fork();
	if (pid == 0) {
		close(errp[0]);
		close(ctl);
		close(st);
		tracer(t, iter, pctl, pack, errp[1]);
	}
	close(errp[1]);
	if (pctl >= 0)
		close(pctl);
	if (pack >= 0)
		close(pack);
	if (pid < 0) {
		e.err = errno;
		write_all(st, &pid, sizeof(pid));
		write_all(st, &e, sizeof(e));
		_exit(1);
	}
	setpgid(pid, pid);
	if (read(errp[0], &e.err, sizeof(e.err)) != (ssize_t)sizeof(e.err))
		e.err = 0;	/* exec'd */
	close(errp[0]);
	if (write_all(st, &pid, sizeof(pid)))
		stop = true;
	while (!stop) {
		struct pollfd pfd = { .fd = ctl, .events = POLLIN };
		char c;
		int r = poll(&pfd, 1, 200);

		if (r > 0)
			stop = true;	/* the word, or schedlab's end */
		else if (getppid() != parent)
			stop = true;
		/* what it started in the background runs on till the word */
		if (!e.early && ended(pid))
			e.early = 1;
		if (r > 0 && read(ctl, &c, 1) < 0)
			break;
	}
	if (!e.early && ended(pid))
		e.early = 1;	/* it did not wait to be told */
	keeper_finish(pid, &e);
	if (e.err)
		e.status = -1;
	write_all(st, &e, sizeof(e));
	_exit(0);
}

/* Forks the keeper; 0 with t->keeper, t->pgid and the fds set. */
int trace_keeper_start(struct trace_hook *t, unsigned iter)
{
	int ctl[2], st[2], pctl[2] = { -1, -1 }, pack[2] = { -1, -1 };
	pid_t parent = getpid(), pid;

	if (pipe2(ctl, O_CLOEXEC) || pipe2(st, O_CLOEXEC) ||
	    (t->perf && (pipe2(pctl, O_CLOEXEC) || pipe2(pack, O_CLOEXEC)))) {
		warning("trace: pipe: %s", strerror(errno));
		return -1;	/* a few descriptors lost: rare, harmless */
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		warning("trace: fork: %s", strerror(errno));
		close(ctl[0]); close(ctl[1]); close(st[0]); close(st[1]);
		close_fd(&pctl[0]); close_fd(&pctl[1]);
		close_fd(&pack[0]); close_fd(&pack[1]);
		return -1;
	}
	if (pid == 0) {
		close(ctl[1]);
		close(st[0]);
		close_fd(&pctl[1]);
		close_fd(&pack[0]);
		keeper(t, iter, ctl[0], st[1], pctl[0], pack[1], parent);
	}
	close(ctl[0]);
	close(st[1]);
	close_fd(&pctl[0]);
	close_fd(&pack[1]);
	t->keeper = pid;
	keepers_add(pid);
	t->ctl_fd = ctl[1];
	t->st_fd = st[0];
	t->pctl_fd = pctl[1];
	t->pack_fd = pack[0];
	if (read_all(t->st_fd, &t->pgid, sizeof(t->pgid), 10000) || t->pgid <= 0)
		t->pgid = 0;
	return 0;
}

/* Tells the keeper to stop and waits for its word and its end. */
int trace_keeper_stop(struct trace_hook *t, struct keeper_end *e)
{
	siginfo_t si = { 0 };
	char c = 's';
	int rc, status;

	memset(e, 0, sizeof(*e));
	e->status = -1;
	/* a keeper that died: its end is read below */
	trace_write_pipe(t->ctl_fd, &c, 1);
	close_fd(&t->ctl_fd);
	rc = read_all(t->st_fd, e, sizeof(*e),
			STOP_GRACE_MS + TERM_GRACE_MS + 5000);
	/* a keeper that hangs: it and its tracer killed here, while it is
	 * still ours (not reaped: its pid not another's) */
	if (rc && !waitid(P_PID, (id_t)t->keeper, &si,
			  WEXITED | WNOHANG | WNOWAIT)) {
		if (t->pgid > 0 && si.si_pid != t->keeper)
			kill(-t->pgid, SIGKILL);
		kill(t->keeper, SIGKILL);
	}
	while (waitpid(t->keeper, &status, 0) < 0 && errno == EINTR)
		;
	close_fd(&t->st_fd);
	close_fd(&t->pctl_fd);
	close_fd(&t->pack_fd);
	keepers_del(t->keeper);
	t->keeper = 0;
	t->pgid = 0;
	return rc;
}
