/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - latency histogram: exact count/min/max/mean, percentiles within 0.4%
 *
 * Log-linear buckets: values below 256 ns are exact; above, each power of
 * two is split into 128 buckets, so a bucket is at most 1/128 of its value
 * wide and its midpoint is within 0.4% of every value in it.  Groups of
 * buckets are allocated on first use, so a task with a handful of
 * samples costs a few KB, and memory never grows with the sample count.
 * The table of groups is allocated too: an empty histogram is 40 bytes,
 * so the task and CPU structures that hold one stay small.  Buckets count
 * in 32 bits (a group is 512 bytes: the per-task histograms were most of
 * the memory analyze touches) and stop at 2^32 - 1 samples, a trace of
 * more than 4 billion wakeups of one task within 0.4% of one latency.
 */
#ifndef SCHEDLINT_HIST_H
#define SCHEDLINT_HIST_H

#include <stdint.h>

#define SL_HIST_GROUPS 57	/* group 0: [0,256) exact; group g: [2^(g+7), 2^(g+8)) */
#define SL_HIST_HELD 5		/* samples whose buckets are counted together, in the histogram */
#define SL_HIST_STAGE 256	/* ... out of it, once sl_hist_add_held() brings many (stage) */
#define SL_HIST_NARROW 1	/* in a group's pointer: it counts in 8 bits (hist.c) */

struct sl_hist {
	uint64_t count;
	uint64_t sum;		/* saturates at UINT64_MAX */
	uint64_t min, max;
	uint32_t **groups;	/* SL_HIST_GROUPS, NULL until the first sample; a group
				 * sl_hist_add_held() made counts in 8 bits (SL_HIST_NARROW)
				 * until a bucket passes 255 */
	uint32_t *sparse;	/* or, compacted: (group << 8 | index, count) pairs */
	uint32_t nr_sparse;
	uint16_t nr_held;	/* buckets not yet counted: sl_hist_add_held()'s, and
				 * sl_hist_add()'s first ones, before the table is made */
	uint16_t held[SL_HIST_HELD];	/* their group << 8 | index (group < 64) */
	uint16_t *stage;	/* or SL_HIST_STAGE of them, made at the second time
				 * held[] filled from sl_hist_add_held() (hist.c) */
};

void sl_hist_init(struct sl_hist *h);
void sl_hist_free(struct sl_hist *h);
/*
 * sl_hist_add() when v's group is not there yet, is narrow, or h is
 * compact; the first SL_HIST_HELD - 1 samples of a histogram without a
 * table are held, not counted in groups (a few samples allocate nothing)
 */
void sl_hist_add_alloc(struct sl_hist *h, uint64_t v);

/* v's bucket: group g, index i in it (sl_hist_add_at()) */
static inline void sl_hist_bucket_of(uint64_t v, unsigned *g, unsigned *i)
{
	if (v < 256) {
		*g = 0;
		*i = (unsigned)v;
	} else {
		*g = 63 - (unsigned)__builtin_clzll(v) - 7;
		*i = (unsigned)(v >> *g) & 127;
	}
}

/* count, sum, min and max: what a sample adds besides its bucket */
static inline void sl_hist_count_value(struct sl_hist *h, uint64_t v)
{
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	if (__builtin_add_overflow(h->sum, v, &h->sum))
		h->sum = UINT64_MAX;	/* saturates */
}

/* One sample v whose bucket sl_hist_bucket_of() gave: one bucket for several histograms. */
static inline void sl_hist_add_at(struct sl_hist *h, uint64_t v, unsigned g, unsigned i)
{
	uint32_t *hg;

	if (!h->groups || !(hg = h->groups[g]) || ((uintptr_t)hg & SL_HIST_NARROW)) {
		sl_hist_add_alloc(h, v);
		return;
	}
	if (hg[i] != UINT32_MAX)
		hg[i]++;
	sl_hist_count_value(h, v);
}

/*
 * One sample.  Inline: the model and the analyzers add a third of a
 * million samples to a 180 k-event trace, and the call was a fifth of
 * the work of one.
 */
static inline void sl_hist_add(struct sl_hist *h, uint64_t v)
{
	unsigned g, i;

	sl_hist_bucket_of(v, &g, &i);
	sl_hist_add_at(h, v, g, i);
}
/* n samples of the value v at once */
void sl_hist_add_count(struct sl_hist *h, uint64_t v, uint64_t n);
/* Count the held buckets (sl_hist_add_held()) */
void sl_hist_settle(struct sl_hist *h);
/* The same when sl_hist_add_held() filled held[]: makes the stage the second time */
void sl_hist_settle_held(struct sl_hist *h);
/*
 * The same, for a histogram that is rarely in the cache when its samples
 * come (a task's): count, sum, min and max at once, the bucket with the
 * next SL_HIST_HELD - 1 samples, whose buckets are then loaded together.
 * Every function that reads buckets counts the held ones first.  Inline:
 * a sample per switch and per wakeup, the call a quarter of its work.
 */
static inline void sl_hist_add_held(struct sl_hist *h, uint64_t v)
{
	unsigned g, i;

	sl_hist_bucket_of(v, &g, &i);
	if (h->stage) {
		h->stage[h->nr_held++] = (uint16_t)(g << 8 | i);
		if (h->nr_held == SL_HIST_STAGE)
			sl_hist_settle(h);
	} else {
		h->held[h->nr_held++] = (uint16_t)(g << 8 | i);
		if (h->nr_held == SL_HIST_HELD)
			sl_hist_settle_held(h);
	}
	sl_hist_count_value(h, v);
}
void sl_hist_merge(struct sl_hist *dst, const struct sl_hist *src);
/*
 * Take src's samples out of dst, bucket by bucket (src's must be in
 * dst); dst's min and max stay exact while their buckets keep samples,
 * else they become the remaining buckets' bounds.  The sum is exact
 * when src's is (no saturation).
 */
void sl_hist_remove(struct sl_hist *dst, const struct sl_hist *src);
/*
 * The smallest form for a histogram that will take few or no samples
 * more, such as an exited task's: only the non-empty buckets (8 bytes
 * each instead of a group's 512), or, when that is larger, only the
 * groups with samples, in 8 bits where their counts fit.  Every function
 * works on any form; an add expands the first.
 */
void sl_hist_compact(struct sl_hist *h);
/* Nearest-rank percentile (0 < p <= 100), clamped to [min, max]; 0 when empty. */
uint64_t sl_hist_percentile(const struct sl_hist *h, double p);
uint64_t sl_hist_mean(const struct sl_hist *h);

/* The lowest value of v's bucket (the lo sl_hist_next() gives for it). */
uint64_t sl_hist_bucket_lo(uint64_t v);

/* Iterate non-empty buckets in increasing order: returns 0 at the end. */
struct sl_hist_iter {
	int group, index;
};
int sl_hist_next(const struct sl_hist *h, struct sl_hist_iter *it,
		 uint64_t *lo, uint64_t *hi, uint64_t *count);

/*
 * The rows people read a latency histogram in: one per 1-2-5 step (1 ns,
 * 2 ns, 5 ns, 10 ns, ... up to 1e19 ns).  A bucket, and every sample in
 * it, goes to the row its low end falls in (the terminal report's
 * histogram).
 */
#define SL_HIST_ROWS 58
uint64_t sl_hist_row_lo(int row);		/* 1, 2, 5, 10, 20, ... */
int sl_hist_row_of(uint64_t v);		/* the row of the bucket holding v */
int sl_hist_row_of_bucket(uint64_t lo);	/* the row of a bucket starting at lo */

/* The percentiles every report shows, in this order. */
#define SL_NR_PCTS 7
extern const double sl_pcts[SL_NR_PCTS];	/* 50 75 90 95 99 99.5 99.9 */
extern const char *const sl_pct_names[SL_NR_PCTS];	/* "p50" ... "p99.9" */
extern const char *const sl_pct_json[SL_NR_PCTS];	/* "p50_ns" ... "p99_9_ns" */

#endif /* SCHEDLINT_HIST_H */
