// SPDX-License-Identifier: GPL-2.0-only
/*
 * util_file: util.h's files - directories made, files written whole and
 * atomically, descriptors read and written whole, a regular file opened
 * (never a FIFO or a device), trees removed - and the fault hook tests
 * stall schedlab with.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static const char *file_kind(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFDIR:	return "a directory";
	case S_IFIFO:	return "a FIFO";
	case S_IFCHR:	return "a character device";
	case S_IFBLK:	return "a block device";
	case S_IFSOCK:	return "a socket";
	default:	return "not a plain file";
	}
}

char *mkdir_p(const char *path, unsigned int mode)
{
	char *p = xstrdup(path);

	for (char *s = p + 1; ; s++) {
		char c = *s;

		if (c && c != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) && errno != EEXIST)
			return p;
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return NULL;
}

FILE *atomic_open(struct atomic_file *a, const char *who, const char *dir,
		  const char *name)
{
	int fd;

	snprintf(a->path, sizeof(a->path), "%s/%s", dir, name);
	snprintf(a->tmp, sizeof(a->tmp), "%s/.%s.XXXXXX", dir, name);
	a->f = NULL;
	fd = mkstemp(a->tmp);
	if (fd < 0) {
		error_errno("%s: create a file in '%s'", who, dir);
		return NULL;
	}
	fchmod(fd, 0644);
	a->f = fdopen(fd, "w");
	if (!a->f) {
		error_errno("%s: write '%s'", who, a->tmp);
		close(fd);
		unlink(a->tmp);
	}
	return a->f;
}

int atomic_commit(struct atomic_file *a, const char *who)
{
	FILE *f = a->f;

	a->f = NULL;
	if (fflush(f) || ferror(f) || fclose(f) || rename(a->tmp, a->path)) {
		int e = errno;

		unlink(a->tmp);
		errno = e;
		return error_errno("%s: write '%s'", who, a->path);
	}
	return 0;
}

int make_out_dir(const char *who, const char *dir)
{
	struct stat sb;

	if (!mkdir(dir, 0777) || (errno == EEXIST && !stat(dir, &sb) &&
				  S_ISDIR(sb.st_mode)))
		return 0;
	if (errno == EEXIST)
		return error("%s: -o '%s' is not a directory", who, dir);
	return error_errno("%s: make directory '%s'", who, dir);
}

char *read_fd_all(int fd, size_t max, size_t *len)
{
	size_t cap = max && max < 16384 ? max + 1 : 16384, n = 0;
	char *buf = xmalloc(cap + 1);

	for (;;) {
		ssize_t r = read(fd, buf + n, cap - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (!r)
			break;
		n += (size_t)r;
		if (max && n > max) {
			errno = EFBIG;
			goto fail;
		}
		if (n == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	return NULL;
}

char *read_path_all(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *s;

	*len = 0;
	if (fd < 0)
		return NULL;
	s = read_fd_all(fd, 0, len);
	close(fd);
	return s;
}

int read_all(int fd, void *buf, size_t len, int ms)
{
	uint64_t end = now_ns() + (uint64_t)(ms > 0 ? ms : 0) * 1000000ull;
	char *p = buf;

	while (len) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint64_t now = now_ns();
		ssize_t r;

		if (ms >= 0) {
			if (now >= end)
				return -1;
			r = poll(&pfd, 1, (int)((end - now) / 1000000ull) + 1);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return -1;
		}
		r = read(fd, p, len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

void fault_stall(const char *place)
{
	const char *path = getenv("SCHEDLAB_FAULT_STALL");
	char buf[64] = "";
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "re")))
		return;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	if (strcmp(buf, place) || unlink(path))
		return;
	sync();
	fprintf(stderr, "schedlab: fault: stalled at %s\n", place);
	for (;;)
		pause();
}

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int open_regular(const char *path, long long *size)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;

	if (fd < 0)
		return error_errno("cannot open '%s'", path);
	if (fstat(fd, &st)) {
		error_errno("cannot stat '%s'", path);
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return error("%s: not a regular file (%s)", path, file_kind(st.st_mode));
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		error_errno("cannot read '%s'", path);
		close(fd);
		return -1;
	}
	if (size)
		*size = st.st_size;
	return fd;
}

static int rm_one(const char *path, const struct stat *st, int type,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		return rmdir(path) && errno != ENOENT ? -1 : 0;
	return unlink(path) && errno != ENOENT ? -1 : 0;
}

int rm_tree(const char *path)
{
	/* FTW_PHYS: a link inside is removed, never followed */
	if (nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) &&
	    errno != ENOENT)
		return -1;
	return 0;
}

char *path_find(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];
	struct stat st;

	if (strchr(prog, '/'))
		return access(prog, X_OK) ? NULL : xstrdup(prog);
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, n ? path : ".",
			     prog) < (int)sizeof(buf) &&
		    !stat(buf, &st) && S_ISREG(st.st_mode) && !access(buf, X_OK))
			return xstrdup(buf);
		path += n + (path[n] == ':');
	}
	return NULL;
}
