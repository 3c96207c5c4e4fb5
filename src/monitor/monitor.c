// SPDX-License-Identifier: GPL-2.0-only
/*
 * monitor.c: the monitors' names and options, a case's set of them, the
 * sampler process. What becomes of its rows (series and summary
 * metrics) is monitor_rows.c's; the monitors themselves are
 * monitor_src.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "monitor/monitor.h"
#include "probe/cpus.h"
#include "stats/summary.h"
#include "util.h"

#define MON_INFO_(id, name_, ops_, summary_) \
	[MON_##id] = { .name = name_, .summary = summary_, .ops = &ops_ },
const struct monitor_info monitor_info[MON_N] = { MONITOR_LIST(MON_INFO_) };
#undef MON_INFO_

static int find_monitor(const char *name, size_t n)
{
	for (int i = 0; i < MON_N; i++)
		if (strlen(monitor_info[i].name) == n &&
		    !strncmp(monitor_info[i].name, name, n))
			return i;
	return -1;
}

/* The list into *mask, and into *named those it names one by one. */
static int parse_list(const char *text, unsigned *mask, unsigned *named,
		      char *err, size_t len)
{
	const char *p = text;

	*mask = *named = 0;
	while (*p) {
		size_t n;
		int id;

		while (*p == ' ' || *p == '\t')
			p++;
		n = strcspn(p, ",");
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n == 7 && !strncmp(p, "default", 7))
			*mask |= MON_DEFAULT;
		else if (n == 3 && !strncmp(p, "all", 3))
			*mask |= MON_ALL;
		else if ((n == 4 && !strncmp(p, "none", 4)) ||
			 (n == 3 && !strncmp(p, "off", 3)))
			;
		else if ((id = find_monitor(p, n)) >= 0) {
			*mask |= MON_BIT(id);
			*named |= MON_BIT(id);
		} else if (!n) {
			snprintf(err, len, "an empty name in '%.64s'", text);
			return -1;
		} else {
			snprintf(err, len, "'%.*s' is not a monitor", (int)(n > 64 ? 64 : n),
				 p);
			return -1;
		}
		p += strcspn(p, ",");
		if (*p)
			p++;
	}
	return 0;
}

int monitor_parse_list(const char *text, unsigned *mask, char *err, size_t len)
{
	unsigned named;

	return parse_list(text, mask, &named, err, len);
}

unsigned monitor_named(const char *text)
{
	unsigned mask, named;
	char err[128];

	return text && !parse_list(text, &mask, &named, err, sizeof(err)) ? named : 0;
}

int monitor_parse_interval(const char *text, unsigned *ms, char *err,
			   size_t len)
{
	char *end;
	double v, scale = 1000;

	errno = 0;
	v = strtod(text, &end);
	if (end == text || errno || !isfinite(v)) {
		snprintf(err, len, "'%s' is not a duration", text);
		return -1;
	}
	if (!strcmp(end, "ms"))
		scale = 1;
	else if (!strcmp(end, "m"))
		scale = 60000;
	else if (!strcmp(end, "h"))
		scale = 3600000;
	else if (*end && strcmp(end, "s")) {
		snprintf(err, len, "'%s' is not a duration", text);
		return -1;
	}
	v *= scale;
	if (!(v >= MONITOR_INTERVAL_MIN_MS && v <= MONITOR_INTERVAL_MAX_MS)) {
		snprintf(err, len, "'%s' is out of range", text);
		return -1;
	}
	*ms = (unsigned)llround(v);
	return 0;
}

void monitor_list_format(unsigned mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < MON_N && n < len; i++)
		if (mask & MON_BIT(i))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "",
					      monitor_info[i].name);
}

int monitor_available(enum monitor_id id, char *why, size_t len)
{
	struct monitor_set s = { .mask = 0 };
	void *state = NULL;
	int rc = monitor_info[id].ops->open(&state, &s, why, len);

	if (!rc)
		monitor_info[id].ops->close(state);
	free(s.col);
	return rc;
}

unsigned monitor_warn_unavailable(unsigned mask, unsigned named, json_t *avail)
{
	unsigned ok = 0;

	for (int i = 0; i < MON_N; i++) {
		char why[512];
		json_t *a;

		if (!(mask & MON_BIT(i)))
			continue;
		a = json_object();
		if (monitor_available(i, why, sizeof(why))) {
			if (named & MON_BIT(i))
				warning("monitor %s is unavailable: %s",
					monitor_info[i].name, why);
			json_object_set_new(a, "available", json_false());
			json_object_set_new(a, "reason", json_string(why));
		} else {
			ok |= MON_BIT(i);
			json_object_set_new(a, "available", json_true());
		}
		if (avail)
			json_object_set_new(avail, monitor_info[i].name, a);
		else
			json_decref(a);
	}
	return ok;
}

static const char *const stat_names[] = { "mean", "max", "p95" };

int monitor_open(struct monitor_set *s, unsigned mask, unsigned interval_ms)
{
	memset(s, 0, sizeof(*s));
	s->ctl_fd = s->data_fd = -1;
	s->interval_ms = interval_ms ? interval_ms : MONITOR_INTERVAL_DEF_MS;
	for (int i = 0; i < MON_N; i++) {
		char why[512];
		size_t before = s->ncols;

		if (!(mask & MON_BIT(i)))
			continue;
		s->col0[i] = s->ncols;
		if (monitor_info[i].ops->open(&s->state[i], s, why, sizeof(why))) {
			s->ncols = before;	/* what it added, dropped */
			continue;
		}
		s->ops[i] = monitor_info[i].ops;
		s->ncol[i] = s->ncols - before;
		s->mask |= MON_BIT(i);
	}
	for (int i = 0; i < MON_N; i++)
		for (size_t k = s->col0[i]; s->ops[i] && k < s->col0[i] + s->ncol[i]; k++) {
			const struct monitor_col *c = &s->col[k];

			if (!c->summary)
				continue;
			s->metrics = xrealloc(s->metrics, (s->nmetrics + 3) *
					      sizeof(*s->metrics));
			for (int j = 0; j < 3; j++)
				s->metrics[s->nmetrics++] = (struct metric_def){
					xasprintf("monitor.%s.%s.%s", monitor_info[i].name,
						  c->name, stat_names[j]),
					c->unit, BETTER_NONE, false,
					xasprintf("%s over the iteration: %s", j == 0 ?
						  "time-weighted mean" : j == 1 ? "largest sample" :
						  "95th percentile of the samples", c->help),
				};
		}
	return 0;
}

void monitor_close(struct monitor_set *s)
{
	struct monitor_rows none = { 0 };

	if (s->pid)
		monitor_stop(s, &none);
	monitor_rows_free(&none);
	for (int i = 0; i < MON_N; i++)
		if (s->ops[i])
			s->ops[i]->close(s->state[i]);
	for (size_t i = 0; i < s->nmetrics; i++) {
		free((char *)s->metrics[i].name);
		free((char *)s->metrics[i].help);
	}
	free(s->metrics);
	free(s->col);
	free(s->cpus);
	memset(s, 0, sizeof(*s));
	s->ctl_fd = s->data_fd = -1;
}

void monitor_pin(struct monitor_set *s, const char *cpus)
{
	free(s->cpus);
	s->cpus = cpus ? xstrdup(cpus) : NULL;
}

/* ---- the sampler process ------------------------------------------ */

/* In the sampler: its affinity, monitor_cpus. */
static void sampler_pin(const char *cpus)
{
	size_t size = CPU_ALLOC_SIZE(CPUMASK_MAX_CPUS);
	struct cpumask m;
	cpu_set_t *set;
	int cpu;

	if (!cpus)
		return;
	set = CPU_ALLOC(CPUMASK_MAX_CPUS);
	if (!set || cpulist_parse(cpus, &m) <= 0) {
		warning("monitors: cannot pin the sampler to CPUs %s; it samples unpinned",
			cpus);
		CPU_FREE(set);
		return;
	}
	CPU_ZERO_S(size, set);
	for_each_cpu(cpu, &m)
		CPU_SET_S((size_t)cpu, size, set);
	if (sched_setaffinity(0, size, set))
		warning("monitors: cannot pin the sampler to CPUs %s: %s; it samples unpinned",
			cpus, strerror(errno));
	CPU_FREE(set);
}

static void sample_all(struct monitor_set *s, double dt, double *out)
{
	for (int i = 0; i < MON_N; i++)
		if (s->ops[i])
			s->ops[i]->sample(s->state[i], dt, out + s->col0[i]);
}

/* The sampler: rows of (t, dt, values) until ctl says stop, then sent. */
static void __attribute__((noreturn))
sampler(struct monitor_set *s, int ctl, int data)
{
	size_t w = 2 + s->ncols, n = 0, cap = 64;
	double *rows = malloc(cap * w * sizeof(double));
	double *scratch = malloc((s->ncols + 1) * sizeof(double));
	uint64_t t0 = now_ns(), prev = t0, next, step;
	uint64_t hdr[2];

	if (!rows || !scratch)
		_exit(1);
	step = (uint64_t)s->interval_ms * 1000000ull;
	sample_all(s, 0, scratch);	/* the first read: a baseline */
	next = t0 + step;
	for (;;) {
		struct pollfd pfd = { .fd = ctl, .events = POLLIN };
		uint64_t now = now_ns();
		int timeout = now >= next ? 0 :
			      (int)((next - now + 999999) / 1000000);
		bool stop;
		int r = poll(&pfd, 1, timeout);

		if (r < 0 && errno == EINTR)
			continue;
		stop = r != 0;
		now = now_ns();
		if (!stop && now < next)
			continue;
		/* a last short interval is kept only when it means something */
		if (!stop || !n || (now - prev) * 4 >= step) {
			double *row;

			if (n == cap) {
				cap *= 2;
				rows = realloc(rows, cap * w * sizeof(double));
				if (!rows)
					_exit(1);
			}
			row = rows + n++ * w;
			row[0] = (double)(now - t0) / 1e9;
			row[1] = (double)(now - prev) / 1e9;
			sample_all(s, row[1], row + 2);
			prev = now;
		}
		if (stop)
			break;
		next += step;
		if (next <= now)
			next = now + step;	/* it fell behind: skip, not burst */
	}
	hdr[0] = n;
	hdr[1] = w;
	if (write_all(data, hdr, sizeof(hdr)) ||
	    write_all(data, rows, n * w * sizeof(double)))
		_exit(1);
	_exit(0);
}

int monitor_start(struct monitor_set *s, int fds[2])
{
	int ctl[2], data[2];
	pid_t parent = getpid(), pid;

	fds[0] = fds[1] = -1;
	if (!s->mask)
		return 0;
	if (pipe2(ctl, O_CLOEXEC))
		return error_errno("monitors: pipe");
	if (pipe2(data, O_CLOEXEC)) {
		close(ctl[0]);
		close(ctl[1]);
		return error_errno("monitors: pipe");
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(ctl[0]);
		close(ctl[1]);
		close(data[0]);
		close(data[1]);
		return error_errno("monitors: fork of the sampler");
	}
	if (pid == 0) {
		sigset_t all;

		/* schedlab takes the terminal's signals; the sampler dies with it */
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		close(ctl[1]);
		close(data[0]);
		prctl(PR_SET_NAME, "schedlab-mon");
		sampler_pin(s->cpus);
		sampler(s, ctl[0], data[1]);
	}
	close(ctl[0]);
	close(data[1]);
	s->pid = pid;
	s->ctl_fd = fds[0] = ctl[1];
	s->data_fd = fds[1] = data[0];
	return 0;
}

int monitor_stop(struct monitor_set *s, struct monitor_rows *rows)
{
	uint64_t hdr[2] = { 0, 0 };
	double *buf = NULL;
	int rc = -1, status;

	memset(rows, 0, sizeof(*rows));
	if (!s->pid)
		return -1;
	/* the end of ctl is the word: a write to a sampler that died
	 * would be SIGPIPE */
	close(s->ctl_fd);
	if (!read_all(s->data_fd, hdr, sizeof(hdr), -1) && hdr[1] == 2 + s->ncols &&
	    hdr[0] < (1ull << 28) / hdr[1]) {
		buf = xmalloc((hdr[0] * hdr[1] + 1) * sizeof(double));
		rc = read_all(s->data_fd, buf, hdr[0] * hdr[1] * sizeof(double), -1);
	}
	close(s->data_fd);
	if (rc)
		kill(s->pid, SIGKILL);
	while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
		;
	s->pid = 0;
	s->ctl_fd = s->data_fd = -1;
	if (rc) {
		free(buf);
		warning("monitors: the sampler ended without its rows; none kept for this iteration");
		return -1;
	}
	rows->n = hdr[0];
	rows->t = xcalloc(rows->n + 1, sizeof(double));
	rows->dt = xcalloc(rows->n + 1, sizeof(double));
	rows->v = xcalloc(rows->n * s->ncols + 1, sizeof(double));
	for (size_t i = 0; i < rows->n; i++) {
		const double *r = buf + i * hdr[1];

		rows->t[i] = r[0];
		rows->dt[i] = r[1];
		memcpy(rows->v + i * s->ncols, r + 2, s->ncols * sizeof(double));
	}
	free(buf);
	return 0;
}

void monitor_rows_free(struct monitor_rows *rows)
{
	free(rows->t);
	free(rows->dt);
	free(rows->v);
	memset(rows, 0, sizeof(*rows));
}
