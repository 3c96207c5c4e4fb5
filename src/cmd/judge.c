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
#include "exec/judge.h"
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
#include "report/render_compare.h"
#include "util.h"

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

static json_t *judge_json(const struct judge *j, const struct run *cand,
			  int rc, const char *why)
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

static void judge_print_cases(const struct judge *j, const struct run *cand)
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
	struct store *run_st;	/* the run's handle, exec's, kept open */
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
		.store_failed = &store_failed, .keep_store = &a->run_st,
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
	rq.store = a->src->tried ? a->src->st : NULL;
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

/* The runs judge compares: the references (good or baseline, bad) and the build. */
struct judge_runs {
	struct run runs[3];	/* [0] good or baseline, [1] bad, [2] the build */
	char names[3][32];	/* the ids judge ran, as RUN specs */
	int64_t ids[3];		/* [0] the build's, [1] [2] the live references' */
	bool loaded_refs;	/* runs[0] and [1] are to free */
};

/* The stored references, loaded first: a typo must not cost a run. */
static int load_stored_refs(struct judge_args *a, struct judge *j,
			    struct judge_runs *jr)
{
	const char *rs[2] = { a->o.baseline ? a->o.baseline : a->o.good, a->o.bad };
	char refs_why[512];

	if (run_source_load_many(a->src, rs, j->mode == M_CLASSIFY ? 2 : 1,
				 jr->runs))
		return EXIT_ABORT;
	jr->loaded_refs = true;
	j->base = &jr->runs[0];
	j->bad = j->mode == M_CLASSIFY ? &jr->runs[1] : NULL;
	if (j->mode == M_THRESHOLD)	/* borrowed: the source's */
		j->st = run_source_store(a->src);
	if (j->bad && !judge_refs_differ(j->base, j->bad, j->match_job,
					 refs_why, sizeof(refs_why))) {
		error("judge: %s (good) and %s (bad) do not differ in any case they share (Mann-Whitney, p < %g): %s; nothing to place a build by: abort (%d)",
		      a->o.good, a->o.bad, CLASSIFY_ALPHA, refs_why, EXIT_ABORT);
		return EXIT_ABORT;
	}
	return EXIT_OK;
}

/* The live references judge ran beside the build, loaded. */
static int load_live_refs(struct judge_args *a, struct judge *j,
			  struct judge_runs *jr)
{
	const char *failed;

	for (size_t k = 0; k < 2 && jr->ids[k + 1] >= 0; k++) {
		snprintf(jr->names[k + 1], sizeof(jr->names[k + 1]), "%lld",
			 (long long)jr->ids[k + 1]);
		jr->loaded_refs = true;
		if (run_source_load(a->src, jr->names[k + 1], &jr->runs[k]))
			return EXIT_ABORT;
		if (has_case_failed(&jr->runs[k], &failed) &&
		    !strstr(failed, RUN_EXEC_OTHER_FAILED)) {
			error("judge: the %s reference failed (%s): abort (%d)",
			      k ? "bad" : "good", failed, EXIT_ABORT);
			return EXIT_ABORT;
		}
	}
	jr->loaded_refs = true;
	j->base = &jr->runs[0];
	j->bad = j->mode == M_CLASSIFY ? &jr->runs[1] : NULL;
	return EXIT_OK;
}

/*
 * After the run: the source reads on through the handle the run was
 * stored through, when it had none open (live references), rather
 * than open the database again; when the stored references were read
 * first, the run was written through their handle (rq.store), which
 * reads on.
 */
static void read_back(struct judge_args *a)
{
	struct store *st = a->run_st;

	a->run_st = NULL;
	if (!a->src->tried && st) {
		/* the source owns it now: cmd_args_done() closes it */
		run_source_adopt(a->src, st);
		return;
	}
	store_close(st);
	if (a->src->tried && !a->src->st) {
		/* none there before the run made it: look again */
		run_source_init(a->src, a->src->dbopt);
	}
}

/*
 * The build's run into jr->runs[2]: the stored one of --run, or run now
 * (with the live references beside it). EXIT_OK to go on, else judge's
 * exit code.
 */
static int get_build(struct judge_args *a, struct judge *j,
		     struct judge_runs *jr)
{
	const char *failed;
	int run_rc, rc;

	if (a->o.run) {
		snprintf(jr->names[0], sizeof(jr->names[0]), "%s", a->o.run);
		return run_source_load(a->src, a->o.run, &jr->runs[2]) ?
		       EXIT_ABORT : EXIT_OK;
	}
	run_rc = judge_run(a, j, jr->ids);
	read_back(a);
	if (run_rc == EXIT_ABORT || run_rc == EXIT_INTERRUPTED ||
	    run_rc == EXIT_SKIP)
		return run_rc;
	snprintf(jr->names[0], sizeof(jr->names[0]), "%lld", (long long)jr->ids[0]);
	if (run_source_load(a->src, jr->names[0], &jr->runs[2]))
		return EXIT_SKIP;
	if (j->live && (rc = load_live_refs(a, j, jr)))
		return rc;
	/* the build's own failure (after the references': theirs abort) */
	if (run_rc == EXIT_RUN_FAILED && has_case_failed(&jr->runs[2], &failed)) {
		error("judge: run %s did not complete (%s): skip (%d)",
		      jr->names[0], failed, EXIT_SKIP);
		return EXIT_SKIP;
	}
	return EXIT_OK;
}

/* The exit code from c and what judge learnt, and why, into why. */
static int decide(struct judge_args *a, struct judge *j, struct judge_runs *jr,
		  const struct comparison *c, char *why, size_t len)
{
	double most;
	int rc;

	if (j->mode == M_CLASSIFY && (a->o.run || !j->nnotes ||
	    (a->o.iterations && strcmp(a->o.iterations, "auto")))) {
		const struct run *refs[2] = { j->base, j->bad };

		judge_classify_stored(j, &jr->runs[2], refs, j->live);
	}
	if (j->mode == M_CLASSIFY)
		return judge_classify_code(j, &jr->runs[2], why, len);
	rc = judge_threshold_code(c);
	if (rc == EXIT_OK && judge_all_equivalent(c, &most))
		snprintf(why, len, "no change beyond %g%% (the runs rule out more than %.1f%%)",
			 c->opts.threshold, most);
	else
		snprintf(why, len, "%s",
			 rc == EXIT_OK ? "no regression beyond the threshold" :
			 rc == EXIT_SKIP ? "a regression can be neither shown nor ruled out" :
			 "a regression beyond the threshold");
	return rc;
}

/* The comparison of the references and the build, decided and printed. */
static int judge_report(struct judge_args *a, struct judge *j,
			struct judge_runs *jr)
{
	const struct run *rp[3];
	const char *specs[3];
	char why[256], vtext[512];
	struct comparison c;
	size_t nruns = 0;
	int rc;

	/* the columns: the good (or baseline), the build, the bad */
	rp[nruns] = j->base;
	specs[nruns++] = j->live ? jr->names[1] : a->o.baseline ? a->o.baseline : a->o.good;
	rp[nruns] = &jr->runs[2];
	specs[nruns++] = jr->names[0];
	if (j->mode == M_CLASSIFY) {
		rp[nruns] = j->bad;
		specs[nruns++] = j->live ? jr->names[2] : a->o.bad;
	}
	if (j->mode == M_THRESHOLD && j->look_alpha > 0)
		j->co.alpha = j->look_alpha;	/* the table at the level the looks used */
	/* live references differ from the build by their --set: match by job */
	if (compare_build(rp, specs, nruns, &j->co,
			  a->o.match == MATCH_JOB || j->live, j->st, &c))
		return EXIT_ABORT;
	rc = decide(a, j, jr, &c, why, sizeof(why));
	c.judge = judge_json(j, &jr->runs[2], rc, why);
	if (j->mode == M_CLASSIFY) {
		snprintf(vtext, sizeof(vtext), "bisect: %s (%s), between %s (good) and %s (bad)",
			 rc == EXIT_OK ? "good" : rc == EXIT_RUN_FAILED ? "bad" : "undecided",
			 why, c.runs[0].name, c.runs[2].name);
		c.verdict_text = vtext;
	}
	compare_style(&a->o, &c);
	render_compare_stdout(&c, a->o.format);
	json_decref(c.judge);
	judge_print_cases(j, &jr->runs[2]);
	fprintf(stderr, "judge: %s: exit %d (%s for git bisect: %s)\n",
		j->mode == M_CLASSIFY ? "bisect" : verdict_names[c.overall], rc,
		rc == EXIT_OK ? "good" : rc == EXIT_SKIP ? "skip" : "bad", why);
	compare_free(&c);
	return rc;
}

static int judge_main(struct judge_args *a)
{
	struct judge j = { .co = a->co, .match_job = a->o.match == MATCH_JOB };
	struct judge_runs jr = { .ids = { -1, -1, -1 } };
	int rc;

	j.mode = a->o.good_sets.n ? (a->o.bad_sets.n ? M_CLASSIFY : M_THRESHOLD) :
		 a->o.good ? M_CLASSIFY : M_THRESHOLD;
	j.live = a->o.good_sets.n > 0;
	rc = j.live ? EXIT_OK : load_stored_refs(a, &j, &jr);
	if (rc == EXIT_OK)
		rc = get_build(a, &j, &jr);
	if (rc == EXIT_OK)
		rc = judge_report(a, &j, &jr);
	for (size_t k = 0; k < 3; k++)
		if (k == 2 || jr.loaded_refs)
			run_free(&jr.runs[k]);
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
	/* the references are read, then the build's run written, through
	 * one handle; --run only reads */
	a.src->rw = !a.o.run;
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
