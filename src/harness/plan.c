// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan: a job file checked and expanded into cases (see plan.h).
 *
 * plan_file.c reads the file into sections of key = value lines; here
 * every job gets its workload, every key is checked against the harness
 * keys and the option table of the job's workload, and every value is
 * expanded by plan_sweep.c through opt_set(), so that a mistake reads as
 * it would on the command line, prefixed with FILE:LINE. All jobs are
 * checked and counted before any case is made.
 *
 * Also here: printing a plan. Finding and listing suites is suites.c's.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/identity.h"
#include "harness/plan.h"
#include "harness/plan_int.h"
#include "monitor/monitor.h"
#include "trace/trace.h"
#include "probe/probe.h"
#include "probe/cpus.h"
#include "util.h"
#include "workload/registry.h"

#define VALUE_MAX	128	/* one formatted option value */

/* What loading needs besides the file. */
struct loader {
	const char *path;
	struct jobfile jf;
	unsigned ncpu;		/* what $ncpu stands for */
	const struct plan_set *sets;	/* run --set KEY=VALUE, applied to jf */
	size_t nsets;
};

/* Helpers for the four files of plan. */
const char *kv_where(const char *path, const struct kv *kv, char *buf,
		     size_t len)
{
	if (kv->origin)
		snprintf(buf, len, "%s", kv->origin);
	else
		snprintf(buf, len, "%s:%u", path, kv->line);
	return buf;
}

char *plan_trim(char *s)
{
	char *e = s + strlen(s);

	while (isblank((unsigned char)*s))
		s++;
	while (e > s && isblank((unsigned char)e[-1]))
		e--;
	*e = '\0';
	return s;
}

/* Room for element n of an array that grows by doubling. */
void *plan_grow(void *arr, size_t n, size_t size)
{
	void *p;

	if (n & (n - 1))
		return arr;	/* not a power of two: there is room */
	p = xmalloc((n ? 2 * n : 1) * size);
	if (n)
		memcpy(p, arr, n * size);
	free(arr);
	return p;
}

/* ---- harness keys ---------------------------------------------------- */

struct harness {
	unsigned iterations, warmup, retries, timeout_s;
	bool auto_iter;		/* iterations = auto */
	unsigned min_iter, max_iter, budget_s;
	unsigned estimate_s;	/* one iteration, for --dry-run; 0: none */
	int probes;		/* enum probe_level */
	bool probes_given;	/* probes = ... in the job file or --set */
	char cpus[256];		/* normalised cpulist; "" to inherit */
	/* monitors (monitor/monitor.h): the list and interval as given,
	 * checked as they are set */
	const char *monitors, *monitor_interval;
	char monitor_cpus[256];	/* the sampler's cpulist; "" to inherit */
	/* tracing hooks (trace/trace.h), checked as they are set */
	const char *trace, *trace_dir, *trace_tasks;
	int trace_scope;	/* enum trace_scope */
	const struct kv **set;	/* settings (harness/settings.h), one a key */
	size_t nset;
};

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

static int set_harness(const struct loader *ld, const struct kv *kv,
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

static int setting_cmp(const void *a, const void *b)
{
	return strcmp(((const struct setting *)a)->key,
		      ((const struct setting *)b)->key);
}

/* ---- jobs ------------------------------------------------------------ */

struct job {
	const struct section *sec;
	struct harness h;
	bool tip_said;		/* probes_tip()'s warning given */
	struct axis *ax;	/* [global]'s options first, then the job's */
	size_t nax;
	unsigned long long ncases;
};

/* Every job has a known workload; [global] has none. */
static int resolve_workloads(struct loader *ld, size_t *njobs)
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
static int set_twice(const struct loader *ld, const struct section *sec,
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
static int check_global(const struct loader *ld, const struct section *glob)
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
			if (set_twice(ld, glob, wl, kv) ||
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

static void job_free(struct job *j)
{
	free(j->h.set);
	for (size_t i = 0; i < j->nax; i++)
		axis_free(&j->ax[i]);
	free(j->ax);
}

static int add_axis(const struct loader *ld, struct job *j,
		    const struct opt_def *o, const struct kv *kv)
{
	j->ax = plan_grow(j->ax, j->nax, sizeof(*j->ax));
	if (sweep_expand(ld->path, kv, j->sec->wl, o, ld->ncpu,
			 &j->ax[j->nax]))
		return -1;
	j->nax++;
	return 0;
}

static int prepare_job(const struct loader *ld, const struct section *glob,
		       struct job *j)
{
	const struct workload *wl = j->sec->wl;
	const struct opt_def *o;

	/* harness keys: the job's own value, when set, replaces [global]'s */
	opts_defaults(harness_options, &j->h);
	for (size_t k = 0; glob && k < glob->nkv; k++)
		if (is_harness_key(glob->kv[k].key) &&
		    set_harness(ld, &glob->kv[k], &j->h))
			return -1;
	for (size_t k = 0; glob && k < glob->nkv; k++) {
		const struct kv *kv = &glob->kv[k];

		o = opt_find(wl->options, kv->key);
		if (o && !is_harness_key(kv->key) &&
		    !section_find(j->sec, wl, kv->key) &&
		    add_axis(ld, j, o, kv))
			return -1;
	}
	for (size_t k = 0; k < j->sec->nkv; k++) {
		const struct kv *kv = &j->sec->kv[k];
		char opts[512];

		if (!strcmp(kv->key, "workload"))
			continue;
		if (is_harness_key(kv->key)) {
			if (set_harness(ld, kv, &j->h))
				return -1;
			continue;
		}
		o = opt_find(wl->options, kv->key);
		if (!o) {
			char at[PATH_MAX + 32];

			options_list(wl, opts, sizeof(opts));
			return error("%s: '%s' is not an option of workload %s (options: %s)",
				     kv_where(ld->path, kv, at, sizeof(at)),
				     kv->key, wl->name, opts);
		}
		if (set_twice(ld, j->sec, wl, kv) || add_axis(ld, j, o, kv))
			return -1;
	}
	if (j->h.auto_iter && j->h.min_iter > j->h.max_iter)
		return error("%s: job %s: min_iterations (%u) is above max_iterations (%u)",
			     ld->path, j->sec->name, j->h.min_iter, j->h.max_iter);
	j->ncases = 1;
	for (size_t i = 0; i < j->nax; i++)
		j->ncases = j->ncases > ULLONG_MAX / j->ax[i].n ?
			    ULLONG_MAX : j->ncases * j->ax[i].n;
	return 0;
}

/* ---- cases ----------------------------------------------------------- */

/* The words of a and b paired as "a1=b1 a2=b2", into buf. */
static void zip(const char *a, const char *b, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	while (*a && n < len) {
		size_t la = strcspn(a, " "), lb = strcspn(b, " ");

		n += (size_t)snprintf(buf + n, len - n, "%s%.*s=%.*s",
				      n ? " " : "", (int)la, a, (int)lb, b);
		a += la + !!a[la];
		b += lb + !!b[lb];
	}
}

/* Every option as "name=value", in table order: what --dry-run shows. */
static char *params_of(const struct workload *wl, const void *cfg)
{
	size_t cap = 1, n = 0;
	char *s, v[VALUE_MAX];

	for (const struct opt_def *o = wl->options; o->name; o++)
		if (!o->set)
			cap += strlen(o->name) + 2 + VALUE_MAX;
	s = xmalloc(cap);
	s[0] = '\0';
	for (const struct opt_def *o = wl->options; o->name; o++) {
		if (o->set)
			continue;
		opt_format(o, cfg, v, sizeof(v));
		n += (size_t)snprintf(s + n, cap - n, "%s%s=%s", n ? " " : "",
				      o->name, v);
	}
	return s;
}

/*
 * Case idx of job j (its axes as digits, the last one fastest) into c.
 * The values are copied behind the config, in the same block, so that an
 * option that keeps a pointer to its text (OPT_STRING) stays valid for
 * as long as the config.
 */
static int fill_case(const struct loader *ld, struct job *j,
		     unsigned long long idx, struct plan_case *c)
{
	const struct workload *wl = j->sec->wl;
	size_t *pick = xcalloc(j->nax, sizeof(*pick));
	size_t base = (wl->cfg_size + 15) & ~(size_t)15;
	size_t text = 0, skeys = 1, svals = 1;
	char *at;
	int rc = 0;

	for (size_t i = j->nax; i-- > 0;) {
		const struct axis *ax = &j->ax[i];

		pick[i] = (size_t)(idx % ax->n);
		idx /= ax->n;
		text += strlen(ax->val[pick[i]]) + 1;
		if (ax->swept) {
			skeys += strlen(ax->o->name) + 1;
			svals += strlen(ax->val[pick[i]]) + 1;
		}
	}
	c->job = xstrdup(j->sec->name);
	c->wl = wl;
	c->cfg = xcalloc(1, base + text);
	c->sweep_keys = xcalloc(1, skeys);
	c->sweep = xcalloc(1, svals);
	opts_defaults(wl->options, c->cfg);
	at = (char *)c->cfg + base;
	for (size_t i = 0; i < j->nax && !rc; i++) {
		const struct axis *ax = &j->ax[i];
		const char *v = strcpy(at, ax->val[pick[i]]);

		at += strlen(v) + 1;
		/* checked while expanding: a failure here is a bug */
		if (opt_set(ax->o, c->cfg, v, ax->o->name)) {
			char at[PATH_MAX + 32];

			rc = error("%s: %s: '%s' is not valid after all",
				   kv_where(ld->path, ax->kv, at, sizeof(at)),
				   ax->o->name, v);
		}
		if (!ax->swept)
			continue;
		if (*c->sweep_keys) {
			strcat(c->sweep_keys, " ");
			strcat(c->sweep, " ");
		}
		strcat(c->sweep_keys, ax->o->name);
		strcat(c->sweep, v);
	}
	free(pick);
	c->params = identity_params(wl, c->cfg);
	c->auto_iter = j->h.auto_iter;
	c->min_iter = j->h.min_iter;
	c->max_iter = j->h.max_iter;
	c->budget_s = j->h.budget_s;
	c->iterations = c->auto_iter ? c->max_iter : j->h.iterations;
	c->warmup = j->h.warmup;
	c->timeout_s = j->h.timeout_s;
	c->estimate_s = j->h.estimate_s;
	c->retries = j->h.retries;
	c->probes = j->h.probes;
	if (!j->h.probes_given && wl->probes_tip) {
		const char *why = wl->probes_tip(c->cfg);

		if (why) {
			c->probes = PROBES_OFF;
			if (!j->tip_said)
				warning("%s: probes off: %s; probes = on records them anyway",
					c->job, why);
			j->tip_said = true;
		}
	}
	c->cpus = j->h.cpus[0] ? xstrdup(j->h.cpus) : NULL;
	{
		char err[256];

		/* both were checked as they were set */
		if (monitor_parse_list(j->h.monitors, &c->monitors, err, sizeof(err)) ||
		    monitor_parse_interval(j->h.monitor_interval, &c->monitor_ms,
					   err, sizeof(err)))
			rc = error("%s: monitors: %s", c->job, err);
		c->monitors_named = monitor_named(j->h.monitors);
	}
	c->monitor_cpus = j->h.monitor_cpus[0] ? xstrdup(j->h.monitor_cpus) : NULL;
	{
		bool on = false;
		char err[256];

		/* checked as it was set */
		trace_parse(j->h.trace, &on, err, sizeof(err));
		c->trace = on ? xstrdup(j->h.trace) : NULL;
		c->trace_scope = j->h.trace_scope;
		c->trace_dir = j->h.trace_dir ? xstrdup(j->h.trace_dir) : NULL;
		c->trace_tasks = xstrdup(j->h.trace_tasks);
	}
	c->nset = j->h.nset;
	c->set = xcalloc(c->nset + 1, sizeof(*c->set));
	for (size_t i = 0; i < c->nset; i++)
		c->set[i] = (struct setting){ xstrdup(j->h.set[i]->key),
					      xstrdup(j->h.set[i]->value) };
	qsort(c->set, c->nset, sizeof(*c->set), setting_cmp);
	task_settings_from(c->set, c->nset, &c->task);
	return rc;
}

/* ---- variants ------------------------------------------------------ */

#define VARIANT_PREFIX "variant:"
#define VARIANT_NAME_MAX 32

/* A variant's name: letters, digits, '_', '-', '.', '+'; not too long. */
bool plan_variant_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n > VARIANT_NAME_MAX)
		return false;
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_-.+", *c))
			return false;
	return true;
}

/*
 * The [variant:NAME] sections of ld's file into p->variants, taken out
 * of the file's sections (they are not jobs).
 */
static int take_variants(struct loader *ld, struct plan *p)
{
	size_t keep = 0;

	for (size_t i = 0; i < ld->jf.nsec; i++) {
		struct section *sec = &ld->jf.sec[i];
		const char *name = sec->name + strlen(VARIANT_PREFIX);
		struct plan_variant *v;

		if (strncmp(sec->name, VARIANT_PREFIX, strlen(VARIANT_PREFIX))) {
			ld->jf.sec[keep++] = *sec;
			continue;
		}
		if (!plan_variant_name_ok(name))
			return error("%s:%u: [%s]: '%s' is not a variant name (expected up to %d letters, digits, '_', '-', '.' or '+')",
				     ld->path, sec->line, sec->name, name,
				     VARIANT_NAME_MAX);
		p->variants = plan_grow(p->variants, p->nvariants,
					sizeof(*p->variants));
		v = &p->variants[p->nvariants++];
		*v = (struct plan_variant){ .name = xstrdup(name),
					    .line = sec->line };
		for (size_t k = 0; k < sec->nkv; k++) {
			const struct kv *kv = &sec->kv[k];
			char *t = xmalloc(strlen(kv->key) + strlen(kv->value) + 2);
			char at[PATH_MAX + 64];

			sprintf(t, "%s=%s", kv->key, kv->value);
			snprintf(at, sizeof(at), "%s:%u", ld->path, kv->line);
			plan_variant_add(v, t, at);
			free(t);
			free(kv->key);
			free(kv->value);
			free(kv->origin);
		}
		free(sec->kv);
		free(sec->name);
	}
	ld->jf.nsec = keep;
	return 0;
}

/* The number $ncpu stands for: SCHEDLAB_NCPU, or the online CPUs. */
static int online_cpus(unsigned *ncpu)
{
	const char *env = getenv("SCHEDLAB_NCPU");
	unsigned long long v;
	char *end;
	long n;

	if (env && *env) {
		errno = 0;
		v = strtoull(env, &end, 10);
		if (!isdigit((unsigned char)*env) || errno || *end || !v ||
		    v > CPUMASK_MAX_CPUS)
			return error("SCHEDLAB_NCPU: '%s' is not a CPU count (expected 1..%d)",
				     env, CPUMASK_MAX_CPUS);
		*ncpu = (unsigned)v;
		return 0;
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	*ncpu = n > 0 ? (unsigned)n : 1;
	return 0;
}

static int build(struct loader *ld, struct plan *p)
{
	const struct section *glob = jobfile_section(&ld->jf, "global");
	struct job *jobs;
	unsigned long long total = 0;
	size_t njobs, nj = 0, big = 0;
	int rc = -1;

	if (take_variants(ld, p) || resolve_workloads(ld, &njobs) ||
	    plan_apply_sets(ld->path, &ld->jf, ld->sets, ld->nsets) ||
	    check_global(ld, glob))
		return -1;
	jobs = xcalloc(njobs, sizeof(*jobs));
	for (size_t i = 0; i < ld->jf.nsec; i++) {
		if (ld->jf.sec[i].global)
			continue;
		jobs[nj].sec = &ld->jf.sec[i];
		if (prepare_job(ld, glob, &jobs[nj++]))
			goto out;
		if (jobs[nj - 1].ncases > jobs[big].ncases)
			big = nj - 1;
		total = total > ULLONG_MAX - jobs[nj - 1].ncases ? ULLONG_MAX :
			total + jobs[nj - 1].ncases;
	}
	if (total > PLAN_MAX_CASES) {
		error("%s: the plan would have %llu cases, more than %d (job [%s] has %llu)",
		      ld->path, total, PLAN_MAX_CASES, jobs[big].sec->name,
		      jobs[big].ncases);
		goto out;
	}
	p->cases = xcalloc(total, sizeof(*p->cases));
	for (size_t i = 0; i < nj; i++)
		for (unsigned long long k = 0; k < jobs[i].ncases; k++) {
			struct plan_case *c = &p->cases[p->ncases++];

			c->seq = (unsigned)p->ncases;
			if (fill_case(ld, &jobs[i], k, c))
				goto out;
		}
	rc = 0;
out:
	for (size_t i = 0; i < nj; i++)
		job_free(&jobs[i]);
	free(jobs);
	return rc;
}

/*
 * The plan of the job file WHERE (the name its messages use), read from
 * the file or, when text is not NULL, from text..text+len.
 */
static int load(const char *where, const char *source, const char *text,
		size_t len, const struct plan_set *sets, size_t nsets,
		struct plan *p)
{
	struct loader ld = { .path = where, .sets = sets, .nsets = nsets };
	const char *base = strrchr(where, '/');
	size_t n;
	int rc;

	memset(p, 0, sizeof(*p));
	p->source = xstrdup(source);
	p->name = xstrdup(base ? base + 1 : where);
	n = strlen(p->name);
	if (n > 4 && !strcmp(p->name + n - 4, ".job"))
		p->name[n - 4] = '\0';
	rc = online_cpus(&ld.ncpu);
	if (!rc)
		rc = text ? jobfile_parse(where, text, len, &ld.jf) :
			    jobfile_read(where, &ld.jf);
	if (!rc)
		rc = build(&ld, p);
	jobfile_free(&ld.jf);
	if (rc)
		plan_free(p);
	return rc;
}

int plan_load(const char *path, struct plan *p)
{
	return load(path, path, NULL, 0, NULL, 0, p);
}

/* --set strings as sets without an origin; free() it. */
static struct plan_set *as_sets(const char *const *sets, size_t n)
{
	struct plan_set *v = xcalloc(n + 1, sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i].text = sets[i];
	return v;
}

int plan_load_with(const char *path, const char *const *sets, size_t nsets,
		   struct plan *p)
{
	struct plan_set *v = as_sets(sets, nsets);
	int rc = load(path, path, NULL, 0, v, nsets, p);

	free(v);
	return rc;
}

int plan_load_text(const char *where, const char *source, const char *text,
		   size_t len, const char *const *sets, size_t nsets,
		   struct plan *p)
{
	struct plan_set *v = as_sets(sets, nsets);
	int rc = load(where, source, text, len, v, nsets, p);

	free(v);
	return rc;
}

int plan_load_file_sets(const char *path, const struct plan_set *sets,
			size_t nsets, struct plan *p)
{
	return load(path, path, NULL, 0, sets, nsets, p);
}

int plan_load_text_sets(const char *where, const char *source,
			const char *text, size_t len,
			const struct plan_set *sets, size_t nsets,
			struct plan *p)
{
	return load(where, source, text, len, sets, nsets, p);
}

void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->ncases; i++) {
		struct plan_case *c = &p->cases[i];

		free(c->job);
		free(c->cfg);
		free(c->params);
		free(c->sweep_keys);
		free(c->sweep);
		free(c->cpus);
		free(c->monitor_cpus);
		free(c->trace);
		free(c->trace_dir);
		free(c->trace_tasks);
		free(c->trace_root);
		for (size_t k = 0; k < c->nset; k++) {
			free(c->set[k].key);
			free(c->set[k].value);
		}
		free(c->set);
		task_settings_free(&c->task);
	}
	for (size_t i = 0; i < p->nvariants; i++)
		plan_variant_free(&p->variants[i]);
	free(p->variants);
	free(p->cases);
	free(p->source);
	free(p->name);
	memset(p, 0, sizeof(*p));
}

void plan_variant_free(struct plan_variant *v)
{
	for (size_t k = 0; k < v->nsets; k++) {
		free(v->sets[k]);
		free(v->origins[k]);
	}
	free(v->sets);
	free(v->origins);
	free(v->name);
	memset(v, 0, sizeof(*v));
}

void plan_variant_add(struct plan_variant *v, const char *set,
		      const char *origin)
{
	v->sets = xrealloc(v->sets, (v->nsets + 2) * sizeof(*v->sets));
	v->origins = xrealloc(v->origins, (v->nsets + 2) * sizeof(*v->origins));
	v->sets[v->nsets] = xstrdup(set);
	v->origins[v->nsets++] = xstrdup(origin);
}

/* ---- printing ------------------------------------------------------ */

void plan_print(FILE *f, const struct plan *p)
{
	unsigned long long iters = 0, least = 0, warm = 0;
	int wjob = 3, wwl = 8, wsw = 5;
	char sweep[512];

	for (size_t i = 0; i < p->ncases; i++) {
		const struct plan_case *c = &p->cases[i];
		int n;

		iters += c->iterations;
		least += c->auto_iter ? c->min_iter : c->iterations;
		warm += c->warmup;
		n = (int)strlen(c->job);
		wjob = n > wjob ? n : wjob;
		n = (int)strlen(c->wl->name);
		wwl = n > wwl ? n : wwl;
		zip(c->sweep_keys, c->sweep, sweep, sizeof(sweep));
		n = (int)strlen(sweep);
		wsw = n > wsw ? n : wsw;
	}
	if (least < iters)	/* adaptive: from the least to the most */
		fprintf(f, "# %s (%s): %zu case%s, %llu..%llu iterations + %llu warm-up\n",
			p->name, p->source, p->ncases, p->ncases == 1 ? "" : "s",
			least, iters, warm);
	else
		fprintf(f, "# %s (%s): %zu case%s, %llu iterations + %llu warm-up\n",
			p->name, p->source, p->ncases, p->ncases == 1 ? "" : "s",
			iters, warm);
	fprintf(f, "%5s  %-*s  %-*s  %-*s  %-9s  %s\n", "seq", wjob, "job",
		wwl, "workload", wsw, "sweep", "iter+warm", "params");
	for (size_t i = 0; i < p->ncases; i++) {
		const struct plan_case *c = &p->cases[i];
		char iw[32], *all = params_of(c->wl, c->cfg);

		zip(c->sweep_keys, c->sweep, sweep, sizeof(sweep));
		if (c->auto_iter)
			snprintf(iw, sizeof(iw), "%u..%u+%u", c->min_iter,
				 c->max_iter, c->warmup);
		else
			snprintf(iw, sizeof(iw), "%u+%u", c->iterations, c->warmup);
		fprintf(f, "%5u  %-*s  %-*s  %-*s  %-9s  %s", c->seq, wjob,
			c->job, wwl, c->wl->name, wsw, *sweep ? sweep : "-",
			iw, all);
		free(all);
		if (c->timeout_s)
			fprintf(f, " timeout=%us", c->timeout_s);
		if (c->auto_iter && c->budget_s)
			fprintf(f, " budget=%us", c->budget_s);
		if (c->retries)
			fprintf(f, " retries=%u", c->retries);
		if (c->probes != PROBES_ON)
			fprintf(f, " probes=%s", probe_level_names[c->probes]);
		if (c->monitors) {
			char list[256];

			monitor_list_format(c->monitors, list, sizeof(list));
			fprintf(f, " monitors=%s monitor_interval=%ums", list,
				c->monitor_ms);
		}
		if (c->monitor_cpus)
			fprintf(f, " monitor_cpus=%s", c->monitor_cpus);
		if (c->trace)
			fprintf(f, " trace=%s trace_scope=%s", c->trace,
				trace_scope_names[c->trace_scope]);
		if (c->cpus)
			fprintf(f, " cpus=%s", c->cpus);
		for (size_t k = 0; k < c->nset; k++)
			fprintf(f, " %s=%s", c->set[k].key, c->set[k].value);
		fputc('\n', f);
	}
}
