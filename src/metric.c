// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "metric.h"

const char *const better_names[] = {
	[BETTER_LOWER] = "lower",
	[BETTER_HIGHER] = "higher",
	[BETTER_NONE] = "none",
	NULL
};

int better_parse(const char *s)
{
	for (int i = 0; s && better_names[i]; i++)
		if (!strcmp(s, better_names[i]))
			return i;
	return -1;
}

const char *better_word(enum better b)
{
	return b == BETTER_LOWER ? "lower" : b == BETTER_HIGHER ? "higher" : "-";
}
