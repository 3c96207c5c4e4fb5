/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lazylib: a shared library opened with dlopen() on its first use
 * instead of being linked. Whatever the schedlab process has mapped when
 * a workload forks its workers, every worker has mapped too: libpq
 * brings some twenty libraries (Kerberos, LDAP, TLS...) and gsl two, and
 * with them linked, 16,000 hackbench-style workers each carried 180
 * mappings instead of 30, which their exits tear down in the timed
 * region and the kernel's page scanners walk (DAMON's rmap walks visit
 * every mapping of a shared page): hackbench itself ran 1.6 to 2.8 times
 * slower at -g 400 -l 10 with those libraries preloaded
 * (doc/benchmarks.md, "Workers as lean as hackbench's"). So the
 * PostgreSQL store and the statistics' distribution functions load their
 * libraries when first called: never before bench's workload, nor
 * before run's unless its store is a PostgreSQL database (opened before
 * the first case, whose workers then map libpq).
 */
#ifndef SCHEDLAB_LAZYLIB_H
#define SCHEDLAB_LAZYLIB_H

#include <stddef.h>

struct lazy_fn {
	const char *name;
	void **slot;		/* where the resolved address goes */
};

struct lazylib {
	const char *soname;	/* "libpq.so.5" */
	const char *package;	/* the Debian package that has it */
	const struct lazy_fn *fns;
	size_t n;
	void *handle;		/* NULL until loaded */
};

/*
 * Opens lib and resolves every function the first time; after that a
 * no-op. 0, or -1 with why in err ("cannot load libpq.so.5 (...):
 * install the Debian package libpq5"), the library left unloaded.
 */
int lazylib_load(struct lazylib *lib, char *err, size_t len);

/*
 * As lazylib_load, but a failure is fatal: the message, then exit 128
 * (EXIT_ABORT: a broken installation, which git bisect run must not
 * take for a verdict). For callers with no way to fail, such as a
 * distribution function inside a statistic.
 */
void lazylib_need(struct lazylib *lib);

#endif
