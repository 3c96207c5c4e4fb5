// SPDX-License-Identifier: GPL-2.0-only
/*
 * The log-linear latency histogram: its bucket boundaries, error bound,
 * percentiles, merging, saturation and JSON form.
 *
 * Where the expected values come from: the bucket boundaries by hand
 * from the scheme (below 512 one bucket per value; from 2^k upward 256
 * buckets of 2^(k-8) ns, so 512 is in [512, 513] and 2^20 in [2^20,
 * 2^20 + 4095]), checked against a separate Python model of the scheme
 * written from that description, which also gave the percentiles (the
 * rank-r value, its bucket's midpoint rounded down, clamped to [min,
 * max]). Where a test compares with a sort of the same values instead,
 * it says so.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/hist.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define TOP (HIST_BUCKETS - 1)

/* Histograms are 68 KiB: keep them off the (sanitizer-fattened) stack. */
static struct hist ha, hb, hc;

/* Deterministic values spread over every magnitude below 2^bits. */
static uint64_t rnd_state;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static uint64_t rnd_value(unsigned int bits)
{
	uint64_t r = rnd();

	return (r >> (64 - bits)) >> (r % bits);
}

static void test_bucket_boundaries(void **state)
{
	static const struct {
		uint64_t ns;
		size_t i;
		uint64_t low, high;
	} t[] = {
		{ 0, 0, 0, 0 },
		{ 1, 1, 1, 1 },
		{ 511, 511, 511, 511 },
		{ 512, 512, 512, 513 },		/* 256 * 2 + 256 - 256 */
		{ 513, 512, 512, 513 },
		{ 514, 513, 514, 515 },
		{ 1023, 767, 1022, 1023 },	/* 256 + 511 */
		{ 1024, 768, 1024, 1027 },	/* 2 * 256 + 256 */
		{ 1048576, 3328, 1048576, 1052671 },	/* 2^20: 12 * 256 + 256 */
		{ 1052672, 3329, 1052672, 1056767 },	/* 2^20 + 4096 */
		/* 2^40: 32 * 256 + 256; width 2^32 */
		{ 1099511627776ull, 8448, 1099511627776ull, 1103806595071ull },
		/* 2^41 - 1: the last bucket, [511 << 32, 2^41 - 1] */
		{ 2199023255551ull, 8703, 2194728288256ull, 2199023255551ull },
		/* above the top: saturated into the last bucket */
		{ 2199023255552ull, 8703, 2194728288256ull, 2199023255551ull },
		{ 3600000000000ull, 8703, 2194728288256ull, 2199023255551ull },
		{ UINT64_MAX, 8703, 2194728288256ull, 2199023255551ull },
	};

	(void)state;
	assert_int_equal(HIST_BUCKETS, 8704);
	assert_int_equal(HIST_LIMIT, 2199023255552ull);
	for (size_t k = 0; k < N(t); k++) {
		size_t i = hist_bucket_of(t[k].ns);

		if (i != t[k].i || hist_bucket_low(i) != t[k].low ||
		    hist_bucket_high(i) != t[k].high)
			fail_msg("%llu: bucket %zu [%llu, %llu], expected "
				 "%zu [%llu, %llu]",
				 (unsigned long long)t[k].ns, i,
				 (unsigned long long)hist_bucket_low(i),
				 (unsigned long long)hist_bucket_high(i),
				 t[k].i, (unsigned long long)t[k].low,
				 (unsigned long long)t[k].high);
	}
	assert_true(hist_bucket_low(HIST_BUCKETS) == UINT64_MAX);
	assert_true(hist_bucket_high(HIST_BUCKETS) == UINT64_MAX);
	assert_true(hist_bucket_low((size_t)-1) == UINT64_MAX);
}

/* Every bucket: contiguous, each end maps back, width under 0.5%. */
static void test_every_bucket(void **state)
{
	(void)state;
	assert_true(hist_bucket_low(0) == 0);
	assert_true(hist_bucket_high(TOP) == HIST_LIMIT - 1);
	for (size_t i = 0; i < HIST_BUCKETS; i++) {
		uint64_t low = hist_bucket_low(i), high = hist_bucket_high(i);

		assert_int_equal(hist_bucket_of(low), i);
		assert_int_equal(hist_bucket_of(high), i);
		if (i)
			assert_true(low == hist_bucket_high(i - 1) + 1);
		if (i < 512) {
			assert_true(low == i && high == i);
			continue;
		}
		/* (high - low) / low < 1/256 < 0.5% */
		if ((high - low) * 256 >= low || (high - low) * 200 >= low)
			fail_msg("bucket %zu [%llu, %llu] too wide", i,
				 (unsigned long long)low,
				 (unsigned long long)high);
		/* the percentile's midpoint is within 1/512 of any value */
		if ((high - low + 1) / 2 * 512 > low)
			fail_msg("bucket %zu: midpoint too far", i);
	}
}

static void test_empty(void **state)
{
	(void)state;
	memset(&ha, 0x5a, sizeof(ha));
	hist_init(&ha);
	assert_true(hist_count(&ha) == 0);
	assert_true(hist_min(&ha) == 0);
	assert_true(hist_max(&ha) == 0);
	assert_true(hist_mean(&ha) == 0);
	assert_true(hist_percentile(&ha, 50) == 0);
	assert_true(hist_percentile(&ha, 100) == 0);
	/* zeroed memory is an empty histogram */
	memset(&hb, 0, sizeof(hb));
	assert_memory_equal(&ha, &hb, sizeof(ha));
	hist_record(&hb, 700);
	assert_true(hist_min(&hb) == 700 && hist_max(&hb) == 700);
}

static void test_record(void **state)
{
	static const uint64_t v[] = { 3, 3, 600, 1000000, 0, 511 };

	(void)state;
	hist_init(&ha);
	for (size_t k = 0; k < N(v); k++)
		hist_record(&ha, v[k]);
	assert_true(hist_count(&ha) == 6);
	assert_true(hist_min(&ha) == 0);
	assert_true(hist_max(&ha) == 1000000);
	assert_true(ha.sum == 1001117);
	assert_true(hist_mean(&ha) == 1001117 / 6.0);
	assert_true(ha.saturated == 0);
	assert_true(ha.bucket[0] == 1 && ha.bucket[3] == 2 &&
		    ha.bucket[511] == 1);
	assert_true(ha.bucket[556] == 1);	/* 600: 256 + 300 */
	assert_true(ha.bucket[3304] == 1);	/* 10^6: 11 * 256 + 488 */
}

static uint64_t pctl(const struct hist *h, double pct)
{
	return hist_percentile(h, pct);
}

/* 1..1000 ns: exact to 511, then buckets of 2 starting at even values. */
static void test_percentile_uniform(void **state)
{
	(void)state;
	hist_init(&ha);
	for (uint64_t v = 1; v <= 1000; v++)
		hist_record(&ha, v);
	assert_true(hist_mean(&ha) == 500.5);
	assert_int_equal(pctl(&ha, 0.1), 1);
	assert_int_equal(pctl(&ha, 1), 10);
	assert_int_equal(pctl(&ha, 25), 250);
	assert_int_equal(pctl(&ha, 50), 500);
	assert_int_equal(pctl(&ha, 51.2), 512);
	assert_int_equal(pctl(&ha, 51.3), 512);	/* rank 513: [512, 513] */
	assert_int_equal(pctl(&ha, 75), 750);
	assert_int_equal(pctl(&ha, 90), 900);
	assert_int_equal(pctl(&ha, 95), 950);
	assert_int_equal(pctl(&ha, 99), 990);
	assert_int_equal(pctl(&ha, 99.9), 998);	/* rank 999: [998, 999] */
	assert_int_equal(pctl(&ha, 100), 1000);
	/* out of (0, 100]: the smallest rank, or 100 */
	assert_int_equal(pctl(&ha, 0), 1);
	assert_int_equal(pctl(&ha, -5), 1);
	assert_int_equal(pctl(&ha, NAN), 1);
	assert_int_equal(pctl(&ha, 150), 1000);
}

static void test_percentile_clamped(void **state)
{
	(void)state;
	/* 999 x 1 ms and one 1 s: 10^6 is in [999424, 1001471] */
	hist_init(&ha);
	for (int k = 0; k < 999; k++)
		hist_record(&ha, 1000000);
	hist_record(&ha, 1000000000);
	assert_int_equal(pctl(&ha, 50), 1000447);
	assert_int_equal(pctl(&ha, 99.9), 1000447);
	/* rank 1000, 10^9: [998244352, 1000341503], below max */
	assert_int_equal(pctl(&ha, 99.95), 999292927);
	assert_int_equal(pctl(&ha, 100), 1000000000);

	/* the midpoint clamped up to min and down to max */
	hist_init(&ha);
	hist_record(&ha, 1001000);	/* [999424, 1001471], mid 1000447 */
	hist_record(&ha, 3000000);	/* [2998272, 3006463], mid 3002367 */
	assert_int_equal(pctl(&ha, 50), 1001000);
	assert_int_equal(pctl(&ha, 75), 3000000);

	/* one distinct value: every percentile is it */
	hist_init(&ha);
	for (int k = 0; k < 5; k++)
		hist_record(&ha, 123456789);
	assert_int_equal(pctl(&ha, 1), 123456789);
	assert_int_equal(pctl(&ha, 50), 123456789);
	assert_int_equal(pctl(&ha, 100), 123456789);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Within 1/512 of the nearest-rank value in v[0..n), sorted; exact < 512. */
static void check_pct(const struct hist *h, const uint64_t *v, size_t n,
		      double pct)
{
	size_t r = (size_t)ceil(pct * (double)n / 100);
	uint64_t x = v[r - 1], got = pctl(h, pct);
	uint64_t d = got > x ? got - x : x - got;

	if (x < 512 ? d != 0 : d * 512 > x)
		fail_msg("p%g: %llu, the value is %llu", pct,
			 (unsigned long long)got, (unsigned long long)x);
}

/* Against a sort of the same values. */
static void test_percentile_error_bound(void **state)
{
	static const double pcts[] = {
		0.001, 0.01, 0.1, 99.9, 99.99, 99.995, 100,
	};
	enum { NV = 20000 };
	uint64_t *v = calloc(NV, sizeof(*v));

	(void)state;
	assert_non_null(v);
	rnd_state = 88172645463325252ull;
	hist_init(&ha);
	for (size_t k = 0; k < NV; k++) {
		v[k] = rnd_value(HIST_LIMIT_BITS);
		hist_record(&ha, v[k]);
	}
	qsort(v, NV, sizeof(*v), cmp_u64);
	assert_true(hist_min(&ha) == v[0] && hist_max(&ha) == v[NV - 1]);
	assert_true(v[NV / 10] < 512);		/* both regions are tried */
	for (size_t k = 0; k < N(pcts); k++)
		check_pct(&ha, v, NV, pcts[k]);
	for (int k = 1; k <= 200; k++)
		check_pct(&ha, v, NV, k / 2.0);
	free(v);
}

static void test_merge(void **state)
{
	(void)state;
	rnd_state = 2463534242ull;
	hist_init(&ha);
	hist_init(&hb);
	hist_init(&hc);
	for (int k = 0; k < 50000; k++) {
		uint64_t x = rnd_value(k % 100 ? 36 : 64);

		hist_record(k % 3 ? &ha : &hb, x);
		hist_record(&hc, x);
	}
	assert_true(hc.saturated > 0);
	hist_merge(&ha, &hb);
	assert_memory_equal(&ha, &hc, sizeof(ha));

	/* an empty one either way round; hb gets min and max from ha */
	hist_init(&hb);
	hist_merge(&ha, &hb);
	assert_memory_equal(&ha, &hc, sizeof(ha));
	hist_merge(&hb, &ha);
	assert_memory_equal(&hb, &hc, sizeof(hb));

	/* a larger min from src does not replace dst's */
	hist_init(&ha);
	hist_init(&hb);
	hist_record(&ha, 10);
	hist_record(&hb, 20);
	hist_merge(&ha, &hb);
	assert_true(hist_min(&ha) == 10 && hist_max(&ha) == 20);
	assert_true(hist_count(&ha) == 2 && ha.sum == 30);
}

static void test_saturation(void **state)
{
	(void)state;
	hist_init(&ha);
	hist_record(&ha, HIST_LIMIT - 1);	/* the top, not saturated */
	assert_true(ha.saturated == 0);
	hist_record(&ha, HIST_LIMIT);
	hist_record(&ha, 3600000000000ull);	/* an hour */
	assert_true(ha.saturated == 2);
	assert_true(ha.bucket[TOP] == 3);
	assert_true(hist_max(&ha) == 3600000000000ull);
	assert_true(ha.sum == 2199023255551ull + 2199023255552ull +
			     3600000000000ull);
	assert_int_equal(pctl(&ha, 100), 3600000000000ull);
	/* the last bucket's midpoint is below min: min */
	assert_int_equal(pctl(&ha, 50), HIST_LIMIT - 1);

	/* 2^63 and above are kept as INT64_MAX; sum saturates there */
	hist_record(&ha, UINT64_MAX);
	assert_true(ha.saturated == 3 && ha.bucket[TOP] == 4);
	assert_true(hist_max(&ha) == INT64_MAX);
	assert_true(ha.sum == INT64_MAX);
	hist_record(&ha, 5);
	assert_true(ha.sum == INT64_MAX && hist_min(&ha) == 5);
	hist_init(&hb);
	hist_record(&hb, 1);
	hist_merge(&hb, &ha);
	assert_true(hb.sum == INT64_MAX && hb.saturated == 3);
}

static char *dumps(const struct hist *h)
{
	json_t *j = hist_to_json(h);
	char *s;

	assert_non_null(j);
	s = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	assert_non_null(s);
	return s;
}

static int loads(const char *text, struct hist *h)
{
	json_error_t err;
	json_t *j = json_loads(text, JSON_DECODE_ANY, &err);
	int ret;

	if (!j)
		fail_msg("test JSON does not parse: %s: %s", err.text, text);
	ret = hist_from_json(j, h);
	json_decref(j);
	return ret;
}

#define HEAD "\"unit\":\"ns\",\"scheme\":\"loglin-512-256\""

static void test_json_form(void **state)
{
	char *s;

	(void)state;
	hist_init(&ha);
	s = dumps(&ha);
	assert_string_equal(s, "{" HEAD ",\"count\":0,\"sum\":0,\"min\":0,"
			    "\"max\":0,\"saturated\":0,\"buckets\":[]}");
	free(s);

	hist_record(&ha, 3);
	hist_record(&ha, 1000000);
	hist_record(&ha, 600);
	hist_record(&ha, 3);
	s = dumps(&ha);
	assert_string_equal(s, "{" HEAD ",\"count\":4,\"sum\":1000606,"
			    "\"min\":3,\"max\":1000000,\"saturated\":0,"
			    "\"buckets\":[[3,2],[600,1],[999424,1]]}");
	free(s);
}

static void round_trip(const struct hist *h)
{
	char *s = dumps(h);

	memset(&hc, 0x5a, sizeof(hc));
	assert_int_equal(loads(s, &hc), 0);
	assert_memory_equal(h, &hc, sizeof(hc));
	free(s);
}

static void test_json_round_trip(void **state)
{
	(void)state;
	hist_init(&ha);
	round_trip(&ha);
	hist_record(&ha, 0);
	round_trip(&ha);
	rnd_state = 1234567ull;
	for (int k = 0; k < 30000; k++)
		hist_record(&ha, rnd_value(k % 50 ? 42 : 64));
	assert_true(ha.saturated > 0 && ha.sum == INT64_MAX);
	round_trip(&ha);
	/* unknown members are ignored */
	assert_int_equal(loads("{" HEAD ",\"count\":1,\"sum\":7,\"min\":7,"
			       "\"max\":7,\"saturated\":0,\"buckets\":[[7,1]],"
			       "\"note\":\"x\"}", &hb), 0);
	assert_int_equal(pctl(&hb, 50), 7);
}

#define OMIT ((const char *)1)

/* Fields of a histogram text; NULL: the valid value, OMIT: left out. */
struct fields {
	const char *unit, *scheme, *count, *sum, *min, *max, *sat, *buckets;
};

static void member(char **p, const char *key, const char *v, const char *dflt)
{
	if (v == OMIT)
		return;
	*p += sprintf(*p, "%s\"%s\":%s", (*p)[-1] == '{' ? "" : ",", key,
		      v ? v : dflt);
}

static void test_json_rejects(void **state)
{
	static const char *const texts[] = {
		"[]", "\"hist\"", "42", "null", "{}",
		"[{" HEAD ",\"count\":0,\"sum\":0,\"min\":0,\"max\":0,"
		"\"saturated\":0,\"buckets\":[]}]",
	};
	static const struct fields bad[] = {
		{ .unit = "\"us\"" }, { .unit = "1" }, { .unit = OMIT },
		{ .scheme = "\"loglin-512-128\"" }, { .scheme = OMIT },
		{ .scheme = "null" },
		{ .count = "-1" }, { .count = "4.0" }, { .count = "\"4\"" },
		{ .count = OMIT }, { .count = "5" }, { .count = "3" },
		{ .sum = "-5" }, { .sum = OMIT },
		{ .sum = "5" },		/* below 4 * min */
		{ .sum = "4000001" },	/* above 4 * max */
		{ .min = "-3" }, { .min = "4" }, { .min = "1000000" },
		{ .min = "2" }, { .min = OMIT },
		{ .max = "-1" }, { .max = "2000000" }, { .max = "999423" },
		{ .max = "3" }, { .max = OMIT },
		{ .sat = "1" }, { .sat = "-1" }, { .sat = OMIT },
		{ .buckets = OMIT }, { .buckets = "{}" }, { .buckets = "null" },
		{ .buckets = "[[3,2],[600,1],[999424]]" },
		{ .buckets = "[[3,2],[600,1],[999424,1,0]]" },
		{ .buckets = "[[3,2],[600,1],\"x\"]" },
		{ .buckets = "[[3,2],[600,1],{\"999424\":1}]" },
		{ .buckets = "[[3,2],[600,-1],[999424,2]]" },
		{ .buckets = "[[3,2],[-600,1],[999424,1]]" },
		{ .buckets = "[[3,2],[600,1.0],[999424,1]]" },
		{ .buckets = "[[3,2],[601,1],[999424,1]]" },	/* not a low */
		{ .buckets = "[[3,2],[600,1],[1000000,1]]" },
		{ .buckets = "[[3,2],[999424,1],[600,1]]" },	/* descending */
		{ .buckets = "[[3,1],[3,1],[600,1],[999424,1]]" },
		{ .buckets = "[[3,2],[500,0],[600,1],[999424,1]]" },
		{ .buckets = "[[3,2],[600,1],[999424,1],[2199023255552,0]]" },
		{ .buckets = "[[3,2],[600,1],[999424,1],[2199023255552,1]]" },
		{ .buckets = "[[3,2],[600,1],[999424,9223372036854775807]]" },
		{ .buckets = "[]" },
	};
	/* saturated, but inconsistently */
	static const char *const sat_texts[] = {
		"{" HEAD ",\"count\":1,\"sum\":2199023255552,"
		"\"min\":2199023255552,\"max\":2199023255552,\"saturated\":0,"
		"\"buckets\":[[2194728288256,1]]}",
		"{" HEAD ",\"count\":1,\"sum\":2199023255552,"
		"\"min\":2199023255552,\"max\":2199023255552,\"saturated\":2,"
		"\"buckets\":[[2194728288256,1]]}",
		"{" HEAD ",\"count\":0,\"sum\":0,\"min\":1,\"max\":0,"
		"\"saturated\":0,\"buckets\":[]}",
	};
	char text[512];

	(void)state;
	memset(&ha, 0x5a, sizeof(ha));
	memcpy(&hb, &ha, sizeof(hb));
	assert_int_equal(hist_from_json(NULL, &ha), -1);
	for (size_t k = 0; k < N(texts); k++) {
		if (loads(texts[k], &ha) != -1)
			fail_msg("accepted: %s", texts[k]);
	}
	for (size_t k = 0; k < N(sat_texts); k++) {
		if (loads(sat_texts[k], &ha) != -1)
			fail_msg("accepted: %s", sat_texts[k]);
	}
	for (size_t k = 0; k <= N(bad); k++) {
		/* the last one is all valid, to show the rest are not */
		const struct fields *f = k < N(bad) ? &bad[k] :
					 &(struct fields){ 0 };
		char *p = text;

		*p++ = '{';
		member(&p, "unit", f->unit, "\"ns\"");
		member(&p, "scheme", f->scheme, "\"loglin-512-256\"");
		member(&p, "count", f->count, "4");
		member(&p, "sum", f->sum, "1000606");
		member(&p, "min", f->min, "3");
		member(&p, "max", f->max, "1000000");
		member(&p, "saturated", f->sat, "0");
		member(&p, "buckets", f->buckets, "[[3,2],[600,1],[999424,1]]");
		strcpy(p, "}");
		if (k < N(bad) && loads(text, &ha) != -1)
			fail_msg("accepted: %s", text);
		if (k < N(bad))
			assert_memory_equal(&ha, &hb, sizeof(ha));
		else
			assert_int_equal(loads(text, &ha), 0);
	}
}

/*
 * The shared variant keeps the same buckets, count, min and max as
 * hist_record; its sum comes from bucket midpoints: exact below 512 ns,
 * within 0.2% above. Values: 1..2000 ns and a few large ones.
 */
static void test_shared_matches_plain(void **state)
{
	static struct hist plain, shared;
	double rel;

	(void)state;
	hist_init(&plain);
	hist_init(&shared);
	for (uint64_t v = 1; v <= 2000; v++) {
		hist_record(&plain, v);
		hist_record_shared(&shared, v);
	}
	for (uint64_t v = 1000000; v <= 5000000; v += 1000000) {
		hist_record(&plain, v);
		hist_record_shared(&shared, v);
	}
	hist_shared_finish(&shared);
	assert_memory_equal(plain.bucket, shared.bucket, sizeof(plain.bucket));
	assert_int_equal(hist_count(&shared), 2005);
	assert_int_equal(hist_min(&shared), 1);
	assert_int_equal(hist_max(&shared), 5000000);
	assert_int_equal(hist_percentile(&shared, 50), hist_percentile(&plain, 50));
	rel = fabs((double)shared.sum - (double)plain.sum) / (double)plain.sum;
	assert_true(rel < 0.002);
	/* an empty one stays empty */
	hist_init(&shared);
	hist_shared_finish(&shared);
	assert_int_equal(hist_count(&shared), 0);
	assert_int_equal(hist_min(&shared), 0);
	assert_int_equal(hist_max(&shared), 0);
}

/*
 * Values 1..1000 once each: exactly k are <= k below 512 (exact
 * buckets); above, the whole bucket of the value counts: 1000 is in
 * [1000, 1001] (width 2 from 512), so 999 values are <= 999 and the
 * bucket of 600 ([600, 601]) holds 600 and 601: 601.
 */
static void test_count_upto(void **state)
{
	(void)state;
	hist_init(&ha);
	assert_true(hist_count_upto(&ha, 10) == 0);
	for (uint64_t v = 1; v <= 1000; v++)
		hist_record(&ha, v);
	assert_true(hist_count_upto(&ha, 0) == 0);
	assert_true(hist_count_upto(&ha, 1) == 1);
	assert_true(hist_count_upto(&ha, 511) == 511);
	assert_true(hist_count_upto(&ha, 600) == 601);
	assert_true(hist_count_upto(&ha, 999) == 999);
	assert_true(hist_count_upto(&ha, 1000) == 1000);
	assert_true(hist_count_upto(&ha, 5000) == 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_boundaries),
		cmocka_unit_test(test_every_bucket),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_percentile_uniform),
		cmocka_unit_test(test_percentile_clamped),
		cmocka_unit_test(test_percentile_error_bound),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_json_form),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_rejects),
		cmocka_unit_test(test_shared_matches_plain),
		cmocka_unit_test(test_count_upto),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
