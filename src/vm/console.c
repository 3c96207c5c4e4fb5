// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/console.c: what a boot's files hold - the console's last lines for
 * a message, whether the console or the result port says a line (the
 * guest's first, its end, an OOM, a panic), a file's size. A leaf of
 * qemu.c and vm_run.c.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "vm/vm.h"
#include "vm/vm_int.h"

void vm_console_tail(const char *path, int n)
{
	size_t len;
	char *s = read_path_all(path, &len), *p;
	int lines = 0;

	if (!s || !len) {
		fprintf(stderr, "    (the console is empty: %s)\n", path);
		free(s);
		return;
	}
	for (p = s + len; p > s; p--)
		if (p[-1] == '\n' && p != s + len && ++lines == n)
			break;
	fprintf(stderr, "  the console's last lines (%s):\n", path);
	for (char *l = strtok(p, "\n"); l; l = strtok(NULL, "\n")) {
		l[strcspn(l, "\r")] = '\0';
		fprintf(stderr, "    %s\n", l);
	}
	free(s);
}

bool vm_file_has(const char *path, const char *what)
{
	size_t len;
	char *s = read_path_all(path, &len);
	bool has = s && memmem(s, len, what, strlen(what));

	free(s);
	return has;
}

bool vm_tail_has(const char *path, const char *what)
{
	char buf[4097];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t end;
	ssize_t n;

	if (fd < 0)
		return false;
	end = lseek(fd, 0, SEEK_END);
	n = end < 0 ? -1 : pread(fd, buf, sizeof(buf) - 1, end > 4096 ? end - 4096 : 0);
	close(fd);
	if (n <= 0)
		return false;
	return memmem(buf, (size_t)n, what, strlen(what)) != NULL;
}

bool vm_console_oom(const char *console)
{
	return vm_file_has(console, "Out of memory");
}

long long vm_file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) ? 0 : (long long)sb.st_size;
}
