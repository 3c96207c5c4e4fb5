// SPDX-License-Identifier: GPL-2.0-only
/*
 * util_git.c: git run as a program and its words read back (util_git.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"
#include "util_git.h"

int prog_out(const char *const *argv, char **out)
{
	size_t len;
	int fd[2], ws;
	pid_t pid;

	*out = NULL;
	fflush(NULL);
	if (pipe(fd))
		return error_errno("%s: cannot make a pipe", argv[0]);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return error_errno("%s: cannot fork", argv[0]);
	}
	if (!pid) {
		dup2(fd[1], STDOUT_FILENO);
		dup2(fd[1], STDERR_FILENO);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	*out = read_fd_all(fd[0], 0, &len);
	if (!*out)
		*out = xstrdup("");
	close(fd[0]);
	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return error_errno("%s: cannot wait for it", argv[0]);
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

int git_out(const char *repo, char **out, const char *const *args)
{
	const char *argv[16] = { "git", "-C", repo };
	size_t n = 3;

	for (; *args && n < ARRAY_SIZE(argv) - 1; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	return prog_out(argv, out);
}

int git_quiet(const char *repo, const char *const *args)
{
	char *out;
	int rc = git_out(repo, &out, args);

	free(out);
	return rc;
}

int git_commit_hash(const char *repo, const char *arg, char *hash)
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
