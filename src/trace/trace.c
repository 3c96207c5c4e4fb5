// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c: the trace keys and a case's tracer, started and stopped per
 * iteration or case. The keeper process that runs it (trace.h says why
 * there is one) is trace_keeper.c's; perf-sched's own parts are
 * trace_perf.c's.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/trace.h"
#include "trace/trace_int.h"
#include "util.h"

const char *const trace_scope_names[] = { "iteration", "case", NULL };

/* ---- keys ---------------------------------------------------------- */

int trace_parse(const char *text, bool *on, char *err, size_t len)
{
	size_t n = strlen(text);

	*on = false;
	if (!n || !strcmp(text, "none") || !strcmp(text, "off"))
		return 0;
	if (n > TRACE_CMD_MAX) {
		snprintf(err, len, "a command of %zu characters is too long (at most %d)",
			 n, TRACE_CMD_MAX);
		return -1;
	}
	if (strspn(text, " \t") == n) {
		snprintf(err, len, "a blank command");
		return -1;
	}
	if (strchr(text, '\n')) {
		snprintf(err, len, "a command of more than one line");
		return -1;
	}
	*on = true;
	return 0;
}

int trace_parse_tasks(const char *text, char *err, size_t len)
{
	char **v;
	size_t n = split_commas(text, &v);
	int rc = 0;

	if (!n || n > TRACE_TASKS_MAX) {
		snprintf(err, len, "%zu task names in '%.64s'", n, text);
		rc = -1;
	}
	for (size_t i = 0; i < n && !rc; i++)
		if (strlen(v[i]) > 15 || strpbrk(v[i], ",|") ||
		    !strcmp(v[i], "other")) {
			snprintf(err, len, "'%.64s' is not a task name%s", v[i],
				 !strcmp(v[i], "other") ? " (other is every task not named)" : "");
			rc = -1;
		}
	split_free(v, n);
	return rc;
}

char *trace_default_dir(const char *db)
{
	return xasprintf("%s.traces", db);
}

/* Whether prog is a program on $PATH. */
static bool on_path(const char *prog)
{
	char *p = path_find(prog);

	free(p);
	return p != NULL;
}

/* ---- a case's tracer ----------------------------------------------- */

void trace_open(struct trace_hook *t, const struct trace_spec *spec)
{
	memset(t, 0, sizeof(*t));
	t->ctl_fd = t->st_fd = t->pctl_fd = t->pack_fd = -1;
	if (!spec || !spec->trace)
		return;
	t->spec = *spec;
	t->on = true;
	t->perf = !strcmp(spec->trace, TRACE_PERF_SCHED);
	if (!t->perf)
		return;
	trace_perf_layout(t, spec->tasks ? spec->tasks : TRACE_TASKS_DEF);
	if (!on_path("perf")) {
		warning("trace perf-sched is unavailable: perf is not on PATH (Debian: linux-perf); %s runs untraced",
			spec->job ? spec->job : "the case");
		t->on = false;
	}
}

void trace_close(struct trace_hook *t)
{
	if (t->keeper)
		trace_stop(t, NULL);
	for (size_t i = 0; i < t->nkinds; i++)
		free(t->kinds[i]);
	free(t->kinds);
	for (size_t i = 0; i < t->nmetrics; i++) {
		free((char *)t->metrics[i].name);
		free((char *)t->metrics[i].help);
	}
	free(t->metrics);
	memset(t, 0, sizeof(*t));
	t->ctl_fd = t->st_fd = t->pctl_fd = t->pack_fd = -1;
}

pid_t trace_pid(const struct trace_hook *t)
{
	return t->keeper;
}

/* The tracer's directory for iteration iter, made empty. */
static int make_dir(struct trace_hook *t, unsigned iter)
{
	char cwd[PATH_MAX] = "", *bad;
	int n;

	/* absolute, for a command that changes directory */
	if (t->spec.root[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		cwd[0] = '\0';
	n = iter ? snprintf(t->dir, sizeof(t->dir), "%s%s%s/c%u-i%u", cwd,
			    *cwd ? "/" : "", t->spec.root, t->spec.seq, iter) :
		   snprintf(t->dir, sizeof(t->dir), "%s%s%s/c%u", cwd,
			    *cwd ? "/" : "", t->spec.root, t->spec.seq);

	if (n < 0 || (size_t)n >= sizeof(t->dir)) {
		warning("trace: directory path too long under %s", t->spec.root);
		return -1;
	}
	/* a retried iteration's: the kept attempt's alone */
	if (rm_tree(t->dir))
		warning("trace: cannot empty %s: %s", t->dir, strerror(errno));
	bad = mkdir_p(t->dir, 0755);
	if (bad) {
		warning("trace: cannot make %s: %s; not traced", bad,
			strerror(errno));
		free(bad);
		return -1;
	}
	return 0;
}

/* The first line of dir/trace.stderr that says something, into buf. */
static void first_error(const char *dir, char *buf, size_t len)
{
	char path[4200], line[512];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/trace.stderr", dir);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[strspn(line, " \t")] || strstr(line, "Events disabled"))
			continue;
		if (!buf[0] || strstr(line, "rror") || strstr(line, "ermission"))
			snprintf(buf, len, "%s", line + strspn(line, " \t"));
		if (strstr(line, "rror") || strstr(line, "ermission"))
			break;
	}
	fclose(f);
}

/* Removes dir/name when it is empty. */
static void drop_empty(const char *dir, const char *name)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!stat(path, &st) && S_ISREG(st.st_mode) && !st.st_size)
		unlink(path);
}

/* Removes the iteration's perf.data: the report is what is kept. */
static void drop_perf_data(const struct trace_hook *t)
{
	char data[4200];

	snprintf(data, sizeof(data), "%s/perf.data", t->dir);
	unlink(data);
}

/* perf-sched: enabled through its control pipe, and its ack awaited. */
static int perf_enable(struct trace_hook *t)
{
	static const char cmd[] = "enable\n";
	char ack[4];

	if (trace_write_pipe(t->pctl_fd, cmd, sizeof(cmd) - 1))
		return -1;
	return read_all(t->pack_fd, ack, sizeof(ack), ACK_WAIT_MS) ||
	       memcmp(ack, "ack", 3) ? -1 : 0;
}

int trace_start(struct trace_hook *t, unsigned iter)
{
	if (!t->on || t->keeper)
		return -1;
	if (make_dir(t, iter) || trace_keeper_start(t, iter))
		return -1;
	t->iter = iter;
	if (t->perf && perf_enable(t)) {
		struct keeper_end e;
		char why[512];

		trace_keeper_stop(t, &e);
		/* what perf recorded before it was stopped (an interrupt
		 * while it started) is nobody's */
		drop_perf_data(t);
		first_error(t->dir, why, sizeof(why));
		if (e.err)
			snprintf(why, sizeof(why), "perf: %s", strerror(e.err));
		warning("trace perf-sched is unavailable: perf sched record did not start%s%s; %s runs untraced",
			why[0] ? ": " : "", why, t->spec.job ? t->spec.job : "the case");
		t->on = false;
		return -1;
	}
	return 0;
}

int trace_fds(const struct trace_hook *t, int *fds)
{
	int n = 0;

	if (!t->keeper)
		return 0;
	fds[n++] = t->ctl_fd;
	fds[n++] = t->st_fd;
	if (t->pctl_fd >= 0)
		fds[n++] = t->pctl_fd;
	if (t->pack_fd >= 0)
		fds[n++] = t->pack_fd;
	return n;
}

/* "job (case 3) iteration 2", or without the iteration for the case. */
static void iter_label(const struct trace_hook *t, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s (case %u)", t->spec.job ? t->spec.job : "",
			 t->spec.seq);

	if (t->iter && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " iteration %u", t->iter);
}

/* What a generic command's end says, when it says something is wrong. */
static void command_end(struct trace_hook *t, const struct keeper_end *e)
{
	char why[512], at[160];

	iter_label(t, at, sizeof(at));
	if (e->err) {
		warning("trace: %s: cannot run /bin/sh: %s", at, strerror(e->err));
		return;
	}
	first_error(t->dir, why, sizeof(why));
	if (e->early && e->status >= 0 && WIFEXITED(e->status) &&
	    WEXITSTATUS(e->status))
		warning("trace: %s: the command exited with status %d before the clock stopped%s%s",
			at, WEXITSTATUS(e->status), why[0] ? ": " : "", why);
	else if (e->early && e->status >= 0 && WIFSIGNALED(e->status))
		warning("trace: %s: the command was killed by signal %d before the clock stopped",
			at, WTERMSIG(e->status));
	else if (e->killed)
		warning("trace: %s: the command did not stop on SIGINT or SIGTERM within %d s; killed",
			at, (STOP_GRACE_MS + TERM_GRACE_MS) / 1000);
}

int trace_stop(struct trace_hook *t, double *out)
{
	struct keeper_end e;
	char why[512], at[160];
	int rc = 0;

	for (size_t i = 0; out && i < t->nmetrics; i++)
		out[i] = NAN;
	if (!t->keeper)
		return -1;
	iter_label(t, at, sizeof(at));
	if (trace_keeper_stop(t, &e)) {
		warning("trace: %s: the tracer's keeper did not report its end; killed",
			at);
		rc = -1;
	} else if (!t->perf) {
		command_end(t, &e);
	} else if (e.early || e.killed) {
		first_error(t->dir, why, sizeof(why));
		warning("trace perf-sched: %s: perf sched record %s%s%s; not measured",
			at, e.killed ? "did not stop on SIGINT; killed" :
			"ended before the clock stopped", why[0] ? ": " : "", why);
		rc = -1;
	} else if (out && trace_perf_report(t, t->dir, out, why, sizeof(why))) {
		warning("trace perf-sched: %s: %s; not measured", at, why);
		rc = -1;
	}
	/* read or not (an interrupted iteration's), it goes */
	if (t->perf)
		drop_perf_data(t);
	drop_empty(t->dir, "trace.stdout");
	drop_empty(t->dir, "trace.stderr");
	return rc;
}
