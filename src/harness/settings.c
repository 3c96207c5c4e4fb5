// SPDX-License-Identifier: GPL-2.0-only
/*
 * settings: the vocabulary of harness/settings.h - which keys are
 * settings, what their values may be, and the task settings of a case
 * parsed once at plan time (a machine knob's key and value are
 * harness/knob.h's). Applying them is task_apply.c's (the
 * workload process) and switch.c's (the machine).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/knob.h"
#include "harness/settings.h"
#include "util.h"

static const struct {
	const char *name;
	int policy;
	bool rt;
} policies[] = {
	{ "other", SCHED_OTHER, false },
	{ "batch", SCHED_BATCH, false },
	{ "idle", SCHED_IDLE, false },
	{ "fifo", SCHED_FIFO, true },
	{ "rr", SCHED_RR, true },
};

#define POLICIES_ACCEPTED "other, batch, idle, fifo:PRIO or rr:PRIO with PRIO in 1..99"

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

enum setting_kind setting_kind(const char *key)
{
	if (!strcmp(key, "nice") || !strcmp(key, "policy") ||
	    !strcmp(key, "uclamp_min") || !strcmp(key, "uclamp_max"))
		return SETTING_TASK;
	if (!strcmp(key, "scx"))
		return SETTING_SCX;
	if (has_prefix(key, "env."))
		return SETTING_ENV;
	if (has_prefix(key, "cgroup."))
		return SETTING_CGROUP;
	if (knob_key(key))
		return SETTING_KNOB;
	return SETTING_NONE;
}

/* An integer in lo..hi: 0, -1 not one, -2 out of range. */
static int int_in(const char *s, long lo, long hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || isspace((unsigned char)*s) || *end || errno == ERANGE)
		return errno == ERANGE ? -2 : -1;
	if (v < lo || v > hi)
		return -2;
	*out = (int)v;
	return 0;
}

/* policy's value: 0 with *policy, *prio; or -1 with err. */
static int parse_policy(const char *v, int *policy, int *prio, char *err,
			size_t len)
{
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);

	for (size_t i = 0; i < ARRAY_SIZE(policies); i++) {
		if (strlen(policies[i].name) != n ||
		    strncmp(policies[i].name, v, n))
			continue;
		*policy = policies[i].policy;
		*prio = 0;
		if (!policies[i].rt && colon) {
			snprintf(err, len, "'%s': policy %s takes no priority (expected %s)",
				 v, policies[i].name, POLICIES_ACCEPTED);
			return -1;
		}
		if (policies[i].rt &&
		    (!colon || int_in(colon + 1, 1, 99, prio))) {
			snprintf(err, len, "'%s': policy %s needs a priority in 1..99, as %s:10 (expected %s)",
				 v, policies[i].name, policies[i].name,
				 POLICIES_ACCEPTED);
			return -1;
		}
		return 0;
	}
	snprintf(err, len, "'%s' is not a scheduling policy (expected %s)", v,
		 POLICIES_ACCEPTED);
	return -1;
}

int setting_check(const char *key, const char *value, char *err, size_t len)
{
	int v, p, rc;

	switch (setting_kind(key)) {
	case SETTING_TASK:
		if (!strcmp(key, "policy"))
			return parse_policy(value, &v, &p, err, len);
		if (!strcmp(key, "nice")) {
			rc = int_in(value, -20, 19, &v);
			if (rc)
				snprintf(err, len, "'%s' %s (expected -20..19)",
					 value, rc == -1 ? "is not a nice value" :
					 "is out of range");
			return rc ? -1 : 0;
		}
		rc = int_in(value, 0, 1024, &v);
		if (rc)
			snprintf(err, len, "'%s' %s (expected 0..1024)", value,
				 rc == -1 ? "is not a utilization clamp" :
				 "is out of range");
		return rc ? -1 : 0;
	case SETTING_ENV:
		if (!*(key + 4) || strchr(key + 4, '=')) {
			snprintf(err, len, "'%s' names no environment variable (expected env.NAME)",
				 key);
			return -1;
		}
		return 0;
	case SETTING_CGROUP: {
		const char *f = key + 7, *dot = strchr(f, '.');

		if (!dot || dot == f || !knob_name_ok(f) || strchr(f, '/')) {
			snprintf(err, len, "'%s' names no controller's file (expected cgroup.CONTROLLER.FILE, as cgroup.cpu.weight or cgroup.cpu.cfs_quota_us)",
				 key);
			return -1;
		}
		if (!strcmp(dot + 1, "procs") || has_prefix(f, "cgroup.") ||
		    !strcmp(dot + 1, "tasks")) {
			snprintf(err, len, "'%s' is the cgroup's own file, which schedlab writes (expected a controller's file such as cpu.weight)",
				 key);
			return -1;
		}
		return 0;
	}
	case SETTING_KNOB:
		return knob_check(key, value, err, len);
	case SETTING_SCX:
		if (!value[strspn(value, " \t")]) {
			snprintf(err, len, "no program given (expected a sched_ext scheduler such as scx_simple, with its arguments)");
			return -1;
		}
		return 0;
	case SETTING_NONE:
		break;
	}
	snprintf(err, len, "'%s' is not a setting (settings: %s)", key,
		 SETTING_KEYS);
	return -1;
}

void task_settings_from(const struct setting *set, size_t n,
			struct task_settings *ts)
{
	char err[256];

	*ts = (struct task_settings){ .policy = -1, .uclamp_min = -1,
				      .uclamp_max = -1 };
	for (size_t i = 0; i < n; i++) {
		const char *k = set[i].key, *v = set[i].value;

		if (!strcmp(k, "nice")) {
			ts->has_nice = true;
			int_in(v, -20, 19, &ts->nice);
		} else if (!strcmp(k, "policy")) {
			parse_policy(v, &ts->policy, &ts->rtprio, err,
				     sizeof(err));
		} else if (!strcmp(k, "uclamp_min")) {
			int_in(v, 0, 1024, &ts->uclamp_min);
		} else if (!strcmp(k, "uclamp_max")) {
			int_in(v, 0, 1024, &ts->uclamp_max);
		} else if (setting_kind(k) == SETTING_ENV) {
			char *e = xmalloc(strlen(k + 4) + strlen(v) + 2);

			sprintf(e, "%s=%s", k + 4, v);
			ts->env = xrealloc(ts->env,
					   (ts->nenv + 1) * sizeof(*ts->env));
			ts->env[ts->nenv++] = e;
		}
	}
}

void task_settings_free(struct task_settings *ts)
{
	for (size_t i = 0; i < ts->nenv; i++)
		free(ts->env[i]);
	free(ts->env);
	for (size_t i = 0; i < ts->ncgroup_procs; i++)
		free(ts->cgroup_procs[i]);
	free(ts->cgroup_procs);
	*ts = (struct task_settings){ .policy = -1, .uclamp_min = -1,
				      .uclamp_max = -1 };
}

bool task_settings_any(const struct task_settings *ts)
{
	return ts->has_nice || ts->policy >= 0 || ts->uclamp_min >= 0 ||
	       ts->uclamp_max >= 0 || ts->nenv || ts->ncgroup_procs;
}

const char *task_policy_name(int policy, int rtprio, char *buf, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(policies); i++) {
		if (policies[i].policy != policy)
			continue;
		if (policies[i].rt)
			snprintf(buf, len, "%s:%d", policies[i].name, rtprio);
		else
			snprintf(buf, len, "%s", policies[i].name);
		return buf;
	}
	snprintf(buf, len, "policy %d", policy);
	return buf;
}
