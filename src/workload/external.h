/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * external: what the workloads that drive a real program share (command,
 * dbench, tbench, pgbench, sysbench).
 *
 * A program is started with execvp - never through a shell - in the
 * workload process's own process group, with PR_SET_PDEATHSIG, so that
 * the supervisor's kill of the group (timeout, Ctrl-C, failure) reaches
 * it and everything it forked. Its stdout and stderr come back through
 * one pipe, are kept (the last EXT_OUT_MAX bytes) for the tool's parser,
 * and are watched line by line for the messages that mean the run is
 * lost (a tbench client that could not connect waits forever otherwise).
 *
 * The scheduler metrics of the program's tree: it runs between
 * wl_clock_start() and wl_clock_stop(), so the system-wide probes
 * (/proc/stat, PSI, /proc/schedstat, perf counters, which children
 * inherit across fork and exec) cover it, and it is reaped before the
 * clock stops, so the rusage of children (CPU time, context switches)
 * includes the whole tree that its processes waited for. The per-task
 * schedstat probes read /proc/thread-self inside schedlab's own workers;
 * they cannot run inside a foreign program and are not recorded.
 */
#ifndef SCHEDLAB_EXTERNAL_H
#define SCHEDLAB_EXTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "workload/workload.h"

#define EXT_OUT_MAX (1 << 20)

/* A program's output, the last EXT_OUT_MAX bytes of it, NUL-terminated. */
struct ext_out {
	char *buf;
	size_t len;
	bool truncated;		/* the beginning was dropped */
};

struct ext_cmd {
	const char *what;	/* for messages: "dbench" */
	char *const *argv;
	const char *dir;	/* chdir there first, or NULL */
	bool drop;		/* as root: run as ext_user() */
	int out_fd;		/* stdout and stderr to this fd; -1: the pipe */
};

/* The first of names found on PATH (or as a path), or NULL. */
bool ext_on_path(const char *prog);

/*
 * For a prepare hook: 0 if prog is on PATH, else one message naming the
 * Debian package to install and EXIT_USAGE.
 */
int ext_need(const char *workload, const char *prog, const char *package);

/*
 * The unprivileged user servers run as when schedlab is root: postgres
 * (which Debian's postgresql package creates), else nobody. 0 or -1.
 */
int ext_user(uid_t *uid, gid_t *gid);

/*
 * Starts c->argv. With c->out_fd < 0, *outfd is the read end of the pipe
 * its output goes to. Returns the pid, or -1 after wl_fail().
 */
pid_t ext_spawn(struct wl_ctx *ctx, const struct ext_cmd *c, int *outfd);

/*
 * Reads fd to its end into out, then reaps pid. Stops early, killing
 * pid, when limit_ns (a now_ns() deadline, 0: none) passes or a line
 * contains one of fatal (NULL-terminated, may be NULL). Returns 0 when
 * the program exited with status 0, else -1 after wl_fail() with the
 * reason and the last line it printed. *ru, if not NULL, gets its
 * rusage and its reaped descendants'.
 */
struct rusage;
int ext_collect(struct wl_ctx *ctx, const char *what, pid_t pid, int fd,
		uint64_t limit_ns, const char *const *fatal,
		struct ext_out *out, struct rusage *ru);

/* ext_spawn() then ext_collect(), with a limit in seconds (0: none). */
int ext_run(struct wl_ctx *ctx, const struct ext_cmd *c, unsigned limit_s,
	    const char *const *fatal, struct ext_out *out, struct rusage *ru);

/*
 * ext_run() as the iteration's timed region: between wl_clock_start()
 * and wl_clock_stop().
 */
int ext_run_timed(struct wl_ctx *ctx, const struct ext_cmd *c,
		  unsigned limit_s, const char *const *fatal,
		  struct ext_out *out);

/* Stops a server: sig, then SIGKILL after grace_ms; reaps it. */
void ext_stop(pid_t pid, int sig, unsigned grace_ms);

/*
 * Reaps whatever the programs left (the workload process is a child
 * subreaper once it has spawned one: a server's per-connection children
 * come back to it), waiting up to grace_ms for them to end.
 */
void ext_reap_all(unsigned grace_ms);

/* The last non-empty line of text, copied into buf ("" if none). */
const char *ext_last_line(const char *text, char *buf, size_t len);

void ext_out_free(struct ext_out *o);

/* $TMPDIR, or /tmp when it is unset or too long for a unix socket path */
const char *ext_tmpbase(void);

/*
 * A temporary directory the run owns, "BASE/schedlab-TAG.PID.XXXXXX"
 * (PID: schedlab's), registered with wl_own_dir() so that the
 * supervisor removes it whatever becomes of the run. Returns 0 or -1
 * after wl_fail().
 */
int ext_tmpdir(struct wl_ctx *ctx, const char *tag, char *path, size_t len);

/*
 * Kills every process whose working directory is under dir and waits
 * (5 s at most) until none is left. Each postgres child calls setsid(),
 * so the supervisor's kill of the workload's group reaches only the
 * postmaster; the children notice its death and exit on their own, but
 * not at once, and one still attached to the cluster's shared memory
 * keeps a new postmaster from starting. They all run in the data
 * directory, which is how they are found.
 */
void ext_kill_cwd(const char *dir);

/*
 * Removes the directories of schedlab processes that are gone (killed
 * with SIGKILL, so that nothing could clean up): BASE/schedlab-*.PID.*
 * owned by this user whose PID no longer exists, and whatever still
 * runs in them. Called once by ext_need() and pg_prepare().
 */
void ext_sweep_stale(const char *base);

/*
 * Splits text into words as a shell would for a simple command without
 * expansions: blanks separate, '...' is literal, "..." and \ quote.
 * Returns a NULL-terminated array (free with ext_argv_free) or NULL with
 * *err saying what is wrong.
 */
char **ext_split(const char *text, const char **err);
void ext_argv_free(char **argv);

/* The reverse is argv_join(argv, true) (util.h). */

#endif
