// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/bisect_git.c: the bisect mode's talk with git - a command's
 * output read back, the repository and commits checked before a
 * campaign starts, and what git bisect log says a killed resume had
 * already done. git runs as `git -C REPO ...`; it is left to finish when
 * schedlab is killed (a git killed mid-checkout would leave index.lock
 * behind for the next boot to trip on).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "campaign/bisect_git.h"
#include "util.h"

/* Reads fd to its end into a string. */
static char *slurp(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = xmalloc(cap);
	ssize_t n;

	for (;;) {
		if (len + 1 >= cap)
			buf = xrealloc(buf, cap *= 2);
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	return buf;
}

int git_out(const char *repo, char **out, const char *const *args)
{
	const char *argv[16] = { "git", "-C", repo };
	size_t n = 3;
	int fd[2], ws;
	pid_t pid;

	for (; *args && n < ARRAY_SIZE(argv) - 1; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	*out = NULL;
	fflush(NULL);
	if (pipe(fd))
		return error_errno("campaign bisect: cannot make a pipe");
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return error_errno("campaign bisect: cannot fork");
	}
	if (!pid) {
		dup2(fd[1], STDOUT_FILENO);
		dup2(fd[1], STDERR_FILENO);
		close(fd[0]);
		close(fd[1]);
		execvp("git", (char *const *)argv);
		fprintf(stderr, "cannot run git: %s\n", strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	*out = slurp(fd[0]);
	close(fd[0]);
	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return error_errno("campaign bisect: waiting for git");
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

int git_quiet(const char *repo, const char *const *args)
{
	char *out;
	int rc = git_out(repo, &out, args);

	free(out);
	return rc;
}

/* The full hash of commit arg into hash (41 bytes); -1 when none. */
static int commit_hash(const char *repo, const char *arg, char *hash)
{
	char *spec = xasprintf("%s^{commit}", arg), *out;
	const char *args[] = { "rev-parse", "--verify", "-q", spec, NULL };
	int rc = git_out(repo, &out, args);

	if (!rc && strlen(out) >= 40 && strspn(out, "0123456789abcdef") == 40)
		snprintf(hash, 41, "%.40s", out);
	else
		rc = -1;
	free(out);
	free(spec);
	return rc ? -1 : 0;
}

/* git bisect checks out each commit: a tree with changes to tracked
 * files would make it fail after the campaign was stored. */
static int clean_tree(const char *repo)
{
	const char *args[] = { "status", "--porcelain", "--untracked-files=no", NULL };
	char *out = NULL, *nl;
	int rc = git_out(repo, &out, args);

	if (rc || (out && *out)) {
		nl = out ? strchr(out, '\n') : NULL;
		if (nl)
			*nl = '\0';
		rc = rc ? error("campaign bisect: --repo '%s': git status exited %d", repo, rc) :
			error("campaign bisect: --repo '%s': its work tree has changes (%s%s); git bisect checks out each commit: commit or stash them first",
			      repo, out, nl && nl[1] ? ", ..." : "");
	}
	free(out);
	return rc ? -1 : 0;
}

int bisect_validate(const char *repo, const char *good_arg, const char *bad_arg,
		    char *good, char *bad)
{
	const char *gitdir[] = { "rev-parse", "--git-dir", NULL };
	const char *log[] = { "bisect", "log", NULL };
	const char *anc[] = { "merge-base", "--is-ancestor", good, bad, NULL };

	if (access(repo, F_OK) || git_quiet(repo, gitdir))
		return error("campaign bisect: --repo '%s': not a git repository", repo);
	if (commit_hash(repo, good_arg, good))
		return error("campaign bisect: --good '%s': no such commit in %s", good_arg, repo);
	if (commit_hash(repo, bad_arg, bad))
		return error("campaign bisect: --bad '%s': no such commit in %s", bad_arg, repo);
	if (!strcmp(good, bad))
		return error("campaign bisect: --good '%s' and --bad '%s' are the same commit %.12s: nothing to bisect",
			     good_arg, bad_arg, good);
	if (git_quiet(repo, anc))
		return error("campaign bisect: --good '%s' is not an ancestor of --bad '%s': the first bad commit lies after the good one",
			     good_arg, bad_arg);
	if (!git_quiet(repo, log))
		return error("campaign bisect: a git bisect is in progress in %s (git bisect reset ends it)",
			     repo);
	return clean_tree(repo);
}

bool git_bisect_logged(const char *repo, const char *line)
{
	const char *args[] = { "bisect", "log", NULL };
	char *out;
	bool found = false;
	size_t len = strlen(line);

	if (!git_out(repo, &out, args))
		for (char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			if (!strncmp(p, line, len) && (p[len] == '\n' || !p[len])) {
				found = true;
				break;
			}
	free(out);
	return found;
}

int git_first_bad(const char *repo, char *hash)
{
	const char *args[] = { "bisect", "log", NULL };
	static const char tag[] = "# first bad commit: [";
	char *out, *p;
	int rc = git_out(repo, &out, args);

	if (rc) {
		error("campaign bisect: git bisect log in %s exited %d: %s", repo,
		      rc, out ? out : "");
		free(out);
		return -1;
	}
	p = strstr(out, tag);
	rc = p && strlen(p + sizeof(tag) - 1) >= 40;
	if (rc)
		snprintf(hash, 41, "%.40s", p + sizeof(tag) - 1);
	free(out);
	return rc;
}

int git_head(const char *repo, char *hash)
{
	return commit_hash(repo, "HEAD", hash);
}
