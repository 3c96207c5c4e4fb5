// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab ab [SUITE|JOBFILE] --variant 'NAME: KEY=VALUE ...' ...: one
 * plan run under two or more variants - settings (harness/settings.h:
 * knobs, nice, policy, cgroups, environment), affinity, or any option
 * of the jobs (two builds of one program through argv) - interleaved
 * round by round in an order shuffled per round from a recorded seed,
 * so that the machine's drift is shared by every variant. Each variant
 * is a run of its own, labelled LABEL/NAME, the runs linked by one A/B
 * uuid; the comparison against the first variant is printed at the end.
 *
 * Variants come from --variant, or else from the job file's
 * [variant:NAME] sections; --variant replaces the file's. The knobs are
 * switched around each iteration and put back however the run ends
 * (harness/switch.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ab_variant.h"
#include "cmd/cmd.h"
#include "cmd/compare_cli.h"
#include "exec/exec.h"
#include "cmd/setup.h"
#include "compare/session.h"
#include "harness/plan.h"
#include "harness/runner.h"
#include "model/run.h"
#include "stats/sequential.h"
#include "store/load.h"
#include "store/store.h"
#include "report/render_compare.h"
#include "util.h"

#define AB_ALPHA 0.05

struct ab_opts {
	struct run_cmd_opts r;	/* what run takes too */
	struct opt_list variants;
	const char *seed;
	int format, layout;
	bool dry_run;
	bool help;
};

/* --help: its text before the options, and after them */
static const struct cmd_help ab_help = {
	.head = "usage: schedlab ab [SUITE|JOBFILE] --variant 'NAME: KEY=VALUE ...' --variant ... [OPTIONS]\n\n"
		"Runs a suite (default: quick) or a job file under two or more variants,\n"
		"their iterations interleaved round by round in a random order (recorded),\n"
		"stores each variant as a run labelled LABEL/NAME, and compares every\n"
		"variant with the first. A variant's keys are settings - nice, policy,\n"
		"uclamp_min, uclamp_max, env.NAME, cgroup.CONTROLLER.FILE, sysctl.NAME,\n"
		"sched.NAME, sched_feat, scx, a /proc or /sys path - or any key of the\n"
		"jobs (cpus, argv, a workload option). Knobs are switched around each\n"
		"iteration and put back however the run ends.\n\n"
		"  schedlab ab hackbench.job --variant 'base:' \\\n"
		"      --variant 'slice: sysctl.kernel.sched_rr_timeslice_ms=37' \\\n"
		"      --variant 'n7: nice=7'\n\nOptions:\n",
	.tail = "\nExit status: 0 every case of every variant completed, 1 a case failed,\n"
		"2 bad input (nothing changed), 130 interrupted (knobs restored, finished\n"
		"cases kept).\n",
};

#define O(f) offsetof(struct ab_opts, f)
/*
 * variants, the default, and mmtests are what csv, json and html print
 * anyway; another table asked for is refused, as compare does.
 */
static const struct out_refusal ab_refusals[] = {
	{ LAYOUTS_TABLES & ~LAYOUT(VARIANTS), FMT(CSV) | FMT(JSON),
	  "--layout %s is a table for reading (--format text or markdown); --format %s prints compare's document, every number in it" },
	{ LAYOUTS_TABLES & ~LAYOUT(VARIANTS), FMT(HTML),
	  "--layout %s is a table for reading (--format text or markdown); --format %s prints compare's page, its own tables and plots" },
	{ 0 },
};

static const struct opt_def ab_options[] = {
	{ .name = "variant", .type = OPT_LIST, .offset = O(variants),
	  .arg = "'NAME: KEY=VALUE ...'", .short_flag = 'V',
	  .help = "a variant: its name, then settings or job keys (quoted as in a shell); repeatable, the first is the baseline; replaces the job file's [variant:NAME] sections" },
	{ .name = "label", .type = OPT_STRING, .offset = O(r.label), .arg = "LABEL",
	  .help = "the runs' label (default: HOSTNAME-KERNELRELEASE); variant NAME is stored as LABEL/NAME" },
	OPT_DB(struct ab_opts, r.db),
	OPT_ITERATIONS(struct ab_opts, r.iterations),
	OPT_ADAPTIVE(struct ab_opts, r.min_iter, r.max_iter, r.budget),
	OPT_MONITOR(struct ab_opts, r.monitors, r.monitor_interval),
	OPT_TRACE(struct ab_opts, r.trace),
	{ .name = "threshold", .type = OPT_STRING, .offset = O(r.threshold),
	  .def = "5", .arg = "PCT",
	  .help = "the smallest change that matters, in percent (0..1000: 5 or 5%); with auto: stop once each variant differs from the first or both medians are known to +-PCT/2" },
	OPT_SET(struct ab_opts, r.sets),
	{ .name = "seed", .type = OPT_STRING, .offset = O(seed), .arg = "N",
	  .help = "the seed of the rounds' order (1..2^53-1; default: a random one, recorded as environment.interleave_seed): the same seed, the same order" },
	OPT_FORMAT(struct ab_opts, format, COMPARE_FORMATS, "text",
		   "of the comparison: text, markdown, csv or json"),
	OPT_LAYOUT(struct ab_opts, layout, COMPARE_LAYOUTS, "variants",
		   "text and markdown: variants (a table per job, a column per variant with its change, as seed 001's), or a table of compare --layout: mmtests (its full layout), wide, grid, raw or workload; then the verdict (csv and json: compare's document)"),
	{ .name = "dry-run", .type = OPT_BOOL, .offset = O(dry_run), .short_flag = 'n',
	  .help = "print the variants and the expanded plan; run nothing" },
	{ .name = "quiet", .type = OPT_BOOL, .offset = O(r.quiet), .short_flag = 'q',
	  .help = "no progress and no per-run summary; the comparison only" },
	OPT_HELP(struct ab_opts, help),
	{ .name = NULL },
};
#undef O

/* ab's stopping rule (iterations = auto), for every variant against the first. */
struct ab_rule {
	double threshold;
	bool quiet;
	const struct plan_variant *v;
};

/* r's headline column into a fresh array; *n its length. */
static double *headline(const struct case_result *r, size_t *n)
{
	int h = case_result_headline(r);
	double *x = xmalloc((r->niter + 1) * sizeof(*x));

	*n = h < 0 ? 0 : case_result_column(r, (size_t)h, x);
	return x;
}

/*
 * Enough when each variant differs from the first (the within-round
 * permutation test of the rank sum at the look's level) or both medians
 * are known to +-threshold/2. A variant whose case failed is out of it
 * (the others go on); when the first's failed, each other variant's
 * median alone must be known.
 */
static bool ab_enough(void *arg, const struct plan_case *c,
		      const struct case_result *const *r, size_t nr,
		      char *why, size_t len)
{
	const struct ab_rule *rule = arg;
	double alpha = seq_alpha(AB_ALPHA, c->min_iter, c->max_iter), p;
	size_t n0, nk, m, open = 0;
	double *x0 = headline(r[0], &n0);
	char w[160] = "";
	bool base_ok = r[0]->status == RUN_OK;
	bool base_precise = !base_ok ||
			    seq_precise(x0, n0, rule->threshold, w, sizeof(w));
	const char *first_open = NULL;

	for (size_t k = 1; k < nr; k++) {
		double *xk;
		bool differs, precise;

		if (r[k]->status != RUN_OK)
			continue;
		xk = headline(r[k], &nk);
		m = n0 < nk ? n0 : nk;
		differs = base_ok &&
			  !stats_paired_rank_sum(x0, xk, m, &p) && p < alpha;
		precise = base_precise &&
			  seq_precise(xk, nk, rule->threshold, w, sizeof(w));
		if (!differs && !precise) {
			open++;
			if (!first_open)
				first_open = rule->v[k].name;
		}
		free(xk);
	}
	free(x0);
	if (open)
		snprintf(why, len, "%zu variant%s undecided (%s: neither different from %s at p < %.3g nor known to +-%g%%)",
			 open, open == 1 ? "" : "s", first_open, rule->v[0].name,
			 alpha, rule->threshold / 2);
	else
		snprintf(why, len, "every variant differs from %s at p < %.3g or is known to +-%g%%",
			 rule->v[0].name, alpha, rule->threshold / 2);
	return !open;
}

static void ab_done(void *arg, const struct plan_case *c, unsigned n,
		    bool decided, const char *why)
{
	const struct ab_rule *rule = arg;
	char *job = text_escape(c->job), *sweep = text_escape(c->sweep);
	char *w = text_escape(why);

	(void)decided;
	if (!rule->quiet)
		fprintf(stderr, "schedlab: case %u (%s%s%s): %u round%s: %s\n",
			c->seq, job, *sweep ? " " : "", sweep, n,
			n == 1 ? "" : "s", w);
	free(job);
	free(sweep);
	free(w);
}

struct ab_head {
	const struct plan_variant *v;
	size_t n;
};

/* The variants' header, once exec_run() has checked every input. */
static void ab_checked(void *arg)
{
	const struct ab_head *h = arg;

	ab_print_variants(stdout, h->v, h->n);
	fflush(stdout);
}

/* Whether a case of p runs a workload that declares a table (--layout workload). */
static bool has_table(const struct plan *p)
{
	for (size_t i = 0; i < p->ncases; i++)
		if (p->cases[i].wl && p->cases[i].wl->table)
			return true;
	return false;
}

/* The comparison of the variants as o asks; an exit code. */
static int ab_render(const struct ab_opts *o, const struct comparison *c,
		     const struct run *const *rp)
{
	fflush(stdout);
	if (o->layout != LAYOUT_MMTESTS &&
	    (o->format == FMT_TEXT || o->format == FMT_MARKDOWN)) {
		/* compare's layouts, then the verdict it has not said */
		if (!render_layout_stdout(c, rp, o->layout, STAT_MEAN,
					   o->format == FMT_MARKDOWN, "ab")) {
			FILE *f = text_safe(stdout);

			fputc('\n', f);
			render_verdict_line(f, c);
			fclose(f);
			return EXIT_OK;
		}
		return EXIT_RUN_FAILED;
	}
	render_compare_stdout(c, o->format);
	return EXIT_OK;
}

/* Loads the runs ids[0..n) through st, the handle they were stored
 * through (closed here), and prints their comparison; an exit code. */
static int ab_compare(const struct ab_opts *o, const struct cmp_opts *co,
		      const int64_t *ids, size_t n, struct store *st)
{
	char (*names)[24] = xcalloc(n, sizeof(*names));
	const char **specs = xcalloc(n, sizeof(*specs));
	struct compare_session s;
	struct comparison c;
	int rc = EXIT_RUN_FAILED;

	for (size_t k = 0; k < n; k++) {
		snprintf(names[k], sizeof(names[k]), "%lld", (long long)ids[k]);
		specs[k] = names[k];
	}
	compare_session_init(&s, o->r.db);
	run_source_adopt(&s.src, st);
	/*
	 * The variants ran in the same rounds: their difference is judged
	 * by the noise within them, not widened by the noise between
	 * earlier runs of the label (no history). They may differ in a
	 * job's options (argv): match by job.
	 */
	if (!compare_session_load(&s, specs, n, NULL, n) &&
	    !compare_session_build(&s, specs, co, true, false, &c)) {
		rc = ab_render(o, &c, s.rp);
		compare_free(&c);
	}
	compare_session_close(&s);
	free(names);
	free(specs);
	return rc;
}

/* --seed into rq->seed (none: 0, a random one). -1 after error(). */
static int ab_seed(const char *seed, struct run_request *rq)
{
	unsigned long long s;
	char *end;

	if (!seed)
		return 0;
	errno = 0;
	s = strtoull(seed, &end, 10);
	if (!*seed || *seed == '-' || *end || errno || !s || s >= 1ULL << 53)
		return error("ab: option --seed: expected a whole number in 1..9007199254740991, got '%s'",
			     seed);
	rq->seed = s;
	return 0;
}

/*
 * The variants v[0..nv) run interleaved by rq (the first its own run,
 * the others beside it), then compared; ab's exit code.
 */
static int ab_run(const struct ab_opts *o, struct run_request *rq,
		  const struct cmp_opts *co, const struct plan_variant *v,
		  size_t nv, bool doc_only)
{
	struct run_variant rv[AB_MAX_VARIANTS];
	int64_t ids[AB_MAX_VARIANTS];
	struct run_switch_stats sws = { 0 };
	struct ab_rule rule = { co->threshold, rq->quiet, v };
	struct run_adapt ad = { ab_enough, ab_done, &rule };
	struct ab_head head = { v, nv };
	struct store *st = NULL;
	int rc, run_rc;

	for (size_t i = 0; i < nv; i++)
		rv[i] = (struct run_variant){ v[i].name,
			(const char *const *)v[i].sets, v[i].nsets,
			(const char *const *)v[i].origins };
	rq->own = &rv[0];
	rq->name = rv[0].name;
	rq->variants = &rv[1];
	rq->nvariants = nv - 1;
	rq->variant_ids = &ids[1];
	rq->switch_stats = &sws;
	rq->adapt = &ad;
	if (o->dry_run || !rq->quiet) {
		rq->checked = ab_checked;
		rq->checked_arg = &head;
	}
	if (o->dry_run)
		return exec_dry(rq);
	rq->keep_store = &st;	/* the comparison reads through it */
	run_rc = exec_run(rq, &ids[0]);
	/* interrupted: the finished cases are kept, nothing is compared */
	if (!st || ids[0] < 0 || run_rc == EXIT_USAGE || run_rc == EXIT_INTERRUPTED) {
		store_close(st);
		return run_rc;
	}
	if (sws.n && !o->r.quiet)
		fprintf(doc_only ? stderr : stdout,
			"knobs: switched around %u iterations, %.3f ms each to apply and restore (median; the most %.3f ms)\n",
			sws.n, sws.median_us / 1000, sws.max_us / 1000);
	for (size_t k = 1; k < nv; k++)
		if (ids[k] < 0) {
			store_close(st);
			return run_rc;
		}
	if (!rq->quiet)
		putchar('\n');
	rc = ab_compare(o, co, ids, nv, st);
	return rc == EXIT_OK ? run_rc : rc;
}

int cmd_ab(int argc, char **argv)
{
	struct ab_opts o;
	struct cmd_args a = { CMD_ARGS(ab_options, o), .help = &ab_help };
	struct plan_variant v[AB_MAX_VARIANTS];
	struct run_request rq;
	struct cmp_opts co;
	struct plan plan = { 0 };
	char *command;
	size_t nv = 0;
	int first, rc;
	bool doc_only, bad;

	command = store_command_line(argv);	/* before getopt reorders argv */
	first = cmd_parse(argc, argv, &a, &rc);
	if (first < 0)
		goto out;
	rc = EXIT_USAGE;
	rq = run_request_of(&o.r, first < argc ? argv[first] : NULL, command);
	rq.ab = true;
	co = compare_opts_default(TEST_MWU);
	co.alpha = AB_ALPHA;
	/* csv and json: the document alone on stdout */
	doc_only = o.format != FMT_TEXT && o.format != FMT_MARKDOWN;
	rq.quiet = o.r.quiet || doc_only;
	/* the first variant's mmtests block belongs to the mmtests layout
	 * and ab's own (variants), not to compare's tables (grid, ...) */
	rq.no_tables = o.layout != LAYOUT_MMTESTS && o.layout != LAYOUT_VARIANTS;
	if (opt_parse_percent("ab", "threshold", o.r.threshold, 0, 1000, &co.threshold) ||
	    run_check_iterations("ab", &rq) || ab_seed(o.seed, &rq))
		goto out;
	rq.threshold = co.threshold;
	/*
	 * the plan once: its [variant:NAME] sections, and its mistakes early;
	 * its warnings are the run's to say (exec_run() loads it again)
	 */
	error_mute(1);
	bad = plan_load_spec(rq.spec ? rq.spec : "quick", rq.sets, rq.nsets, &plan);
	error_mute(0);
	if (bad && plan_load_spec(rq.spec ? rq.spec : "quick", rq.sets, rq.nsets, &plan))
		goto out;
	if (out_refused("ab", ab_refusals, o.layout, o.format))
		goto out;
	if (o.layout == LAYOUT_WORKLOAD && !doc_only && !has_table(&plan)) {
		error("ab: --layout workload: " WL_TABLE_NONE);
		goto out;
	}
	if (!ab_variants(&o.variants, &plan, v, &nv))
		rc = ab_run(&o, &rq, &co, v, nv, doc_only);
out:
	for (size_t i = 0; i < nv; i++)
		plan_variant_free(&v[i]);
	plan_free(&plan);
	free(command);
	return rc;
}
