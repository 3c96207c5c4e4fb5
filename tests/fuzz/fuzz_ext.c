// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_ext: the parsers of the external tools' output
 * (workload/ext_parse.h: dbench and tbench, pgbench, sysbench) on the
 * same text. They take a C string, as external.c hands them the
 * captured output: the bytes are copied into a buffer of size + 1 with
 * the NUL at the end (a NUL inside cuts the text short, as it would the
 * capture). A reason must be given on -1, and fit err.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "workload/ext_parse.h"

static void check(int rc, const char *err)
{
	if (rc != 0 && (rc != -1 || !err[0]))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct dbench_out d;
	struct pgbench_out pg;
	struct sysbench_out sb;
	char err[256];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	err[0] = '\0';
	check(parse_dbench(text, &d, err, sizeof(err)), err);
	err[0] = '\0';
	check(parse_pgbench(text, &pg, err, sizeof(err)), err);
	err[0] = '\0';
	check(parse_sysbench(text, &sb, err, sizeof(err)), err);
	free(text);
	return 0;
}
