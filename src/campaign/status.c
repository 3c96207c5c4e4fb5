// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/status.c: `campaign status` in words - an A/B's states, their
 * runs, kernels and builds, what each state's kernel said of its
 * command line, the VM, the boot awaited and the verdict; a bisect's
 * references, its plan, each step's call and build, its wall time and
 * the first bad commit. Every figure is the campaign's state as stored.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "campaign/campaign.h"
#include "model/run.h"
#include "store/store.h"
#include "util.h"
#include "vm/vm.h"

/* What the kernel of state s's boots said of its command line (a
 * parameter it rejected), each line once, indented. */
static void kernel_said(FILE *f, const struct campaign *c, struct store *st,
			unsigned s)
{
	json_t *seen = json_array();

	for (size_t k = 0; c->vm && k < c->nboots; k++) {
		json_t *said;
		struct run r;
		int64_t id;

		if (c->boots[k].state != s || !*c->boots[k].uuid ||
		    store_find_uuid(st, c->boots[k].uuid, &id) != 1 || store_load(st, id, &r))
			continue;
		said = json_object_get(json_object_get(json_object_get(json_object_get(
			r.environment, "machine"), "vm"), "value"), "kernel_said");
		for (size_t i = 0; i < json_array_size(said); i++) {
			json_t *line = json_array_get(said, i);
			bool dup = false;

			for (size_t j = 0; j < json_array_size(seen) && !dup; j++)
				dup = json_equal(json_array_get(seen, j), line);
			if (!dup) {
				json_array_append(seen, line);
				fprintf(f, "    its kernel said of its command line: %s\n",
					json_string_value(line));
			}
		}
		run_free(&r);
	}
	json_decref(seen);
}

/* The state's kernel tree, commit and build time, on one line (nothing
 * when schedlab did not build it). */
static void state_build(FILE *f, const struct camp_state *s)
{
	if (!s->build_s && !s->tree)
		return;
	fprintf(f, "    ");
	if (s->tree)
		fprintf(f, "tree %s@%s: ", s->tree, s->rev);
	fprintf(f, "commit %.12s, its kernel built in %.0f s\n", s->commit ? s->commit : "?",
		s->build_s);
}

static void step_line(FILE *f, const struct campaign *c, size_t i)
{
	const struct camp_step *p = &c->bisect->steps[i];
	bool running = !strcmp(c->status, "running");
	double end = p->ended ? p->ended : running ? 0 : c->bisect->ended_at;
	double secs = !p->started ? 0 : end ? end - p->started :
		      campaign_since(p->started);

	/* a step of a campaign that stopped is not measuring any more */
	fprintf(f, "  step %-2zu %-12s %2u runs  %-9s %6.0f s  %s", i + 1,
		c->states[p->state].name, bisect_runs_of(c, p->state),
		*p->call ? p->call : !running ? "no call" :
		p->phase == BIS_MEASURING ? "measuring" : "?",
		secs > 0 ? secs : 0, p->why ? p->why : "");
	if (c->states[p->state].build_s > 0)
		fprintf(f, "%s(its kernel built in %.0f s)", p->why ? " " : "",
			c->states[p->state].build_s);
	fputc('\n', f);
}

/* Whether a step is still measuring in a running campaign. */
static bool running_step(const struct campaign *c)
{
	const struct camp_bisect *b = c->bisect;

	return !strcmp(c->status, "running") && b->nsteps &&
	       b->steps[b->nsteps - 1].phase == BIS_MEASURING;
}

static void bisect_status(FILE *f, const struct campaign *c)
{
	const struct camp_bisect *b = c->bisect;
	double wall = !b->started_at ? 0 : b->ended_at ? b->ended_at - b->started_at :
		      campaign_since(b->started_at);

	fprintf(f, "campaign %s: bisect %s, %zu of at most %u boots%s, job %s\n", c->name,
		c->status, c->nboots, c->max_boots,
		b->max_boots_opt ? "" : " (planned)", c->job);
	fprintf(f, "  repo %s: good %.12s %u runs, bad %.12s %u runs (labels %s/good, %s/bad)\n",
		b->repo, c->states[0].commit, bisect_runs_of(c, 0),
		c->states[1].commit, bisect_runs_of(c, 1), c->name, c->name);
	if (c->vm && !*b->build)
		fprintf(f, "  each commit's kernel built by schedlab (vm build)%s: good's in %.0f s, bad's in %.0f s\n",
			c->kbuild ? " with the campaign's --config, --configitem, --make" : "",
			c->states[0].build_s, c->states[1].build_s);
	if (b->gated)
		fprintf(f, "  bad/good %.3f (the headline's ratio), run-to-run noise %.1f%%: a step takes about %u rounds of 3 boots, at most %u; about %u boots more for the %u steps git has left\n",
			exp(b->distance), 100 * b->noise, b->plan, b->max_step,
			running_step(c) ? 3 * b->plan * (b->steps_left + 1) : 0,
			running_step(c) ? b->steps_left + 1 : 0);
	else if (!strcmp(c->status, "running"))
		fprintf(f, "  telling good from bad: %u rounds so far, at most %u (planned from the noise as it is measured)\n",
			b->refs, b->max_refs);
	for (size_t i = 0; i < b->nsteps; i++)
		step_line(f, c, i);
	if (b->started_at)
		fprintf(f, "  wall time %.0f s\n", wall > 0 ? wall : 0);
	if (b->first_bad)
		fprintf(f, "first bad commit: %s\n", b->first_bad);
	else if (c->verdict)
		fprintf(f, "%s", c->verdict);
}

void campaign_status_text(FILE *f, const struct campaign *c, struct store *st)
{
	if (c->bisect) {
		bisect_status(f, c);
		return;
	}
	size_t done[CAMPAIGN_MAX_STATES] = { 0 };
	const struct camp_boot *b = c->nboots ? &c->boots[c->nboots - 1] : NULL;

	for (size_t k = 0; k < c->nboots; k++)
		done[c->boots[k].state] += c->boots[k].phase == PH_DONE;
	fprintf(f, "campaign %s: %s, %zu of at most %u boots, job %s\n", c->name,
		c->status, c->nboots, c->max_boots, c->job);
	for (size_t s = 0; s < c->nstates; s++) {
		fprintf(f, "  state %-12s %zu runs (label %s/%s)", c->states[s].name,
			done[s], c->name, c->states[s].name);
		if (c->states[s].kernel)
			fprintf(f, ", kernel %s%s%s", c->states[s].kernel,
				c->states[s].append ? " " : "",
				c->states[s].append ? c->states[s].append : "");
		fputc('\n', f);
		state_build(f, &c->states[s]);
		kernel_said(f, c, st, (unsigned)s);
	}
	if (c->vm)
		fprintf(f, "  each boot a VM: %u CPU%s (%u x %u x %u)%s, %u MiB, accel %s, root %s%s%s\n",
			c->vm->shape.cpus, c->vm->shape.cpus == 1 ? "" : "s",
			c->vm->shape.sockets, c->vm->shape.cores, c->vm->shape.threads,
			c->vm->shape.nodes ? ", NUMA" : "", c->vm->shape.memory_mb,
			vm_accel_names[c->vm->accel], vm_root_names[c->vm->root],
			c->vm->append ? ", append " : "", c->vm->append ? c->vm->append : "");
	if (b && !strcmp(c->status, "running") && b->phase <= PH_HOOKED) {
		double late = campaign_since(b->hooked_at);

		fprintf(f, "  boot %zu (state %s): hook called %.0f s ago%s\n", c->nboots,
			c->states[b->state].name, late,
			c->deadline_s && late > c->deadline_s ?
			": past its deadline, the boot never came back (resume reports it lost)" : "");
	}
	if (c->verdict)
		fprintf(f, "%s", c->verdict);
}
