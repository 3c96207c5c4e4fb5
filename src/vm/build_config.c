// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/build_config.c: the text of a build's configuration (vm/build_int.h)
 * - what is merged over the base config, the merge, and the options
 * asked for that the final config dropped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "util_git.h"
#include "vm/build_int.h"
#include "vm/vm_int.h"

/* What is merged over the base config: kvm_guest.config (the tree's, at
 * the commit), the guest's fragment for the tree's version, the items. */
void kb_asked_text(struct kb *k)
{
	const char *where[] = { "kernel/configs/kvm_guest.config",
				"arch/x86/configs/kvm_guest.config" };
	char *text = NULL, *out;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	for (size_t i = 0; i < ARRAY_SIZE(where); i++) {
		char *spec = xasprintf("%s:%s", k->commit, where[i]);
		int rc = git_out(k->tree, &out, (const char *[]){ "show", spec, NULL });

		free(spec);
		if (!rc)
			fprintf(f, "%s", out);
		free(out);
		if (!rc)
			break;
	}
	fflush(f);
	k->mine = len;
	vm_config_fragment(f, k->version);
	for (size_t i = 0; i < k->b->nitems; i++)
		fprintf(f, "%s\n", k->b->items[i]);
	fclose(f);
	k->asked = text;
}

/* The option a config line sets ("CONFIG_X=..." or "# CONFIG_X is not
 * set"): its name's length after *name, 0 for any other line. */
static size_t line_option(const char *l, const char **name)
{
	if (!strncmp(l, "# CONFIG_", 9))
		l += 2;
	if (strncmp(l, "CONFIG_", 7))
		return 0;
	*name = l;
	return strspn(l, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
}

/* Whether text sets the option name (its length n) on a line of its own. */
static const char *find_option(const char *text, const char *name, size_t n)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *o;
		size_t m = line_option(l, &o);

		if (m == n && !strncmp(o, name, n))
			return l;
	}
	return NULL;
}

/* base with every option asked set as asked: base's other lines, then
 * asked's. */
char *kb_config_merge(const char *base, const char *asked)
{
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	for (const char *l = base; *l;) {
		size_t ll = strcspn(l, "\n"), n;
		const char *o;

		n = line_option(l, &o);
		if (!n || !find_option(asked, o, n))
			fprintf(f, "%.*s\n", (int)ll, l);
		l += ll + (l[ll] == '\n');
	}
	fputs(asked, f);
	fclose(f);
	return text;
}

/* The fragment's and the items' options the final config does not set
 * as asked, said in one warning. */
void kb_dropped_note(const struct kb *k, const char *final)
{
	char *said = NULL;
	size_t len, count = 0;
	FILE *f = open_memstream(&said, &len);

	for (const char *l = k->asked + k->mine; *l;) {
		size_t ll = strcspn(l, "\n"), n;
		const char *o, *got;

		n = line_option(l, &o);
		got = n ? find_option(final, o, n) : NULL;
		if (n && *l == 'C' && strncmp(l + n, "=n", 2) &&
		    (!got || strncmp(got, l, ll) || (got[ll] != '\n' && got[ll]))) {
			fprintf(f, "%s%.*s (now %.*s)", count++ ? ", " : "", (int)ll, l,
				got && *got == 'C' ? (int)strcspn(got + n + 1, "\n") : 7,
				got && *got == 'C' ? got + n + 1 : "not set");
		}
		l += ll + (l[ll] == '\n');
	}
	fclose(f);
	if (count && !k->b->quiet)
		warning("%s: %zu option%s asked for the configuration dropped (what it depends on is not set, or it is gone from %u.%u): %s",
			k->who, count, count == 1 ? "" : "s", k->version / 100,
			k->version % 100, said);
	free(said);
}
