/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * harness/switch_int.h: what switch.c (the board applied, put back,
 * journalled and closed) and switch_resolve.c (the plans resolved onto
 * it) share. Not for use outside harness/.
 */
#ifndef SCHEDLAB_SWITCH_INT_H
#define SCHEDLAB_SWITCH_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness/cgroup.h"
#include "harness/journal.h"
#include "harness/plan.h"
#include "harness/scx.h"
#include "harness/switch.h"

/* One file (or one feature of the features file) the plans change. */
struct knob {
	char *key;		/* the key that first named it, for messages */
	char *path;
	char *feature;		/* sched_feat: the feature; NULL: a file */
	char *orig;		/* the file's value, or the feature's word */
	size_t plan;		/* the plan that first named it */
	char **tried;		/* the values prepare wrote once */
	size_t ntried;
	bool dirty;		/* written since its original was put back */
	bool warned;		/* a failed restore said */
};

/* One write of an apply: knob k gets value. */
struct op {
	size_t knob;
	char *value;
	char *key;		/* the setting's key, for messages */
};

struct case_sw {
	struct op *ops;
	size_t nops;
	char **scx;		/* argv of the sched_ext scheduler; NULL: none */
	size_t cg;		/* its cgroup + 1 in cgs; 0: none */
};

struct plan_sw {
	struct case_sw *cases;
	size_t n;
};

struct switchboard {
	pid_t owner;
	struct knob *knobs;
	size_t nknobs;
	struct plan_sw *plans;
	size_t nplans;
	struct cgroup_set *cgs;
	size_t ncgs, created;	/* cgroup sets planned, created */
	struct journal_file jf;
	struct scx scx;		/* a running scheduler */
	uint64_t apply_ns;
	double last_us;
	struct switchboard *next;	/* the open boards, for atexit */
};

/* "NAME: " of plan k into buf, or "" without names. */
const char *switch_plan_name(const char *const *names, size_t k, char *buf,
			     size_t len);

/* Each plan's knobs, scx and cgroups: 0 or -1; *any: whether it changes. */
int switch_resolve(struct switchboard *sb, struct plan *plans, size_t n,
		   const char *const *names, bool *any);

#endif
