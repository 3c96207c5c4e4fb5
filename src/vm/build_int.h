/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vm/build_int.h: what the files of vm build share - one build's state
 * (struct kb), the checks made before anything runs (build_check.c),
 * the configuration's text (build_config.c); build.c runs the build.
 */
#ifndef SCHEDLAB_VM_BUILD_INT_H
#define SCHEDLAB_VM_BUILD_INT_H

#include <limits.h>
#include <stddef.h>

#include "vm/vm.h"

/* A bump makes every cached image stale: how schedlab builds changed. */
#define KBUILD_RECIPE "schedlab-kbuild-1"

struct kb {
	const char *who;
	const struct vm_build *b;
	char tree[PATH_MAX];
	char commit[41];
	char *subject;
	unsigned version;	/* major * 100 + minor, from the Makefile */
	char *dir, *src, *out;	/* the tree's folder, its clone, O= */
	char *log;		/* this build's make output */
	char *image_dir;	/* the cache's folder for this image */
	char *cc;		/* the compiler make is given ("ccache gcc") */
	char *cc_version;	/* its --version's first line */
	char *asked;		/* the text merged over the base config */
	size_t mine;		/* where in it the fragment's begins: what
				 * is checked for in the final config */
	int lock;
};

/* The tree, the commit and the version into k: -1 after error(). */
int kb_tree_check(struct kb *k);
/* The tools a kernel build needs, each with its Debian package, and the
 * compiler make is given: -1 after error() naming what is missing. */
int kb_tools_check(struct kb *k);
/* HEAD asked for with tracked files changed: they are not built (said). */
void kb_dirty_note(const struct kb *k);

/* k->asked: kvm_guest.config (the tree's, at the commit), the guest's
 * fragment for the tree's version, the items; k->mine where the
 * fragment begins. */
void kb_asked_text(struct kb *k);
/* base with every option asked set as asked (malloc'd). */
char *kb_config_merge(const char *base, const char *asked);
/* The fragment's and the items' options the final config does not set
 * as asked, said in one warning. */
void kb_dropped_note(const struct kb *k, const char *final);

#endif
