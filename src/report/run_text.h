/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_text: a run of the model (model/run.h) as text - what `show`
 * prints, and the per-job summary `run` prints as each job finishes:
 * the headline metric's mmtests block, a line of scheduler metrics per
 * case (their means, from src/stats/) and the settings a case ran with
 * (every one: cpus, nice, sysctl.*, cgroup.*, ...), beside the job's
 * heading when its cases share them, else beside each case's sweep.
 */
#ifndef SCHEDLAB_REPORT_RUN_TEXT_H
#define SCHEDLAB_REPORT_RUN_TEXT_H

#include <stddef.h>
#include <stdio.h>

struct run;
struct store_ab_run;

/*
 * The summary of cases [from, to) of r, which are one job's: the block,
 * the explanation lines and the blank line that ends them.
 */
void render_job_text(FILE *f, const struct run *r, size_t from, size_t to);

/*
 * What `run` prints as each case ends (the full tables are `show RUN
 * --layout mmtests`): a heading, then one line a case - job, sweep, the
 * headline's median and CoeffVar, iterations, the smallest change two
 * such runs side by side would show (stats_mde_pct()), and why it
 * stopped ("as asked", "precise", "max reached", "budget spent"; a
 * failed case its reason instead) - and the lines that say what the
 * "detects" column means and what it does not cover.
 */
void render_case_brief_head(FILE *f);
void render_case_brief(FILE *f, const struct run *r, size_t i,
		       const char *stopped);
void render_case_brief_foot(FILE *f);

/*
 * The whole run as `show` prints it: the run (with its A/B, ab[0..nab)
 * being the runs of it the store has), its machine, each job.
 */
void render_run_text(FILE *f, const struct run *r,
		     const struct store_ab_run *ab, size_t nab);

#endif
