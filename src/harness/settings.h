/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * settings: what a case changes around its workload besides the
 * workload's options - harness keys of a job file (in [global] or a
 * job; the job's value of a key wins), of run --set and of ab's
 * variants. Three kinds:
 *
 * Task settings, taken by the workload process before the workload
 * starts and inherited by every task it starts (workers, programs):
 *   nice = -20..19
 *   policy = other | batch | idle | fifo:PRIO | rr:PRIO (PRIO 1..99)
 *   uclamp_min, uclamp_max = 0..1024 (where the kernel has uclamp)
 *   env.NAME = VALUE (an environment variable of the workload)
 *
 * A cgroup the run creates for the case (one per plan and distinct
 * cgroup settings), its files written before anything runs, joined by
 * the workload process, removed at the end:
 *   cgroup.CONTROLLER.FILE = VALUE, e.g. cgroup.cpu.weight = 50,
 *   cgroup.cpu.max = 50000 100000, cgroup.cpuset.cpus = 0 (cgroup v2);
 *   cgroup.cpu.shares = 512, cgroup.cpu.cfs_quota_us = 50000 (v1).
 *   FILE is the controller's own file name (cpu.weight), written in the
 *   hierarchy that has CONTROLLER (v1 mounts first, then v2's).
 *
 * Machine knobs, written before each iteration of the case and put
 * back after it (harness/switch.h journals the original first; the kinds
 * and their prefixes are harness/knob.h's table):
 *   sysctl.NAME = VALUE   /proc/sys/NAME, NAME's dots as slashes
 *   sched.NAME = VALUE    /sys/kernel/debug/sched/NAME (base_slice_ns,
 *                         migration_cost_ns, nr_migrate, ...)
 *   sched_feat = [NO_]FEATURE ... /sys/kernel/debug/sched/features
 *   /proc/... or /sys/... = VALUE  any writable file, by its path
 *   scx = PROGRAM [ARG...]  a sched_ext scheduler, started before each
 *                         iteration and stopped after (needs sched_ext)
 *
 * Values are taken as written (no sweeps: a knob's value may hold
 * commas and blanks). This file checks the words; what the machine
 * allows (the file exists, can be read and written, the controller is
 * mounted) is harness/switch.h's check before anything runs.
 */
#ifndef SCHEDLAB_SETTINGS_H
#define SCHEDLAB_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

/* A setting as written: its key (canonical, see setting_key()) and value. */
struct setting {
	char *key;
	char *value;
};

/* The task settings of a case, parsed (plan_case.task). */
struct task_settings {
	bool has_nice;
	int nice;
	int policy;		/* SCHED_OTHER, ...; -1: inherit */
	int rtprio;		/* fifo and rr: 1..99 */
	int uclamp_min, uclamp_max;	/* -1: inherit */
	char **env;		/* "NAME=VALUE" */
	size_t nenv;
	/*
	 * The cgroup.procs files the workload process writes its pid into
	 * (one per hierarchy), filled by switch_prepare(); NULL when none.
	 */
	char **cgroup_procs;
	size_t ncgroup_procs;
};

/* Task settings that change nothing (a zeroed struct would set policy 0). */
#define TASK_SETTINGS_NONE { .policy = -1, .uclamp_min = -1, .uclamp_max = -1 }

enum setting_kind {
	SETTING_NONE,		/* not a setting's key */
	SETTING_TASK,		/* nice, policy, uclamp_min, uclamp_max */
	SETTING_ENV,		/* env.NAME */
	SETTING_CGROUP,		/* cgroup.CONTROLLER.FILE */
	SETTING_KNOB,		/* sysctl.NAME, sched.NAME, sched_feat, a path */
	SETTING_SCX,		/* scx */
};

/* What key is; SETTING_NONE for any other key. */
enum setting_kind setting_kind(const char *key);

/* The keys, for messages. */
#define SETTING_KEYS "nice, policy, uclamp_min, uclamp_max, env.NAME, cgroup.CONTROLLER.FILE, sysctl.NAME, sched.NAME, sched_feat, scx, or a path under /proc or /sys"

/*
 * Checks VALUE for KEY (a setting's key): 0, or -1 with err holding what
 * is wrong and what is accepted, "'30' is out of range (expected
 * -20..19)" - the caller names the key and where it was written.
 */
int setting_check(const char *key, const char *value, char *err, size_t len);

/*
 * The task settings of a sorted list of checked settings into *ts
 * (zeroed or inheriting first); task_settings_free() releases it.
 */
void task_settings_from(const struct setting *set, size_t n,
			struct task_settings *ts);
void task_settings_free(struct task_settings *ts);
/* Whether ts changes anything. */
bool task_settings_any(const struct task_settings *ts);

/* The policy's name ("batch", "fifo:10") into buf. */
const char *task_policy_name(int policy, int rtprio, char *buf, size_t len);

struct wl_ctx;
/*
 * In the workload process, before the workload starts: joins the
 * cgroups, then environment, nice, policy and uclamp. 0, or -1 after
 * wl_fail() naming the setting and the error.
 */
int task_settings_apply(const struct task_settings *ts, struct wl_ctx *ctx);

/*
 * Tries what task_settings_apply() does (the cgroups too, when
 * cgroup_procs is filled) in a forked child that then exits, so that
 * what the machine refuses ("policy=fifo:10: cannot set: Operation not
 * permitted", a kernel without uclamp) fails the plan before anything
 * runs. 0, or -1 with err holding the message (which names the
 * setting); nothing of the caller's changes.
 */
int task_settings_check(const struct task_settings *ts, char *err, size_t len);

#endif
