// SPDX-License-Identifier: GPL-2.0-only
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "lazylib.h"
#include "util.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* All or none: the slots are written once every name has resolved. */
static int resolve(struct lazylib *lib, void *h, char *err, size_t len)
{
	void **f = xcalloc(lib->n ? lib->n : 1, sizeof(*f));

	for (size_t i = 0; i < lib->n; i++) {
		f[i] = dlsym(h, lib->fns[i].name);
		if (!f[i]) {
			snprintf(err, len, "%s has no %s: install the Debian package %s",
				 lib->soname, lib->fns[i].name, lib->package);
			free(f);
			return -1;
		}
	}
	for (size_t i = 0; i < lib->n; i++)
		*lib->fns[i].slot = f[i];
	free(f);
	return 0;
}

int lazylib_load(struct lazylib *lib, char *err, size_t len)
{
	void *h;
	int rc = 0;

	if (__atomic_load_n(&lib->handle, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&lock);
	if (lib->handle)
		goto out;
	h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, len, "cannot load %s (%s): install the Debian package %s",
			 lib->soname, dlerror(), lib->package);
		rc = -1;
		goto out;
	}
	if (resolve(lib, h, err, len)) {
		dlclose(h);
		rc = -1;
		goto out;
	}
	__atomic_store_n(&lib->handle, h, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&lock);
	return rc;
}

void lazylib_need(struct lazylib *lib)
{
	char err[512];

	if (lazylib_load(lib, err, sizeof(err))) {
		error("%s", err);
		exit(EXIT_ABORT);	/* not the commit's fault: bisect stops */
	}
}
