// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c: the trace keys, a case's tracer and the keeper process that
 * starts and stops it (trace.h says why there is one). perf-sched's own
 * parts are trace_perf.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace/trace.h"
#include "util.h"

const char *const trace_scope_names[] = { "iteration", "case", NULL };

#define STOP_GRACE_MS 10000	/* SIGINT: perf writes its data */
#define TERM_GRACE_MS 2000	/* SIGTERM */
#define ACK_WAIT_MS 30000	/* perf's first ack: it opens an event a CPU */

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

/* ---- keys ---------------------------------------------------------- */

int trace_parse(const char *text, bool *on, char *err, size_t len)
{
	size_t n = strlen(text);

	*on = false;
	if (!n || !strcmp(text, "none") || !strcmp(text, "off"))
		return 0;
	if (n > TRACE_CMD_MAX) {
		snprintf(err, len, "a command of %zu characters is too long (at most %d)",
			 n, TRACE_CMD_MAX);
		return -1;
	}
	if (strspn(text, " \t") == n) {
		snprintf(err, len, "a blank command");
		return -1;
	}
	if (strchr(text, '\n')) {
		snprintf(err, len, "a command of more than one line");
		return -1;
	}
	*on = true;
	return 0;
}

int trace_parse_tasks(const char *text, char *err, size_t len)
{
	char **v;
	size_t n = split_commas(text, &v);
	int rc = 0;

	if (!n || n > TRACE_TASKS_MAX) {
		snprintf(err, len, "%zu task names in '%.64s'", n, text);
		rc = -1;
	}
	for (size_t i = 0; i < n && !rc; i++)
		if (strlen(v[i]) > 15 || strpbrk(v[i], ",|") ||
		    !strcmp(v[i], "other")) {
			snprintf(err, len, "'%.64s' is not a task name%s", v[i],
				 !strcmp(v[i], "other") ? " (other is every task not named)" : "");
			rc = -1;
		}
	split_free(v, n);
	return rc;
}

char *trace_default_dir(const char *db)
{
	return xasprintf("%s.traces", db);
}

/* Whether prog (no '/') is an executable file in a directory of $PATH. */
static bool on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	bool found = false;

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	if (!path || !*path)
		return false;
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char full[PATH_MAX];
		struct stat st;

		snprintf(full, sizeof(full), "%s/%s", *dir ? dir : ".", prog);
		found = !stat(full, &st) && S_ISREG(st.st_mode) &&
			!access(full, X_OK);
	}
	free(copy);
	return found;
}

/* ---- a case's tracer ----------------------------------------------- */

void trace_open(struct trace_hook *t, const struct trace_spec *spec)
{
	memset(t, 0, sizeof(*t));
	t->ctl_fd = t->st_fd = t->pctl_fd = t->pack_fd = -1;
	if (!spec || !spec->trace)
		return;
	t->spec = *spec;
	t->on = true;
	t->perf = !strcmp(spec->trace, TRACE_PERF_SCHED);
	if (!t->perf)
		return;
	trace_perf_layout(t, spec->tasks ? spec->tasks : TRACE_TASKS_DEF);
	if (!on_path("perf")) {
		warning("trace perf-sched is unavailable: perf is not on PATH (Debian: linux-perf); %s runs untraced",
			spec->job ? spec->job : "the case");
		t->on = false;
	}
}

void trace_close(struct trace_hook *t)
{
	if (t->keeper)
		trace_stop(t, NULL);
	for (size_t i = 0; i < t->nkinds; i++)
		free(t->kinds[i]);
	free(t->kinds);
	for (size_t i = 0; i < t->nmetrics; i++) {
		free((char *)t->metrics[i].name);
		free((char *)t->metrics[i].help);
	}
	free(t->metrics);
	memset(t, 0, sizeof(*t));
	t->ctl_fd = t->st_fd = t->pctl_fd = t->pack_fd = -1;
}

pid_t trace_pid(const struct trace_hook *t)
{
	return t->keeper;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The tracer's directory for iteration iter, made empty. */
static int make_dir(struct trace_hook *t, unsigned iter)
{
	char cwd[PATH_MAX] = "", *bad;
	int n;

	/* absolute, for a command that changes directory */
	if (t->spec.root[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		cwd[0] = '\0';
	n = iter ? snprintf(t->dir, sizeof(t->dir), "%s%s%s/c%u-i%u", cwd,
			    *cwd ? "/" : "", t->spec.root, t->spec.seq, iter) :
		   snprintf(t->dir, sizeof(t->dir), "%s%s%s/c%u", cwd,
			    *cwd ? "/" : "", t->spec.root, t->spec.seq);

	if (n < 0 || (size_t)n >= sizeof(t->dir)) {
		warning("trace: directory path too long under %s", t->spec.root);
		return -1;
	}
	/* a retried iteration's: the kept attempt's alone */
	if (rm_tree(t->dir))
		warning("trace: cannot empty %s: %s", t->dir, strerror(errno));
	bad = mkdir_p(t->dir, 0755);
	if (bad) {
		warning("trace: cannot make %s: %s; not traced", bad,
			strerror(errno));
		free(bad);
		return -1;
	}
	return 0;
}

/* ---- the keeper ---------------------------------------------------- */

/* What the keeper says when its tracer is over. */
struct keeper_end {
	int status;		/* waitpid()'s; -1: never started */
	int err;		/* exec's errno, when it never started */
	int early;		/* it ended before it was told to stop */
	int killed;		/* it outlived SIGINT and SIGTERM */
};

/*
 * write_all() to a pipe whose reader may be gone: EPIPE, not the
 * SIGPIPE that would end schedlab (which does not ignore it).
 */
static int write_pipe(int fd, const void *buf, size_t len)
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
static int keeper_start(struct trace_hook *t, unsigned iter)
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

/* The first line of dir/trace.stderr that says something, into buf. */
static void first_error(const char *dir, char *buf, size_t len)
{
	char path[4200], line[512];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/trace.stderr", dir);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[strspn(line, " \t")] || strstr(line, "Events disabled"))
			continue;
		if (!buf[0] || strstr(line, "rror") || strstr(line, "ermission"))
			snprintf(buf, len, "%s", line + strspn(line, " \t"));
		if (strstr(line, "rror") || strstr(line, "ermission"))
			break;
	}
	fclose(f);
}

/* Removes dir/name when it is empty. */
static void drop_empty(const char *dir, const char *name)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!stat(path, &st) && S_ISREG(st.st_mode) && !st.st_size)
		unlink(path);
}

/* Tells the keeper to stop and waits for its word and its end. */
static int keeper_stop(struct trace_hook *t, struct keeper_end *e)
{
	siginfo_t si = { 0 };
	char c = 's';
	int rc, status;

	memset(e, 0, sizeof(*e));
	e->status = -1;
	/* a keeper that died: its end is read below */
	write_pipe(t->ctl_fd, &c, 1);
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

/* perf-sched: enabled through its control pipe, and its ack awaited. */
static int perf_enable(struct trace_hook *t)
{
	static const char cmd[] = "enable\n";
	char ack[4];

	if (write_pipe(t->pctl_fd, cmd, sizeof(cmd) - 1))
		return -1;
	return read_all(t->pack_fd, ack, sizeof(ack), ACK_WAIT_MS) ||
	       memcmp(ack, "ack", 3) ? -1 : 0;
}

int trace_start(struct trace_hook *t, unsigned iter)
{
	if (!t->on || t->keeper)
		return -1;
	if (make_dir(t, iter) || keeper_start(t, iter))
		return -1;
	t->iter = iter;
	if (t->perf && perf_enable(t)) {
		struct keeper_end e;
		char why[512];

		keeper_stop(t, &e);
		first_error(t->dir, why, sizeof(why));
		if (e.err)
			snprintf(why, sizeof(why), "perf: %s", strerror(e.err));
		warning("trace perf-sched is unavailable: perf sched record did not start%s%s; %s runs untraced",
			why[0] ? ": " : "", why, t->spec.job ? t->spec.job : "the case");
		t->on = false;
		return -1;
	}
	return 0;
}

int trace_fds(const struct trace_hook *t, int *fds)
{
	int n = 0;

	if (!t->keeper)
		return 0;
	fds[n++] = t->ctl_fd;
	fds[n++] = t->st_fd;
	if (t->pctl_fd >= 0)
		fds[n++] = t->pctl_fd;
	if (t->pack_fd >= 0)
		fds[n++] = t->pack_fd;
	return n;
}

/* "job (case 3) iteration 2", or without the iteration for the case. */
static void iter_label(const struct trace_hook *t, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s (case %u)", t->spec.job ? t->spec.job : "",
			 t->spec.seq);

	if (t->iter && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " iteration %u", t->iter);
}

/* What a generic command's end says, when it says something is wrong. */
static void command_end(struct trace_hook *t, const struct keeper_end *e)
{
	char why[512], at[160];

	iter_label(t, at, sizeof(at));
	if (e->err) {
		warning("trace: %s: cannot run /bin/sh: %s", at, strerror(e->err));
		return;
	}
	first_error(t->dir, why, sizeof(why));
	if (e->early && e->status >= 0 && WIFEXITED(e->status) &&
	    WEXITSTATUS(e->status))
		warning("trace: %s: the command exited with status %d before the clock stopped%s%s",
			at, WEXITSTATUS(e->status), why[0] ? ": " : "", why);
	else if (e->early && e->status >= 0 && WIFSIGNALED(e->status))
		warning("trace: %s: the command was killed by signal %d before the clock stopped",
			at, WTERMSIG(e->status));
	else if (e->killed)
		warning("trace: %s: the command did not stop on SIGINT or SIGTERM within %d s; killed",
			at, (STOP_GRACE_MS + TERM_GRACE_MS) / 1000);
}

int trace_stop(struct trace_hook *t, double *out)
{
	struct keeper_end e;
	char why[512], at[160];
	int rc = 0;

	for (size_t i = 0; out && i < t->nmetrics; i++)
		out[i] = NAN;
	if (!t->keeper)
		return -1;
	iter_label(t, at, sizeof(at));
	if (keeper_stop(t, &e)) {
		warning("trace: %s: the tracer's keeper did not report its end; killed",
			at);
		rc = -1;
	} else if (!t->perf) {
		command_end(t, &e);
	} else if (e.early || e.killed) {
		first_error(t->dir, why, sizeof(why));
		warning("trace perf-sched: %s: perf sched record %s%s%s; not measured",
			at, e.killed ? "did not stop on SIGINT; killed" :
			"ended before the clock stopped", why[0] ? ": " : "", why);
		rc = -1;
	} else if (out && trace_perf_report(t, t->dir, out, why, sizeof(why))) {
		warning("trace perf-sched: %s: %s; not measured", at, why);
		rc = -1;
	}
	if (t->perf) {
		char data[4200];

		/* read or not (an interrupted iteration's), it goes */
		snprintf(data, sizeof(data), "%s/perf.data", t->dir);
		unlink(data);
	}
	drop_empty(t->dir, "trace.stdout");
	drop_empty(t->dir, "trace.stderr");
	return rc;
}
