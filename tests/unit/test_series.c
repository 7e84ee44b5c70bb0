// SPDX-License-Identifier: GPL-2.0
/*
 * test_series.c - wakeup latency over time (series.h): the windows
 * against a reference written from the header's definition, and the
 * windows in use while reading (the memory the series holds).
 *
 * The reference keeps every sample and bins them once at the end: the
 * automatic width is 1 us x 10^k, the smallest that puts the end of the
 * analysis in one of SL_SERIES_FINE_MAX windows, then times the largest
 * of 1, 2, 5 that leaves SL_SERIES_MIN_WINDOWS; window i holds the
 * samples switched in within [origin + i w, origin + (i + 1) w): their
 * count, exact max, buckets (sl_series_bucket) and lowest and highest
 * bucket.  The series never keeps the samples: it merges windows as it
 * goes, which must come to the same windows exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedlint/series.h"

struct sample {
	uint64_t ts, v;
};

/* windows of a given width, binned from the samples directly */
static void assert_windows(const struct sl_series *s, uint64_t origin, uint64_t width,
			   uint32_t nr, const struct sample *smp, size_t n)
{
	struct sl_series_window *w = calloc(nr, sizeof(*w));
	uint32_t *b = calloc((size_t)nr * SL_SERIES_BUCKETS, sizeof(*b));

	assert_non_null(w);
	assert_non_null(b);
	assert_int_equal(s->window_ns, width);
	assert_int_equal(s->nr, nr);
	assert_int_equal(s->origin, origin);
	for (size_t k = 0; k < n; k++) {
		uint64_t i = (smp[k].ts - origin) / width;
		unsigned bk = sl_series_bucket(smp[k].v);

		assert_true(i < nr);
		b[i * SL_SERIES_BUCKETS + bk]++;
		if (!w[i].count || bk < w[i].lo)
			w[i].lo = (uint16_t)bk;
		if (!w[i].count || bk > w[i].hi)
			w[i].hi = (uint16_t)bk;
		w[i].count++;
		if (smp[k].v > w[i].max)
			w[i].max = smp[k].v;
	}
	for (uint32_t i = 0; i < nr; i++) {
		assert_int_equal(s->w[i].count, w[i].count);
		assert_int_equal(s->w[i].max, w[i].max);
		if (w[i].count) {
			assert_int_equal(s->w[i].lo, w[i].lo);
			assert_int_equal(s->w[i].hi, w[i].hi);
		}
		for (unsigned bk = 0; bk < SL_SERIES_BUCKETS; bk++)
			assert_int_equal(*sl_series_cell(s, i, bk), b[(size_t)i * SL_SERIES_BUCKETS + bk]);
	}
	free(w);
	free(b);
}

/* the automatic width and count for an analysis of [origin, end] */
static void expected(uint64_t origin, uint64_t end, uint64_t *width, uint32_t *nr)
{
	uint64_t w = SL_SERIES_FIRST_NS, n;

	while ((end - origin) / w >= SL_SERIES_FINE_MAX)
		w *= 10;
	n = (end - origin) / w + 1;
	if ((n + 4) / 5 >= SL_SERIES_MIN_WINDOWS) {
		w *= 5;
		n = (n + 4) / 5;
	} else if ((n + 1) / 2 >= SL_SERIES_MIN_WINDOWS) {
		w *= 2;
		n = (n + 1) / 2;
	}
	*width = w;
	*nr = (uint32_t)n;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/*
 * One analysis: n samples over span ns (some of them jumps), the end
 * some way after the last; the windows in use never more than the
 * windows the final width can come from (SL_SERIES_AUTO_MAX: 495).
 */
static void one(uint64_t origin, uint64_t span, size_t n)
{
	struct sample *smp = calloc(n, sizeof(*smp));
	struct sl_series s;
	uint64_t ts = origin, end, width;
	uint32_t nr, most = 0;

	assert_non_null(smp);
	sl_series_init(&s, 0);
	sl_series_start(&s, origin);
	for (size_t k = 0; k < n; k++) {
		ts += rnd() % 8 ? rnd() % (span / n + 1) : rnd() % (span / 4 + 1);
		smp[k].ts = ts;
		smp[k].v = rnd() >> (rnd() % 64);
		sl_series_add(&s, smp[k].ts, smp[k].v);
		if (s.nr > most)
			most = s.nr;
	}
	end = ts + rnd() % (span / 4 + 1);
	assert_true(most <= SL_SERIES_AUTO_MAX);
	sl_series_finish(&s, end);
	expected(origin, end, &width, &nr);
	assert_windows(&s, origin, width, nr, smp, n);
	sl_series_free(&s);
	free(smp);
}

/* the ends right at the widths' edges: 495 / 496 and 999 / 1000 windows of 1 us */
static void test_edges(void **state)
{
	static const struct {
		uint64_t end;		/* ns after the origin */
		uint64_t width;
		uint32_t nr;
	} c[] = {
		{ 0, 1000, 1 },
		{ 197999, 1000, 198 },		/* (198 + 1) / 2 < 100 */
		{ 198999, 2000, 100 },		/* 199 windows: by two */
		{ 494999, 2000, 248 },		/* 495: still by two */
		{ 495999, 5000, 100 },		/* 496: by five */
		{ 999999, 5000, 200 },
		{ 1000000, 10000, 101 },	/* 1001 windows of 1 us: 10 us */
		{ 4959999, 50000, 100 },
		{ 9999999, 50000, 200 },
		{ 10000000, 100000, 101 },
	};
	struct sample smp[3];

	(void)state;
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct sl_series s;
		uint64_t origin = 5000000000ull;

		sl_series_init(&s, 0);
		smp[0] = (struct sample){ origin, 1000 };
		smp[1] = (struct sample){ origin + c[k].end / 2, 5000 };
		smp[2] = (struct sample){ origin + c[k].end, 7 };
		for (size_t i = 0; i < 3; i++)
			sl_series_add(&s, smp[i].ts, smp[i].v);
		sl_series_finish(&s, origin + c[k].end);
		assert_windows(&s, origin, c[k].width, c[k].nr, smp, 3);
		sl_series_free(&s);
	}
}

/* samples at every width the automatic windows pass through */
static void test_against_reference(void **state)
{
	(void)state;
	for (int it = 0; it < 400; it++) {
		uint64_t span = 1000ull << (rnd() % 32);	/* 1 us .. 72 min */

		one(rnd() % 1000000000000ull, span, 1 + rnd() % 4000);
	}
}

/* the windows in use while one sample a window comes for 100 s */
static void test_windows_in_use(void **state)
{
	struct sl_series s;
	uint32_t most = 0;

	(void)state;
	sl_series_init(&s, 0);
	for (uint64_t ts = 1000; ts < 100000000000ull; ts += ts / 400 + 1000) {
		sl_series_add(&s, ts, 1000);
		if (s.nr > most)
			most = s.nr;
	}
	assert_int_equal(s.origin, 1000);
	assert_true(most <= SL_SERIES_AUTO_MAX);
	assert_true(most >= SL_SERIES_MIN_WINDOWS * 2);
	sl_series_free(&s);
}

/*
 * Samples out of order, back and forth between windows (the staged
 * row of the current window goes to its cells at each move, and before
 * every merge): the same windows as binned directly.
 */
static void test_back_and_forth(void **state)
{
	enum { N = 3000 };
	static struct sample smp[N];

	(void)state;
	for (int it = 0; it < 50; it++) {
		uint64_t origin = 1000000000ull + rnd() % 1000000, span = 1000ull << (rnd() % 24);
		uint64_t width;
		struct sl_series s;
		uint32_t nr;

		sl_series_init(&s, 0);
		sl_series_start(&s, origin);
		for (size_t k = 0; k < N; k++) {
			/* runs of a few samples in one place, then a jump either way */
			smp[k].ts = k % 4 && k ? smp[k - 1].ts : origin + rnd() % (span + 1);
			smp[k].v = rnd() >> (rnd() % 64);
			sl_series_add(&s, smp[k].ts, smp[k].v);
		}
		sl_series_finish(&s, origin + span);
		expected(origin, origin + span, &width, &nr);
		assert_windows(&s, origin, width, nr, smp, N);
		sl_series_free(&s);
	}
}

/* --window: fixed windows, tenfold only past SL_SERIES_FIXED_MAX */
static void test_fixed(void **state)
{
	struct sl_series s;
	struct sample smp[2] = { { 1000, 10 }, { 1000 + 7000 * 999, 20 } };

	(void)state;
	sl_series_init(&s, 7000);
	sl_series_add(&s, smp[0].ts, smp[0].v);
	sl_series_add(&s, smp[1].ts, smp[1].v);
	sl_series_finish(&s, smp[1].ts);
	assert_windows(&s, 1000, 7000, 1000, smp, 2);
	sl_series_free(&s);

	sl_series_init(&s, 7000);
	smp[1].ts = 1000 + 7000ull * SL_SERIES_FIXED_MAX;
	sl_series_add(&s, smp[0].ts, smp[0].v);
	sl_series_add(&s, smp[1].ts, smp[1].v);
	sl_series_finish(&s, smp[1].ts);
	assert_windows(&s, 1000, 70000, SL_SERIES_FIXED_MAX / 10 + 1, smp, 2);
	sl_series_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_against_reference),
		cmocka_unit_test(test_back_and_forth),
		cmocka_unit_test(test_windows_in_use),
		cmocka_unit_test(test_fixed),
	};
	return cmocka_run_group_tests_name("series", tests, NULL, NULL);
}
