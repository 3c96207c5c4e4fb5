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
#include "harness/switch_int.h"
#include "util.h"

/* The boards not closed yet: what an exit() on a fatal path closes. */
static struct switchboard *open_boards;

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
		switch_plan_name(names, p, who, sizeof(who));
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
		      knob ? switch_plan_name(names, sb->knobs[item].plan,
					      who, sizeof(who)) : "",
		      knob ? sb->knobs[item].key : "cgroup", other,
		      j.items[item].path);
	}
	journal_free(&j);
	return rc ? -1 : 0;
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
	if (switch_resolve(sb, plans, n, names, &any))
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
