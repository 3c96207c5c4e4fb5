/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * needs: what a plan asks of the machine that runs it beyond running
 * schedlab's own workloads - whether it runs programs the job names
 * (the workload command, env.* settings that steer the programs it
 * starts, an scx scheduler) or changes the machine (knobs: sysctl.*,
 * sched.*, sched_feat, /proc and /sys paths; cgroup.* settings; scx).
 * A queued job is both checked when queued and by the agent that
 * claimed it (doc/fleet.md): running an arbitrary command on a test
 * machine is remote code execution, so an agent takes such jobs only
 * when started with --allow-commands / --allow-knobs.
 */
#ifndef SCHEDLAB_NEEDS_H
#define SCHEDLAB_NEEDS_H

#include <stdbool.h>
#include <stddef.h>

struct plan;

struct plan_needs {
	bool commands, knobs;
	/* the first reason of each, for messages: "workload command in
	 * [job]", "setting sysctl.kernel.foo in [job]"; "" when none */
	char commands_why[160], knobs_why[160];
};

/* What plan p needs, into *n. */
void plan_needs(const struct plan *p, struct plan_needs *n);

#endif
