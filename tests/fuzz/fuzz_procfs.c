// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_procfs: every parser of probe/procfs.h on the same bytes (a
 * thread's schedstat, sched and status files, /proc/stat, PSI's cpu
 * pressure, /proc/schedstat). They take (buf, len) with no NUL, and
 * promise *out all zero on -1: checked here, so a parser that leaves
 * something behind on refusal is a crash.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "probe/procfs.h"

static void zero_or_abort(const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		if (c[i])
			abort();
}

#define CHECK(rc, out)							\
	do {								\
		if ((rc) && (rc) != -1)					\
			abort();					\
		if ((rc) == -1)						\
			zero_or_abort(&(out), sizeof(out));		\
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct task_schedstat ss;
	struct task_sched ts;
	struct task_status st;
	struct stat_cpus sc;
	struct psi_cpu psi;
	struct schedstat sst;
	int rc;

	rc = procfs_parse_task_schedstat(buf, size, &ss);
	CHECK(rc, ss);
	rc = procfs_parse_task_sched(buf, size, &ts);
	CHECK(rc, ts);
	rc = procfs_parse_task_status(buf, size, &st);
	CHECK(rc, st);
	rc = procfs_parse_stat(buf, size, &sc);
	CHECK(rc, sc);
	if (!rc)
		stat_cpus_free(&sc);
	rc = procfs_parse_psi_cpu(buf, size, &psi);
	CHECK(rc, psi);
	(void)procfs_schedstat_version(buf, size);
	rc = procfs_parse_schedstat(buf, size, &sst);
	CHECK(rc, sst);
	if (!rc)
		schedstat_free(&sst);
	return 0;
}
