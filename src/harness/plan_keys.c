// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_keys: a job file's keys checked (plan.c's helpers, plan_int.h) -
 * the harness keys (iterations, warmup, cpus, probes, monitors, trace,
 * the settings) parsed into a job's struct harness, every job's workload
 * resolved, and [global]'s keys checked against the jobs' workloads.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/plan.h"
#include "harness/plan_int.h"
#include "monitor/monitor.h"
#include "probe/cpus.h"
#include "probe/probe.h"
#include "trace/trace.h"
#include "util.h"
#include "workload/registry.h"

static const struct opt_def harness_options[] = {
	{ .name = "iterations", .type = OPT_UINT,
	  .offset = offsetof(struct harness, iterations), .def = "5",
	  .min = 1, .max = 10000 },
	{ .name = "warmup", .type = OPT_UINT,
	  .offset = offsetof(struct harness, warmup), .def = "0",
	  .min = 0, .max = 1000 },
	{ .name = "retries", .type = OPT_UINT,
	  .offset = offsetof(struct harness, retries), .def = "0",
	  .min = 0, .max = 100 },
	{ .name = "probes", .type = OPT_ENUM,
	  .offset = offsetof(struct harness, probes), .def = "on",
	  .choices = probe_level_names },
	{ .name = "min_iterations", .type = OPT_UINT,
	  .offset = offsetof(struct harness, min_iter), .def = "5",
	  .min = 1, .max = 10000 },
	{ .name = "max_iterations", .type = OPT_UINT,
	  .offset = offsetof(struct harness, max_iter), .def = "30",
	  .min = 1, .max = 10000 },
	{ .name = "monitors", .type = OPT_STRING,
	  .offset = offsetof(struct harness, monitors), .def = "none",
	  .help = MONITORS_ACCEPTED },
	{ .name = "monitor_interval", .type = OPT_STRING,
	  .offset = offsetof(struct harness, monitor_interval), .def = "1s",
	  .help = MONITOR_INTERVAL_ACCEPTED },
	{ .name = "trace", .type = OPT_STRING,
	  .offset = offsetof(struct harness, trace), .def = "none",
	  .help = TRACE_ACCEPTED },
	{ .name = "trace_scope", .type = OPT_ENUM,
	  .offset = offsetof(struct harness, trace_scope), .def = "iteration",
	  .choices = trace_scope_names },
	{ .name = "trace_dir", .type = OPT_STRING,
	  .offset = offsetof(struct harness, trace_dir),
	  .help = "a directory" },
	{ .name = "trace_tasks", .type = OPT_STRING,
	  .offset = offsetof(struct harness, trace_tasks), .def = TRACE_TASKS_DEF,
	  .help = TRACE_TASKS_ACCEPTED },
	{ .name = NULL },
};

#define TIMEOUT_MAX 31536000u	/* a year */

int plan_parse_iterations(const char *s, unsigned *n)
{
	size_t digits = strspn(s, "0123456789");

	if (!strcmp(s, "auto")) {
		*n = 0;
		return 0;
	}
	if (!digits || s[digits])
		return -1;
	if (digits > 5 || atoi(s) < 1 || atoi(s) > 10000)
		return -2;
	*n = (unsigned)atoi(s);
	return 0;
}

/* A harness key shadows a workload option of the same name. */
bool is_harness_key(const char *key)
{
	return opt_find(harness_options, key) || !strcmp(key, "timeout") ||
	       !strcmp(key, "cpus") || !strcmp(key, "monitor_cpus") ||
	       !strcmp(key, "budget") ||
	       !strcmp(key, "estimate") ||
	       setting_kind(key) != SETTING_NONE;
}

/* A setting's line, checked, in place of the same key's or added. */
static int set_setting(const struct loader *ld, const struct kv *kv,
		       struct harness *h)
{
	char err[512], at[PATH_MAX + 32];
	size_t i;

	if (setting_check(kv->key, kv->value, err, sizeof(err)))
		return error("%s: %s: %s", kv_where(ld->path, kv, at, sizeof(at)),
			     kv->key, err);
	for (i = 0; i < h->nset && strcmp(h->set[i]->key, kv->key); i++)
		;
	if (i == h->nset) {
		h->set = plan_grow(h->set, h->nset, sizeof(*h->set));
		h->nset++;
	}
	h->set[i] = kv;
	return 0;
}

/* "300", "300s", "5m", "1h"; "none" for no limit. */
static int parse_timeout(const char *s, unsigned *out)
{
	unsigned long long v;
	int rc;

	if (!strcmp(s, "none")) {
		*out = 0;
		return 0;
	}
	rc = opt_parse_duration(s, TIMEOUT_MAX, &v);
	if (rc)
		return rc;
	if (v < 1)
		return -2;
	*out = (unsigned)v;
	return 0;
}

static int set_cpus(const struct loader *ld, const struct kv *kv,
		    char *out, size_t outlen)
{
	long ncfg = sysconf(_SC_NPROCESSORS_CONF);
	struct cpumask m;
	char at[PATH_MAX + 32];
	int n, c;

	kv_where(ld->path, kv, at, sizeof(at));
	n = cpulist_parse(kv->value, &m);
	if (n < 0)
		return error("%s: %s: '%s' is not a CPU list (expected CPU numbers and ranges, such as 0-3,8)",
			     at, kv->key, kv->value);
	if (n == 0)
		return error("%s: %s: '%s' is empty (expected CPU numbers and ranges, such as 0-3,8)",
			     at, kv->key, kv->value);
	for_each_cpu(c, &m)
		if (ncfg > 0 && c >= ncfg)
			return error("%s: %s: '%s' is out of range (expected CPUs in 0-%ld; CPU %d does not exist)",
				     at, kv->key, kv->value, ncfg - 1, c);
	if (cpulist_format(&m, out, outlen) >= (int)outlen)
		return error("%s: %s: '%s' is too long a list", at, kv->key,
			     kv->value);
	return 0;
}

int plan_set_harness(const struct loader *ld, const struct kv *kv,
		     struct harness *h)
{
	const struct opt_def *o = opt_find(harness_options, kv->key);
	char where[PATH_MAX + 64], at[PATH_MAX + 32];
	int rc;

	snprintf(where, sizeof(where), "%s: %s",
		 kv_where(ld->path, kv, at, sizeof(at)), kv->key);
	if (o == &harness_options[0]) {	/* iterations: a count or auto */
		unsigned n;

		rc = plan_parse_iterations(kv->value, &n);
		if (rc)
			return error("%s: '%s' %s (expected %s)", where, kv->value,
				     rc == -1 ? "is not an iteration count" :
				     "is out of range", PLAN_ITERATIONS_ACCEPTED);
		h->auto_iter = !n;
		if (n)
			h->iterations = n;
		return 0;
	}
	if (o && (!strcmp(o->name, "monitors") ||
		  !strcmp(o->name, "monitor_interval"))) {
		char err[256];
		unsigned v;

		rc = !strcmp(o->name, "monitors") ?
		     monitor_parse_list(kv->value, &v, err, sizeof(err)) :
		     monitor_parse_interval(kv->value, &v, err, sizeof(err));
		if (rc)
			return error("%s: %s (expected %s)", where, err, o->help);
		return opt_set(o, h, kv->value, where);
	}
	if (o && (!strcmp(o->name, "trace") || !strcmp(o->name, "trace_tasks") ||
		  !strcmp(o->name, "trace_dir"))) {
		char err[256];
		bool on;

		rc = !strcmp(o->name, "trace") ?
		     trace_parse(kv->value, &on, err, sizeof(err)) :
		     !strcmp(o->name, "trace_tasks") ?
		     trace_parse_tasks(kv->value, err, sizeof(err)) :
		     !*kv->value || strlen(kv->value) > 1024 ?
		     (snprintf(err, sizeof(err), "'%.64s' is not a directory path",
			       kv->value), -1) : 0;
		if (rc)
			return error("%s: %s (expected %s)", where, err,
				     !strcmp(o->name, "trace_dir") ?
				     "a directory path of 1 to 1024 characters" : o->help);
		return opt_set(o, h, kv->value, where);
	}
	if (o) {
		if (!strcmp(o->name, "probes"))
			h->probes_given = true;
		return opt_set(o, h, kv->value, where);
	}
	if (setting_kind(kv->key) != SETTING_NONE)
		return set_setting(ld, kv, h);
	if (!strcmp(kv->key, "cpus"))
		return set_cpus(ld, kv, h->cpus, sizeof(h->cpus));
	if (!strcmp(kv->key, "monitor_cpus"))
		return set_cpus(ld, kv, h->monitor_cpus, sizeof(h->monitor_cpus));
	rc = parse_timeout(kv->value, !strcmp(kv->key, "budget") ?
			   &h->budget_s : !strcmp(kv->key, "estimate") ?
			   &h->estimate_s : &h->timeout_s);
	if (rc)
		return error("%s: '%s' %s (expected a duration in 1s..8760h such as 300, 300s, 5m or 1h, or none)",
			     where, kv->value,
			     rc == -2 ? "is out of range" : "is not a duration");
	return 0;
}

int plan_setting_cmp(const void *a, const void *b)
{
	return strcmp(((const struct setting *)a)->key,
		      ((const struct setting *)b)->key);
}

void plan_harness_defaults(struct harness *h)
{
	opts_defaults(harness_options, h);
}

/* Every job has a known workload; [global] has none. */
int plan_resolve_workloads(struct loader *ld, size_t *njobs)
{
	*njobs = 0;
	for (size_t i = 0; i < ld->jf.nsec; i++) {
		struct section *sec = &ld->jf.sec[i];
		const struct kv *kv = section_key(sec, "workload");
		char known[256];
		size_t n = 0;

		if (sec->global) {
			if (kv)
				return error("%s:%u: 'workload' belongs in a job section, not [global]",
					     ld->path, kv->line);
			continue;
		}
		if (!kv)
			return error("%s:%u: job [%s] has no 'workload =' line",
				     ld->path, sec->line, sec->name);
		sec->wl = workload_find(kv->value);
		if (sec->wl) {
			(*njobs)++;
			continue;
		}
		for (size_t w = 0; workloads[w] && n < sizeof(known); w++)
			n += (size_t)snprintf(known + n, sizeof(known) - n,
					      "%s%s", w ? ", " : "",
					      workloads[w]->name);
		return error("%s:%u: unknown workload '%s' (known: %s)",
			     ld->path, kv->line, kv->value, known);
	}
	if (!*njobs)
		return error("%s: no jobs (a job is a [section] with a 'workload =' line)",
			     ld->path);
	return 0;
}

/* A workload's option names, "groups, fds, ...". */
void options_list(const struct workload *wl, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const struct opt_def *o = wl->options; o->name && n < len; o++)
		if (!o->set)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? ", " : "", o->name);
}

/* Whether section i is the first job of its workload. */
static bool first_of_workload(const struct loader *ld, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (ld->jf.sec[j].wl == ld->jf.sec[i].wl)
			return false;
	return ld->jf.sec[i].wl != NULL;
}

/* An option set twice in one section, under two of its names. */
int plan_set_twice(const struct loader *ld, const struct section *sec,
		   const struct workload *wl, const struct kv *kv)
{
	const struct kv *first = section_find(sec, wl, kv->key);
	char at[PATH_MAX + 32], at1[PATH_MAX + 32];

	if (first == kv)
		return 0;
	return error("%s: '%s' is option %s again (set at %s as '%s')",
		     kv_where(ld->path, kv, at, sizeof(at)), kv->key,
		     opt_find(wl->options, kv->key)->name,
		     kv_where(ld->path, first, at1, sizeof(at1)), first->key);
}

/*
 * The workload options in [global]: each must belong to some job's
 * workload, and its value must suit every workload that has it, even
 * where every job sets its own.
 */
int plan_check_global(const struct loader *ld, const struct section *glob)
{
	for (size_t k = 0; glob && k < glob->nkv; k++) {
		const struct kv *kv = &glob->kv[k];
		char list[1024], opts[512], at[PATH_MAX + 32];
		bool used = false;
		size_t n = 0;

		if (is_harness_key(kv->key))
			continue;
		for (size_t i = 0; i < ld->jf.nsec; i++) {
			const struct workload *wl = ld->jf.sec[i].wl;
			const struct opt_def *o;
			struct axis ax;

			if (!first_of_workload(ld, i))
				continue;
			o = opt_find(wl->options, kv->key);
			if (!o)
				continue;
			if (plan_set_twice(ld, glob, wl, kv) ||
			    sweep_expand(ld->path, kv, wl, o, ld->ncpu, &ax))
				return -1;
			axis_free(&ax);
			used = true;
		}
		if (used)
			continue;
		list[0] = '\0';
		for (size_t i = 0; i < ld->jf.nsec && n < sizeof(list); i++) {
			if (!first_of_workload(ld, i))
				continue;
			options_list(ld->jf.sec[i].wl, opts, sizeof(opts));
			n += (size_t)snprintf(list + n, sizeof(list) - n,
					      "%s%s: %s", n ? "; " : "",
					      ld->jf.sec[i].wl->name, opts);
		}
		return error("%s: '%s' is not an option of the jobs' workloads (%s)",
			     kv_where(ld->path, kv, at, sizeof(at)), kv->key,
			     list);
	}
	return 0;
}

struct kv *section_find(const struct section *sec, const struct workload *wl,
			const char *key)
{
	const struct opt_def *o = NULL;

	if (!is_harness_key(key) && !(o = opt_find(wl->options, key)))
		return NULL;
	for (size_t i = 0; sec && i < sec->nkv; i++) {
		const char *k = sec->kv[i].key;

		if (o ? !is_harness_key(k) && opt_find(wl->options, k) == o
		      : opt_name_eq(k, key))
			return &sec->kv[i];
	}
	return NULL;
}
