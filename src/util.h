/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * util: error reporting in the manner of git (functions say why once and
 * return -1; only main() decides to exit), checked allocation, clocks and
 * the process-wide exit codes (util.c); files read, written and removed
 * (util_file.c); /proc/PID/stat and the process's limits (util_proc.c).
 */
#ifndef SCHEDLAB_UTIL_H
#define SCHEDLAB_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <sys/time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

/* Exit codes shared by every command (see doc/schedlab.1). */
enum {
	EXIT_OK = 0,
	EXIT_RUN_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_SKIP = 125,
	/* judge: the store failed (locked past the busy timeout, disk
	 * full): git bisect run stops, as for any status of 128 and above */
	EXIT_ABORT = 128,
	EXIT_INTERRUPTED = 130,
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Prints "schedlab: MSG" to stderr and returns -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same with ": strerror(errno)" appended. */
int error_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Says where the messages that follow come from ("run.json:
 * cases[0].histograms.latency[2]"), for code that reports without
 * knowing; NULL ends it.
 */
void error_context(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * error_mute(1) ... error_mute(0): errors and warnings in between are
 * not printed (the functions still return -1), for code that tries a
 * value and has its own answer when it is refused. Nests.
 */
void error_mute(int on);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* printf into a malloc'd string; out of memory, it exits as xmalloc does. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * A copy of s (NULL for NULL) with every byte above 0x7f made '?' when
 * s is not UTF-8 (jansson's check): text a store keeps, such as a
 * command line, can hold anything, yet must export as JSON and pass
 * PostgreSQL's check of its text.
 */
char *xstrdup_utf8(const char *s);
/*
 * Zeroed like xcalloc, aligned to 64 bytes (a cache line), for types
 * declared __attribute__((aligned(64))), which malloc does not honour;
 * free() it as usual.
 */
void *xcalloc_lines(size_t n, size_t size);

/*
 * argv's words (NULL-terminated) joined with blanks, malloc'ed. With
 * quote, a word that is empty or holds a blank, a quote or a backslash
 * is put in '...' (a ' in it as '\''), so a shell, or ext_split(),
 * splits the result back into the same words; without, the words are
 * joined as they are, as perf stat names a command.
 */
char *argv_join(char *const *argv, bool quote);

/* A random (version 4) uuid, lowercase, into buf (37 bytes at least). */
void uuid_new(char *buf, size_t len);
/* Whether s is a uuid as uuid_new() writes them: 8-4-4-4-12 lowercase hex. */
bool uuid_valid(const char *s);

/*
 * Removes a directory tree, never following a symbolic link or crossing
 * into another file system; 0 (also when it is not there) or -1 with errno.
 */
int rm_tree(const char *path);

/*
 * Opens path for reading only if it is a regular file: it is opened
 * non-blocking, so a FIFO cannot hang the open, and refused after
 * fstat() with "PATH: not a regular file (a FIFO)" and the like. Returns
 * the descriptor (blocking again, close-on-exec), *size set when not
 * NULL, or -1 after saying why.
 */
int open_regular(const char *path, long long *size);
/*
 * /proc/PID/stat's state, parent and process group of the process named
 * pid (its /proc entry's name): 0, or -1 when it is gone or unreadable.
 * The command name may hold ')' and blanks: the fields are read after
 * the last ')'.
 */
int proc_stat_ids(const char *pid, char *state, long *ppid, long *pgrp);
/* Its process group and start time (clock ticks after boot) likewise: 0,
 * or -1 when it is gone or a zombie. */
int proc_stat_start(const char *pid, long *pgrp, unsigned long long *start);
/*
 * A server the run talks to that is not its child (pgbench --conninfo's
 * PostgreSQL): its CPU time from now on - its own and its children's,
 * reaped or not, the backends that served the run - is counted as the
 * run's, not as another process's (exec/store_session.c). At most 8;
 * a pid gone or unreadable is ignored.
 */
void proc_serving_add(long pid);
/* The CPU seconds the servers added used since they were added, and
 * what they were ("postgres 1234", ...; "" when none) into what. */
double proc_serving_cpu_s(char *what, size_t len);
/*
 * A fault point for the tests that cut a VM's power (tests/integration/
 * test_vm.sh): when $SCHEDLAB_FAULT_STALL names a file that exists and
 * holds `place`, the file is removed, "schedlab: fault: stalled at PLACE"
 * goes to stderr, and this process waits there for the power cut. Else
 * nothing. The one place today: "case-commit", a case's rows written
 * and not yet committed (store/sqlite_write.c).
 */
void fault_stall(const char *place);
/* All of buf written to fd, EINTR retried: 0, or -1 with errno (a
 * write that wrote nothing: errno as it left it, or unchanged). */
int write_all(int fd, const void *buf, size_t len);
/*
 * A file written whole or not at all: DIR/.NAME.XXXXXX (mode 0644) until
 * atomic_commit() renames it over DIR/NAME. who names the command in
 * errors. atomic_open(): the stream, or NULL after error().
 * atomic_commit(): 0, or -1 after error(), the temporary file removed.
 */
struct atomic_file {
	char tmp[4200], path[4200];
	FILE *f;
};
FILE *atomic_open(struct atomic_file *a, const char *who, const char *dir,
		  const char *name);
int atomic_commit(struct atomic_file *a, const char *who);
/* DIR made when missing: 0, or -1 after error() ("WHO: -o 'DIR' ..."). */
int make_out_dir(const char *who, const char *dir);

/* The rest of fd, NUL-terminated, malloc'd, its length in *len; NULL
 * with errno (EFBIG: more than max bytes; max 0: no limit). */
char *read_fd_all(int fd, size_t max, size_t *len);
/* The file at path the same way (*len 0 and NULL when it cannot be
 * opened or read). */
char *read_path_all(const char *path, size_t *len);
/* len bytes of fd into buf, EINTR retried, within ms milliseconds (a
 * negative ms: no limit): 0, or -1 (its end, an error, or time up). */
int read_all(int fd, void *buf, size_t len, int ms);

/*
 * mkdir -p: path and each directory above it, made with mode where
 * missing. NULL when all are there; else the malloc'ed directory that
 * could not be made, errno saying why (say so, then free() it).
 */
char *mkdir_p(const char *path, unsigned int mode);

/* The program called prog as execvp() finds it ($PATH, else
 * /usr/local/bin:/usr/bin:/bin; a name with '/' as it is): its path
 * (free()), or NULL when there is none that can be run. */
char *path_find(const char *prog);

/*
 * "a, b" split at commas into malloc'ed words, the blanks around each
 * dropped and empty ones too: their number, *out the vector (NULL
 * after the last); split_free() it.
 */
size_t split_commas(const char *s, char ***out);
void split_free(char **v, size_t n);

/*
 * The words of s split on blanks (spaces, tabs): a NULL-terminated,
 * malloc'ed vector, or NULL when s has none; split_blanks_free() it.
 */
char **split_blanks(const char *s);
void split_blanks_free(char **w);

/*
 * Terminal-safe text: what a label, a path or a tool's output could
 * hold that a terminal would obey - control characters (C0, DEL, the
 * C1 range U+0080..U+009F) and bytes that are not UTF-8 - is written
 * as "\\t", "\\r", "\\n", "\\xNN" or "\\u00NN"; all else (valid UTF-8,
 * a backslash) is kept as it is. text_escape() returns a malloc'ed copy
 * of s, newlines escaped too; text_safe() returns a stream that writes
 * what is written to it into f so escaped, newlines kept, for the text
 * renderers (show, list, compare, a run's summaries): fclose() it,
 * which flushes it into f and leaves f open; an error writing f makes
 * fclose() fail. error() and warning()
 * escape their messages.
 */
char *text_escape(const char *s);
FILE *text_safe(FILE *f);
/*
 * A name as one cell of a text table (a label, a host, a job, a command
 * line): text_escape(s), or a copy of none when s is NULL. Through
 * text_safe() a newline would start a row of its own; here it is "\\n".
 * malloc'ed.
 */
char *text_field(const char *s, const char *none);
/*
 * text, words filled into lines of at most width columns, the first
 * after indent, the others after cont; a word longer than a line stands
 * alone on one. Each line ends with a newline.
 */
void text_wrap(FILE *f, const char *indent, const char *cont,
	       const char *text, int width);

/*
 * The stack the schedlab process needs (measured: run, show and compare
 * die at 32 KiB and work at 48; the environment and argv count too),
 * and that a forked worker needs beside what it puts on its own stack.
 */
#define STACK_NEED	(128u << 10)

/*
 * Raises the soft RLIMIT_STACK to need if it is lower (the main thread's
 * stack grows up to the soft limit at the time it grows). 0 when the
 * limit is now at least need; 1 when the hard limit is below it, *hard
 * set (bytes); -1 after saying why getrlimit or setrlimit failed.
 */
int stack_raise(unsigned long long need, unsigned long long *hard);

/* What bounds the file descriptors of one process. */
struct nofile_limits {
	unsigned long long hard;	/* RLIMIT_NOFILE's hard limit */
	unsigned long long nr_open;	/* fs.nr_open: the most any may have */
};

/*
 * Raises the soft RLIMIT_NOFILE to at least need: up to the hard limit,
 * or, when privileged, both limits to need if fs.nr_open allows it.
 * Returns 0 when the soft limit is now at least need; 1 when it cannot
 * be, with *lim filled for the caller's advice (raise the hard limit, or
 * fs.nr_open); -1 after saying why getrlimit or setrlimit failed.
 */
int nofile_raise(unsigned long long need, struct nofile_limits *lim);

static inline uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec;
}

/* A struct timeval (getrusage()'s times) in seconds. */
static inline double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_ns(&ts);
}

/* futex(2) on a word of this process: sleeps while *word is val. */
static inline void futex_wait(uint32_t *word, uint32_t val)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

/* Wakes up to n sleepers on *word. */
static inline void futex_wake(uint32_t *word, int n)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

#endif
