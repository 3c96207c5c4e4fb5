/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Subcommands. Each takes argv with argv[0] = its own name, returns an
 * exit code (util.h) and has already said why when that is not 0. To add
 * one: a file here, a prototype below, a line in commands.c's command table, a
 * section in doc/schedlab.1 and README.md. A command that runs plans
 * (run, judge, ab) fills a struct run_request and calls exec/exec.h.
 */
#ifndef SCHEDLAB_CMD_H
#define SCHEDLAB_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec/exec.h"

int cmd_bench(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_push(int argc, char **argv);
int cmd_pull(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_judge(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_queue(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_noise(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_campaign(int argc, char **argv);
int cmd_vm(int argc, char **argv);

/* A kernel build's options (cmd/setup.h's OPT_KBUILD) into *b. */
struct vm_cmd_kbuild;
struct vm_build;
void vm_build_from(const struct vm_cmd_kbuild *k, struct vm_build *b);

/*
 * The run_request of the options run and ab share (setup.h's struct
 * run_cmd_opts): spec the SUITE or JOBFILE (NULL: quick), command the
 * command line stored with the run.
 */
struct run_cmd_opts;
struct run_request run_request_of(const struct run_cmd_opts *o,
				  const char *spec, const char *command);


/* trace_opts checked: 0, or -1 after error() naming who's option. */
int trace_opts_check(const char *who, const struct trace_opts *t);

/*
 * The options of run, ab and judge that choose iteration counts and
 * monitors, checked: 0, or -1 after error() naming who's option.
 */
int run_check_iterations(const char *who, const struct run_request *rq);

/*
 * Whether ss, store_series()'s answer for job and metric (NULL: the
 * headline), names them both: 0, or -1 after error() naming the one that
 * is unknown and listing what the store has instead (the jobs, or the
 * job's metrics). history.c.
 */
struct store_series;
int series_unknown(const char *who, const char *job, const char *metric,
		   const char *db, const struct store_series *ss);

#endif
