// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot: one gnuplot process per page, fed a script file, in a
 * temporary directory of the command's own (plot.h). While the
 * directory exists the stop signals are blocked, as the supervisor
 * blocks them (harness/supervise.c), and looked for while gnuplot runs;
 * the children get the mask from before.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report/plot.h"
#include "util.h"

/* Ten colours told apart by most eyes (Tableau's). */
static const char *const colours[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

const char *plot_colour(size_t k)
{
	return colours[k % ARRAY_SIZE(colours)];
}

static void stop_set(sigset_t *set)
{
	static const int stop[] = { SIGINT, SIGTERM, SIGHUP };

	sigemptyset(set);
	for (size_t i = 0; i < ARRAY_SIZE(stop); i++) {
		struct sigaction sa;

		/* under nohup SIGHUP stays ignored, never queued */
		if (sigaction(stop[i], NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			continue;
		sigaddset(set, stop[i]);
	}
}

/* A stop signal waiting, or 0. */
static int stop_pending(void)
{
	sigset_t set, pend;
	int sig = 0;

	stop_set(&set);
	if (sigpending(&pend))
		return 0;
	for (int s = 1; s < NSIG && !sig; s++)
		if (sigismember(&set, s) && sigismember(&pend, s))
			sig = s;
	return sig;
}


/* Whether this gnuplot has the pngcairo terminal (else png). */
static bool has_pngcairo(const char *gnuplot, const sigset_t *old)
{
	char cmd[] = "print strstrt(GPVAL_TERMINALS, 'pngcairo') > 0";
	int fd[2], st;
	char buf[16] = "";
	pid_t pid;
	ssize_t n;

	if (pipe(fd))
		return false;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		sigprocmask(SIG_SETMASK, old, NULL);
		dup2(null, 0);
		dup2(fd[1], 2);	/* print writes to stderr */
		dup2(null, 1);
		close(fd[0]);
		execl(gnuplot, "gnuplot", "-e", cmd, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	n = pid < 0 ? -1 : read(fd[0], buf, sizeof(buf) - 1);
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, &st, 0);
	return n > 0 && buf[0] == '1';
}

int plot_open(struct plot_batch *b, bool png)
{
	const char *tmp = getenv("TMPDIR");
	char path[4200];
	sigset_t set;

	memset(b, 0, sizeof(*b));
	b->png = png;
	b->gnuplot = path_find("gnuplot");
	if (!b->gnuplot)
		return 0;
	stop_set(&set);
	sigprocmask(SIG_BLOCK, &set, &b->old);
	b->masked = true;
	snprintf(b->dir, sizeof(b->dir), "%s/schedlab-plot.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(b->dir)) {
		error_errno("report: make a temporary directory '%s'", b->dir);
		b->dir[0] = '\0';
		plot_close(b);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/plot.gp", b->dir);
	b->script = fopen(path, "w");
	if (!b->script) {
		error_errno("report: create '%s'", path);
		plot_close(b);
		return -1;
	}
	if (png)
		b->png_term = has_pngcairo(b->gnuplot, &b->old) ? "pngcairo" : "png";
	return 0;
}

void plot_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			continue;
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

FILE *plot_begin(struct plot_batch *b, const char *stem, int width,
		 int height, size_t *id)
{
	char *name;
	size_t i = b->n;

	*id = PLOT_NONE;
	if (!b->gnuplot)
		return NULL;
	b->name = xrealloc(b->name, (i + 1) * sizeof(*b->name));
	if (asprintf(&name, "%02zu-%s.png", i + 1, stem) < 0)
		abort();
	for (char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-'))
			*p = '_';
	b->name[i] = name;
	b->n++;
	*id = i;
	fprintf(b->script, "reset\n");
	if (b->png)
		fprintf(b->script, "set terminal %s size %d,%d font 'DejaVu Sans,10' noenhanced\nset output 'p%zu.png'\n",
			b->png_term, width, height, i);
	else
		fprintf(b->script, "set terminal svg size %d,%d dynamic font 'DejaVu Sans,11' noenhanced\nset output 'p%zu.svg'\n",
			width, height, i);
	fprintf(b->script, "set border lc rgb '#555555'\nset grid lc rgb '#dddddd'\nset key outside right top noenhanced\n");
	return b->script;
}

/* The whole of file dir/name, or NULL. */
static char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[4200];
	FILE *f;
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	do {
		if (cap - n < 65536)
			buf = xrealloc(buf, cap = cap * 2 + 65536);
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Waits for pid at most PLOT_TIMEOUT_S; kills it after. */
static int wait_limited(pid_t pid, int *status)
{
	struct timespec t0, now, nap = { 0, 5 * 1000 * 1000 };
	int sig;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return error_errno("report: wait for gnuplot");
		if ((sig = stop_pending())) {
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			return error("report: stopped by %s", strsignal(sig));
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec >= PLOT_TIMEOUT_S) {
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			return error("report: gnuplot ran past %d s and was stopped",
				     PLOT_TIMEOUT_S);
		}
		nanosleep(&nap, NULL);
	}
}

/* Reads the SVGs back: each from its "<svg" on. */
static void read_svgs(struct plot_batch *b)
{
	b->svg = xcalloc(b->n ? b->n : 1, sizeof(*b->svg));
	for (size_t i = 0; i < b->n && !b->png; i++) {
		char name[32], *text, *start;
		size_t len;

		snprintf(name, sizeof(name), "p%zu.svg", i);
		text = slurp(b->dir, name, &len);
		start = text ? strstr(text, "<svg") : NULL;
		if (start && strstr(start, "</svg>")) {
			memmove(text, start, len - (size_t)(start - text) + 1);
			b->svg[i] = text;
		} else {
			free(text);
		}
	}
}

int plot_draw(struct plot_batch *b)
{
	char path[4200];
	int in, err, status = 0, rc = 0;
	pid_t pid;

	if (!b->gnuplot || !b->n)
		return 0;
	if (fflush(b->script) || ferror(b->script))
		return error_errno("report: write the gnuplot script");
	snprintf(path, sizeof(path), "%s/plot.gp", b->dir);
	in = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/stderr", b->dir);
	err = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (in < 0 || err < 0) {
		rc = error_errno("report: open the gnuplot script");
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		rc = error_errno("report: fork gnuplot");
		goto out;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		sigprocmask(SIG_SETMASK, &b->old, NULL);
		if (chdir(b->dir) || dup2(in, 0) < 0 || dup2(err, 2) < 0 ||
		    dup2(null, 1) < 0)
			_exit(127);
		unsetenv("DISPLAY");
		execl(b->gnuplot, "gnuplot", (char *)NULL);
		_exit(127);
	}
	if (wait_limited(pid, &status))
		rc = -1;
	else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		size_t len;
		char *msg = slurp(b->dir, "stderr", &len);
		char *nl = msg ? strchr(msg, '\n') : NULL;

		/* gnuplot's message ends with its line: keep the first 3 */
		for (int k = 0; nl && k < 2; k++)
			nl = strchr(nl + 1, '\n');
		if (nl)
			*nl = '\0';
		rc = error("report: gnuplot (%s) failed: %s", b->gnuplot,
			   msg && *msg ? msg : "no message");
		free(msg);
	}
out:
	if (in >= 0)
		close(in);
	if (err >= 0)
		close(err);
	read_svgs(b);
	return rc;
}

const char *plot_svg(const struct plot_batch *b, size_t id)
{
	return b->svg && id < b->n ? b->svg[id] : NULL;
}

int plot_save_png(const struct plot_batch *b, const char *dir)
{
	for (size_t i = 0; i < b->n; i++) {
		char name[32], path[4200];
		size_t len;
		char *data;
		FILE *f;

		snprintf(name, sizeof(name), "p%zu.png", i);
		data = slurp(b->dir, name, &len);
		if (!data)
			continue;	/* the page says it was not drawn */
		snprintf(path, sizeof(path), "%s/%s", dir, b->name[i]);
		f = fopen(path, "wb");
		if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
			free(data);
			return error_errno("report: write '%s'", path);
		}
		free(data);
	}
	return 0;
}

void plot_close(struct plot_batch *b)
{
	if (b->script)
		fclose(b->script);
	if (b->dir[0]) {
		DIR *d = opendir(b->dir);
		struct dirent *e;

		while (d && (e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(dirfd(d), e->d_name, 0);
		if (d)
			closedir(d);
		if (rmdir(b->dir))
			warning("report: could not remove '%s': %s", b->dir,
				strerror(errno));
	}
	for (size_t i = 0; i < b->n; i++) {
		free(b->name[i]);
		if (b->svg)
			free(b->svg[i]);
	}
	free(b->name);
	free(b->svg);
	free(b->gnuplot);
	if (b->masked)	/* a stop signal pending ends the process here */
		sigprocmask(SIG_SETMASK, &b->old, NULL);
	memset(b, 0, sizeof(*b));
}
