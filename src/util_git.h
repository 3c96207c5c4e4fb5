/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * util_git.h: git run as a program (`git -C REPO ...`), its words read
 * back: the calls of git that a bisect campaign and a kernel build
 * make. git is left to finish when schedlab is killed (a git killed
 * mid-checkout would leave index.lock behind for the next one to trip
 * on).
 */
#ifndef SCHEDLAB_UTIL_GIT_H
#define SCHEDLAB_UTIL_GIT_H

/* The program argv[0] (as execvp finds it) run with argv, its stdout
 * and stderr into *out (free()); its exit status (127: it could not be
 * run, 128 + N: signal N), or -1 after error(). */
int prog_out(const char *const *argv, char **out);
/* `git -C repo args...` (NULL-terminated, at most 12), its stdout and
 * stderr into *out (free()); its exit status, or -1 after error(). */
int git_out(const char *repo, char **out, const char *const *args);
/* The same, the output dropped. */
int git_quiet(const char *repo, const char *const *args);
/* The full hash of the commit arg names into hash (41 bytes); -1 when
 * it names none. */
int git_commit_hash(const char *repo, const char *arg, char *hash);

#endif
