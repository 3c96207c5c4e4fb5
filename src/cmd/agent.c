// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab agent: a test machine's end of the fleet's queue
 * (store/queue.h, doc/fleet.md). It registers, then claims a job, checks
 * it again (never trusting the queue's columns), runs it as a child
 * `schedlab run` into its local SQLite database, renews the lease while
 * it runs, and records the run in the queue's database. The result is
 * never lost or doubled: the run's uuid is journaled before the run
 * starts (one small fsynced file per attempt in the agent's state
 * directory), and removed only once the queue has the result; a server
 * that is down is retried with backoff, and every start uploads what
 * an earlier agent left.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "harness/journal.h"
#include "harness/needs.h"
#include "harness/plan.h"
#include "model/run.h"
#include "probe/sysenv.h"
#include "store/load.h"
#include "store/queue.h"
#include "store/store.h"
#include "util.h"

struct agent_opts {
	const char *db, *name, *host, *tags, *local_db;
	unsigned poll, lease;
	bool once, allow_commands, allow_knobs, help;
};

#define O(f) offsetof(struct agent_opts, f)
static const struct opt_def agent_options[] = {
	{ .name = "db", .type = OPT_STRING, .offset = O(db), .arg = "URL",
	  .help = "the queue's PostgreSQL database (default: $SCHEDLAB_DB); credentials through PGPASSFILE or PGSERVICEFILE" },
	{ .name = "name", .type = OPT_STRING, .offset = O(name), .arg = "NAME",
	  .help = "the agent's name, unique in the fleet (default: the host name)" },
	{ .name = "host", .type = OPT_STRING, .offset = O(host), .arg = "NAME",
	  .help = "the host its runs are stored with and jobs' --hosts match (default: the node name)" },
	{ .name = "tags", .type = OPT_STRING, .offset = O(tags), .arg = "T,...",
	  .help = "what this machine offers; it takes the jobs whose tags it has all of" },
	{ .name = "once", .type = OPT_BOOL, .offset = O(once),
	  .help = "take one job, run it, record it and exit (0 also when there was none)" },
	{ .name = "poll", .type = OPT_DURATION, .offset = O(poll), .def = "10",
	  .min = 1, .max = 3600, .arg = "SECS",
	  .help = "how long to wait when the queue has nothing for it" },
	{ .name = "lease", .type = OPT_DURATION, .offset = O(lease), .def = "60",
	  .min = 3, .max = 86400, .arg = "SECS",
	  .help = "a claim's lease, renewed every third of it; a job whose agent died is handed out again after it" },
	{ .name = "local-db", .type = OPT_STRING, .offset = O(local_db),
	  .arg = "PATH",
	  .help = "the SQLite database runs go to first (default: results.db in the agent's state directory)" },
	{ .name = "allow-commands", .type = OPT_BOOL, .offset = O(allow_commands),
	  .help = "take jobs that run commands (workload command, env.*, scx): the queue's writers can run anything here" },
	{ .name = "allow-knobs", .type = OPT_BOOL, .offset = O(allow_knobs),
	  .help = "take jobs that change the machine (sysctl.*, sched.*, sched_feat, /proc or /sys paths, cgroup.*, scx)" },
	OPT_HELP(struct agent_opts, help),
	{ .name = NULL },
};
#undef O

struct agent {
	const char *url;	/* with its password, for connecting only */
	char *db_name;		/* redacted */
	struct store *q;	/* NULL while disconnected */
	struct queue_agent me;
	char **tags;
	size_t ntags;
	char kernel[65], build_id[130];
	char dir[PATH_MAX - 256];	/* the state directory: journal, local db */
	char local[PATH_MAX];
	unsigned poll;
};

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

static void __attribute__((format(printf, 2, 3)))
say(const struct agent *a, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "agent %s: ", a->me.name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static double now_s(void)
{
	return (double)now_ns() / 1e9;
}

/* Sleeps secs, or less when a stop signal comes. */
static void nap(double secs)
{
	double end = now_s() + secs;

	while (!stop_sig && now_s() < end) {
		double left = end - now_s();
		struct timespec ts = { .tv_sec = (time_t)left,
				       .tv_nsec = (long)((left - (double)(time_t)left) * 1e9) };

		if (left <= 0)
			break;
		nanosleep(&ts, NULL);
	}
}

/* The queue's connection, made again (and the agent registered) if lost. */
static int connect_db(struct agent *a)
{
	if (a->q && queue_connected(a->q))
		return 0;
	if (a->q)
		store_close(a->q);
	a->q = queue_open(a->url, "agent", true);
	if (!a->q)
		return -1;
	a->me.pid = (long)getpid();
	if (queue_agent_register(a->q, &a->me)) {
		store_close(a->q);
		a->q = NULL;
		return -1;
	}
	return 0;
}

/* ---- the journal: one file per attempt whose result is not recorded ---- */

struct pending {
	int64_t job;
	int attempt;
	char uuid[40];
	int exit_status;	/* -1: the run had not ended */
};

static void pending_path(const struct agent *a, int64_t job, int attempt,
			 char *buf, size_t len)
{
	snprintf(buf, len, "%s/pending-%" PRId64 "-%d", a->dir, job, attempt);
}

static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/* Written whole or not at all: a temporary file, fsynced, renamed. */
static int pending_write(const struct agent *a, const struct pending *p)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 40];
	FILE *f;
	int fd;

	pending_path(a, p->job, p->attempt, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return error_errno("agent: cannot write '%s'", tmp);
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return error_errno("agent: cannot write '%s'", tmp);
	}
	fprintf(f, "job %" PRId64 "\nattempt %d\nuuid %s\n", p->job, p->attempt,
		p->uuid);
	if (p->exit_status >= 0)
		fprintf(f, "exit %d\n", p->exit_status);
	if (fflush(f) || fsync(fd) || fclose(f)) {
		unlink(tmp);
		return error_errno("agent: cannot write '%s'", tmp);
	}
	if (rename(tmp, path) || fsync_dir(a->dir)) {
		unlink(tmp);
		return error_errno("agent: cannot write '%s'", path);
	}
	return 0;
}

static int pending_read(const char *path, struct pending *p)
{
	FILE *f = fopen(path, "re");
	char line[128];
	long long job = -1;

	memset(p, 0, sizeof(*p));
	p->exit_status = -1;
	p->attempt = -1;
	if (!f)
		return error_errno("agent: cannot read '%s'", path);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "job %lld", &job) == 1 ||
		    sscanf(line, "attempt %d", &p->attempt) == 1 ||
		    sscanf(line, "uuid %39s", p->uuid) == 1 ||
		    sscanf(line, "exit %d", &p->exit_status) == 1)
			continue;
	}
	fclose(f);
	p->job = job;
	if (job < 1 || p->attempt < 1 || !uuid_valid(p->uuid))
		return error("agent: '%s' is no pending job (damaged?)", path);
	return 0;
}

static void pending_remove(const struct agent *a, const struct pending *p)
{
	char path[PATH_MAX + 32];

	pending_path(a, p->job, p->attempt, path, sizeof(path));
	if (unlink(path) && errno != ENOENT)
		error_errno("agent: cannot remove '%s'", path);
	fsync_dir(a->dir);
}

/* ---- recording a result ---- */

static void reason_of(int status, char *buf, size_t len)
{
	if (status == 0)
		buf[0] = '\0';
	else if (status == EXIT_INTERRUPTED)
		snprintf(buf, len, "the run was interrupted");
	else if (status > 128)
		snprintf(buf, len, "the run was killed by signal %d", status - 128);
	else if (status == EXIT_USAGE)
		snprintf(buf, len, "the run refused the job (exit 2; see the agent's log)");
	else
		snprintf(buf, len, "the run failed (exit %d)", status);
}

/* Run uuid of the local database as an export document, or NULL. */
static json_t *local_run(const struct agent *a, const char *uuid)
{
	struct store *st;
	int64_t id;
	json_t *doc = NULL;

	if (store_missing(a->local))
		return NULL;
	st = store_open_ro(a->local);
	if (!st)
		return NULL;
	if (store_find_uuid(st, uuid, &id) == 1)
		doc = store_export(st, id);
	store_close(st);
	return doc;
}

/*
 * Records p's result in the queue, retrying (reconnecting) with backoff
 * from 1 s doubling to 60 s while the queue cannot take it. 0 recorded,
 * 1 not (another attempt's or cancelled), -1 stopped by a signal first
 * (p stays journaled). p's file is removed once the queue answered.
 */
static int record(struct agent *a, const struct pending *p)
{
	json_t *doc = local_run(a, p->uuid);
	char reason[160], why[160];
	int status = p->exit_status, rc;
	unsigned delay = 1;

	reason_of(status, reason, sizeof(reason));
	if (!doc && !status) {
		status = EXIT_RUN_FAILED;
		snprintf(reason, sizeof(reason), "no run %s in the local database", p->uuid);
	}
	for (;;) {
		if (!connect_db(a)) {
			rc = queue_finish(a->q, p->job, p->attempt, a->me.name,
					  status,
					  *reason ? reason : NULL, doc, a->local,
					  why, sizeof(why));
			if (rc >= 0)
				break;
		}
		if (stop_sig) {
			json_decref(doc);
			say(a, "job %" PRId64 ": stopped before its result was recorded; it is kept in %s and uploaded when the agent starts again",
			    p->job, a->dir);
			return -1;
		}
		say(a, "job %" PRId64 ": cannot record its result yet; retrying in %us (kept in %s)",
		    p->job, delay, a->local);
		nap(delay);
		delay = delay * 2 > 60 ? 60 : delay * 2;
	}
	json_decref(doc);
	pending_remove(a, p);
	if (rc == 1)
		say(a, "job %" PRId64 ": result not recorded: %s; run %s stays in %s",
		    p->job, why, p->uuid, a->local);
	else if (!status)
		say(a, "job %" PRId64 ": done, run %s", p->job, p->uuid);
	else
		say(a, "job %" PRId64 ": failed: %s%s%s", p->job, reason,
		    doc ? ", run " : "", doc ? p->uuid : "");
	if (!rc && a->q)
		queue_agent_seen(a->q, a->me.name, 0);
	return rc;
}

/*
 * What earlier agents of this name left: a result whose run ended is
 * recorded; an attempt that died with its agent is given back to the
 * queue (when it still holds it). 0, or -1 when stopped.
 */
static int recover(struct agent *a)
{
	DIR *d = opendir(a->dir);
	struct dirent *e;
	char path[PATH_MAX + 300];
	struct pending p;
	int rc = 0;

	if (!d)
		return error_errno("agent: cannot read '%s'", a->dir);
	while (!rc && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		snprintf(path, sizeof(path), "%s/%s", a->dir, e->d_name);
		/* a job's directory or a journal being written: the agent
		 * that made it was killed */
		if (!strncmp(e->d_name, "job-", 4)) {
			if (rm_tree(path))
				error_errno("agent: cannot remove '%s'", path);
			continue;
		}
		if (!strncmp(e->d_name, "pending-", 8) && n > 4 &&
		    !strcmp(e->d_name + n - 4, ".tmp")) {
			unlink(path);
			continue;
		}
		if (strncmp(e->d_name, "pending-", 8))
			continue;
		if (pending_read(path, &p))
			continue;
		if (p.exit_status >= 0) {
			say(a, "job %" PRId64 ": uploading the result an earlier agent kept",
			    p.job);
			rc = record(a, &p) < 0 ? -1 : 0;
			continue;
		}
		say(a, "job %" PRId64 ": attempt %d ended with its agent; giving it back",
		    p.job, p.attempt);
		if (connect_db(a))
			continue;
		if (!queue_release(a->q, p.job, p.attempt, a->me.name,
				   "its agent ended while running it", false))
			pending_remove(a, &p);
	}
	closedir(d);
	return rc;
}

/* ---- running a job ---- */

/* The job file's name in the temporary directory: NAME.job */
static void job_file_name(const char *name, char *buf, size_t len)
{
	const char *base = strrchr(name, '/');
	size_t n;

	base = base ? base + 1 : name;
	n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".job"))
		snprintf(buf, len, "%.100s", base);
	else
		snprintf(buf, len, "%.100s.job", base);
	for (char *c = buf; *c; c++)
		if (*c == '/' || (unsigned char)*c < ' ')
			*c = '_';
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	size_t len = strlen(text), off = 0;

	if (fd < 0)
		return error_errno("agent: cannot write '%s'", path);
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			close(fd);
			return error_errno("agent: cannot write '%s'", path);
		}
		off += (size_t)w;
	}
	return close(fd) ? error_errno("agent: cannot write '%s'", path) : 0;
}

/* The child: `schedlab run FILE ...` in a process group of its own. */
static pid_t spawn_run(const struct agent *a, const struct queue_claim *c,
		       const char *file, const char *uuid)
{
	const char **argv = xcalloc(16 + 2 * c->nsets, sizeof(*argv));
	size_t k = 0;
	pid_t parent = getpid(), pid;

	argv[k++] = "schedlab";
	argv[k++] = "run";
	argv[k++] = file;
	argv[k++] = "--db";
	argv[k++] = a->local;
	argv[k++] = "--uuid";
	argv[k++] = uuid;
	argv[k++] = "--host";
	argv[k++] = a->me.host;
	if (c->label) {
		argv[k++] = "--label";
		argv[k++] = c->label;
	}
	for (size_t i = 0; i < c->nsets; i++) {
		argv[k++] = "--set";
		argv[k++] = c->sets[i];
	}
	if (c->iterations) {
		argv[k++] = "--iterations";
		argv[k++] = c->iterations;
	}
	argv[k++] = "-q";
	argv[k] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		error_errno("agent: cannot fork");
		free(argv);
		return -1;
	}
	if (!pid) {
		int null = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		/* the run ends with the agent, even one killed with -9 */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(EXIT_INTERRUPTED);
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			close(null);
		}
		execv("/proc/self/exe", (char *const *)argv);
		fprintf(stderr, "schedlab: agent: cannot run /proc/self/exe: %s\n",
			strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	free(argv);
	return pid;
}

enum stop_why { RUN_ENDED, RUN_LOST, RUN_STOPPED };

/*
 * Waits for the run, renewing the lease every third of it; stops it
 * (SIGTERM to its group, SIGKILL 10 s later) when the job is no longer
 * ours or the agent is told to stop. *status: its exit status.
 */
static enum stop_why watch(struct agent *a, const struct queue_claim *c,
			   pid_t pid, int *status)
{
	double every = a->me.lease_s / 3.0, next = now_s() + every, killed = 0;
	enum stop_why why = RUN_ENDED;
	char lost[160];
	int ws;

	for (;;) {
		pid_t r = waitpid(pid, &ws, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			error_errno("agent: cannot wait for the run");
			ws = 0xff00;
			break;
		}
		if (stop_sig && !killed) {
			say(a, "job %" PRId64 ": stopping its run (signal %d)",
			    c->id, (int)stop_sig);
			why = RUN_STOPPED;
			kill(-pid, SIGTERM);
			killed = now_s();
		}
		if (!killed && now_s() >= next) {
			next = now_s() + every;
			if (connect_db(a)) {
				say(a, "job %" PRId64 ": cannot renew its lease (the queue is unreachable); the run goes on",
				    c->id);
			} else {
				int hb = queue_heartbeat(a->q, c->id, c->attempt,
							 a->me.lease_s, lost,
							 sizeof(lost));

				if (hb == 1) {
					say(a, "job %" PRId64 ": no longer ours: %s; stopping its run",
					    c->id, lost);
					why = RUN_LOST;
					kill(-pid, SIGTERM);
					killed = now_s();
				} else if (hb < 0) {
					say(a, "job %" PRId64 ": cannot renew its lease; the run goes on",
					    c->id);
				} else {
					queue_agent_seen(a->q, a->me.name, c->id);
				}
			}
		}
		if (killed && now_s() - killed > 10)
			kill(-pid, SIGKILL);
		nap(0.05);
		if (stop_sig && killed)
			usleep(50000);	/* nap returns at once once stopping */
	}
	/* what the run left in its group (it reaps its own) */
	kill(-pid, SIGKILL);
	if (WIFEXITED(ws))
		*status = WEXITSTATUS(ws);
	else
		*status = 128 + WTERMSIG(ws);
	return why;
}

/* Refused: back to the queue with the agent in its refused_by. */
static void refuse(struct agent *a, const struct queue_claim *c,
		   const char *what, const char *why, const char *option)
{
	char reason[400];

	snprintf(reason, sizeof(reason), "refused by %s: %s (%s)", a->me.name,
		 what, why);
	say(a, "job %" PRId64 " refused: %s (%s); start the agent with %s to take such jobs",
	    c->id, what, why, option);
	queue_release(a->q, c->id, c->attempt, a->me.name, reason, true);
}

/*
 * One claimed job, from the check to its recorded result. The exit
 * status of the job (0 done), or -1 when the agent was stopped.
 */
static int take(struct agent *a, const struct queue_claim *c)
{
	char where[160], dir[PATH_MAX], file[PATH_MAX + 120], fname[120];
	struct plan plan;
	struct plan_needs needs;
	struct pending p = { .job = c->id, .attempt = c->attempt,
			     .exit_status = -1 };
	enum stop_why why;
	pid_t pid;
	int status, rc;

	say(a, "job %" PRId64 ": claimed (attempt %d): %s", c->id, c->attempt,
	    c->name);
	queue_agent_seen(a->q, a->me.name, c->id);
	snprintf(where, sizeof(where), "job %" PRId64 " (%.100s)", c->id, c->name);
	if (queue_load_plan("agent", where, c->jobfile, strlen(c->jobfile),
			    (const char *const *)c->sets, c->nsets,
			    c->iterations, &plan)) {
		char w[160];

		say(a, "job %" PRId64 ": does not load here; failed", c->id);
		queue_finish(a->q, c->id, c->attempt, a->me.name, EXIT_USAGE,
			     "the job does not load on its agent (see the agent's log)",
			     NULL, NULL, w, sizeof(w));
		return EXIT_USAGE;
	}
	plan_needs(&plan, &needs);
	plan_free(&plan);
	if (needs.commands && !a->me.allow_commands) {
		refuse(a, c, "it runs commands", needs.commands_why,
		       "--allow-commands");
		return EXIT_USAGE;
	}
	if (needs.knobs && !a->me.allow_knobs) {
		refuse(a, c, "it changes the machine", needs.knobs_why,
		       "--allow-knobs");
		return EXIT_USAGE;
	}
	uuid_new(p.uuid, sizeof(p.uuid));
	if (pending_write(a, &p))
		goto give_back;
	snprintf(dir, sizeof(dir), "%s/job-%" PRId64 ".XXXXXX", a->dir, c->id);
	if (!mkdtemp(dir)) {
		error_errno("agent: cannot make a directory in '%s'", a->dir);
		pending_remove(a, &p);
		goto give_back;
	}
	job_file_name(c->name, fname, sizeof(fname));
	snprintf(file, sizeof(file), "%s/%s", dir, fname);
	if (write_file(file, c->jobfile) ||
	    (pid = spawn_run(a, c, file, p.uuid)) < 0) {
		rm_tree(dir);
		pending_remove(a, &p);
		goto give_back;
	}
	say(a, "job %" PRId64 ": running as run %s (pid %ld)", c->id, p.uuid,
	    (long)pid);
	why = watch(a, c, pid, &status);
	rm_tree(dir);
	if (why == RUN_LOST) {
		pending_remove(a, &p);
		return EXIT_RUN_FAILED;
	}
	if (why == RUN_STOPPED) {
		if (!connect_db(a) &&
		    !queue_release(a->q, c->id, c->attempt, a->me.name,
				   "its agent was stopped", false))
			pending_remove(a, &p);
		return -1;
	}
	p.exit_status = status;
	if (pending_write(a, &p))
		error("agent: job %" PRId64 ": the result is not journaled; recording it now",
		      c->id);
	rc = record(a, &p);
	if (rc < 0)
		return -1;
	return rc ? EXIT_RUN_FAILED : status ? EXIT_RUN_FAILED : EXIT_OK;
give_back:
	queue_release(a->q, c->id, c->attempt, a->me.name,
		      "its agent could not start it", false);
	return EXIT_RUN_FAILED;
}

/* ---- setting up ---- */

static bool name_ok(const char *s)
{
	size_t n = strlen(s);

	return n && n <= 64 && strspn(s, "abcdefghijklmnopqrstuvwxyz"
				       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n &&
	       *s != '.';
}

static int make_dirs(const char *path)
{
	char *bad = mkdir_p(path, 0700);

	if (!bad)
		return 0;
	error_errno("agent: cannot make the directory '%s'", bad);
	free(bad);
	return -1;
}

static void kernel_ids(struct agent *a)
{
	struct utsname u;
	json_t *b = sysenv_build_id();
	const char *id = json_string_value(sysenv_item_value(b));

	if (!uname(&u))
		snprintf(a->kernel, sizeof(a->kernel), "%s", u.release);
	if (id)
		snprintf(a->build_id, sizeof(a->build_id), "%s", id);
	json_decref(b);
	a->me.kernel = a->kernel;
	a->me.build_id = *a->build_id ? a->build_id : NULL;
}

static int setup(struct agent *a, const struct agent_opts *ao, const char *url)
{
	static struct utsname u;
	char state[PATH_MAX - 400];

	if (!store_scheme(url)->queue)
		return error("agent: the job queue lives in a PostgreSQL database (--db postgresql://...), not in the SQLite file '%s'",
			     url);
	a->url = url;
	if (uname(&u))
		snprintf(u.nodename, sizeof(u.nodename), "localhost");
	a->me.host = ao->host ? ao->host : u.nodename;
	a->me.name = ao->name ? ao->name : a->me.host;
	if (!name_ok(a->me.name))
		return error("agent: option --name: '%s' is not an agent name (1 to 64 letters, digits, '.', '_' or '-')",
			     a->me.name);
	if (!*a->me.host || strlen(a->me.host) > 255 ||
	    strpbrk(a->me.host, " \t\n/"))
		return error("agent: option --host: '%s' is not a host name (1 to 255 characters, no blank or '/')",
			     a->me.host);
	if (ao->tags) {
		const char *s = ao->tags;

		a->tags = xcalloc(strlen(s) + 2, sizeof(*a->tags));
		while (*s) {
			size_t k = strcspn(s, ",");

			if (k)
				a->tags[a->ntags++] = strndup(s, k);
			s += k + (s[k] == ',');
		}
		if (!a->ntags)
			return error("agent: option --tags: expected a comma list of tags, got '%s'",
				     ao->tags);
	}
	a->me.tags = (const char *const *)a->tags;
	a->me.ntags = a->ntags;
	a->me.allow_commands = ao->allow_commands;
	a->me.allow_knobs = ao->allow_knobs;
	a->me.lease_s = ao->lease;
	a->poll = ao->poll;
	kernel_ids(a);
	if (switch_state_dir(state, sizeof(state)))
		return error("agent: no state directory for its journal (set SCHEDLAB_STATE_DIR or HOME)");
	snprintf(a->dir, sizeof(a->dir), "%s/agent/%s", state, a->me.name);
	if (make_dirs(a->dir))
		return -1;
	if (ao->local_db)
		snprintf(a->local, sizeof(a->local), "%s", ao->local_db);
	else
		snprintf(a->local, sizeof(a->local), "%s/results.db", a->dir);
	if (!store_scheme(a->local)->file)
		return error("agent: option --local-db: expected a SQLite file, got a URL");
	return 0;
}

static void agent_usage(FILE *f)
{
	fprintf(f, "usage: schedlab agent --db URL [--name NAME] [--host NAME] [--tags T,...] [--once]\n"
		"                      [--poll SECS] [--lease SECS] [--local-db PATH]\n"
		"                      [--allow-commands] [--allow-knobs]\n\n"
		"On a test machine: claims the queue's jobs that fit it, runs each into the\n"
		"local SQLite database first, and records the run in the queue's database.\n\n"
		"Options:\n");
	opts_help(f, agent_options);
	fprintf(f, "\nExit status: 0 (--once: the job was done, or there was none), 1 the job\n"
		"failed, 2 bad options or no queue, 130 stopped by a signal.\n");
}

int cmd_agent(int argc, char **argv)
{
	struct agent_opts ao;
	struct cmd_args ca = { CMD_ARGS(agent_options, ao), .usage = agent_usage,
			       .no_operands = true };
	struct agent a = { 0 };
	struct sigaction sa = { .sa_handler = on_stop };
	int rc;
	unsigned delay = 1;

	if (cmd_parse(argc, argv, &ca, &rc) < 0)
		return rc;
	rc = EXIT_USAGE;
	if (setup(&a, &ao, ca.db))
		goto out;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (connect_db(&a))
		goto out;
	say(&a, "started on %s (kernel %s), queue %s, results first into %s",
	    a.me.host, a.kernel, store_path(a.q), a.local);
	if (recover(&a))
		goto stopped;
	rc = EXIT_OK;
	while (!stop_sig) {
		struct queue_claim c;
		int got;

		if (connect_db(&a)) {
			say(&a, "the queue is unreachable; trying again in %us", delay);
			nap(delay);
			delay = delay * 2 > 60 ? 60 : delay * 2;
			continue;
		}
		got = queue_claim(a.q, &a.me, &c);
		if (got < 0) {
			nap(delay);
			delay = delay * 2 > 60 ? 60 : delay * 2;
			continue;
		}
		delay = 1;
		if (!got) {
			if (ao.once) {
				say(&a, "nothing to do");
				break;
			}
			queue_agent_seen(a.q, a.me.name, 0);
			nap(a.poll);
			continue;
		}
		rc = take(&a, &c);
		queue_claim_free(&c);
		if (rc < 0)
			goto stopped;
		if (ao.once)
			break;
		rc = EXIT_OK;
	}
	if (stop_sig)
		goto stopped;
	goto out;
stopped:
	say(&a, "stopped by signal %d", (int)stop_sig);
	rc = EXIT_INTERRUPTED;
out:
	if (a.q) {
		if (queue_connected(a.q))
			queue_agent_seen(a.q, a.me.name, 0);
		store_close(a.q);
	}
	for (size_t i = 0; i < a.ntags; i++)
		free(a.tags[i]);
	free(a.tags);
	return rc;
}
