// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/decide.c: an A/B campaign's decision after each round - the
 * runs of each state as one side of `compare A+B C+D`, the run the unit
 * (report/render_compare.h, stats/noise.h), never a test of its own -
 * and what follows it: the campaign finished, or the next boot hooked.
 * The runs already loaded are kept (struct camp_known) so that a look
 * loads only the boots done since the last.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "compare/session.h"
#include "model/run.h"
#include "report/render_compare.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"


/* The decision's words for candidate i: each headline case's result. */
static void verdict_text(const struct comparison *cmp, size_t i, char **out)
{
	for (size_t j = 0; j < cmp->njobs; j++) {
		const struct cmp_job *cj = &cmp->jobs[j];

		if (!cj->metric.headline)
			continue;
		for (size_t k = 0; k < cj->ncases; k++) {
			const struct cmp_cell *cell = &cj->cases[k].cell[i];
			char *old = *out;

			if (!cell->present || !cell->ok)
				continue;
			*out = xasprintf("%s%s %s%s%s: %s, %+.1f%% (%u and %u runs): %s\n",
					 old ? old : "", cmp->runs[i].name, cj->job,
					 *cj->cases[k].sweep ? " " : "",
					 cj->cases[k].sweep,
					 verdict_names[cell->r.verdict], cell->r.change,
					 cell->r.runs_a, cell->r.runs_b, cell->r.why);
			free(old);
		}
	}
}

void campaign_run_source(struct run_source *src, struct store *st)
{
	run_source_init(src, NULL);
	run_source_adopt(src, st);	/* borrowed: never closed through src */
}

/* Loads the runs of the boots done since the last look, and merges each
 * into its state's. -1 after error(); what was known is then dropped,
 * so that the next look starts again from the store. */
static int known_update(struct campaign *c, struct store *st)
{
	struct camp_known *kn = c->known;
	const char **specs = xcalloc(c->nboots + 1, sizeof(*specs));
	size_t *boot = xcalloc(c->nboots + 1, sizeof(*boot)), n = 0;
	struct run *runs = NULL;
	struct run_source src;
	int rc = -1;

	if (!kn)
		kn = c->known = xcalloc(1, sizeof(*kn));
	kn->merged = xrealloc(kn->merged, (c->nboots + 1) * sizeof(*kn->merged));
	for (size_t k = kn->nboots; k < c->nboots; k++)
		kn->merged[k] = false;
	kn->nboots = c->nboots;
	for (size_t k = 0; k < c->nboots; k++)
		if (c->boots[k].phase == PH_DONE && !kn->merged[k]) {
			boot[n] = k;
			specs[n++] = c->boots[k].uuid;
		}
	runs = xcalloc(n + 1, sizeof(*runs));
	campaign_run_source(&src, st);	/* the caller's handle, kept open */
	if (n && run_source_load_many(&src, specs, n, runs))
		goto out;
	for (size_t i = 0; i < n; i++) {
		unsigned s = c->boots[boot[i]].state;

		if (kn->have[s]) {
			run_merge(&kn->runs[s], &runs[i]);
			run_free(&runs[i]);
		} else {
			kn->runs[s] = runs[i];
			kn->have[s] = true;
		}
		kn->merged[boot[i]] = true;
	}
	rc = 0;
out:
	if (rc)
		campaign_known_free(c);
	free(runs);
	free(boot);
	free(specs);
	return rc;
}

/* The runs of each state, compared with the first state's. */
static int compare_states(struct campaign *c, struct store *st, unsigned looks,
			  enum verdict *v)
{
	double alpha = CAMPAIGN_ALPHA / looks;
	const char *names[CAMPAIGN_MAX_STATES];
	const struct run *rp[CAMPAIGN_MAX_STATES];
	struct cmp_opts co = compare_opts_default(TEST_DEFAULT);
	struct comparison cmp;
	char *text = NULL;

	co.alpha = alpha;
	co.threshold = c->threshold;
	if (known_update(c, st))
		return -1;
	for (size_t s = 0; s < c->nstates; s++) {
		names[s] = c->states[s].name;
		rp[s] = &c->known->runs[s];
	}
	/* the host's noise model through the same handle */
	if (compare_build(rp, names, c->nstates, &co, false, st, &cmp))
		return -1;
	for (size_t s = 1; s < c->nstates; s++) {
		v[s] = cmp.verdict[s];
		verdict_text(&cmp, s, &text);
	}
	compare_free(&cmp);
	free(c->verdict);
	if (text && looks > 1) {
		/* why `compare` of the same runs says more: it looks once */
		c->verdict = xasprintf("%s  (the campaign looks at its runs up to %u times, each at p < %.4f - its %.0f%% false-alarm rate shared among the looks - so its interval and what it could show are wider than `compare` of the same runs says, which looks once at %.0f%%)\n",
				       text, looks, alpha, 100 * CAMPAIGN_ALPHA,
				       100 * CAMPAIGN_ALPHA);
		free(text);
	} else {
		c->verdict = text ? text : xstrdup("nothing to compare\n");
	}
	return 0;
}

unsigned campaign_looks(const struct campaign *c)
{
	unsigned looks = c->max_boots / (unsigned)c->nstates;

	/* rounds 2..max_boots/states, and one at the end of a partial last
	 * round */
	return (looks > 1 ? looks - 1 : 1) + (c->max_boots % c->nstates != 0);
}

int campaign_decide(struct campaign *c, struct store *st, bool *done)
{
	size_t count[CAMPAIGN_MAX_STATES] = { 0 }, lo = SIZE_MAX, hi = 0;
	unsigned looks = campaign_looks(c);
	enum verdict v[CAMPAIGN_MAX_STATES];
	bool spent = c->nboots >= c->max_boots, decided = true, change = false;

	*done = false;
	for (size_t k = 0; k < c->nboots; k++)
		if (c->boots[k].phase == PH_DONE)
			count[c->boots[k].state]++;
	for (size_t s = 0; s < c->nstates; s++) {
		lo = count[s] < lo ? count[s] : lo;
		hi = count[s] > hi ? count[s] : hi;
	}
	if (!spent && (lo != hi || lo < 2))
		return 0;
	if (lo < 1) {
		free(c->verdict);
		c->verdict = xstrdup("a state was never measured: nothing to compare\n");
		*done = true;
		c->code = 125;
		return 0;
	}
	if (compare_states(c, st, looks, v))
		return -1;
	for (size_t s = 1; s < c->nstates; s++) {
		decided &= v[s] != V_INCONCLUSIVE;
		change |= v[s] == V_REGRESSED || v[s] == V_IMPROVED;
	}
	if (decided || spent) {
		*done = true;
		c->code = change ? 1 : decided ? 0 : 125;
	}
	return 0;
}

int campaign_ab_next(struct campaign *c, struct store *st, const char *db)
{
	bool done;

	if (campaign_decide(c, st, &done))
		return 2;
	if (done) {
		free(c->status);
		c->status = xstrdup("finished");
		if (campaign_save(st, c, false))
			return 2;
		printf("campaign %s: finished after %zu boots:\n%s", c->name,
		       c->nboots, c->verdict);
		return 0;
	}
	return campaign_boot_state(c, st, db, campaign_state_of(c, c->nboots));
}
