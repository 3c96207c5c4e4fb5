// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_text: a run of the model as `show` prints it, and the job summary
 * that `show` and `run` share (report/run_text.h). The numbers come from
 * src/stats/ (the block's through render_job_summary(), the explanation
 * means through stats_amean()); this file only picks and lays them out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/run.h"
#include "probe/probe.h"
#include "probe/sysenv.h"
#include "report/mmtests.h"
#include "report/render.h"
#include "report/run_text.h"
#include "stats/summary.h"
#include "store/store.h"
#include "util.h"
#include "workload/registry.h"

/*
 * What one latency sample of a workload counts ("msgs", "ops"), for the
 * explanation line; "events" for a workload this binary does not know.
 */
static const char *run_events(const char *workload)
{
	const struct workload *wl = workload_find(workload);

	return wl && wl->events ? wl->events : "events";
}

/* "cpus=0-1 probes=off", or "" when c has no settings; to be freed. */
static char *settings_text(const struct run_case *c)
{
	size_t len = 1, n = 0;
	char *s;

	for (size_t i = 0; i < c->nsetting; i++)
		len += strlen(c->setting[i].name) + strlen(c->setting[i].value) + 2;
	s = xcalloc(1, len);
	for (size_t i = 0; i < c->nsetting; i++)
		n += (size_t)snprintf(s + n, len - n, "%s%s=%s", i ? " " : "",
				      c->setting[i].name, c->setting[i].value);
	return s;
}

/*
 * The metric the block shows: the workload's headline, else its first
 * metric (a workload that names no headline); -1 when it has none.
 */
static int block_metric(const struct run *r, const char *workload)
{
	int m = run_headline(r, workload);
	size_t wl = strlen(workload);

	for (size_t i = 0; m < 0 && i < r->nmetrics; i++)
		if (!strncmp(r->metrics[i].name, workload, wl) &&
		    r->metrics[i].name[wl] == '.')
			m = (int)i;
	return m;
}

/*
 * The means of the probe metrics (pmi: their indices in the run) over a
 * case's iterations; NAN: none.
 */
static void probe_means(const struct run_case *c, const int *pmi, double *x,
			double pm[PM_N])
{
	for (size_t p = 0; p < PM_N; p++) {
		size_t n = run_samples(c, pmi[p], x);

		if (stats_amean(x, n, &pm[p]))
			pm[p] = NAN;
	}
}

void render_job_text(FILE *f, const struct run *r, size_t from, size_t to)
{
	const struct run_case *c0 = &r->cases[from];
	int m = block_metric(r, c0->workload);
	size_t n = to - from, maxiter = 0;
	struct sweep_samples *s;
	char **label, *set0, *job;
	int pmi[PM_N];
	bool same = true;
	double *x;

	if (m < 0 || !n)
		return;
	set0 = settings_text(c0);
	label = xcalloc(n, sizeof(*label));
	for (size_t i = 0; i < n; i++) {
		char *set = settings_text(&r->cases[from + i]);

		same &= !strcmp(set, set0);
		free(set);
		if (r->cases[from + i].niter > maxiter)
			maxiter = r->cases[from + i].niter;
	}
	s = xcalloc(n, sizeof(*s));
	for (size_t i = 0; i < n; i++) {
		const struct run_case *c = &r->cases[from + i];
		const struct run_series *ser = run_series_of(c, m);
		char *set = same ? xstrdup("") : settings_text(c);

		/* settings that differ within the job go beside the sweep */
		if (asprintf(&label[i], "%s%s%s%s%s", c->sweep,
			     *set && *c->sweep ? " " : "", *set ? "[" : "",
			     set, *set ? "]" : "") < 0)
			abort();
		free(set);
		s[i].sweep = label[i];
		s[i].x = ser ? ser->x : NULL;
		s[i].n = ser ? c->niter : 0;
		s[i].failed = c->complete ? NULL : c->reason ? c->reason : "failed";
	}
	/* and those every case shares beside the job's heading */
	if (asprintf(&job, "%s%s%s%s", c0->job, same && *set0 ? " [" : "",
		     same ? set0 : "", same && *set0 ? "]" : "") < 0)
		abort();
	render_job_summary(f, job, c0->sweep_keys, &r->metrics[m], s, n);
	x = xcalloc(maxiter + 1, sizeof(*x));
	for (size_t p = 0; p < PM_N; p++)
		pmi[p] = run_metric(r, probe_metrics[p].name);
	for (size_t i = 0; i < n; i++) {
		double pm[PM_N];

		probe_means(&r->cases[from + i], pmi, x, pm);
		render_explain(f, label[i], run_events(c0->workload), pm);
	}
	fputc('\n', f);
	for (size_t i = 0; i < n; i++)
		free(label[i]);
	free(label);
	free(x);
	free(s);
	free(job);
	free(set0);
}

/* Columns of the brief lines: 80 wide with the longest shipped job names. */
#define BRIEF_FMT "%-25s %-6s %12s %8s %4s %7s  %s\n"

void render_case_brief_head(FILE *f)
{
	fprintf(f, BRIEF_FMT, "job", "sweep", "median", "CoeffVar", "iter",
		"detects", "stopped");
}

void render_case_brief(FILE *f, const struct run *r, size_t i,
		       const char *stopped)
{
	const struct run_case *c = &r->cases[i];
	int m = block_metric(r, c->workload);
	char med[32] = "-", cv[16] = "-", it[16], mde[16] = "-";
	double *x, v, cov;
	size_t n;

	if (!c->complete) {
		fprintf(f, "%-25s %-6s failed: %s\n", c->job, c->sweep,
			c->reason ? c->reason : "(no reason stored)");
		return;
	}
	x = xcalloc(c->niter + 1, sizeof(*x));
	n = m < 0 ? 0 : run_samples(c, m, x);
	if (n && !stats_median(x, n, &v))
		snprintf(med, sizeof(med), "%.4g %s", v, r->metrics[m].unit);
	if (n > 1 && !stats_coeffvar(x, n, r->metrics[m].better, &cov) &&
	    isfinite(cov)) {
		snprintf(cv, sizeof(cv), "%.1f%%", fabs(cov));
		v = stats_mde_pct(cov, n);
		if (isfinite(v))
			snprintf(mde, sizeof(mde), "+-%.*f%%", v < 10 ? 1 : 0, v);
	}
	snprintf(it, sizeof(it), "%zu", n);
	fprintf(f, BRIEF_FMT, c->job, c->sweep, med, cv, it, mde,
		stopped ? stopped : "");
	free(x);
}

void render_case_brief_foot(FILE *f)
{
	fputs("detects: the smallest change of the mean that two such runs side by side\n"
	      "in one boot (schedlab ab) show at 5% with 80% power. Runs of separate\n"
	      "boots (kernel against kernel) differ by more: each has its own offset,\n"
	      "and a comparison needs several runs a side (doc/statistics.md).\n", f);
}

static void fmt_time(char *buf, size_t len, double t)
{
	time_t s;
	struct tm tm;

	if (!isfinite(t)) {
		snprintf(buf, len, "-");
		return;
	}
	s = (time_t)t;
	gmtime_r(&s, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

/* Which scheduler-metric sources (or monitors: prefix "monitor ") the
 * run had, and why not. */
static void probes_text(FILE *f, const json_t *probes, const char *prefix)
{
	const char *name;
	json_t *p;
	char buf[64];

	if (!json_is_object(probes))
		return;
	json_object_foreach((json_t *)probes, name, p) {
		if (json_is_true(json_object_get(p, "available")))
			continue;
		snprintf(buf, sizeof(buf), "%s%s", prefix, name);
		fprintf(f, "%-17s not available (%s)\n", buf,
			json_string_value(json_object_get(p, "reason")) ?: "?");
	}
}

/*
 * The commit the run was made in: "v1.2-3-gdeadbee-dirty (deadbeefcafe)",
 * the hash cut to 12 digits; "-" when none was recorded (the
 * environment's git line says why).
 */
static void commit_text(FILE *f, const json_t *env)
{
	json_t *v = sysenv_item_value(json_object_get(env, "git"));
	const char *d = json_string_value(json_object_get(v, "describe"));
	const char *c = json_string_value(json_object_get(v, "commit"));

	fputs("commit     ", f);
	if (d && c)
		fprintf(f, "%s (%.12s)\n", d, c);
	else
		fputs("-\n", f);
}

/*
 * "variant    slice of A/B 3f2a1b2c... (runs 12 base, 13 slice)": the
 * run's place among the runs made beside it (ab: those the store has,
 * by id; none for a run read from a file).
 */
static void ab_text(FILE *f, const struct run *r, const struct store_ab_run *ab,
		    size_t nab)
{
	if (!r->ab)
		return;
	fprintf(f, "variant    %s of A/B %.8s...", r->variant ?: "-", r->ab);
	for (size_t i = 0; i < nab; i++)
		fprintf(f, "%s%lld %s", i ? ", " : " (runs ",
			(long long)ab[i].id, ab[i].variant ?: "-");
	fputs(nab ? ")\n" : "\n", f);
}

void render_run_text(FILE *f, const struct run *r,
		     const struct store_ab_run *ab, size_t nab)
{
	/* one line each: a newline in them is "\\n" */
	char *label = text_field(r->label, "-"), *host = text_field(r->host, "-");
	char *command = text_field(r->command, "-");
	char a[64], b[64], topo[128];
	size_t from = 0, n = r->ncases;

	fmt_time(a, sizeof(a), r->started);
	fmt_time(b, sizeof(b), r->ended);
	fprintf(f, "run        %s\n", label);
	ab_text(f, r, ab, nab);
	render_topology_brief(topo, sizeof(topo), r->environment);
	fprintf(f, "status     %s, %zu case%s\nstarted    %s\n"
		"ended      %s\nhost       %s%s%s%s\n",
		r->status, n, n == 1 ? "" : "s", a, b, host,
		*topo ? " (" : "", topo, *topo ? ")" : "");
	commit_text(f, r->environment);
	fprintf(f, "command    %s\nuuid       %s\n\n", command, r->uuid);
	free(label);
	free(host);
	free(command);
	render_env_text(f, r->environment);
	probes_text(f, json_object_get(r->environment, "probes"), "");
	probes_text(f, json_object_get(r->environment, "monitors"), "monitor ");
	fputc('\n', f);
	for (size_t i = 1; i <= n; i++) {
		if (i < n && !strcmp(r->cases[from].job, r->cases[i].job))
			continue;
		render_job_text(f, r, from, i);
		from = i;
	}
}
