// SPDX-License-Identifier: GPL-2.0-only
/*
 * journal: the restore journal of harness/journal.h - where it lives,
 * writing it durably before the first change, and switch_recover(),
 * which puts back what a killed schedlab left changed. Its items and
 * their text are journal_text.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/cgroup.h"
#include "harness/journal.h"
#include "harness/knob.h"
#include "util.h"

int switch_state_dir(char *buf, size_t len)
{
	const char *s = getenv("SCHEDLAB_STATE_DIR");
	int n;

	if (s && *s)
		n = snprintf(buf, len, "%s", s);
	else if (!geteuid())
		n = snprintf(buf, len, "/var/lib/schedlab");
	else if ((s = getenv("XDG_STATE_HOME")) && *s == '/')
		n = snprintf(buf, len, "%s/schedlab", s);
	else if ((s = getenv("HOME")) && *s)
		n = snprintf(buf, len, "%s/.local/state/schedlab", s);
	else
		return -1;
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int restore_dir(char *buf, size_t len)
{
	char state[4000];

	if (switch_state_dir(state, sizeof(state)))
		return -1;
	if ((size_t)snprintf(buf, len, "%s/restore", state) >= len)
		return -1;
	return 0;
}

static int make_dirs(const char *path)
{
	char *bad = mkdir_p(path, 0755);

	if (!bad)
		return 0;
	error_errno("cannot create the state directory %s", bad);
	free(bad);
	return -1;
}

int journal_boot_id(char *buf, size_t len)
{
	if (knob_read("/proc/sys/kernel/random/boot_id", buf, len) <= 0)
		return -1;
	return 0;
}

char *journal_item_name(const struct journal_item *it)
{
	if (it->kind == JOURNAL_CGROUP)
		return xstrdup(it->path);
	return knob_name(it->path, it->value, it->kind == JOURNAL_FEATURE);
}

/* The whole of a small file (a journal) into a malloc'ed string; NULL. */
static char *slurp_fd(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = xmalloc(cap);
	ssize_t r;

	while ((r = pread(fd, buf + len, cap - len - 1, (off_t)len)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return NULL;
		}
		len += (size_t)r;
		if (len + 1 == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	buf[len] = '\0';
	return buf;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a > b && !strcmp(s + a - b, suf);
}

/* A live journal's items against j's: 1 with *item on a shared path. */
static int shares(const struct journal *j, const struct journal *o,
		  size_t *item)
{
	for (size_t i = 0; i < j->n; i++)
		for (size_t k = 0; k < o->n; k++) {
			if (strcmp(j->items[i].path, o->items[k].path))
				continue;
			/* two features of one file are two knobs */
			if (j->items[i].kind == JOURNAL_FEATURE &&
			    o->items[k].kind == JOURNAL_FEATURE) {
				if (strcmp(knob_feature(j->items[i].value),
					   knob_feature(o->items[k].value)))
					continue;
			}
			*item = i;
			return 1;
		}
	return 0;
}

/* The journals of dir that other live schedlabs hold, against j. */
static int scan_live(int dfd, const struct journal *j, long *other,
		     size_t *item)
{
	DIR *d = fdopendir(dup(dfd));
	struct dirent *e;
	int rc = 0;

	if (!d)
		return 0;
	while (!rc && (e = readdir(d))) {
		struct journal o;
		char *text;
		int fd;

		if (!has_suffix(e->d_name, ".journal"))
			continue;
		fd = openat(dfd, e->d_name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!flock(fd, LOCK_SH | LOCK_NB)) {
			/* its owner is gone: recovery's, not a conflict */
			close(fd);
			continue;
		}
		text = slurp_fd(fd);
		close(fd);
		if (text && !journal_parse(text, &o)) {
			if (shares(j, &o, item)) {
				*other = o.pid;
				rc = 1;
			}
			journal_free(&o);
		}
		free(text);
	}
	closedir(d);
	return rc;
}

/* The journal written and linked under its name; the fd locked. */
static int write_journal(int dfd, const char *dir, const struct journal *j,
			 struct journal_file *jf)
{
	char tmp[4200], name[64], *text = journal_text(j);
	int fd, rc = -1;

	snprintf(tmp, sizeof(tmp), "%s/%ld-XXXXXX.tmp", dir, j->pid);
	fd = mkostemps(tmp, 4, O_CLOEXEC);
	if (fd < 0) {
		error_errno("cannot write the restore journal in %s", dir);
		free(text);
		return -1;
	}
	if (flock(fd, LOCK_EX) || write_all(fd, text, strlen(text)) ||
	    fsync(fd)) {
		error_errno("cannot write the restore journal %s", tmp);
		goto out;
	}
	for (unsigned n = 1; ; n++) {
		char path[4200];

		if (n == 1)
			snprintf(name, sizeof(name), "%ld.journal", j->pid);
		else
			snprintf(name, sizeof(name), "%ld-%u.journal", j->pid, n);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (!link(tmp, path)) {
			jf->path = xstrdup(path);
			break;
		}
		if (errno != EEXIST || n == 100) {
			error_errno("cannot write the restore journal %s", path);
			goto out;
		}
	}
	if (fsync(dfd)) {
		error_errno("cannot write the restore journal %s", jf->path);
		unlink(jf->path);
		free(jf->path);
		jf->path = NULL;
		goto out;
	}
	jf->fd = fd;
	fd = -1;
	rc = 0;
out:
	unlink(tmp);
	if (fd >= 0)
		close(fd);
	free(text);
	return rc;
}

int journal_open(struct journal *j, struct journal_file *jf, long *other,
		 size_t *item)
{
	char dir[4096];
	int dfd, rc;

	*jf = (struct journal_file){ .fd = -1 };
	j->pid = (long)getpid();
	if (journal_boot_id(j->boot, sizeof(j->boot)))
		snprintf(j->boot, sizeof(j->boot), "unknown");
	if (restore_dir(dir, sizeof(dir)))
		return error("no state directory for the restore journal (set SCHEDLAB_STATE_DIR or HOME)");
	if (make_dirs(dir))
		return -1;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || flock(dfd, LOCK_EX)) {
		error_errno("cannot open the state directory %s", dir);
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	rc = scan_live(dfd, j, other, item);
	if (!rc)
		rc = write_journal(dfd, dir, j, jf);
	close(dfd);
	return rc;
}

void journal_close(struct journal_file *jf, int unlink_it)
{
	if (jf->path && unlink_it)
		unlink(jf->path);
	if (jf->fd >= 0)
		close(jf->fd);
	free(jf->path);
	*jf = (struct journal_file){ .fd = -1 };
}

int journal_restore(const struct journal *j, unsigned *knobs,
		    unsigned *cgroups)
{
	int rc = 0;

	*knobs = *cgroups = 0;
	/* the knobs first (a cgroup's tasks may be gone by then), in reverse */
	for (size_t i = j->n; i-- > 0;) {
		const struct journal_item *it = &j->items[i];
		char *name;

		if (it->kind == JOURNAL_CGROUP)
			continue;
		if (!knob_write(it->path, it->value)) {
			(*knobs)++;
			continue;
		}
		name = journal_item_name(it);
		warning("cannot restore %s (left by schedlab pid %ld): %s: %s",
			name, j->pid, it->path, strerror(errno));
		free(name);
		rc = -1;
	}
	for (size_t i = 0; i < j->n; i++) {
		if (j->items[i].kind != JOURNAL_CGROUP)
			continue;
		if (cgroup_remove_dir(j->items[i].path))
			rc = -1;
		else
			(*cgroups)++;
	}
	return rc;
}

static void say_restored(const struct journal *j, unsigned knobs,
			 unsigned cgroups)
{
	char *buf = NULL, *safe;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	fprintf(f, "restored");
	if (knobs || !cgroups)
		fprintf(f, " %u knob%s", knobs, knobs == 1 ? "" : "s");
	if (knobs && cgroups)
		fprintf(f, " and");
	if (cgroups)
		fprintf(f, " %u cgroup%s", cgroups, cgroups == 1 ? "" : "s");
	fprintf(f, " left by schedlab pid %ld (killed?):", j->pid);
	for (size_t i = 0; i < j->n; i++) {
		char *name = journal_item_name(&j->items[i]);

		fprintf(f, " %s", name);
		free(name);
	}
	fclose(f);
	safe = text_escape(buf);
	fprintf(stderr, "schedlab: %s\n", safe);
	free(safe);
	free(buf);
}

/* One journal file of the restore directory: 1 when restored. */
static int recover_one(int dfd, const char *dir, const char *name,
		       const char *boot)
{
	struct journal j;
	unsigned knobs, cgroups;
	char *text;
	int fd, rc = 0;

	fd = openat(dfd, name, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);	/* its schedlab lives */
		return 0;
	}
	if (has_suffix(name, ".tmp")) {
		/* written by one that died before changing anything */
		unlinkat(dfd, name, 0);
		close(fd);
		return 0;
	}
	text = slurp_fd(fd);
	if (!text || journal_parse(text, &j)) {
		warning("%s/%s is not a restore journal; it is left as it is",
			dir, name);
		free(text);
		close(fd);
		return 0;
	}
	free(text);
	if (strcmp(j.boot, boot)) {
		fprintf(stderr, "schedlab: removed the restore journal of schedlab pid %ld from an earlier boot (%s/%s): the reboot put its knobs back\n",
			j.pid, dir, name);
		unlinkat(dfd, name, 0);
	} else if (!journal_restore(&j, &knobs, &cgroups)) {
		say_restored(&j, knobs, cgroups);
		unlinkat(dfd, name, 0);
		rc = 1;
	} else {
		warning("the restore journal %s/%s of schedlab pid %ld stays for the next schedlab to restore",
			dir, name, j.pid);
	}
	journal_free(&j);
	close(fd);
	return rc;
}

int switch_recover(void)
{
	char dir[4096], boot[64];
	struct dirent *e;
	int dfd, n = 0;
	DIR *d;

	if (restore_dir(dir, sizeof(dir)))
		return 0;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;	/* the usual case: nothing was ever switched */
	d = fdopendir(dup(dfd));
	if (!d || flock(dfd, LOCK_EX)) {
		if (d)
			closedir(d);
		close(dfd);
		return 0;
	}
	if (journal_boot_id(boot, sizeof(boot)))
		snprintf(boot, sizeof(boot), "unknown");
	while ((e = readdir(d)))
		if (has_suffix(e->d_name, ".journal") ||
		    has_suffix(e->d_name, ".tmp"))
			n += recover_one(dfd, dir, e->d_name, boot);
	closedir(d);
	close(dfd);
	return n;
}
