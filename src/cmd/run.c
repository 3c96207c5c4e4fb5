// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab run [SUITE|JOBFILE]: expand the plan, run every case, store
 * each as it finishes, print each job's summary in mmtests' layout.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "harness/identity.h"
#include "harness/plan.h"
#include "harness/runner.h"
#include "model/result.h"
#include "model/run.h"
#include "probe/probe.h"
#include "probe/sysenv.h"
#include "report/render.h"
#include "report/run_text.h"
#include "store/store.h"
#include "util.h"
#include "version.h"

struct run_opts {
	const char *label;
	const char *db;
	unsigned iterations;
	struct opt_list sets;
	bool dry_run;
	bool quiet;
	bool help;
};

#define O(f) offsetof(struct run_opts, f)
static const struct opt_def run_options[] = {
	{ .name = "label", .type = OPT_STRING, .offset = O(label), .arg = "LABEL",
	  .help = "name the run (default: HOSTNAME-KERNELRELEASE); 'schedlab show LABEL' finds the latest" },
	OPT_DB(struct run_opts, db),
	OPT_ITERATIONS(struct run_opts, iterations),
	OPT_SET(struct run_opts, sets),
	{ .name = "dry-run", .type = OPT_BOOL, .offset = O(dry_run), .short_flag = 'n',
	  .help = "print the expanded plan and its estimated time; run nothing" },
	{ .name = "quiet", .type = OPT_BOOL, .offset = O(quiet), .short_flag = 'q',
	  .help = "no progress and no summary; errors only" },
	OPT_HELP(struct run_opts, help),
	{ .name = NULL },
};
#undef O

static void run_usage(FILE *f)
{
	fprintf(f, "usage: schedlab run [SUITE|JOBFILE] [OPTIONS]\n\n"
		"Runs every case of a suite (default: quick) or a job file, repeats it,\n"
		"stores every sample with the machine's description, and prints each\n"
		"job's summary in mmtests' layout.\n\nOptions:\n");
	opts_help(f, run_options);
	fprintf(f, "\nExit status: 0 every case completed, 1 a case failed, 2 bad input,\n"
		"130 interrupted (the finished cases are kept; the run is marked partial).\n");
}

static void make_uuid(char *buf, size_t len)
{
	unsigned char b[16];

	if (getrandom(b, sizeof(b), 0) != sizeof(b)) {
		uint64_t t = now_ns() ^ (uint64_t)getpid() << 32;

		memcpy(b, &t, 8);
		memcpy(b + 8, &t, 8);
	}
	b[6] = (b[6] & 0x0f) | 0x40;	/* version 4 */
	b[8] = (b[8] & 0x3f) | 0x80;	/* variant 1 */
	snprintf(buf, len,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
		 b[10], b[11], b[12], b[13], b[14], b[15]);
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * How much of the machine others used over a short look, in percent of
 * all CPU time; -1 if /proc/stat cannot say. The load average alone is
 * no guide: in some VMs it reads in the thousands on an idle machine.
 */
static double busy_pct(void)
{
	struct cpu_times a, b;
	uint64_t total, idle;

	if (sysenv_cpu_times(&a))
		return -1;
	usleep(200 * 1000);
	if (sysenv_cpu_times(&b))
		return -1;
	total = cpu_times_total(&b) - cpu_times_total(&a);
	idle = (b.idle + b.iowait) - (a.idle + a.iowait);
	return total ? 100.0 * (double)(total - idle) / (double)total : -1;
}

struct progress {
	bool on;
	size_t ncases;
	uint64_t start;
	unsigned long done, total;	/* iterations, warm-up included */
};

static void fmt_dur(char *buf, size_t len, double s)
{
	unsigned long t = (unsigned long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
}

static void progress_before(void *arg, const struct plan_case *c,
			    unsigned iter, bool warmup)
{
	struct progress *p = arg;
	double el = (double)(now_ns() - p->start) / 1e9;
	char e[32], left[48] = "", *job, *sweep;

	if (p->done) {
		char l[32];

		fmt_dur(l, sizeof(l), el / (double)p->done *
			(double)(p->total - p->done));
		snprintf(left, sizeof(left), ", ~%s left", l);
	}
	p->done++;
	if (!p->on)
		return;
	fmt_dur(e, sizeof(e), el);
	job = text_escape(c->job);
	sweep = text_escape(c->sweep);
	fprintf(stderr, "\r\033[K[%u/%zu] %s%s%s: %s %u/%u, %s elapsed%s",
		c->seq, p->ncases, job, *sweep ? " " : "", sweep,
		warmup ? "warm-up" : "iteration", iter,
		warmup ? c->warmup : c->iterations, e, left);
	free(job);
	free(sweep);
}

static void progress_clear(const struct progress *p)
{
	if (p->on)
		fputs("\r\033[K", stderr);
}

/*
 * Prints the summary of the current job's finished cases - the one `show`
 * prints for them later (report/run_text.h) - and empties it.
 */
static void job_flush(struct run *job)
{
	FILE *f;

	if (!job->ncases)
		return;
	f = text_safe(stdout);
	render_job_text(f, job, 0, job->ncases);
	fclose(f);
	fflush(stdout);
	while (job->ncases)
		run_case_free(&job->cases[--job->ncases]);
}

/* end_status: NULL, or the run's status, stored with the case. */
static int store_result(struct store *st, int64_t run_id,
			const struct plan_case *c, const struct case_result *r,
			const char *end_status, json_t *env)
{
	json_t *params = json_parameters(c->wl, c->cfg);
	json_t *settings = identity_settings(c);
	struct store_case sc = {
		.seq = c->seq, .job = c->job, .workload = c->wl->name,
		.version = identity_version(c->wl), .settings = settings,
		.params = c->params, .sweep_keys = c->sweep_keys,
		.sweep = c->sweep,
		.status = r->status == RUN_OK ? "complete" : "failed",
		.reason = r->status == RUN_OK ? NULL : r->reason,
		.parameters = params, .metrics = r->cols.def,
		.nmetrics = r->cols.n, .niter = r->niter, .values = r->values,
		.latency = r->latency,
		.run_status = end_status, .run_ended = wall_now(),
		.run_environment = env,
	};
	int rc = store_case_add(st, run_id, &sc);

	json_decref(params);
	json_decref(settings);
	return rc;
}

static void add_steal(json_t *env, const struct cpu_times *a, bool have_a)
{
	struct cpu_times b;
	uint64_t total;

	if (!have_a || sysenv_cpu_times(&b)) {
		json_object_set_new(env, "steal_during_run",
			sysenv_missing("/proc/stat: cannot be read"));
		return;
	}
	total = cpu_times_total(&b) - cpu_times_total(a);
	json_object_set_new(env, "steal_during_run", sysenv_item(json_real(
		total ? 100.0 * (double)(b.steal - a->steal) / (double)total : 0)));
}

/* The run's status from what its cases did. */
static const char *run_status(bool interrupted, size_t complete, size_t failed,
			      int rc)
{
	if (!interrupted && !failed && rc == EXIT_OK)
		return "complete";
	return complete ? "partial" : "failed";
}

/* The most any case asks for (perf above on above off). */
static enum probe_level plan_probes(const struct plan *plan)
{
	enum probe_level l = PROBES_OFF;

	for (size_t i = 0; i < plan->ncases; i++) {
		if (plan->cases[i].probes == PROBES_PERF)
			return PROBES_PERF;
		if (plan->cases[i].probes == PROBES_ON)
			l = PROBES_ON;
	}
	return l;
}

static int execute(struct plan *plan, const struct run_request *ro,
		   const char *db, int64_t *run_id_out)
{
	struct progress pr = { .on = !ro->quiet && isatty(2),
			       .ncases = plan->ncases, .start = now_ns() };
	struct runner_progress rp = { progress_before, &pr };
	struct run job = { .id = -1 };
	struct cpu_times t0;
	struct utsname u;
	struct store *st;
	char uuid[40], label[256 + sizeof(u.release)], host[256] = "unknown";
	char what[96];
	size_t complete = 0, failed = 0;
	bool interrupted = false, have_t0, stored = true, ended = true;
	const char *status, *end_status = NULL;
	json_t *env;
	int64_t run_id;
	double busy;
	int rc = EXIT_OK;

	st = store_open(db);
	if (!st) {
		if (ro->store_failed)
			*ro->store_failed = true;
		return EXIT_USAGE;
	}
	supervise_block_signals();
	gethostname(host, sizeof(host) - 1);
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	snprintf(label, sizeof(label), "%s-%s", host, u.release);
	env = sysenv_collect();
	json_object_set_new(env, "probes", probes_availability(plan_probes(plan)));
	busy = busy_pct();
	if (busy >= 0)
		json_object_set_new(env, "busy_at_start", sysenv_item(json_real(busy)));
	if (busy > 25)
		warning("the machine was busy when the run started (%.0f%% of CPU time used over 0.2 s): results may be noisy",
			busy);
	plan_warn_power(plan, (enum stat_test)ro->test, 0.05);
	have_t0 = !sysenv_cpu_times(&t0);
	make_uuid(uuid, sizeof(uuid));
	struct store_run sr = {
		.uuid = uuid, .label = ro->label ? ro->label : label,
		.host = host, .command = ro->command, .version = SCHEDLAB_VERSION,
		.started = wall_now(), .environment = env,
	};
	if (store_run_begin(st, &sr, &run_id)) {
		json_decref(env);
		store_close(st);
		if (ro->store_failed)
			*ro->store_failed = true;
		return EXIT_RUN_FAILED;
	}
	*run_id_out = run_id;
	for (size_t i = 0; i < plan->ncases; i++)
		pr.total += plan->cases[i].warmup + plan->cases[i].iterations;

	for (size_t i = 0; i < plan->ncases; i++) {
		const struct plan_case *c = &plan->cases[i];
		struct case_result r;

		if (job.ncases && strcmp(job.cases[0].job, c->job)) {
			progress_clear(&pr);
			job_flush(&job);
		}
		if (runner_case(c, &r, &rp)) {
			rc = EXIT_RUN_FAILED;
			break;
		}
		if (r.status == RUN_INTERRUPTED) {
			interrupted = true;
			case_result_free(&r);
			break;
		}
		/*
		 * Stop signals stay blocked from the case's end to its
		 * store's end (a lock wait included); one that came meanwhile
		 * is taken here or after the store: the case is kept, the run
		 * ends partial, exit 130. The last case carries the run's end
		 * in its own transaction: both are stored, or neither.
		 */
		if (supervise_stop_pending())
			interrupted = true;
		else if (i + 1 == plan->ncases) {
			add_steal(env, &t0, have_t0);
			end_status = run_status(false,
				complete + (r.status == RUN_OK),
				failed + (r.status != RUN_OK), rc);
		}
		if (store_result(st, run_id, c, &r, end_status, env)) {
			case_result_free(&r);
			end_status = NULL;
			stored = false;
			rc = EXIT_RUN_FAILED;
			/* a stop while the store waited and failed still counts */
			if (supervise_stop_pending())
				interrupted = true;
			break;
		}
		if (supervise_stop_pending())
			interrupted = true;
		if (r.status == RUN_OK) {
			complete++;
		} else {
			failed++;
			progress_clear(&pr);
			error("case %u (%s%s%s): %s", c->seq, c->job,
			      *c->sweep ? " " : "", c->sweep, r.reason);
		}
		if (!ro->quiet)
			run_case_from_result(&job, c, &r);
		case_result_free(&r);
		if (interrupted)
			break;
	}
	progress_clear(&pr);
	if (!ro->quiet)
		job_flush(&job);
	run_free(&job);

	status = run_status(interrupted, complete, failed, rc);
	if (!end_status || strcmp(end_status, status)) {
		if (!end_status)
			add_steal(env, &t0, have_t0);
		if (store_run_end(st, run_id, status, wall_now(), env)) {
			rc = EXIT_RUN_FAILED;
			stored = ended = false;
		}
	}
	if (!stored && ro->store_failed)
		*ro->store_failed = true;
	if (plan->ncases == 1)
		snprintf(what, sizeof(what), "%s (one case)", status);
	else
		snprintf(what, sizeof(what), "%s, %zu of %zu cases complete",
			 status, complete, plan->ncases);
	if (!ro->quiet) {
		FILE *f = text_safe(stdout);

		if (stored)
			fprintf(f, "run %lld (%s): %s, stored in %s\n",
				(long long)run_id, sr.label, what, db);
		else
			fprintf(f, "run %lld (%s): %s; not all of it could be stored in %s%s\n",
				(long long)run_id, sr.label, what, db,
				ended ? "" : " (it shows as abandoned once this process is gone)");
		fclose(f);
	}
	json_decref(env);
	store_close(st);
	if (interrupted) {
		error("run: interrupted; the %zu finished case%s kept", complete + failed,
		      complete + failed == 1 ? " is" : "s are");
		return EXIT_INTERRUPTED;
	}
	if (rc == EXIT_OK && failed)
		rc = EXIT_RUN_FAILED;
	return rc;
}

/*
 * --dry-run's estimate, from earlier runs of the same cases in db; -1
 * when db exists but is no schedlab database (a real run would fail).
 */
static int print_estimate(const struct plan *plan, const char *db)
{
	struct store *st = NULL;
	size_t known = 0;
	double total = 0, secs;
	char d[32];

	if (!access(db, F_OK) && !(st = store_open_ro(db)))
		return -1;
	for (size_t i = 0; st && i < plan->ncases; i++) {
		const struct plan_case *c = &plan->cases[i];

		if (store_estimate(st, c->wl->name, identity_version(c->wl),
				   c->params, &secs) == 1) {
			total += secs * (c->iterations + c->warmup);
			known++;
		}
	}
	if (st)
		store_close(st);
	if (!known) {
		printf("estimated time: unknown (no earlier run of these cases in %s)\n", db);
		return 0;
	}
	fmt_dur(d, sizeof(d), total * (double)plan->ncases / (double)known);
	if (plan->ncases == 1)
		printf("estimated time: %s (from an earlier run of the case in %s)\n",
		       d, db);
	else if (known == plan->ncases && known == 2)
		printf("estimated time: %s (from earlier runs of both cases in %s)\n",
		       d, db);
	else if (known == plan->ncases)
		printf("estimated time: %s (from earlier runs of all %zu cases in %s)\n",
		       d, known, db);
	else
		printf("estimated time: %s (from earlier runs of %zu of the %zu cases in %s; %s)\n",
		       d, known, plan->ncases, db,
		       plan->ncases - known == 1 ? "the other counted at the average" :
		       "the others counted at their average");
	return 0;
}

/* The plan of a SUITE or JOBFILE (NULL: quick), --set and --iterations applied. */
static int load_plan(const struct run_request *rq, struct plan *plan)
{
	if (plan_load_spec(rq->spec ? rq->spec : "quick", rq->sets, rq->nsets, plan))
		return -1;
	if (rq->iterations)
		for (size_t i = 0; i < plan->ncases; i++)
			plan->cases[i].iterations = rq->iterations;
	return 0;
}

int run_suite(const struct run_request *rq, int64_t *run_id)
{
	char db[4096];
	struct plan plan;
	int rc = EXIT_USAGE;

	*run_id = -1;
	if (load_plan(rq, &plan))
		return EXIT_USAGE;
	if (run_db_path(rq->db, db, sizeof(db)))
		goto out;
	for (size_t i = 0; i < plan.ncases; i++)
		if (plan.cases[i].wl->prepare &&
		    (rc = plan.cases[i].wl->prepare(plan.cases[i].cfg)))
			goto out;
	rc = execute(&plan, rq, db, run_id);
out:
	plan_free(&plan);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts ro = { 0 };
	struct opt_target t = { run_options, &ro };
	struct run_request rq;
	char db[4096];
	struct plan plan;
	char *command, *words;
	int64_t id;
	int first, rc;

	opts_defaults(run_options, &ro);
	words = argv_join(argv, true);	/* before getopt reorders argv */
	command = xmalloc(strlen(words) + sizeof("schedlab "));
	sprintf(command, "schedlab %s", words);
	free(words);
	first = opts_parse_argv(&t, 1, argc, argv, "run", true);
	if (first < 0) {
		free(command);
		return EXIT_USAGE;
	}
	rc = EXIT_USAGE;
	if (ro.help) {
		run_usage(stdout);
		rc = EXIT_OK;
		goto out;
	}
	if (argc - first > 1) {
		error("run: one SUITE or JOBFILE at most, got '%s' and '%s'",
		      argv[first], argv[first + 1]);
		goto out;
	}
	rq = (struct run_request){
		.spec = first < argc ? argv[first] : NULL, .label = ro.label,
		.db = ro.db, .iterations = ro.iterations, .quiet = ro.quiet,
		.sets = ro.sets.v, .nsets = ro.sets.n,
		.command = command,
	};
	if (!ro.dry_run) {
		rc = run_suite(&rq, &id);
		goto out;
	}
	if (load_plan(&rq, &plan))
		goto out;
	if (!run_db_path(ro.db, db, sizeof(db))) {
		plan_print(stdout, &plan);
		rc = print_estimate(&plan, db) ? EXIT_USAGE : EXIT_OK;
	}
	plan_free(&plan);
out:
	free(command);
	return rc;
}
