// SPDX-License-Identifier: GPL-2.0-only
/*
 * monitor_util.c: what every monitor's source uses (monitor_src.h and
 * monitor.h's monitor_path, monitor_slurp, monitor_col_add) - a file
 * read under $SCHEDLAB_MONITOR_ROOT, a column added, why a source is
 * unavailable, rates and shares. A leaf: monitor.c, monitor_src.c and
 * monitor_sched.c call it, never the other way.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "monitor/monitor.h"
#include "monitor/monitor_src.h"
#include "util.h"

const char *monitor_path(const char *path, char *buf, size_t len)
{
	const char *root = getenv("SCHEDLAB_MONITOR_ROOT");

	snprintf(buf, len, "%s%s", root && *root ? root : "", path);
	return buf;
}

char *monitor_slurp(const char *path, size_t *len)
{
	char full[4096], *buf;
	int fd = open(monitor_path(path, full, sizeof(full)), O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	buf = read_fd_all(fd, 0, len);
	close(fd);
	return buf;
}

void monitor_col_add(struct monitor_set *s, bool summary, const char *unit,
		     const char *help, const char *fmt, ...)
{
	struct monitor_col *c;
	va_list ap;

	s->col = xrealloc(s->col, (s->ncols + 1) * sizeof(*s->col));
	c = &s->col[s->ncols++];
	memset(c, 0, sizeof(*c));
	va_start(ap, fmt);
	vsnprintf(c->name, sizeof(c->name), fmt, ap);
	va_end(ap);
	c->unit = unit;
	c->help = help;
	c->summary = summary;
}

/* why = "PATH: strerror" for a file that cannot be read */
int mon_unreadable(const char *path, const char *hint, char *why, size_t len)
{
	char full[4096];

	snprintf(why, len, "%s: %s%s%s", monitor_path(path, full, sizeof(full)),
		 strerror(errno ? errno : ENOENT), hint ? "; " : "",
		 hint ? hint : "");
	return -1;
}

int mon_unparsed(const char *path, char *why, size_t len)
{
	char full[4096];

	snprintf(why, len, "%s: unexpected contents",
		 monitor_path(path, full, sizeof(full)));
	return -1;
}

/* "KEY N" at a line's start in buf: 0 with *v, or -1. */
int mon_line_u64(const char *buf, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);

	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		if (!strncmp(p, key, kl) && (p[kl] == ' ' || p[kl] == '\t')) {
			char *end;

			errno = 0;
			*v = strtoull(p + kl, &end, 10);
			return end == p + kl || errno ? -1 : 0;
		}
	}
	return -1;
}

double mon_rate(uint64_t a, uint64_t b, double dt)
{
	return dt > 0 && b >= a ? (double)(b - a) / dt : NAN;
}

int mon_cpu_cols(struct monitor_set *s, int nr_cpus, const bool *have,
		 int **cpu, const char *unit, const char *help,
		 const char *name)
{
	int n = 0;

	*cpu = xcalloc((size_t)nr_cpus + 1, sizeof(int));
	for (int c = 0; c < nr_cpus; c++)
		if (have[c]) {
			(*cpu)[n++] = c;
			monitor_col_add(s, false, unit, help, "cpu%d.%s", c,
					name);
		}
	return n;
}

double mon_pct(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : NAN;
}

void mon_free(void *state)
{
	free(state);
}
