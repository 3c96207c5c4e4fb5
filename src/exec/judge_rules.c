// SPDX-License-Identifier: GPL-2.0-only
/*
 * exec/judge_rules.c: judge's decision (exec/judge.h) - at each look of the
 * run, the threshold rule (a regression beyond --threshold, or one
 * ruled out; the run the unit against a stored baseline) or the bisect
 * mode's placing between good and bad; then the exit code and why.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/match.h"
#include "compare/noise_model.h"
#include "exec/judge.h"
#include "harness/identity.h"
#include "model/run.h"
#include "stats/noise.h"
#include "stats/summary.h"
#include "util.h"

static struct case_note *note_of(struct judge *j, unsigned seq)
{
	if (seq > j->nnotes) {
		j->notes = xrealloc(j->notes, seq * sizeof(*j->notes));
		memset(j->notes + j->nnotes, 0, (seq - j->nnotes) * sizeof(*j->notes));
		j->nnotes = seq;
	}
	return &j->notes[seq - 1];
}

/* The case of r that plan case c will measure again. */
static const struct run_case *stored_case(const struct run *r,
					  const struct plan_case *c,
					  bool match_job)
{
	struct case_key k = { .job = c->job, .workload = c->wl->name,
			      .version = identity_version(c->wl),
			      .params = c->params, .sweep = c->sweep };

	return case_find(r, &k, match_job);
}

/* The case of r that a stored case x measured too. */
static const struct run_case *twin_case(const struct run *r,
					const struct run_case *x, bool match_job)
{
	struct case_key k = case_key_of(x);

	return case_find(r, &k, match_job);
}

/* The headline's finite samples of a stored case into *x (malloc'd). */
static size_t stored_samples(const struct run *r, const struct run_case *rc,
			     double **x, const struct metric_def **def)
{
	int m = run_headline(r, rc->workload), s;
	size_t n = 0;

	*x = xmalloc((rc->niter + 1) * sizeof(**x));
	if (m < 0 || (s = rc->by_metric[m]) < 0)
		return 0;
	if (def)
		*def = &r->metrics[m];
	for (size_t i = 0; i < rc->niter; i++)
		if (isfinite(rc->series[s].x[i]))
			(*x)[n++] = rc->series[s].x[i];
	return n;
}

static size_t live_samples(const struct case_result *r, double **x,
			   enum better *dir)
{
	int h = case_result_headline(r);

	*x = xmalloc((r->niter + 1) * sizeof(**x));
	if (h < 0)
		return 0;
	if (dir)
		*dir = r->cols.def[h].better;
	return case_result_column(r, (size_t)h, *x);
}

/* Every row's headline, NaN kept (rounds stay aligned), into *x. */
static size_t live_rows(const struct case_result *r, double **x)
{
	int h = case_result_headline(r);

	*x = xmalloc((r->niter + 1) * sizeof(**x));
	for (size_t i = 0; i < r->niter; i++)
		(*x)[i] = h < 0 ? NAN : r->values[i * r->cols.n + (size_t)h];
	return h < 0 ? 0 : r->niter;
}

/* A look's reason: "regressed: -6.1% [-9.0, -3.2] at alpha 0.01, why"
 * ("[n/a]" where there is no interval). */
static void look_why(char *why, size_t len, const struct cmp_result *res,
		     double alpha)
{
	char iv[64] = "[n/a]";

	if (isfinite(res->lo) && isfinite(res->hi))
		snprintf(iv, sizeof(iv), "[%+.1f, %+.1f]", res->lo, res->hi);
	snprintf(why, len, "%s: %+.1f%% %s at alpha %.3g, %s",
		 verdict_names[res->verdict], res->change, iv, alpha, res->why);
}

/*
 * The threshold rule between separate runs (--unit run, a stored
 * baseline): the build's run against the baseline's, the run the unit
 * (stats/noise.h), with this host's noise model of the case. Stops
 * when the exit code is known, when there is no model (one run a side
 * then decides nothing, whatever the iterations), or when the run's
 * median is already more precise than the run's own offset: more
 * iterations buy nothing there.
 */
static bool enough_runs(struct judge *j, const struct run_case *bc,
			const struct metric_def *def, const double *b, size_t nb,
			double alpha, char *why, size_t len)
{
	struct noise_query q = { .job = bc->job, .metric = def->name,
				 .params = bc->params, .version = bc->version,
				 .exclude = (const char *const *)&j->base->uuid,
				 .nexclude = 1 };
	struct cmp_opts co = j->co;
	struct noise_model m;
	struct cmp_result res;
	char host[512];
	double *a, ma, mb, cv = noise_robust_cv(b, nb);
	size_t na = stored_samples(j->base, bc, &a, NULL);
	bool known, stop;

	if (j->base->host) {
		noise_glob_exact(j->base->host, host, sizeof(host));
		q.host = host;
	}
	known = j->st && noise_model_case(j->st, &q, &m) == 1;
	co.alpha = alpha;
	if (stats_median(a, na, &ma) || stats_median(b, nb, &mb))
		ma = mb = NAN;
	noise_compare(&ma, 1, (double)na, &mb, 1, (double)nb, def->better,
		      known ? &m : NULL, &co, &res);
	stop = !known || res.verdict == V_REGRESSED ||
	       (isfinite(res.lo) && res.lo > -co.threshold) ||
	       noise_iterations_enough(&m, cv, (double)nb);
	if (!known)
		snprintf(why, len, "%+.1f%% against the stored baseline, and no model of this host's run-to-run noise of the case: more iterations would not decide; the comparison of the runs does",
			 res.change);
	else if (stop && res.verdict != V_REGRESSED &&
		 !(isfinite(res.lo) && res.lo > -co.threshold))
		snprintf(why, len, "%s: %+.1f%% at alpha %.3g; the median's standard error, %.1f%%, is below this host's run-to-run offset of %.1f%%: more runs, not iterations, would decide",
			 verdict_names[res.verdict], res.change, alpha,
			 100 * noise_median_precision(cv, (double)nb), 100 * m.offset);
	else
		look_why(why, len, &res, alpha);
	free(a);
	return stop;
}

/*
 * The threshold rule at one look: stop when the exit code is known -
 * regressed (1), or the interval's lower end above -threshold (0).
 */
static bool enough_threshold(struct judge *j, const struct plan_case *c,
			     const struct case_result *const *r, size_t nr,
			     double alpha, char *why, size_t len)
{
	struct cmp_opts co = j->co;
	struct run_noise rn;
	const struct run_noise *rnp = NULL;
	const struct run_case *bc = NULL;
	struct cmp_result res;
	enum better dir = BETTER_LOWER;
	double *a, *b;
	size_t na, nb;
	bool stop;

	nb = live_samples(r[0], &b, &dir);
	if (j->live && nr > 1) {
		na = live_samples(r[1], &a, NULL);
	} else {
		const struct metric_def *def = NULL;

		bc = stored_case(j->base, c, j->match_job);
		if (!bc) {
			free(b);
			snprintf(why, len, "the baseline has no such case");
			return true;
		}
		na = stored_samples(j->base, bc, &a, &def);
		if (def && j->co.runs_unit) {
			free(a);
			stop = enough_runs(j, bc, def, b, nb, alpha, why, len);
			free(b);
			return stop;
		}
		if (def) {
			rnp = compare_case_noise(j->st, j->base, bc, def->name, &rn);
			dir = def->better;
		}
	}
	co.alpha = alpha;
	stats_compare(a, na, b, nb, dir, &co, rnp, &res);
	stop = res.verdict == V_REGRESSED ||
	       (isfinite(res.lo) && res.lo > -co.threshold);
	look_why(why, len, &res, alpha);
	free(a);
	free(b);
	return stop;
}

static bool enough_classify(struct judge *j, const struct plan_case *c,
			    const struct case_result *const *r, size_t nr,
			    double alpha, struct seq_class *cls)
{
	double *g = NULL, *b = NULL, *x = NULL;
	size_t ng, nb, nx;
	int rc;

	if (j->live && nr > 2) {
		nx = live_rows(r[0], &x);
		ng = live_rows(r[1], &g);
		nb = live_rows(r[2], &b);
		rc = seq_classify(x, nx, g, ng, b, nb, true, alpha, CLASSIFY_ALPHA, cls);
	} else {
		const struct run_case *gc = stored_case(j->base, c, j->match_job);
		const struct run_case *bc = stored_case(j->bad, c, j->match_job);

		nx = live_samples(r[0], &x, NULL);
		if (!gc || !bc) {
			free(x);
			*cls = (struct seq_class){ .decision = SEQ_UNDECIDED };
			snprintf(cls->why, sizeof(cls->why), "the %s run has no such case",
				 gc ? "bad" : "good");
			return true;
		}
		ng = stored_samples(j->base, gc, &g, NULL);
		nb = stored_samples(j->bad, bc, &b, NULL);
		rc = seq_classify(x, nx, g, ng, b, nb, false, alpha, CLASSIFY_ALPHA, cls);
	}
	if (rc) {
		*cls = (struct seq_class){ .decision = SEQ_UNDECIDED };
		snprintf(cls->why, sizeof(cls->why), "no positive samples to place");
	}
	free(x);
	free(g);
	free(b);
	return cls->decision != SEQ_UNDECIDED;
}

bool judge_enough(void *arg, const struct plan_case *c,
		  const struct case_result *const *r, size_t nr,
		  char *why, size_t len)
{
	struct judge *j = arg;
	struct case_note *n = note_of(j, c->seq);
	double alpha = j->mode == M_CLASSIFY ?
		seq_alpha_sign(CLASSIFY_ALPHA, c->min_iter, c->max_iter) :
		seq_alpha(0.05, c->min_iter, c->max_iter);
	bool stop;

	n->looked = true;
	if (j->mode == M_THRESHOLD)
		j->look_alpha = alpha;
	if (j->mode == M_THRESHOLD)
		return enough_threshold(j, c, r, nr, alpha, why, len);
	stop = enough_classify(j, c, r, nr, alpha, &n->cls);
	n->have_cls = true;
	snprintf(why, len, "%s", n->cls.why);
	return stop;
}

void judge_done(void *arg, const struct plan_case *c, unsigned n,
		bool decided, const char *why)
{
	struct case_note *cn = note_of(arg, c->seq);

	cn->n = n;
	cn->decided = decided;
	snprintf(cn->why, sizeof(cn->why), "%s", why);
}

/*
 * Classifies a stored candidate as a whole (--run, or fixed iterations):
 * one look at alpha.
 */
void judge_classify_stored(struct judge *j, const struct run *cand,
			   const struct run *const *refs, bool paired)
{
	for (size_t i = 0; i < cand->ncases; i++) {
		const struct run_case *cc = &cand->cases[i];
		struct case_note *n = note_of(j, cc->seq);
		const struct run_case *gc, *bc;
		double *x, *g = NULL, *b = NULL;
		size_t nx, ng = 0, nb = 0;

		/* live references differ from the build by their --set */
		gc = twin_case(refs[0], cc, j->match_job || paired);
		bc = twin_case(refs[1], cc, j->match_job || paired);
		nx = stored_samples(cand, cc, &x, NULL);
		if (gc)
			ng = stored_samples(refs[0], gc, &g, NULL);
		if (bc)
			nb = stored_samples(refs[1], bc, &b, NULL);
		n->have_cls = true;
		if (!gc || !bc ||
		    seq_classify(x, nx, g, ng, b, nb, paired && nx == ng && nx == nb,
				 CLASSIFY_ALPHA, CLASSIFY_ALPHA, &n->cls)) {
			n->cls = (struct seq_class){ .decision = SEQ_UNDECIDED };
			snprintf(n->cls.why, sizeof(n->cls.why), "%s",
				 !gc || !bc ? "a reference lacks the case" :
				 "no positive samples to place");
		}
		n->n = (unsigned)nx;
		n->decided = n->cls.decision != SEQ_UNDECIDED;
		snprintf(n->why, sizeof(n->why), "%s", n->cls.why);
		free(x);
		free(g);
		free(b);
	}
}

/*
 * Whether stored good and bad references differ in some case (by the
 * test the bisect mode places the build with): if not, every commit
 * would be skipped - bad input, to be refused before anything runs.
 * Then why holds what would let them differ: the references' iteration
 * counts where Mann-Whitney cannot reach the level with them (how many
 * can), else the nearest case's p.
 */
bool judge_refs_differ(const struct run *g, const struct run *b,
		       bool match_job, char *why, size_t len)
{
	size_t shared = 0, reachable = 0, need;
	size_t best_nx = 0, best_ny = 0, few_nx = 0, few_ny = 0;
	double best_p = INFINITY;
	const struct run_case *best = NULL;

	for (size_t i = 0; i < g->ncases; i++) {
		const struct run_case *gc = &g->cases[i];
		const struct run_case *bc = twin_case(b, gc, match_job);
		double *x, *y;
		size_t nx, ny;
		struct mwu u;
		bool any;

		if (!bc)
			continue;
		shared++;
		nx = stored_samples(g, gc, &x, NULL);
		ny = stored_samples(b, bc, &y, NULL);
		any = !stats_mann_whitney(x, nx, y, ny, &u);
		free(x);
		free(y);
		if (any && u.p < CLASSIFY_ALPHA)
			return true;
		if (stats_mwu_min_p(nx, ny) < CLASSIFY_ALPHA)
			reachable++;
		else if (!few_nx || nx + ny < few_nx + few_ny) {
			few_nx = nx;
			few_ny = ny;
		}
		if (any && u.p < best_p) {
			best_p = u.p;
			best = gc;
			best_nx = nx;
			best_ny = ny;
		}
	}
	need = stats_min_samples(TEST_MWU, CLASSIFY_ALPHA);
	if (!shared)
		snprintf(why, len, "they share no case (the same job, workload version and parameters)");
	else if (!reachable)
		snprintf(why, len, "with %zu and %zu iterations Mann-Whitney cannot reach p < %g at all (its smallest p is %.4f); references of %zu or more iterations a side can (run them again with --iterations %zu or more, or run them beside the build: --good-set, --bad-set)",
			 few_nx, few_ny, CLASSIFY_ALPHA,
			 stats_mwu_min_p(few_nx, few_ny), need, need);
	else if (best)
		snprintf(why, len, "the nearest, %s%s%s with %zu and %zu iterations, has p = %.4f: more iterations in each reference (runs of more than %zu a side), or references run beside the build (--good-set, --bad-set), would show a difference if there is one",
			 best->job, *best->sweep ? " " : "", best->sweep,
			 best_nx, best_ny, best_p,
			 best_nx > best_ny ? best_nx : best_ny);
	else
		snprintf(why, len, "no case they share has samples to test");
	return false;
}

/* The bisect mode's exit code from the cases' decisions. */
int judge_classify_code(const struct judge *j, const struct run *cand,
			char *why, size_t len)
{
	size_t good = 0, bad = 0, ignored = 0, undecided = 0;

	for (size_t i = 0; i < cand->ncases; i++) {
		unsigned seq = cand->cases[i].seq;
		const struct case_note *n = seq <= j->nnotes ? &j->notes[seq - 1] : NULL;

		if (!n || !n->have_cls)
			undecided++;
		else if (n->cls.decision == SEQ_BAD)
			bad++;
		else if (n->cls.decision == SEQ_GOOD)
			good++;
		else if (!n->cls.refs_differ)
			ignored++;
		else
			undecided++;
	}
	if (bad) {
		snprintf(why, len, "%zu case%s nearer bad", bad, bad == 1 ? "" : "s");
		return EXIT_RUN_FAILED;
	}
	if (good && !undecided) {
		snprintf(why, len, "%s nearer good%s", good == 1 ? "the case" : "every case",
			 ignored ? " (cases whose references do not differ left out)" : "");
		return EXIT_OK;
	}
	snprintf(why, len, "%s", ignored && !undecided ?
		 "the good and bad references do not differ in any case" :
		 "undecided within the limits");
	return EXIT_SKIP;
}

/*
 * The threshold mode's exit code: 1 when a case regressed; else 125
 * when a case cannot rule out a regression as large as the threshold
 * (its interval reaches below -threshold, or nothing could be tested);
 * else 0 - an uncertain improvement is no reason to skip a commit.
 */
int judge_threshold_code(const struct comparison *c)
{
	int rc = EXIT_OK;

	for (size_t j = 0; j < c->njobs; j++)
		for (size_t i = 0; i < c->jobs[j].ncases; i++) {
			const struct cmp_result *r = &c->jobs[j].cases[i].cell[1].r;

			if (!c->jobs[j].metric.headline)
				continue;	/* --metrics' other tables: shown only */

			if (r->verdict == V_REGRESSED)
				return EXIT_RUN_FAILED;
			if (r->verdict == V_INCONCLUSIVE &&
			    (isnan(r->lo) || r->lo < -c->opts.threshold))
				rc = EXIT_SKIP;
		}
	return rc;
}

/*
 * Whether every headline case was "no change" by equivalence (runs as
 * the unit): then judge says "no change beyond X%", X the threshold,
 * and *most the largest change any case's runs left possible.
 */
bool judge_all_equivalent(const struct comparison *c, double *most)
{
	bool any = false;

	*most = 0;
	for (size_t j = 0; j < c->njobs; j++)
		for (size_t i = 0; i < c->jobs[j].ncases; i++) {
			const struct cmp_result *r = &c->jobs[j].cases[i].cell[1].r;

			if (!c->jobs[j].metric.headline)
				continue;
			if (r->verdict != V_NO_CHANGE || !isfinite(r->rules_out))
				return false;
			*most = fmax(*most, r->rules_out);
			any = true;
		}
	return any;
}
