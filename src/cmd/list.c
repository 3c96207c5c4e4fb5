// SPDX-License-Identifier: GPL-2.0-only
/* schedlab list [workloads] */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "workload/registry.h"
#include "util.h"

int cmd_list(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "workloads";

	if (argc > 2) {
		error("list: unexpected argument '%s'", argv[2]);
		return EXIT_USAGE;
	}
	if (!strcmp(what, "-h") || !strcmp(what, "--help")) {
		printf("usage: schedlab list [workloads]\n");
		return EXIT_OK;
	}
	if (strcmp(what, "workloads")) {
		error("list: unknown list '%s' (accepted: workloads)", what);
		return EXIT_USAGE;
	}
	for (size_t i = 0; workloads[i]; i++)
		printf("%-12s %s\n", workloads[i]->name, workloads[i]->summary);
	return EXIT_OK;
}
