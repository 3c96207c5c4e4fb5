// SPDX-License-Identifier: GPL-2.0-only
/* casecmd: setup, before and cleanup around a case (see casecmd.h). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/casecmd.h"
#include "util.h"
#include "workload/external.h"

#define BEGUN_MAX 16	/* cases begun at once: the sides of an experiment */

struct casecmd {
	struct wl_case_cmds cmds;
	char dir[PATH_MAX];
	bool owned;		/* dir is ours to remove */
	pid_t owner;		/* the schedlab that made it (not a fork) */
};

static bool given(const char *s)
{
	return s && *s;
}

/* What the atexit handler still has to remove. */
static struct casecmd *begun[BEGUN_MAX];

/* One command: what the hook workload runs. */
struct hook_cfg {
	const char *what;	/* "setup" */
	const char *script;
	const char *dir;
};

static int hook_run(const void *cfgp, struct wl_ctx *ctx, struct wl_result *res)
{
	const struct hook_cfg *h = cfgp;
	struct ext_cmd cmd = { .what = h->what, .dir = h->dir, .out_fd = -1 };
	struct ext_out out;
	char *script = xmalloc(strlen(h->script) + 32);
	char *argv[] = { "/bin/sh", "-c", script, NULL };
	int rc;

	(void)res;
	/* stdout dropped: the last line of a failure is stderr's */
	sprintf(script, "exec >/dev/null\n%s", h->script);
	cmd.argv = argv;
	rc = ext_run(ctx, &cmd, 0, NULL, &out, NULL);
	ext_out_free(&out);
	free(script);
	return rc;
}

static const struct opt_def hook_options[] = { { .name = NULL } };
static const struct metric_def hook_metrics[] = { { .name = NULL } };

static const struct workload wl_hook = {
	.name = "casecmd",
	.summary = "a case's setup, before or cleanup command",
	.options = hook_options,
	.metrics = hook_metrics,
	.run = hook_run,
};

/* Runs one command of the case; its outcome in o. */
static int hook(const struct casecmd *cc, const struct plan_case *c,
		const char *what, const char *script, struct run_outcome *o)
{
	struct hook_cfg h = { what, script, cc->dir };
	struct run_settings rs = { .timeout_s = c->timeout_s, .cpus = c->cpus,
				   .probes = PROBES_OFF, .task = &c->task };

	if (supervise_run(&wl_hook, &h, &rs, o)) {
		o->status = RUN_FAILED;
		snprintf(o->reason, sizeof(o->reason), "%s could not start",
			 what);
	}
	run_outcome_release(o);
	return o->status == RUN_OK ? 0 : 1;
}

static void remove_dir(struct casecmd *cc)
{
	if (cc->owned && cc->owner == getpid() && rm_tree(cc->dir))
		warning("cannot remove %s: %s", cc->dir, strerror(errno));
	cc->owned = false;
}

static void remove_begun(void)
{
	for (size_t i = 0; i < BEGUN_MAX; i++)
		if (begun[i])
			remove_dir(begun[i]);
}

static void track(struct casecmd *cc, bool on)
{
	static bool registered;

	if (!registered) {
		atexit(remove_begun);
		registered = true;
	}
	for (size_t i = 0; i < BEGUN_MAX; i++)
		if (on ? !begun[i] : begun[i] == cc) {
			begun[i] = on ? cc : NULL;
			return;
		}
}

/* mkdir -p, saying nothing: 0, or -1 with errno */
static int make_dirs(const char *path)
{
	char *bad = mkdir_p(path, 0777);
	int e = errno;

	if (!bad)
		return 0;
	free(bad);
	errno = e;
	return -1;
}

static int make_workdir(struct casecmd *cc, char *reason, size_t len)
{
	const char *wd = cc->cmds.workdir;
	const char *base = ext_tmpbase();

	if (given(wd)) {
		if (make_dirs(wd) || !realpath(wd, cc->dir)) {
			snprintf(reason, len, "workdir %s: %s", wd,
				 strerror(errno));
			return -1;
		}
		return 0;
	}
	snprintf(cc->dir, sizeof(cc->dir), "%s/schedlab-case.%d.XXXXXX", base,
		 (int)getpid());
	if (!mkdtemp(cc->dir)) {
		snprintf(reason, len, "cannot create a directory in %s: %s",
			 base, strerror(errno));
		return -1;
	}
	cc->owned = true;
	cc->owner = getpid();
	return 0;
}

/*
 * $SCHEDLAB_CACHE: what a setup keeps between runs (kbuild's unpacked
 * tree), made if missing: /var/cache/schedlab as root, else
 * $XDG_CACHE_HOME/schedlab, by default ~/.cache/schedlab.
 */
static void set_cache(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char dir[PATH_MAX];

	if (!geteuid())
		snprintf(dir, sizeof(dir), "/var/cache/schedlab");
	else if (given(xdg))
		snprintf(dir, sizeof(dir), "%s/schedlab", xdg);
	else
		snprintf(dir, sizeof(dir), "%s/.cache/schedlab",
			 given(home) ? home : "/tmp");
	if (make_dirs(dir))
		warning("cannot create %s: %s", dir, strerror(errno));
	setenv("SCHEDLAB_CACHE", dir, 1);
}

enum run_status casecmd_begin(const struct plan_case *c, struct casecmd **out,
			      char *reason, size_t len)
{
	struct run_outcome o = { .latency = NULL };
	struct casecmd *cc;

	*out = NULL;
	if (!c->wl->case_cmds)
		return RUN_OK;
	cc = xcalloc(1, sizeof(*cc));
	c->wl->case_cmds(c->cfg, &cc->cmds);
	if (!given(cc->cmds.setup) && !given(cc->cmds.before) &&
	    !given(cc->cmds.cleanup) && !given(cc->cmds.workdir)) {
		free(cc);	/* none: the case runs where schedlab runs */
		return RUN_OK;
	}
	if (make_workdir(cc, reason, len)) {
		free(cc);
		return RUN_FAILED;
	}
	track(cc, true);
	*out = cc;
	set_cache();
	setenv("SCHEDLAB_WORKDIR", cc->dir, 1);
	if (!given(cc->cmds.setup))
		return RUN_OK;
	if (!hook(cc, c, "setup", cc->cmds.setup, &o))
		return RUN_OK;
	snprintf(reason, len, "%s", o.reason);
	return o.status;
}

int casecmd_before(const struct casecmd *cc, const struct plan_case *c,
		   struct run_outcome *o)
{
	if (!cc || !given(cc->cmds.before))
		return 0;
	setenv("SCHEDLAB_WORKDIR", cc->dir, 1);
	return hook(cc, c, "before", cc->cmds.before, o);
}

void casecmd_end(struct casecmd *cc, const struct plan_case *c)
{
	struct run_outcome o = { .latency = NULL };
	int sig;

	if (!cc)
		return;
	/*
	 * A stop signal queued since the last run would interrupt cleanup
	 * before it starts: it is taken off the queue and put back after,
	 * for the run to stop on.
	 */
	sig = supervise_stop_pending();
	setenv("SCHEDLAB_WORKDIR", cc->dir, 1);
	if (given(cc->cmds.cleanup) &&
	    hook(cc, c, "cleanup", cc->cmds.cleanup, &o))
		warning("case %u (%s): %s", c->seq, c->job, o.reason);
	unsetenv("SCHEDLAB_WORKDIR");
	remove_dir(cc);
	track(cc, false);
	free(cc);
	if (sig)
		kill(getpid(), sig);
}
