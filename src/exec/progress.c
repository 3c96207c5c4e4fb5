// SPDX-License-Identifier: GPL-2.0-only
/*
 * What an execution prints as it goes: the progress line on stderr (a
 * terminal's), and on stdout the run's own summary - a line a case, or
 * each job's tables as the job ends (report/run_text.h, the ones `show`
 * prints later) - and each side's closing line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "exec/exec_int.h"
#include "report/run_text.h"
#include "store/store.h"
#include "util.h"

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

/* The progress line from now on, its total from the run's plan. */
void exec_progress_init(struct exec *x)
{
	const struct plan *plan = &x->plans[0];

	x->pr = (struct progress){ .on = !x->rq->quiet && isatty(2),
				   .ncases = plan->ncases, .start = now_ns() };
	x->rp = (struct runner_progress){ progress_before, &x->pr };
	for (size_t i = 0; i < plan->ncases; i++)
		x->pr.total += (plan->cases[i].warmup + plan->cases[i].iterations) *
			       x->nplans;
}

void exec_progress_clear(const struct progress *p)
{
	if (p->on)
		fputs("\r\033[K", stderr);
}

/*
 * Prints the summary of the current job's finished cases - the one `show`
 * prints for them later (report/run_text.h) - and empties it. With sides
 * run beside it (ab's variants, judge's references) the tables are the
 * first side's alone, and say so.
 */
void exec_job_flush(struct exec *x)
{
	struct run *job = &x->job;
	const struct side *s = &x->sd[0];
	FILE *f;

	if (!job->ncases)
		return;
	if (x->rq->no_tables) {
		while (job->ncases)
			run_case_free(&job->cases[--job->ncases]);
		return;
	}
	f = text_safe(stdout);
	if (x->nplans > 1) {
		if (s->name)
			fprintf(f, "variant %s alone (run %lld, %s):\n",
				s->name, (long long)s->id, s->label ? s->label : "-");
		else
			fprintf(f, "run %lld (%s) alone:\n",
				(long long)s->id, s->label ? s->label : "-");
	}
	render_job_text(f, job, 0, job->ncases);
	fclose(f);
	fflush(stdout);
	while (job->ncases)
		run_case_free(&job->cases[--job->ncases]);
}

/* The line of the case just stored (x->job's last), the head before the first. */
void exec_print_brief(struct exec *x)
{
	FILE *f = text_safe(stdout);

	exec_progress_clear(&x->pr);
	if (!x->nbrief++)
		render_case_brief_head(f);
	render_case_brief(f, &x->job, x->job.ncases - 1, x->prec.stopped);
	fclose(f);
	fflush(stdout);
	run_case_free(&x->job.cases[--x->job.ncases]);
}

/* What closes the lines of the cases, when there were any. */
void exec_print_foot(const struct exec *x)
{
	FILE *f;

	if (!x->nbrief)
		return;
	f = text_safe(stdout);
	render_case_brief_foot(f);
	fclose(f);
}

/*
 * Side k's closing line: its run, its status, where it is stored (or
 * that not all of it could be; ended: its end was stored).
 */
void exec_print_run_end(const struct exec *x, size_t k, const char *status,
			bool ended)
{
	const struct side *s = &x->sd[k];
	const struct plan *plan = &x->plans[0];
	char what[96];
	FILE *f;

	if (plan->ncases == 1)
		snprintf(what, sizeof(what), "%s (one case)", status);
	else
		snprintf(what, sizeof(what), "%s, %zu of %zu cases complete",
			 status, s->complete, plan->ncases);
	f = text_safe(stdout);
	if (s->stored && x->nbrief && !k)
		fprintf(f, "tables, scheduler metrics, the machine: schedlab show %lld%s%s\n",
			(long long)s->id, x->rq->db ? " --db " : "",
			x->rq->db ? store_path(x->st) : "");
	if (s->stored)
		fprintf(f, "run %lld (%s): %s, stored in %s\n",
			(long long)s->id, s->label, what, store_path(x->st));
	else
		fprintf(f, "run %lld (%s): %s; not all of it could be stored in %s%s\n",
			(long long)s->id, s->label, what, store_path(x->st),
			ended ? "" : " (it shows as abandoned once this process is gone)");
	fclose(f);
}
