// SPDX-License-Identifier: GPL-2.0-only
/*
 * hist: the log-linear latency histogram's bucket arithmetic, merging,
 * percentiles and JSON form. Recording is inline in hist.h; see there
 * for the scheme and the error bounds.
 */
#include <math.h>
#include <string.h>

#include "stats/hist.h"
#include "util.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

/* Bucket i is [m << s, ((m + 1) << s) - 1], m in [256, 512), above 512. */
static unsigned int bucket_shift(size_t i)
{
	return i < HIST_EXACT ? 0 : (unsigned int)(i >> HIST_SUB_BITS) - 1;
}

uint64_t hist_bucket_low(size_t i)
{
	unsigned int s = bucket_shift(i);

	if (i >= HIST_BUCKETS)
		return UINT64_MAX;
	return (uint64_t)(i - ((size_t)s << HIST_SUB_BITS)) << s;
}

uint64_t hist_bucket_high(size_t i)
{
	if (i >= HIST_BUCKETS)
		return UINT64_MAX;
	return hist_bucket_low(i) + (1ull << bucket_shift(i)) - 1;
}

static uint64_t sat_add(uint64_t a, uint64_t b, uint64_t top)
{
	uint64_t r;

	if (__builtin_add_overflow(a, b, &r) || r > top)
		return top;
	return r;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	size_t last = hist_bucket_of(src->max);

	if (!src->count)
		return;
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum = sat_add(dst->sum, src->sum, INT64_MAX);
	dst->saturated += src->saturated;
	for (size_t i = hist_bucket_of(src->min); i <= last; i++)
		dst->bucket[i] += src->bucket[i];
}

uint64_t hist_count(const struct hist *h)
{
	return h->count;
}

uint64_t hist_min(const struct hist *h)
{
	return h->count ? h->min : 0;
}

uint64_t hist_max(const struct hist *h)
{
	return h->count ? h->max : 0;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0;
}

uint64_t hist_percentile(const struct hist *h, double pct)
{
	size_t last = hist_bucket_of(h->max);
	uint64_t rank, seen = 0;
	double r;

	if (!h->count)
		return 0;
	if (pct >= 100)
		return h->max;
	/* pct * count first: exact for integer pct, so p99 of 1000 is 990 */
	r = ceil(pct * (double)h->count / 100);
	rank = r >= 1 ? (uint64_t)r : 1;	/* NaN too */
	if (rank > h->count)
		rank = h->count;
	for (size_t i = hist_bucket_of(h->min); i <= last; i++) {
		uint64_t low, mid;

		seen += h->bucket[i];
		if (seen < rank)
			continue;
		low = hist_bucket_low(i);
		mid = low + (hist_bucket_high(i) - low) / 2;
		if (mid < h->min)
			return h->min;
		return mid > h->max ? h->max : mid;
	}
	return h->max;		/* buckets short of count: not ours */
}

uint64_t hist_count_upto(const struct hist *h, uint64_t ns)
{
	size_t last = hist_bucket_of(ns);
	uint64_t n = 0;

	if (!h->count || ns < h->min)
		return 0;
	if (ns >= h->max)
		return h->count;
	for (size_t i = hist_bucket_of(h->min); i <= last; i++)
		n += h->bucket[i];
	return n;
}

/* Every field is <= INT64_MAX (see hist.h); clamp anyway, never wrap. */
static json_t *json_u64(uint64_t v)
{
	return json_integer(v > INT64_MAX ? INT64_MAX : (json_int_t)v);
}

json_t *hist_to_json(const struct hist *h)
{
	json_t *buckets = json_array();

	if (!buckets)
		return NULL;
	for (size_t i = h->count ? hist_bucket_of(h->min) : HIST_BUCKETS;
	     i < HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		if (json_array_append_new(buckets,
				json_pack("[o, o]", json_u64(hist_bucket_low(i)),
					  json_u64(h->bucket[i])))) {
			json_decref(buckets);
			return NULL;
		}
	}
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "unit", "ns", "scheme", HIST_SCHEME,
			 "count", json_u64(h->count),
			 "sum", json_u64(h->sum),
			 "min", json_u64(hist_min(h)),
			 "max", json_u64(hist_max(h)),
			 "saturated", json_u64(h->saturated),
			 "buckets", buckets);
}

static uint64_t sat_mul(uint64_t a, uint64_t b, uint64_t top)
{
	uint64_t r;

	if (__builtin_mul_overflow(a, b, &r) || r > top)
		return top;
	return r;
}

#define bad(...) error("histogram: " __VA_ARGS__)

static int get_u64(const json_t *v, uint64_t *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -1;
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

static int get_field(const json_t *j, const char *key, uint64_t *out)
{
	if (get_u64(json_object_get(j, key), out))
		return bad("\"%s\" is not a non-negative integer", key);
	return 0;
}

static int check_string(const json_t *j, const char *key, const char *want)
{
	const char *s = json_string_value(json_object_get(j, key));

	if (!s)
		return bad("no \"%s\" string", key);
	if (strcmp(s, want))
		return bad("%s \"%s\" is not \"%s\"", key, s, want);
	return 0;
}

/* buckets[k], a [low, count] pair, into *bucket and *n. */
static int get_bucket(const json_t *e, size_t k, size_t *bucket, uint64_t *n)
{
	uint64_t low;

	if (!json_is_array(e) || json_array_size(e) != 2 ||
	    get_u64(json_array_get(e, 0), &low) ||
	    get_u64(json_array_get(e, 1), n))
		return bad("buckets[%zu] is not a pair of non-negative integers",
			   k);
	*bucket = hist_bucket_of(low);
	if (low >= HIST_LIMIT || hist_bucket_low(*bucket) != low)
		return bad("buckets[%zu]: %llu is not a bucket boundary", k,
			   (unsigned long long)low);
	if (!*n)
		return bad("buckets[%zu]: a bucket with count 0", k);
	return 0;
}

/* What check_buckets() found: the first and last bucket index, the
 * last one's count and the total. */
struct bucket_span {
	size_t first, last;
	uint64_t last_count, total;
};

static int check_buckets(const json_t *arr, struct bucket_span *sp)
{
	if (!json_is_array(arr))
		return bad("no \"buckets\" array");
	memset(sp, 0, sizeof(*sp));
	for (size_t k = 0; k < json_array_size(arr); k++) {
		size_t b = 0;
		uint64_t c = 0;

		if (get_bucket(json_array_get(arr, k), k, &b, &c))
			return -1;
		if (k && b <= sp->last)
			return bad("buckets[%zu]: lows not ascending", k);
		if (__builtin_add_overflow(sp->total, c, &sp->total))
			return bad("bucket counts overflow");
		if (!k)
			sp->first = b;
		sp->last = b;
		sp->last_count = c;
	}
	return 0;
}

/* A histogram's header as read, before it is checked. */
struct totals {
	uint64_t count, sum, min, max, saturated;
};

/* Whether the header agrees with the buckets. */
static int check_totals(const struct totals *t, const struct bucket_span *sp)
{
	if (sp->total != t->count)
		return bad("bucket counts add up to %llu, not count %llu",
			   (unsigned long long)sp->total,
			   (unsigned long long)t->count);
	if (!t->count) {
		if (t->sum || t->min || t->max || t->saturated)
			return bad("empty, but sum, min, max or saturated is not 0");
		return 0;
	}
	if (t->min > t->max)
		return bad("min %llu above max %llu",
			   (unsigned long long)t->min,
			   (unsigned long long)t->max);
	if (hist_bucket_of(t->min) != sp->first ||
	    hist_bucket_of(t->max) != sp->last)
		return bad("min or max outside the first or last bucket");
	if ((t->max >= HIST_LIMIT) != (t->saturated > 0))
		return bad("saturated %llu does not match max %llu",
			   (unsigned long long)t->saturated,
			   (unsigned long long)t->max);
	if (t->saturated > sp->last_count)
		return bad("saturated %llu above the last bucket's count",
			   (unsigned long long)t->saturated);
	/* sum saturates at INT64_MAX, so the bounds do too */
	if (t->sum < sat_mul(t->count, t->min, INT64_MAX) ||
	    t->sum > sat_mul(t->count, t->max, UINT64_MAX))
		return bad("sum %llu outside count * [min, max]",
			   (unsigned long long)t->sum);
	return 0;
}

int hist_from_json(const json_t *j, struct hist *h)
{
	const json_t *arr = json_object_get(j, "buckets");
	struct bucket_span sp;
	struct totals t;

	if (!json_is_object(j))
		return bad("not a JSON object");
	if (check_string(j, "unit", "ns") ||
	    check_string(j, "scheme", HIST_SCHEME) ||
	    get_field(j, "count", &t.count) || get_field(j, "sum", &t.sum) ||
	    get_field(j, "min", &t.min) || get_field(j, "max", &t.max) ||
	    get_field(j, "saturated", &t.saturated) ||
	    check_buckets(arr, &sp) || check_totals(&t, &sp))
		return -1;

	hist_init(h);
	h->count = t.count;
	h->sum = t.sum;
	h->min = t.min;
	h->max = t.max;
	h->saturated = t.saturated;
	for (size_t k = 0; k < json_array_size(arr); k++) {
		const json_t *e = json_array_get(arr, k);
		uint64_t low = json_integer_value(json_array_get(e, 0));

		h->bucket[hist_bucket_of(low)] =
			json_integer_value(json_array_get(e, 1));
	}
	return 0;
}

void hist_shared_finish(struct hist *h)
{
	uint64_t count = 0, sum = 0;

	for (size_t i = 0; i < HIST_BUCKETS; i++) {
		uint64_t n = h->bucket[i], lo, mid;

		if (!n)
			continue;
		count += n;
		lo = hist_bucket_low(i);
		mid = lo + (hist_bucket_high(i) - lo) / 2;
		/* the extremes are known exactly */
		if (mid < ~h->reserved[0])
			mid = ~h->reserved[0];
		if (mid > h->max)
			mid = h->max;
		sum = sum + n * mid < sum ? INT64_MAX : sum + n * mid;
	}
	h->count = count;
	h->sum = sum > INT64_MAX ? INT64_MAX : sum;
	h->saturated = h->max >= HIST_LIMIT ? h->bucket[HIST_BUCKETS - 1] : 0;
	h->min = count ? ~h->reserved[0] : 0;
	h->reserved[0] = 0;
	if (!count)
		h->max = 0;
}
