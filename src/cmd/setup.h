/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * setup: what every command shares before its own work, declared once
 * (as git's command table carries RUN_SETUP): the command table itself
 * with each command's setup flags (struct command, NEEDS_*), the one
 * start-up those flags ask for (cmd_parse(): a command's options parsed,
 * --help answered, the database of --db resolved), and the options
 * every command that reads or writes runs shares: --db, --format,
 * --help, and a suite's --iterations and --set, each an entry for a
 * command's option table that fills a field of that command's options
 * struct. The database they name is resolved by run_db_path()
 * (store/load.h), the one place that knows the default. setup.c.
 */
#ifndef SCHEDLAB_CMD_SETUP_H
#define SCHEDLAB_CMD_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "exec/exec.h"
#include "options.h"
#include "report/vocab.h"
#include "monitor/monitor.h"
#include "trace/trace.h"
#include "store/load.h"
#include "vm/vm.h"

/*
 * What a command needs before it runs, in its row of the command table:
 * main() does the first before calling it, cmd_parse() the others once
 * its options are read (they name the database).
 */
enum cmd_needs {
	/* knobs a killed schedlab left switched put back first */
	NEEDS_RECOVER = 1 << 0,
	/* reads the database of --db: resolved, and opened on first need
	 * (struct cmd_args's src, cmd_store_ro()) */
	NEEDS_STORE_RO = 1 << 1,
	/* writes the database of --db (itself, or through exec/): its
	 * path resolved into struct cmd_args's db */
	NEEDS_STORE_RW = 1 << 2,
	/* takes a SUITE or JOBFILE, one at most */
	NEEDS_JOB = 1 << 3,
};

/* A row of the command table: `schedlab NAME ...` runs fn(argc, argv). */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	unsigned needs;		/* enum cmd_needs */
};

extern const struct command commands[];
extern const size_t ncommands;

/* The row of command name, or NULL (commands.c). */
const struct command *command_find(const char *name);
/* Runs c's function, its row what cmd_parse() honours (setup.c). */
int command_run(const struct command *c, int argc, char **argv);

/*
 * A command's --help text: head (from "usage: schedlab ..." to
 * "Options:\n"), its option table, then tail (the exit status; NULL:
 * nothing).
 */
struct cmd_help {
	const char *head;
	const char *tail;
};

/*
 * One command's start-up (cmd_parse()): its option table and the struct
 * it fills, how --help is answered, and what the start-up resolved.
 */
struct cmd_args {
	const struct opt_def *tab;	/* with OPT_HELP, and OPT_DB if it has a store */
	void *opts;			/* zeroed, then the table's defaults */
	size_t size;			/* sizeof(*opts) */
	const char *who;		/* messages' prefix; NULL: argv[0] */
	void (*usage)(FILE *f);		/* --help; NULL: help, else usage_line */
	const struct cmd_help *help;	/* --help's text around the table */
	const char *usage_line;		/* "show RUN [--db PATH]": usage's line */
	bool no_operands;		/* a word that is not an option is refused */
	int bad_rc;			/* the exit code of bad input; 0: EXIT_USAGE */
	/* what the start-up resolved, by the command's NEEDS_STORE_* */
	char db[4096];			/* the database's path or URL */
	struct run_source src;		/* NEEDS_STORE_RO: opened on first need */
};

/* A cmd_args for table tab filling struct o: CMD_ARGS(run_options, ro). */
#define CMD_ARGS(tab_, o_) .tab = (tab_), .opts = &(o_), .size = sizeof(o_)

/*
 * The start-up of command a->who (its first word names its row; NULL:
 * argv[0]) over argv: a->opts zeroed and defaulted, the options parsed,
 * --help printed, the row's NEEDS_JOB operand checked and its database
 * resolved. Returns the index of the first operand (*rc EXIT_OK); or -1
 * with the exit code in *rc - EXIT_OK after --help, else a->bad_rc
 * after one message.
 * cmd_args_done() frees what it holds.
 */
int cmd_parse(int argc, char **argv, struct cmd_args *a, int *rc);
void cmd_args_done(struct cmd_args *a);

/* a's --help into f: its usage, or its help text, or its usage_line, with
 * the option table. */
void cmd_usage(FILE *f, const struct cmd_args *a);

/*
 * The database of a NEEDS_STORE_RO command, opened read-only once: NULL
 * after error() - "WHO: no database at DB (HINT)" when there is none
 * (hint NULL: nothing said then, a->src.missing set), or why it could
 * not be opened.
 */
struct store *cmd_store_ro(struct cmd_args *a, const char *hint);

#define OPT_DB_HELP "the database (default: $SCHEDLAB_DB, else " \
	"$XDG_DATA_HOME/schedlab/results.db, else ~/.local/share/schedlab/results.db)"

/* --db PATH into the const char * field F of struct T; NULL: not given. */
#define OPT_DB(T, F)							\
	{ .name = "db", .type = OPT_STRING, .offset = offsetof(T, F),	\
	  .arg = "PATH", .help = OPT_DB_HELP }

/*
 * --format FMT into the int field F of struct T, an enum out_format
 * (report/vocab.h): the command takes the formats of mask (FMT(TEXT) |
 * FMT(JSON)...); def_ names the default, help_ says what each gives.
 */
#define OPT_FORMAT(T, F, mask, def_, help_)				\
	{ .name = "format", .type = OPT_ENUM, .offset = offsetof(T, F),	\
	  .def = (def_), .choices = out_format_names, .accept = (mask),	\
	  .arg = "FMT", .help = (help_) }

/* --layout HOW into the int field F of struct T, an enum out_layout: the
 * layouts of mask, def_ the default, help_ what each prints. */
#define OPT_LAYOUT(T, F, mask, def_, help_)				\
	{ .name = "layout", .type = OPT_ENUM, .offset = offsetof(T, F),	\
	  .def = (def_), .choices = out_layout_names, .accept = (mask),	\
	  .arg = "HOW", .help = (help_) }

/*
 * What a command that runs a suite (run, judge) takes over its job file:
 * --iterations N into the unsigned field F (0: the file's), --set into
 * the struct opt_list field F.
 */
#define OPT_ITERATIONS(T, F)						\
	{ .name = "iterations", .type = OPT_STRING, .offset = offsetof(T, F), \
	  .arg = "N|auto",						\
	  .help = "iterations of every case (1..10000) instead of the job file's; auto: as many as a decision needs" }
/*
 * The adaptive count's limits: --min-iterations, --max-iterations (the
 * unsigned fields MIN, MAX; 0: the job file's) and --budget DURATION
 * (the const char * field BUDGET).
 */
#define OPT_ADAPTIVE(T, MIN, MAX, BUDGET)				\
	{ .name = "min-iterations", .type = OPT_UINT, .offset = offsetof(T, MIN), \
	  .min = 1, .max = 10000, .arg = "N",				\
	  .help = "with auto: iterations before the first look (default 5)" }, \
	{ .name = "max-iterations", .type = OPT_UINT, .offset = offsetof(T, MAX), \
	  .min = 1, .max = 10000, .arg = "N",				\
	  .help = "with auto: the most iterations of a case (default 30)" }, \
	{ .name = "budget", .type = OPT_STRING, .offset = offsetof(T, BUDGET), \
	  .arg = "DURATION",						\
	  .help = "with auto: the most wall time one case may take (30s, 5m; default none)" }
#define OPT_SET(T, F)							\
	{ .name = "set", .type = OPT_LIST, .offset = offsetof(T, F),	\
	  .arg = "[JOB.]KEY=VALUE",					\
	  .help = "override a job file's key in every job that has it (or in JOB); repeatable" }

/*
 * --monitor LIST and --monitor-interval DURATION (monitor/monitor.h)
 * into the const char * fields F and FI: the job file's monitors and
 * monitor_interval keys over every job; NULL: the file's.
 */
#define OPT_MONITOR(T, F, FI)						\
	{ .name = "monitor", .alias = OPT_ALIASES("monitors"),		\
	  .type = OPT_STRING, .offset = offsetof(T, F), .arg = "LIST",	\
	  .help = "sample these monitors around every iteration instead of the job file's: " MONITORS_ACCEPTED }, \
	{ .name = "monitor-interval", .type = OPT_STRING,		\
	  .offset = offsetof(T, FI), .arg = "DURATION",			\
	  .help = "how often the monitors sample (default 1s): " MONITOR_INTERVAL_ACCEPTED }

/*
 * --trace, --trace-scope, --trace-dir, --trace-tasks and --monitor-cpus
 * into the struct trace_opts field F of struct T (cmd/cmd.h).
 */
#define OPT_TRACE(T, F)							\
	{ .name = "trace", .type = OPT_STRING,				\
	  .offset = offsetof(T, F.trace), .arg = "perf-sched|COMMAND",	\
	  .help = "trace around the timed region instead of the job file's trace: perf-sched (perf sched record, parsed into trace.sched.* metrics), a shell command started and stopped (SIGINT) with the clock, or none" }, \
	{ .name = "trace-scope", .type = OPT_STRING,			\
	  .offset = offsetof(T, F.scope), .arg = "iteration|case",	\
	  .help = "trace each iteration (default) or each case whole" }, \
	{ .name = "trace-dir", .type = OPT_STRING,			\
	  .offset = offsetof(T, F.dir), .arg = "DIR",			\
	  .help = "where tracers' output goes, DIR/RUN-UUID/c<case>-i<iteration> (default: the database's path plus .traces)" }, \
	{ .name = "trace-tasks", .type = OPT_STRING,			\
	  .offset = offsetof(T, F.tasks), .arg = "COMM[,COMM...]",	\
	  .help = "perf-sched's task kinds, by command name (default schedlab: the built-in workloads' tasks); the rest are other" }, \
	{ .name = "monitor-cpus", .type = OPT_STRING,			\
	  .offset = offsetof(T, F.monitor_cpus), .arg = "CPULIST",	\
	  .help = "pin the monitors' sampler to these CPUs, such as 1 or 2-3 (default: where schedlab runs)" }

/*
 * A VM's machine: --cpus, --sockets, --cores, --threads, --numa,
 * --memory, --accel, --root, --append and --timeout into the struct
 * vm_machine (vm/vm.h) field F of struct T; vm run and campaign --vm
 * take them, and vm_machine_argv() writes them for a campaign's boot.
 */
#define OPT_VM_MACHINE(T, F)						\
	{ .name = "cpus", .alias = OPT_ALIASES("smp"), .type = OPT_UINT, \
	  .offset = offsetof(T, F.shape.cpus), .min = 1, .max = 64, .arg = "N", \
	  .help = "the guest's CPUs (default 2, or sockets x cores x threads)" }, \
	{ .name = "sockets", .type = OPT_UINT, .offset = offsetof(T, F.shape.sockets), \
	  .min = 1, .max = 64, .arg = "N", .help = "the guest's CPU sockets (packages)" }, \
	{ .name = "cores", .type = OPT_UINT, .offset = offsetof(T, F.shape.cores), \
	  .min = 1, .max = 64, .arg = "N", .help = "the guest's cores a socket" }, \
	{ .name = "threads", .type = OPT_UINT, .offset = offsetof(T, F.shape.threads), \
	  .min = 1, .max = 8, .arg = "N", .help = "the guest's hardware threads a core (SMT siblings)" }, \
	{ .name = "numa", .type = OPT_UINT, .offset = offsetof(T, F.shape.nodes), \
	  .min = 1, .max = 16, .arg = "N",				\
	  .help = "the guest's NUMA nodes, CPUs and memory split evenly among them (default none)" }, \
	{ .name = "memory", .type = OPT_UINT, .offset = offsetof(T, F.shape.memory_mb), \
	  .def = "1024", .min = 128, .max = 1048576, .arg = "MIB",	\
	  .help = "the guest's memory in MiB" },			\
	{ .name = "accel", .type = OPT_ENUM, .offset = offsetof(T, F.accel), \
	  .def = "auto", .choices = vm_accel_names, .arg = "HOW",	\
	  .help = "kvm; tcg (emulated: times are not the hardware's); auto: KVM where a guest shows life under it within 15 s, else TCG with a warning naming why" }, \
	{ .name = "root", .type = OPT_ENUM, .offset = offsetof(T, F.root), \
	  .def = "auto", .choices = vm_root_names, .arg = "WHICH",	\
	  .help = "host: the host's own / shared read-only (virtiofs; as root), written to in a tmpfs; minimal: busybox, schedlab and the job's programs; auto: host where it can be had, else minimal with a warning" }, \
	{ .name = "append", .type = OPT_STRING, .offset = offsetof(T, F.append), \
	  .arg = "ARGS",						\
	  .help = "added to the guest kernel's command line (preempt=none, maxcpus=1, ...)" }, \
	{ .name = "vm-timeout", .alias = OPT_ALIASES("timeout"), .type = OPT_DURATION, \
	  .offset = offsetof(T, F.timeout_s), .def = "15m", .min = 10,	\
	  .max = 7 * 86400, .arg = "DURATION",				\
	  .help = "the most one VM boot may take, job included; then qemu is killed" }

/*
 * How a kernel is built from a tree's commit (vm build, and campaign
 * states and bisect steps that are commits): field F (struct
 * vm_cmd_kbuild) of struct T.
 */
struct vm_cmd_kbuild {
	const char *config;
	struct opt_list items, vars;
};
#define OPT_KBUILD(T, F)						\
	{ .name = "config", .type = OPT_STRING, .offset = offsetof(T, F.config), \
	  .arg = "FILE",						\
	  .help = "a tree's commit: the .config to start from (default: tinyconfig); kvm_guest.config, the guest's options (vm config) and --configitem go over it" }, \
	{ .name = "configitem", .type = OPT_LIST, .offset = offsetof(T, F.items), \
	  .arg = "CONFIG_X=V",						\
	  .help = "a tree's commit: an option set last (CONFIG_PREEMPT_RT=y); one the configuration drops is said; repeatable" }, \
	{ .name = "make", .type = OPT_LIST, .offset = offsetof(T, F.vars), \
	  .arg = "VAR=VALUE",						\
	  .help = "a tree's commit: a variable for make (LLVM=1, CC=clang); repeatable" }

/*
 * The options run and ab share (cmd/run.c's run_request_of() makes a
 * struct run_request of them): a field of each one's options struct.
 */
struct run_cmd_opts {
	const char *label;
	const char *db;
	const char *iterations, *budget, *threshold;
	const char *monitors, *monitor_interval;
	struct trace_opts trace;
	unsigned min_iter, max_iter;
	struct opt_list sets;
	bool quiet;
};

/* -h, --help into the bool field F of struct T. */
#define OPT_HELP(T, F)							\
	{ .name = "help", .type = OPT_BOOL, .offset = offsetof(T, F),	\
	  .short_flag = 'h', .help = "show this help" }

#endif
