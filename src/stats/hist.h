/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hist: a log-linear latency histogram of nanosecond values, cheap
 * enough to record every event of a run and small enough to merge and
 * store. It owns the bucket scheme ("loglin-512-256"), the fixed-size
 * struct that workers write (in shared memory, one per worker, merged
 * afterwards), the percentiles read from it and its JSON form.
 *
 * Buckets: one per value below 512 ns (exact), then 256 equal buckets
 * per power of two: [512, 1024) in steps of 2 ns, [1024, 2048) in steps
 * of 4, ..., [2^40, 2^41) in steps of 2^32. A bucket [low, high] of
 * width w = high - low + 1 starts at low >= 256 * w, so any value in it
 * is within (w - 1) / low < 1/256 (0.39%) of low. The last bucket ends
 * at HIST_LIMIT - 1 = 2^41 - 1 ns (36.6 minutes); larger values are
 * counted in it and in h->saturated, and min, max and sum keep them.
 *
 * Values of 2^63 ns (292 years) and more can only be a broken
 * measurement (a negative difference); they are recorded as INT64_MAX,
 * and sum saturates at INT64_MAX, so every field fits a JSON integer.
 *
 * A struct hist has no pointers and is valid as all-zero bytes: a fresh
 * MAP_SHARED | MAP_ANONYMOUS mapping holds empty histograms without
 * hist_init(), and only the pages that recorded values touch become
 * resident (1 us to 10 ms touches 9 pages of 18). Recording
 * is not atomic: one writer per histogram, read after it has stopped.
 */
#ifndef SCHEDLAB_HIST_H
#define SCHEDLAB_HIST_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#define HIST_SCHEME	"loglin-512-256"
#define HIST_SUB_BITS	8			/* 256 buckets per power of 2 */
#define HIST_SUB	(1u << HIST_SUB_BITS)
#define HIST_EXACT	(2u * HIST_SUB)		/* 512: exact below */
#define HIST_LIMIT_BITS	41
#define HIST_LIMIT	(1ull << HIST_LIMIT_BITS) /* first saturated value */
#define HIST_BUCKETS	((HIST_LIMIT_BITS - HIST_SUB_BITS + 1) << HIST_SUB_BITS)

/*
 * 69,696 bytes (68 KiB): a 64-byte header then 8,704 uint64_t counters,
 * aligned to a cache line so that workers' histograms side by side
 * never share one. 64-bit counters cannot overflow (a run records some
 * 10^9 values); 32-bit ones would have halved the size but left merges
 * of several runs 4x from wrapping.
 */
struct hist {
	uint64_t count;
	uint64_t sum;		/* saturates at INT64_MAX */
	uint64_t min;		/* 0 while count is 0 */
	uint64_t max;
	uint64_t saturated;	/* values >= HIST_LIMIT, in the last bucket */
	uint64_t reserved[3];	/* 0; pads the header to a cache line */
	uint64_t bucket[HIST_BUCKETS];
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct hist) == 69696, "struct hist changed size");

/* Empties h; the same as zeroing it. */
void hist_init(struct hist *h);

/*
 * The bucket of ns: ns itself below 512, and s * 256 + (ns >> s) above,
 * with s = floor(log2(ns)) - 8 (ns >> s is then in [256, 512)); that
 * formula gives ns below 512 too, with s = 0 from the "| 256". One clz,
 * no branch; values >= HIST_LIMIT give the last bucket.
 */
static inline size_t hist_bucket_of(uint64_t ns)
{
	unsigned int s;

	if (ns >= HIST_LIMIT)
		ns = HIST_LIMIT - 1;
	s = 63 - HIST_SUB_BITS - __builtin_clzll(ns | HIST_SUB);
	return ((size_t)s << HIST_SUB_BITS) + (size_t)(ns >> s);
}

/* Bucket i's lowest and highest value (inclusive); UINT64_MAX for an i
 * >= HIST_BUCKETS. Below 512 both are i. */
uint64_t hist_bucket_low(size_t i);
uint64_t hist_bucket_high(size_t i);

static inline void hist_record(struct hist *h, uint64_t ns)
{
	h->bucket[hist_bucket_of(ns)]++;
	h->saturated += ns >= HIST_LIMIT;
	if (ns > INT64_MAX)
		ns = INT64_MAX;
	h->sum += ns;		/* both <= INT64_MAX: cannot wrap */
	if (h->sum > INT64_MAX)
		h->sum = INT64_MAX;
	if (ns < h->min || !h->count)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->count++;
}

/*
 * hist_record for a histogram shared by several tasks (one per CPU, in
 * shared memory), cheap enough for every message: one atomic increment
 * of the bucket, and compare-and-swap of max or min only when a value
 * passes them (rarely, once the run is under way). count and sum are left
 * to hist_shared_finish(): count from the buckets, sum from their
 * midpoints (exact below 512 ns, within 0.2% above). The minimum is kept
 * complemented in reserved[0] meanwhile, so that an all-zero histogram is
 * still empty.
 */
static inline void hist_record_shared(struct hist *h, uint64_t ns)
{
	uint64_t m, inv;

	__atomic_fetch_add(&h->bucket[hist_bucket_of(ns)], 1, __ATOMIC_RELAXED);
	if (ns > INT64_MAX)
		ns = INT64_MAX;
	m = __atomic_load_n(&h->max, __ATOMIC_RELAXED);
	while (ns > m && !__atomic_compare_exchange_n(&h->max, &m, ns, true,
			__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	inv = ~ns;
	m = __atomic_load_n(&h->reserved[0], __ATOMIC_RELAXED);
	while (inv > m && !__atomic_compare_exchange_n(&h->reserved[0], &m, inv,
			true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/* After the last hist_record_shared: an ordinary histogram again. */
void hist_shared_finish(struct hist *h);

/* Adds src's values to dst, as if dst had recorded them too. */
void hist_merge(struct hist *dst, const struct hist *src);

/* The number of values, the smallest, the largest (exact, as recorded);
 * min and max are 0 for an empty histogram. */
uint64_t hist_count(const struct hist *h);
uint64_t hist_min(const struct hist *h);
uint64_t hist_max(const struct hist *h);
/* sum / count, exact until sum saturates; 0 for an empty histogram. */
double hist_mean(const struct hist *h);

/*
 * The value at percentile pct: the midpoint, rounded down, of the bucket
 * holding the value of rank r = ceil(pct * count / 100) (1-based, in
 * ascending order), clamped to [min, max]. pct is taken in (0, 100]:
 * less (or NaN) means rank 1, more means 100.
 *
 * Error bound: if x is the r-th smallest value recorded (the
 * nearest-rank percentile), the result is x exactly when x < 512, and
 * within w / 2 of x in a bucket of width w, which is at most x / 512
 * (0.2%) - clamping only moves it closer. p100 is max exactly, and so is
 * any percentile of a histogram holding a single distinct value. The one
 * exception is a saturated x (>= HIST_LIMIT), which reads as at most the
 * last bucket's midpoint. 0 for an empty histogram.
 */
uint64_t hist_percentile(const struct hist *h, double pct);

/*
 * The values recorded in the buckets up to and including ns's: how many
 * are <= ns, to the bucket (exact below 512). 0 for an empty histogram.
 */
uint64_t hist_count_upto(const struct hist *h, uint64_t ns);

/*
 * The store's form, with only the non-empty buckets, by their lows:
 *
 *	{"unit": "ns", "scheme": "loglin-512-256", "count": N, "sum": S,
 *	 "min": a, "max": b, "saturated": k,
 *	 "buckets": [[low_ns, count], ...]}
 *
 * NULL when jansson cannot allocate.
 */
json_t *hist_to_json(const struct hist *h);

/*
 * Reads hist_to_json()'s form into h, checking it all: unit and scheme,
 * non-negative integers, lows that are bucket boundaries in strictly
 * ascending order with non-zero counts adding up to count, min and max
 * inside the first and last buckets, saturated consistent with max, sum
 * within count * [min, max]. Members it does not know are ignored.
 * Returns -1 after error() saying what is wrong, with h untouched.
 */
int hist_from_json(const json_t *j, struct hist *h);

#endif
