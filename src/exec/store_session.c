// SPDX-License-Identifier: GPL-2.0-only
/*
 * An execution's store session: each side's run begun (its uuid, its
 * label, the machine's description, where its traces go), each case
 * stored as it ends - the last one with each run's end, in one
 * transaction - and each run ended with its status and what the run
 * cost the machine (steal, knob switching).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>

#include "exec/exec_int.h"
#include "monitor/monitor.h"
#include "probe/procfs.h"
#include "harness/identity.h"
#include "harness/result.h"
#include "report/render.h"
#include "store/store.h"
#include "stats/summary.h"
#include "trace/trace.h"
#include "util.h"
#include "version.h"

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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

/* CPU seconds used by this process and its waited-for children, and by
 * the servers its workloads talk to (proc_serving_add()). */
static double own_cpu(void)
{
	struct rusage self, children;

	if (getrusage(RUSAGE_SELF, &self) || getrusage(RUSAGE_CHILDREN, &children))
		return NAN;
	return tv_s(&self.ru_utime) + tv_s(&self.ru_stime) +
	       tv_s(&children.ru_utime) + tv_s(&children.ru_stime) +
	       proc_serving_cpu_s(NULL, 0);
}

/* The times of the CPUs in set that /proc/stat lists, summed into *t:
 * how many there were; 0 when it cannot be read. */
static int allowed_times(const cpu_set_t *set, struct cpu_times *t)
{
	size_t len;
	char *buf = monitor_slurp("/proc/stat", &len);
	struct stat_cpus s;
	int n = 0;

	memset(t, 0, sizeof(*t));
	if (!buf || procfs_parse_stat(buf, len, &s)) {
		free(buf);
		return 0;
	}
	free(buf);
	for (int c = 0; c < s.nr_cpus && c < CPU_SETSIZE; c++) {
		const struct cpu_times *p = &s.cpu[c];

		if (!s.present[c] || !CPU_ISSET(c, set))
			continue;
		t->user += p->user, t->nice += p->nice, t->system += p->system;
		t->idle += p->idle, t->iowait += p->iowait, t->irq += p->irq;
		t->softirq += p->softirq, t->steal += p->steal;
		n++;
	}
	stat_cpus_free(&s);
	return n;
}

void exec_during_begin(struct exec *x)
{
	x->own0 = own_cpu();
	x->have_mine0 = !sched_getaffinity(0, sizeof(x->allowed), &x->allowed) &&
			allowed_times(&x->allowed, &x->mine0) > 0 &&
			isfinite(x->own0);
}

/* What other processes used of the CPUs the run may use, % of their
 * time: their busy time less this run's own (its workloads are children
 * it waited for); NAN when it cannot be told. */
static double others_during(const struct exec *x)
{
	const struct cpu_times *a = &x->mine0;
	struct cpu_times b;
	double own = own_cpu() - x->own0, total, busy;
	long hz = sysconf(_SC_CLK_TCK);

	if (!x->have_mine0 || !allowed_times(&x->allowed, &b) || hz <= 0 ||
	    !isfinite(own) || cpu_times_total(&b) <= cpu_times_total(a))
		return NAN;
	total = (double)(cpu_times_total(&b) - cpu_times_total(a));
	busy = (double)cpu_times_busy(&b) - (double)cpu_times_busy(a);
	return fmin(100, fmax(0, 100.0 * (busy - own * (double)hz) / total));
}

void exec_add_during(struct exec *x)
{
	const struct cpu_times *a = &x->t0;
	struct cpu_times b;
	double others = others_during(x);
	uint64_t total;

	char served[300];
	double served_s = proc_serving_cpu_s(served, sizeof(served));

	json_object_set_new(x->env, "others_during_run", isfinite(others) ?
		sysenv_item(json_real(others)) :
		sysenv_missing("/proc/stat's CPU lines or getrusage() cannot be read"));
	/* a server the workloads talked to, counted as the run's own */
	if (*served)
		json_object_set_new(x->env, "served_during_run", sysenv_item(json_pack(
			"{s:s, s:f}", "processes", served, "cpu_s", served_s)));
	if (!x->have_t0 || sysenv_cpu_times(&b)) {
		json_object_set_new(x->env, "steal_during_run",
			sysenv_missing("/proc/stat: cannot be read"));
		return;
	}
	total = cpu_times_total(&b) - cpu_times_total(a);
	json_object_set_new(x->env, "steal_during_run", sysenv_item(json_real(
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

/*
 * What switching cost so far, into env ("knob_switching": iterations,
 * median_us, max_us) and *out; nothing when nothing switched.
 */
void exec_add_switching(json_t *env, const struct switching *sw,
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
		else if (store_scheme(store_path(st))->file)
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

/*
 * Each side's run begun, in order, until one cannot be (x->rc then
 * says so): *run_id the run's id, rq->variant_ids the others'.
 */
void exec_begin_runs(struct exec *x, int64_t *run_id)
{
	const struct run_request *rq = x->rq;
	char uuid[40];

	for (size_t k = 0; k < x->nplans; k++) {
		const char *base = rq->label ? rq->label : x->label;
		const char *vn = x->sd[k].name;
		struct store_run sr;

		if (!k && rq->uuid)
			snprintf(uuid, sizeof(uuid), "%s", rq->uuid);
		else
			uuid_new(uuid, sizeof(uuid));
		x->sd[k].label = xmalloc(strlen(base) + (vn ? strlen(vn) : 0) + 2);
		sprintf(x->sd[k].label, "%s%s%s", base, vn ? "/" : "", vn ? vn : "");
		sr = (struct store_run){
			.uuid = uuid, .label = x->sd[k].label, .host = x->host,
			.command = rq->command, .version = SCHEDLAB_VERSION,
			.started = wall_now(), .environment = x->env,
			.ab = x->nplans > 1 ? x->ab : NULL,
			.variant = x->nplans > 1 ? (vn ? vn : "run") : NULL,
		};
		if (store_run_begin(x->st, &sr, &x->sd[k].id)) {
			x->rc = EXIT_RUN_FAILED;
			x->stored = false;
			break;
		}
		trace_roots(&x->plans[k], x->st, uuid, rq->quiet);
		if (!k)
			*run_id = x->sd[k].id;
		else if (rq->variant_ids)
			rq->variant_ids[k - 1] = x->sd[k].id;
	}
}

/*
 * Case i of every side stored (the last one with its run's end unless
 * interrupted), until a side's cannot be; a failed case said.
 */
void exec_store_case(struct exec *x, size_t i, bool last)
{
	const struct plan_case *c = &x->plans[0].cases[i];

	for (size_t k = 0; k < x->nplans; k++) {
		struct side *s = &x->sd[k];
		const struct case_result *r = &s->res;

		s->end_status = !x->interrupted && last ?
			run_status(false, s->complete + (r->status == RUN_OK),
				   s->failed + (r->status != RUN_OK), x->rc) : NULL;
		if (store_result(x->st, s->id, &s->plan->cases[i], r,
				 s->end_status, x->env)) {
			s->end_status = NULL;
			s->stored = x->stored = false;
			x->rc = EXIT_RUN_FAILED;
			break;
		}
		if (r->status == RUN_OK) {
			s->complete++;
			continue;
		}
		s->failed++;
		exec_progress_clear(&x->pr);
		error("case %u (%s%s%s)%s%s: %s", c->seq, c->job,
		      *c->sweep ? " " : "", c->sweep,
		      s->name ? " of variant " : "", s->name ? s->name : "",
		      r->reason);
	}
}

/*
 * Each begun run ended with its status (unless its last case already
 * stored that one), and its closing line printed.
 */
void exec_end_runs(struct exec *x)
{
	for (size_t k = 0; k < x->nplans; k++) {
		struct side *s = &x->sd[k];
		const char *status;
		bool ended = true;

		if (s->id < 0)
			continue;
		status = run_status(x->interrupted, s->complete, s->failed, x->rc);
		if (!s->end_status || strcmp(s->end_status, status)) {
			if (!s->end_status && !k)
				exec_add_during(x);
			if (store_run_end(x->st, s->id, status, wall_now(), x->env)) {
				x->rc = EXIT_RUN_FAILED;
				s->stored = x->stored = ended = false;
			}
		}
		if (!x->rq->quiet)
			exec_print_run_end(x, k, status, ended);
	}
}
