// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe/sysenv_words.c: the words the environment's probes pick out of
 * the kernel's text (probe/sysenv.h) - the selected one of a sysfs list,
 * a command-line parameter, the preemption model uname names - a leaf
 * that sysenv.c and schedknobs.c both use.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "probe/sysenv.h"

int sysenv_selected(const char *s, char open, char close, char *out,
		    size_t len)
{
	const char *a = strchr(s, open), *b;

	if (!a || !(b = strchr(a + 1, close)) || b == a + 1)
		return -1;
	snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
	return 0;
}

int sysenv_cmdline_param(const char *cmdline, const char *key, char *out,
			 size_t len)
{
	size_t klen = strlen(key);
	const char *p = cmdline;
	int found = -1;

	while (*p) {
		size_t w;

		p += strspn(p, " \t\n");
		w = strcspn(p, " \t\n");
		if (w == 2 && !strncmp(p, "--", 2))
			break;
		/* the last one wins, as in the kernel */
		if (w > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			snprintf(out, len, "%.*s", (int)(w - klen - 1),
				 p + klen + 1);
			found = 0;
		}
		p += w;
	}
	return found;
}

bool sysenv_has_word(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = s; (p = strstr(p, w)); p += n)
		if ((p == s || isspace((unsigned char)p[-1])) &&
		    (!p[n] || isspace((unsigned char)p[n])))
			return true;
	return false;
}

const char *sysenv_preempt_from_uname(const char *version)
{
	if (sysenv_has_word(version, "PREEMPT_RT") || strstr(version, "PREEMPT_{RT"))
		return "rt";
	if (sysenv_has_word(version, "PREEMPT_DYNAMIC"))
		return "dynamic";
	if (sysenv_has_word(version, "PREEMPT_LAZY"))
		return "lazy";
	if (sysenv_has_word(version, "PREEMPT"))
		return "full";
	return NULL;
}
