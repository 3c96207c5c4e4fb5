/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scx: a sched_ext scheduler (the scx setting, harness/settings.h) -
 * checked before anything runs, started before an iteration and
 * enabled, stopped after it. harness/switch.c drives it; a scheduler
 * needs no journal, the kernel unloads it with its loader.
 */
#ifndef SCHEDLAB_SCX_H
#define SCHEDLAB_SCX_H

#include <stddef.h>
#include <sys/types.h>

/* A running scheduler. */
struct scx {
	pid_t pid;		/* 0: none */
	int fd;			/* its pidfd; -1: none */
};

#define SCX_NONE { .pid = 0, .fd = -1 }

/*
 * The kernel has sched_ext, schedlab is root, no scheduler is loaded
 * and value's program can be run: 0 with *argv its words (malloc'ed,
 * split_blanks_free()), or -1 after error() naming who ("variant
 * slice: ").
 */
int scx_check(const char *who, const char *value, char ***argv);

/*
 * Starts argv and waits until sched_ext is enabled: 0, or -1 with why
 * in err (nothing left running).
 */
int scx_start(struct scx *s, char **argv, char *err, size_t len);

/* Stops the scheduler, if one runs, and waits for sched_ext to be off. */
void scx_stop(struct scx *s);

#endif
