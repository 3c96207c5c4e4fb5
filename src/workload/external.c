// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload/external.h"
#include "util.h"

bool ext_on_path(const char *prog)
{
	char *p = path_find(prog);

	free(p);
	return p != NULL;
}

int ext_need(const char *workload, const char *prog, const char *package)
{
	static bool swept;

	if (!swept) {
		ext_sweep_stale(ext_tmpbase());
		swept = true;
	}
	if (ext_on_path(prog))
		return 0;
	error("%s: '%s' is not on PATH; install the Debian package %s (apt-get install %s)",
	      workload, prog, package, package);
	return EXIT_USAGE;
}

int ext_user(uid_t *uid, gid_t *gid)
{
	static const char *const names[] = { "postgres", "nobody" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct passwd *pw = getpwnam(names[i]);

		if (pw && pw->pw_uid) {
			*uid = pw->pw_uid;
			*gid = pw->pw_gid;
			return 0;
		}
	}
	return -1;
}

/* In the child: report why exec failed through the pipe, then exit 127. */
static void __attribute__((noreturn))
child(const struct ext_cmd *c, int out, pid_t parent)
{
	uid_t uid;
	gid_t gid;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(127);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(out, 1) < 0 || dup2(out, 2) < 0)
		_exit(127);
	if (out > 2)
		close(out);
	if (c->dir && chdir(c->dir)) {
		fprintf(stderr, "schedlab: cannot enter %s: %s\n", c->dir,
			strerror(errno));
		_exit(127);
	}
	if (c->drop && geteuid() == 0) {
		if (ext_user(&uid, &gid) || setgroups(0, NULL) ||
		    setgid(gid) || setuid(uid)) {
			fprintf(stderr, "schedlab: cannot drop root for %s\n",
				c->what);
			_exit(127);
		}
		/* PR_SET_PDEATHSIG is cleared by a change of credentials */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
	}
	execvp(c->argv[0], c->argv);
	fprintf(stderr, "schedlab: cannot run %s: %s\n", c->argv[0],
		strerror(errno));
	_exit(127);
}

pid_t ext_spawn(struct wl_ctx *ctx, const struct ext_cmd *c, int *outfd)
{
	int p[2] = { -1, -1 };
	pid_t pid, parent = getpid();

	if (c->out_fd < 0 && pipe2(p, O_CLOEXEC))
		return wl_fail_errno(ctx, "%s: pipe", c->what);
	/* what the program orphans comes back here, not to schedlab */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		wl_fail_errno(ctx, "%s: fork", c->what);
		if (p[0] >= 0) {
			close(p[0]);
			close(p[1]);
		}
		return -1;
	}
	if (pid == 0)
		child(c, c->out_fd < 0 ? p[1] : c->out_fd, parent);
	if (c->out_fd < 0) {
		close(p[1]);
		*outfd = p[0];
	}
	return pid;
}

static void out_add(struct ext_out *o, const char *s, size_t n)
{
	if (!o->buf)
		o->buf = xcalloc(1, EXT_OUT_MAX + 1);
	if (n >= EXT_OUT_MAX) {
		s += n - EXT_OUT_MAX / 2;
		n = EXT_OUT_MAX / 2;
	}
	if (o->len + n > EXT_OUT_MAX) {
		/* keep the end, which is where the results are */
		size_t drop = o->len + n - EXT_OUT_MAX / 2;

		if (drop > o->len)
			drop = o->len;
		memmove(o->buf, o->buf + drop, o->len - drop);
		o->len -= drop;
		o->truncated = true;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

/* A fatal message in the complete lines from *scan on, or NULL. */
static const char *fatal_line(const struct ext_out *o, size_t *scan,
			      const char *const *fatal, char *line,
			      size_t len)
{
	if (*scan > o->len)
		*scan = 0;	/* the buffer moved: look again from the start */
	for (;;) {
		const char *s = o->buf + *scan;
		const char *nl = memchr(s, '\n', o->len - *scan);
		size_t n;

		if (!nl)
			return NULL;
		n = (size_t)(nl - s);
		*scan += n + 1;
		for (const char *const *f = fatal; f && *f; f++) {
			const char *hit = memmem(s, n, *f, strlen(*f));

			if (hit) {
				snprintf(line, len, "%.*s", (int)n, s);
				return line;
			}
		}
	}
}

/* What is already in the pipe, without waiting for more. */
static void drain(int fd, struct ext_out *out)
{
	char chunk[8192];
	ssize_t n;

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		out_add(out, chunk, (size_t)n);
}

static void describe_status(char *buf, size_t len, int status)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "exited with status %d",
			 WEXITSTATUS(status));
}

int ext_collect(struct wl_ctx *ctx, const char *what, pid_t pid, int fd,
		uint64_t limit_ns, const char *const *fatal,
		struct ext_out *out, struct rusage *ru)
{
	char chunk[8192], line[256], how[128], last[256];
	const char *bad = NULL;
	bool late = false;
	size_t scan = 0;
	struct rusage r;
	int status = 0;

	memset(out, 0, sizeof(*out));
	out_add(out, "", 0);
	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		/*
		 * Woken every 100 ms to see whether the program has ended
		 * while something it started in the background still holds
		 * the pipe open: its end is the end, as for perf stat.
		 */
		int ms = 100, rc;
		ssize_t n;

		if (limit_ns) {
			uint64_t now = now_ns();

			if (now >= limit_ns) {
				late = true;
				break;
			}
			if ((limit_ns - now) / 1000000 < 100)
				ms = (int)((limit_ns - now) / 1000000 + 1);
		}
		rc = poll(&pfd, 1, ms);
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (rc == 0) {
			siginfo_t si = { 0 };

			if (waitid(P_PID, (id_t)pid, &si,
				   WEXITED | WNOHANG | WNOWAIT) == 0 &&
			    si.si_pid == pid) {
				drain(fd, out);
				break;
			}
			continue;
		}
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		out_add(out, chunk, (size_t)n);
		bad = fatal_line(out, &scan, fatal, line, sizeof(line));
		if (bad)
			break;
	}
	close(fd);
	if (late || bad)
		kill(pid, SIGKILL);
	while (wait4(pid, &status, 0, &r) < 0)
		if (errno != EINTR)
			return wl_fail_errno(ctx, "%s: wait", what);
	if (ru)
		*ru = r;
	if (late)
		return wl_fail(ctx, "%s did not finish in time and was killed; its last line: '%s'",
			       what, ext_last_line(out->buf, last, sizeof(last)));
	if (bad)
		return wl_fail(ctx, "%s failed: '%s'", what, bad);
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	describe_status(how, sizeof(how), status);
	return wl_fail(ctx, "%s %s; its last line: '%s'", what, how,
		       ext_last_line(out->buf, last, sizeof(last)));
}

int ext_run(struct wl_ctx *ctx, const struct ext_cmd *c, unsigned limit_s,
	    const char *const *fatal, struct ext_out *out, struct rusage *ru)
{
	uint64_t limit = limit_s ? now_ns() + limit_s * 1000000000ull : 0;
	pid_t pid;
	int fd;

	memset(out, 0, sizeof(*out));
	pid = ext_spawn(ctx, c, &fd);
	if (pid < 0)
		return -1;
	return ext_collect(ctx, c->what, pid, fd, limit, fatal, out, ru);
}

int ext_run_timed(struct wl_ctx *ctx, const struct ext_cmd *c,
		  unsigned limit_s, const char *const *fatal,
		  struct ext_out *out)
{
	int rc;

	wl_clock_start(ctx);
	rc = ext_run(ctx, c, limit_s, fatal, out, NULL);
	wl_clock_stop(ctx);
	return rc;
}

void ext_stop(pid_t pid, int sig, unsigned grace_ms)
{
	uint64_t end = now_ns() + grace_ms * 1000000ull;

	if (pid <= 0)
		return;
	kill(pid, sig);
	for (;;) {
		pid_t r = waitpid(pid, NULL, WNOHANG);

		if (r == pid || (r < 0 && errno != EINTR))
			return;
		if (now_ns() >= end)
			break;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

void ext_reap_all(unsigned grace_ms)
{
	uint64_t end = now_ns() + grace_ms * 1000000ull;

	for (;;) {
		pid_t r = waitpid(-1, NULL, WNOHANG);

		if (r > 0)
			continue;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || now_ns() >= end)
			return;
		usleep(10000);
	}
}

const char *ext_last_line(const char *text, char *buf, size_t len)
{
	const char *end = text ? text + strlen(text) : NULL, *start;

	buf[0] = '\0';
	if (!text)
		return buf;
	while (end > text && (end[-1] == '\n' || end[-1] == ' ' ||
			      end[-1] == '\r'))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
	return buf;
}

void ext_out_free(struct ext_out *o)
{
	free(o->buf);
	memset(o, 0, sizeof(*o));
}

/* --- words ---------------------------------------------------------- */

void ext_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

char **ext_split(const char *s, const char **err)
{
	size_t n = 0, cap = 8, len = strlen(s);
	char **argv = xcalloc(cap, sizeof(*argv));
	char *word = xmalloc(len + 1);

	*err = NULL;
	for (;;) {
		size_t w = 0;
		bool any = false;

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
			any = true;
			if (*s == '\'') {
				const char *q = strchr(s + 1, '\'');

				if (!q) {
					*err = "a ' is not closed";
					goto bad;
				}
				memcpy(word + w, s + 1, (size_t)(q - s - 1));
				w += (size_t)(q - s - 1);
				s = q + 1;
			} else if (*s == '"') {
				for (s++; *s && *s != '"'; s++) {
					if (*s == '\\' && (s[1] == '"' ||
							   s[1] == '\\'))
						s++;
					word[w++] = *s;
				}
				if (!*s) {
					*err = "a \" is not closed";
					goto bad;
				}
				s++;
			} else if (*s == '\\') {
				if (!s[1]) {
					*err = "it ends with a \\";
					goto bad;
				}
				word[w++] = s[1];
				s += 2;
			} else {
				word[w++] = *s++;
			}
		}
		if (!any)
			break;
		if (n + 2 > cap) {
			cap *= 2;
			argv = realloc(argv, cap * sizeof(*argv));
			if (!argv)
				abort();
		}
		word[w] = '\0';
		argv[n++] = xstrdup(word);
		argv[n] = NULL;
	}
	free(word);
	if (!n) {
		*err = "it has no words";
		ext_argv_free(argv);
		return NULL;
	}
	return argv;
bad:
	free(word);
	ext_argv_free(argv);
	return NULL;
}
