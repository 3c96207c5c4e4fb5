// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_file: a job file read into sections of key = value lines, each
 * with its line number, for plan.c to check.
 *
 * Only a regular file is read: a FIFO would block the read, so it is
 * refused before it is opened for reading. The file is read whole and
 * refused if it is not text (a NUL byte, invalid UTF-8, control
 * characters). inih splits the key = value lines, through a reader that hands it one line per call, so that its
 * line count is ours (Debian's inih passes no line numbers to the
 * handler). Section headers are recognised here, not by inih, so that
 * an empty section still counts and names are checked. Leading blanks
 * are stripped before inih sees a line, so its multi-line values (an
 * indented line continuing the previous value) never apply: an indented
 * key is just a key. A value may go on over several lines instead: a
 * line that ends in a backslash continues on the next, joined with one
 * blank (a shell script of a command job's setup key).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ini.h>

#include "harness/plan.h"
#include "harness/plan_int.h"
#include "util.h"

#define JOB_FILE_MAX	(1 << 20)
#define JOB_NAME_MAX	PLAN_JOB_NAME_MAX

struct reader {
	struct jobfile *jf;
	char *buf;
	size_t len, pos;
	unsigned line;		/* of the line last handed to inih */
	bool more;		/* the last line ended in a backslash */
	bool cont;		/* the line handed to inih continues a value */
	char err[1024];		/* the first mistake, said after parsing */
	unsigned err_line;
};

/* Records the first mistake; returns 0, which tells inih to stop. */
static int __attribute__((format(printf, 2, 3)))
parse_error(struct reader *rd, const char *fmt, ...)
{
	va_list ap;

	if (rd->err_line)
		return 0;
	rd->err_line = rd->line;
	va_start(ap, fmt);
	vsnprintf(rd->err, sizeof(rd->err), fmt, ap);
	va_end(ap);
	return 0;
}

static const char *const malformed = "not a section header or key = value line";

static bool job_name_char(char c)
{
	return isalnum((unsigned char)c) || strchr("._-+", c);
}

bool plan_job_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n > JOB_NAME_MAX || !strcmp(name, "global"))
		return false;
	for (const char *c = name; *c; c++)
		if (!job_name_char(*c))
			return false;
	return true;
}

/* A "[name]" line, s..s+n with no blanks around. */
static int section_line(struct reader *rd, const char *s, size_t n)
{
	const char *close = memchr(s, ']', n), *rest, *a, *b;
	const char *a_name;
	struct section *sec, *dup;
	char name[JOB_NAME_MAX + 1];

	if (!close)
		return parse_error(rd, "%s", malformed);
	for (rest = close + 1; rest < s + n && isblank((unsigned char)*rest); rest++)
		;
	if (rest < s + n && *rest != ';' && *rest != '#')
		return parse_error(rd, "%s", malformed);
	for (a = s + 1; a < close && isblank((unsigned char)*a); a++)
		;
	for (b = close; b > a && isblank((unsigned char)b[-1]); b--)
		;
	if (a == b)
		return parse_error(rd, "empty section name");
	if (b - a > JOB_NAME_MAX)
		return parse_error(rd, "section name '%.*s' is longer than %d characters",
				   (int)(b - a), a, JOB_NAME_MAX);
	a_name = a;
	/* [variant:NAME]: ab's variant (plan.c takes it out) */
	if (b - a > 8 && !strncmp(a, "variant:", 8))
		a_name = a + 8;
	for (const char *c = a_name; c < b; c++)
		if (!job_name_char(*c))
			return parse_error(rd, "section name '%.*s' may only use letters, digits and . _ - +",
					   (int)(b - a), a);
	memcpy(name, a, (size_t)(b - a));
	name[b - a] = '\0';
	dup = jobfile_section(rd->jf, name);
	if (dup && dup->global)
		return parse_error(rd, "duplicate [global] (first at line %u)",
				   dup->line);
	if (dup)
		return parse_error(rd, "duplicate job [%s] (first at line %u)",
				   name, dup->line);
	rd->jf->sec = plan_grow(rd->jf->sec, rd->jf->nsec, sizeof(*rd->jf->sec));
	sec = &rd->jf->sec[rd->jf->nsec++];
	*sec = (struct section){ .name = xstrdup(name), .line = rd->line,
				 .global = !strcmp(name, "global") };
	return 1;
}

/*
 * inih's reader: one line per call, so that its line count is ours.
 * Blank lines, comments and section headers reach inih as empty lines.
 */
static char *read_line(char *str, int num, void *stream)
{
	struct reader *rd = stream;
	const char *s, *e, *nl;
	size_t n;

	if (rd->err_line || rd->pos >= rd->len)
		return NULL;
	s = rd->buf + rd->pos;
	nl = memchr(s, '\n', rd->len - rd->pos);
	e = nl ? nl : rd->buf + rd->len;
	rd->pos = (size_t)(e - rd->buf) + (nl ? 1 : 0);
	rd->line++;
	if (rd->line == 1 && e - s >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
		s += 3;		/* a UTF-8 byte order mark */
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	n = (size_t)(e - s);
	*str = '\0';
	rd->cont = rd->more;
	rd->more = false;
	if (rd->cont && (!n || *s == ';' || *s == '#' || *s == '['))
		return parse_error(rd, "the line before ends in a backslash, but this one continues no value"),
		       NULL;
	if (!n || *s == ';' || *s == '#')
		return str;
	if (*s == '[')
		return section_line(rd, s, n) ? str : NULL;
	if (n >= (size_t)num) {
		/* an inline comment may be what makes it long */
		for (const char *c = s + 1; c < e; c++)
			if (*c == ';' && isspace((unsigned char)c[-1])) {
				e = c;
				break;
			}
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
		n = (size_t)(e - s);
		if (n >= (size_t)num) {
			parse_error(rd, "line too long (at most %d characters)",
				    num - 1);
			return NULL;
		}
	}
	if (e[-1] == '\\') {
		rd->more = true;
		for (e--; e > s && isspace((unsigned char)e[-1]); e--)
			;
		n = (size_t)(e - s);
	}
	if (rd->cont) {
		/* a key inih takes, that on_key knows for a continuation */
		if (n + 4 >= (size_t)num) {
			parse_error(rd, "line too long (at most %d characters)",
				    num - 5);
			return NULL;
		}
		memcpy(str, "+ = ", 4);
		memcpy(str + 4, s, n);
		str[n + 4] = '\0';
		return str;
	}
	memcpy(str, s, n);
	str[n] = '\0';
	return str;
}

/* inih's handler: one key = value line, collected in its section. */
static int on_key(void *user, const char *section, const char *key,
		  const char *value)
{
	struct reader *rd = user;
	struct section *sec;

	(void)section;		/* tracked by read_line() */
	if (!*key || !value)
		return parse_error(rd, "%s", malformed);
	if (!rd->jf->nsec)
		return parse_error(rd, "'%s' is outside any section (put it under [global] or a [job])",
				   key);
	sec = &rd->jf->sec[rd->jf->nsec - 1];
	if (rd->cont) {
		struct kv *last;
		char *v;

		if (!sec->nkv)
			return parse_error(rd, "%s", malformed);
		last = &sec->kv[sec->nkv - 1];
		v = xmalloc(strlen(last->value) + strlen(value) + 2);
		sprintf(v, "%s %s", last->value, value);
		free(last->value);
		last->value = v;
		return 1;
	}
	for (size_t i = 0; i < sec->nkv; i++)
		if (!strcmp(sec->kv[i].key, key))
			return parse_error(rd, "duplicate key '%s' in [%s] (first at line %u)",
					   key, sec->name, sec->kv[i].line);
	sec->kv = plan_grow(sec->kv, sec->nkv, sizeof(*sec->kv));
	sec->kv[sec->nkv++] = (struct kv){ .key = xstrdup(key),
					   .value = xstrdup(value),
					   .line = rd->line };
	return 1;
}

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;	/* overlong */
	else if (s[0] == 0xed)
		hi = 0x9f;	/* surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;	/* overlong */
	else if (s[0] == 0xf4)
		hi = 0x8f;	/* above U+10FFFF */
	else if (s[0] == 0xc2)
		lo = 0xa0;	/* C1 control characters */
	if (avail < n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* Text is UTF-8 without control characters other than tab and CR LF. */
static int check_text(const struct reader *rd)
{
	const unsigned char *s = (const unsigned char *)rd->buf;
	unsigned line = 1;
	size_t i = 0, n;

	while (i < rd->len) {
		if (s[i] == '\n') {
			line++;
			i++;
		} else if (s[i] < 0x80) {
			if ((s[i] < 0x20 && s[i] != '\t' && s[i] != '\r') ||
			    s[i] == 0x7f)
				goto binary;
			i++;
		} else if ((n = utf8_len(s + i, rd->len - i))) {
			i += n;
		} else {
			goto binary;
		}
	}
	return 0;
binary:
	return error("%s:%u: binary data", rd->jf->path, line);
}

static int read_file(struct reader *rd)
{
	int fd = open_regular(rd->jf->path, NULL);
	FILE *f;
	size_t n;

	/* a FIFO or device is refused before a read could block on it */
	if (fd < 0)
		return -1;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return error_errno("cannot open '%s'", rd->jf->path);
	}
	rd->buf = xmalloc(JOB_FILE_MAX + 1);
	n = fread(rd->buf, 1, JOB_FILE_MAX + 1, f);
	if (ferror(f)) {
		error_errno("cannot read '%s'", rd->jf->path);
		fclose(f);
		return -1;
	}
	fclose(f);
	if (n > JOB_FILE_MAX)
		return error("%s: too large for a job file (more than %d bytes)",
			     rd->jf->path, JOB_FILE_MAX);
	rd->len = n;
	return 0;
}

/* rd->buf, rd->len into rd->jf; frees rd->buf. */
static int parse(struct reader *rd)
{
	const char *path = rd->jf->path;
	int rc;

	rc = check_text(rd);
	if (!rc) {
		rc = ini_parse_stream(read_line, rd, on_key, rd);
		/* inih reports a malformed line only at the end */
		if (rc > 0 && (!rd->err_line || (unsigned)rc < rd->err_line))
			rc = error("%s:%d: %s", path, rc, malformed);
		else if (rd->err_line)
			rc = error("%s:%u: %s", path, rd->err_line, rd->err);
		else if (rc)
			rc = error("%s: cannot parse (out of memory)", path);
	}
	free(rd->buf);
	rd->buf = NULL;
	return rc;
}

int jobfile_read(const char *path, struct jobfile *jf)
{
	struct reader rd = { .jf = jf };

	*jf = (struct jobfile){ .path = path };
	if (read_file(&rd)) {
		free(rd.buf);
		return -1;
	}
	return parse(&rd);
}

int jobfile_parse(const char *path, const char *text, size_t len,
		  struct jobfile *jf)
{
	struct reader rd = { .jf = jf, .len = len };

	*jf = (struct jobfile){ .path = path };
	if (len > JOB_FILE_MAX)
		return error("%s: too large for a job file (more than %d bytes)",
			     path, JOB_FILE_MAX);
	rd.buf = xmalloc(len + 1);
	memcpy(rd.buf, text, len);
	rd.buf[len] = '\0';
	return parse(&rd);
}

void jobfile_free(struct jobfile *jf)
{
	for (size_t i = 0; i < jf->nsec; i++) {
		for (size_t k = 0; k < jf->sec[i].nkv; k++) {
			free(jf->sec[i].kv[k].key);
			free(jf->sec[i].kv[k].value);
			free(jf->sec[i].kv[k].origin);
		}
		free(jf->sec[i].kv);
		free(jf->sec[i].name);
	}
	free(jf->sec);
	jf->sec = NULL;
	jf->nsec = 0;
}

struct section *jobfile_section(const struct jobfile *jf, const char *name)
{
	for (size_t i = 0; i < jf->nsec; i++)
		if (!strcmp(jf->sec[i].name, name))
			return &jf->sec[i];
	return NULL;
}

const struct kv *section_key(const struct section *sec, const char *key)
{
	for (size_t i = 0; sec && i < sec->nkv; i++)
		if (!strcmp(sec->kv[i].key, key))
			return &sec->kv[i];
	return NULL;
}
