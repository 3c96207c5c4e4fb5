// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/bisect.c: a kernel bisect driven from the boot entry point.
 * After each boot measured, the next is chosen from the stored state
 * alone - a reference until both have their boots and differ, else the
 * step's candidate until a look calls it - so that a resume killed
 * anywhere chooses the same. A call is written (marking) before `git
 * bisect good|bad|skip` runs and recognised in git bisect log when a
 * resume finds it half done: git is told each step once. Then the
 * commit git checked out is built (the build command, in the
 * repository) and booted (the hook).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "campaign/bisect.h"
#include "campaign/bisect_git.h"
#include "stats/cdf.h"
#include "store/store.h"
#include "util.h"

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The state of commit hash, added when new. */
static unsigned state_of_commit(struct campaign *c, const char *hash)
{
	struct camp_state *s;

	for (size_t i = 0; i < c->nstates; i++)
		if (c->states[i].commit && !strcmp(c->states[i].commit, hash))
			return (unsigned)i;
	c->states = xrealloc(c->states, (c->nstates + 1) * sizeof(*c->states));
	s = &c->states[c->nstates];
	memset(s, 0, sizeof(*s));
	s->name = xasprintf("%.12s", hash);
	s->commit = xstrdup(hash);
	s->check = c->states[0].check ? xstrdup(c->states[0].check) : NULL;
	return (unsigned)c->nstates++;
}

/* The bisect ended: first bad commit hash (NULL: only skipped left). */
static int finish(struct campaign *c, struct store *st, const char *hash,
		  const char *words)
{
	struct camp_bisect *b = c->bisect;

	free(c->status);
	c->status = xstrdup("finished");
	c->code = hash ? 0 : 125;
	b->first_bad = hash ? xstrdup(hash) : NULL;
	b->end = xstrdup(words);
	b->ended_at = wall_now();
	free(c->verdict);
	c->verdict = hash ? xasprintf("first bad commit: %s\n", hash) :
		     xasprintf("no single first bad commit: %s\n", words);
	if (campaign_save(st, c, false))
		return 2;
	printf("campaign %s: bisect ended after %zu steps and %zu boots: %s",
	       c->name, b->nsteps, c->nboots, c->verdict);
	return 0;
}

/* Stops the campaign on git's failure, its words kept. */
static int git_failed(struct campaign *c, struct store *st, const char *what,
		      int rc, const char *out)
{
	char *why = xasprintf("%s exited %d: %.300s", what, rc, out ? out : "");
	int ret;

	for (char *p = why; *p; p++)
		if (*p == '\n')
			*p = ' ';
	ret = campaign_stop(c, st, "failed", 1, why);
	free(why);
	return ret;
}

/* git bisect next's "(roughly N steps)": the steps after this one. */
static unsigned steps_left(const char *out)
{
	const char *r = out ? strstr(out, "(roughly ") : NULL;

	return r ? (unsigned)strtoul(r + 9, NULL, 10) : 0;
}

static unsigned clamp_u(unsigned v, unsigned lo, unsigned hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* A step's most rounds, where it plans `plan`: the user's, else
 * bisect_step_limit()'s. */
static unsigned step_most(const struct camp_bisect *b, unsigned plan)
{
	return b->max_step_opt ? b->max_step_opt : bisect_step_limit(plan);
}

/* The gate's most rounds, where a distance of the threshold takes
 * `plan`: the user's, else twice the plan. */
static unsigned gate_most(const struct camp_bisect *b, unsigned plan)
{
	return b->max_refs_opt ? b->max_refs_opt :
	       clamp_u(2 * plan, BISECT_GATE_MIN, BISECT_MAX_REFS);
}

/*
 * Without --max-boots, the campaign's most boots are the most the plan
 * allows from here: the boots made, `rounds` more rounds of 3 for what
 * is measuring now, and each step git has left at its most rounds,
 * `most`. A step that reaches its most is skipped, so the bisection
 * ends within them unless git takes more steps than it said; each new
 * step plans again.
 */
static void budget(struct campaign *c, unsigned rounds, unsigned most)
{
	struct camp_bisect *b = c->bisect;

	if (!b->max_boots_opt)
		c->max_boots = (unsigned)c->nboots + 3 * (rounds + b->steps_left * most);
}

/*
 * Where git bisect stands now: ended (first bad commit named, or only
 * skipped commits left: 0 and *ended), or a new step for the commit it
 * checked out. `git bisect next` is asked (it checks out the same
 * candidate again), so that a resume that finds the mark done reads the
 * same as the one that made it. 2 or 1 on failure.
 */
static int outcome(struct campaign *c, struct store *st, bool *ended)
{
	struct camp_bisect *b = c->bisect;
	const char *next[] = { "bisect", "next", NULL };
	char hash[41], *out = NULL;
	struct camp_step *p;
	int rc = git_first_bad(b->repo, hash);

	*ended = rc != 0;
	if (rc < 0)
		return campaign_stop(c, st, "failed", 1, "git bisect log failed: the repository's bisect was reset or lost");
	if (rc)
		return finish(c, st, hash, hash);
	rc = git_out(b->repo, &out, next);
	if (out && strstr(out, "only 'skip'ped commits left")) {
		*ended = true;
		rc = finish(c, st, NULL, out);
	} else if (rc || git_head(b->repo, hash)) {
		*ended = true;
		rc = git_failed(c, st, "git bisect next", rc, out);
	} else {
		b->steps = xrealloc(b->steps, (b->nsteps + 1) * sizeof(*b->steps));
		p = &b->steps[b->nsteps++];
		memset(p, 0, sizeof(*p));
		p->state = state_of_commit(c, hash);
		p->from = (unsigned)c->nboots;
		b->steps_left = steps_left(out);
		if (b->gated)
			budget(c, b->max_step, b->max_step);
		rc = campaign_save(st, c, false) ? 2 : 0;
		printf("campaign %s: step %zu: commit %s (git: roughly %u steps after it)\n",
		       c->name, b->nsteps, hash, b->steps_left);
	}
	free(out);
	return rc;
}

/* Beforehand: the boots the bisection should take, from this host's
 * noise model of the job where there is one, and the most it may. */
static void say_plan(struct campaign *c, struct store *st)
{
	const struct camp_bisect *b = c->bisect;
	unsigned steps = b->steps_left + 1, g, r, total;
	double s = campaign_job_noise(st, c);
	char most[80] = "";

	if (!(s > 0)) {
		if (!b->max_boots_opt)
			snprintf(most, sizeof(most), "; at most %u boots until then",
				 c->max_boots);
		printf("campaign %s: about %u steps; each boots its commit, good and bad in rounds until a sequential test calls it, the rounds planned from the noise the first rounds measure (this host has no noise model of the job to plan by beforehand: 'schedlab calibrate JOB')%s\n",
		       c->name, steps, most);
		return;
	}
	total = bisect_predict(s, c->threshold, steps, &g, &r);
	budget(c, gate_most(b, g) + step_most(b, r), step_most(b, r));
	printf("campaign %s: about %u steps; at this host's noise (%.1f%% between runs) a %g%% distance needs about %u rounds of 3 boots to tell good from bad and about %u a step: about %u boots in all, at most %u\n",
	       c->name, steps, 100 * s, c->threshold, g, r, total, c->max_boots);
}

int bisect_begin(struct campaign *c, struct store *st, const char *db)
{
	struct camp_bisect *b = c->bisect;
	const char *log[] = { "bisect", "log", NULL };
	const char *start[] = { "bisect", "start", c->states[1].commit,
				c->states[0].commit, NULL };
	char *out = NULL;
	bool ended;
	int rc;

	if (!b->started) {
		/* a start killed after git's: its bisect is this one */
		if (git_quiet(b->repo, log)) {
			rc = git_out(b->repo, &out, start);
			if (rc) {
				rc = git_failed(c, st, "git bisect start", rc, out);
				free(out);
				return rc;
			}
			free(out);
		}
		b->started = true;
		b->started_at = wall_now();
		if (campaign_save(st, c, false))
			return 2;
		rc = outcome(c, st, &ended);
		if (rc || ended)
			return rc;
		say_plan(c, st);
	}
	return bisect_next(c, st, db);
}

/* Tells git the step's call, once: git bisect log shows it done. */
static int mark(struct campaign *c, struct store *st, struct camp_step *p)
{
	struct camp_bisect *b = c->bisect;
	const char *hash = c->states[p->state].commit;
	const char *args[] = { "bisect", p->call, hash, NULL };
	char *line = xasprintf("git bisect %s %s", p->call, hash), *out = NULL;
	int rc = 0;

	if (!git_bisect_logged(b->repo, line)) {
		printf("campaign %s: %s\n", c->name, line);
		rc = git_out(b->repo, &out, args);
		if (!git_bisect_logged(b->repo, line))
			rc = git_failed(c, st, line, rc, out);
		else
			rc = 0;
	}
	free(out);
	free(line);
	if (rc)
		return rc;
	p->phase = BIS_MARKED;
	return campaign_save(st, c, false) ? 2 : 0;
}

/* Writes the step's call before git is told it. */
static int decide(struct campaign *c, struct store *st, struct camp_step *p,
		  const char *call)
{
	snprintf(p->call, sizeof(p->call), "%s", call);
	p->phase = BIS_MARKING;
	p->ended = wall_now();
	printf("campaign %s: step %zu (%s): %s: %s\n", c->name,
	       (size_t)(p - c->bisect->steps) + 1, c->states[p->state].name,
	       call, p->why ? p->why : "");
	return campaign_save(st, c, false) ? 2 : 0;
}

/*
 * State s's commit built and installed by the build command (in the
 * repository, the commit checked out), once. 0 built, 1 its build
 * failed, 2 the store or git.
 */
static int build(struct campaign *c, struct store *st, const char *db,
		 unsigned s)
{
	struct camp_bisect *b = c->bisect;
	struct camp_state *x = &c->states[s];
	const char *co[] = { "checkout", "-q", "--detach", x->commit, NULL };
	char *out = NULL;
	int rc;

	if (x->built)
		return 0;
	if (c->vm && !*b->build) {	/* schedlab builds it, in its own clone */
		rc = campaign_vm_build(c, s, b->repo, x->commit);
		if (rc == EXIT_USAGE || rc == 130)
			return rc == 130 ? 130 : 2;
		if (rc)
			return 1;
		x->built = true;
		return campaign_save(st, c, false) ? 2 : 0;
	}
	rc = git_out(b->repo, &out, co);
	if (rc) {
		rc = git_failed(c, st, "git checkout of the commit to build", rc, out);
		free(out);
		return rc ? rc : 2;
	}
	free(out);
	setenv("SCHEDLAB_CAMPAIGN", c->name, 1);
	setenv("SCHEDLAB_STATE", x->name, 1);
	setenv("SCHEDLAB_COMMIT", x->commit, 1);
	setenv("SCHEDLAB_REPO", b->repo, 1);
	setenv("SCHEDLAB_DB", db, 1);
	if (c->vm && (rc = campaign_vm_image_env(c, s)))
		return rc;
	printf("campaign %s: building %s (%s)\n", c->name, x->commit, x->name);
	rc = campaign_run_cmd(b->build, b->repo, false);
	if (rc) {
		printf("campaign %s: the build of %s exited %d\n", c->name, x->commit, rc);
		return 1;
	}
	if (c->vm && campaign_vm_image_check(c, s))
		return 1;
	x->built = true;
	return campaign_save(st, c, false) ? 2 : 0;
}

/* Builds and boots state s; a candidate that does not build is skipped
 * (*again: choose anew). */
static int boot(struct campaign *c, struct store *st, const char *db,
		unsigned s, struct camp_step *p, bool *again)
{
	char why[200];
	int rc = build(c, st, db, s);

	*again = false;
	if (rc == 1 && p) {
		free(p->why);
		p->why = xstrdup(*c->bisect->build ? "its build command failed" :
				 "its kernel did not build");
		*again = true;
		return decide(c, st, p, "skip");
	}
	if (rc == 1) {
		snprintf(why, sizeof(why), "the build of the %s reference %s failed",
			 c->states[s].name, c->states[s].commit);
		return campaign_stop(c, st, "failed", 1, why);
	}
	if (rc)
		return rc;
	if (p && !p->started) {
		p->started = wall_now();
		if (campaign_save(st, c, false))
			return 2;
	}
	return campaign_boot_state(c, st, db, s);
}

/* A number drawn from the seed for step p's round `round`. */
static uint64_t draw(const struct campaign *c, const struct camp_step *p,
		     unsigned round)
{
	return (c->seed ^ ((uint64_t)p->from * 0x9e3779b97f4a7c15ULL) ^
		((uint64_t)round * 0xbf58476d1ce4e5b9ULL)) * 0x94d049bb133111ebULL;
}

/* The gate's rounds that were step p's: the first step's, once gated. */
static unsigned gate_rounds(const struct camp_bisect *b, const struct camp_step *p)
{
	return b->gated && p == b->steps ? b->refs : 0;
}

/*
 * What step p boots next, in rounds of three boots in an order drawn
 * per round from the seed (as a campaign's pairs), so that the
 * machine's drift while the step runs falls alike on what it compares.
 * Until good and bad are shown to differ, a round boots the candidate,
 * good and bad once each. After, the references' distance is known and
 * the level model carries what they say from boot to boot: a round
 * boots the candidate twice and one reference - whichever has been
 * booted less - once. The state whose boot of the current round is
 * still to come.
 */
static unsigned step_next(const struct campaign *c, const struct camp_step *p)
{
	const struct camp_bisect *b = c->bisect;
	unsigned who[3] = { p->state, 0, 1 }, n[3], round, first, pre, nc, nr, ref;
	uint64_t z;

	for (int i = 0; i < 3; i++)
		n[i] = bisect_runs_since(c, who[i], p->from);
	if (b->gated) {
		pre = gate_rounds(b, p);
		nc = n[0] - (n[0] < pre ? n[0] : pre);
		nr = n[1] + n[2] - (n[1] + n[2] < 2 * pre ? n[1] + n[2] : 2 * pre);
		round = nc / 2 < nr ? nc / 2 : nr;
		z = draw(c, p, round);
		if (nr > round || nc - 2 * round < (unsigned)((z >> 33) % 3))
			return p->state;
		ref = bisect_runs_of(c, 0) < bisect_runs_of(c, 1) ? 0 :
		      bisect_runs_of(c, 1) < bisect_runs_of(c, 0) ? 1 :
		      (unsigned)(z >> 62 & 1);
		return ref;
	}
	round = n[0] < n[1] ? n[0] : n[1];
	round = round < n[2] ? round : n[2];
	z = draw(c, p, round);
	first = (unsigned)((z >> 33) % 3);
	for (int i = 0; i < 3; i++) {
		unsigned k = (first + (unsigned)i * (1 + (unsigned)(z >> 62 & 1))) % 3;

		if (n[k] == round)
			return who[k];
	}
	return who[0];
}

/* The plan said, and kept for status: a step's rounds, the boots left;
 * n the step's rounds, own those after the gate. A step's most rounds
 * grow with the plan but are not taken back when the plan falls: the
 * boots it needs are the least certain when it has run longest. */
static void plan_say(struct campaign *c, struct camp_step *p,
		     const struct bis_est *e, unsigned n, unsigned own)
{
	struct camp_bisect *b = c->bisect;
	unsigned plan = bisect_step_plan(e), most = step_most(b, plan);

	b->distance = e->d;
	b->noise = e->s;
	if (most > p->most)
		p->most = most;
	b->max_step = p->most;
	budget(c, p->most - (own < p->most ? own : p->most), most);
	if (plan == b->plan)
		return;
	b->plan = plan;
	printf("campaign %s: bad/good %.3f (p=%.2g, run-to-run noise %.1f%%, the level drifting up to %.1f%% a boot; %u boots of good and bad, this step's %u rounds): a step takes about %u rounds of 3 boots (its commit twice, a reference once), at most %u; about %u boots more for the %u steps git has left, at most %u boots in all\n",
	       c->name, exp(e->d), e->p, 100 * e->s, 100 * e->r_most * e->s, e->refs, n,
	       b->plan, b->max_step, 3 * b->plan * (b->steps_left + 1), b->steps_left + 1,
	       c->max_boots);
}

/* A threshold for a difference measured below the one asked for: the
 * measured one rounded down to a half percent (0: under half a percent). */
static double threshold_below(const struct bis_est *e)
{
	return floor(200 * fabs(expm1(e->d))) / 2;
}

/*
 * The gate, at the end of each of the first step's rounds: Wald's test
 * says good and bad differ (gated), or that they differ by less than
 * the threshold, or they cannot be told apart at the planned rounds
 * (both stop the campaign). 0 to go on, else resume's exit status.
 */
static int gate(struct campaign *c, struct store *st, const struct bis_est *e,
		unsigned n)
{
	struct camp_bisect *b = c->bisect;
	unsigned plan = bisect_gate_plan(e, c->threshold, n), gr, sr;
	double llr, q = gsl_cdf_ugaussian_Qinv(0.05) * e->se;
	int g = bisect_gate(e, c->threshold, &llr);
	char why[500];

	b->refs = n;
	if (g > 0) {
		b->gated = true;
		return 0;
	}
	/* the most rounds are planned anew at every round, from the noise
	 * measured so far: twice those a distance of the threshold takes */
	b->max_refs = gate_most(b, plan);
	if (g < 0 && e->p < 0.05 && threshold_below(e) > 0) {
		double t = threshold_below(e);
		unsigned boots = bisect_predict(e->s, t, 4, &gr, &sr);

		snprintf(why, sizeof(why), "the good and bad commits differ by %+.1f%% (bad/good %.3f, p=%.2g, at most %.1f%% either way at 90%%; run-to-run noise %.1f%%, %u rounds), less than --threshold %g%%: to bisect that, start again with --threshold %g (by the plan about %u rounds of the references, %u a step, some %u boots for 4 steps)",
			 100 * expm1(e->d), exp(e->d), e->p, 100 * expm1(fabs(e->d) + q),
			 100 * e->s, n, c->threshold, t, gr, sr, boots);
	} else if (g < 0)
		snprintf(why, sizeof(why), "the good and bad commits differ by less than %g%% (bad/good %.3f, at most %.1f%% either way at 90%%, log likelihood ratio of %g%% against none %.2f; run-to-run noise %.1f%%, %u rounds): nothing to bisect at --threshold %g",
			 c->threshold, exp(e->d), 100 * expm1(fabs(e->d) + q), c->threshold,
			 llr, 100 * e->s, n, c->threshold);
	else if (n >= b->max_refs && e->p < 0.05 && threshold_below(e) > 0) {
		/* they differ, by less than the threshold: say so, and how
		 * to bisect what was measured */
		double t = threshold_below(e);
		unsigned boots = bisect_predict(e->s, t, 4, &gr, &sr);

		snprintf(why, sizeof(why), "the good and bad commits differ by %+.1f%% (bad/good %.3f, p=%.2g, %u rounds, run-to-run noise %.1f%%), less than --threshold %g%%: to bisect that, start again with --threshold %g (by the plan about %u rounds of the references, %u a step, some %u boots for 4 steps)",
			 100 * expm1(e->d), exp(e->d), e->p, n, 100 * e->s, c->threshold, t,
			 gr, sr, boots);
	} else if (n >= b->max_refs)
		snprintf(why, sizeof(why), "the good and bad commits do not differ after %u rounds (bad/good %.3f, p=%.2g, run-to-run noise %.1f%%; a difference of %g%% would take about %u): nothing to bisect, or raise --max-ref-boots",
			 n, exp(e->d), e->p, 100 * e->s, c->threshold, plan);
	else {
		/* the steps' most, as the planner has them at this noise */
		bisect_predict(e->s, c->threshold, 1, &gr, &sr);
		budget(c, b->max_refs - n + step_most(b, sr), step_most(b, sr));
		return campaign_save(st, c, false) ? 2 : 0;
	}
	return campaign_stop(c, st, "failed", 1, why);
}

/* The step p measuring: until good and bad differ, the gate's look at
 * the end of each round; then a look after every boot; or its next
 * boot. */
static int measuring(struct campaign *c, struct store *st, const char *db,
		     struct camp_step *p, bool *again)
{
	struct camp_bisect *b = c->bisect;
	unsigned n = bisect_rounds(c, p), rounds, own;
	const char *call = NULL;
	struct bis_est e;
	int rc;

	*again = true;
	if (!b->gated && n >= BISECT_MIN_REFS &&
	    bisect_runs_since(c, p->state, p->from) == n &&
	    bisect_runs_since(c, 0, p->from) == n &&
	    bisect_runs_since(c, 1, p->from) == n) {
		if (bisect_values(c, st))
			return 2;
		bisect_estimate(c, &e);
		rc = gate(c, st, &e, n);
		if (rc || strcmp(c->status, "running")) {
			*again = false;
			return rc;
		}
	}
	/* two boots of the candidate at least: one boot gone wrong is not
	 * a call */
	if (b->gated && bisect_runs_since(c, p->state, p->from) >= BISECT_MIN_REFS) {
		if (bisect_values(c, st))
			return 2;
		bisect_estimate(c, &e);
		rounds = bisect_step_boots(c, p) / 3;
		/* the first step's limit counts its rounds after the gate:
		 * a gate that took most of them leaves the step its own */
		own = rounds - (rounds < gate_rounds(b, p) ? rounds : gate_rounds(b, p));
		plan_say(c, p, &e, rounds, own);
		bisect_call(c, p, &e, &call, &p->why);
		p->looks = rounds;
		if (!call && own >= b->max_step)
			call = "skip";
		if (call)
			return decide(c, st, p, call);
	}
	return boot(c, st, db, step_next(c, p), p, again);
}

int bisect_next(struct campaign *c, struct store *st, const char *db)
{
	struct camp_bisect *b = c->bisect;
	bool again = true, ended;
	int rc;

	while (again) {
		struct camp_step *p = b->nsteps ? &b->steps[b->nsteps - 1] : NULL;

		again = false;
		if (!p || p->phase == BIS_MARKED) {
			rc = outcome(c, st, &ended);
			if (rc || ended)
				return rc;
			again = true;
			continue;
		}
		if (p->phase == BIS_MARKING) {
			rc = mark(c, st, p);
			again = true;
		} else {
			rc = measuring(c, st, db, p, &again);
		}
		if (rc || !again)
			return rc;
		/* a hook called returns from boot() with again false */
	}
	return 0;
}
