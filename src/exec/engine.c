// SPDX-License-Identifier: GPL-2.0-only
/*
 * The executor: the cases of a plan and of the plans run beside it,
 * interleaved round by round, adaptive cases looked at as they go, each
 * plan's run stored case by case with the machine's description, the
 * run's own summary printed job by job.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "exec/exec_int.h"
#include "harness/identity.h"
#include "harness/runner.h"
#include "monitor/monitor.h"
#include "harness/switch.h"
#include "model/result.h"
#include "model/run.h"
#include "probe/probe.h"
#include "probe/sysenv.h"
#include "report/noise_model.h"
#include "report/render.h"
#include "report/run_text.h"
#include "stats/noise.h"
#include "stats/sequential.h"
#include "stats/summary.h"
#include "store/store.h"
#include "trace/trace.h"
#include "util.h"
#include "version.h"

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
	const char *side;	/* the variant now running, or NULL */
	size_t ncases;
	uint64_t start;
	unsigned long done, total;	/* iterations, warm-up included */
};

void fmt_dur(char *buf, size_t len, double s)
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
	fprintf(stderr, "\r\033[K[%u/%zu] %s%s%s%s%s%s: %s %u/%s%u, %s elapsed%s",
		c->seq, p->ncases, job, *sweep ? " " : "", sweep,
		p->side ? " (" : "", p->side ? p->side : "", p->side ? ")" : "",
		warmup ? "warm-up" : "iteration", iter,
		!warmup && c->auto_iter ? "<=" : "",
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
	json_t *monitors = case_result_monitors(r);
	struct store_case sc = {
		.seq = c->seq, .job = c->job, .workload = c->wl->name,
		.version = identity_version(c->wl), .settings = settings,
		.params = c->params, .sweep_keys = c->sweep_keys,
		.sweep = c->sweep,
		.status = r->status == RUN_OK ? "complete" : "failed",
		.reason = r->status == RUN_OK ? NULL : r->reason,
		.parameters = params, .metrics = r->cols.def,
		.nmetrics = r->cols.n, .niter = r->niter, .values = r->values,
		.latency = r->latency, .monitors = monitors,
		.run_status = end_status, .run_ended = wall_now(),
		.run_environment = env,
	};
	int rc = store_case_add(st, run_id, &sc);

	json_decref(params);
	json_decref(settings);
	json_decref(monitors);
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


/* The knobs' cost, per iteration that switched something. */
struct switching {
	struct switchboard *sb;
	double *us;
	size_t n;
};

/* Two cases' settings alike (the cases of a job share theirs). */
static bool same_settings(const struct plan_case *a, const struct plan_case *b)
{
	if (a->nset != b->nset)
		return false;
	for (size_t i = 0; i < a->nset; i++)
		if (strcmp(a->set[i].key, b->set[i].key) ||
		    strcmp(a->set[i].value, b->set[i].value))
			return false;
	return true;
}

/*
 * The task settings the kernel would refuse (a real-time policy without
 * the right, no uclamp), tried in a child before anything runs: 0, or
 * -1 after error() naming the plan and the job.
 */
static int check_tasks(const struct plan *plans, size_t n,
		       const char *const *names)
{
	char err[512];

	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < plans[k].ncases; i++) {
			const struct plan_case *c = &plans[k].cases[i];

			if (!task_settings_any(&c->task) ||
			    (i && same_settings(c, &plans[k].cases[i - 1])))
				continue;
			if (task_settings_check(&c->task, err, sizeof(err)))
				return error("%s%sjob [%s]: %s", names[k] ? names[k] : "",
					     names[k] ? ": " : "", c->job, err);
		}
	return 0;
}

/* One plan's run. */
struct side {
	struct plan *plan;
	const char *name;	/* NULL: the run itself; else its variant's */
	char *label;
	int64_t id;
	size_t complete, failed;
	bool stored;
	const char *end_status;	/* stored with the last case */
	struct case_result res;	/* of the case being run */
	bool have_res;
};

/* The variants' plans must have the run's cases, run as the run's are. */
static int check_sides(struct side *sd, size_t n)
{
	const struct plan *p0 = sd[0].plan;

	for (size_t k = 1; k < n; k++) {
		struct plan *p = sd[k].plan;

		if (p->ncases != p0->ncases)
			return error("variant %s: its plan has %zu case%s, the run's %zu (a --set that sweeps?)",
				     sd[k].name, p->ncases, p->ncases == 1 ? "" : "s",
				     p0->ncases);
		for (size_t i = 0; i < p->ncases; i++) {
			struct plan_case *c = &p->cases[i];
			const struct plan_case *c0 = &p0->cases[i];

			if (strcmp(c->job, c0->job) || c->wl != c0->wl)
				return error("variant %s: case %zu is job %s (%s), the run's job %s (%s)",
					     sd[k].name, i + 1, c->job, c->wl->name,
					     c0->job, c0->wl->name);
			c->iterations = c0->iterations;
			c->auto_iter = c0->auto_iter;
			c->min_iter = c0->min_iter;
			c->max_iter = c0->max_iter;
			c->budget_s = c0->budget_s;
		}
	}
	return 0;
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A random order of 0..n-1 into ord (Fisher-Yates). */
static void shuffle(size_t *ord, size_t n, uint64_t *rng)
{
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(splitmix(rng) % i), t = ord[i - 1];

		ord[i - 1] = ord[j];
		ord[j] = t;
	}
}

/* What run's own stop rule reads, and what it says of each case that ends. */
struct precise {
	double threshold;	/* the median known to +-threshold/2 */
	struct store *st;	/* the runs the host's noise model is made of */
	const char *host;
	bool brief;		/* a line a case: the reason kept, not printed */
	char stopped[32];	/* the last case's, for its line */
};

/*
 * Whether this host's run-to-run offset of case c (report/noise_model.h)
 * already exceeds what the run's median x[0..n) is known to: then more
 * iterations buy nothing a comparison between runs can use (item 6 of
 * doc/statistics.md's "Runs as replicates"); why says so in numbers.
 */
static bool offset_dominates(const struct precise *p, const struct plan_case *c,
			     const double *x, size_t n, char *why, size_t len)
{
	struct noise_query q = { .job = c->job, .params = c->params ? c->params : "",
				 .version = identity_version(c->wl) };
	struct noise_model m;
	char host[512];
	double cv = noise_robust_cv(x, n);

	if (!p->st || !isfinite(cv))
		return false;
	noise_glob_exact(p->host, host, sizeof(host));
	q.host = host;
	if (noise_model_case(p->st, &q, &m) != 1 || !noise_iterations_enough(&m, cv, (double)n))
		return false;
	snprintf(why, len, "the median's standard error, %.1f%%, is below this host's run-to-run offset of %.1f%% (%u runs): more iterations buy nothing, more runs would (schedlab plan)",
		 100 * noise_median_precision(cv, (double)n), 100 * m.offset, m.runs);
	return true;
}

/*
 * run's own rule: the headline's median known to +-threshold/2, or
 * more finely than the host's run-to-run offset of the case.
 */
static bool enough_precise(void *arg, const struct plan_case *c,
			   const struct case_result *const *r, size_t nr,
			   char *why, size_t len)
{
	const struct precise *p = arg;
	int h = case_result_headline(r[0]);
	double *x;
	size_t n;
	bool ok;

	(void)nr;
	if (h < 0) {
		snprintf(why, len, "no headline metric to decide by");
		return true;
	}
	x = xmalloc((r[0]->niter + 1) * sizeof(*x));
	n = case_result_column(r[0], (size_t)h, x);
	ok = seq_precise(x, n, p->threshold, why, len) ||
	     offset_dominates(p, c, x, n, why, len);
	free(x);
	return ok;
}

/*
 * After a case of a fixed count: a note when its iterations bought
 * nothing more because the run-to-run offset dominates (schedlab plan
 * says how many runs would).
 */
static void note_offset(const struct precise *p, const struct plan_case *c,
			const struct case_result *r)
{
	int h = case_result_headline(r);
	char why[320];
	double *x;
	size_t n;

	if (h < 0 || c->auto_iter || r->status != RUN_OK)
		return;
	x = xmalloc((r->niter + 1) * sizeof(*x));
	n = case_result_column(r, (size_t)h, x);
	if (n >= 3 && offset_dominates(p, c, x, n, why, sizeof(why))) {
		char *job = text_escape(c->job);

		fprintf(stderr, "schedlab: case %u (%s): %zu iterations: %s\n",
			c->seq, job, n, why);
		free(job);
	}
	free(x);
}

static void done_print(void *arg, const struct plan_case *c, unsigned n,
		       bool decided, const char *why)
{
	char *job = text_escape(c->job), *sweep = text_escape(c->sweep);
	struct precise *rule = arg;
	char *w;

	if (rule->brief) {
		snprintf(rule->stopped, sizeof(rule->stopped), "%s",
			 decided ? (strstr(why, "run-to-run offset") ?
				    "offset bound" : "precise") :
			 strstr(why, "max_iterations") ?
			 "max reached" : strstr(why, "budget") ? "budget spent" :
			 "stopped");
		free(job);
		free(sweep);
		return;
	}
	w = text_escape(why);
	fprintf(stderr, "schedlab: case %u (%s%s%s): %u iteration%s: %s\n",
		c->seq, job, *sweep ? " " : "", sweep, n, n == 1 ? "" : "s", w);
	free(job);
	free(sweep);
	free(w);
}

/*
 * Runs case i of every side, round by round, until its count, its
 * decision or its budget. 0; -1 when nothing could be started. *stop:
 * interrupted.
 */
/*
 * Side k's knobs for case i before its iteration or warm-ups: 0, or
 * -1 with the iteration failed (r->reason says why) - r is set up as
 * a failed result when fresh.
 */
static int switch_on(struct switching *sw, size_t k, size_t i,
		     struct case_result *r, bool fresh,
		     const struct plan_case *c)
{
	char err[sizeof(r->reason)];

	if (!sw->sb || !switch_apply(sw->sb, k, i, err, sizeof(err)))
		return 0;
	switch_restore(sw->sb, k, i);
	if (fresh) {
		memset(r, 0, sizeof(*r));
		metric_cols_init(&r->cols, c->wl);
	}
	r->status = RUN_FAILED;
	snprintf(r->reason, sizeof(r->reason), "%s", err);
	return -1;
}

/*
 * What switching cost so far, into env ("knob_switching": iterations,
 * median_us, max_us) and *out; nothing when nothing switched.
 */
static void add_switching(json_t *env, const struct switching *sw,
			  struct run_switch_stats *out)
{
	json_t *o;
	double med = 0, max = 0;

	if (!sw->n)
		return;
	stats_median(sw->us, sw->n, &med);
	for (size_t k = 0; k < sw->n; k++)
		max = sw->us[k] > max ? sw->us[k] : max;
	o = json_object();
	json_object_set_new(o, "iterations", json_integer((json_int_t)sw->n));
	json_object_set_new(o, "median_us", json_real(med));
	json_object_set_new(o, "max_us", json_real(max));
	json_object_set_new(env, "knob_switching", sysenv_item(o));
	if (out)
		*out = (struct run_switch_stats){ (unsigned)sw->n, med, max };
}

/* Whether c writes a knob or starts a scheduler around its iterations. */
static bool case_switches(const struct plan_case *c)
{
	for (size_t s = 0; s < c->nset; s++) {
		enum setting_kind k = setting_kind(c->set[s].key);

		if (k == SETTING_KNOB || k == SETTING_SCX)
			return true;
	}
	return false;
}

static void switch_off(struct switching *sw, size_t k, size_t i,
		       const struct plan_case *c)
{
	if (!sw->sb)
		return;
	switch_restore(sw->sb, k, i);
	if (!case_switches(c))
		return;
	sw->us = xrealloc(sw->us, (sw->n + 1) * sizeof(*sw->us));
	sw->us[sw->n++] = switch_last_us(sw->sb);
}

static int run_rounds(struct side *sd, size_t nsides, size_t i, bool alone,
		      const struct run_adapt *ad, struct progress *pr,
		      const struct runner_progress *rp, uint64_t *rng,
		      struct switching *sw, bool *stop)
{
	const struct plan_case *c0 = &sd[0].plan->cases[i];
	const struct case_result **rs = xcalloc(nsides, sizeof(*rs));
	size_t *ord = xcalloc(nsides, sizeof(*ord));
	bool *out = xcalloc(nsides, sizeof(*out));
	uint64_t t0 = now_ns();
	unsigned rounds = 0;
	size_t f = 0, nout = 0;
	bool failed = false, decided = false;
	char why[256] = "", limit[64] = "";
	int rc = 0;

	/*
	 * A side whose case fails is out of it (out[k]); failed: the case
	 * is over for every side - at the first failure, or with alone
	 * (ab's variants) once each side is out. An interruption ends it
	 * for every side whatever alone says.
	 */
	for (size_t k = 0; k < nsides && !rc && !failed; k++) {
		const struct plan_case *c = &sd[k].plan->cases[i];

		pr->side = sd[k].name;
		sd[k].have_res = true;
		rs[k] = &sd[k].res;
		if (switch_on(sw, k, i, &sd[k].res, true, c)) {
			out[k] = true;
			failed = !alone || ++nout == nsides;
			continue;
		}
		rc = runner_begin(c, &sd[k].res, rp);
		if (c->warmup)
			switch_off(sw, k, i, c);
		else if (sw->sb)
			switch_restore(sw->sb, k, i);
		if (sd[k].res.status != RUN_OK) {
			out[k] = true;
			failed = !alone || ++nout == nsides ||
				 sd[k].res.status == RUN_INTERRUPTED;
		}
	}
	while (!rc && !failed && rounds < c0->iterations) {
		shuffle(ord, nsides, rng);
		for (size_t o = 0; o < nsides && !rc && !failed; o++) {
			struct side *s = &sd[ord[o]];

			if (out[ord[o]])
				continue;
			pr->side = s->name;
			if (switch_on(sw, ord[o], i, &s->res, false,
				      &s->plan->cases[i])) {
				out[ord[o]] = true;
				failed = !alone || ++nout == nsides;
				continue;
			}
			rc = runner_step(&s->plan->cases[i], &s->res, rp);
			switch_off(sw, ord[o], i, &s->plan->cases[i]);
			if (rc > 0) {
				out[ord[o]] = true;
				failed = !alone || ++nout == nsides ||
					 s->res.status == RUN_INTERRUPTED;
			}
			rc = rc < 0 ? -1 : 0;
		}
		if (rc || failed)
			break;
		rounds++;
		if (!c0->auto_iter)
			continue;
		if (seq_is_look(rounds, c0->min_iter, c0->max_iter) &&
		    (decided = ad->enough(ad->arg, c0, rs, nsides, why, sizeof(why))))
			break;
		if (rounds >= c0->max_iter)
			snprintf(limit, sizeof(limit), "max_iterations %u reached",
				 c0->max_iter);
		else if (c0->budget_s &&
			 (double)(now_ns() - t0) / 1e9 >= c0->budget_s) {
			snprintf(limit, sizeof(limit), "budget %us spent", c0->budget_s);
			break;
		}
	}
	pr->side = NULL;
	for (size_t k = 0; k < nsides; k++)
		if (sd[k].have_res)
			runner_end(&sd[k].plan->cases[i], &sd[k].res);
	for (size_t k = 0; k < nsides; k++) {
		struct case_result *r = &sd[k].res;

		if (sd[k].have_res) {
			*stop |= r->status == RUN_INTERRUPTED;
			continue;
		}
		/* a side whose warm-up came after another's failure: not run */
		memset(r, 0, sizeof(*r));
		metric_cols_init(&r->cols, sd[k].plan->cases[i].wl);
		r->status = RUN_FAILED;
		sd[k].have_res = true;
	}
	/*
	 * Without alone the sides are one experiment (judge's run and its
	 * references): a failure on one ends them all.
	 */
	while (failed && f < nsides &&
	       (sd[f].res.status == RUN_OK || !*sd[f].res.reason))
		f++;
	for (size_t k = 0; failed && k < nsides; k++) {
		struct case_result *r = &sd[k].res;

		if (r->status == RUN_OK || !*r->reason) {
			r->status = RUN_FAILED;
			snprintf(r->reason, sizeof(r->reason),
				 "stopped after %zu iteration%s: " RUN_EXEC_OTHER_FAILED " %s",
				 r->niter, r->niter == 1 ? "" : "s",
				 f < nsides && sd[f].name ? sd[f].name : "the run");
		}
	}
	if (!rc && !failed && !*stop && c0->auto_iter && ad->done) {
		char full[384];

		if (decided)
			snprintf(full, sizeof(full), "%s", why);
		else
			snprintf(full, sizeof(full), "%s; %s", *limit ? limit :
				 "stopped", *why ? why : "no look was reached");
		if (pr->on)
			fputs("\r\033[K", stderr);
		ad->done(ad->arg, c0, rounds, decided, full);
	}
	free(rs);
	free(ord);
	free(out);
	return rc;
}

static void free_results(struct side *sd, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (sd[k].have_res) {
			case_result_free(&sd[k].res);
			sd[k].have_res = false;
		}
}

/*
 * Where the traced cases of plan (a run's, uuid) keep their tracers'
 * output: trace_dir/uuid, trace_dir by default beside the database (a
 * PostgreSQL one's beside the default SQLite database).
 */
static void trace_roots(struct plan *plan, const struct store *st,
			const char *uuid, bool quiet)
{
	char *said = NULL;

	for (size_t i = 0; i < plan->ncases; i++) {
		struct plan_case *c = &plan->cases[i];
		char *dir, def[PATH_MAX];

		if (!c->trace)
			continue;
		if (c->trace_dir)
			dir = xstrdup(c->trace_dir);
		else if (!store_is_url(store_path(st)))
			dir = trace_default_dir(store_path(st));
		else if (!store_default_path(def, sizeof(def)))
			dir = trace_default_dir(def);
		else
			continue;	/* said why */
		free(c->trace_root);
		c->trace_root = xasprintf("%s/%s", dir, uuid);
		if (!quiet && (!said || strcmp(said, c->trace_root)))
			fprintf(stderr, "trace: output in %s\n", c->trace_root);
		free(said);
		said = xstrdup(c->trace_root);
		free(dir);
	}
	free(said);
}

int exec_plans(struct plan *plans, size_t nplans, const struct run_request *ro,
	       const char *db, int64_t *run_id_out)
{
	struct progress pr = { .on = !ro->quiet && isatty(2),
			       .ncases = plans[0].ncases, .start = now_ns() };
	struct runner_progress rp = { progress_before, &pr };
	struct precise prec = {
		.threshold = ro->threshold > 0 ? ro->threshold : 5,
		.brief = !ro->quiet && !ro->adapt && !ro->tables,
	};
	struct run_adapt own = { enough_precise, ro->quiet ? NULL : done_print,
				 &prec };
	size_t nbrief = 0;
	const struct run_adapt *ad = ro->adapt ? ro->adapt : &own;
	struct side *sd = xcalloc(nplans, sizeof(*sd));
	const char **names = xcalloc(nplans, sizeof(*names));
	struct switching sw = { 0 };
	struct run job = { .id = -1 };
	struct plan *plan = &plans[0];
	struct cpu_times t0;
	struct utsname u;
	struct store *st;
	char uuid[40], ab[40], label[256 + sizeof(u.release)], host[256] = "unknown";
	char what[96];
	bool interrupted = false, have_t0, stored = true;
	const char *status;
	uint64_t seed, rng;
	size_t kept;
	json_t *env;
	double busy;
	int rc = EXIT_OK;

	*run_id_out = -1;
	for (size_t k = 0; k < nplans; k++) {
		sd[k].plan = &plans[k];
		sd[k].name = k ? ro->variants[k - 1].name : ro->name;
		sd[k].id = -1;
		sd[k].stored = true;
		if (k && ro->variant_ids)
			ro->variant_ids[k - 1] = -1;
	}
	if (check_sides(sd, nplans)) {
		free(sd);
		free(names);
		return EXIT_USAGE;
	}
	st = store_open(db);
	if (!st) {
		if (ro->store_failed)
			*ro->store_failed = true;
		free(sd);
		free(names);
		return EXIT_USAGE;
	}
	supervise_block_signals();
	/* what the plans change on the machine: checked, journalled */
	for (size_t k = 0; k < nplans; k++) {
		names[k] = sd[k].name;
		if (names[k]) {
			char *t = xmalloc(strlen(names[k]) + sizeof("variant "));

			sprintf(t, "variant %s", names[k]);
			names[k] = t;
		}
	}
	if (switch_prepare(plans, nplans, names, &sw.sb) ||
	    (check_tasks(plans, nplans, names) && (switch_close(sw.sb), 1))) {
		store_close(st);
		for (size_t k = 0; k < nplans; k++)
			free((char *)names[k]);
		free(names);
		free(sd);
		return EXIT_USAGE;
	}
	if (ro->host)
		snprintf(host, sizeof(host), "%s", ro->host);
	else
		gethostname(host, sizeof(host) - 1);
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	snprintf(label, sizeof(label), "%s-%s", host, u.release);
	prec.st = st;
	prec.host = host;
	env = sysenv_collect();
	json_object_set_new(env, "probes", probes_availability(plan_probes(plan)));
	{
		unsigned mon = 0, named = 0;

		for (size_t k = 0; k < nplans; k++)
			for (size_t i = 0; i < plans[k].ncases; i++) {
				mon |= plans[k].cases[i].monitors;
				named |= plans[k].cases[i].monitors_named;
			}
		if (mon) {
			json_t *avail = json_object();

			monitor_warn_unavailable(mon, named, avail);
			json_object_set_new(env, "monitors", avail);
		}
	}
	if (ro->seed)
		seed = ro->seed;
	else if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = now_ns() ^ (uint64_t)getpid() << 32;
	seed &= (1ULL << 53) - 1;	/* exact in a JSON number */
	rng = seed;
	if (nplans > 1)
		json_object_set_new(env, "interleave_seed",
				    sysenv_item(json_integer((json_int_t)seed)));
	uuid_new(ab, sizeof(ab));
	busy = busy_pct();
	if (busy >= 0)
		json_object_set_new(env, "busy_at_start", sysenv_item(json_real(busy)));
	if (busy > 25)
		warning("the machine was busy when the run started (%.0f%% of CPU time used over 0.2 s): results may be noisy",
			busy);
	plan_warn_power(plan, (enum stat_test)ro->test, 0.05);
	have_t0 = !sysenv_cpu_times(&t0);
	for (size_t k = 0; k < nplans; k++) {
		const char *base = ro->label ? ro->label : label;
		struct store_run sr;

		const char *vn = sd[k].name;

		if (!k && ro->uuid)
			snprintf(uuid, sizeof(uuid), "%s", ro->uuid);
		else
			uuid_new(uuid, sizeof(uuid));
		sd[k].label = xmalloc(strlen(base) + (vn ? strlen(vn) : 0) + 2);
		sprintf(sd[k].label, "%s%s%s", base, vn ? "/" : "", vn ? vn : "");
		sr = (struct store_run){
			.uuid = uuid, .label = sd[k].label, .host = host,
			.command = ro->command, .version = SCHEDLAB_VERSION,
			.started = wall_now(), .environment = env,
			.ab = nplans > 1 ? ab : NULL,
			.variant = nplans > 1 ? (vn ? vn : "run") : NULL,
		};
		if (store_run_begin(st, &sr, &sd[k].id)) {
			rc = EXIT_RUN_FAILED;
			stored = false;
			break;
		}
		trace_roots(&plans[k], st, uuid, ro->quiet);
		if (!k)
			*run_id_out = sd[k].id;
		else if (ro->variant_ids)
			ro->variant_ids[k - 1] = sd[k].id;
	}
	for (size_t i = 0; i < plan->ncases; i++)
		pr.total += (plan->cases[i].warmup + plan->cases[i].iterations) * nplans;

	for (size_t i = 0; i < plan->ncases && rc == EXIT_OK; i++) {
		const struct plan_case *c = &plan->cases[i];
		bool last = i + 1 == plan->ncases;

		snprintf(prec.stopped, sizeof(prec.stopped), "as asked");
		if (job.ncases && strcmp(job.cases[0].job, c->job)) {
			progress_clear(&pr);
			job_flush(&job);
		}
		if (run_rounds(sd, nplans, i, ro->ab, ad, &pr, &rp, &rng, &sw,
			       &interrupted)) {
			rc = EXIT_RUN_FAILED;
			break;
		}
		if (interrupted)
			break;
		if (nplans == 1 && !ro->adapt && !ro->quiet)
			note_offset(&prec, c, &sd[0].res);
		/*
		 * Stop signals stay blocked from the case's end to its
		 * store's end (a lock wait included); one that came meanwhile
		 * is taken here or after the store: the case is kept, the run
		 * ends partial, exit 130. The last case carries each run's end
		 * in its own transaction: both are stored, or neither.
		 */
		if (supervise_stop_pending())
			interrupted = true;
		else if (last) {
			add_steal(env, &t0, have_t0);
			add_switching(env, &sw, NULL);
		}
		for (size_t k = 0; k < nplans; k++) {
			struct side *s = &sd[k];
			const struct case_result *r = &s->res;

			s->end_status = !interrupted && last ?
				run_status(false, s->complete + (r->status == RUN_OK),
					   s->failed + (r->status != RUN_OK), rc) : NULL;
			if (store_result(st, s->id, &s->plan->cases[i], r,
					 s->end_status, env)) {
				s->end_status = NULL;
				s->stored = stored = false;
				rc = EXIT_RUN_FAILED;
				break;
			}
			if (r->status == RUN_OK) {
				s->complete++;
			} else {
				s->failed++;
				progress_clear(&pr);
				error("case %u (%s%s%s)%s%s: %s", c->seq, c->job,
				      *c->sweep ? " " : "", c->sweep,
				      s->name ? " of variant " : "",
				      s->name ? s->name : "", r->reason);
			}
		}
		/* a stop while the store waited (and failed, perhaps) still counts */
		if (supervise_stop_pending())
			interrupted = true;
		if (!ro->quiet && sd[0].stored)
			run_case_from_result(&job, c, &sd[0].res);
		if (prec.brief && job.ncases) {
			FILE *f = text_safe(stdout);

			progress_clear(&pr);
			if (!nbrief++)
				render_case_brief_head(f);
			render_case_brief(f, &job, job.ncases - 1, prec.stopped);
			fclose(f);
			fflush(stdout);
			run_case_free(&job.cases[--job.ncases]);
		}
		free_results(sd, nplans);
		if (interrupted)
			break;
	}
	free_results(sd, nplans);
	progress_clear(&pr);
	if (!ro->quiet)
		job_flush(&job);
	if (nbrief) {
		FILE *f = text_safe(stdout);

		render_case_brief_foot(f);
		fclose(f);
	}
	run_free(&job);
	/* the knobs back, the cgroups gone, before the runs end */
	if (switch_close(sw.sb))
		rc = rc == EXIT_OK ? EXIT_RUN_FAILED : rc;
	sw.sb = NULL;
	add_switching(env, &sw, ro->switch_stats);
	free(sw.us);

	for (size_t k = 0; k < nplans; k++) {
		struct side *s = &sd[k];
		bool s_ended = true;

		if (s->id < 0)
			continue;
		status = run_status(interrupted, s->complete, s->failed, rc);
		if (!s->end_status || strcmp(s->end_status, status)) {
			if (!s->end_status && !k)
				add_steal(env, &t0, have_t0);
			if (store_run_end(st, s->id, status, wall_now(), env)) {
				rc = EXIT_RUN_FAILED;
				s->stored = stored = s_ended = false;
			}
		}
		if (plan->ncases == 1)
			snprintf(what, sizeof(what), "%s (one case)", status);
		else
			snprintf(what, sizeof(what), "%s, %zu of %zu cases complete",
				 status, s->complete, plan->ncases);
		if (!ro->quiet) {
			FILE *f = text_safe(stdout);

			if (s->stored && nbrief && !k)
				fprintf(f, "tables, scheduler metrics, the machine: schedlab show %lld%s%s\n",
					(long long)s->id, ro->db ? " --db " : "",
					ro->db ? store_path(st) : "");
			if (s->stored)
				fprintf(f, "run %lld (%s): %s, stored in %s\n",
					(long long)s->id, s->label, what,
					store_path(st));
			else
				fprintf(f, "run %lld (%s): %s; not all of it could be stored in %s%s\n",
					(long long)s->id, s->label, what,
					store_path(st), s_ended ? "" : " (it shows as abandoned once this process is gone)");
			fclose(f);
		}
	}
	if (!stored && ro->store_failed)
		*ro->store_failed = true;
	json_decref(env);
	store_close(st);
	kept = sd[0].complete + sd[0].failed;
	for (size_t k = 0; k < nplans; k++) {
		rc = rc == EXIT_OK && sd[k].failed ? EXIT_RUN_FAILED : rc;
		free(sd[k].label);
		free((char *)names[k]);
	}
	free(names);
	free(sd);
	if (interrupted) {
		error("run: interrupted; the %zu finished case%s kept", kept,
		      kept == 1 ? " is" : "s are");
		return EXIT_INTERRUPTED;
	}
	return rc;
}
