// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay: main() for a harness built without libFuzzer (tests/fuzz/
 * fuzz.h). Each argument is a file, or a directory whose files are
 * read (not recursively); each file is read into a buffer of exactly
 * its size and handed to LLVMFuzzerTestOneInput() once. Prints
 * "NAME: N inputs" and exits 0; a crash or sanitizer report ends it
 * before, naming nothing (the sanitizer does), so the last file read is
 * said on stderr first when REPLAY_VERBOSE is set.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct stat sb;
	uint8_t *buf;
	size_t n;

	if (!f || fstat(fileno(f), &sb)) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	n = sb.st_size;
	/* malloc(0) may return NULL; a 0-byte input is still fed */
	buf = malloc(n ? n : 1);
	if (!buf || fread(buf, 1, n, f) != n) {
		fprintf(stderr, "replay: %s: cannot read\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	if (getenv("REPLAY_VERBOSE"))
		fprintf(stderr, "replay: %s\n", path);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's regular files, in name order so a run is repeatable. */
static int replay_dir(const char *dir, unsigned *count)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char *p;

		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				abort();
		}
		if (asprintf(&p, "%s/%s", dir, de->d_name) < 0)
			abort();
		names[n++] = p;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp);
	for (size_t i = 0; i < n; i++) {
		struct stat sb;

		if (!stat(names[i], &sb) && S_ISREG(sb.st_mode)) {
			if (replay_file(names[i]))
				rc = -1;
			else
				(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		struct stat sb;

		if (stat(argv[i], &sb)) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			rc = 1;
		} else if (S_ISDIR(sb.st_mode)) {
			if (replay_dir(argv[i], &count))
				rc = 1;
		} else if (replay_file(argv[i])) {
			rc = 1;
		} else {
			count++;
		}
	}
	printf("%s: %u inputs\n", argv[0], count);
	return rc;
}
