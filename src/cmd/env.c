// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab env [--format text|json]: the environment every run records
 * (src/probe/sysenv.h), as an aligned listing or as the JSON object.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "report/render.h"
#include "options.h"
#include "probe/sysenv.h"
#include "util.h"

struct env_opts {
	int format;
	bool help;
};

/* --help: its text before the options, and after them */
static const struct cmd_help env_help = {
	.head = "usage: schedlab env [--format text|json]\n\n"
		"The machine, kernel, topology and scheduler settings that every run\n"
		"records. Items that cannot be read say why (\"not available (...)\").\n\n"
		"Options:\n",
	.tail = "\nExit status: 0 ok, 1 the output could not be written, 2 bad options.\n",
};

static const struct opt_def env_options[] = {
	OPT_FORMAT(struct env_opts, format, FMT(TEXT) | FMT(JSON), "text",
		   "text: an aligned listing; json: the object stored with every run"),
	OPT_HELP(struct env_opts, help),
	{ .name = NULL },
};

int cmd_env(int argc, char **argv)
{
	struct env_opts eo;
	struct cmd_args a = { CMD_ARGS(env_options, eo), .help = &env_help,
			      .no_operands = true };
	json_t *env;
	int rc;

	if (cmd_parse(argc, argv, &a, &rc) < 0)
		return rc;
	env = sysenv_collect();
	if (eo.format == FMT_JSON) {
		rc = json_dumpf(env, stdout, JSON_INDENT(2) |
				JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
		fputc('\n', stdout);
	} else {
		render_env_text(stdout, env);
	}
	json_decref(env);
	/* main() checks that stdout was written */
	return rc ? EXIT_RUN_FAILED : EXIT_OK;
}
