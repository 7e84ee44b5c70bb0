/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series.h - wakeup latency over time: count, p50, p99 and max per window
 *
 * A sample belongs to the window its switch-in falls in; window 0 starts
 * at the analysis' start (the first event, or --from).  Each window holds
 * a small histogram of its own (16 buckets per power of two: a
 * percentile within 3%, clamped to the window's exact max), never the
 * samples, so the series costs a fixed amount of memory whatever the
 * trace's length: SL_SERIES_AUTO_MAX windows of 2.4 KB, allocated at
 * once, laid out by bucket (bucket b of every window, then b + 1's): the
 * pages of buckets no sample fell in are never touched, so a trace
 * whose latencies keep to a few buckets costs a few pages, not 1.2 MB.
 * Each window knows its lowest and highest bucket, so merging windows
 * adds only those.  A sample counts first in a dense row of the current
 * window's buckets (the stage), which goes to that layout when the
 * samples move on to another window: one bucket per line and page there
 * was a cache and TLB miss per sample.
 *
 * The span is not known while the trace is read (a text stream, a
 * trace.dat read once), so the windows start at 1 us and grow tenfold,
 * merging their histograms, whenever more than SL_SERIES_FINE_MAX would
 * be needed.  At the end, sl_series_finish() merges them once more by
 * 1, 2 or 5 (the largest that still leaves 100 windows); by 5 is done
 * as soon as it leaves 100 (series.c: the same windows, and at most
 * SL_SERIES_AUTO_MAX in use instead of 1000), the tenfold step then by
 * 2: a trace of
 * 100 us or more gets 100 to 250 windows of a 1-2-5 width (1 ms, 2 ms,
 * 5 ms, 10 ms, ...).  --window D fixes the width instead; a D that
 * would need more than SL_SERIES_FIXED_MAX windows grows tenfold too
 * (window_ns then differs from requested_ns).
 */
#ifndef SCHEDLINT_SERIES_H
#define SCHEDLINT_SERIES_H

#include <stdbool.h>
#include <stdint.h>

#define SL_SERIES_SUB_BITS	4			/* 16 buckets per power of two */
#define SL_SERIES_SUB		(1u << SL_SERIES_SUB_BITS)
#define SL_SERIES_MAX_LOG2	40			/* values >= 2^41 ns share the last bucket */
#define SL_SERIES_BUCKETS	((SL_SERIES_MAX_LOG2 - SL_SERIES_SUB_BITS + 2) * SL_SERIES_SUB)
#define SL_SERIES_FINE_MAX	1000			/* windows kept while reading (automatic) */
#define SL_SERIES_MIN_WINDOWS	100			/* sl_series_finish() leaves at least this many */
/* automatic windows in use at most: from 5 * SL_SERIES_MIN_WINDOWS - 4 on they are merged by five */
#define SL_SERIES_AUTO_MAX	(5 * SL_SERIES_MIN_WINDOWS - 5)
#define SL_SERIES_FIXED_MAX	10000			/* with --window */
#define SL_SERIES_FIRST_NS	1000			/* the automatic windows start at 1 us */
#define SL_SERIES_PEAK_MIN	10			/* samples a window needs to be the peak */

struct sl_series_window {
	uint64_t count;			/* samples whose switch-in falls in it */
	uint64_t max;			/* the largest of them (exact), 0 when none */
	uint16_t lo, hi;		/* its lowest and highest bucket used (valid: count) */
};

struct sl_series {
	uint64_t origin;		/* start of window 0 (valid when started) */
	uint64_t window_ns;		/* the width of a window now */
	uint64_t requested_ns;		/* --window, 0 = automatic */
	bool started;			/* sl_series_start() was called */
	bool finished;			/* sl_series_finish(): nr windows span the analysis */
	struct sl_series_window *w;	/* max_windows of them (NULL until a sample), nr used */
	uint32_t *buckets;		/* by bucket: sl_series_cell() */
	uint32_t nr;
	uint32_t max_windows;		/* windows allocated (--window: coarsen beyond this many) */
	/*
	 * The window the last sample fell in: ts in [cur_lo, cur_lo + cur_len)
	 * is in window cur (cur_len 0: none).  Most samples fall in the
	 * window of the one before: no 64-bit division for them.
	 */
	uint64_t cur_lo, cur_len;
	uint32_t cur;
	/*
	 * Window cur's samples not yet in its cells, by bucket (allocated
	 * with the cells): a sample adds to this dense row, on a line or two
	 * the samples share, and the row goes to the window's cells (a line
	 * and a page per bucket: a cache and TLB miss per sample) when the
	 * samples move to another window, and before the windows are merged
	 * or read (sl_series_finish()).  staged: how many; stage_used: the
	 * buckets they are in (only those are added at the flush); their max.
	 */
	uint32_t *stage;
	uint64_t staged, stage_max;
	uint64_t stage_used[(SL_SERIES_BUCKETS + 63) / 64];
};

void sl_series_init(struct sl_series *s, uint64_t requested_ns);
void sl_series_free(struct sl_series *s);
/* Window 0 starts at origin (the first event, or --from). */
void sl_series_start(struct sl_series *s, uint64_t origin);
/* sl_series_add() when the window or its bucket is not there yet */
void sl_series_add_slow(struct sl_series *s, uint64_t ts, uint64_t v);
/* the staged samples of window cur into its cells and its struct sl_series_window */
void sl_series_flush(struct sl_series *s);

static inline unsigned sl_series_bucket(uint64_t v)
{
	unsigned g;

	if (v < SL_SERIES_SUB)
		return (unsigned)v;
	g = 63 - (unsigned)__builtin_clzll(v);
	if (g > SL_SERIES_MAX_LOG2)
		return SL_SERIES_BUCKETS - 1;
	return (g - SL_SERIES_SUB_BITS + 1) * SL_SERIES_SUB +
	       ((unsigned)(v >> (g - SL_SERIES_SUB_BITS)) & (SL_SERIES_SUB - 1));
}

/* the count of bucket b in window i */
static inline uint32_t *sl_series_cell(const struct sl_series *s, uint32_t i, unsigned b)
{
	return &s->buckets[(size_t)b * s->max_windows + i];
}

/* One sample of latency v, switched in at ts.  Inline: once per sample. */
static inline void sl_series_add(struct sl_series *s, uint64_t ts, uint64_t v)
{
	unsigned b;

	if (!(ts - s->cur_lo < s->cur_len)) {
		uint64_t i = ts > s->origin ? (ts - s->origin) / s->window_ns : 0;

		if (i >= s->nr) {
			sl_series_add_slow(s, ts, v);
			return;
		}
		if (s->staged)
			sl_series_flush(s);
		/* window 0 also takes what came before origin */
		s->cur = (uint32_t)i;
		s->cur_lo = i ? s->origin + i * s->window_ns : 0;
		s->cur_len = i ? s->window_ns : s->origin + s->window_ns;
	}
	b = sl_series_bucket(v);
	s->stage[b]++;
	s->stage_used[b / 64] |= 1ull << (b % 64);
	s->staged++;
	if (v > s->stage_max)
		s->stage_max = v;
}

/*
 * The analysis ended at end: make the windows span [origin, end] and, when
 * automatic, pick the final width (see above).
 */
void sl_series_finish(struct sl_series *s, uint64_t end);
/* Nearest-rank percentile (0 < p <= 100) of window i, 0 when it is empty. */
uint64_t sl_series_percentile(const struct sl_series *s, uint32_t i, double p);
/*
 * The worst window: the highest p99 among the windows with at least
 * SL_SERIES_PEAK_MIN samples (among all when none has), the first of
 * equal ones; -1 when no window has a sample.
 */
int sl_series_peak(const struct sl_series *s);

#endif /* SCHEDLINT_SERIES_H */
