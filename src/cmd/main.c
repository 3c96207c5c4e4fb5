// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab: scheduler benchmarks, repeated, explained, stored, compared.
 * `schedlab CMD ...` runs cmd_CMD(argc, argv) with argv[0] = CMD, its row
 * of the command table (cmd/commands.c) found and what the row needs before
 * it done first (the rest by cmd_parse(), once its options name the
 * database).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "harness/journal.h"
#include "util.h"
#include "version.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: schedlab [--version] [--help] COMMAND [ARGS]\n\n"
		"Commands:\n");
	for (size_t i = 0; i < ncommands; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "  %-8s %s\n", "help", "show this, or a command's help: schedlab help COMMAND");
	fprintf(f, "\nExamples:\n"
		"  schedlab bench messaging -g 4 -l 1000      # hackbench -g 4 -l 1000\n"
		"  schedlab bench messaging -T -p --format json\n"
		"  schedlab bench pipe -l 100000              # perf bench sched pipe -l 100000\n"
		"\nSee schedlab(1).\n");
}

/*
 * What a command printed must have reached its destination: a full disk
 * or a closed pipe is a failure, not a silent success.
 */
static int finish(int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		error_errno("write to standard output");
		return rc ? rc : EXIT_RUN_FAILED;
	}
	return rc;
}

/* n in decimal at the end of buf's text */
static void append_u(char *buf, unsigned long long n)
{
	char d[24];
	int i = sizeof(d);

	d[--i] = '\0';
	do
		d[--i] = (char)('0' + n % 10);
	while (n /= 10);
	strcat(buf, d + i);
}

/*
 * Said without stdio: under a stack of 16 KiB (argv and the environment
 * take part of it) vfprintf's own frame does not fit.
 */
static int stack_too_small(unsigned long long hard)
{
	char msg[200] = "schedlab: the stack limit (ulimit -s) of ";

	append_u(msg, hard >> 10);
	strcat(msg, " KiB is below the ");
	append_u(msg, STACK_NEED >> 10);
	strcat(msg, " KiB schedlab needs: raise it with 'ulimit -s ");
	append_u(msg, STACK_NEED >> 10);
	strcat(msg, "'\n");
	if (write(STDERR_FILENO, msg, strlen(msg)) < 0)
		return EXIT_USAGE;
	return EXIT_USAGE;
}

static int dispatch(int argc, char **argv)
{
	const struct command *c;
	unsigned long long hard;

	/* before anything deep: below it, sqlite or a renderer would crash */
	switch (stack_raise(STACK_NEED, &hard)) {
	case 1:
		return stack_too_small(hard);
	case -1:
		return EXIT_RUN_FAILED;
	}
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("schedlab %s\n", SCHEDLAB_VERSION);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			char *sub[] = { argv[2], "--help", NULL };

			c = command_find(argv[2]);
			if (!c) {
				error("help: unknown command '%s'", argv[2]);
				return EXIT_USAGE;
			}
			return command_run(c, 2, sub);
		}
		usage(stdout);
		return EXIT_OK;
	}
	c = command_find(argv[1]);
	if (!c) {
		error("unknown command '%s' (see 'schedlab --help')", argv[1]);
		return EXIT_USAGE;
	}
	/* what a killed schedlab left switched goes back first */
	if (c->needs & NEEDS_RECOVER)
		switch_recover();
	return command_run(c, argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	return finish(dispatch(argc, argv));
}
