// SPDX-License-Identifier: GPL-2.0
/*
 * series.c - wakeup latency over time (series.h)
 *
 * The per-sample path is sl_series_add() in the header; here are the rare
 * steps: the first sample, growing the windows when the trace is longer
 * than they can span, and the final width.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "schedlint/series.h"
#include "util/util.h"

void sl_series_init(struct sl_series *s, uint64_t requested_ns)
{
	memset(s, 0, sizeof(*s));
	s->requested_ns = requested_ns;
	s->window_ns = requested_ns ? requested_ns : SL_SERIES_FIRST_NS;
	s->max_windows = requested_ns ? SL_SERIES_FIXED_MAX : SL_SERIES_AUTO_MAX;
}

void sl_series_free(struct sl_series *s)
{
	free(s->w);
	free(s->buckets);
	free(s->stage);
	memset(s, 0, sizeof(*s));
}

void sl_series_flush(struct sl_series *s)
{
	struct sl_series_window *w;
	unsigned lo = SL_SERIES_BUCKETS, hi = 0;

	if (!s->staged)
		return;	/* no pointer into cells that may not be there */
	w = &s->w[s->cur];
	for (unsigned k = 0; k < sizeof(s->stage_used) / sizeof(s->stage_used[0]); k++) {
		uint64_t used = s->stage_used[k];

		if (!used)
			continue;
		s->stage_used[k] = 0;
		lo = MIN(lo, k * 64 + (unsigned)__builtin_ctzll(used));
		hi = MAX(hi, k * 64 + 63 - (unsigned)__builtin_clzll(used));
		do {
			unsigned b = k * 64 + (unsigned)__builtin_ctzll(used);

			*sl_series_cell(s, s->cur, b) += s->stage[b];
			s->stage[b] = 0;
			used &= used - 1;
		} while (used);
	}
	if (!w->count || lo < w->lo)
		w->lo = (uint16_t)lo;
	if (!w->count || hi > w->hi)
		w->hi = (uint16_t)hi;
	w->count += s->staged;
	if (s->stage_max > w->max)
		w->max = s->stage_max;
	s->staged = 0;
	s->stage_max = 0;
}

void sl_series_start(struct sl_series *s, uint64_t origin)
{
	sl_series_flush(s);
	s->origin = origin;
	s->started = true;
	s->cur_len = 0;
}

/* window d += window i, i emptied */
static void window_merge(struct sl_series *s, uint32_t d, uint32_t i)
{
	struct sl_series_window *dst = &s->w[d], *src = &s->w[i];
	size_t row = s->max_windows;	/* from one bucket's count to the next's */
	uint32_t *sc, *dc;

	if (!src->count)
		return;
	sc = sl_series_cell(s, i, src->lo);
	dc = sl_series_cell(s, d, src->lo);
	for (unsigned b = src->lo; b <= src->hi; b++, sc += row, dc += row) {
		*dc += *sc;
		*sc = 0;
	}
	if (!dst->count || src->lo < dst->lo)
		dst->lo = src->lo;
	if (!dst->count || src->hi > dst->hi)
		dst->hi = src->hi;
	dst->count += src->count;
	if (src->max > dst->max)
		dst->max = src->max;
	*src = (struct sl_series_window){ 0 };
}

/*
 * The whole pages of windows [from, to), all emptied (zero), in each
 * bucket's row go back to the kernel: they read as zero again and are
 * touched anew only when the windows fill again.  Without it, the
 * windows a trace used before a coarsening stay resident to the end.
 * (The automatic rows, SL_SERIES_AUTO_MAX windows of 4 bytes, are under
 * two pages: little to give back.  --window's are ten pages.)
 */
static void release(struct sl_series *s, uint32_t from, uint32_t to)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), lo, hi;

	/* no buckets yet: no pointer to compute (NULL + offset is undefined) */
	if (!s->buckets || from >= to || !page || (page & (page - 1)))
		return;
	for (unsigned b = 0; b < SL_SERIES_BUCKETS; b++) {
		lo = (uintptr_t)sl_series_cell(s, from, b);
		hi = (uintptr_t)sl_series_cell(s, to, b);
		lo = (lo + page - 1) & ~(page - 1);
		hi &= ~(page - 1);
		if (hi > lo)
			madvise((void *)lo, hi - lo, MADV_DONTNEED);	/* a hint: on failure the zeros stay */
	}
}

/*
 * Windows factor times as wide: window i takes the old i * factor ...
 * i * factor + factor - 1.  In order, each old window's slot has been
 * merged away (left empty) before a group's first window lands in it.
 */
static void coarsen(struct sl_series *s, uint32_t factor)
{
	uint32_t old_nr = s->nr;

	for (uint32_t i = 1; i < s->nr; i++)
		window_merge(s, i / factor, i);
	s->nr = (s->nr + factor - 1) / factor;
	s->window_ns *= factor;
	s->cur_len = 0;		/* the windows moved */
	release(s, s->nr, old_nr);
}

static uint64_t window_of(const struct sl_series *s, uint64_t ts)
{
	return ts > s->origin ? (ts - s->origin) / s->window_ns : 0;
}

/* automatic windows: 5 x 10^k ns wide (merged by five early), not 10^k */
static bool by_five(const struct sl_series *s)
{
	uint64_t w = s->window_ns;

	if (s->requested_ns || !w)
		return false;
	while (w % 10 == 0)
		w /= 10;
	return w == 5;
}

/*
 * Make room for ts's window (of the current width): grows the width as
 * needed.  Automatic windows are merged by five as soon as they are
 * SL_SERIES_MIN_WINDOWS * 5 - 4 (496): sl_series_finish() would merge
 * them by five at the end then (or, past SL_SERIES_FINE_MAX, tenfold: a
 * multiple of five too), so early is the same windows, and at most 495
 * windows are ever in use, not SL_SERIES_FINE_MAX.  Windows 5 x 10^k
 * wide are merged by two when SL_SERIES_FINE_MAX of the narrower ones
 * would be needed: the tenfold step, in two.
 */
static void reach(struct sl_series *s, uint64_t ts)
{
	uint64_t i = window_of(s, ts);

	sl_series_flush(s);	/* the windows may move */
	for (;;) {
		if (s->requested_ns) {
			if (i < s->max_windows)
				break;
			coarsen(s, 10);
		} else if (by_five(s)) {
			if (i < SL_SERIES_FINE_MAX / 5)
				break;
			coarsen(s, 2);
		} else {
			if ((MAX(s->nr, i + 1) + 4) / 5 < SL_SERIES_MIN_WINDOWS)
				break;
			coarsen(s, 5);
		}
		i = window_of(s, ts);
	}
	if (!s->w) {
		/* large: calloc maps zero pages, touched only where used */
		s->w = xcalloc(s->max_windows, sizeof(*s->w));
		s->buckets = xcalloc((size_t)s->max_windows * SL_SERIES_BUCKETS, sizeof(*s->buckets));
		s->stage = xcalloc(SL_SERIES_BUCKETS, sizeof(*s->stage));
	}
	if (i >= s->nr)
		s->nr = (uint32_t)i + 1;
}

void sl_series_add_slow(struct sl_series *s, uint64_t ts, uint64_t v)
{
	if (!s->started)
		sl_series_start(s, ts);
	reach(s, ts);
	sl_series_add(s, ts, v);
}

void sl_series_finish(struct sl_series *s, uint64_t end)
{
	if (!s->started || s->finished)
		return;
	s->finished = true;
	reach(s, end);
	/*
	 * The largest of 1, 2, 5 that leaves SL_SERIES_MIN_WINDOWS: 5 when
	 * reach() merged by five already (it does as soon as 5 leaves them).
	 */
	if (!s->requested_ns && !by_five(s) && (s->nr + 1) / 2 >= SL_SERIES_MIN_WINDOWS)
		coarsen(s, 2);
}

/* The value a bucket stands for: its midpoint (values below 16 ns are exact). */
static uint64_t bucket_mid(unsigned b)
{
	unsigned g, shift;

	if (b < SL_SERIES_SUB)
		return b;
	g = b / SL_SERIES_SUB + SL_SERIES_SUB_BITS - 1;
	shift = g - SL_SERIES_SUB_BITS;
	return ((uint64_t)(SL_SERIES_SUB + b % SL_SERIES_SUB) << shift) + ((1ull << shift) >> 1);
}

uint64_t sl_series_percentile(const struct sl_series *s, uint32_t i, double p)
{
	const struct sl_series_window *w = &s->w[i];
	uint64_t rank, seen = 0;

	if (i >= s->nr || !w->count)
		return 0;
	rank = (uint64_t)(p / 100.0 * (double)w->count + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > w->count)
		rank = w->count;
	for (unsigned b = w->lo; b <= w->hi; b++) {
		seen += *sl_series_cell(s, i, b);
		if (seen >= rank) {
			uint64_t v = bucket_mid(b);

			return v > w->max ? w->max : v;
		}
	}
	return w->max;
}

int sl_series_peak(const struct sl_series *s)
{
	int best = -1;
	uint64_t best_p99 = 0;
	bool any_full = false;

	for (uint32_t i = 0; i < s->nr; i++)
		if (s->w[i].count >= SL_SERIES_PEAK_MIN)
			any_full = true;
	for (uint32_t i = 0; i < s->nr; i++) {
		uint64_t p99;

		if (!s->w[i].count || (any_full && s->w[i].count < SL_SERIES_PEAK_MIN))
			continue;
		p99 = sl_series_percentile(s, i, 99);
		if (best < 0 || p99 > best_p99) {
			best = (int)i;
			best_p99 = p99;
		}
	}
	return best;
}
