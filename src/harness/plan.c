// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan: a job file checked and expanded into cases (see plan.h).
 *
 * plan_file.c reads the file into sections of key = value lines; here
 * every job gets its workload, every key is checked against the harness
 * keys (plan_keys.c) and the option table of the job's workload, and
 * every value is expanded by plan_sweep.c through opt_set(), so that a
 * mistake reads as it would on the command line, prefixed with
 * FILE:LINE. All jobs are checked and counted before any case is made.
 *
 * Printing a plan is plan_print.c's; finding and listing suites is
 * suites.c's.
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


/* ---- jobs ------------------------------------------------------------ */

struct job {
	const struct section *sec;
	struct harness h;
	bool tip_said;		/* probes_tip()'s warning given */
	struct axis *ax;	/* [global]'s options first, then the job's */
	size_t nax;
	unsigned long long ncases;
};

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
	plan_harness_defaults(&j->h);
	for (size_t k = 0; glob && k < glob->nkv; k++)
		if (is_harness_key(glob->kv[k].key) &&
		    plan_set_harness(ld, &glob->kv[k], &j->h))
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
			if (plan_set_harness(ld, kv, &j->h))
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
		if (plan_set_twice(ld, j->sec, wl, kv) || add_axis(ld, j, o, kv))
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

/* The case's values from its index in the job's axes (the last axis
 * turns fastest): its options set on c->cfg (their texts after it), the
 * swept ones in c->sweep_keys and c->sweep. 0, or -1 after error(). */
static int case_values(const struct loader *ld, const struct job *j,
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
	return rc;
}

/* The job's harness keys copied to the case: iterations, timeouts,
 * retries, and probes - off, once told, when the workload's tip says so
 * and the job did not set them. */
static void case_harness(struct job *j, struct plan_case *c)
{
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
	if (!j->h.probes_given && c->wl->probes_tip) {
		const char *why = c->wl->probes_tip(c->cfg);

		if (why) {
			c->probes = PROBES_OFF;
			if (!j->tip_said)
				warning("%s: probes off: %s; probes = on records them anyway",
					c->job, why);
			j->tip_said = true;
		}
	}
}

/* The job's CPUs, monitors and trace copied to the case. 0, or -1 after
 * error(). */
static int case_watch(const struct job *j, struct plan_case *c)
{
	bool on = false;
	char err[256];
	int rc = 0;

	c->cpus = j->h.cpus[0] ? xstrdup(j->h.cpus) : NULL;
	/* both were checked as they were set */
	if (monitor_parse_list(j->h.monitors, &c->monitors, err, sizeof(err)) ||
	    monitor_parse_interval(j->h.monitor_interval, &c->monitor_ms,
				   err, sizeof(err)))
		rc = error("%s: monitors: %s", c->job, err);
	c->monitors_named = monitor_named(j->h.monitors);
	c->monitor_cpus = j->h.monitor_cpus[0] ? xstrdup(j->h.monitor_cpus) : NULL;
	/* checked as it was set */
	trace_parse(j->h.trace, &on, err, sizeof(err));
	c->trace = on ? xstrdup(j->h.trace) : NULL;
	c->trace_scope = j->h.trace_scope;
	c->trace_dir = j->h.trace_dir ? xstrdup(j->h.trace_dir) : NULL;
	c->trace_tasks = xstrdup(j->h.trace_tasks);
	return rc;
}

/* The job's settings copied to the case, sorted, and the task's own
 * settings taken from them. */
static void case_settings(const struct job *j, struct plan_case *c)
{
	c->nset = j->h.nset;
	c->set = xcalloc(c->nset + 1, sizeof(*c->set));
	for (size_t i = 0; i < c->nset; i++)
		c->set[i] = (struct setting){ xstrdup(j->h.set[i]->key),
					      xstrdup(j->h.set[i]->value) };
	qsort(c->set, c->nset, sizeof(*c->set), plan_setting_cmp);
	task_settings_from(c->set, c->nset, &c->task);
}

/* Case number idx of job j. 0, or -1 after error(). */
static int fill_case(const struct loader *ld, struct job *j,
		     unsigned long long idx, struct plan_case *c)
{
	int rc = case_values(ld, j, idx, c);

	c->params = identity_params(c->wl, c->cfg);
	case_harness(j, c);
	if (case_watch(j, c))
		rc = -1;
	case_settings(j, c);
	return rc;
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

	if (plan_take_variants(ld, p) || plan_resolve_workloads(ld, &njobs) ||
	    plan_apply_sets(ld->path, &ld->jf, ld->sets, ld->nsets) ||
	    plan_check_global(ld, glob))
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
