// SPDX-License-Identifier: GPL-2.0-only
/*
 * knob: the table of harness/knob.h - each kind of machine knob by the
 * prefix of its key, and what it takes to check, resolve, read and name
 * one - and the reads and writes of a knob's file.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/knob.h"
#include "util.h"

#define SCHED_DIR	"/sys/kernel/debug/sched"
#define FEATURES	SCHED_DIR "/features"

struct knob_kind {
	const char *prefix;	/* the key's start (the whole key: whole) */
	bool whole;
	const char *dir;	/* NAME's file: dir/NAME, dots as slashes */
	const char *file;	/* the one file whose words the value sets */
	const char *example;	/* what a key of the kind is, for messages */
	/* the key's and the value's words: 0, or -1 with err */
	int (*check)(const struct knob_kind *k, const char *key,
		     const char *value, char *err, size_t len);
	/* the files (words) key=value sets: 0, or -1 after error() */
	int (*resolve)(const struct knob_kind *k, const char *who,
		       const char *key, const char *value,
		       struct knob_target **out, size_t *n);
	/* a journalled path's name, malloc'ed; NULL: not this kind's path */
	char *(*name)(const struct knob_kind *k, const char *path,
		      const char *value);
};

bool knob_name_ok(const char *s)
{
	if (!*s || *s == '.' || s[strlen(s) - 1] == '.')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' &&
		    *s != '.')
			return false;
	return true;
}

/* A file's value: not empty, one line. */
static int check_value(const char *value, char *err, size_t len)
{
	if (!*value) {
		snprintf(err, len, "no value given (a knob is written the value after '=')");
		return -1;
	}
	if (strchr(value, '\n')) {
		snprintf(err, len, "a knob's value is one line");
		return -1;
	}
	return 0;
}

static int check_named(const struct knob_kind *k, const char *key,
		       const char *value, char *err, size_t len)
{
	if (!knob_name_ok(key + strlen(k->prefix))) {
		snprintf(err, len, "'%s' names no knob (expected %s)", key,
			 k->example);
		return -1;
	}
	return check_value(value, err, len);
}

static int check_path(const struct knob_kind *k, const char *key,
		      const char *value, char *err, size_t len)
{
	(void)k;
	if (strstr(key, "/../") || strstr(key, "/./") || strstr(key, "//") ||
	    key[strlen(key) - 1] == '/') {
		snprintf(err, len, "'%s' is not a plain path of a file under /proc or /sys",
			 key);
		return -1;
	}
	return check_value(value, err, len);
}

/* sched_feat's value: FEATURE or NO_FEATURE words, upper case. */
static int check_words(const struct knob_kind *k, const char *key,
		       const char *v, char *err, size_t len)
{
	const char *p = v;
	size_t words = 0;

	(void)key;
	while (*p) {
		size_t n;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (!n)
			break;
		for (size_t i = 0; i < n; i++)
			if (!isupper((unsigned char)p[i]) &&
			    !isdigit((unsigned char)p[i]) && p[i] != '_') {
				snprintf(err, len, "'%.*s' is not a scheduler feature (expected FEATURE or NO_FEATURE words in capitals, as in %s)",
					 (int)n, p, k->file);
				return -1;
			}
		if (n == 3 && !strncmp(p, "NO_", 3)) {
			snprintf(err, len, "'NO_' names no feature (expected NO_FEATURE)");
			return -1;
		}
		words++;
		p += n;
	}
	if (!words) {
		snprintf(err, len, "no feature given (expected FEATURE or NO_FEATURE words, as in %s)",
			 k->file);
		return -1;
	}
	return 0;
}

static void add_target(struct knob_target **out, size_t *n, char *path,
		       const char *feature, const char *value)
{
	*out = xrealloc(*out, (*n + 1) * sizeof(**out));
	(*out)[(*n)++] = (struct knob_target){
		path, feature ? xstrdup(feature) : NULL, xstrdup(value),
	};
}

static int resolve_named(const struct knob_kind *k, const char *who,
			 const char *key, const char *value,
			 struct knob_target **out, size_t *n)
{
	const char *name = key + strlen(k->prefix);
	char *p;

	(void)who;
	if (asprintf(&p, "%s/%s", k->dir, name) < 0)
		abort();
	for (char *s = p + strlen(k->dir) + 1; *s; s++)
		if (*s == '.')
			*s = '/';
	add_target(out, n, p, NULL, value);
	return 0;
}

static int resolve_words(const struct knob_kind *k, const char *who,
			 const char *key, const char *value,
			 struct knob_target **out, size_t *n)
{
	char **w = split_blanks(value);

	(void)who;
	(void)key;
	for (size_t i = 0; w && w[i]; i++)
		add_target(out, n, xstrdup(k->file), knob_feature(w[i]), w[i]);
	split_blanks_free(w);
	return 0;
}

/* a path: the file it names must be under /proc or /sys */
static int resolve_path(const struct knob_kind *k, const char *who,
			const char *key, const char *value,
			struct knob_target **out, size_t *n)
{
	char real[PATH_MAX];

	(void)k;
	if (!realpath(key, real)) {
		if (errno == ENOENT)
			return error("%s%s: %s does not exist", who, key, key);
		return error("%s%s: %s: %s", who, key, key, strerror(errno));
	}
	if (strncmp(real, "/proc/", 6) && strncmp(real, "/sys/", 5))
		return error("%s%s: it leads to %s, outside /proc and /sys (expected a file under /proc or /sys)",
			     who, key, real);
	add_target(out, n, xstrdup(real), NULL, value);
	return 0;
}

/* PREFIX and path below dir with its slashes as dots, "=VALUE". */
static char *name_named(const struct knob_kind *k, const char *path,
			const char *value)
{
	size_t dl = strlen(k->dir);
	char *s;

	if (strncmp(path, k->dir, dl) || path[dl] != '/')
		return NULL;
	if (asprintf(&s, "%s%s=%s", k->prefix, path + dl + 1, value) < 0)
		abort();
	for (char *p = s + strlen(k->prefix); *p && *p != '='; p++)
		if (*p == '/')
			*p = '.';
	return s;
}

static char *name_words(const struct knob_kind *k, const char *path,
			const char *value)
{
	char *s;

	(void)path;
	if (asprintf(&s, "%s=%s", k->prefix, value) < 0)
		abort();
	return s;
}

static char *name_path(const struct knob_kind *k, const char *path,
		       const char *value)
{
	char *s;

	(void)k;
	if (asprintf(&s, "%s=%s", path, value) < 0)
		abort();
	return s;
}

/* The kinds; a journalled file is named by the first that claims it. */
static const struct knob_kind kinds[] = {
	{ "sysctl.", .dir = "/proc/sys",
	  .example = "sysctl.NAME, as sysctl.kernel.sched_autogroup_enabled",
	  .check = check_named, .resolve = resolve_named, .name = name_named },
	{ "sched.", .dir = SCHED_DIR,
	  .example = "sched.NAME, as sched.base_slice_ns",
	  .check = check_named, .resolve = resolve_named, .name = name_named },
	{ "sched_feat", .whole = true, .file = FEATURES,
	  .check = check_words, .resolve = resolve_words, .name = name_words },
	{ "/proc/", .check = check_path, .resolve = resolve_path,
	  .name = name_path },
	{ "/sys/", .check = check_path, .resolve = resolve_path,
	  .name = name_path },
};

static const struct knob_kind *kind_of(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		const struct knob_kind *k = &kinds[i];

		if (k->whole ? !strcmp(key, k->prefix) :
		    !strncmp(key, k->prefix, strlen(k->prefix)))
			return k;
	}
	return NULL;
}

bool knob_key(const char *key)
{
	return kind_of(key) != NULL;
}

int knob_check(const char *key, const char *value, char *err, size_t len)
{
	const struct knob_kind *k = kind_of(key);

	if (!k) {
		snprintf(err, len, "'%s' is not a knob", key);
		return -1;
	}
	return k->check(k, key, value, err, len);
}

int knob_resolve(const char *who, const char *key, const char *value,
		 struct knob_target **out, size_t *n)
{
	const struct knob_kind *k = kind_of(key);

	*out = NULL;
	*n = 0;
	if (!k)
		return error("%s%s: not a knob", who, key);
	if (!k->resolve(k, who, key, value, out, n))
		return 0;
	knob_targets_free(*out, *n);
	*out = NULL;
	*n = 0;
	return -1;
}

void knob_targets_free(struct knob_target *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(t[i].path);
		free(t[i].feature);
		free(t[i].value);
	}
	free(t);
}

char *knob_name(const char *path, const char *value, bool word)
{
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		char *s;

		if ((kinds[i].file != NULL) != word)
			continue;
		s = kinds[i].name(&kinds[i], path, value);
		if (s)
			return s;
	}
	return name_path(NULL, path, value);
}

const char *knob_feature(const char *word)
{
	return strncmp(word, "NO_", 3) ? word : word + 3;
}

/* A feature's state in the features file's text: its word, or NULL. */
static char *feature_word(const char *text, const char *feat)
{
	char **w = split_blanks(text), *found = NULL;

	for (size_t i = 0; w && w[i] && !found; i++)
		if (!strcmp(knob_feature(w[i]), feat))
			found = xstrdup(w[i]);
	split_blanks_free(w);
	return found;
}

/*
 * A sysfs choice list ("always [madvise] never", an I/O scheduler's
 * "none [mq-deadline]"): the one word in brackets, the value to write
 * back, malloc'ed; NULL when text is not one.
 */
static char *chosen_word(const char *text)
{
	char **w = split_blanks(text), *found = NULL;
	size_t n = 0, chosen = 0;

	for (; w && w[n]; n++) {
		size_t len = strlen(w[n]);

		if (len > 2 && w[n][0] == '[' && w[n][len - 1] == ']') {
			chosen++;
			free(found);
			found = strndup(w[n] + 1, len - 2);
		}
	}
	split_blanks_free(w);
	if (n < 2 || chosen != 1) {
		free(found);
		return NULL;
	}
	return found;
}

char *knob_value(const char *text, const char *feature)
{
	char *v;

	if (feature)
		return feature_word(text, feature);
	v = chosen_word(text);
	return v ? v : xstrdup(text);
}

static bool debugfs_path(const char *path)
{
	return !strncmp(path, "/sys/kernel/debug/", 18);
}

void knob_write_refused(char *buf, size_t len, const char *path, int e)
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

		knob_write_refused(why, sizeof(why), path, e);
		if (e != EPERM && e != EACCES)
			snprintf(why, sizeof(why), "%s cannot be written (%s)",
				 path, strerror(e));
		return error("%s%s: %s", who, key, why);
	}
	close(fd);
	return 0;
}

int knob_original(const char *who, const char *key, const char *path,
		  const char *feature, char **orig)
{
	char buf[KNOB_MAX];

	*orig = NULL;
	if (check_file(who, key, path, buf, sizeof(buf)))
		return -1;
	*orig = knob_value(buf, feature);
	if (!*orig)
		return error("%s%s: %s has no feature %s (it has: %s)",
			     who, key, path, feature, buf);
	return 0;
}

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
