/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Subcommands. Each takes argv with argv[0] = its own name, returns an
 * exit code (util.h) and has already said why when that is not 0. To add
 * one: a file here, a prototype below, a line in src/main.c's table, a
 * section in doc/schedlab.1 and README.md.
 */
#ifndef SCHEDLAB_CMD_H
#define SCHEDLAB_CMD_H

#include <stdbool.h>
#include <stdint.h>

int cmd_bench(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_judge(int argc, char **argv);

/*
 * What `schedlab run` does once its options are read, for run and
 * judge: load a suite or job file, run every case, store the run.
 * Returns run's exit code; *run_id is the stored run's id, or -1 when
 * none was begun.
 */
struct run_request {
	const char *spec;	/* SUITE or JOBFILE; NULL: quick */
	const char *label;	/* NULL: HOSTNAME-KERNELRELEASE */
	const char *db;		/* NULL: the default database */
	unsigned iterations;	/* 0: the job file's */
	const char *const *sets;	/* --set KEY=VALUE over the job file */
	size_t nsets;
	bool quiet;		/* no progress, no summary */
	int test;		/* enum stat_test it is judged by, for the
				 * plan-time warning; 0: mann-whitney */
	const char *command;	/* the command line, for the record */
	/* when not NULL, set when the database could not be opened or
	 * written (judge aborts the bisection rather than blame a commit) */
	bool *store_failed;
};
int run_suite(const struct run_request *rq, int64_t *run_id);

#endif
