// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_perf.c: trace = perf-sched. `perf sched record` (system-wide,
 * started with its events disabled - perf record's -D -1 - and enabled
 * through its --control descriptors once it is ready, so that schedlab
 * knows it records before the clock starts), then `perf sched latency`,
 * whose table - one row a command name (comm), the tasks of one comm
 * merged, "comm:(N)" - is parsed into metrics:
 *
 *   trace.sched.FIELD        every task the machine ran
 *   trace.sched.KIND.FIELD   the tasks of KIND: a comm of trace_tasks
 *                            (default schedlab: the built-in workloads'
 *                            processes and threads are forks of schedlab
 *                            and keep its comm), or other (every task
 *                            of no kind named)
 *
 * FIELD: switches (context switches), runtime_ms, delay_avg_ms (perf's
 * average scheduling delay of the rows, weighted by their switches) and
 * delay_max_ms (the largest). The table is kept as sched-latency.txt in
 * the tracer's directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace/trace.h"
#include "util.h"

enum { F_SWITCHES, F_RUNTIME, F_AVG, F_MAX, F_N };

static const struct {
	const char *name, *unit;
	enum better better;
	const char *help;
} fields[F_N] = {
	[F_SWITCHES] = { "switches", "", BETTER_NONE,
			 "context switches (perf sched latency)" },
	[F_RUNTIME] = { "runtime_ms", "ms", BETTER_NONE,
			"time on a CPU (perf sched latency)" },
	[F_AVG] = { "delay_avg_ms", "ms", BETTER_LOWER,
		    "average scheduling delay, wakeup to running, weighted by switches (perf sched latency)" },
	[F_MAX] = { "delay_max_ms", "ms", BETTER_LOWER,
		    "largest scheduling delay, wakeup to running (perf sched latency)" },
};

/* A comm as a part of a metric name: [A-Za-z0-9_-], others '_'. */
static char *kind_name(const char *comm)
{
	char *s = xstrdup(comm);

	for (char *p = s; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && *p != '_' && *p != '-')
			*p = '_';
	return s;
}

static void add_metrics(struct trace_hook *t, const char *kind,
			const char *whose)
{
	for (int f = 0; f < F_N; f++) {
		struct metric_def *m = &t->metrics[t->nmetrics++];

		m->name = kind ? xasprintf("trace.sched.%s.%s", kind, fields[f].name) :
			  xasprintf("trace.sched.%s", fields[f].name);
		m->unit = fields[f].unit;
		m->better = fields[f].better;
		m->headline = false;
		m->help = xasprintf("%s, %s", fields[f].help, whose);
	}
}

void trace_perf_layout(struct trace_hook *t, const char *tasks)
{
	char **v;
	size_t n = split_commas(tasks, &v);

	t->kinds = xcalloc(n + 1, sizeof(*t->kinds));
	t->metrics = xcalloc((n + 2) * F_N, sizeof(*t->metrics));
	add_metrics(t, NULL, "every task");
	for (size_t i = 0; i < n; i++) {
		char *k = kind_name(v[i]), *whose;

		t->kinds[t->nkinds++] = xstrdup(v[i]);
		whose = xasprintf("the tasks named %s", v[i]);
		add_metrics(t, k, whose);
		free(whose);
		free(k);
	}
	t->kinds[t->nkinds++] = xstrdup("other");
	add_metrics(t, "other", "the tasks of no kind named in trace_tasks");
	split_free(v, n);
}

char **trace_perf_argv(const char *dir)
{
	char **argv = xcalloc(10, sizeof(*argv));
	int n = 0;

	argv[n++] = "perf";
	argv[n++] = "sched";
	argv[n++] = "record";
	argv[n++] = "-a";
	argv[n++] = "-o";
	argv[n++] = xasprintf("%s/perf.data", dir);
	argv[n++] = "--control=fd:3,4";	/* trace.c's tracer() puts them there */
	argv[n++] = "-D";
	argv[n++] = "-1";		/* disabled until schedlab enables it */
	return argv;
}

/* "  12.5 ms", "avg:   1.350 ms", "735": the number in a cell. */
static double cell(const char *s)
{
	char *end;
	double v;

	s += strspn(s, " \t");
	if (!strncmp(s, "avg:", 4) || !strncmp(s, "max:", 4))
		s += 4;
	v = strtod(s, &end);
	return end == s ? NAN : v;
}

/* Accumulated over the rows of one kind (or all). */
struct acc {
	double switches, runtime, delay_w, max;
	bool any;
};

static void acc_add(struct acc *a, double sw, double rt, double avg, double max)
{
	a->any = true;
	a->switches += sw;
	a->runtime += rt;
	a->delay_w += avg * sw;
	if (max > a->max)
		a->max = max;
}

static void acc_out(const struct acc *a, double *out)
{
	out[F_SWITCHES] = a->any ? a->switches : NAN;
	out[F_RUNTIME] = a->any ? a->runtime : NAN;
	out[F_AVG] = a->any && a->switches > 0 ? a->delay_w / a->switches :
		     a->any ? 0 : NAN;
	out[F_MAX] = a->any ? a->max : NAN;
}

/* The kind of a row's task cell, "comm:pid" or "comm:(N)": its index. */
static size_t row_kind(const struct trace_hook *t, const char *task, size_t n)
{
	while (n && (task[n - 1] == ' ' || task[n - 1] == '\t'))
		n--;
	for (size_t k = n; k > 0; k--)
		if (task[k - 1] == ':') {
			n = k - 1;	/* the comm may hold ':' too */
			break;
		}
	for (size_t i = 0; i + 1 < t->nkinds; i++)
		if (strlen(t->kinds[i]) == n && !strncmp(t->kinds[i], task, n))
			return i;
	return t->nkinds - 1;	/* other */
}

int trace_perf_parse(const struct trace_hook *t, const char *text, double *out)
{
	struct acc all = { 0 }, *kind = xcalloc(t->nkinds, sizeof(*kind));
	const char *line = text;

	while (line && *line) {
		const char *nl = strchr(line, '\n'), *bar[6];
		size_t len = nl ? (size_t)(nl - line) : strlen(line), nb = 0;
		const char *task = line + strspn(line, " \t");

		for (const char *p = line; p < line + len && nb < 6; p++)
			if (*p == '|')
				bar[nb++] = p;
		/* Task | Runtime ms | Switches | Avg delay ms | Max delay ms | ... */
		if (nb >= 5 && strncmp(task, "Task", 4) && strncmp(task, "TOTAL:", 6)) {
			double rt = cell(bar[0] + 1), sw = cell(bar[1] + 1);
			double avg = cell(bar[2] + 1), max = cell(bar[3] + 1);

			if (!isnan(rt) && !isnan(sw) && !isnan(avg) && !isnan(max)) {
				acc_add(&all, sw, rt, avg, max);
				acc_add(&kind[row_kind(t, task, (size_t)(bar[0] - task))],
					sw, rt, avg, max);
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	acc_out(&all, out);
	for (size_t i = 0; i < t->nkinds; i++)
		acc_out(&kind[i], out + (i + 1) * F_N);
	free(kind);
	return all.any ? 0 : -1;
}

/* perf sched latency -i dir/perf.data > dir/sched-latency.txt. */
static int run_latency(const char *dir, char *why, size_t len)
{
	char *data = xasprintf("%s/perf.data", dir);
	char *txt = xasprintf("%s/sched-latency.txt", dir);
	uint64_t end = now_ns() + 600ull * 1000000000ull;
	int status = 0, rc = -1;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		sigset_t none;
		int fd = open(txt, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		int nul = open("/dev/null", O_RDWR | O_CLOEXEC);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (fd < 0 || nul < 0 || dup2(fd, 1) < 0 || dup2(nul, 2) < 0 ||
		    dup2(nul, 0) < 0)
			_exit(127);
		execlp("perf", "perf", "sched", "latency", "-i", data, (char *)NULL);
		_exit(127);
	}
	if (pid < 0) {
		snprintf(why, len, "fork of perf sched latency: %s", strerror(errno));
		goto out;
	}
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if ((r < 0 && errno != EINTR) || now_ns() > end) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			snprintf(why, len, "perf sched latency took over 600 s; killed");
			goto out;
		}
		usleep(5000);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		snprintf(why, len, "perf sched latency -i %s failed (status %d)",
			 data, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	else
		rc = 0;
out:
	free(data);
	free(txt);
	return rc;
}

int trace_perf_report(const struct trace_hook *t, const char *dir,
		      double *out, char *why, size_t len)
{
	char *data = xasprintf("%s/perf.data", dir);
	char *txt = xasprintf("%s/sched-latency.txt", dir);
	size_t n;
	char *text;
	int rc = run_latency(dir, why, len);

	if (!rc) {
		int fd = open(txt, O_RDONLY | O_CLOEXEC);

		text = NULL;
		if (fd >= 0) {
			FILE *f = fdopen(fd, "r");

			n = 0;
			text = xcalloc(1, 1);
			if (f) {
				char buf[4096];
				size_t r;

				while ((r = fread(buf, 1, sizeof(buf), f)) > 0) {
					text = xrealloc(text, n + r + 1);
					memcpy(text + n, buf, r);
					n += r;
					text[n] = '\0';
				}
				fclose(f);
			} else {
				close(fd);
			}
		}
		if (!text || trace_perf_parse(t, text, out)) {
			snprintf(why, len, "no task in perf sched latency's table (%s)", txt);
			rc = -1;
		}
		free(text);
	}
	unlink(data);
	free(data);
	free(txt);
	return rc;
}
