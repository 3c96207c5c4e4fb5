/* SPDX-License-Identifier: GPL-2.0-only */
/* command: any program, timed like perf stat --null. */
#ifndef SCHEDLAB_COMMAND_H
#define SCHEDLAB_COMMAND_H

#include <stdbool.h>

struct command_cfg {
	const char *argv;	/* words, ext_split() splits them */
	bool shell;		/* /bin/sh -c argv */
	unsigned n;		/* $SCHEDLAB_N of the command; 0: unset */
	/* untimed, around the case (workload.h's struct wl_case_cmds) */
	const char *setup, *before, *cleanup, *workdir;
};

/* Metric indexes, in the order of the metric table. */
enum { CMD_TIME, CMD_USER, CMD_SYS };

/* The argv to exec (free with ext_argv_free), or NULL with *err. */
char **command_argv(const struct command_cfg *c, const char **err);

#endif
