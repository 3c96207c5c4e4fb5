// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/build_check.c: what vm build refuses before anything runs
 * (vm/build_int.h) - make variables and config items that are not
 * that, a tree that is not a kernel's git repository or lacks the
 * commit, a tool or header missing with its Debian package - and the
 * note that uncommitted changes are not built.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "util_git.h"
#include "vm/build_int.h"

/* The make variable's value in b's variables (VAR=VALUE), or NULL. */
static const char *var_value(const struct vm_build *b, const char *var)
{
	size_t n = strlen(var);
	const char *v = NULL;

	for (size_t i = 0; i < b->nvars; i++)
		if (!strncmp(b->vars[i], var, n) && b->vars[i][n] == '=')
			v = b->vars[i] + n + 1;
	return v;
}

int vm_build_check_args(const char *who, const struct vm_build *b)
{
	static const char *const ours[] = { "O", "KBUILD_OUTPUT", "ARCH",
					    "LOCALVERSION", NULL };

	for (size_t i = 0; i < b->nvars; i++) {
		const char *v = b->vars[i];
		size_t n = strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

		if (!n || v[n] != '=' || (*v >= '0' && *v <= '9'))
			return error("%s: option --make: '%s' is not VAR=VALUE (make's variables: LLVM=1, CC=clang, HOSTCC=...)",
				     who, v);
		for (int j = 0; ours[j]; j++)
			if (strlen(ours[j]) == n && !strncmp(v, ours[j], n))
				return error("%s: option --make: %.*s is schedlab's to set (the build folder, x86, the commit in the release)",
					     who, (int)n, v);
	}
	for (size_t i = 0; i < b->nitems; i++) {
		const char *v = b->items[i];
		size_t n = strncmp(v, "CONFIG_", 7) ? 0 :
			   7 + strspn(v + 7, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

		if (n <= 7 || v[n] != '=' || !v[n + 1] || strchr(v, '\n'))
			return error("%s: option --configitem: '%s' is not CONFIG_NAME=VALUE (y, m, n, a number or a \"string\")",
				     who, v);
	}
	return 0;
}

/* The tree, the commit and the version: -1 after error(). */
int kb_tree_check(struct kb *k)
{
	const char *rev = k->b->rev ? k->b->rev : "HEAD";
	const char *top[] = { "rev-parse", "--git-dir", NULL };
	char *out = NULL, *spec;
	unsigned major = 0, minor = 0;
	const char *p;
	int rc;

	if (!realpath(k->b->tree, k->tree))
		return error_errno("%s: kernel tree '%s'", k->who, k->b->tree);
	if (git_out(k->tree, &out, top)) {
		free(out);
		return error("%s: %s is not a git repository: schedlab builds commits of a kernel tree's git repository (git init; git add -A; git commit, for a tree from a tarball)",
			     k->who, k->tree);
	}
	free(out);
	if (git_commit_hash(k->tree, rev, k->commit))
		return error("%s: %s has no commit '%s'", k->who, k->tree, rev);
	spec = xasprintf("%s:Makefile", k->commit);
	rc = git_out(k->tree, &out, (const char *[]){ "show", spec, NULL });
	free(spec);
	p = rc ? NULL : strstr(out, "\nVERSION = ");
	if (p)
		major = (unsigned)strtoul(p + 11, NULL, 10);
	p = p ? strstr(out, "\nPATCHLEVEL = ") : NULL;
	if (p)
		minor = (unsigned)strtoul(p + 14, NULL, 10);
	free(out);
	spec = xasprintf("%s:arch/x86/boot", k->commit);
	rc = git_quiet(k->tree, (const char *[]){ "cat-file", "-e", spec, NULL });
	free(spec);
	if (!major || rc)
		return error("%s: %s at %.12s is not a kernel tree (no Makefile with VERSION and PATCHLEVEL, or no arch/x86/boot)",
			     k->who, k->tree, k->commit);
	k->version = major * 100 + minor;
	git_out(k->tree, &out, (const char *[]){ "log", "-1", "--format=%s", k->commit, NULL });
	out[strcspn(out, "\n")] = '\0';
	k->subject = out;
	return 0;
}

/* HEAD asked for with tracked files changed: they are not built. */
void kb_dirty_note(const struct kb *k)
{
	const char *args[] = { "status", "--porcelain", "--untracked-files=no", NULL };
	char *out = NULL;

	if (k->b->quiet || (k->b->rev && strcmp(k->b->rev, "HEAD")))
		return;
	if (!git_out(k->tree, &out, args) && *out)
		warning("%s: %s has uncommitted changes: they are not built (a commit of them, the checkout untouched: schedlab vm build %s $(git -C %s stash create))",
			k->who, k->tree, k->tree, k->tree);
	free(out);
}

struct missing {
	char what[256], pkgs[256];
};

static void miss(struct missing *m, const char *what, const char *pkg)
{
	size_t w = strlen(m->what), p = strlen(m->pkgs);

	snprintf(m->what + w, sizeof(m->what) - w, "%s%s", w ? ", " : "", what);
	if (!strstr(m->pkgs, pkg))
		snprintf(m->pkgs + p, sizeof(m->pkgs) - p, " %s", pkg);
}

/* The compiler make is given, ccache before it where installed, and
 * its version: what the image's key holds of it. */
static void compiler(struct kb *k, const char *cmd)
{
	char *ccache = path_find("ccache"), *first = xstrdup(cmd), *out = NULL;
	const char *argv[] = { first, "--version", NULL };

	first[strcspn(first, " ")] = '\0';
	k->cc = ccache ? xasprintf("ccache %s", cmd) : xstrdup(cmd);
	free(ccache);
	prog_out(argv, &out);
	out[strcspn(out, "\n")] = '\0';
	k->cc_version = out;
	free(first);
}

/* The tools a kernel build needs, each with its Debian package: -1
 * after error() naming what is missing. */
int kb_tools_check(struct kb *k)
{
	static const char *const tools[][2] = {
		{ "make", "make" }, { "flex", "flex" }, { "bison", "bison" },
		{ "bc", "bc" }, { "perl", "perl" }, { "git", "git" },
	};
	static const char *const headers[][2] = {
		{ "/usr/include/libelf.h", "libelf-dev" },
		{ "/usr/include/openssl/opensslv.h", "libssl-dev" },
	};
	const char *llvm = var_value(k->b, "LLVM"), *cc = var_value(k->b, "CC");
	bool clang = llvm && strcmp(llvm, "0");
	const char *cmd = cc ? cc : clang ? "clang" : "gcc";
	struct missing m = { "", "" };
	char first[128], *p;

	for (size_t i = 0; i < ARRAY_SIZE(tools); i++) {
		if (!(p = path_find(tools[i][0])))
			miss(&m, tools[i][0], tools[i][1]);
		free(p);
	}
	if (!strncmp(cmd, "ccache ", 7))	/* CC="ccache gcc" */
		cmd += 7 + strspn(cmd + 7, " ");
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(cmd, " "), cmd);
	if (!(p = path_find(first)))
		miss(&m, first, cc ? first : clang ? "clang" : "gcc");
	free(p);
	if (clang) {
		if (!(p = path_find("ld.lld")))
			miss(&m, "ld.lld", "lld");
		free(p);
	}
	for (size_t i = 0; i < ARRAY_SIZE(headers); i++)
		if (access(headers[i][0], R_OK))
			miss(&m, headers[i][0], headers[i][1]);
	if (*m.what)
		return error("%s: building a kernel needs %s (apt-get install%s)",
			     k->who, m.what, m.pkgs);
	compiler(k, cmd);
	return 0;
}
