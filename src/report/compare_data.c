// SPDX-License-Identifier: GPL-2.0-only
/*
 * A comparison as data: csv (one row per case and run) and json (the
 * schedlab-compare/1 document of doc/statistics.md). What is undefined
 * is an empty field or null, never a number.
 */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "report/render_compare.h"

static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (isfinite(v))
		fprintf(f, "%.10g", v);
}

/* Which mean the summary's mean, stddev, coeffvar and mean_pct are of. */
static const char *mean_kind(const struct cmp_cell *cell)
{
	return cell->s.hmean ? "hmean" : "amean";
}

void render_compare_csv(FILE *f, const struct comparison *c)
{
	fprintf(f, "job,sweep,metric,run,n,mean_kind,min,amean,hmean,stddev,"
		"coeffvar,max,bamean95,median,mean_pct,change_pct,change_lo,change_hi,p,significant,verdict,"
		"change_of,mean_pt,change_pt\n");
	for (size_t jn = 0; jn < c->njobs; jn++) {
		const struct cmp_job *j = &c->jobs[jn];

		for (size_t i = 0; i < j->ncases; i++)
			for (size_t k = 0; k < c->nruns; k++) {
				const struct cmp_cell *cell = &j->cases[i].cell[k];
				const struct cmp_result *r = &cell->r;

				csv_str(f, j->job);
				fputc(',', f);
				csv_str(f, j->cases[i].sweep);
				fputc(',', f);
				csv_str(f, j->metric.name);
				fputc(',', f);
				csv_str(f, c->runs[k].name);
				fprintf(f, ",%zu,%s", cell->ok ? cell->s.n : 0,
					cell->ok ? mean_kind(cell) : "");
				csv_num(f, cell->ok ? cell->s.min : NAN);
				csv_num(f, cell->ok ? cmp_cell_stat(cell, STAT_AMEAN) : NAN);
				csv_num(f, cell->ok ? cmp_cell_stat(cell, STAT_HMEAN) : NAN);
				for (int row = MM_SD; row < MM_NROWS; row++)
					csv_num(f, cell->ok ? mm_row_value(&cell->s, row) : NAN);
				csv_num(f, cell->ok ? cell->s.median : NAN);
				/* a percentage's: in points, at the end */
				csv_num(f, cell->points ? NAN : cell->pct[MM_MEAN]);
				csv_num(f, k ? r->change : NAN);
				csv_num(f, k ? r->lo : NAN);
				csv_num(f, k ? r->hi : NAN);
				csv_num(f, k ? r->p : NAN);
				fprintf(f, ",%s,%s,%s", k ? (r->significant ? "yes" : "no") : "",
					k ? verdict_names[r->verdict] : "",
					k ? stat_test_change_of(c->opts.test) : "");
				csv_num(f, cell->points ? cell->pct[MM_MEAN] : NAN);
				csv_num(f, cell->points && k ? cell->pt : NAN);
				fputc('\n', f);
			}
	}
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *cell_json(const struct comparison *c, const struct cmp_cell *cell,
			 size_t k)
{
	static const char *const key[MM_NROWS] = {
		"min", "mean", "stddev", "coeffvar", "max", "bamean95",
	};
	json_t *o = json_object(), *pct = json_object(), *ex;
	const struct cmp_result *r = &cell->r;

	json_object_set_new(o, "run", json_string(c->runs[k].name));
	json_object_set_new(o, "n", json_integer(cell->ok ? (json_int_t)cell->s.n : 0));
	json_object_set_new(o, "failed", cell->failed && !cell->ok ?
			    json_string(cell->failed) : json_null());
	json_object_set_new(o, "mean_kind", json_string(cell->ok && cell->s.hmean ?
							 "hmean" : "amean"));
	for (int row = 0; row < MM_NROWS; row++) {
		json_object_set_new(o, key[row], num(cell->ok ?
				    mm_row_value(&cell->s, row) : NAN));
		json_object_set_new(pct, key[row], num(cell->pct[row]));
	}
	json_object_set_new(o, "median", num(cell->ok ? cell->s.median : NAN));
	json_object_set_new(o, "amean", num(cell->ok ?
				cmp_cell_stat(cell, STAT_AMEAN) : NAN));
	json_object_set_new(o, "hmean", num(cell->ok ?
				cmp_cell_stat(cell, STAT_HMEAN) : NAN));
	if (!k) {
		json_decref(pct);
		return o;
	}
	json_object_set_new(o, "params", cell->params ? json_string(cell->params) :
			    json_null());
	/* a percentage's changes are differences in points: pt, change_pt */
	json_object_set_new(o, cell->points ? "pt" : "pct", pct);
	if (cell->points) {
		json_object_set_new(o, "change_pt", num(cell->pt));
		json_object_set_new(o, "change_lo_pt", num(cell->pt_lo));
		json_object_set_new(o, "change_hi_pt", num(cell->pt_hi));
	}
	json_object_set_new(o, "change_of",
			    json_string(stat_test_change_of(c->opts.test)));
	json_object_set_new(o, "change", num(r->change));
	json_object_set_new(o, "change_lo", num(r->lo));
	json_object_set_new(o, "change_hi", num(r->hi));
	json_object_set_new(o, "p", num(r->p));
	json_object_set_new(o, "significant", json_boolean(r->significant));
	json_object_set_new(o, "verdict", json_string(verdict_names[r->verdict]));
	json_object_set_new(o, "why", json_string(r->why));
	json_object_set_new(o, "run_noise_pct", num(r->noise_pct));
	json_object_set_new(o, "run_noise_runs", json_integer(r->noise_runs));
	json_object_set_new(o, "unit", json_string(r->runs_a ? "run" : "iteration"));
	json_object_set_new(o, "runs", r->runs_a ? json_pack("[i, i]", r->runs_a, r->runs_b) :
			    json_null());
	json_object_set_new(o, "mde_pct", num(r->mde));
	json_object_set_new(o, "rules_out_pct", num(r->rules_out));
	if (r->huge)
		json_object_set_new(o, "common_sense", json_true());
	if (r->model_aside)	/* only then: older documents stay as they were */
		json_object_set_new(o, "model_aside_pct", num(r->model_pct));
	json_object_set_new(o, "runs_needed", r->runs_needed ?
			    json_integer(r->runs_needed) : json_null());
	ex = json_array();
	for (size_t e = 0; e < cell->nexpl; e++) {
		const struct cmp_expl *x = &cell->expl[e];

		json_array_append_new(ex, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
			"metric", x->metric, "base", num(x->base),
			"base_stddev_pct", num(x->base_sd_pct), "cand", num(x->cand),
			"cand_stddev_pct", num(x->cand_sd_pct),
			"change_pct", num(x->change_pct),
			"change_pt", num(x->change_pt)));
	}
	json_object_set_new(o, "explain", ex);
	/* why explain[] may be empty: no probe recorded anything */
	json_object_set_new(o, "probes_off", json_boolean(cell->probes_off));
	return o;
}

void render_compare_json(FILE *f, const struct comparison *c)
{
	json_t *doc = json_object(), *runs = json_array(), *jobs = json_array();
	json_t *notes = json_array();

	json_object_set_new(doc, "schema", json_string(COMPARE_SCHEMA));
	/* what decided: runs-t where the runs' medians did */
	json_object_set_new(doc, "test", json_string(cmp_test_name(c)));
	json_object_set_new(doc, "unit", json_string(c->runs_used ? "run" : "iteration"));
	json_object_set_new(doc, "alpha", json_real(c->opts.alpha));
	json_object_set_new(doc, "threshold", json_real(c->opts.threshold));
	json_object_set_new(doc, "match", json_string(c->match));
	json_object_set_new(doc, "verdict", json_string(verdict_names[c->overall]));
	for (size_t k = 0; k < c->nruns; k++) {
		const struct cmp_run *r = &c->runs[k];

		json_array_append_new(runs, json_pack("{s:s, s:s, s:s, s:o, s:f, s:f, s:f}",
			"name", r->name, "spec", r->spec, "uuid", r->uuid,
			"verdict", k ? json_string(verdict_names[c->verdict[k]]) :
				       json_null(),
			"user_s", r->user_s, "sys_s", r->sys_s,
			"elapsed_s", r->elapsed_s));
	}
	json_object_set_new(doc, "runs", runs);
	for (size_t jn = 0; jn < c->njobs; jn++) {
		const struct cmp_job *j = &c->jobs[jn];
		json_t *cases = json_array();

		for (size_t i = 0; i < j->ncases; i++) {
			json_t *cells = json_array();

			for (size_t k = 0; k < c->nruns; k++)
				json_array_append_new(cells, cell_json(c,
					&j->cases[i].cell[k], k));
			json_array_append_new(cases, json_pack("{s:s, s:s, s:o}",
				"sweep", j->cases[i].sweep, "params",
				j->cases[i].params, "runs", cells));
		}
		json_t *jo = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}",
			"job", j->job, "workload", j->workload,
			"sweep_keys", j->sweep_keys, "metric", j->metric.name,
			"unit", j->metric.unit, "better",
			better_word(j->metric.better));

		/* --metrics' other tables say so; the headline's as before */
		if (!j->metric.headline)
			json_object_set_new(jo, "headline", json_false());
		if (c->ratio) {
			json_t *g = json_array();

			for (size_t k = 0; k < c->nruns; k++)
				json_array_append_new(g, isnan(j->gmean_ratio[k]) ?
					json_null() : json_real(j->gmean_ratio[k]));
			json_object_set_new(jo, "gmean_ratio", g);
		}
		json_object_set_new(jo, "cases", cases);
		json_array_append_new(jobs, jo);
	}
	json_object_set_new(doc, "jobs", jobs);
	for (size_t i = 0; i < c->nnotes; i++)
		json_array_append_new(notes, json_string(c->notes[i]));
	json_object_set_new(doc, "notes", notes);
	if (c->judge)
		json_object_set(doc, "judge", c->judge);
	json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		   JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(doc);
}
