// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab judge: one verdict as an exit code for `git bisect run`.
 *
 *   judge --baseline RUN [SUITE|JOBFILE]   is the build worse than RUN
 *                                          by the threshold or more?
 *   judge --good RUN --bad RUN [...]       is it nearer good or bad?
 *   judge --good-set K=V --bad-set K=V     the same, the references run
 *                                          beside the build, interleaved
 *   judge --good-set K=V [...]             --baseline's question, the
 *                                          good reference run beside it
 *
 * Iterations are adaptive unless --iterations N: the executor looks at
 * each case as it goes (stats/sequential.h) and stops as soon as the
 * exit code is known. Exit: 0 good, 1 bad, 125 skip (undecided within
 * the limits, or the build's run failed), 128 abort (bad input, a
 * reference that failed, the database), 130 interrupted.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/compare_cli.h"
#include "compare/match.h"
#include "compare/noise_model.h"
#include "exec/exec.h"
#include "harness/identity.h"
#include "harness/plan.h"
#include "harness/runner.h"
#include "model/run.h"
#include "probe/sysenv.h"
#include "stats/noise.h"
#include "stats/sequential.h"
#include "stats/summary.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"

/*
 * The bisect mode's design (doc/statistics.md): each wrong call at most
 * CLASSIFY_ALPHA, in up to CLASSIFY_MAX rounds unless --max-iterations.
 */
#define CLASSIFY_ALPHA 0.02
#define CLASSIFY_MAX 100

#define O(f) offsetof(struct compare_opts, f)
static const struct opt_def judge_options[] = {
	{ .name = "baseline", .type = OPT_STRING, .offset = O(baseline), .arg = "RUN",
	  .help = "the good run to judge against by --threshold (id, label or exported file)" },
	{ .name = "good", .type = OPT_STRING, .offset = O(good), .arg = "RUN",
	  .help = "with --bad: is the build nearer this run or the bad one? (bisect mode)" },
	{ .name = "bad", .type = OPT_STRING, .offset = O(bad), .arg = "RUN",
	  .help = "the bad run of the bisect mode" },
	{ .name = "good-set", .type = OPT_LIST, .offset = O(good_sets),
	  .arg = "[JOB.]KEY=VALUE",
	  .help = "the good reference is the same plan with this --set, run beside the build, interleaved (e.g. argv=/tmp/good/prog); repeatable" },
	{ .name = "bad-set", .type = OPT_LIST, .offset = O(bad_sets),
	  .arg = "[JOB.]KEY=VALUE",
	  .help = "the bad reference likewise (with --good-set: bisect mode)" },
	{ .name = "run", .type = OPT_STRING, .offset = O(run), .arg = "RUN",
	  .help = "judge this stored run instead of running a suite" },
	{ .name = "label", .type = OPT_STRING, .offset = O(label), .arg = "LABEL",
	  .help = "label of the run judge makes (default: git describe of the current directory, else HOSTNAME-KERNELRELEASE)" },
	OPT_ITERATIONS(struct compare_opts, iterations),
	OPT_MONITOR(struct compare_opts, monitors, monitor_interval),
	OPT_TRACE(struct compare_opts, trace),
	OPT_ADAPTIVE(struct compare_opts, min_iter, max_iter, budget),
	OPT_SET(struct compare_opts, sets),
	COMMON_OPTIONS,
	{ .name = NULL },
};
#undef O

static void judge_usage(FILE *f)
{
	fprintf(f, "usage: schedlab judge --baseline RUN [SUITE|JOBFILE|--run RUN] [OPTIONS]\n"
		"       schedlab judge --good RUN --bad RUN [SUITE|JOBFILE|--run RUN] [OPTIONS]\n"
		"       schedlab judge --good-set KEY=VALUE [--bad-set KEY=VALUE] [SUITE|JOBFILE] [OPTIONS]\n\n"
		"Runs a suite (default: quick) or a job file like 'schedlab run' - with as many\n"
		"iterations as the decision needs, unless --iterations N - compares it with\n"
		"the baseline, or places it between a good and a bad state, and says why, for\n"
		"git bisect run. --good-set/--bad-set run the references beside the build,\n"
		"iteration by iteration, so that the machine's drift cancels. The bisect mode\n"
		"(--good/--bad, --good-set with --bad-set) calls each build wrong at most 2%%\n"
		"of the time and adds rounds up to 100 unless --max-iterations.\n\n"
		"Options:\n");
	opts_help(f, judge_options);
	fprintf(f, "\nExit status (for git bisect run):\n"
		"  0    good: no regression beyond the threshold, or nearer good\n"
		"  1    bad: a regression beyond the threshold, or nearer bad\n"
		"  125  skip: undecided within the iteration limit or budget, or the build's run failed\n"
		"  128  abort: bad input, an unknown or mismatched baseline, a reference that failed,\n"
		"       the database could not be opened or written\n"
		"  130  interrupted (git bisect run stops at 128 and 130)\n");
}

enum mode { M_THRESHOLD, M_CLASSIFY };

/* What judge learnt about each case of its plan, by seq. */
struct case_note {
	unsigned n;		/* iterations (rounds) */
	bool decided, looked;
	char why[384];
	struct seq_class cls;	/* M_CLASSIFY */
	bool have_cls;
};

struct judge {
	enum mode mode;
	bool live;		/* references run beside the build */
	const struct run *base, *bad;	/* stored references */
	struct store *st;	/* history: run-to-run noise of base */
	struct cmp_opts co;
	struct case_note *notes;
	size_t nnotes;
	double look_alpha;	/* of the threshold mode's looks; 0: none */
	bool match_job;		/* --match job */
};

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
	if (known && stop && res.verdict != V_REGRESSED &&
	    !(isfinite(res.lo) && res.lo > -co.threshold))
		snprintf(why, len, "%s: %+.1f%% at alpha %.3g; the median's standard error, %.1f%%, is below this host's run-to-run offset of %.1f%%: more runs, not iterations, would decide",
			 verdict_names[res.verdict], res.change, alpha,
			 100 * noise_median_precision(cv, (double)nb), 100 * m.offset);
	else
		snprintf(why, len, "%s: %+.1f%% [%+.1f, %+.1f] at alpha %.3g, %s",
			 verdict_names[res.verdict], res.change, res.lo, res.hi,
			 alpha, res.why);
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
	snprintf(why, len, "%s: %+.1f%% [%+.1f, %+.1f] at alpha %.3g, %s",
		 verdict_names[res.verdict], res.change, res.lo, res.hi, alpha,
		 res.why);
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

static bool judge_enough(void *arg, const struct plan_case *c,
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

static void judge_done(void *arg, const struct plan_case *c, unsigned n,
		       bool decided, const char *why)
{
	struct case_note *cn = note_of(arg, c->seq);

	cn->n = n;
	cn->decided = decided;
	snprintf(cn->why, sizeof(cn->why), "%s", why);
}

static bool has_case_failed(const struct run *r, const char **why)
{
	for (size_t i = 0; i < r->ncases; i++)
		if (!r->cases[i].complete) {
			*why = r->cases[i].reason ? r->cases[i].reason : "failed";
			return true;
		}
	return false;
}

/* --label, else git describe of the work tree we are in, else NULL. */
static const char *default_label(const struct compare_opts *o, char *buf,
				 size_t len)
{
	if (o->label)
		return o->label;
	return sysenv_git_describe(buf, len) ? NULL : buf;
}

/*
 * Classifies a stored candidate as a whole (--run, or fixed iterations):
 * one look at alpha.
 */
static void classify_stored(struct judge *j, const struct run *cand,
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
static bool refs_differ(const struct run *g, const struct run *b,
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
static int classify_code(const struct judge *j, const struct run *cand,
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
static int threshold_code(const struct comparison *c)
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
static bool all_equivalent(const struct comparison *c, double *most)
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

static json_t *judge_json(const struct judge *j, const struct run *cand, int rc,
			  const char *why)
{
	json_t *cases = json_array();

	for (size_t i = 0; i < cand->ncases; i++) {
		unsigned seq = cand->cases[i].seq;
		const struct case_note *n = seq <= j->nnotes ? &j->notes[seq - 1] : NULL;
		json_t *o = json_pack("{s:s, s:s, s:i}", "job", cand->cases[i].job,
				      "sweep", cand->cases[i].sweep,
				      "iterations", (json_int_t)cand->cases[i].niter);

		if (n) {
			json_object_set_new(o, "decided", json_boolean(n->decided));
			json_object_set_new(o, "why", json_string(n->why));
		}
		if (n && n->have_cls) {
			const struct seq_class *k = &n->cls;

			json_object_set_new(o, "decision",
					    json_string(seq_decision_names[k->decision]));
			json_object_set_new(o, "position", isfinite(k->pos) ? json_real(k->pos) : json_null());
			json_object_set_new(o, "position_lo", isfinite(k->lo) ? json_real(k->lo) : json_null());
			json_object_set_new(o, "position_hi", isfinite(k->hi) ? json_real(k->hi) : json_null());
			json_object_set_new(o, "references_pct", isfinite(k->ref_pct) ? json_real(k->ref_pct) : json_null());
			json_object_set_new(o, "references_differ", json_boolean(k->refs_differ));
		}
		json_array_append_new(cases, o);
	}
	return json_pack("{s:s, s:b, s:s, s:i, s:s, s:o}",
			 "mode", j->mode == M_CLASSIFY ? "classify" : "threshold",
			 "interleaved", j->live,
			 "decision", rc == EXIT_OK ? "good" : rc == EXIT_RUN_FAILED ? "bad" : "skip",
			 "exit", rc, "why", why, "cases", cases);
}

static void print_case_lines(const struct judge *j, const struct run *cand)
{
	FILE *f = text_safe(stderr);

	for (size_t i = 0; i < cand->ncases; i++) {
		unsigned seq = cand->cases[i].seq;
		const struct case_note *n = seq <= j->nnotes ? &j->notes[seq - 1] : NULL;

		if (n && *n->why)
			fprintf(f, "judge: case %u (%s%s%s): %zu iteration%s: %s\n", seq,
				cand->cases[i].job, *cand->cases[i].sweep ? " " : "",
				cand->cases[i].sweep, cand->cases[i].niter,
				cand->cases[i].niter == 1 ? "" : "s", n->why);
	}
	fclose(f);
}

struct judge_args {
	struct compare_opts o;
	struct cmp_opts co;
	struct run_source *src;	/* the database, read through one handle */
	const char *spec;	/* SUITE or JOBFILE, or NULL */
	const char *command;	/* the command line, for the run it stores */
};

/*
 * Runs the build (and its live references) into the store: ids[0] the
 * build's run, ids[1], ids[2] the references'. Returns the exit code.
 */
static int judge_run(struct judge_args *a, struct judge *j, int64_t ids[3])
{
	struct run_variant vars[2];
	struct run_adapt ad = { judge_enough, judge_done, j };
	char lbuf[256];
	bool store_failed = false;
	struct run_request rq = {
		.spec = a->spec, .db = a->o.db, .quiet = true, .test = a->co.test,
		.iterations = a->o.iterations ? a->o.iterations : "auto",
		.min_iter = a->o.min_iter, .max_iter = a->o.max_iter,
		.budget = a->o.budget, .sets = a->o.sets.v, .nsets = a->o.sets.n,
		.monitors = a->o.monitors, .monitor_interval = a->o.monitor_interval,
		.trace = a->o.trace,
		.variants = vars, .adapt = &ad, .variant_ids = ids + 1,
		.store_failed = &store_failed,
	};
	int rc;

	rq.label = default_label(&a->o, lbuf, sizeof(lbuf));
	if (j->mode == M_CLASSIFY && !rq.max_iter)
		rq.max_iter = CLASSIFY_MAX;
	if (a->o.good_sets.n) {
		vars[rq.nvariants++] = (struct run_variant){ "good",
			a->o.good_sets.v, a->o.good_sets.n, NULL };
		if (a->o.bad_sets.n)
			vars[rq.nvariants++] = (struct run_variant){ "bad",
				a->o.bad_sets.v, a->o.bad_sets.n, NULL };
	}
	if (run_check_iterations("judge", &rq))
		return EXIT_ABORT;
	rq.command = a->command;
	rc = exec_run(&rq, &ids[0]);
	if (store_failed && rc != EXIT_INTERRUPTED) {
		/* not the commit's fault: no verdict, and bisect must stop */
		error("judge: the database could not be written: abort (%d)", EXIT_ABORT);
		return EXIT_ABORT;
	}
	if (rc == EXIT_USAGE)
		return EXIT_ABORT;
	if (rc == EXIT_INTERRUPTED)
		return rc;
	if (ids[0] < 0)
		return EXIT_SKIP;
	return rc == EXIT_OK ? EXIT_OK : EXIT_RUN_FAILED;
}

static int judge_main(struct judge_args *a)
{
	struct judge j = { .co = a->co, .match_job = a->o.match == MATCH_JOB };
	struct run runs[3];
	const struct run *rp[3];
	const char *specs[3];
	char names[3][32], why[256], vtext[512], refs_why[512];
	int64_t ids[3] = { -1, -1, -1 };
	struct comparison c;
	size_t nruns = 0;
	const char *failed;
	int rc, run_rc = EXIT_OK;
	bool loaded_refs = false;

	memset(runs, 0, sizeof(runs));
	j.mode = a->o.good_sets.n ? (a->o.bad_sets.n ? M_CLASSIFY : M_THRESHOLD) :
		 a->o.good ? M_CLASSIFY : M_THRESHOLD;
	j.live = a->o.good_sets.n > 0;
	/* stored references first: a typo must not cost a run */
	if (!j.live) {
		const char *rs[2] = { a->o.baseline ? a->o.baseline : a->o.good, a->o.bad };

		if (run_source_load_many(a->src, rs, j.mode == M_CLASSIFY ? 2 : 1,
					 runs))
			return EXIT_ABORT;
		loaded_refs = true;
		j.base = &runs[0];
		j.bad = j.mode == M_CLASSIFY ? &runs[1] : NULL;
		if (j.mode == M_THRESHOLD)	/* borrowed: the source's */
			j.st = run_source_store(a->src);
		if (j.bad && !refs_differ(j.base, j.bad, j.match_job,
					  refs_why, sizeof(refs_why))) {
			error("judge: %s (good) and %s (bad) do not differ in any case they share (Mann-Whitney, p < %g): %s; nothing to place a build by: abort (%d)",
			      a->o.good, a->o.bad, CLASSIFY_ALPHA, refs_why,
			      EXIT_ABORT);
			goto abort;
		}
	}
	if (a->o.run) {
		if (run_source_load(a->src, a->o.run, &runs[2]))
			goto abort;
		snprintf(names[0], sizeof(names[0]), "%s", a->o.run);
	} else {
		run_rc = judge_run(a, &j, ids);
		if (run_rc == EXIT_ABORT || run_rc == EXIT_INTERRUPTED ||
		    run_rc == EXIT_SKIP) {
			rc = run_rc;
			goto out;
		}
		snprintf(names[0], sizeof(names[0]), "%lld", (long long)ids[0]);
		if (a->src->tried && !a->src->st) {
			/* none there before the run made it: look again */
			run_source_init(a->src, a->src->dbopt);
		}
		if (run_source_load(a->src, names[0], &runs[2])) {
			rc = EXIT_SKIP;
			goto out;
		}

		if (j.live) {
			for (size_t k = 0; k < 2 && ids[k + 1] >= 0; k++) {
				snprintf(names[k + 1], sizeof(names[k + 1]), "%lld",
					 (long long)ids[k + 1]);
				if (run_source_load(a->src, names[k + 1], &runs[k]))
					goto abort;
				if (has_case_failed(&runs[k], &failed) &&
				    !strstr(failed, RUN_EXEC_OTHER_FAILED)) {
					error("judge: the %s reference failed (%s): abort (%d)",
					      k ? "bad" : "good", failed, EXIT_ABORT);
					rc = EXIT_ABORT;
					loaded_refs = true;
					goto out;
				}
			}
			loaded_refs = true;
			j.base = &runs[0];
			j.bad = j.mode == M_CLASSIFY ? &runs[1] : NULL;
		}
		/* the build's own failure (after the references': theirs abort) */
		if (run_rc == EXIT_RUN_FAILED && has_case_failed(&runs[2], &failed)) {
			error("judge: run %s did not complete (%s): skip (%d)",
			      names[0], failed, EXIT_SKIP);
			rc = EXIT_SKIP;
			goto out;
		}
	}
	/* the columns: the good (or baseline), the build, the bad */
	rp[nruns] = j.base;
	specs[nruns++] = j.live ? names[1] : a->o.baseline ? a->o.baseline : a->o.good;
	rp[nruns] = &runs[2];
	specs[nruns++] = names[0];
	if (j.mode == M_CLASSIFY) {
		rp[nruns] = j.bad;
		specs[nruns++] = j.live ? names[2] : a->o.bad;
	}
	if (j.mode == M_THRESHOLD && j.look_alpha > 0)
		j.co.alpha = j.look_alpha;	/* the table at the level the looks used */
	/* live references differ from the build by their --set: match by job */
	if (compare_build(rp, specs, nruns, &j.co, a->o.match == MATCH_JOB || j.live,
			  j.st, &c)) {
		rc = EXIT_ABORT;
		goto out;
	}
	if (j.mode == M_CLASSIFY && (a->o.run || !j.nnotes ||
	    (a->o.iterations && strcmp(a->o.iterations, "auto")))) {
		const struct run *refs[2] = { j.base, j.bad };

		classify_stored(&j, &runs[2], refs, j.live);
	}
	if (j.mode == M_CLASSIFY) {
		rc = classify_code(&j, &runs[2], why, sizeof(why));
	} else {
		double most;

		rc = threshold_code(&c);
		if (rc == EXIT_OK && all_equivalent(&c, &most))
			snprintf(why, sizeof(why), "no change beyond %g%% (the runs rule out more than %.1f%%)",
				 c.opts.threshold, most);
		else
			snprintf(why, sizeof(why), "%s",
				 rc == EXIT_OK ? "no regression beyond the threshold" :
				 rc == EXIT_SKIP ? "a regression can be neither shown nor ruled out" :
				 "a regression beyond the threshold");
	}
	c.judge = judge_json(&j, &runs[2], rc, why);
	if (j.mode == M_CLASSIFY) {
		snprintf(vtext, sizeof(vtext), "bisect: %s (%s), between %s (good) and %s (bad)",
			 rc == EXIT_OK ? "good" : rc == EXIT_RUN_FAILED ? "bad" : "undecided",
			 why, c.runs[0].name, c.runs[2].name);
		c.verdict_text = vtext;
	}
	compare_style(&a->o, &c);
	compare_render(&c, a->o.format);
	json_decref(c.judge);
	print_case_lines(&j, &runs[2]);
	fprintf(stderr, "judge: %s: exit %d (%s for git bisect: %s)\n",
		j.mode == M_CLASSIFY ? "bisect" : verdict_names[c.overall], rc,
		rc == EXIT_OK ? "good" : rc == EXIT_SKIP ? "skip" : "bad", why);
	compare_free(&c);
	goto out;
abort:
	rc = EXIT_ABORT;
out:
	for (size_t k = 0; k < 3; k++)
		if (k == 2 || loaded_refs)
			run_free(&runs[k]);
	free(j.notes);
	return rc;
}

/* judge's options and operands checked: EXIT_OK, or EXIT_ABORT after error(). */
static int judge_check(struct judge_args *a, int argc, char **argv, int first)
{
	int nmodes;

	if (compare_opts_from("judge", a->o.test, a->o.unit, a->o.threshold,
			      a->o.metrics, &a->co))
		return EXIT_ABORT;
	nmodes = !!a->o.baseline + !!(a->o.good || a->o.bad) + !!a->o.good_sets.n;
	if (nmodes != 1 || (a->o.bad_sets.n && !a->o.good_sets.n))
		return error("judge: one of --baseline RUN, --good RUN --bad RUN, or --good-set KEY=VALUE [--bad-set KEY=VALUE] (the good state to judge against): abort (%d)",
			     EXIT_ABORT), EXIT_ABORT;
	if (!!a->o.good != !!a->o.bad)
		return error("judge: --%s RUN needs --%s RUN too (or use --baseline RUN with --threshold): abort (%d)",
			     a->o.good ? "good" : "bad", a->o.good ? "bad" : "good",
			     EXIT_ABORT), EXIT_ABORT;
	if (a->o.run && a->o.good_sets.n)
		return error("judge: --run RUN judges a stored run; --good-set runs a reference beside a new run: choose one: abort (%d)",
			     EXIT_ABORT), EXIT_ABORT;
	if (argc - first > 1 || (a->o.run && argc - first == 1))
		return error("judge: one of SUITE, JOBFILE or --run RUN, got %s '%s': abort (%d)",
			     a->o.run ? "--run and" : "also", argv[argc - 1],
			     EXIT_ABORT), EXIT_ABORT;
	/* a stored reference is a separate run: runs-t decides, not --test */
	if (a->o.test != CMP_TEST_AUTO && !a->o.good_sets.n && a->o.unit == UNIT_RUN)
		return error("judge: --test %s cannot decide against a stored run: with --unit run (the default) each run's median is the sample and runs-t decides; leave --test out, or run the references beside the build (--good-set): abort (%d)",
			     cmp_test_choices[a->o.test], EXIT_ABORT), EXIT_ABORT;
	a->spec = first < argc ? argv[first] : NULL;
	return EXIT_OK;
}

/* judge; command: its command line as given, for the run it stores. */
static int judge(int argc, char **argv, const char *command)
{
	struct judge_args a = { .command = command };
	struct cmd_args ca = { CMD_ARGS(judge_options, a.o), .usage = judge_usage,
			       .bad_rc = EXIT_ABORT };
	int first, rc;

	first = cmd_parse(argc, argv, &ca, &rc);
	if (first < 0)
		return rc;
	a.src = &ca.src;
	rc = judge_check(&a, argc, argv, first);
	if (rc == EXIT_OK)
		rc = judge_main(&a);
	cmd_args_done(&ca);
	return rc;
}

int cmd_judge(int argc, char **argv)
{
	char *command = store_command_line(argv);	/* before getopt reorders argv */
	int rc = judge(argc, argv, command);

	free(command);
	return rc;
}
