// SPDX-License-Identifier: GPL-2.0-only
/*
 * commands.c: the command table - each command's name, function,
 * summary and what it needs before it runs (setup.c does that) - and a
 * command found by its name. A new command is a row here (doc/
 * architecture.md, "A command").
 */
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
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

const struct command *command_find(const char *name)
{
	for (size_t i = 0; i < ncommands; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}
