// SPDX-License-Identifier: GPL-2.0-only
/*
 * history_order.c: the orders of `schedlab history`'s series
 * (history/history.h): time, kernel release, commit; their names; and
 * the job file a run was run from, for the judge line of a change point.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "history/history.h"
#include "util.h"

extern char **environ;

const char *const history_by_names[] = { "time", "commit", "kernel", NULL };

/* git -C DIR rev-list --topo-order --reverse HEAD, its output in *out. */
static int rev_list(const char *repo, char **out)
{
	char *argv[] = { "git", "-C", (char *)(repo ? repo : "."), "rev-list",
			 "--topo-order", "--reverse", "HEAD", NULL };
	posix_spawn_file_actions_t fa;
	size_t len = 0, cap = 1 << 16;
	char *buf = xmalloc(cap);
	int fds[2], status, err;
	ssize_t r;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return error_errno("history: pipe");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	err = posix_spawnp(&pid, "git", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (err) {
		close(fds[0]);
		free(buf);
		return error("history: --by commit: cannot run git (%s; apt-get install git)",
			     strerror(err));
	}
	while ((r = read(fds[0], buf + len, cap - len - 1)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		len += (size_t)r;
		if (len + 1 == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	close(fds[0]);
	buf[len] = '\0';
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char *nl;

		buf[strcspn(buf, "\n")] = '\0';
		nl = buf;
		error("history: --by commit: %s is not a git repository with commits (git: %s)",
		      repo ? repo : "the current directory", *nl ? nl : "failed");
		free(buf);
		return -1;
	}
	*out = buf;
	return 0;
}

static const struct history_order *sort_ord;

static int by_hash(const void *a, const void *b)
{
	return strcmp(sort_ord->commits[*(const size_t *)a],
		      sort_ord->commits[*(const size_t *)b]);
}

static int load_commits(const char *repo, struct history_order *ord)
{
	size_t cap = 0;
	char *line, *save;

	if (rev_list(repo, &ord->text))
		return -1;
	for (line = strtok_r(ord->text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (ord->n == cap) {
			cap = cap ? 2 * cap : 256;
			ord->commits = xrealloc(ord->commits, cap * sizeof(*ord->commits));
		}
		ord->commits[ord->n++] = line;
	}
	ord->sorted = xcalloc(ord->n + 1, sizeof(*ord->sorted));
	for (size_t i = 0; i < ord->n; i++)
		ord->sorted[i] = i;
	sort_ord = ord;
	qsort(ord->sorted, ord->n, sizeof(*ord->sorted), by_hash);
	return 0;
}

/*
 * The position in the rev-list of the commit label names - an
 * abbreviated hash (4 hex digits or more) or git describe's
 * TAG-N-gHASH - or -1 when it names none or more than one.
 */
static long commit_of(const struct history_order *ord, const char *label)
{
	const char *hex = label, *g = strstr(label, "-g");
	size_t lo = 0, hi = ord->n, len;

	for (const char *p; g && (p = strstr(g + 2, "-g")); g = p)
		;
	if (g && g[2] && !g[2 + strspn(g + 2, "0123456789abcdef")])
		hex = g + 2;
	len = strlen(hex);
	if (len < 4 || hex[strspn(hex, "0123456789abcdef")])
		return -1;
	while (lo < hi) {	/* the first hash >= hex */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ord->commits[ord->sorted[mid]], hex) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ord->n || strncmp(ord->commits[ord->sorted[lo]], hex, len))
		return -1;
	if (lo + 1 < ord->n && !strncmp(ord->commits[ord->sorted[lo + 1]], hex, len))
		return -1;	/* ambiguous */
	return (long)ord->sorted[lo];
}

struct keyed {
	struct history_run run;
	long pos;		/* BY_COMMIT: rev-list position */
};

static enum history_by sort_by;

/* By commit or kernel; ties in start order (the store's). */
static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int d = 0;

	if (sort_by == BY_COMMIT)
		d = (x->pos > y->pos) - (x->pos < y->pos);
	else
		d = strverscmp(x->run.c->kernel, y->run.c->kernel);
	if (d)
		return d;
	return (x->run.c > y->run.c) - (x->run.c < y->run.c);
}

static void leave_out(struct history *h, const struct store_series_case *c)
{
	for (size_t i = 0; i < h->nleft; i++)
		if (h->left[i].run_id == c->run_id)
			return;
	h->left = xrealloc(h->left, (h->nleft + 1) * sizeof(*h->left));
	h->left[h->nleft++] = (struct history_left){ c->run_id, c->label };
}

static void say_left(const struct history *h)
{
	size_t len = 64;
	char *s, *p;

	if (!h->nleft)
		return;
	for (size_t i = 0; i < h->nleft && i < 10; i++)
		len += (h->left[i].label ? strlen(h->left[i].label) : 1) + 32;
	s = p = xmalloc(len);
	for (size_t i = 0; i < h->nleft && i < 10; i++)
		p += sprintf(p, "%s%lld '%s'", i ? ", " : "", (long long)h->left[i].run_id,
			     h->left[i].label ? h->left[i].label : "-");
	if (h->nleft > 10)
		strcpy(p, ", ...");
	warning("history: %zu run%s left out, %s: %s", h->nleft, h->nleft == 1 ? "" : "s",
		h->left_why, s);
	free(s);
}

int history_order(struct history *h, const char *repo, struct history_order *ord)
{
	static char why[4200];
	size_t kept = 0;

	if (h->by == BY_TIME)
		return 0;
	if (h->by == BY_COMMIT) {
		if (load_commits(repo, ord))
			return -1;
		h->repo = repo ? repo : ".";
		snprintf(why, sizeof(why), "their label is not a commit of %s",
			 repo ? repo : "the current directory's repository");
	} else {
		snprintf(why, sizeof(why), "their environment has no kernel release");
	}
	h->left_why = why;
	sort_by = h->by;
	for (size_t k = 0; k < h->nseries; k++) {
		struct history_series *s = &h->series[k];
		struct keyed *v = xcalloc(s->n + 1, sizeof(*v));
		size_t n = 0;

		for (size_t i = 0; i < s->n; i++) {
			const struct store_series_case *c = s->runs[i].c;
			long pos = -1;

			if (h->by == BY_COMMIT)
				pos = c->label ? commit_of(ord, c->label) : -1;
			if (h->by == BY_COMMIT ? pos < 0 : !c->kernel) {
				leave_out(h, c);
				continue;
			}
			v[n].run = s->runs[i];
			v[n].pos = pos;
			if (pos >= 0)
				v[n].run.commit = ord->commits[pos];
			n++;
		}
		qsort(v, n, sizeof(*v), by_key);
		for (size_t i = 0; i < n; i++)
			s->runs[i] = v[i].run;
		s->n = n;
		free(v);
		if (n)
			h->series[kept++] = *s;
		else
			free(s->name), free(s->runs), free(s->why);
	}
	h->nseries = kept;
	if (!kept)
		return error("history: no run of job '%s' is left to order by %s: %s",
			     h->job, history_by_names[h->by], why);
	say_left(h);
	return 0;
}

void history_order_free(struct history_order *ord)
{
	free(ord->text);
	free(ord->commits);
	free(ord->sorted);
	memset(ord, 0, sizeof(*ord));
}

/* The next shell word of *p (argv_join()'s quoting: '...', '\''), or NULL. */
static char *next_word(const char **p)
{
	const char *s = *p;
	char *w, *o;

	while (*s == ' ')
		s++;
	if (!*s)
		return NULL;
	w = o = xmalloc(strlen(s) + 1);
	while (*s && *s != ' ') {
		if (*s == '\'') {
			for (s++; *s && *s != '\''; s++)
				*o++ = *s;
			if (*s)
				s++;
		} else if (*s == '\\' && s[1]) {
			*o++ = s[1];
			s += 2;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	*p = s;
	return w;
}

char *history_judge_spec(const struct store_series_case *c)
{
	/* run's options that take no value (cmd/run.c) */
	static const char *const flags[] = { "--dry-run", "--quiet", "--help",
					     "-n", "-q", "-h", NULL };
	const char *p = c->command;
	char *w, *spec = NULL;
	bool value = false;

	if (!p)
		return NULL;
	free(next_word(&p));	/* schedlab */
	w = next_word(&p);
	if (!w || strcmp(w, "run")) {
		free(w);
		return NULL;
	}
	free(w);
	while (!spec && (w = next_word(&p))) {
		bool flag = false;

		if (value) {
			value = false;
			free(w);
			continue;
		}
		if (!strcmp(w, "--")) {
			free(w);
			spec = next_word(&p);
			break;
		}
		if (*w != '-') {
			spec = w;
			break;
		}
		for (size_t i = 0; flags[i]; i++)
			flag |= !strcmp(w, flags[i]);
		value = !flag && !strchr(w, '=');
		free(w);
	}
	return spec ? spec : xstrdup("quick");
}
