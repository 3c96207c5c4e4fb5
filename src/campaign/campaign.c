// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/campaign.c: a campaign's state as the store keeps it (one
 * JSON document), the order of its boots, the state saved and the
 * campaign stopped. The decision after each round is decide.c's.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "campaign/campaign.h"
#include "model/run.h"
#include "store/store.h"
#include "util.h"

const char *const camp_design_names[] = { "pairs", "blocks", NULL };
static const char *const phase_names[] = { "hooking", "hooked", "running", "done" };
static const char *const step_phases[] = { "measuring", "marking", "marked" };

static json_t *step_json(const struct campaign *c, const struct camp_step *p)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:f, s:f, s:s*}",
			 "state", c->states[p->state].name,
			 "commit", c->states[p->state].commit,
			 "phase", step_phases[p->phase], "call", p->call,
			 "from", (json_int_t)p->from,
			 "looks", (json_int_t)p->looks,
			 "most", (json_int_t)p->most, "started", p->started,
			 "ended", p->ended, "why", p->why);
}

static json_t *bisect_json(const struct campaign *c)
{
	const struct camp_bisect *b = c->bisect;
	json_t *steps = json_array();

	for (size_t i = 0; i < b->nsteps; i++)
		json_array_append_new(steps, step_json(c, &b->steps[i]));
	return json_pack("{s:s, s:s, s:b, s:b, s:i, s:i, s:i, s:i, s:i, s:i, s:i,"
			 " s:i, s:i, s:f, s:f, s:s*, s:s*, s:f, s:f, s:o}",
			 "repo", b->repo, "build", b->build,
			 "started", b->started, "gated", b->gated,
			 "refs", (json_int_t)b->refs,
			 "max_refs", (json_int_t)b->max_refs,
			 "max_refs_opt", (json_int_t)b->max_refs_opt,
			 "plan", (json_int_t)b->plan,
			 "max_step", (json_int_t)b->max_step,
			 "max_step_opt", (json_int_t)b->max_step_opt,
			 "max_boots_opt", (json_int_t)b->max_boots_opt,
			 "looks", (json_int_t)b->looks,
			 "steps_left", (json_int_t)b->steps_left,
			 "distance", isfinite(b->distance) ? b->distance : 0,
			 "noise", isfinite(b->noise) ? b->noise : 0,
			 "first_bad", b->first_bad, "end", b->end,
			 "started_at", b->started_at, "ended_at", b->ended_at,
			 "steps", steps);
}

static json_t *boot_json(const struct campaign *c, const struct camp_boot *b)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:f}",
			      "state", c->states[b->state].name,
			      "phase", phase_names[b->phase], "uuid", b->uuid,
			      "attempts", (json_int_t)b->attempts,
			      "failures", (json_int_t)b->failures,
			      "hooks", (json_int_t)b->hooks, "hooked_at", b->hooked_at);

	if (o && isfinite(b->value))
		json_object_set_new(o, "value", json_real(b->value));
	return o;
}

json_t *campaign_to_json(const struct campaign *c)
{
	json_t *states = json_array(), *boots = json_array(), *doc;
	char seed[24];

	for (size_t i = 0; i < c->nstates; i++)
		json_array_append_new(states, json_pack("{s:s, s:s*, s:s*, s:b, s:s*, s:s*,"
							" s:s*, s:s*, s:f}",
				      "name", c->states[i].name,
				      "check", c->states[i].check,
				      "commit", c->states[i].commit,
				      "built", c->states[i].built,
				      "kernel", c->states[i].kernel,
				      "append", c->states[i].append,
				      "tree", c->states[i].tree,
				      "rev", c->states[i].rev,
				      "build_s", c->states[i].build_s));
	for (size_t i = 0; i < c->nboots; i++)
		json_array_append_new(boots, boot_json(c, &c->boots[i]));
	snprintf(seed, sizeof(seed), "%" PRIu64, c->seed);
	doc = json_pack("{s:s, s:s, s:s, s:s, s:o, s:i, s:s, s:i, s:i, s:s,"
			" s:f, s:s, s:s*, s:i, s:o}",
			"schema", CAMPAIGN_SCHEMA, "name", c->name,
			"job", c->job, "hook", c->hook, "states", states,
			"max_boots", (json_int_t)c->max_boots,
			"design", camp_design_names[c->design],
			"block", (json_int_t)c->block,
			"deadline_s", (json_int_t)c->deadline_s, "seed", seed,
			"threshold", c->threshold, "status", c->status,
			"verdict", c->verdict, "code", (json_int_t)c->code,
			"boots", boots);
	if (doc && c->bisect)
		json_object_set_new(doc, "bisect", bisect_json(c));
	if (doc && c->vm)
		json_object_set_new(doc, "vm", vm_machine_json(c->vm));
	if (doc && c->kbuild)
		json_object_set(doc, "kbuild", c->kbuild);
	return doc;
}

static int from_boot(const json_t *o, struct campaign *c, struct camp_boot *b)
{
	const char *state = "", *phase = "", *uuid = "";
	json_int_t attempts = 0, failures = 0, hooks = 0;

	b->value = NAN;
	if (json_unpack((json_t *)o, "{s:s, s:s, s:s, s:I, s?I, s:I, s:F, s?F}", "state", &state,
			"phase", &phase, "uuid", &uuid, "attempts", &attempts,
			"failures", &failures,
			"hooks", &hooks, "hooked_at", &b->hooked_at, "value", &b->value))
		return -1;
	b->failures = failures > 0 && failures < attempts ? (unsigned)failures :
		      failures > 0 ? (unsigned)attempts : 0;
	b->state = (unsigned)c->nstates;
	for (size_t i = 0; i < c->nstates; i++)
		if (!strcmp(c->states[i].name, state))
			b->state = (unsigned)i;
	b->phase = (enum camp_phase)4;
	for (int i = 0; i < 4; i++)
		if (!strcmp(phase_names[i], phase))
			b->phase = (enum camp_phase)i;
	snprintf(b->uuid, sizeof(b->uuid), "%s", uuid);
	b->attempts = (unsigned)attempts;
	b->hooks = (unsigned)hooks;
	return b->state < c->nstates && b->phase < 4 ? 0 : -1;
}

static int from_states(const json_t *states, struct campaign *c)
{
	size_t i;
	json_t *s;

	c->states = xcalloc(json_array_size(states) + 1, sizeof(*c->states));
	json_array_foreach(states, i, s) {
		const char *name = NULL, *check = NULL, *commit = NULL;
		const char *kernel = NULL, *append = NULL, *tree = NULL, *rev = NULL;
		int built = 0;

		if (json_unpack(s, "{s:s, s?s, s?s, s?b, s?s, s?s, s?s, s?s, s?F}", "name", &name,
				"check", &check, "commit", &commit, "built", &built,
				"kernel", &kernel, "append", &append, "tree", &tree,
				"rev", &rev, "build_s", &c->states[i].build_s))
			return -1;
		/* the name and commit reach the commands as variables and
		 * git's arguments: only what start and git bisect make */
		if (!*name || strlen(name) > 64 ||
		    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != strlen(name) ||
		    (commit && (strlen(commit) != 40 ||
				strspn(commit, "0123456789abcdef") != 40)))
			return -1;
		c->states[i].name = xstrdup(name);
		c->states[i].kernel = kernel ? xstrdup(kernel) : NULL;
		c->states[i].append = append ? xstrdup(append) : NULL;
		c->states[i].check = check ? xstrdup(check) : NULL;
		c->states[i].commit = commit ? xstrdup(commit) : NULL;
		c->states[i].built = built;
		c->states[i].tree = tree ? xstrdup(tree) : NULL;
		c->states[i].rev = rev ? xstrdup(rev) : NULL;
		c->nstates++;
	}
	return c->nstates >= 2 ? 0 : -1;
}

static unsigned state_named(const struct campaign *c, const char *name)
{
	for (size_t i = 0; i < c->nstates; i++)
		if (!strcmp(c->states[i].name, name))
			return (unsigned)i;
	return (unsigned)c->nstates;
}

static int from_step(const json_t *o, struct campaign *c, struct camp_step *p)
{
	const char *state = "", *phase = "", *call = "", *why = NULL;
	json_int_t looks = 0, from = 0, most = 0;

	if (json_unpack((json_t *)o, "{s:s, s:s, s:s, s?I, s:I, s?I, s:F, s:F, s?s}",
			"state", &state, "phase", &phase, "call", &call,
			"from", &from,
			"looks", &looks, "most", &most, "started", &p->started,
			"ended", &p->ended, "why", &why) || strlen(call) >= sizeof(p->call))
		return -1;
	p->state = state_named(c, state);
	p->phase = (enum bis_phase)3;
	for (int i = 0; i < 3; i++)
		if (!strcmp(step_phases[i], phase))
			p->phase = (enum bis_phase)i;
	snprintf(p->call, sizeof(p->call), "%s", call);
	p->looks = (unsigned)looks;
	p->most = most >= 0 && most <= BISECT_MAX_STEP ? (unsigned)most : 0;
	p->from = from >= 0 && from <= UINT32_MAX ? (unsigned)from : 0;
	p->why = why ? xstrdup(why) : NULL;
	return p->state < c->nstates && p->phase < 3 ? 0 : -1;
}

/* The "bisect" member of a schema-2 document, if any. */
static int from_bisect(const json_t *o, struct campaign *c)
{
	struct camp_bisect *b;
	const char *repo, *build, *first = NULL, *end = NULL;
	json_int_t refs, max_refs, plan, max_step, looks, refs_opt = 0, step_opt = 0,
		   left = 0, boots_opt = -1;
	int started, gated;
	json_t *steps, *p;
	size_t i;

	if (!o)
		return 0;
	b = c->bisect = xcalloc(1, sizeof(*b));
	if (json_unpack((json_t *)o, "{s:s, s:s, s:b, s:b, s:I, s:I, s?I, s:I, s:I, s?I,"
			" s?I, s:I, s?I, s:F, s:F, s?s, s?s, s:F, s:F, s:o}", "repo", &repo,
			"build", &build, "started", &started, "gated", &gated,
			"refs", &refs, "max_refs", &max_refs,
			"max_refs_opt", &refs_opt, "plan", &plan,
			"max_step", &max_step, "max_step_opt", &step_opt,
			"max_boots_opt", &boots_opt, "looks", &looks, "steps_left", &left,
			"distance", &b->distance, "noise", &b->noise,
			"first_bad", &first, "end", &end,
			"started_at", &b->started_at, "ended_at", &b->ended_at,
			"steps", &steps) || !json_is_array(steps))
		return -1;
	b->repo = xstrdup(repo);
	b->build = xstrdup(build);
	b->started = started;
	b->gated = gated;
	b->refs = (unsigned)refs;
	b->max_refs = (unsigned)max_refs;
	b->plan = (unsigned)plan;
	b->max_step = (unsigned)max_step;
	b->looks = (unsigned)looks;
	b->max_refs_opt = (unsigned)refs_opt;
	b->max_step_opt = (unsigned)step_opt;
	/* stored before the budget was planned: its limit was fixed */
	b->max_boots_opt = boots_opt < 0 ? c->max_boots : (unsigned)boots_opt;
	b->steps_left = (unsigned)left;
	b->first_bad = first ? xstrdup(first) : NULL;
	b->end = end ? xstrdup(end) : NULL;
	b->steps = xcalloc(json_array_size(steps) + 1, sizeof(*b->steps));
	json_array_foreach(steps, i, p) {
		if (from_step(p, c, &b->steps[i]))
			return -1;
		b->nsteps++;
	}
	return 0;
}

int campaign_from_json(const json_t *doc, struct campaign *c)
{
	const char *name = "?", *job, *hook, *design, *seed, *status, *verdict = NULL;
	json_int_t max_boots, block, deadline, code;
	json_t *states, *boots, *b;
	size_t i;

	memset(c, 0, sizeof(*c));
	json_unpack((json_t *)doc, "{s:s}", "name", &name);
	if (json_unpack((json_t *)doc, "{s:s, s:s, s:o, s:I, s:s, s:I, s:I, s:s, s:F,"
			" s:s, s?s, s:I, s:o}", "job", &job, "hook", &hook,
			"states", &states, "max_boots", &max_boots,
			"design", &design, "block", &block,
			"deadline_s", &deadline, "seed", &seed,
			"threshold", &c->threshold, "status", &status,
			"verdict", &verdict, "code", &code, "boots", &boots) ||
	    from_states(states, c))
		goto bad;
	c->name = xstrdup(name);
	c->job = xstrdup(job);
	c->hook = xstrdup(hook);
	c->max_boots = (unsigned)max_boots;
	c->design = strcmp(design, "blocks") ? CAMP_PAIRS : CAMP_BLOCKS;
	c->block = block > 0 ? (unsigned)block : 1;
	c->deadline_s = (unsigned)deadline;
	c->seed = strtoull(seed, NULL, 10);
	c->status = xstrdup(status);
	c->verdict = verdict ? xstrdup(verdict) : NULL;
	c->code = (int)code;
	c->boots = xcalloc(json_array_size(boots) + 1, sizeof(*c->boots));
	json_array_foreach(boots, i, b) {
		if (from_boot(b, c, &c->boots[i]))
			goto bad;
		c->nboots++;
	}
	if (from_bisect(json_object_get(doc, "bisect"), c) ||
	    campaign_vm_from_json(json_object_get(doc, "vm"), c))
		goto bad;
	if (json_is_object(json_object_get(doc, "kbuild")))
		c->kbuild = json_incref(json_object_get(doc, "kbuild"));
	return 0;
bad:
	campaign_free(c);
	return error("campaign '%s': its stored state is not a %s document",
		     name, CAMPAIGN_SCHEMA);
}

void campaign_known_free(struct campaign *c)
{
	struct camp_known *kn = c->known;

	if (!kn)
		return;
	for (size_t s = 0; s < CAMPAIGN_MAX_STATES; s++)
		if (kn->have[s])
			run_free(&kn->runs[s]);
	free(kn->merged);
	free(kn);
	c->known = NULL;
}

void campaign_free(struct campaign *c)
{
	for (size_t i = 0; i < c->nstates; i++) {
		free(c->states[i].name);
		free(c->states[i].check);
		free(c->states[i].commit);
		free(c->states[i].kernel);
		free(c->states[i].append);
		free(c->states[i].tree);
		free(c->states[i].rev);
	}
	campaign_vm_free(c);
	json_decref(c->kbuild);
	c->kbuild = NULL;
	campaign_known_free(c);
	if (c->bisect) {
		for (size_t i = 0; i < c->bisect->nsteps; i++)
			free(c->bisect->steps[i].why);
		free(c->bisect->steps);
		free(c->bisect->repo);
		free(c->bisect->build);
		free(c->bisect->first_bad);
		free(c->bisect->end);
		free(c->bisect);
	}
	free(c->states);
	free(c->boots);
	free(c->name);
	free(c->job);
	free(c->hook);
	free(c->status);
	free(c->verdict);
	memset(c, 0, sizeof(*c));
}

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

unsigned campaign_state_of(const struct campaign *c, size_t k)
{
	size_t per = c->design == CAMP_BLOCKS ? c->block : 1;
	size_t len = c->nstates * per, round = k / len;
	unsigned order[CAMPAIGN_MAX_STATES];
	uint64_t x = c->seed ^ (round * 0x2545f4914f6cdd1dULL);

	/* a round: every state once (pairs) or `block` times in a row
	 * (blocks), the states' order shuffled afresh each round */
	for (unsigned i = 0; i < c->nstates; i++)
		order[i] = i;
	for (size_t i = c->nstates - 1; i > 0; i--) {
		size_t j = splitmix(&x) % (i + 1);
		unsigned t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	return order[(k % len) / per];
}

double campaign_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

double campaign_since(double t)
{
	double d = campaign_now() - t;

	return d > 0 ? d : 0;
}

int campaign_save(struct store *st, const struct campaign *c, bool create)
{
	json_t *doc = campaign_to_json(c);
	int rc = store_campaign_put(st, c->name, doc, create);

	json_decref(doc);
	return rc;
}

int campaign_stop(struct campaign *c, struct store *st, const char *status,
		  int rc, const char *why)
{
	char *v = xasprintf("%s%s\n", c->verdict ? c->verdict : "", why);

	free(c->status);
	c->status = xstrdup(status);
	free(c->verdict);
	c->verdict = v;
	if (c->bisect)
		c->bisect->ended_at = campaign_now();
	error("campaign %s: %s", c->name, why);
	return campaign_save(st, c, false) ? 2 : rc;
}
