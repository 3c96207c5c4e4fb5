// SPDX-License-Identifier: GPL-2.0-only
/*
 * provenance: what the measured code and kernel were built from - the
 * git commit of the work tree schedlab runs in, and the kernel's GNU
 * build id - as environment items (sysenv.h).
 *
 * git is run as a program (fork and exec, never a shell) with stdin
 * from /dev/null, stderr discarded and GIT_DEADLINE_S seconds for all
 * its commands together, after which it is killed and the item says so.
 * The user's GIT_* variables (GIT_DIR, GIT_WORK_TREE, ...) are kept, so
 * git answers as it would typed in the same place; only
 * GIT_OPTIONAL_LOCKS=0 is added when unset, asking the git versions that
 * honour it not to take the index lock to write back a refreshed index
 * (a concurrent git, an editor's or a prompt's, would find it taken).
 * The ownership rule git applies (safe.directory) is not overridden.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe/sysenv.h"
#include "util.h"

#define GIT_DEADLINE_S	10
#define NOTES_PATH	"/sys/kernel/notes"
#define NT_GNU_BUILD_ID	3

/* ---- git ------------------------------------------------------------ */

/* Only async-signal-safe calls: the environment is made before fork. */
static void __attribute__((noreturn))
git_child(char *const *argv, char *const *envp, int out)
{
	sigset_t none;
	int null;

	/* above the standard descriptors, so that dup2() cannot clobber it */
	if (out < 3 && (out = fcntl(out, F_DUPFD, 3)) < 0)
		_exit(126);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);	/* run blocks the stop signals */
	signal(SIGPIPE, SIG_DFL);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0 || dup2(out, 1) < 0 || dup2(null, 0) < 0 ||
	    dup2(null, 2) < 0)
		_exit(126);
	execvpe("git", argv, envp);
	_exit(errno == ENOENT ? 127 : 126);
}

/* environ, with GIT_OPTIONAL_LOCKS=0 added when unset; free() it. */
static char **git_environ(void)
{
	extern char **environ;
	size_t n = 0;
	char **envp;

	while (environ[n])
		n++;
	envp = xcalloc(n + 2, sizeof(*envp));
	memcpy(envp, environ, n * sizeof(*envp));
	if (!getenv("GIT_OPTIONAL_LOCKS"))
		envp[n] = "GIT_OPTIONAL_LOCKS=0";
	return envp;
}

/* The child's output from fd into out (len bytes at most, the rest
 * read and dropped) until it closes it or the deadline; *n: the bytes
 * kept. Whether the deadline came first. */
static bool read_until(int fd, uint64_t deadline, char *out, size_t len,
		       size_t *n)
{
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint64_t now = now_ns();
		char buf[512];
		ssize_t r;

		if (now >= deadline)
			return true;
		r = poll(&pfd, 1, (int)((deadline - now) / 1000000 + 1));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;	/* the deadline decides */
		r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		for (ssize_t i = 0; i < r && *n + 1 < len; i++)
			out[(*n)++] = buf[i];
	}
}

/* The child pid waited for, every millisecond, until the deadline; its
 * wait status in *status. Whether the deadline came first. */
static bool wait_until(pid_t pid, uint64_t deadline, int *status)
{
	int got;

	while ((got = waitpid(pid, status, WNOHANG)) != pid) {
		struct timespec ms = { 0, 1000000 };

		if (got < 0 && errno != EINTR)
			break;
		if (now_ns() >= deadline)
			return true;
		nanosleep(&ms, NULL);
	}
	return false;
}

/*
 * The first line of what `git ARGS` prints, into out. Returns 0 when it
 * exited with status 0; else its exit status (1-255) or -1 (it could not
 * be started, was killed, or had no answer by the deadline), with why
 * saying what happened.
 */
static int git_line(const char *args, char *const *argv, uint64_t deadline,
		    char *out, size_t len, char *why, size_t wlen)
{
	size_t n = 0;
	int p[2], status = 0;
	bool late;
	char **envp;
	pid_t pid;

	out[0] = '\0';
	if (pipe2(p, O_CLOEXEC)) {
		snprintf(why, wlen, "pipe: %s", strerror(errno));
		return -1;
	}
	envp = git_environ();
	pid = fork();
	if (!pid)
		git_child(argv, envp, p[1]);
	if (pid < 0)
		snprintf(why, wlen, "fork: %s", strerror(errno));
	free(envp);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	late = read_until(p[0], deadline, out, len, &n);
	close(p[0]);
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
	/* it closed its output; give it what is left of the deadline to exit */
	if (!late)
		late = wait_until(pid, deadline, &status);
	if (late) {
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		snprintf(why, wlen, "git %s: no answer within %d s", args,
			 GIT_DEADLINE_S);
		return -1;
	}
	if (!WIFEXITED(status)) {
		snprintf(why, wlen, "git %s: killed by signal %d", args,
			 WTERMSIG(status));
		return -1;
	}
	if (WEXITSTATUS(status) == 127)
		snprintf(why, wlen, "git: not found on PATH; install git");
	else if (WEXITSTATUS(status))
		snprintf(why, wlen, "git %s exited with %d", args,
			 WEXITSTATUS(status));
	return WEXITSTATUS(status);
}

static uint64_t git_deadline(void)
{
	return now_ns() + GIT_DEADLINE_S * 1000000000ull;
}

static char *const describe_argv[] = {
	"git", "describe", "--always", "--dirty", NULL
};

int sysenv_git_describe(char *buf, size_t len)
{
	char why[256];

	if (git_line("describe --always --dirty", describe_argv,
		     git_deadline(), buf, len, why, sizeof(why)) || !buf[0]) {
		buf[0] = '\0';
		return -1;
	}
	return 0;
}

/* dir is one of GIT_CEILING_DIRECTORIES, which git does not look in. */
static bool is_ceiling(const char *dir)
{
	const char *c = getenv("GIT_CEILING_DIRECTORIES");
	size_t n = strlen(dir);

	while (c && *c) {
		size_t w = strcspn(c, ":");
		size_t k = w;

		while (k > 1 && c[k - 1] == '/')
			k--;
		if (k == n && !strncmp(c, dir, n))
			return true;
		c += w + (c[w] == ':');
	}
	return false;
}

/*
 * Why git found no work tree. The likely surprise is a tree it refuses:
 * since 2.35.2 git will not work in a repository another user owns
 * (safe.directory), which is what `sudo schedlab run` in one's own
 * kernel tree meets; so the nearest .git above cwd, if any, is named
 * with its owner (not above GIT_CEILING_DIRECTORIES, as git does not
 * look there; GIT_DIR set: git was told where to look, not asked).
 */
static json_t *not_a_work_tree(const char *cwd, const char *why)
{
	char dir[4096], dotgit[4200];
	struct stat st;
	char *slash;

	snprintf(dir, sizeof(dir), "%s", cwd);
	while (!getenv("GIT_DIR") && dir[0] == '/') {
		snprintf(dotgit, sizeof(dotgit), "%s/.git", dir[1] ? dir : "");
		if (!lstat(dotgit, &st)) {
			if (st.st_uid != geteuid())
				return sysenv_missing("%s: git refuses the work tree "
					"%s, owned by uid %u, not this uid %u (see "
					"safe.directory in git-config(1))", cwd,
					dir, (unsigned)st.st_uid,
					(unsigned)geteuid());
			return sysenv_missing("%s: git refuses the work tree %s "
					      "(%s)", cwd, dir, why);
		}
		slash = strrchr(dir, '/');
		if (slash == dir && !dir[1])
			break;
		slash[slash == dir] = '\0';
		if (is_ceiling(dir))
			break;
	}
	return sysenv_missing("%s: not inside a git work tree (%s)", cwd, why);
}

json_t *sysenv_git(void)
{
	static char *const top_argv[] = {
		"git", "rev-parse", "--show-toplevel", NULL
	};
	static char *const head_argv[] = {
		"git", "rev-parse", "--verify", "--quiet", "HEAD^{commit}", NULL
	};
	char top[4096], commit[128], describe[512], cwd[4096], why[512];
	uint64_t deadline = git_deadline();
	int rc;

	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), "the current directory");
	rc = git_line("rev-parse --show-toplevel", top_argv, deadline, top,
		      sizeof(top), why, sizeof(why));
	/* 128: git's "fatal", here "not a git repository" and its kin */
	if (rc == 128)
		return not_a_work_tree(cwd, why);
	if (rc)
		return sysenv_missing("%s: %s", cwd, why);
	if (!top[0])
		return sysenv_missing("%s: not inside a git work tree (git "
				      "rev-parse --show-toplevel printed nothing)",
				      cwd);
	if (git_line("rev-parse --verify HEAD", head_argv, deadline, commit,
		     sizeof(commit), why, sizeof(why)) || !commit[0])
		return sysenv_missing("%s: git work tree without a commit yet",
				      top);
	if (git_line("describe --always --dirty", describe_argv, deadline,
		     describe, sizeof(describe), why, sizeof(why)))
		return sysenv_missing("%s: %s", top, why);
	return sysenv_item(json_pack("{s:s, s:s, s:s}", "describe", describe,
				     "commit", commit, "work_tree", top));
}

/* ---- the kernel's build id ------------------------------------------ */

static uint32_t word(const unsigned char *p)
{
	uint32_t w;

	memcpy(&w, p, sizeof(w));	/* the kernel's byte order: ours */
	return w;
}

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

int sysenv_parse_build_id(const void *notes, size_t len, char *hex,
			  size_t hexlen)
{
	const unsigned char *p = notes, *end = p + len;

	while ((size_t)(end - p) >= 12) {
		size_t namesz = word(p), descsz = word(p + 4);
		uint32_t type = word(p + 8);
		const unsigned char *name = p + 12, *desc;

		if (pad4(namesz) > (size_t)(end - name))
			return -EINVAL;
		desc = name + pad4(namesz);
		if (descsz > (size_t)(end - desc))
			return -EINVAL;
		if (type == NT_GNU_BUILD_ID && namesz == 4 &&
		    !memcmp(name, "GNU", 4)) {
			if (!descsz)
				return -EINVAL;
			if (hexlen < 2 * descsz + 1)
				return -ENOSPC;
			for (size_t i = 0; i < descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", desc[i]);
			return 0;
		}
		p = desc + (pad4(descsz) < (size_t)(end - desc) ?
			    pad4(descsz) : (size_t)(end - desc));
	}
	return p == end ? -ENOENT : -EINVAL;
}

json_t *sysenv_build_id(void)
{
	unsigned char buf[16384];
	char hex[2 * 64 + 1];
	size_t n = 0;
	int fd = open(NOTES_PATH, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return sysenv_file_missing(NOTES_PATH, errno,
					   "kernel without sysfs mounted");
	while (n < sizeof(buf)) {
		ssize_t r = read(fd, buf + n, sizeof(buf) - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errno;
			close(fd);
			return sysenv_file_missing(NOTES_PATH, err, NULL);
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	err = sysenv_parse_build_id(buf, n, hex, sizeof(hex));
	if (err == -ENOENT)
		return sysenv_missing(NOTES_PATH ": no GNU build id note; "
				      "kernel linked without --build-id");
	if (err == -ENOSPC)
		return sysenv_missing(NOTES_PATH ": GNU build id longer than "
				      "64 bytes");
	if (err)
		return sysenv_missing(NOTES_PATH ": malformed ELF notes "
				      "(%zu bytes)", n);
	return sysenv_item(json_string(hex));
}
