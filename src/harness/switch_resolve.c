// SPDX-License-Identifier: GPL-2.0-only
/*
 * switch_resolve: the board's plans resolved - each case's knob
 * settings to their files (harness/knob.h, each new file's original
 * read), its sched_ext scheduler checked, and the cgroup sets planned,
 * one per distinct list of cgroup settings in a plan.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/cgroup.h"
#include "harness/knob.h"
#include "harness/scx.h"
#include "harness/switch_int.h"
#include "util.h"

static size_t find_knob(struct switchboard *sb, const char *path,
			const char *feat)
{
	for (size_t i = 0; i < sb->nknobs; i++)
		if (!strcmp(sb->knobs[i].path, path) &&
		    !strcmp(sb->knobs[i].feature ? sb->knobs[i].feature : "",
			    feat ? feat : ""))
			return i;
	return SIZE_MAX;
}

/* The knob of path (and feature), new ones checked: its index or -1. */
static ssize_t knob_of(struct switchboard *sb, size_t plan, const char *who,
		       const char *key, const char *path, const char *feat)
{
	size_t i = find_knob(sb, path, feat);
	struct knob k = { .plan = plan };

	if (i != SIZE_MAX)
		return (ssize_t)i;
	if (knob_original(who, key, path, feat, &k.orig))
		return -1;
	k.key = xstrdup(key);
	k.path = xstrdup(path);
	k.feature = feat ? xstrdup(feat) : NULL;
	sb->knobs = xrealloc(sb->knobs, (sb->nknobs + 1) * sizeof(*sb->knobs));
	sb->knobs[sb->nknobs] = k;
	return (ssize_t)sb->nknobs++;
}

static void add_op(struct case_sw *cs, size_t knob, const char *value,
		   const char *key)
{
	cs->ops = xrealloc(cs->ops, (cs->nops + 1) * sizeof(*cs->ops));
	cs->ops[cs->nops++] = (struct op){ knob, xstrdup(value), xstrdup(key) };
}

/* The knobs key=value sets into cs: 0 or -1. */
static int resolve_knob(struct switchboard *sb, size_t p, const char *who,
			const char *key, const char *value, struct case_sw *cs)
{
	struct knob_target *t;
	size_t n;
	int rc = 0;

	if (knob_resolve(who, key, value, &t, &n))
		return -1;
	for (size_t i = 0; i < n && !rc; i++) {
		ssize_t k = knob_of(sb, p, who, key, t[i].path, t[i].feature);

		if (k < 0)
			rc = -1;
		else
			add_op(cs, (size_t)k, t[i].value, key);
	}
	knob_targets_free(t, n);
	return rc;
}

/* The knob and scx settings of case c of plan p into cs: 0 or -1. */
static int resolve_case(struct switchboard *sb, size_t p, const char *who,
			const struct plan_case *c, struct case_sw *cs)
{
	for (size_t s = 0; s < c->nset; s++) {
		const char *key = c->set[s].key, *value = c->set[s].value;
		enum setting_kind kind = setting_kind(key);

		if (kind == SETTING_SCX && !cs->scx &&
		    scx_check(who, value, &cs->scx))
			return -1;
		if (kind == SETTING_KNOB &&
		    resolve_knob(sb, p, who, key, value, cs))
			return -1;
	}
	return 0;
}

/* The cgroup.* settings of c: a run of them, the settings being sorted. */
static const struct setting *cgroup_settings(const struct plan_case *c,
					     size_t *n)
{
	size_t first = 0;

	while (first < c->nset &&
	       setting_kind(c->set[first].key) != SETTING_CGROUP)
		first++;
	*n = 0;
	while (first + *n < c->nset &&
	       setting_kind(c->set[first + *n].key) == SETTING_CGROUP)
		(*n)++;
	return *n ? &c->set[first] : NULL;
}

static bool same_settings(const struct setting *a, size_t na,
			  const struct setting *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i].key, b[i].key) || strcmp(a[i].value, b[i].value))
			return false;
	return true;
}

/*
 * The cgroup sets of plan p: one per distinct list of cgroup settings,
 * each case's cs->cg pointing at its own. 0 or -1.
 */
static int plan_cgroups(struct switchboard *sb, const struct plan *plan,
			struct plan_sw *ps, const char *name)
{
	for (size_t i = 0; i < plan->ncases; i++) {
		const struct setting *set = NULL;
		size_t n, j;
		char dir[64];
		int rc;

		set = cgroup_settings(&plan->cases[i], &n);
		if (!n)
			continue;
		for (j = 0; j < i; j++) {
			const struct setting *o;
			size_t on;

			o = cgroup_settings(&plan->cases[j], &on);
			if (on && same_settings(set, n, o, on))
				break;
		}
		if (j < i) {
			ps->cases[i].cg = ps->cases[j].cg;
			continue;
		}
		snprintf(dir, sizeof(dir), "schedlab-%ld-%zu", (long)getpid(),
			 sb->ncgs + 1);
		sb->cgs = xrealloc(sb->cgs, (sb->ncgs + 1) * sizeof(*sb->cgs));
		memset(&sb->cgs[sb->ncgs], 0, sizeof(*sb->cgs));
		if (name)
			error_context("%s", name);
		rc = cgroup_plan(set, n, dir, &sb->cgs[sb->ncgs]);
		if (name)
			error_context(NULL);
		if (rc) {
			cgroup_set_free(&sb->cgs[sb->ncgs]);
			return -1;
		}
		ps->cases[i].cg = ++sb->ncgs;
	}
	return 0;
}

int switch_resolve(struct switchboard *sb, struct plan *plans, size_t n,
		   const char *const *names, bool *any)
{
	char who[128];

	sb->plans = xcalloc(n, sizeof(*sb->plans));
	sb->nplans = n;
	for (size_t p = 0; p < n; p++) {
		struct plan_sw *ps = &sb->plans[p];

		switch_plan_name(names, p, who, sizeof(who));
		ps->cases = xcalloc(plans[p].ncases, sizeof(*ps->cases));
		ps->n = plans[p].ncases;
		for (size_t c = 0; c < ps->n; c++) {
			if (resolve_case(sb, p, who, &plans[p].cases[c],
					 &ps->cases[c]))
				return -1;
			*any |= ps->cases[c].nops || ps->cases[c].scx;
		}
		if (plan_cgroups(sb, &plans[p], ps, names ? names[p] : NULL))
			return -1;
	}
	return 0;
}

/* "NAME: " of plan k into buf, or "" without names. */
const char *switch_plan_name(const char *const *names, size_t k, char *buf,
			     size_t len)
{
	if (names && names[k])
		snprintf(buf, len, "%s: ", names[k]);
	else
		buf[0] = '\0';
	return buf;
}
