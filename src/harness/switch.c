// SPDX-License-Identifier: GPL-2.0-only
/* STUB: helper A replaces this file. */
#include <stdio.h>

#include "harness/switch.h"
#include "util.h"

int switch_prepare(struct plan *plans, size_t n, const char *const *names,
		   struct switchboard **out)
{
	(void)names;
	*out = NULL;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < plans[k].ncases; i++)
			for (size_t s = 0; s < plans[k].cases[i].nset; s++)
				if (setting_kind(plans[k].cases[i].set[s].key) >=
				    SETTING_CGROUP)
					return error("%s: not implemented yet",
						     plans[k].cases[i].set[s].key);
	return 0;
}

int switch_apply(struct switchboard *sb, size_t p, size_t c, char *err,
		 size_t len)
{
	(void)sb; (void)p; (void)c; (void)err; (void)len;
	return 0;
}

void switch_restore(struct switchboard *sb, size_t p, size_t c)
{
	(void)sb; (void)p; (void)c;
}

double switch_last_us(const struct switchboard *sb)
{
	(void)sb;
	return 0;
}

int switch_close(struct switchboard *sb)
{
	(void)sb;
	return 0;
}

int switch_state_dir(char *buf, size_t len)
{
	snprintf(buf, len, "/nonexistent");
	return 0;
}

int switch_recover(void)
{
	return 0;
}
