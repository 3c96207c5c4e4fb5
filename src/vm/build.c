// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/build.c: a kernel image for the guest, built from a commit of the
 * user's git tree (`schedlab vm build`, and the campaigns whose states
 * are commits). The user's checkout, index and branches are never
 * touched: each tree gets a folder in the cache with a clone of its own
 * (git clone --shared: the tree's objects, read in place) checked out
 * at the commit, and one build folder (make O=) reused from commit to
 * commit, so that git's checkout leaves unchanged files alone and make
 * rebuilds only what a step changed (ccache, where installed, keeps the
 * rest). The configuration is tinyconfig (or the user's .config) with
 * kvm_guest.config, the guest's fragment (vm/kconfig.c, for the tree's
 * version) and the user's items merged over it, then olddefconfig;
 * asked-for options it dropped are said. The image lands in the cache
 * under the commit and a hash of everything else that makes it -
 * configuration, fragment, items, compiler version, make variables -
 * so nothing is built twice; LOCALVERSION names the commit, so that the
 * release every run records says which commit booted. Uncommitted
 * changes are not built: a commit is what is named (`git stash create`
 * makes one of them without touching the checkout).
 *
 * Here the build run; what is checked before anything runs is
 * build_check.c's, the configuration's text build_config.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "util_git.h"
#include "vm/vm.h"
#include "vm/build_int.h"
#include "vm/vm_int.h"

static void kb_free(struct kb *k)
{
	free(k->subject);
	free(k->dir);
	free(k->src);
	free(k->out);
	free(k->log);
	free(k->image_dir);
	free(k->cc);
	free(k->cc_version);
	free(k->asked);
	if (k->lock >= 0)
		close(k->lock);
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; s && *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	h ^= 0xff;		/* a field's end: "ab"+"c" is not "a"+"bc" */
	return h * 0x100000001b3ull;
}

/* The image's folder in the cache: the commit, then a hash of what
 * else makes the image. */
static int image_key(struct kb *k, const char *cache)
{
	uint64_t h = 0xcbf29ce484222325ull;
	char *base = NULL;

	if (k->b->config) {
		long long size;
		size_t len;
		int fd = open_regular(k->b->config, &size);

		if (fd < 0)
			return -1;
		base = read_fd_all(fd, 0, &len);
		close(fd);
		if (!base || !strstr(base, "CONFIG_")) {
			free(base);
			return error("%s: option --config: %s is not a kernel configuration (no CONFIG_ line)",
				     k->who, k->b->config);
		}
	}
	h = fnv(h, KBUILD_RECIPE);
	h = fnv(h, base ? base : "tinyconfig");
	h = fnv(h, k->asked);
	h = fnv(h, k->cc);
	h = fnv(h, k->cc_version);
	for (size_t i = 0; i < k->b->nvars; i++)
		h = fnv(h, k->b->vars[i]);
	free(base);
	k->image_dir = xasprintf("%s/kbuild/images/%.12s-%016llx", cache, k->commit,
				 (unsigned long long)h);
	return 0;
}

/* The tree's folder: its name and a hash of its path. */
static int tree_dir(struct kb *k, const char *cache)
{
	const char *base = strrchr(k->tree, '/');
	char *bad;

	k->dir = xasprintf("%s/kbuild/%.40s-%08llx", cache, base && base[1] ? base + 1 : "root",
			   (unsigned long long)(fnv(0xcbf29ce484222325ull, k->tree) & 0xffffffffu));
	k->src = xasprintf("%s/src", k->dir);
	k->out = xasprintf("%s/out", k->dir);
	k->log = xasprintf("%s/build-%.12s.log", k->dir, k->commit);
	if ((bad = mkdir_p(k->out, 0700))) {
		error_errno("%s: cannot make %s", k->who, bad);
		free(bad);
		return -1;
	}
	return 0;
}

static volatile sig_atomic_t stop_sig;
static void on_stop(int sig)
{
	stop_sig = sig;
}

/* The log's last line, for the live line: into buf. */
static void log_last(const char *path, char *buf, size_t len)
{
	char tail[512];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t end = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
	ssize_t n = end < 0 ? -1 : pread(fd, tail, sizeof(tail) - 1,
					 end > (off_t)sizeof(tail) - 1 ? end - (off_t)sizeof(tail) + 1 : 0);
	char *l;

	if (fd >= 0)
		close(fd);
	*buf = '\0';
	if (n <= 0)
		return;
	tail[n] = '\0';
	while (n > 0 && tail[n - 1] == '\n')
		tail[--n] = '\0';
	l = strrchr(tail, '\n');
	l = l ? l + 1 : tail;
	snprintf(buf, len, "%s", l + strspn(l, " "));
}

/* Waits for make (pid, a process group of its own): its exit status,
 * or 130 when SIGINT or SIGTERM came (its group killed, every compiler
 * gone before this returns). live: the terminal's line, with what. */
static int kb_wait(struct kb *k, pid_t pid, const char *what, bool live)
{
	double t0 = mono_s(), shown = 0;
	int ws;

	for (;;) {
		pid_t w = waitpid(pid, &ws, WNOHANG);
		char last[160];

		if (w == pid)
			break;
		if (stop_sig) {
			killpg(pid, SIGTERM);
			for (int i = 0; i < 50 && waitpid(pid, &ws, WNOHANG) != pid; i++)
				usleep(100000);
			killpg(pid, SIGKILL);
			waitpid(pid, &ws, 0);
			for (int i = 0; i < 50 && !killpg(pid, 0); i++)
				usleep(100000);
			if (live)
				fputs("\r\033[K", stderr);
			return 130;
		}
		if (live && mono_s() - shown >= 1) {
			shown = mono_s();
			log_last(k->log, last, sizeof(last));
			fprintf(stderr, "\r\033[K  %s: %.0f s  %.60s", what, shown - t0, last);
		}
		usleep(200000);
	}
	killpg(pid, SIGKILL);	/* a compiler make left behind */
	if (live)
		fputs("\r\033[K", stderr);
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* make TARGET in the tree's clone with O=, the variables and the
 * compiler, its words appended to the log: its exit status, 130 when
 * stopped, -1 after error(). */
static int kb_make(struct kb *k, const char *target, const char *what, bool live)
{
	char *argv[32], jobs[32];
	size_t n = 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	pid_t pid;
	int rc;

	snprintf(jobs, sizeof(jobs), "-j%ld", cpus > 0 ? cpus : 1);
	argv[n++] = "make";
	argv[n++] = "-C";
	argv[n++] = k->src;
	argv[n++] = xasprintf("O=%s", k->out);
	argv[n++] = jobs;
	argv[n++] = xasprintf("CC=%s", k->cc);
	argv[n++] = xasprintf("LOCALVERSION=-g%.12s", k->commit);
	for (size_t i = 0; i < k->b->nvars && n < ARRAY_SIZE(argv) - 2; i++)
		if (strncmp(k->b->vars[i], "CC=", 3))
			argv[n++] = (char *)k->b->vars[i];
	argv[n++] = (char *)target;
	argv[n] = NULL;
	pid = vm_fork_child(k->log);
	if (pid < 0) {
		rc = -1;
	} else if (!pid) {
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execvp("make", argv);
		fprintf(stderr, "cannot run make: %s\n", strerror(errno));
		_exit(127);
	} else {
		rc = kb_wait(k, pid, what, live);
	}
	free(argv[3]);
	free(argv[5]);
	free(argv[6]);
	return rc;
}

/* The build folder's .config: base (the user's, else tinyconfig) with
 * the asked text merged over it, then olddefconfig. 0, make's status,
 * 130, or -1 after error(). */
static int configure(struct kb *k)
{
	char *cfg = xasprintf("%s/.config", k->out), *base = NULL, *merged, *final;
	size_t len;
	int rc = 0;

	if (k->b->config)
		base = read_path_all(k->b->config, &len);
	else if (!(rc = kb_make(k, "tinyconfig", "tinyconfig", false)))
		base = read_path_all(cfg, &len);
	if (!rc && !base)
		rc = error_errno("%s: cannot read %s", k->who, k->b->config ? k->b->config : cfg);
	if (!rc) {
		struct atomic_file a;
		FILE *f = atomic_open(&a, k->who, k->out, ".config");

		merged = kb_config_merge(base, k->asked);
		if (!f)
			rc = -1;
		else
			fputs(merged, f);
		free(merged);
		if (f && atomic_commit(&a, k->who))
			rc = -1;
	}
	if (!rc)
		rc = kb_make(k, "olddefconfig", "olddefconfig", false);
	if (!rc && (final = read_path_all(cfg, &len))) {
		kb_dropped_note(k, final);
		free(final);
	}
	free(base);
	free(cfg);
	return rc;
}

/* The image's record, read back: 0 when the cache has the image. */
static int cached(const struct kb *k, struct vm_built *out)
{
	char *img = xasprintf("%s/bzImage", k->image_dir);
	char *info = xasprintf("%s/info.json", k->image_dir);
	json_t *doc = access(img, R_OK) ? NULL : json_load_file(info, 0, NULL);
	double secs = 0;

	free(info);
	if (!doc || json_unpack(doc, "{s:F}", "build_s", &secs)) {
		json_decref(doc);
		free(img);
		return -1;
	}
	json_decref(doc);
	snprintf(out->commit, sizeof(out->commit), "%s", k->commit);
	out->subject = xstrdup(k->subject);
	out->image = img;
	out->build_s = secs;
	return 0;
}

static int copy_path(const struct kb *k, const char *from, const char *to)
{
	size_t len;
	char *data = read_path_all(from, &len);
	int fd = data ? open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
	int rc = fd >= 0 && !write_all(fd, data, len) ? 0 : -1;

	if (rc)
		error_errno("%s: cannot copy %s to %s", k->who, from, to);
	if (fd >= 0 && close(fd) && !rc)
		rc = error_errno("%s: cannot write %s", k->who, to);
	free(data);
	return rc;
}

/* The image, its config, its log and its record into the cache, whole
 * or not at all (a folder renamed into place): -1 after error(). */
static int install(const struct kb *k, double secs)
{
	char *tmp = xasprintf("%s.tmp-%ld", k->image_dir, (long)getpid()), *bad;
	char *img = xasprintf("%s/arch/x86/boot/bzImage", k->out);
	char *cfg = xasprintf("%s/.config", k->out);
	char *to[3] = { xasprintf("%s/bzImage", tmp), xasprintf("%s/config", tmp),
			xasprintf("%s/build.log", tmp) };
	char *info = xasprintf("%s/info.json", tmp);
	json_t *doc = json_pack("{s:s, s:s, s:s, s:f, s:s, s:s, s:i}",
				"tree", k->tree, "commit", k->commit, "subject", k->subject,
				"build_s", secs, "compiler", k->cc_version, "cc", k->cc,
				"built_at", (json_int_t)time(NULL));
	int rc = 0;

	rm_tree(tmp);
	if ((bad = mkdir_p(tmp, 0755))) {
		rc = error_errno("%s: cannot make %s", k->who, bad);
		free(bad);
	}
	if (!rc && (copy_path(k, img, to[0]) || copy_path(k, cfg, to[1]) ||
		    copy_path(k, k->log, to[2])))
		rc = -1;
	if (!rc && json_dump_file(doc, info, JSON_INDENT(2)))
		rc = error_errno("%s: cannot write %s", k->who, info);
	if (!rc && rename(tmp, k->image_dir) && errno != EEXIST && errno != ENOTEMPTY)
		rc = error_errno("%s: cannot rename %s to %s", k->who, tmp, k->image_dir);
	rm_tree(tmp);		/* left only when another build got there first */
	json_decref(doc);
	for (int i = 0; i < 3; i++)
		free(to[i]);
	free(info);
	free(img);
	free(cfg);
	free(tmp);
	return rc;
}

/* The tree's clone at the commit (made on first use): -1 after error(). */
static int checkout(struct kb *k)
{
	char *git = xasprintf("%s/.git", k->src), *out = NULL;
	int rc = 0;

	if (access(git, F_OK)) {
		const char *argv[] = { "git", "clone", "-q", "--shared", "--no-checkout",
				       k->tree, k->src, NULL };

		rm_tree(k->src);
		rc = prog_out(argv, &out);
		if (rc)
			error("%s: git clone --shared of %s failed: %s", k->who, k->tree, out);
		free(out);
	}
	if (!rc) {
		const char *args[] = { "-c", "advice.detachedHead=false", "checkout", "-q",
				       "--force", "--detach", k->commit, NULL };

		rc = git_out(k->src, &out, args);
		if (rc)
			error("%s: git checkout of %.12s in %s failed: %s", k->who, k->commit,
			      k->src, out);
		free(out);
	}
	free(git);
	return rc ? -1 : 0;
}

/* The tree's folder is one build's at a time: waits for another. */
static int lock_tree(struct kb *k)
{
	char *path = xasprintf("%s/lock", k->dir);

	k->lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	free(path);
	if (k->lock < 0)
		return error_errno("%s: cannot open %s/lock", k->who, k->dir);
	if (!flock(k->lock, LOCK_EX | LOCK_NB))
		return 0;
	if (!k->b->quiet)
		fprintf(stderr, "%s: waiting for another build in %s\n", k->who, k->dir);
	while (flock(k->lock, LOCK_EX))
		if (errno != EINTR || stop_sig)
			return stop_sig ? 130 : error_errno("%s: cannot lock %s", k->who, k->dir);
	return 0;
}

/* The log's last n lines, to stderr, indented, and its path. */
static void log_tail(const char *path, int n)
{
	size_t len;
	char *s = read_path_all(path, &len), *p;
	int lines = 0;

	for (p = s ? s + len : NULL; p && p > s; p--)
		if (p[-1] == '\n' && p != s + len && ++lines == n)
			break;
	fprintf(stderr, "  the build's last lines (%s):\n", path);
	for (char *l = p ? strtok(p, "\n") : NULL; l; l = strtok(NULL, "\n"))
		fprintf(stderr, "    %s\n", l);
	free(s);
}

/* How long the tree's last build took (0: none yet), and remembered. */
static double last_build(const struct kb *k, double secs)
{
	char *path = xasprintf("%s/last_build_s", k->dir), *text;
	size_t len;
	double last = 0;
	FILE *f;

	if (secs > 0 && (f = fopen(path, "we"))) {
		fprintf(f, "%.1f\n", secs);
		fclose(f);
	} else if ((text = read_path_all(path, &len))) {
		last = atof(text);
		free(text);
	}
	free(path);
	return last;
}

/* Configure, build and install, the tree locked: 0, 1 the build failed,
 * 130, -1 after error(). */
static int kb_run(struct kb *k, struct vm_built *out)
{
	bool live = !k->b->quiet && isatty(STDERR_FILENO);
	double t0 = mono_s(), last = last_build(k, 0), secs;
	char what[64];
	int rc;

	if (!k->b->quiet) {
		fprintf(stderr, "%s: building %.12s (%s) in %s", k->who, k->commit, k->subject, k->dir);
		if (last > 0)
			fprintf(stderr, "; the last build of this tree took %.0f s", last);
		fprintf(stderr, "\n");
	}
	unlink(k->log);
	if ((rc = checkout(k)) || (rc = configure(k)))
		goto failed;
	snprintf(what, sizeof(what), "building %.12s", k->commit);
	rc = kb_make(k, "bzImage", what, live);
	if (rc)
		goto failed;
	secs = mono_s() - t0;
	if (install(k, secs))
		return -1;
	last_build(k, secs);
	if (!k->b->quiet)
		fprintf(stderr, "%s: built %.12s in %.0f s\n", k->who, k->commit, secs);
	return cached(k, out) ? error("%s: %s is not in the cache after its build", k->who,
				      k->image_dir) : 0;
failed:
	if (rc == 130 || rc < 0)
		return rc;
	error("%s: the build of %.12s (%s) failed: make exited %d", k->who, k->commit,
	      k->subject, rc);
	log_tail(k->log, 20);
	return 1;
}

int vm_build(const char *who, const struct vm_build *b, struct vm_built *out)
{
	struct kb k = { .who = who, .b = b, .lock = -1 };
	struct sigaction sa = { .sa_handler = on_stop }, old[2];
	const char *cache;
	int rc;

	memset(out, 0, sizeof(*out));
	if (vm_build_check_args(who, b) || kb_tools_check(&k) || kb_tree_check(&k)) {
		kb_free(&k);
		return EXIT_USAGE;
	}
	kb_dirty_note(&k);
	kb_asked_text(&k);
	if (!(cache = vm_cache_dir()) || image_key(&k, cache) || tree_dir(&k, cache)) {
		kb_free(&k);
		return EXIT_USAGE;
	}
	if (!cached(&k, out)) {
		out->cached = true;
		kb_free(&k);
		return 0;
	}
	stop_sig = 0;
	sigaction(SIGINT, &sa, &old[0]);
	sigaction(SIGTERM, &sa, &old[1]);
	rc = lock_tree(&k);
	/* another build may have made it while this one waited */
	if (!rc && !cached(&k, out))
		out->cached = true;
	else if (!rc)
		rc = kb_run(&k, out);
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
	kb_free(&k);
	if (rc == 130)
		error("%s: interrupted: nothing was cached, nothing is left running", who);
	return rc < 0 ? EXIT_RUN_FAILED : rc;
}

void vm_built_free(struct vm_built *out)
{
	free(out->subject);
	free(out->image);
	memset(out, 0, sizeof(*out));
}
