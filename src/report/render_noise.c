// SPDX-License-Identifier: GPL-2.0-only
/*
 * report/render_noise.c: `schedlab noise` and `schedlab plan` written
 * (report/render_noise.h) - each case's noise model as a table or as
 * schedlab-noise/1, and the plans compare/noise_plan.c made as a table
 * or as schedlab-plan/1. Every number is the model's or the plan's.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/noise_plan.h"
#include "report/render_noise.h"
#include "util.h"

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static const char *case_label(const struct noise_case *c)
{
	return *c->params ? c->params : "(defaults)";
}

static void text_noise(FILE *f, const struct noise_set *s, const char *job)
{
	const char *host = NULL;

	for (size_t i = 0; i < s->n; i++) {
		const struct noise_case *c = &s->cases[i];

		if (!i || (c->host ? !host || strcmp(host, c->host) : !!host)) {
			host = c->host;
			fprintf(f, "%s%s on %s: %s%s%s%s\n", i ? "\n" : "", job,
				host ? host : "(no host)", c->metric,
				*c->unit ? " (" : "", c->unit, *c->unit ? ")" : "");
			fprintf(f, "%-28s %5s %6s %5s %9s %8s %8s %6s %10s\n", "case",
				"runs", "labels", "pairs", "between", "offset", "within",
				"iters", "iteration");
		}
		fprintf(f, "%-28s %5u %6u %5u ", case_label(c), c->m.runs,
			c->m.groups, c->m.pairs);
		if (c->known)
			fprintf(f, "%8.1f%% %7.1f%% ", 100 * c->m.between,
				100 * c->m.offset);
		else
			fprintf(f, "%9s %8s ", "-", "-");
		if (isfinite(c->m.within))
			fprintf(f, "%7.1f%% ", 100 * c->m.within);
		else
			fprintf(f, "%8s ", "-");
		fprintf(f, "%6.0f ", c->m.iters);
		if (isfinite(c->iter_s))
			fprintf(f, "%9.3gs\n", c->iter_s);
		else
			fprintf(f, "%10s\n", "-");
		if (!c->known)
			fprintf(f, "  (between runs unknown: %u neighbouring runs of one label, %d needed: schedlab calibrate)\n",
				c->m.pairs, NOISE_MIN_PAIRS);
		else if (c->m.cut)
			fprintf(f, "  (%u of %u differences left out as absurd, beyond %g robust sds)\n",
				c->m.cut, c->m.pairs, NOISE_CUT_Z);
		if (c->m.speeds > 1)
			fprintf(f, "  (two speeds: %.4g in %u runs, %.4g in %u; the switches are counted in between, not cut: alternate the states compared, schedlab campaign)\n",
				c->m.speed_lo, c->m.speed_runs_lo, c->m.speed_hi,
				c->m.speed_runs_hi);
		if (c->known && isfinite(c->m.gap_max))
			fprintf(f, "  (runs differenced at most %.0f s apart: runs compared further apart than twice that are compared with the noise seen at such gaps, if any)\n",
				c->m.gap_max);
	}
}

static json_t *json_case(const struct noise_case *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "job", json_string(c->job));
	json_object_set_new(o, "host", c->host ? json_string(c->host) : json_null());
	json_object_set_new(o, "params", json_string(c->params));
	json_object_set_new(o, "sweep", json_string(c->sweep));
	json_object_set_new(o, "version", json_integer(c->version));
	json_object_set_new(o, "metric", json_string(c->metric));
	json_object_set_new(o, "known", json_boolean(c->known));
	json_object_set_new(o, "runs", json_integer(c->m.runs));
	json_object_set_new(o, "labels", json_integer(c->m.groups));
	json_object_set_new(o, "pairs", json_integer(c->m.pairs));
	json_object_set_new(o, "pairs_cut", json_integer(c->m.cut));
	json_object_set_new(o, "between_pct", num(c->known ? 100 * c->m.between : NAN));
	json_object_set_new(o, "offset_pct", num(c->known ? 100 * c->m.offset : NAN));
	json_object_set_new(o, "within_pct", num(100 * c->m.within));
	json_object_set_new(o, "df", num(c->known ? c->m.df : NAN));
	json_object_set_new(o, "iterations", num(c->m.iters));
	json_object_set_new(o, "iteration_s", num(c->iter_s));
	json_object_set_new(o, "gap_max_s", num(c->m.gap_max));
	json_object_set_new(o, "speeds", json_integer(c->m.speeds));
	json_object_set_new(o, "speed_medians", c->m.speeds > 1 ?
			    json_pack("[f, f]", c->m.speed_lo, c->m.speed_hi) :
			    json_null());
	json_object_set_new(o, "speed_runs", c->m.speeds > 1 ?
			    json_pack("[i, i]", c->m.speed_runs_lo, c->m.speed_runs_hi) :
			    json_null());
	return o;
}

static json_t *json_plan(const struct noise_plan_row *r)
{
	const struct noise_case *c = r->c;
	json_t *o = json_case(c);

	if (!c->known) {
		json_object_set_new(o, "plan", json_null());
		return o;
	}
	json_object_set_new(o, "one_run_mde_pct", num(r->one_run_mde));
	json_object_set_new(o, "plan", !r->best.runs ? json_null() :
		json_pack("{s:i, s:i, s:o, s:o}", "runs_a_side", r->best.runs,
			  "iterations", r->best.iters, "mde_pct", num(r->best.mde),
			  "seconds", num(isfinite(c->iter_s) ? r->best.seconds : NAN)));
	/* "no change beyond effect%" of an unchanged state (TOST, power
	 * NOISE_POWER) at the stored iterations: a campaign's boots */
	json_object_set_new(o, "no_change_runs_a_side", r->no_change_runs ?
			    json_integer(r->no_change_runs) : json_null());
	json_object_set_new(o, "plan_at_stored_iterations", !r->one.runs ? json_null() :
		json_pack("{s:i, s:i, s:o, s:o}", "runs_a_side", r->one.runs,
			  "iterations", r->one.iters, "mde_pct", num(r->one.mde),
			  "seconds", num(isfinite(c->iter_s) ? r->one.seconds : NAN)));
	return o;
}

static void text_duration(FILE *f, double secs)
{
	if (!isfinite(secs))
		fprintf(f, "%9s", "?");
	else if (secs < 120)
		fprintf(f, "%8.0fs", ceil(secs));
	else if (secs < 7200)
		fprintf(f, "%7.0fmin", ceil(secs / 60));
	else
		fprintf(f, "%8.1fh", secs / 3600);
}

void render_noise_text(FILE *f, const struct noise_set *sets,
		       const char *const *jobs, size_t njobs)
{
	for (size_t j = 0, shown = 0; j < njobs; j++) {
		if (!sets[j].n)
			continue;
		if (shown++)
			fputc('\n', f);
		text_noise(f, &sets[j], jobs[j]);
	}
}

void render_noise_json(FILE *f, const struct noise_set *sets, size_t njobs)
{
	json_t *doc = json_object(), *cases = json_array();

	json_object_set_new(doc, "schema", json_string("schedlab-noise/1"));
	json_object_set_new(doc, "min_pairs", json_integer(NOISE_MIN_PAIRS));
	for (size_t j = 0; j < njobs; j++)
		for (size_t i = 0; i < sets[j].n; i++)
			json_array_append_new(cases, json_case(&sets[j].cases[i]));
	json_object_set_new(doc, "cases", cases);
	json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(doc);
}

void render_plan_json(FILE *f, const struct noise_plan_row *rows, size_t n,
		      double effect)
{
	json_t *doc = json_object(), *cases = json_array();

	json_object_set_new(doc, "schema", json_string("schedlab-plan/1"));
	json_object_set_new(doc, "effect_pct", json_real(effect));
	/* compare's --threshold for the runs planned: half the effect */
	json_object_set_new(doc, "threshold_pct", json_real(effect / 2));
	json_object_set_new(doc, "alpha", json_real(NOISE_PLAN_ALPHA));
	json_object_set_new(doc, "power", json_real(NOISE_POWER));
	for (size_t i = 0; i < n; i++)
		json_array_append_new(cases, json_plan(&rows[i]));
	json_object_set_new(doc, "cases", cases);
	json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(doc);
}

void render_plan_text(FILE *f, const char *job, const struct noise_plan_row *rows,
		      size_t n, double effect)
{
	fprintf(f, "%s: detect %g%% at alpha %g%%, power %g%% (the run the unit; time for both sides, %.1fs a run to start)\n",
		job, effect, 100 * NOISE_PLAN_ALPHA, 100 * NOISE_POWER, NOISE_RUN_OVERHEAD_S);
	fprintf(f, "%-28s %-10s %8s %9s %10s %7s %9s\n", "case", "host", "between",
		"one run", "runs/side", "iters", "time");
	for (size_t i = 0; i < n; i++) {
		const struct noise_case *c = rows[i].c;
		const struct noise_plan *best = &rows[i].best;
		char *host = text_field(c->host, "-");

		fprintf(f, "%-28s %-10s ", case_label(c), host);
		free(host);
		if (!c->known) {
			fprintf(f, "%8s %9s %10s %7s %9s\n", "-", "-", "-", "-", "-");
			fprintf(f, "  (between runs unknown: schedlab calibrate)\n");
			continue;
		}
		fprintf(f, "%7.1f%% %8.0f%% ", 100 * c->m.between, rows[i].one_run_mde);
		if (!best->runs) {
			fprintf(f, "%10s %7s %9s\n", ">50", "-", "-");
			continue;
		}
		fprintf(f, "%10u %7u ", best->runs, best->iters);
		text_duration(f, isfinite(c->iter_s) ? best->seconds : NAN);
		fputc('\n', f);
	}
	fprintf(f, "\n'one run': the smallest change one run a side (of the stored iterations) can show.\n"
		"Then: schedlab run JOBFILE --label base --iterations N, runs/side times with\n"
		"each state, and 'schedlab compare base cand --all --threshold %g': a verdict\n"
		"needs the change beyond the threshold, and at a threshold of %g%% a change of\n"
		"%g%% falls short of it half the time.\n", effect / 2, effect, effect);
}
