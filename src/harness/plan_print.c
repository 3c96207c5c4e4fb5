// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_print: a plan as --dry-run shows it - a line a case (its job,
 * workload, sweep values and iterations), the options of each, and the
 * totals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/plan.h"
#include "harness/plan_int.h"
#include "monitor/monitor.h"
#include "probe/probe.h"
#include "trace/trace.h"
#include "util.h"

#define VALUE_MAX	128	/* one formatted option value */

/* The words of a and b paired as "a1=b1 a2=b2", into buf. */
static void zip(const char *a, const char *b, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	while (*a && n < len) {
		size_t la = strcspn(a, " "), lb = strcspn(b, " ");

		n += (size_t)snprintf(buf + n, len - n, "%s%.*s=%.*s",
				      n ? " " : "", (int)la, a, (int)lb, b);
		a += la + !!a[la];
		b += lb + !!b[lb];
	}
}

/* Every option as "name=value", in table order: what --dry-run shows. */
static char *params_of(const struct workload *wl, const void *cfg)
{
	size_t cap = 1, n = 0;
	char *s, v[VALUE_MAX];

	for (const struct opt_def *o = wl->options; o->name; o++)
		if (!o->set)
			cap += strlen(o->name) + 2 + VALUE_MAX;
	s = xmalloc(cap);
	s[0] = '\0';
	for (const struct opt_def *o = wl->options; o->name; o++) {
		if (o->set)
			continue;
		opt_format(o, cfg, v, sizeof(v));
		n += (size_t)snprintf(s + n, cap - n, "%s%s=%s", n ? " " : "",
				      o->name, v);
	}
	return s;
}

/*
 * Case idx of job j (its axes as digits, the last one fastest) into c.
 * The values are copied behind the config, in the same block, so that an
 * option that keeps a pointer to its text (OPT_STRING) stays valid for
 * as long as the config.
 */

void plan_print(FILE *f, const struct plan *p)
{
	unsigned long long iters = 0, least = 0, warm = 0;
	int wjob = 3, wwl = 8, wsw = 5;
	char sweep[512];

	for (size_t i = 0; i < p->ncases; i++) {
		const struct plan_case *c = &p->cases[i];
		int n;

		iters += c->iterations;
		least += c->auto_iter ? c->min_iter : c->iterations;
		warm += c->warmup;
		n = (int)strlen(c->job);
		wjob = n > wjob ? n : wjob;
		n = (int)strlen(c->wl->name);
		wwl = n > wwl ? n : wwl;
		zip(c->sweep_keys, c->sweep, sweep, sizeof(sweep));
		n = (int)strlen(sweep);
		wsw = n > wsw ? n : wsw;
	}
	if (least < iters)	/* adaptive: from the least to the most */
		fprintf(f, "# %s (%s): %zu case%s, %llu..%llu iterations + %llu warm-up\n",
			p->name, p->source, p->ncases, p->ncases == 1 ? "" : "s",
			least, iters, warm);
	else
		fprintf(f, "# %s (%s): %zu case%s, %llu iterations + %llu warm-up\n",
			p->name, p->source, p->ncases, p->ncases == 1 ? "" : "s",
			iters, warm);
	fprintf(f, "%5s  %-*s  %-*s  %-*s  %-9s  %s\n", "seq", wjob, "job",
		wwl, "workload", wsw, "sweep", "iter+warm", "params");
	for (size_t i = 0; i < p->ncases; i++) {
		const struct plan_case *c = &p->cases[i];
		char iw[32], *all = params_of(c->wl, c->cfg);

		zip(c->sweep_keys, c->sweep, sweep, sizeof(sweep));
		if (c->auto_iter)
			snprintf(iw, sizeof(iw), "%u..%u+%u", c->min_iter,
				 c->max_iter, c->warmup);
		else
			snprintf(iw, sizeof(iw), "%u+%u", c->iterations, c->warmup);
		fprintf(f, "%5u  %-*s  %-*s  %-*s  %-9s  %s", c->seq, wjob,
			c->job, wwl, c->wl->name, wsw, *sweep ? sweep : "-",
			iw, all);
		free(all);
		if (c->timeout_s)
			fprintf(f, " timeout=%us", c->timeout_s);
		if (c->auto_iter && c->budget_s)
			fprintf(f, " budget=%us", c->budget_s);
		if (c->retries)
			fprintf(f, " retries=%u", c->retries);
		if (c->probes != PROBES_ON)
			fprintf(f, " probes=%s", probe_level_names[c->probes]);
		if (c->monitors) {
			char list[256];

			monitor_list_format(c->monitors, list, sizeof(list));
			fprintf(f, " monitors=%s monitor_interval=%ums", list,
				c->monitor_ms);
		}
		if (c->monitor_cpus)
			fprintf(f, " monitor_cpus=%s", c->monitor_cpus);
		if (c->trace)
			fprintf(f, " trace=%s trace_scope=%s", c->trace,
				trace_scope_names[c->trace_scope]);
		if (c->cpus)
			fprintf(f, " cpus=%s", c->cpus);
		for (size_t k = 0; k < c->nset; k++)
			fprintf(f, " %s=%s", c->set[k].key, c->set[k].value);
		fputc('\n', f);
	}
}
