// SPDX-License-Identifier: GPL-2.0-only
/*
 * setup.c: the one start-up of every command, by what its row of the
 * command table (commands.c) says it needs before it runs (git's
 * RUN_SETUP): main() puts back what a killed schedlab left switched
 * (NEEDS_RECOVER) and starts it with command_run(); cmd_parse() reads
 * its options, answers --help, checks its job operand and resolves its
 * database (NEEDS_STORE_*). A command file then
 * parses what is its own and calls its engines.
 */
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"

/* The command running: main() starts it through command_run(). */
static const struct command *running;

int command_run(const struct command *c, int argc, char **argv)
{
	running = c;
	return c->fn(argc, argv);
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
	unsigned needs = running ? running->needs : 0;
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
