// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: errors and warnings in git's manner, allocation that cannot
 * fail, the one terminal-safe form of text, words joined and split,
 * uuids and wrapped text (util.h). Files are util_file.c's; /proc/PID/stat
 * and the process's limits util_proc.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <jansson.h>

#include "util.h"

/* per thread: compare loads its runs on several at once */
static __thread char context[512];
static __thread int muted;

void error_mute(int on)
{
	muted += on ? 1 : -1;
}

void error_context(const char *fmt, ...)
{
	va_list ap;

	context[0] = '\0';
	if (!fmt)
		return;
	va_start(ap, fmt);
	vsnprintf(context, sizeof(context) - 2, fmt, ap);
	va_end(ap);
	strcat(context, ": ");
}

static void vreport(const char *prefix, const char *fmt, va_list ap,
		    const char *suffix)
{
	char *msg, *line, *safe;

	if (muted)
		return;
	/* on the heap: a message must not need much of a small stack */
	if (vasprintf(&msg, fmt, ap) < 0)
		return;
	if (asprintf(&line, "%s%s%s%s%s", prefix, context, msg,
		     suffix ? ": " : "", suffix ? suffix : "") < 0) {
		free(msg);
		return;
	}
	/* a label, a path or a tool's line may hold escape sequences */
	safe = text_escape(line);
	/* one write, so lines from several processes do not interleave */
	fprintf(stderr, "schedlab: %s\n", safe);
	free(safe);
	free(line);
	free(msg);
}

static void *oom(size_t n) __attribute__((noreturn));

/* How many bytes the UTF-8 sequence led by c has; 0: c cannot lead one. */
static size_t utf8_seq(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

/*
 * Appends s[0..n) escaped to out (which has room for 6 * n bytes) and
 * returns how many bytes of s it took: all, unless !final and s ends in
 * the first bytes of a UTF-8 sequence, which are left for the next call.
 */
static size_t escape_into(char *out, size_t *len, const unsigned char *s,
			  size_t n, bool keep_nl, bool final)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, o = *len;

	while (i < n) {
		unsigned char c = s[i];
		size_t k = utf8_seq(c), j;

		if (c == '\n' && keep_nl) {
			out[o++] = (char)c;
			i++;
			continue;
		}
		if (k == 1 && c >= 0x20 && c != 0x7f) {
			out[o++] = (char)c;
			i++;
			continue;
		}
		if (k > 1) {
			for (j = 1; j < k && i + j < n &&
				    (s[i + j] & 0xc0) == 0x80; j++)
				;
			if (j < k && i + j == n && !final)
				break;		/* the rest comes in the next write */
			if (j == k && !(c == 0xc2 && s[i + 1] < 0xa0)) {
				memcpy(out + o, s + i, k);
				o += k;
				i += k;
				continue;
			}
			if (j == k) {		/* C1: U+0080..U+009F */
				memcpy(out + o, "\\u00", 4);
				out[o + 4] = hex[s[i + 1] >> 4];
				out[o + 5] = hex[s[i + 1] & 15];
				o += 6;
				i += 2;
				continue;
			}
		}
		out[o++] = '\\';
		switch (c) {
		case '\t': out[o++] = 't'; break;
		case '\r': out[o++] = 'r'; break;
		case '\n': out[o++] = 'n'; break;
		default:
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
		i++;
	}
	*len = o;
	return i;
}

char *text_escape(const char *s)
{
	size_t n = strlen(s), len = 0;
	char *out = xmalloc(6 * n + 1);

	escape_into(out, &len, (const unsigned char *)s, n, false, true);
	out[len] = '\0';
	return out;
}

char *text_field(const char *s, const char *none)
{
	return s ? text_escape(s) : xstrdup(none);
}

struct safe_stream {
	FILE *to;
	unsigned char held[4];	/* the start of a UTF-8 sequence */
	size_t nheld;
};

static ssize_t safe_write(void *cookie, const char *buf, size_t n)
{
	struct safe_stream *ss = cookie;
	unsigned char *in = xmalloc(n + sizeof(ss->held));
	char *out = xmalloc(6 * (n + sizeof(ss->held)));
	size_t len = 0, m = ss->nheld + n, used;
	bool ok;

	memcpy(in, ss->held, ss->nheld);
	if (n)
		memcpy(in + ss->nheld, buf, n);
	used = escape_into(out, &len, in, m, true, !buf);
	ss->nheld = m - used;
	memcpy(ss->held, in + used, ss->nheld);
	ok = fwrite(out, 1, len, ss->to) == len;
	free(in);
	free(out);
	return ok ? (ssize_t)n : -1;
}

static int safe_close(void *cookie)
{
	struct safe_stream *ss = cookie;
	int rc = 0;

	if (ss->nheld)		/* a sequence that never ended */
		rc = safe_write(ss, NULL, 0) < 0 ? -1 : 0;
	free(ss);
	return rc;
}

FILE *text_safe(FILE *f)
{
	struct safe_stream *ss = xcalloc(1, sizeof(*ss));
	FILE *s = fopencookie(ss, "w", (cookie_io_functions_t){
		.write = safe_write, .close = safe_close });

	if (!s)
		oom(sizeof(*ss));	/* fopencookie fails for memory only */
	ss->to = f;
	return s;
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, NULL);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	const char *why = strerror(errno);
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, why);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap, NULL);
	va_end(ap);
}

static void *oom(size_t n)
{
	fprintf(stderr, "schedlab: out of memory allocating %zu bytes\n", n);
	exit(EXIT_RUN_FAILED);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : oom(n);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	return p ? p : oom(n * size);
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	return q ? q : oom(n);
}

void *xcalloc_lines(size_t n, size_t size)
{
	size_t len = (n ? n : 1) * (size ? size : 1);
	void *p;

	len = (len + 63) / 64 * 64;
	p = aligned_alloc(64, len);
	if (!p)
		return oom(len);
	memset(p, 0, len);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	return p ? p : oom(strlen(s) + 1);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();	/* a bad format: a bug, not a condition */
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

char *xstrdup_utf8(const char *s)
{
	json_t *j;
	char *copy;

	if (!s)
		return NULL;
	copy = xstrdup(s);
	for (const char *p = s; *p; p++) {
		if ((unsigned char)*p < 0x80)
			continue;
		j = json_string(s);	/* jansson's UTF-8 check */
		if (!j)
			for (char *q = copy; *q; q++)
				if ((unsigned char)*q >= 0x80)
					*q = '?';
		json_decref(j);
		break;
	}
	return copy;
}

char *argv_join(char *const *argv, bool quote)
{
	size_t len = 1;
	char *s, *p;

	for (size_t i = 0; argv[i]; i++)
		len += 4 * strlen(argv[i]) + 3;
	s = p = xmalloc(len);
	for (size_t i = 0; argv[i]; i++) {
		const char *a = argv[i];
		bool plain = !quote || (*a && !a[strcspn(a, " \t\n'\"\\")]);

		if (i)
			*p++ = ' ';
		if (plain) {
			p = stpcpy(p, a);
			continue;
		}
		*p++ = '\'';
		for (; *a; a++) {
			if (*a == '\'')
				p = stpcpy(p, "'\\''");
			else
				*p++ = *a;
		}
		*p++ = '\'';
	}
	*p = '\0';
	return s;
}

size_t split_commas(const char *s, char ***out)
{
	char **v = xcalloc(strlen(s) + 2, sizeof(*v));
	size_t n = 0;

	while (*s) {
		size_t k = strcspn(s, ",");
		const char *b = s, *e = s + k;

		while (b < e && *b == ' ')
			b++;
		while (e > b && e[-1] == ' ')
			e--;
		if (e > b)
			v[n++] = strndup(b, (size_t)(e - b));
		s += k + (s[k] == ',');
	}
	*out = v;
	return n;
}

void split_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

char **split_blanks(const char *s)
{
	char **w = NULL;
	size_t n = 0;

	for (;;) {
		size_t len;

		s += strspn(s, " \t");
		len = strcspn(s, " \t");
		if (!len)
			break;
		w = xrealloc(w, (n + 2) * sizeof(*w));
		w[n++] = strndup(s, len);
		if (!w[n - 1])
			abort();
		w[n] = NULL;
		s += len;
	}
	return w;
}

void split_blanks_free(char **w)
{
	for (size_t i = 0; w && w[i]; i++)
		free(w[i]);
	free(w);
}

void uuid_new(char *buf, size_t len)
{
	unsigned char b[16];

	if (getrandom(b, sizeof(b), 0) != sizeof(b)) {
		uint64_t t = now_ns() ^ (uint64_t)getpid() << 32;

		memcpy(b, &t, 8);
		memcpy(b + 8, &t, 8);
	}
	b[6] = (b[6] & 0x0f) | 0x40;	/* version 4 */
	b[8] = (b[8] & 0x3f) | 0x80;	/* variant 1 */
	snprintf(buf, len,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
		 b[10], b[11], b[12], b[13], b[14], b[15]);
}

bool uuid_valid(const char *s)
{
	for (int i = 0; i < 36; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-' : !strchr("0123456789abcdef", s[i]) || !s[i])
			return false;
	}
	return !s[36];
}

void text_wrap(FILE *f, const char *indent, const char *cont,
	       const char *text, int width)
{
	const char *p = text, *lead = indent;
	int col = 0;

	while (*p) {
		size_t w;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		w = strcspn(p, " ");
		if (col && col + 1 + (int)w > width) {
			fputc('\n', f);
			col = 0;
			lead = cont;
		}
		if (!col)
			col = fprintf(f, "%s", lead);
		else
			col += fprintf(f, " ");
		col += fprintf(f, "%.*s", (int)w, p);
		p += w;
	}
	if (col)
		fputc('\n', f);
}
