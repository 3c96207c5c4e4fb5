// SPDX-License-Identifier: GPL-2.0-only
/*
 * One case on every side, round by round: each side's warm-ups, then
 * rounds that run each side's iteration once in an order shuffled per
 * round (from the recorded seed), the knobs switched around each
 * iteration (harness/switch.h), an adaptive case looked at after each
 * round, a failure on one side ending the case for the others unless
 * the sides are ab's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec_int.h"
#include "harness/settings.h"
#include "harness/switch.h"
#include "stats/sequential.h"
#include "util.h"

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A random order of 0..n-1 into ord (Fisher-Yates). */
static void shuffle(size_t *ord, size_t n, uint64_t *rng)
{
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(splitmix(rng) % i), t = ord[i - 1];

		ord[i - 1] = ord[j];
		ord[j] = t;
	}
}

/*
 * Side k's knobs for case i before its iteration or warm-ups: 0, or
 * -1 with the iteration failed (r->reason says why) - r is set up as
 * a failed result when fresh.
 */
static int switch_on(struct switching *sw, size_t k, size_t i,
		     struct case_result *r, bool fresh,
		     const struct plan_case *c)
{
	char err[sizeof(r->reason)];

	if (!sw->sb || !switch_apply(sw->sb, k, i, err, sizeof(err)))
		return 0;
	switch_restore(sw->sb, k, i);
	if (fresh) {
		memset(r, 0, sizeof(*r));
		metric_cols_init(&r->cols, c->wl);
	}
	r->status = RUN_FAILED;
	snprintf(r->reason, sizeof(r->reason), "%s", err);
	return -1;
}

/* Whether c writes a knob or starts a scheduler around its iterations. */
static bool case_switches(const struct plan_case *c)
{
	for (size_t s = 0; s < c->nset; s++) {
		enum setting_kind k = setting_kind(c->set[s].key);

		if (k == SETTING_KNOB || k == SETTING_SCX)
			return true;
	}
	return false;
}

static void switch_off(struct switching *sw, size_t k, size_t i,
		       const struct plan_case *c)
{
	if (!sw->sb)
		return;
	switch_restore(sw->sb, k, i);
	if (!case_switches(c))
		return;
	sw->us = xrealloc(sw->us, (sw->n + 1) * sizeof(*sw->us));
	sw->us[sw->n++] = switch_last_us(sw->sb);
}

/*
 * One case's rounds. A side whose case fails is out of it (out[k]);
 * failed: the case is over for every side - at the first failure, or
 * with alone (ab's variants) once each side is out. An interruption
 * ends it for every side whatever alone says.
 */
struct rounds {
	struct exec *x;
	size_t i;		/* the case */
	bool alone;
	const struct case_result **rs;	/* [nplans] each side's result */
	size_t *ord;		/* [nplans] this round's order */
	bool *out;		/* [nplans] */
	size_t nout;
	uint64_t t0;
	unsigned n;		/* rounds done */
	bool failed, decided;
	char why[256], limit[64];
	int rc;
};

/* Side k is out of the case (interrupted: by a stop signal). */
static void side_out(struct rounds *r, size_t k, bool interrupted)
{
	r->out[k] = true;
	r->failed = !r->alone || ++r->nout == r->x->nplans || interrupted;
}

/* Each side's knobs and warm-ups, until a failure ends the case. */
static void rounds_begin(struct rounds *r)
{
	struct exec *x = r->x;

	for (size_t k = 0; k < x->nplans && !r->rc && !r->failed; k++) {
		struct side *s = &x->sd[k];
		const struct plan_case *c = &s->plan->cases[r->i];

		x->pr.side = s->name;
		s->have_res = true;
		r->rs[k] = &s->res;
		if (switch_on(&x->sw, k, r->i, &s->res, true, c)) {
			side_out(r, k, false);
			continue;
		}
		r->rc = runner_begin(c, &s->res, &x->rp);
		if (c->warmup)
			switch_off(&x->sw, k, r->i, c);
		else if (x->sw.sb)
			switch_restore(x->sw.sb, k, r->i);
		if (s->res.status != RUN_OK)
			side_out(r, k, s->res.status == RUN_INTERRUPTED);
	}
}

/* One round: an iteration of each side still in, in a shuffled order. */
static void rounds_step(struct rounds *r)
{
	struct exec *x = r->x;

	shuffle(r->ord, x->nplans, &x->rng);
	for (size_t o = 0; o < x->nplans && !r->rc && !r->failed; o++) {
		size_t k = r->ord[o];
		struct side *s = &x->sd[k];
		const struct plan_case *c = &s->plan->cases[r->i];

		if (r->out[k])
			continue;
		x->pr.side = s->name;
		if (switch_on(&x->sw, k, r->i, &s->res, false, c)) {
			side_out(r, k, false);
			continue;
		}
		r->rc = runner_step(c, &s->res, &x->rp);
		switch_off(&x->sw, k, r->i, c);
		if (r->rc > 0)
			side_out(r, k, s->res.status == RUN_INTERRUPTED);
		r->rc = r->rc < 0 ? -1 : 0;
	}
}

/*
 * After a round of an adaptive case: true when it is decided or its
 * budget is spent; the limit reached is noted.
 */
static bool rounds_enough(struct rounds *r, const struct plan_case *c0)
{
	const struct run_adapt *ad = r->x->ad;

	if (seq_is_look(r->n, c0->min_iter, c0->max_iter) &&
	    (r->decided = ad->enough(ad->arg, c0, r->rs, r->x->nplans,
				     r->why, sizeof(r->why))))
		return true;
	if (r->n >= c0->max_iter) {
		snprintf(r->limit, sizeof(r->limit), "max_iterations %u reached",
			 c0->max_iter);
	} else if (c0->budget_s &&
		   (double)(now_ns() - r->t0) / 1e9 >= c0->budget_s) {
		snprintf(r->limit, sizeof(r->limit), "budget %us spent",
			 c0->budget_s);
		return true;
	}
	return false;
}

/*
 * Every begun side's case ended; a side whose warm-up came after
 * another's failure is given a failed result (not run).
 */
static void rounds_end(struct rounds *r)
{
	struct exec *x = r->x;

	x->pr.side = NULL;
	for (size_t k = 0; k < x->nplans; k++)
		if (x->sd[k].have_res)
			runner_end(&x->sd[k].plan->cases[r->i], &x->sd[k].res);
	for (size_t k = 0; k < x->nplans; k++) {
		struct case_result *res = &x->sd[k].res;

		if (x->sd[k].have_res) {
			x->interrupted |= res->status == RUN_INTERRUPTED;
			continue;
		}
		memset(res, 0, sizeof(*res));
		metric_cols_init(&res->cols, x->sd[k].plan->cases[r->i].wl);
		res->status = RUN_FAILED;
		x->sd[k].have_res = true;
	}
}

/*
 * The case failed: without alone the sides are one experiment (judge's
 * run and its references), and a failure on one ends them all - each
 * side without a reason of its own is given the first side's.
 */
static void rounds_fail_all(struct rounds *r)
{
	struct side *sd = r->x->sd;
	size_t n = r->x->nplans, f = 0;

	while (f < n && (sd[f].res.status == RUN_OK || !*sd[f].res.reason))
		f++;
	for (size_t k = 0; k < n; k++) {
		struct case_result *res = &sd[k].res;

		if (res->status == RUN_OK || !*res->reason) {
			res->status = RUN_FAILED;
			snprintf(res->reason, sizeof(res->reason),
				 "stopped after %zu iteration%s: " RUN_EXEC_OTHER_FAILED " %s",
				 res->niter, res->niter == 1 ? "" : "s",
				 f < n && sd[f].name ? sd[f].name : "the run");
		}
	}
}

/* An adaptive case that ended well: its rule told why it stopped. */
static void rounds_done(struct rounds *r, const struct plan_case *c0)
{
	const struct run_adapt *ad = r->x->ad;
	char full[384];

	if (r->rc || r->failed || r->x->interrupted || !c0->auto_iter ||
	    !ad->done)
		return;
	if (r->decided)
		snprintf(full, sizeof(full), "%s", r->why);
	else
		snprintf(full, sizeof(full), "%s; %s", *r->limit ? r->limit :
			 "stopped", *r->why ? r->why : "no look was reached");
	if (r->x->pr.on)
		fputs("\r\033[K", stderr);
	ad->done(ad->arg, c0, r->n, r->decided, full);
}

int exec_rounds(struct exec *x, size_t i)
{
	const struct plan_case *c0 = &x->sd[0].plan->cases[i];
	struct rounds r = { .x = x, .i = i, .alone = x->rq->ab,
			    .t0 = now_ns() };

	r.rs = xcalloc(x->nplans, sizeof(*r.rs));
	r.ord = xcalloc(x->nplans, sizeof(*r.ord));
	r.out = xcalloc(x->nplans, sizeof(*r.out));
	rounds_begin(&r);
	while (!r.rc && !r.failed && r.n < c0->iterations) {
		rounds_step(&r);
		if (r.rc || r.failed)
			break;
		r.n++;
		if (c0->auto_iter && rounds_enough(&r, c0))
			break;
	}
	rounds_end(&r);
	if (r.failed)
		rounds_fail_all(&r);
	rounds_done(&r, c0);
	free(r.rs);
	free(r.ord);
	free(r.out);
	return r.rc;
}

void exec_free_results(struct side *sd, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (sd[k].have_res) {
			case_result_free(&sd[k].res);
			sd[k].have_res = false;
		}
}
