// SPDX-License-Identifier: GPL-2.0-only
/*
 * journal_text: the restore journal's items (harness/journal.h) and
 * their text - a "schedlab-restore 1 pid=PID boot=ID" line, then one
 * "file PATH VALUE", "feature PATH WORD" or "cgroup PATH" line an item,
 * each word %XX-escaped - written and parsed strictly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/journal.h"
#include "util.h"

#define JOURNAL_MAGIC "schedlab-restore 1"

static int is_plain(unsigned char c)
{
	return c > 0x20 && c < 0x7f && c != '%';
}

char *journal_escape(const char *s)
{
	char *out = xmalloc(strlen(s) * 3 + 1), *o = out;

	for (; *s; s++) {
		if (is_plain((unsigned char)*s))
			*o++ = *s;
		else
			o += sprintf(o, "%%%02X", (unsigned char)*s);
	}
	*o = '\0';
	return out;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

char *journal_unescape(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	for (; *s; s++) {
		int hi, lo;

		if (*s != '%') {
			*o++ = *s;
			continue;
		}
		hi = hexval(s[1]);
		lo = hi < 0 ? -1 : hexval(s[2]);
		if (lo < 0 || (!hi && !lo)) {
			free(out);
			return NULL;
		}
		*o++ = (char)(hi << 4 | lo);
		s += 2;
	}
	*o = '\0';
	return out;
}

void journal_add(struct journal *j, enum journal_kind kind, const char *path,
		 const char *value)
{
	j->items = xrealloc(j->items, (j->n + 1) * sizeof(*j->items));
	j->items[j->n++] = (struct journal_item){
		kind, xstrdup(path), value ? xstrdup(value) : NULL,
	};
}

static const char *const kind_word[] = {
	[JOURNAL_FILE] = "file",
	[JOURNAL_FEATURE] = "feature",
	[JOURNAL_CGROUP] = "cgroup",
};

char *journal_text(const struct journal *j)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	fprintf(f, JOURNAL_MAGIC " pid=%ld boot=%s\n", j->pid, j->boot);
	for (size_t i = 0; i < j->n; i++) {
		char *p = journal_escape(j->items[i].path);

		fprintf(f, "%s %s", kind_word[j->items[i].kind], p);
		free(p);
		if (j->items[i].value) {
			char *v = journal_escape(j->items[i].value);

			fprintf(f, " %s", v);
			free(v);
		}
		fputc('\n', f);
	}
	fclose(f);
	return buf;
}

/* One item line (NUL-terminated, no newline) into j: 0 or -1. */
static int parse_item(char *line, struct journal *j)
{
	char *w[3] = { 0 }, *save = NULL, *path, *value = NULL;
	size_t n = 0;
	int kind = -1;

	for (char *t = strtok_r(line, " ", &save); t;
	     t = strtok_r(NULL, " ", &save)) {
		if (n == 3)
			return -1;
		w[n++] = t;
	}
	for (size_t k = 0; k < ARRAY_SIZE(kind_word); k++)
		if (n && !strcmp(w[0], kind_word[k]))
			kind = (int)k;
	if (kind < 0 || n != (kind == JOURNAL_CGROUP ? 2u : 3u))
		return -1;
	path = journal_unescape(w[1]);
	if (n == 3)
		value = journal_unescape(w[2]);
	if (!path || (n == 3 && !value) || path[0] != '/') {
		free(path);
		free(value);
		return -1;
	}
	journal_add(j, (enum journal_kind)kind, path, value);
	free(path);
	free(value);
	return 0;
}

int journal_parse(const char *text, struct journal *j)
{
	char *copy = xstrdup(text), *line, *save = NULL;
	int rc = -1;

	*j = (struct journal){ 0 };
	line = strtok_r(copy, "\n", &save);
	if (!line || sscanf(line, JOURNAL_MAGIC " pid=%ld boot=%63s", &j->pid,
			    j->boot) != 2 || j->pid <= 0)
		goto out;
	while ((line = strtok_r(NULL, "\n", &save)))
		if (parse_item(line, j))
			goto out;
	rc = 0;
out:
	free(copy);
	if (rc)
		journal_free(j);
	return rc;
}

void journal_free(struct journal *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free(j->items[i].path);
		free(j->items[i].value);
	}
	free(j->items);
	*j = (struct journal){ 0 };
}
