// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload/external.h"
#include "workload/pgcluster.h"
#include "util.h"

static char bindir[2048];
static char root[128];		/* the run's directory, "" before pg_prepare */
static pid_t root_owner;

static const char pg_packages[] = "postgresql postgresql-contrib";

/*
 * $SCHEDLAB_PG_BINDIR, else the directory of initdb on PATH, else the
 * newest /usr/lib/postgresql/VERSION/bin (Debian keeps them off PATH).
 */
static int find_bindir(void)
{
	const char *env = getenv("SCHEDLAB_PG_BINDIR");
	char path[PATH_MAX];
	glob_t g;
	long best = -1;

	if (env && *env) {
		snprintf(bindir, sizeof(bindir), "%s", env);
		snprintf(path, sizeof(path), "%s/postgres", bindir);
		return access(path, X_OK);
	}
	if (glob("/usr/lib/postgresql/*/bin/postgres", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			long v = strtol(g.gl_pathv[i] + 20, NULL, 10);

			if (v > best && access(g.gl_pathv[i], X_OK) == 0) {
				best = v;
				snprintf(bindir, sizeof(bindir), "%.*s",
					 (int)(strrchr(g.gl_pathv[i], '/') -
					       g.gl_pathv[i]), g.gl_pathv[i]);
			}
		}
		globfree(&g);
	}
	return best >= 0 ? 0 : -1;
}

const char *pg_bin(const char *prog, char *buf, size_t len)
{
	if ((size_t)snprintf(buf, len, "%s/%s", bindir, prog) >= len)
		buf[0] = '\0';
	return buf;
}

const char *pg_root(void)
{
	return root;
}

static void remove_root(void)
{
	if (!root[0] || getpid() != root_owner)
		return;
	ext_kill_cwd(root);
	rm_tree(root);
}

/* Hands a directory to the server's user when running as root. */
static int give(const char *path)
{
	uid_t uid;
	gid_t gid;

	if (geteuid() != 0)
		return 0;
	if (ext_user(&uid, &gid))
		return errno = ESRCH, -1;
	return chown(path, uid, gid);
}

static int make_root(const char *workload)
{
	const char *base = ext_tmpbase();
	char sock[160];

	ext_sweep_stale(base);
	snprintf(root, sizeof(root), "%s/schedlab-pg.%d.XXXXXX", base,
		 (int)getpid());
	if (!mkdtemp(root)) {
		error("%s: cannot make a directory in %s for the PostgreSQL cluster: %s",
		      workload, base, strerror(errno));
		root[0] = '\0';
		return EXIT_RUN_FAILED;
	}
	root_owner = getpid();
	atexit(remove_root);
	snprintf(sock, sizeof(sock), "%s/sock", root);
	if (give(root) || mkdir(sock, 0700) || give(sock)) {
		error("%s: cannot prepare %s for the PostgreSQL server's user (postgres or nobody): %s",
		      workload, root, strerror(errno));
		return EXIT_RUN_FAILED;
	}
	return 0;
}

int pg_prepare(const char *workload, bool need_server)
{
	char path[PATH_MAX];

	if (!bindir[0] && find_bindir()) {
		bindir[0] = '\0';
		error("%s: PostgreSQL 'postgres', 'initdb' and 'pgbench' not found (in /usr/lib/postgresql/*/bin or $SCHEDLAB_PG_BINDIR); install the Debian packages %s (apt-get install %s)",
		      workload, pg_packages, pg_packages);
		return EXIT_USAGE;
	}
	if (access(pg_bin("pgbench", path, sizeof(path)), X_OK) ||
	    (need_server && access(pg_bin("initdb", path, sizeof(path)), X_OK))) {
		error("%s: %s is missing; install the Debian packages %s (apt-get install %s)",
		      workload, path, pg_packages, pg_packages);
		return EXIT_USAGE;
	}
	if (need_server && geteuid() == 0) {
		uid_t uid;
		gid_t gid;

		if (ext_user(&uid, &gid)) {
			error("%s: PostgreSQL will not run as root, and there is no user 'postgres' or 'nobody' to run it as",
			      workload);
			return EXIT_USAGE;
		}
	}
	if (need_server && !root[0])
		return make_root(workload);
	return 0;
}

/* The status line of postmaster.pid: "ready" once it accepts connections. */
static bool pm_ready(const char *data)
{
	char path[300], line[128];
	bool ready = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/postmaster.pid", data);
	f = fopen(path, "r");
	if (!f)
		return false;
	for (int i = 1; fgets(line, sizeof(line), f); i++)
		if (i == 8)
			ready = !strncmp(line, "ready", 5);
	fclose(f);
	return ready;
}

static void log_tail(const char *log, char *buf, size_t len)
{
	char text[4096];
	ssize_t n = 0;
	int fd = open(log, O_RDONLY | O_CLOEXEC);

	buf[0] = '\0';
	if (fd < 0)
		return;
	off_t size = lseek(fd, 0, SEEK_END);

	if (size > 0) {
		off_t from = size > (off_t)sizeof(text) - 1 ?
			     size - (off_t)sizeof(text) + 1 : 0;

		n = pread(fd, text, sizeof(text) - 1, from);
	}
	close(fd);
	if (n <= 0)
		return;
	text[n] = '\0';
	ext_last_line(text, buf, len);
}

static int start_server(struct wl_ctx *ctx, const char *dir,
			struct pg_server *s)
{
	char postgres[PATH_MAX], log[300], last[256];
	char *argv[] = { postgres, "-D", s->data, "-k", s->sock, "-c",
			 "listen_addresses=", NULL };
	struct ext_cmd c = { .what = "postgres", .argv = argv, .dir = dir,
			     .drop = true };
	uint64_t end = now_ns() + 60000000000ull;
	int status;

	pg_bin("postgres", postgres, sizeof(postgres));
	snprintf(log, sizeof(log), "%s/log", dir);
	c.out_fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (c.out_fd < 0)
		return wl_fail_errno(ctx, "%s", log);
	s->pid = ext_spawn(ctx, &c, NULL);
	close(c.out_fd);
	if (s->pid < 0)
		return -1;
	while (!pm_ready(s->data)) {
		if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
			s->pid = 0;
			log_tail(log, last, sizeof(last));
			return wl_fail(ctx, "postgres did not start: '%s' (%s)",
				       last, log);
		}
		if (now_ns() > end) {
			pg_stop(s);
			return wl_fail(ctx, "postgres was not ready after 60 s");
		}
		usleep(5000);
	}
	return 0;
}

static int initdb(struct wl_ctx *ctx, const char *dir, const char *data)
{
	char prog[PATH_MAX];
	/* --no-sync: a throwaway cluster need not survive a power cut */
	char *argv[] = { prog, "-D", (char *)data, "-U", PG_USER, "-A",
			 "trust", "--no-locale", "-E", "UTF8", "--no-sync",
			 NULL };
	struct ext_cmd c = { .what = "initdb", .argv = argv, .dir = dir,
			     .drop = true, .out_fd = -1 };
	struct ext_out out;
	int rc;

	pg_bin("initdb", prog, sizeof(prog));
	rc = ext_run(ctx, &c, 300, NULL, &out, NULL);
	ext_out_free(&out);
	return rc;
}

/* One data set at a time: a sweep over sizes needs room for the largest only. */
static void drop_others(const char *key)
{
	DIR *d = opendir(root);
	struct dirent *e;
	char path[400];

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "sock") ||
		    !strcmp(e->d_name, key))
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, e->d_name);
		ext_kill_cwd(path);
		rm_tree(path);
	}
	if (d)
		closedir(d);
}

int pg_start(struct wl_ctx *ctx, const char *key,
	     int (*load)(struct wl_ctx *ctx, const struct pg_server *s,
			 void *arg),
	     void *arg, struct pg_server *s)
{
	char dir[200], marker[220];
	uint64_t t0;
	int fd;

	memset(s, 0, sizeof(*s));
	s->setup_s = NAN;
	if (!root[0])
		return wl_fail(ctx, "no directory for the PostgreSQL cluster (pg_prepare was not called)");
	snprintf(dir, sizeof(dir), "%s/%s", root, key);
	snprintf(marker, sizeof(marker), "%s/loaded", dir);
	snprintf(s->sock, sizeof(s->sock), "%s/sock", root);
	snprintf(s->data, sizeof(s->data), "%s/data", dir);
	ext_kill_cwd(dir);	/* of an iteration that was killed */
	if (access(marker, F_OK) == 0)
		return start_server(ctx, dir, s);

	/* new, or left unfinished by a run that was killed */
	t0 = now_ns();
	drop_others(key);
	if (rm_tree(dir) || mkdir(dir, 0700) || give(dir))
		return wl_fail_errno(ctx, "cannot make %s", dir);
	if (initdb(ctx, dir, s->data) || start_server(ctx, dir, s))
		return -1;
	if (load(ctx, s, arg)) {
		pg_stop(s);
		return -1;
	}
	fd = open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		pg_stop(s);
		return wl_fail_errno(ctx, "%s", marker);
	}
	close(fd);
	s->setup_s = (double)(now_ns() - t0) / 1e9;
	return 0;
}

long pg_conninfo_server(const char *conninfo)
{
	const char *env_host = getenv("PGHOST"), *env_port = getenv("PGPORT");
	char host[PATH_MAX], port[16], path[PATH_MAX + 32], line[32];
	char *dup = xstrdup(conninfo), *save = NULL;
	long pid = -1;
	FILE *f;

	snprintf(host, sizeof(host), "%s", env_host && *env_host ? env_host : "/var/run/postgresql");
	snprintf(port, sizeof(port), "%s", env_port && *env_port ? env_port : "5432");
	for (char *w = strtok_r(dup, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (!strncmp(w, "host=", 5))
			snprintf(host, sizeof(host), "%s", w + 5);
		else if (!strncmp(w, "port=", 5))
			snprintf(port, sizeof(port), "%s", w + 5);
	}
	free(dup);
	/* this machine's server by TCP: its socket folder is Debian's */
	if (!strcmp(host, "localhost") || !strcmp(host, "127.0.0.1") || !strcmp(host, "::1"))
		snprintf(host, sizeof(host), "/var/run/postgresql");
	if (host[0] != '/' || strchr(port, '/'))
		return -1;
	snprintf(path, sizeof(path), "%s/.s.PGSQL.%s.lock", host, port);
	f = fopen(path, "re");
	if (f && fgets(line, sizeof(line), f))
		pid = strtol(line, NULL, 10);
	if (f)
		fclose(f);
	return pid > 0 ? pid : -1;
}

void pg_stop(struct pg_server *s)
{
	if (s->pid <= 0)
		return;
	/* SIGINT: fast shutdown, the clients are done */
	ext_stop(s->pid, SIGINT, 30000);
	s->pid = 0;
	ext_reap_all(2000);
}
