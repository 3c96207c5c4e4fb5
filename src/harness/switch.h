/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * switch: the machine state the plans of a run change (harness/
 * settings.h's knobs, cgroups and sched_ext schedulers), checked before
 * anything runs and put back however the run ends.
 *
 * switch_prepare() resolves every knob of every case of every plan to
 * its file, reads its value (the original), and refuses - one message,
 * exit 2, nothing changed - a file that is missing, cannot be read, or
 * cannot be written (not root; debugfs under lockdown refuses sched
 * features with EPERM), a cgroup controller that is not mounted, and
 * scx where the kernel has no sched_ext. Then, before changing
 * anything, it writes the restore journal (harness/journal.h) with every original
 * and every cgroup it will create, creates the cgroups (their files
 * written, each file's value read back) and writes each knob's value
 * once and puts the original back, so that a value the kernel refuses
 * fails the plan before the first iteration too.
 *
 * Around each iteration (warm-ups included) of case c of plan p the
 * executor calls switch_apply() and switch_restore(): the knobs of that
 * case are written, then the originals put back; a sched_ext scheduler
 * is started and stopped. switch_close() puts everything back, removes
 * the cgroups (after the workload's tasks are gone) and the journal;
 * it runs at the end, after SIGINT/SIGTERM, and from an atexit handler
 * for an exit on a fatal error.
 *
 * What it changes is written in the restore journal first
 * (harness/journal.h), which the next schedlab restores if this one is
 * killed (switch_recover()). A knob's kinds are harness/knob.h's.
 */
#ifndef SCHEDLAB_SWITCH_H
#define SCHEDLAB_SWITCH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "harness/plan.h"

struct switchboard;

/*
 * Checks and journals what plans[0..n) change (names[k]: plan k's
 * name for messages, "variant slice"; NULL for the run itself), as
 * above, and fills each case's task.cgroup_procs. *out: NULL when no
 * plan changes anything on the machine (nothing journalled). 0, or -1
 * after error() with nothing changed (exit 2).
 */
int switch_prepare(struct plan *plans, size_t n, const char *const *names,
		   struct switchboard **out);

/*
 * Before an iteration of case c (an index into plans[p].cases): its
 * knobs written, its scx scheduler started and enabled. 0, or -1 with
 * why in err (the iteration then fails; switch_restore() still runs).
 */
int switch_apply(struct switchboard *sb, size_t p, size_t c, char *err,
		 size_t len);

/* After it, whatever its outcome: the originals back, scx stopped. */
void switch_restore(struct switchboard *sb, size_t p, size_t c);

/* The microseconds the last apply and restore took together. */
double switch_last_us(const struct switchboard *sb);

/*
 * Everything back, the cgroups removed, the journal deleted; sb freed.
 * -1 after warning() when something could not be put back (its journal
 * then stays for the next invocation). NULL: nothing.
 */
int switch_close(struct switchboard *sb);

/*
 * Whether pid is a sched_ext scheduler an open board of this process
 * runs: supervise's reaper of what a case left behind spares it.
 */
bool switch_keeps(pid_t pid);

#endif
