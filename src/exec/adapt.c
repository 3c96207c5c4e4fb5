// SPDX-License-Identifier: GPL-2.0-only
/*
 * run's own stopping rule for adaptive cases (iterations = auto): the
 * headline's median known to +-threshold/2, or more finely than this
 * host's run-to-run offset of the case (compare/noise_model.h), and what
 * is said of each case when it ends. judge and ab bring rules of their
 * own (struct run_adapt).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/noise_model.h"
#include "exec/exec_int.h"
#include "harness/identity.h"
#include "stats/noise.h"
#include "stats/sequential.h"
#include "util.h"

/*
 * Whether this host's run-to-run offset of case c (compare/noise_model.h)
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
void exec_note_offset(const struct precise *p, const struct plan_case *c,
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

void exec_adapt_init(struct exec *x)
{
	const struct run_request *rq = x->rq;

	x->prec = (struct precise){
		.threshold = rq->threshold > 0 ? rq->threshold : 5,
		.brief = !rq->quiet && !rq->adapt && !rq->tables,
	};
	x->own = (struct run_adapt){ enough_precise,
				     rq->quiet ? NULL : done_print, &x->prec };
	x->ad = rq->adapt ? rq->adapt : &x->own;
}
