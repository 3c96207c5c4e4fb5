/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * casecmd: the untimed shell commands around a case, for a workload that
 * has them (struct wl_case_cmds; command's setup, before, cleanup and
 * workdir keys).
 *
 * A case with none of the four runs where schedlab runs, as before.
 * casecmd_begin() makes the case's working directory - workdir, created
 * if missing and left in place, or by default a temporary directory
 * BASE/schedlab-case.PID.XXXXXX that the run owns - puts it in the
 * environment as $SCHEDLAB_WORKDIR for every process of the case (with
 * $SCHEDLAB_CACHE, a directory kept between runs: /var/cache/schedlab
 * as root, else $XDG_CACHE_HOME/schedlab or ~/.cache/schedlab), and
 * runs setup there once. casecmd_before() runs before before each
 * attempt of an iteration (warm-ups too), outside the workload process,
 * so that nothing of it is measured. casecmd_end() runs cleanup, then
 * removes the temporary directory; every case that began must end, and
 * an exit that skips that (a store error) still removes the directory.
 *
 * Each command is `/bin/sh -c` in the working directory, supervised like
 * an iteration (its own process group, the case's timeout and task
 * settings, Ctrl-C, nothing left behind) with probes off; its stdout is
 * dropped, its last stderr line names what failed.
 */
#ifndef SCHEDLAB_CASECMD_H
#define SCHEDLAB_CASECMD_H

#include <stddef.h>

#include "harness/plan.h"
#include "harness/supervise.h"

struct casecmd;

/*
 * NULL (*out) when the case's workload has no commands. Returns RUN_OK,
 * or the status of the failed setup with its reason in reason.
 */
enum run_status casecmd_begin(const struct plan_case *c, struct casecmd **out,
			      char *reason, size_t len);

/* 0, or 1 with o's status and reason saying how before failed. */
int casecmd_before(const struct casecmd *cc, const struct plan_case *c,
		   struct run_outcome *o);

/* Runs cleanup (a failure is a warning) and frees cc; NULL is a no-op. */
void casecmd_end(struct casecmd *cc, const struct plan_case *c);

#endif
