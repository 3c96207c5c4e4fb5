// SPDX-License-Identifier: GPL-2.0-only
/*
 * cgroup: the cgroups of harness/cgroup.h - which hierarchy has each
 * controller (from /proc/self/mountinfo), one directory per hierarchy
 * created flat under its root with the settings' files written and
 * read back. Their removal, killing what a workload left in them, is
 * cgroup_remove.c's.
 * Joining is the workload process's (task_apply.c); journalling the
 * directories so that a killed schedlab's are removed is switch.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/cgroup.h"
#include "probe/cpus.h"
#include "util.h"

/* A mounted cgroup hierarchy. */
struct hier {
	char *mnt;		/* its mount point */
	char *ctrl;		/* v1: its controllers, ','-separated; v2: NULL */
};

struct mounts {
	struct hier *v;
	size_t n;
};

/* Whether word is one of list's words (split at any of seps). */
static bool has_word(const char *list, const char *word, const char *seps)
{
	size_t n = strlen(word);

	while (list && *list) {
		size_t k = strcspn(list, seps);

		if (k == n && !strncmp(list, word, n))
			return true;
		list += k;
		list += strspn(list, seps);
	}
	return false;
}

/* mountinfo's field, its "\040" escapes undone, in place. */
static char *unescape(char *s)
{
	char *o = s;

	for (char *i = s; *i; o++) {
		if (i[0] == '\\' && i[1] >= '0' && i[1] <= '3' &&
		    i[2] >= '0' && i[2] <= '7' && i[3] >= '0' && i[3] <= '7') {
			*o = (char)((i[1] - '0') << 6 | (i[2] - '0') << 3 |
				    (i[3] - '0'));
			i += 4;
		} else {
			*o = *i++;
		}
	}
	*o = '\0';
	return s;
}

/*
 * The cgroup mounts, v1 hierarchies first, in mountinfo's order; a
 * hierarchy mounted twice keeps its first mount. 0, or -1 after error().
 */
static int mounts_read(struct mounts *m)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	size_t v1 = 0;

	*m = (struct mounts){ 0 };
	if (!f)
		return error_errno("cannot read /proc/self/mountinfo");
	while (getline(&line, &cap, f) > 0) {
		char *fld[6], *sep, *save, *fstype, *super;
		int i = 0;
		bool two;

		line[strcspn(line, "\n")] = '\0';
		sep = strstr(line, " - ");
		if (!sep)
			continue;
		*sep = '\0';
		for (char *t = strtok_r(line, " ", &save); t && i < 6;
		     t = strtok_r(NULL, " ", &save))
			fld[i++] = t;
		fstype = strtok_r(sep + 3, " ", &save);
		strtok_r(NULL, " ", &save);	/* the source */
		super = strtok_r(NULL, " ", &save);
		if (i < 5 || !fstype)
			continue;
		two = !strcmp(fstype, "cgroup2");
		if (!two && strcmp(fstype, "cgroup"))
			continue;
		if (two && m->n > v1)
			continue;	/* v2 is one hierarchy: its first mount */
		m->v = xrealloc(m->v, (m->n + 1) * sizeof(*m->v));
		if (two) {
			m->v[m->n++] = (struct hier){
				xstrdup(unescape(fld[4])), NULL };
		} else {
			/* v1 before v2: insert at the end of the v1 ones */
			memmove(m->v + v1 + 1, m->v + v1,
				(m->n - v1) * sizeof(*m->v));
			m->v[v1++] = (struct hier){ xstrdup(unescape(fld[4])),
						    xstrdup(super ? super : "") };
			m->n++;
		}
	}
	free(line);
	fclose(f);
	return 0;
}

static void mounts_free(struct mounts *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].mnt);
		free(m->v[i].ctrl);
	}
	free(m->v);
}

/* A v1 super option that is not a controller's name. */
static bool not_controller(const char *opt, size_t n)
{
	static const char *const flags[] = {
		"rw", "ro", "none", "noprefix", "clone_children", "xattr",
		"cpuset_v2_mode", "favordynmods", "nofavordynmods",
	};

	if (memchr(opt, '=', n))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		if (strlen(flags[i]) == n && !strncmp(opt, flags[i], n))
			return true;
	return false;
}

/* A small file's first line, malloc'ed; NULL with errno. */
static char *read_line(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	e = errno;
	close(fd);
	if (n < 0) {
		errno = e;
		return NULL;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return xstrdup(buf);
}

/* Adds word[0..n) to the blank-separated list in buf unless it is there. */
static void list_add(char *buf, size_t len, const char *word, size_t n)
{
	size_t at = strlen(buf);
	char w[64];

	snprintf(w, sizeof(w), "%.*s", (int)n, word);
	if (!has_word(buf, w, " "))
		snprintf(buf + at, len - at, "%s%s", at ? " " : "", w);
}

/* "no hierarchy has it": what the v1 mounts and v2 have instead. */
static int no_controller(const struct mounts *m, const char *key,
			 const char *ctrl)
{
	char v1[512] = "", v2[512] = "";
	bool any2 = false;

	for (size_t i = 0; i < m->n; i++) {
		const char *p = m->v[i].ctrl;
		char path[PATH_MAX], *c;

		if (!p) {
			snprintf(path, sizeof(path), "%s/cgroup.controllers",
				 m->v[i].mnt);
			c = read_line(path);
			snprintf(v2, sizeof(v2), "%s", c && *c ? c : "none");
			free(c);
			any2 = true;
			continue;
		}
		while (*p) {
			size_t n = strcspn(p, ",");

			if (n && !not_controller(p, n))
				list_add(v1, sizeof(v1), p, n);
			p += n + (p[n] == ',');
		}
	}
	return error("%s: no cgroup hierarchy has the %s controller (v1 mounts: %s; v2: %s)",
		     key, ctrl, *v1 ? v1 : "none", any2 ? v2 : "not mounted");
}

/*
 * The hierarchy of ctrl in m: its index, or -1 after error() naming
 * the setting key.
 */
static int find_hier(const struct mounts *m, const char *key, const char *ctrl)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].ctrl && has_word(m->v[i].ctrl, ctrl, ","))
			return (int)i;
	for (size_t i = 0; i < m->n; i++) {
		char path[PATH_MAX], *have, *on;
		bool has, enabled;

		if (m->v[i].ctrl)
			continue;
		snprintf(path, sizeof(path), "%s/cgroup.controllers",
			 m->v[i].mnt);
		have = read_line(path);
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control",
			 m->v[i].mnt);
		on = read_line(path);
		has = has_word(have, ctrl, " ");
		enabled = has_word(on, ctrl, " ");
		free(have);
		free(on);
		if (enabled)
			return (int)i;
		if (has)
			return error("%s: the cgroup v2 hierarchy at %s has the %s controller but does not enable it for its children (echo +%s > %s/cgroup.subtree_control)",
				     key, m->v[i].mnt, ctrl, ctrl,
				     m->v[i].mnt);
	}
	return no_controller(m, key, ctrl);
}

int cgroup_plan(const struct setting *set, size_t n, const char *name,
		struct cgroup_set *cg)
{
	struct mounts m;
	int rc = 0;

	*cg = (struct cgroup_set){ 0 };
	if (!n)
		return 0;
	if (!*name || strchr(name, '/') || name[0] == '.')
		return error("'%s' cannot name a cgroup", name);
	if (mounts_read(&m))
		return -1;
	cg->set = xcalloc(n, sizeof(*cg->set));
	cg->file = xcalloc(n, sizeof(*cg->file));
	for (size_t i = 0; i < n && !rc; i++) {
		const char *key = set[i].key, *f = key + strlen("cgroup.");
		char ctrl[64], dir[PATH_MAX];
		size_t k = strcspn(f, ".");
		int h;

		if (setting_kind(key) != SETTING_CGROUP || k >= sizeof(ctrl) ||
		    !f[k]) {
			rc = error("%s: not a cgroup.CONTROLLER.FILE setting",
				   key);
			break;
		}
		snprintf(ctrl, sizeof(ctrl), "%.*s", (int)k, f);
		h = find_hier(&m, key, ctrl);
		if (h < 0) {
			rc = -1;
			break;
		}
		snprintf(dir, sizeof(dir), "%s/%s", m.v[h].mnt, name);
		for (k = 0; k < cg->ndirs && strcmp(cg->dirs[k], dir); k++)
			;
		if (k == cg->ndirs) {
			char procs[PATH_MAX + 16];

			snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
			cg->dirs = xrealloc(cg->dirs,
					    (k + 1) * sizeof(*cg->dirs));
			cg->procs = xrealloc(cg->procs,
					     (k + 1) * sizeof(*cg->procs));
			cg->dirs[k] = xstrdup(dir);
			cg->procs[k] = xstrdup(procs);
			cg->ndirs++;
		}
		cg->set[i] = (struct setting){ xstrdup(f),
					       xstrdup(set[i].value) };
		cg->file[i] = xmalloc(strlen(dir) + strlen(f) + 2);
		sprintf(cg->file[i], "%s/%s", dir, f);
		cg->nset++;
	}
	mounts_free(&m);
	if (rc)
		cgroup_set_free(cg);
	return rc;
}

/* "cpu.cfs_period_us cpu.cfs_quota_us ...": dir's files of ctrl. */
static void controller_files(const char *dir, const char *ctrl, char *buf,
			     size_t len)
{
	struct dirent **names;
	size_t n = strlen(ctrl), at = 0;
	int k = scandir(dir, &names, NULL, alphasort);

	buf[0] = '\0';
	for (int i = 0; i < k; i++) {
		const char *d = names[i]->d_name;

		if (!strncmp(d, ctrl, n) && d[n] == '.' && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? " " : "", d);
		free(names[i]);
	}
	if (k >= 0)
		free(names);
}

/* The same value, as cpu lists ("0,1" and "0-1") or as text. */
static bool same_value(const char *file, const char *a, const char *b)
{
	const char *base = strrchr(file, '/') + 1;
	struct cpumask ma = { 0 }, mb = { 0 };

	if (!strcmp(a, b))
		return true;
	if (strcmp(base, "cpuset.cpus") && strcmp(base, "cpuset.mems"))
		return false;
	return cpulist_parse(a, &ma) >= 0 && cpulist_parse(b, &mb) >= 0 &&
	       !memcmp(&ma, &mb, sizeof(ma));
}

/*
 * Writes value into path with one write() and reads it back; what is
 * named in messages is "cgroup.KEY=VALUE" (key: the setting's key
 * without "cgroup."). 0, or -1 after error().
 */
static int write_file(const char *key, const char *path, const char *value)
{
	size_t n = strlen(value);
	char *back;
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT) {
		char dir[PATH_MAX], ctrl[64], files[2048];

		snprintf(dir, sizeof(dir), "%.*s",
			 (int)(strrchr(path, '/') - path), path);
		snprintf(ctrl, sizeof(ctrl), "%.*s", (int)strcspn(key, "."),
			 key);
		controller_files(dir, ctrl, files, sizeof(files));
		if (!*files)
			return error("cgroup.%s: %s has no %s.* files (the %s controller is not in this hierarchy)",
				     key, dir, ctrl, ctrl);
		return error("cgroup.%s: the %s controller has no file %s (its files: %s)",
			     key, ctrl, key, files);
	}
	if (fd < 0)
		return error_errno("cgroup.%s=%s: cannot open %s", key, value,
				   path);
	if (write(fd, value, n) != (ssize_t)n) {
		int e = errno;

		close(fd);
		errno = e;
		return error_errno("cgroup.%s=%s: %s refuses it", key, value,
				   path);
	}
	if (close(fd))
		return error_errno("cgroup.%s=%s: %s refuses it", key, value,
				   path);
	back = read_line(path);
	if (!back)
		return error_errno("cgroup.%s: cannot read %s back", key,
				   path);
	if (!same_value(path, value, back))
		warning("cgroup.%s=%s: %s reads back '%s'", key, value, path,
			back);
	free(back);
	return 0;
}

/*
 * Whether dir is in a cgroup v1 cpuset hierarchy: its parent has
 * cpuset.cpus and no cgroup.controllers. parent: dir's parent.
 */
static bool v1_cpuset(const char *dir, char *parent, size_t len)
{
	char p[PATH_MAX + 32];

	snprintf(parent, len, "%.*s", (int)(strrchr(dir, '/') - dir), dir);
	snprintf(p, sizeof(p), "%s/cgroup.controllers", parent);
	if (!access(p, F_OK))
		return false;
	snprintf(p, sizeof(p), "%s/cpuset.cpus", parent);
	return !access(p, F_OK);
}

static bool given(const struct cgroup_set *cg, const char *file)
{
	for (size_t i = 0; i < cg->nset; i++)
		if (!strcmp(cg->file[i], file))
			return true;
	return false;
}

/* A v1 cpuset's cpus and mems, which must be set before a task can join. */
static int cpuset_first(const struct cgroup_set *cg, const char *dir)
{
	static const char *const first[] = { "cpuset.cpus", "cpuset.mems" };
	char parent[PATH_MAX];

	if (!v1_cpuset(dir, parent, sizeof(parent)))
		return 0;
	for (size_t k = 0; k < ARRAY_SIZE(first); k++) {
		char from[PATH_MAX + 32], to[PATH_MAX + 32], *v;
		int rc;

		snprintf(to, sizeof(to), "%s/%s", dir, first[k]);
		if (given(cg, to))
			continue;
		snprintf(from, sizeof(from), "%s/%s", parent, first[k]);
		v = read_line(from);
		if (!v)
			return error_errno("cannot read %s", from);
		rc = write_file(first[k], to, v);
		free(v);
		if (rc)
			return -1;
	}
	return 0;
}

static bool is_first(const char *key)
{
	return !strcmp(key, "cpuset.cpus") || !strcmp(key, "cpuset.mems");
}

int cgroup_create(struct cgroup_set *cg)
{
	for (size_t h = 0; h < cg->ndirs; h++) {
		if (mkdir(cg->dirs[h], 0755)) {
			error_errno("cannot create the cgroup %s", cg->dirs[h]);
			goto fail;
		}
		cg->created++;
		if (cpuset_first(cg, cg->dirs[h]))
			goto fail;
	}
	/* cpuset's cpus and mems first: its other files need them */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < cg->nset; i++)
			if (is_first(cg->set[i].key) == !pass &&
			    write_file(cg->set[i].key, cg->file[i],
				       cg->set[i].value))
				goto fail;
	return 0;
fail:
	cgroup_remove(cg);
	return -1;
}

void cgroup_set_free(struct cgroup_set *cg)
{
	for (size_t i = 0; i < cg->ndirs; i++) {
		free(cg->dirs[i]);
		free(cg->procs[i]);
	}
	for (size_t i = 0; i < cg->nset; i++) {
		free(cg->set[i].key);
		free(cg->set[i].value);
		free(cg->file[i]);
	}
	free(cg->dirs);
	free(cg->procs);
	free(cg->set);
	free(cg->file);
	*cg = (struct cgroup_set){ 0 };
}
