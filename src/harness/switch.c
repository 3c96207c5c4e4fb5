// SPDX-License-Identifier: GPL-2.0-only
/*
 * switch: the board of harness/switch.h - every knob of every plan
 * resolved to its file (harness/knob.h), checked, journalled
 * (harness/journal.h), tried once, then written and put back around
 * each iteration; the cgroups cgroup.c creates; a sched_ext scheduler
 * (harness/scx.h) started and stopped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/cgroup.h"
#include "harness/journal.h"
#include "harness/knob.h"
#include "harness/scx.h"
#include "harness/switch.h"
#include "util.h"

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

/* The boards not closed yet: what an exit() on a fatal path closes. */
static struct switchboard *open_boards;

static const char *plan_name(const char *const *names, size_t k, char *buf,
			     size_t len)
{
	if (names && names[k])
		snprintf(buf, len, "%s: ", names[k]);
	else
		buf[0] = '\0';
	return buf;
}

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

/*
 * Writes op's value once (unless an op before wrote it), reads it back
 * and puts the original back: 0, or -1 after error().
 */
static int try_value(struct knob *k, const struct op *op, const char *who)
{
	char got[KNOB_MAX], why[200], *now = NULL;
	size_t t = 0;

	while (t < k->ntried && strcmp(k->tried[t], op->value))
		t++;
	if (t < k->ntried)
		return 0;
	k->tried = xrealloc(k->tried, (k->ntried + 1) * sizeof(*k->tried));
	k->tried[k->ntried++] = xstrdup(op->value);
	k->dirty = true;
	if (knob_write(k->path, op->value)) {
		knob_write_refused(why, sizeof(why), k->path, errno);
		return error("%s%s=%s: %s", who, op->key, op->value, why);
	}
	if (knob_read(k->path, got, sizeof(got)) >= 0)
		now = knob_value(got, k->feature);
	if (now && strcmp(now, op->value))
		warning("%s%s=%s reads back as %s", who, op->key, op->value,
			now);
	free(now);
	if (knob_write(k->path, k->orig))
		return error("%s%s: cannot put back '%s' in %s: %s", who,
			     op->key, k->orig, k->path, strerror(errno));
	k->dirty = false;
	return 0;
}

/* Writes each knob's values once and puts the original back: 0 or -1. */
static int try_values(struct switchboard *sb, const char *const *names)
{
	char who[128];

	for (size_t p = 0; p < sb->nplans; p++) {
		plan_name(names, p, who, sizeof(who));
		for (size_t c = 0; c < sb->plans[p].n; c++) {
			const struct case_sw *cs = &sb->plans[p].cases[c];

			for (size_t o = 0; o < cs->nops; o++)
				if (try_value(&sb->knobs[cs->ops[o].knob],
					      &cs->ops[o], who))
					return -1;
		}
	}
	return 0;
}

int switch_apply(struct switchboard *sb, size_t p, size_t c, char *err,
		 size_t len)
{
	const struct case_sw *cs;
	uint64_t t0 = now_ns();
	char why[200];

	if (!sb)
		return 0;
	cs = &sb->plans[p].cases[c];
	sb->apply_ns = 0;
	for (size_t o = 0; o < cs->nops; o++) {
		struct knob *k = &sb->knobs[cs->ops[o].knob];

		k->dirty = true;
		if (knob_write(k->path, cs->ops[o].value)) {
			knob_write_refused(why, sizeof(why), k->path, errno);
			snprintf(err, len, "%s=%s: %s", cs->ops[o].key,
				 cs->ops[o].value, why);
			sb->apply_ns = now_ns() - t0;
			return -1;
		}
	}
	if (cs->scx && scx_start(&sb->scx, cs->scx, err, len)) {
		sb->apply_ns = now_ns() - t0;
		return -1;
	}
	sb->apply_ns = now_ns() - t0;
	return 0;
}

/* k's original back: 0, or -1 after a warning (once a knob). */
static int put_back(struct knob *k)
{
	if (!k->dirty)
		return 0;
	if (!knob_write(k->path, k->orig)) {
		k->dirty = false;
		return 0;
	}
	if (!k->warned)
		warning("%s: cannot put back '%s' in %s: %s", k->key, k->orig,
			k->path, strerror(errno));
	k->warned = true;
	return -1;
}

void switch_restore(struct switchboard *sb, size_t p, size_t c)
{
	const struct case_sw *cs;
	uint64_t t0 = now_ns();

	if (!sb)
		return;
	cs = &sb->plans[p].cases[c];
	scx_stop(&sb->scx);
	for (size_t o = cs->nops; o-- > 0;)
		put_back(&sb->knobs[cs->ops[o].knob]);
	sb->last_us = (double)(sb->apply_ns + (now_ns() - t0)) / 1e3;
}

double switch_last_us(const struct switchboard *sb)
{
	return sb ? sb->last_us : 0;
}

bool switch_keeps(pid_t pid)
{
	for (struct switchboard *sb = open_boards; sb; sb = sb->next)
		if (sb->scx.pid && sb->scx.pid == pid && sb->owner == getpid())
			return true;
	return false;
}

static void free_board(struct switchboard *sb)
{
	for (size_t i = 0; i < sb->nknobs; i++) {
		free(sb->knobs[i].key);
		free(sb->knobs[i].path);
		free(sb->knobs[i].feature);
		free(sb->knobs[i].orig);
		for (size_t t = 0; t < sb->knobs[i].ntried; t++)
			free(sb->knobs[i].tried[t]);
		free(sb->knobs[i].tried);
	}
	free(sb->knobs);
	for (size_t p = 0; p < sb->nplans; p++) {
		for (size_t c = 0; c < sb->plans[p].n; c++) {
			struct case_sw *cs = &sb->plans[p].cases[c];

			for (size_t o = 0; o < cs->nops; o++) {
				free(cs->ops[o].value);
				free(cs->ops[o].key);
			}
			free(cs->ops);
			split_blanks_free(cs->scx);
		}
		free(sb->plans[p].cases);
	}
	free(sb->plans);
	for (size_t i = 0; i < sb->ncgs; i++)
		cgroup_set_free(&sb->cgs[i]);
	free(sb->cgs);
	free(sb);
}

int switch_close(struct switchboard *sb)
{
	int bad = 0;

	if (!sb)
		return 0;
	if (sb->owner != getpid())
		return 0;	/* a forked child's copy: the parent's to close */
	scx_stop(&sb->scx);
	for (size_t i = sb->nknobs; i-- > 0;)
		if (put_back(&sb->knobs[i]))
			bad = 1;
	for (size_t i = 0; i < sb->created; i++)
		if (cgroup_remove(&sb->cgs[i]))
			bad = 1;
	if (bad && sb->jf.path)
		warning("the restore journal %s stays: the next schedlab puts back what it can",
			sb->jf.path);
	journal_close(&sb->jf, !bad);
	for (struct switchboard **b = &open_boards; *b; b = &(*b)->next)
		if (*b == sb) {
			*b = sb->next;
			break;
		}
	free_board(sb);
	return bad ? -1 : 0;
}

/* At exit (a fatal error's exit()): every board this process opened. */
static void close_open_boards(void)
{
	struct switchboard **b = &open_boards;

	while (*b) {
		if ((*b)->owner == getpid())
			switch_close(*b);	/* unlinks itself */
		else
			b = &(*b)->next;
	}
}

/* The journal of sb: every original and cgroup; 0, or -1 after error(). */
static int write_journal(struct switchboard *sb, const char *const *names)
{
	struct journal j = { 0 };
	char who[128];
	long other = 0;
	size_t item = 0;
	int rc;

	for (size_t i = 0; i < sb->nknobs; i++)
		journal_add(&j, sb->knobs[i].feature ? JOURNAL_FEATURE :
			    JOURNAL_FILE, sb->knobs[i].path, sb->knobs[i].orig);
	for (size_t i = 0; i < sb->ncgs; i++)
		for (size_t d = 0; d < sb->cgs[i].ndirs; d++)
			journal_add(&j, JOURNAL_CGROUP, sb->cgs[i].dirs[d], NULL);
	if (!j.n) {
		journal_free(&j);
		return 0;	/* scx alone: the kernel unloads it with its loader */
	}
	rc = journal_open(&j, &sb->jf, &other, &item);
	if (rc == 1) {
		/* the items are the knobs, in order, then the cgroups */
		bool knob = item < sb->nknobs;

		error("%s%s: schedlab pid %ld is switching %s too; run one at a time",
		      knob ? plan_name(names, sb->knobs[item].plan, who,
				       sizeof(who)) : "",
		      knob ? sb->knobs[item].key : "cgroup", other,
		      j.items[item].path);
	}
	journal_free(&j);
	return rc ? -1 : 0;
}

/* Each plan's knobs, scx and cgroups: 0 or -1; *any: whether it changes. */
static int resolve_plans(struct switchboard *sb, struct plan *plans, size_t n,
			 const char *const *names, bool *any)
{
	char who[128];

	sb->plans = xcalloc(n, sizeof(*sb->plans));
	sb->nplans = n;
	for (size_t p = 0; p < n; p++) {
		struct plan_sw *ps = &sb->plans[p];

		plan_name(names, p, who, sizeof(who));
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

/* The cgroups created, in the context of a plan that has each: 0 or -1. */
static int create_cgroups(struct switchboard *sb, const char *const *names)
{
	for (; sb->created < sb->ncgs; sb->created++) {
		const char *name = NULL;
		int rc;

		for (size_t p = 0; p < sb->nplans && !name; p++)
			for (size_t c = 0; c < sb->plans[p].n && !name; c++)
				if (sb->plans[p].cases[c].cg == sb->created + 1)
					name = names ? names[p] : NULL;
		if (name)
			error_context("%s", name);
		rc = cgroup_create(&sb->cgs[sb->created]);
		if (name)
			error_context(NULL);
		if (rc)
			return -1;
	}
	return 0;
}

/* Each case's task settings told the cgroup.procs files it joins. */
static void hand_cgroups(const struct switchboard *sb, struct plan *plans)
{
	for (size_t p = 0; p < sb->nplans; p++)
		for (size_t c = 0; c < sb->plans[p].n; c++) {
			struct task_settings *ts = &plans[p].cases[c].task;
			const struct cgroup_set *cg;

			if (!sb->plans[p].cases[c].cg)
				continue;
			cg = &sb->cgs[sb->plans[p].cases[c].cg - 1];
			ts->cgroup_procs = xcalloc(cg->ndirs, sizeof(char *));
			for (size_t d = 0; d < cg->ndirs; d++)
				ts->cgroup_procs[d] = xstrdup(cg->procs[d]);
			ts->ncgroup_procs = cg->ndirs;
		}
}

int switch_prepare(struct plan *plans, size_t n, const char *const *names,
		   struct switchboard **out)
{
	static bool registered;
	struct switchboard *sb = xcalloc(1, sizeof(*sb));
	bool any = false;

	*out = NULL;
	sb->owner = getpid();
	sb->scx = (struct scx)SCX_NONE;
	sb->jf.fd = -1;
	if (resolve_plans(sb, plans, n, names, &any))
		goto fail;
	if (!any && !sb->ncgs) {
		free_board(sb);
		return 0;
	}
	/* nothing changed yet: the journal first */
	if (write_journal(sb, names))
		goto fail;
	if (!registered) {
		atexit(close_open_boards);
		registered = true;
	}
	sb->next = open_boards;
	open_boards = sb;
	if (create_cgroups(sb, names) || try_values(sb, names)) {
		switch_close(sb);
		return -1;
	}
	hand_cgroups(sb, plans);
	*out = sb;
	return 0;
fail:
	free_board(sb);
	return -1;
}
