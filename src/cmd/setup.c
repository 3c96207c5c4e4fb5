// SPDX-License-Identifier: GPL-2.0-only
/*
 * setup.c: the command table, each command's row carrying what it needs
 * before it runs (git's RUN_SETUP), and the one start-up that does it:
 * main() puts back what a killed schedlab left switched (NEEDS_RECOVER),
 * cmd_parse() reads a command's options, answers --help, checks its job
 * operand and resolves its database (NEEDS_STORE_*). A command file then
 * parses what is its own and calls its engines.
 */
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"

/* Every command resolves and recovers; the rest by what it does. */
#define RO (NEEDS_RECOVER | NEEDS_STORE_RO)
#define RW (NEEDS_RECOVER | NEEDS_STORE_RW)

const struct command commands[] = {
	{ "run", cmd_run, "run a suite or job file, store it, print a summary",
	  RW | NEEDS_JOB },
	{ "bench", cmd_bench, "run one workload with its reference tool's flags and output",
	  NEEDS_RECOVER },
	{ "list", cmd_list, "list workloads, suites or stored runs", RO },
	{ "show", cmd_show, "one stored run: machine, cases, summaries", RO },
	{ "export", cmd_export, "a stored run as one self-contained JSON document", RO },
	{ "import", cmd_import, "store an exported run", RW },
	{ "push", cmd_push, "copy stored runs to another database (the fleet's), each once", RO },
	{ "pull", cmd_pull, "copy runs from another database into the local one, each once", RW },
	{ "compare", cmd_compare, "stored runs side by side: mmtests' tables, significance, verdicts", RO },
	{ "report", cmd_report, "stored runs as an HTML page: tables, plots, latency CDFs, environments", RO },
	{ "history", cmd_history, "change points over a job's stored runs, by time, commit or kernel", RO },
	{ "judge", cmd_judge, "run and compare against a baseline; exit 0/1/125 for git bisect run",
	  RW | NEEDS_STORE_RO },
	{ "noise", cmd_noise, "this host's noise per case: within a run and between runs", RO },
	{ "calibrate", cmd_calibrate, "measure the noise between runs: N short runs of a job, stored", RW },
	{ "plan", cmd_plan, "how many runs of how many iterations detect an effect here", RO },
	{ "campaign", cmd_campaign, "kernel A/B across boots: a state a boot, alternated, decided by runs",
	  NEEDS_RECOVER },
	{ "vm", cmd_vm, "a job on a kernel image in qemu (KVM or TCG), its run stored here", RW },
	{ "ab", cmd_ab, "run a suite under two or more variants, interleaved, and compare them",
	  RW | NEEDS_JOB },
	{ "queue", cmd_queue, "the fleet's job queue in PostgreSQL: add, list, cancel, retry jobs", RW },
	{ "agent", cmd_agent, "on a test machine: take queued jobs, run them, record their results", RW },
	{ "env", cmd_env, "show the machine, kernel, topology and scheduler settings", NEEDS_RECOVER },
};
const size_t ncommands = ARRAY_SIZE(commands);

#undef RO
#undef RW

/* The row of the command whose name is who's first word ("vm run"). */
static const struct command *row_of(const char *who)
{
	size_t n = strcspn(who, " ");

	for (size_t i = 0; i < ncommands; i++)
		if (!strncmp(commands[i].name, who, n) && !commands[i].name[n])
			return &commands[i];
	return NULL;
}

const struct command *command_find(const char *name)
{
	const struct command *c = row_of(name);

	return c && !strcmp(c->name, name) ? c : NULL;
}

/* The field of option name of a's table, or NULL when it has none. */
static void *field(const struct cmd_args *a, const char *name)
{
	const struct opt_def *o = opt_find(a->tab, name);

	return o ? (char *)a->opts + o->offset : NULL;
}

int cmd_parse(int argc, char **argv, struct cmd_args *a, int *rc)
{
	struct opt_target t = { a->tab, a->opts };
	const char *who = a->who ? a->who : (a->who = argv[0]);
	const struct command *c = row_of(who);
	unsigned needs = c ? c->needs : 0;
	const char *const *db;
	bool *help;
	int first;

	*rc = a->bad_rc ? a->bad_rc : EXIT_USAGE;
	memset(a->db, 0, sizeof(a->db));
	memset(&a->src, 0, sizeof(a->src));
	memset(a->opts, 0, a->size);
	opts_defaults(a->tab, a->opts);
	first = opts_parse_argv(&t, 1, argc, argv, who, !a->no_operands);
	if (first < 0)
		return -1;
	help = field(a, "help");
	if (help && *help) {
		cmd_usage(stdout, a);
		*rc = EXIT_OK;
		return -1;
	}
	if ((needs & NEEDS_JOB) && argc - first > 1) {
		error("%s: one SUITE or JOBFILE at most, got '%s' and '%s'",
		      who, argv[first], argv[first + 1]);
		return -1;
	}
	db = field(a, "db");
	if (needs & NEEDS_STORE_RO)
		run_source_init(&a->src, db ? *db : NULL);
	if ((needs & (NEEDS_STORE_RO | NEEDS_STORE_RW)) &&
	    run_db_path(db ? *db : NULL, a->db, sizeof(a->db)))
		return -1;
	*rc = EXIT_OK;
	return first;
}

void cmd_usage(FILE *f, const struct cmd_args *a)
{
	if (a->usage) {
		a->usage(f);
		return;
	}
	if (a->help)
		fputs(a->help->head, f);
	else
		fprintf(f, "usage: schedlab %s\n\nOptions:\n", a->usage_line);
	opts_help(f, a->tab);
	if (a->help && a->help->tail)
		fputs(a->help->tail, f);
}

void cmd_args_done(struct cmd_args *a)
{
	if (a->src.st)
		run_source_close(&a->src);
}

struct store *cmd_store_ro(struct cmd_args *a, const char *hint)
{
	struct store *st = run_source_store(&a->src);

	if (!st && a->src.missing && hint)
		error("%s: no database at %s (%s)", a->who, a->src.db, hint);
	return st;
}
