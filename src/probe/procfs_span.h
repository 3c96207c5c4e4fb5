/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * procfs_span.h: the lexer the /proc parsers share (procfs.c,
 * procfs_schedstat.c): a span [p, end) of the input, its lines, words
 * and numbers, read without ever looking at or past end; and the growth
 * of the arrays they fill. Not for use outside probe/.
 */
#ifndef SCHEDLAB_PROBE_PROCFS_SPAN_H
#define SCHEDLAB_PROBE_PROCFS_SPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* A piece of the input, [p, end): nothing here reads at or past end. */
struct span {
	const char *p, *end;
};

/* The whole of (buf, len); NULL (with len 0) reads as empty. */
static inline struct span span_of(const char *buf, size_t len)
{
	static const char none[1];

	if (!buf)
		return (struct span){ none, none };
	return (struct span){ buf, buf + len };
}

/*
 * The next line of *in, without its '\n', into *line. Returns 1, 0 at
 * the end of the input, or -1 for a last line without '\n': the kernel
 * ends every line with one, so the text was cut there.
 */
static inline int next_line(struct span *in, struct span *line)
{
	const char *nl;

	if (in->p >= in->end)
		return 0;
	nl = memchr(in->p, '\n', in->end - in->p);
	if (!nl)
		return -1;
	line->p = in->p;
	line->end = nl;
	in->p = nl + 1;
	return 1;
}

static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline void skip_blanks(struct span *s)
{
	while (s->p < s->end && is_blank(*s->p))
		s->p++;
}

/* Nothing but blanks left. */
static inline bool at_end(struct span *s)
{
	skip_blanks(s);
	return s->p == s->end;
}

static inline bool at_blank(const struct span *s)
{
	return s->p < s->end && is_blank(*s->p);
}

/* At least one blank, skipped. */
static inline bool blanks(struct span *s)
{
	if (!at_blank(s))
		return false;
	skip_blanks(s);
	return true;
}

/* At the end of a word: the end of the span or a blank. */
static inline bool at_boundary(const struct span *s)
{
	return s->p == s->end || is_blank(*s->p);
}

static inline bool starts_with(const struct span *s, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(s->end - s->p) >= n && !memcmp(s->p, lit, n);
}

/* Consumes lit if s starts with it. */
static inline bool eat(struct span *s, const char *lit)
{
	if (!starts_with(s, lit))
		return false;
	s->p += strlen(lit);
	return true;
}

static inline bool span_is(const struct span *s, const char *lit)
{
	return (size_t)(s->end - s->p) == strlen(lit) && starts_with(s, lit);
}

/*
 * The decimal digits at s->p into *v, and how many there were into *n
 * (may be NULL). Returns -1 when there are none or they overflow 64 bits.
 */
static inline int digits(struct span *s, uint64_t *v, int *n)
{
	const char *start = s->p;
	uint64_t x = 0;

	while (s->p < s->end && is_digit(*s->p)) {
		unsigned int d = *s->p - '0';

		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
		s->p++;
	}
	if (s->p == start)
		return -1;
	*v = x;
	if (n)
		*n = s->p - start;
	return 0;
}

/* The next blank-separated word as an unsigned decimal. */
static inline int word_u64(struct span *s, uint64_t *v)
{
	skip_blanks(s);
	return digits(s, v, NULL) || !at_boundary(s) ? -1 : 0;
}

/* The next blank-separated word (never empty). */
static inline int word(struct span *s, struct span *w)
{
	skip_blanks(s);
	w->p = s->p;
	while (s->p < s->end && !is_blank(*s->p))
		s->p++;
	w->end = s->p;
	return w->p < w->end ? 0 : -1;
}

/*
 * "12.345678", the kernel's SPLIT_NS() form ("%Ld.%06ld" of a count of
 * nanoseconds: milliseconds with exactly six decimals), in ns.
 */
static inline int word_ms_ns(struct span *s, uint64_t *ns)
{
	uint64_t ms, frac;
	int n;

	skip_blanks(s);
	if (digits(s, &ms, NULL) || !eat(s, ".") || digits(s, &frac, &n) ||
	    n != 6 || !at_boundary(s) || ms > (UINT64_MAX - frac) / 1000000)
		return -1;
	*ns = ms * 1000000 + frac;
	return 0;
}

/* A signed decimal word ("-1", "120"). */
static inline int word_s64(struct span *s, int64_t *v)
{
	bool neg;
	uint64_t x;

	skip_blanks(s);
	neg = eat(s, "-");
	if (digits(s, &x, NULL) || !at_boundary(s) ||
	    x > (uint64_t)INT64_MAX + neg)
		return -1;
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	return 0;
}

/* A capacity above cap that holds element n: doubling, at least 8. */
static inline size_t new_cap(size_t cap, size_t n)
{
	size_t ncap = cap ? 2 * cap : 8;

	return ncap > n ? ncap : n + 1;
}

/* Room for element n in arr (of *cap elements of size elem), or NULL. */
static inline void *grow(void *arr, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return arr;
	ncap = new_cap(*cap, n);
	p = realloc(arr, ncap * elem);
	if (p)
		*cap = ncap;
	return p;
}

#endif
