// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_set: `schedlab run --set KEY=VALUE` and `--set JOB.KEY=VALUE`,
 * applied to a job file once it is read and its jobs' workloads are
 * known, before anything is checked. Each one replaces the line it
 * overrides, or adds one, so that its value is checked and expanded
 * (sweeps too) exactly as the file's values are, and a mistake names
 * the --set it came from instead of FILE:LINE.
 *
 * A key of a job is a harness key or an option of its workload, by its
 * name or an alias. KEY=VALUE applies to every job that has KEY: where
 * the job sets it, there; else where [global] sets it, there (which
 * keeps the order of swept keys); else it is added to the job.
 * JOB.KEY=VALUE applies to job JOB alone. A KEY that no job has, and a
 * JOB that the file does not have, are mistakes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/plan.h"
#include "harness/plan_int.h"
#include "util.h"

static bool job_has(const struct section *sec, const char *key)
{
	return is_harness_key(key) || opt_find(sec->wl->options, key);
}

/*
 * The --set's value into sec: in place of the line for key, or added.
 * A KEY=VALUE put into a job names it, for messages: only some jobs'
 * workloads may refuse the value.
 */
static void put(struct section *sec, const struct workload *wl,
		const char *key, const char *value, const char *set, bool every)
{
	struct kv *kv = section_find(sec, wl, key);
	char origin[1024];

	if (every && !sec->global)
		snprintf(origin, sizeof(origin), "%s, in job [%s]", set,
			 sec->name);
	else
		snprintf(origin, sizeof(origin), "%s", set);
	if (!kv) {
		sec->kv = plan_grow(sec->kv, sec->nkv, sizeof(*sec->kv));
		kv = &sec->kv[sec->nkv++];
		*kv = (struct kv){ 0 };
	}
	free(kv->key);
	free(kv->value);
	free(kv->origin);
	kv->key = xstrdup(key);
	kv->value = xstrdup(value);
	kv->origin = xstrdup(origin);
}

/* "[a], [b]": the jobs of jf. */
static void jobs_list(const struct jobfile *jf, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < jf->nsec && n < len; i++)
		if (!jf->sec[i].global)
			n += (size_t)snprintf(buf + n, len - n, "%s[%s]",
					      n ? ", " : "", jf->sec[i].name);
}

/* "harness keys: ...; rr: test, pairs, ..." for the jobs' workloads. */
static void keys_list(const struct jobfile *jf, const struct section *only,
		      char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "harness keys: %s",
				    PLAN_HARNESS_KEYS);
	char opts[512];

	for (size_t i = 0; i < jf->nsec && n < len; i++) {
		const struct section *sec = &jf->sec[i];
		bool seen = false;

		if (sec->global || (only && sec != only))
			continue;
		for (size_t j = 0; j < i; j++)
			seen |= jf->sec[j].wl == sec->wl;
		if (seen)
			continue;
		options_list(sec->wl, opts, sizeof(opts));
		n += (size_t)snprintf(buf + n, len - n, "; %s: %s",
				      sec->wl->name, opts);
	}
}

/*
 * Where JOB.KEY splits: NULL for a KEY alone. A setting's key has dots
 * of its own (sysctl.kernel.x): the first dot whose left names a job
 * and whose right is a key splits; else, for a key that is a setting
 * as a whole, none; else the last dot.
 */
static char *job_dot(const struct jobfile *jf, char *lhs)
{
	for (char *d = strchr(lhs, '.'); d; d = strchr(d + 1, '.')) {
		const struct section *sec;

		*d = '\0';
		sec = jobfile_section(jf, lhs);
		*d = '.';
		if (sec && !sec->global && job_has(sec, d + 1))
			return d;
	}
	if (setting_kind(lhs) != SETTING_NONE)
		return NULL;
	return strrchr(lhs, '.');
}

static int apply_set(const char *path, struct jobfile *jf,
		     const struct plan_set *ps)
{
	const char *text = ps->text, *eq = strchr(text, '=');
	struct section *glob = jobfile_section(jf, "global"), *sec;
	char *lhs, *key, *dot, list[2048], *set;
	size_t used = 0;
	int rc = -1;

	if (ps->origin) {
		set = xmalloc(strlen(ps->origin) + strlen(text) + 3);
		sprintf(set, "%s", ps->origin);
	} else {
		set = xmalloc(strlen(text) + 7);
		sprintf(set, "--set %s", text);
	}
	if (!eq || eq == text) {
		error("%s: expected KEY=VALUE or JOB.KEY=VALUE", set);
		free(set);
		return -1;
	}
	lhs = xstrdup(text);
	lhs[eq - text] = '\0';
	plan_trim(lhs);
	dot = job_dot(jf, lhs);
	key = dot ? dot + 1 : lhs;
	if (dot)
		*dot = '\0';
	if (!*key || (dot && !*lhs)) {
		error("%s: expected KEY=VALUE or JOB.KEY=VALUE", set);
		goto out;
	}
	if (!strcmp(key, "workload")) {
		error("%s: a job's workload is not a key --set changes (it names the job's options)",
		      set);
		goto out;
	}
	if (dot) {
		sec = jobfile_section(jf, lhs);
		if (!sec || sec->global) {
			jobs_list(jf, list, sizeof(list));
			error("%s: %s has no job [%s] (jobs: %s)", set,
			      path, lhs, list);
			goto out;
		}
		if (!job_has(sec, key)) {
			keys_list(jf, sec, list, sizeof(list));
			error("%s: '%s' is not a key of job [%s] (%s)",
			      set, key, lhs, list);
			goto out;
		}
		put(sec, sec->wl, key, eq + 1, set, false);
		rc = 0;
		goto out;
	}
	for (size_t i = 0; i < jf->nsec; i++) {
		sec = &jf->sec[i];
		if (sec->global || !job_has(sec, key))
			continue;
		used++;
		if (!section_find(sec, sec->wl, key) &&
		    section_find(glob, sec->wl, key))
			put(glob, sec->wl, key, eq + 1, set, true);
		else
			put(sec, sec->wl, key, eq + 1, set, true);
	}
	if (!used) {
		keys_list(jf, NULL, list, sizeof(list));
		error("%s: '%s' is not a key of any job in %s (%s)", set,
		      key, path, list);
		goto out;
	}
	rc = 0;
out:
	free(lhs);
	free(set);
	return rc;
}

int plan_apply_sets(const char *path, struct jobfile *jf,
		    const struct plan_set *sets, size_t nsets)
{
	for (size_t i = 0; i < nsets; i++)
		if (apply_set(path, jf, &sets[i]))
			return -1;
	return 0;
}
