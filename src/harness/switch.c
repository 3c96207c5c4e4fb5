// SPDX-License-Identifier: GPL-2.0-only
/*
 * switch: the board of harness/switch.h - every knob of every plan
 * resolved to its file, checked, journalled (switch_journal.c), tried
 * once, then written and put back around each iteration; the cgroups
 * cgroup.c creates; a sched_ext scheduler started and stopped.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/cgroup.h"
#include "harness/switch_int.h"
#include "util.h"

#define SCHED_DIR	"/sys/kernel/debug/sched"
#define FEATURES	SCHED_DIR "/features"
#define SCX_DIR		"/sys/kernel/sched_ext"
#define SCX_STATE	SCX_DIR "/state"

/* One file (or one feature of the features file) the plans change. */
struct knob {
	char *key;		/* the key that first named it, for messages */
	char *path;
	char *feature;		/* sched_feat: the feature; NULL: a file */
	char *orig;		/* the file's value, or the feature's word */
	size_t plan;		/* the plan that first named it */
	char **tried;		/* the values prepare wrote once */
	size_t ntried;
	bool dirty;		/* written since its original was put back */
	bool warned;		/* a failed restore said */
};

/* One write of an apply: knob k gets value. */
struct op {
	size_t knob;
	char *value;
	char *key;		/* the setting's key, for messages */
};

struct case_sw {
	struct op *ops;
	size_t nops;
	char **scx;		/* argv of the sched_ext scheduler; NULL: none */
	size_t cg;		/* its cgroup + 1 in cgs; 0: none */
};

struct plan_sw {
	struct case_sw *cases;
	size_t n;
};

struct switchboard {
	pid_t owner;
	struct knob *knobs;
	size_t nknobs;
	struct plan_sw *plans;
	size_t nplans;
	struct cgroup_set *cgs;
	size_t ncgs, created;	/* cgroup sets planned, created */
	struct journal_file jf;
	pid_t scx_pid;		/* a running scheduler; 0: none */
	int scx_fd;		/* its pidfd; -1: none */
	uint64_t apply_ns;
	double last_us;
	struct switchboard *next;	/* the open boards, for atexit */
};

/* The boards not closed yet: what an exit() on a fatal path closes. */
static struct switchboard *open_boards;

ssize_t knob_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	size_t n = 0;

	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t r = read(fd, buf + n, len - 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		if (!r)
			break;
		n += (size_t)r;
		if (n == len - 1) {
			close(fd);
			errno = EFBIG;
			return -1;
		}
	}
	close(fd);
	if (n && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return (ssize_t)n;
}

int knob_write(const char *path, const char *value)
{
	size_t n = strlen(value);
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK), e;
	ssize_t w;

	if (fd < 0)
		return -1;
	do
		w = write(fd, value, n);
	while (w < 0 && errno == EINTR);
	e = errno;
	if (close(fd) && w >= 0) {
		e = errno;
		w = -1;
	}
	if (w >= 0 && (size_t)w != n) {
		e = EIO;
		w = -1;
	}
	errno = e;
	return w < 0 ? -1 : 0;
}

static const char *plan_name(const char *const *names, size_t k, char *buf,
			     size_t len)
{
	if (names && names[k])
		snprintf(buf, len, "%s: ", names[k]);
	else
		buf[0] = '\0';
	return buf;
}

/* Words of s split on blanks, NULL-terminated and malloc'ed. */
static char **split_words(const char *s)
{
	char **w = NULL;
	size_t n = 0;

	for (;;) {
		size_t len;

		s += strspn(s, " \t");
		len = strcspn(s, " \t");
		if (!len)
			break;
		w = xrealloc(w, (n + 2) * sizeof(*w));
		w[n++] = strndup(s, len);
		if (!w[n - 1])
			abort();
		w[n] = NULL;
		s += len;
	}
	return w;
}

static void free_words(char **w)
{
	for (size_t i = 0; w && w[i]; i++)
		free(w[i]);
	free(w);
}

/* A knob's file: malloc'ed; NULL after error() (names the plan). */
static char *knob_path(const char *who, const char *key)
{
	char *p, real[PATH_MAX];

	if (!strcmp(key, "sched_feat"))
		return xstrdup(FEATURES);
	if (!strncmp(key, "sysctl.", 7) || !strncmp(key, "sched.", 6)) {
		bool sysctl = !strncmp(key, "sysctl.", 7);
		const char *name = strchr(key, '.') + 1;

		if (asprintf(&p, "%s/%s", sysctl ? "/proc/sys" : SCHED_DIR,
			     name) < 0)
			abort();
		for (char *s = p + strlen(p) - strlen(name); *s; s++)
			if (*s == '.')
				*s = '/';
		return p;
	}
	/* a path: the file it names must be under /proc or /sys */
	if (!realpath(key, real)) {
		if (errno == ENOENT) {
			error("%s%s: %s does not exist", who, key, key);
			return NULL;
		}
		error("%s%s: %s: %s", who, key, key, strerror(errno));
		return NULL;
	}
	if (strncmp(real, "/proc/", 6) && strncmp(real, "/sys/", 5)) {
		error("%s%s: it leads to %s, outside /proc and /sys (expected a file under /proc or /sys)",
		      who, key, real);
		return NULL;
	}
	return xstrdup(real);
}

static bool debugfs_path(const char *path)
{
	return !strncmp(path, "/sys/kernel/debug/", 18);
}

/* Why writing key's file failed (errno e), for messages. */
static void write_refused(char *buf, size_t len, const char *path, int e)
{
	if ((e == EPERM || e == EACCES) && geteuid())
		snprintf(buf, len, "writing needs root (euid %u)",
			 (unsigned)geteuid());
	else if ((e == EPERM || e == EACCES) && debugfs_path(path))
		snprintf(buf, len, "the kernel refuses writes (debugfs locked down?)");
	else if (e == EPERM || e == EACCES)
		snprintf(buf, len, "%s cannot be written (%s)", path, strerror(e));
	else
		snprintf(buf, len, "the kernel refuses the value (%s)", strerror(e));
}

/* The file's checks: it exists, is a file, can be read and written. */
static int check_file(const char *who, const char *key, const char *path,
		      char *orig, size_t len)
{
	struct stat st;
	char why[200];
	int fd;

	if (stat(path, &st)) {
		if (errno != ENOENT)
			return error("%s%s: %s: %s", who, key, path, strerror(errno));
		if (debugfs_path(path) && access(SCHED_DIR, F_OK))
			return error("%s%s: %s does not exist (is debugfs mounted on /sys/kernel/debug?)",
				     who, key, path);
		return error("%s%s: %s does not exist", who, key, path);
	}
	if (!S_ISREG(st.st_mode))
		return error("%s%s: %s is not a file", who, key, path);
	if (knob_read(path, orig, len) < 0) {
		if (debugfs_path(path) && (errno == EPERM || errno == EACCES))
			return error("%s%s: the kernel refuses to read %s (debugfs locked down?)",
				     who, key, path);
		return error("%s%s: %s cannot be read: %s", who, key, path,
			     errno == EFBIG ? "it holds more than 8 KiB" :
			     strerror(errno));
	}
	if (geteuid() && access(path, W_OK))
		return error("%s%s: writing needs root (euid %u)", who, key,
			     (unsigned)geteuid());
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;

		write_refused(why, sizeof(why), path, e);
		if (e != EPERM && e != EACCES)
			snprintf(why, sizeof(why), "%s cannot be written (%s)",
				 path, strerror(e));
		return error("%s%s: %s", who, key, why);
	}
	close(fd);
	return 0;
}

/* A feature's state in the features file's text: its word, or NULL. */
static char *feature_word(const char *text, const char *feat)
{
	char **w = split_words(text), *found = NULL;

	for (size_t i = 0; w && w[i] && !found; i++) {
		const char *f = strncmp(w[i], "NO_", 3) ? w[i] : w[i] + 3;

		if (!strcmp(f, feat))
			found = xstrdup(w[i]);
	}
	free_words(w);
	return found;
}

/*
 * A sysfs choice list ("always [madvise] never", an I/O scheduler's
 * "none [mq-deadline]"): the one word in brackets, the value to write
 * back, malloc'ed; NULL when text is not one.
 */
static char *chosen_word(const char *text)
{
	char **w = split_words(text), *found = NULL;
	size_t n = 0, chosen = 0;

	for (; w && w[n]; n++) {
		size_t len = strlen(w[n]);

		if (len > 2 && w[n][0] == '[' && w[n][len - 1] == ']') {
			chosen++;
			free(found);
			found = strndup(w[n] + 1, len - 2);
		}
	}
	free_words(w);
	if (n < 2 || chosen != 1) {
		free(found);
		return NULL;
	}
	return found;
}

static size_t find_knob(struct switchboard *sb, const char *path,
			const char *feat)
{
	for (size_t i = 0; i < sb->nknobs; i++)
		if (!strcmp(sb->knobs[i].path, path) &&
		    !strcmp(sb->knobs[i].feature ? sb->knobs[i].feature : "",
			    feat ? feat : ""))
			return i;
	return SIZE_MAX;
}

/* The knob of path (and feature), new ones checked: its index or -1. */
static ssize_t knob_of(struct switchboard *sb, size_t plan, const char *who,
		       const char *key, const char *path, const char *feat)
{
	char buf[KNOB_MAX];
	size_t i = find_knob(sb, path, feat);
	struct knob k = { .plan = plan };

	if (i != SIZE_MAX)
		return (ssize_t)i;
	if (check_file(who, key, path, buf, sizeof(buf)))
		return -1;
	if (feat) {
		k.orig = feature_word(buf, feat);
		if (!k.orig)
			return error("%s%s: %s has no feature %s (it has: %s)",
				     who, key, path, feat, buf);
	} else {
		k.orig = chosen_word(buf);
		if (!k.orig)
			k.orig = xstrdup(buf);
	}
	k.key = xstrdup(key);
	k.path = xstrdup(path);
	k.feature = feat ? xstrdup(feat) : NULL;
	sb->knobs = xrealloc(sb->knobs, (sb->nknobs + 1) * sizeof(*sb->knobs));
	sb->knobs[sb->nknobs] = k;
	return (ssize_t)sb->nknobs++;
}

static void add_op(struct case_sw *cs, size_t knob, const char *value,
		   const char *key)
{
	cs->ops = xrealloc(cs->ops, (cs->nops + 1) * sizeof(*cs->ops));
	cs->ops[cs->nops++] = (struct op){ knob, xstrdup(value), xstrdup(key) };
}

/* Whether file (a program's name) can be run, as execvp finds it. */
static bool runnable(const char *file)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(file, '/'))
		return !access(file, X_OK);
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, n ? p : ".", file);
		if (!access(buf, X_OK))
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

static int check_scx(const char *who, const char *value, char ***argv)
{
	char state[64];

	if (access(SCX_DIR, F_OK))
		return error("%sscx: this kernel has no sched_ext (%s does not exist)",
			     who, SCX_DIR);
	if (geteuid())
		return error("%sscx: loading a sched_ext scheduler needs root (euid %u)",
			     who, (unsigned)geteuid());
	if (knob_read(SCX_STATE, state, sizeof(state)) < 0)
		return error("%sscx: %s cannot be read: %s", who, SCX_STATE,
			     strerror(errno));
	if (strcmp(state, "disabled"))
		return error("%sscx: sched_ext is %s already (%s): another scheduler is loaded",
			     who, state, SCX_STATE);
	*argv = split_words(value);
	if (!runnable((*argv)[0])) {
		error("%sscx: %s: no such program (in PATH)", who, (*argv)[0]);
		free_words(*argv);
		*argv = NULL;
		return -1;
	}
	return 0;
}

/* The knob and scx settings of case c of plan p into cs: 0 or -1. */
static int resolve_case(struct switchboard *sb, size_t p, const char *who,
			const struct plan_case *c, struct case_sw *cs)
{
	for (size_t s = 0; s < c->nset; s++) {
		const char *key = c->set[s].key, *value = c->set[s].value;
		enum setting_kind kind = setting_kind(key);
		ssize_t k;

		if (kind == SETTING_SCX) {
			if (!cs->scx && check_scx(who, value, &cs->scx))
				return -1;
			continue;
		}
		if (kind != SETTING_KNOB)
			continue;
		if (!strcmp(key, "sched_feat")) {
			char **w = split_words(value);

			for (size_t i = 0; w && w[i]; i++) {
				const char *f = strncmp(w[i], "NO_", 3) ? w[i] :
						w[i] + 3;

				k = knob_of(sb, p, who, key, FEATURES, f);
				if (k < 0) {
					free_words(w);
					return -1;
				}
				add_op(cs, (size_t)k, w[i], key);
			}
			free_words(w);
			continue;
		}
		char *path = knob_path(who, key);

		if (!path)
			return -1;
		k = knob_of(sb, p, who, key, path, NULL);
		free(path);
		if (k < 0)
			return -1;
		add_op(cs, (size_t)k, value, key);
	}
	return 0;
}

/* The cgroup.* settings of c: a run of them, the settings being sorted. */
static const struct setting *cgroup_settings(const struct plan_case *c,
					     size_t *n)
{
	size_t first = 0;

	while (first < c->nset &&
	       setting_kind(c->set[first].key) != SETTING_CGROUP)
		first++;
	*n = 0;
	while (first + *n < c->nset &&
	       setting_kind(c->set[first + *n].key) == SETTING_CGROUP)
		(*n)++;
	return *n ? &c->set[first] : NULL;
}

static bool same_settings(const struct setting *a, size_t na,
			  const struct setting *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i].key, b[i].key) || strcmp(a[i].value, b[i].value))
			return false;
	return true;
}

/*
 * The cgroup sets of plan p: one per distinct list of cgroup settings,
 * each case's cs->cg pointing at its own. 0 or -1.
 */
static int plan_cgroups(struct switchboard *sb, const struct plan *plan,
			struct plan_sw *ps, const char *name)
{
	for (size_t i = 0; i < plan->ncases; i++) {
		const struct setting *set = NULL;
		size_t n, j;
		char dir[64];
		int rc;

		set = cgroup_settings(&plan->cases[i], &n);
		if (!n)
			continue;
		for (j = 0; j < i; j++) {
			const struct setting *o;
			size_t on;

			o = cgroup_settings(&plan->cases[j], &on);
			if (on && same_settings(set, n, o, on))
				break;
		}
		if (j < i) {
			ps->cases[i].cg = ps->cases[j].cg;
			continue;
		}
		snprintf(dir, sizeof(dir), "schedlab-%ld-%zu", (long)getpid(),
			 sb->ncgs + 1);
		sb->cgs = xrealloc(sb->cgs, (sb->ncgs + 1) * sizeof(*sb->cgs));
		memset(&sb->cgs[sb->ncgs], 0, sizeof(*sb->cgs));
		if (name)
			error_context("%s", name);
		rc = cgroup_plan(set, n, dir, &sb->cgs[sb->ncgs]);
		if (name)
			error_context(NULL);
		if (rc) {
			cgroup_set_free(&sb->cgs[sb->ncgs]);
			return -1;
		}
		ps->cases[i].cg = ++sb->ncgs;
	}
	return 0;
}

/* Writes each knob's values once and puts the original back: 0 or -1. */
static int try_values(struct switchboard *sb, const char *const *names)
{
	char who[128], got[KNOB_MAX], why[200];

	for (size_t p = 0; p < sb->nplans; p++) {
		plan_name(names, p, who, sizeof(who));
		for (size_t c = 0; c < sb->plans[p].n; c++) {
			const struct case_sw *cs = &sb->plans[p].cases[c];

			for (size_t o = 0; o < cs->nops; o++) {
				const struct op *op = &cs->ops[o];
				struct knob *k = &sb->knobs[op->knob];
				size_t t = 0;
				char *now = NULL;

				while (t < k->ntried && strcmp(k->tried[t], op->value))
					t++;
				if (t < k->ntried)
					continue;
				k->tried = xrealloc(k->tried, (k->ntried + 1) *
						    sizeof(*k->tried));
				k->tried[k->ntried++] = xstrdup(op->value);
				k->dirty = true;
				if (knob_write(k->path, op->value)) {
					write_refused(why, sizeof(why), k->path, errno);
					return error("%s%s=%s: %s", who, op->key,
						     op->value, why);
				}
				if (knob_read(k->path, got, sizeof(got)) >= 0) {
					if (k->feature)
						now = feature_word(got, k->feature);
					else if (!(now = chosen_word(got)))
						now = xstrdup(got);
				}
				if (now && strcmp(now, op->value))
					warning("%s%s=%s reads back as %s", who,
						op->key, op->value, now);
				free(now);
				if (knob_write(k->path, k->orig))
					return error("%s%s: cannot put back '%s' in %s: %s",
						     who, op->key, k->orig, k->path,
						     strerror(errno));
				k->dirty = false;
			}
		}
	}
	return 0;
}

static int scx_signal(struct switchboard *sb, int sig)
{
	if (sb->scx_fd >= 0)
		return (int)syscall(SYS_pidfd_send_signal, sb->scx_fd, sig,
				    NULL, 0);
	return kill(sb->scx_pid, sig);
}

/*
 * Waits up to ms for the scheduler to end: 1 when it has (or was
 * reaped by someone else: supervise's reaper of what a case left).
 */
static int scx_gone(struct switchboard *sb, unsigned ms, int *status)
{
	for (unsigned t = 0; ; t += 10) {
		pid_t r = waitpid(sb->scx_pid, status, WNOHANG);

		if (r == sb->scx_pid || (r < 0 && errno == ECHILD))
			return 1;
		if (t >= ms)
			return 0;
		usleep(10000);
	}
}

/* Waits up to ms for sched_ext's state to read want: 0, or -1. */
static int scx_wait_state(const char *want, unsigned ms, char *state,
			  size_t len, struct switchboard *sb, int *exited)
{
	int status;

	for (unsigned t = 0; ; t += 10) {
		if (knob_read(SCX_STATE, state, len) < 0)
			snprintf(state, len, "unreadable");
		if (!strcmp(state, want))
			return 0;
		if (sb && scx_gone(sb, 0, &status)) {
			*exited = status;
			return -1;
		}
		if (t >= ms)
			return -1;
		usleep(10000);
	}
}

static void scx_stop(struct switchboard *sb)
{
	char state[64];
	int status;

	if (!sb->scx_pid)
		return;
	scx_signal(sb, SIGINT);
	if (!scx_gone(sb, 5000, &status)) {
		scx_signal(sb, SIGKILL);
		while (waitpid(sb->scx_pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	if (sb->scx_fd >= 0)
		close(sb->scx_fd);
	sb->scx_pid = 0;
	sb->scx_fd = -1;
	if (scx_wait_state("disabled", 5000, state, sizeof(state), NULL, NULL))
		warning("scx: sched_ext is still %s 5 s after its scheduler ended",
			state);
}

static int scx_start(struct switchboard *sb, char **argv, char *err,
		     size_t len)
{
	pid_t parent = getpid(), pid;
	char state[64];
	int exited = -1;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, len, "scx: fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		sigset_t none;
		int null = open("/dev/null", O_RDWR);

		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		setpgid(0, 0);	/* a terminal's ^C is schedlab's to pass on */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (null >= 0) {
			/* its statistics would mix with schedlab's output */
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "schedlab: scx: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	sb->scx_pid = pid;
	sb->scx_fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (!scx_wait_state("enabled", 10000, state, sizeof(state), sb, &exited))
		return 0;
	if (exited >= 0) {
		sb->scx_pid = 0;
		if (sb->scx_fd >= 0)
			close(sb->scx_fd);
		sb->scx_fd = -1;
		snprintf(err, len, "scx: %s exited (%s %d) before sched_ext was enabled",
			 argv[0], WIFSIGNALED(exited) ? "signal" : "status",
			 WIFSIGNALED(exited) ? WTERMSIG(exited) : WEXITSTATUS(exited));
		return -1;
	}
	scx_stop(sb);
	snprintf(err, len, "scx: %s did not enable sched_ext in 10 s (state: %s)",
		 argv[0], state);
	return -1;
}

int switch_apply(struct switchboard *sb, size_t p, size_t c, char *err,
		 size_t len)
{
	const struct case_sw *cs;
	uint64_t t0 = now_ns();
	char why[200];

	if (!sb)
		return 0;
	cs = &sb->plans[p].cases[c];
	sb->apply_ns = 0;
	for (size_t o = 0; o < cs->nops; o++) {
		struct knob *k = &sb->knobs[cs->ops[o].knob];

		k->dirty = true;
		if (knob_write(k->path, cs->ops[o].value)) {
			write_refused(why, sizeof(why), k->path, errno);
			snprintf(err, len, "%s=%s: %s", cs->ops[o].key,
				 cs->ops[o].value, why);
			sb->apply_ns = now_ns() - t0;
			return -1;
		}
	}
	if (cs->scx && scx_start(sb, cs->scx, err, len)) {
		sb->apply_ns = now_ns() - t0;
		return -1;
	}
	sb->apply_ns = now_ns() - t0;
	return 0;
}

/* k's original back: 0, or -1 after a warning (once a knob). */
static int put_back(struct knob *k)
{
	if (!k->dirty)
		return 0;
	if (!knob_write(k->path, k->orig)) {
		k->dirty = false;
		return 0;
	}
	if (!k->warned)
		warning("%s: cannot put back '%s' in %s: %s", k->key, k->orig,
			k->path, strerror(errno));
	k->warned = true;
	return -1;
}

void switch_restore(struct switchboard *sb, size_t p, size_t c)
{
	const struct case_sw *cs;
	uint64_t t0 = now_ns();

	if (!sb)
		return;
	cs = &sb->plans[p].cases[c];
	scx_stop(sb);
	for (size_t o = cs->nops; o-- > 0;)
		put_back(&sb->knobs[cs->ops[o].knob]);
	sb->last_us = (double)(sb->apply_ns + (now_ns() - t0)) / 1e3;
}

double switch_last_us(const struct switchboard *sb)
{
	return sb ? sb->last_us : 0;
}

bool switch_keeps(pid_t pid)
{
	for (struct switchboard *sb = open_boards; sb; sb = sb->next)
		if (sb->scx_pid && sb->scx_pid == pid && sb->owner == getpid())
			return true;
	return false;
}

static void free_board(struct switchboard *sb)
{
	for (size_t i = 0; i < sb->nknobs; i++) {
		free(sb->knobs[i].key);
		free(sb->knobs[i].path);
		free(sb->knobs[i].feature);
		free(sb->knobs[i].orig);
		for (size_t t = 0; t < sb->knobs[i].ntried; t++)
			free(sb->knobs[i].tried[t]);
		free(sb->knobs[i].tried);
	}
	free(sb->knobs);
	for (size_t p = 0; p < sb->nplans; p++) {
		for (size_t c = 0; c < sb->plans[p].n; c++) {
			struct case_sw *cs = &sb->plans[p].cases[c];

			for (size_t o = 0; o < cs->nops; o++) {
				free(cs->ops[o].value);
				free(cs->ops[o].key);
			}
			free(cs->ops);
			free_words(cs->scx);
		}
		free(sb->plans[p].cases);
	}
	free(sb->plans);
	for (size_t i = 0; i < sb->ncgs; i++)
		cgroup_set_free(&sb->cgs[i]);
	free(sb->cgs);
	free(sb);
}

int switch_close(struct switchboard *sb)
{
	int bad = 0;

	if (!sb)
		return 0;
	if (sb->owner != getpid())
		return 0;	/* a forked child's copy: the parent's to close */
	scx_stop(sb);
	for (size_t i = sb->nknobs; i-- > 0;)
		if (put_back(&sb->knobs[i]))
			bad = 1;
	for (size_t i = 0; i < sb->created; i++)
		if (cgroup_remove(&sb->cgs[i]))
			bad = 1;
	if (bad && sb->jf.path)
		warning("the restore journal %s stays: the next schedlab puts back what it can",
			sb->jf.path);
	journal_close(&sb->jf, !bad);
	for (struct switchboard **b = &open_boards; *b; b = &(*b)->next)
		if (*b == sb) {
			*b = sb->next;
			break;
		}
	free_board(sb);
	return bad ? -1 : 0;
}

/* At exit (a fatal error's exit()): every board this process opened. */
static void close_open_boards(void)
{
	struct switchboard **b = &open_boards;

	while (*b) {
		if ((*b)->owner == getpid())
			switch_close(*b);	/* unlinks itself */
		else
			b = &(*b)->next;
	}
}

/* The journal of sb: every original and cgroup; 0, or -1 after error(). */
static int write_journal(struct switchboard *sb, const char *const *names)
{
	struct journal j = { 0 };
	char who[128];
	long other = 0;
	size_t item = 0;
	int rc;

	for (size_t i = 0; i < sb->nknobs; i++)
		journal_add(&j, sb->knobs[i].feature ? JOURNAL_FEATURE :
			    JOURNAL_FILE, sb->knobs[i].path, sb->knobs[i].orig);
	for (size_t i = 0; i < sb->ncgs; i++)
		for (size_t d = 0; d < sb->cgs[i].ndirs; d++)
			journal_add(&j, JOURNAL_CGROUP, sb->cgs[i].dirs[d], NULL);
	if (!j.n) {
		journal_free(&j);
		return 0;	/* scx alone: the kernel unloads it with its loader */
	}
	rc = journal_open(&j, &sb->jf, &other, &item);
	if (rc == 1) {
		/* the items are the knobs, in order, then the cgroups */
		bool knob = item < sb->nknobs;

		error("%s%s: schedlab pid %ld is switching %s too; run one at a time",
		      knob ? plan_name(names, sb->knobs[item].plan, who,
				       sizeof(who)) : "",
		      knob ? sb->knobs[item].key : "cgroup", other,
		      j.items[item].path);
	}
	journal_free(&j);
	return rc ? -1 : 0;
}

int switch_prepare(struct plan *plans, size_t n, const char *const *names,
		   struct switchboard **out)
{
	static bool registered;
	struct switchboard *sb = xcalloc(1, sizeof(*sb));
	bool any = false;
	char who[128];

	*out = NULL;
	sb->owner = getpid();
	sb->scx_fd = -1;
	sb->jf.fd = -1;
	sb->plans = xcalloc(n, sizeof(*sb->plans));
	sb->nplans = n;
	for (size_t p = 0; p < n; p++) {
		struct plan_sw *ps = &sb->plans[p];

		plan_name(names, p, who, sizeof(who));
		ps->cases = xcalloc(plans[p].ncases, sizeof(*ps->cases));
		ps->n = plans[p].ncases;
		for (size_t c = 0; c < ps->n; c++) {
			if (resolve_case(sb, p, who, &plans[p].cases[c],
					 &ps->cases[c]))
				goto fail;
			any |= ps->cases[c].nops || ps->cases[c].scx;
		}
		if (plan_cgroups(sb, &plans[p], ps, names ? names[p] : NULL))
			goto fail;
	}
	if (!any && !sb->ncgs) {
		free_board(sb);
		return 0;
	}
	/* nothing changed yet: the journal first */
	if (write_journal(sb, names))
		goto fail;
	if (!registered) {
		atexit(close_open_boards);
		registered = true;
	}
	sb->next = open_boards;
	open_boards = sb;
	for (; sb->created < sb->ncgs; sb->created++) {
		const char *name = NULL;
		int rc;

		for (size_t p = 0; p < n && !name; p++)
			for (size_t c = 0; c < sb->plans[p].n && !name; c++)
				if (sb->plans[p].cases[c].cg == sb->created + 1)
					name = names ? names[p] : NULL;
		if (name)
			error_context("%s", name);
		rc = cgroup_create(&sb->cgs[sb->created]);
		if (name)
			error_context(NULL);
		if (rc)
			goto close;
	}
	if (try_values(sb, names))
		goto close;
	for (size_t p = 0; p < n; p++)
		for (size_t c = 0; c < sb->plans[p].n; c++) {
			struct task_settings *ts = &plans[p].cases[c].task;
			const struct cgroup_set *cg;

			if (!sb->plans[p].cases[c].cg)
				continue;
			cg = &sb->cgs[sb->plans[p].cases[c].cg - 1];
			ts->cgroup_procs = xcalloc(cg->ndirs, sizeof(char *));
			for (size_t d = 0; d < cg->ndirs; d++)
				ts->cgroup_procs[d] = xstrdup(cg->procs[d]);
			ts->ncgroup_procs = cg->ndirs;
		}
	*out = sb;
	return 0;
close:
	switch_close(sb);
	return -1;
fail:
	free_board(sb);
	return -1;
}
