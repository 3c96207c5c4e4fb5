// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/klog.c: what the guest's kernel said about its command line. A
 * kernel that rejects a parameter rarely fails: `preempt=bogus` leaves
 * the default mode with a warning ("Dynamic Preempt: unsupported mode:
 * bogus"), an unknown parameter is a notice ("Unknown kernel command
 * line parameters ..., will be passed to user space"), and `quiet` keeps
 * both off the console. The guest's init copies the kernel log's lines
 * of notice level and above to the console ("schedlab-vm: klog: <L>");
 * here the ones that speak of the command line are picked: the kernel's
 * notices of unknown parameters and malformed early options, and the
 * warnings and worse that name a parameter the user added or its value
 * (not every warning that says "command line": ftrace's advice on its
 * clock does, at every boot of an emulated guest).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "util.h"
#include "vm/vm.h"

#define KLOG "schedlab-vm: klog: <"

/* Whether the line names a word of append: a parameter's name or its
 * value, 3 characters or more, in any case. */
static bool names_a_parameter(const char *line, const char *append)
{
	char *dup = xstrdup(append ? append : ""), *save = NULL;
	bool hit = false;

	for (char *w = strtok_r(dup, " \t", &save); w && !hit; w = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(w, '=');

		if (eq)
			*eq++ = '\0';
		hit = (strlen(w) >= 3 && strcasestr(line, w)) ||
		      (eq && strlen(eq) >= 3 && strcasestr(line, eq));
	}
	free(dup);
	return hit;
}

json_t *vm_kernel_said(const char *console, const char *append)
{
	json_t *said = json_array();
	FILE *f = fopen(console, "re");
	char line[1024];

	while (f && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, KLOG), *text;
		int level;

		if (!p)
			continue;
		p += strlen(KLOG);
		level = *p - '0';
		text = strchr(p, '>');
		if (!text || level < 0 || level > 7)
			continue;
		text++;
		text[strcspn(text, "\r\n")] = '\0';
		if (strstr(text, "Unknown kernel command line parameters") ||
		    strstr(text, "Malformed early option") ||
		    (level <= 4 && names_a_parameter(text, append)))
			json_array_append_new(said, json_string(text));
	}
	if (f)
		fclose(f);
	return said;
}
