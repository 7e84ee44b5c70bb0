// SPDX-License-Identifier: GPL-2.0
/*
 * test_hist.c - percentiles by nearest rank, exact or within 1%
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "schedlint/hist.h"

/* nearest rank over a sorted array: the ceil(p/100 * n)-th value */
static uint64_t nearest_rank(const uint64_t *sorted, size_t n, double p)
{
	size_t rank = (size_t)((p / 100.0) * (double)n);

	if ((double)rank < p / 100.0 * (double)n)
		rank++;
	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_small_values_exact(void **state)
{
	struct sl_hist h;

	sl_hist_init(&h);
	for (uint64_t v = 1; v <= 100; v++)
		sl_hist_add(&h, v);
	assert_int_equal(h.count, 100);
	assert_int_equal(h.min, 1);
	assert_int_equal(h.max, 100);
	assert_int_equal(sl_hist_mean(&h), 50);		/* 5050 / 100 */
	assert_int_equal(sl_hist_percentile(&h, 50), 50);
	assert_int_equal(sl_hist_percentile(&h, 99), 99);
	assert_int_equal(sl_hist_percentile(&h, 99.9), 100);
	assert_int_equal(sl_hist_percentile(&h, 100), 100);
	sl_hist_free(&h);
}

static void test_empty(void **state)
{
	struct sl_hist h;

	sl_hist_init(&h);
	assert_int_equal(sl_hist_percentile(&h, 50), 0);
	assert_int_equal(sl_hist_mean(&h), 0);
	sl_hist_free(&h);
}

/* random latencies over six decades: every percentile within 1% of the exact one */
static void test_relative_error(void **state)
{
	enum { N = 100000 };
	uint64_t *v = malloc(N * sizeof(*v));
	const double pcts[] = { 50, 75, 90, 95, 99, 99.5, 99.9 };
	struct sl_hist h;
	uint64_t sum = 0;

	sl_hist_init(&h);
	srand(42);
	for (int i = 0; i < N; i++) {
		/* log-uniform from 100 ns to 100 ms */
		double e = 2.0 + 6.0 * rand() / (double)RAND_MAX;
		uint64_t x = 1;

		for (double p = 0; p < e; p += 1)
			x = (uint64_t)(x * (e - p >= 1 ? 10.0 : 1.0 + 9.0 * (e - p)));
		v[i] = x;
		sum += x;
		sl_hist_add(&h, x);
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	assert_int_equal(h.min, v[0]);
	assert_int_equal(h.max, v[N - 1]);
	assert_int_equal(sl_hist_mean(&h), sum / N);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		double exact = (double)nearest_rank(v, N, pcts[i]);
		double got = (double)sl_hist_percentile(&h, pcts[i]);

		assert_true(got >= exact * 0.99 && got <= exact * 1.01);
	}
	sl_hist_free(&h);
	free(v);
}

static void test_merge(void **state)
{
	struct sl_hist a, b;

	sl_hist_init(&a);
	sl_hist_init(&b);
	for (uint64_t v = 1000; v < 2000; v++)
		sl_hist_add(&a, v);
	for (uint64_t v = 5000000; v < 5001000; v++)
		sl_hist_add(&b, v);
	sl_hist_merge(&a, &b);
	assert_int_equal(a.count, 2000);
	assert_int_equal(a.min, 1000);
	assert_int_equal(a.max, 5000999);
	uint64_t p75 = sl_hist_percentile(&a, 75);

	assert_true(p75 >= 4950000 && p75 <= 5050000);
	sl_hist_free(&a);
	sl_hist_free(&b);
}

/* every answer of h, to compare two histograms */
static void assert_same(const struct sl_hist *a, const struct sl_hist *b)
{
	struct sl_hist_iter ia = { 0 }, ib = { 0 };
	uint64_t lo1, hi1, c1, lo2, hi2, c2;
	int more;

	assert_int_equal(a->count, b->count);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_int_equal(a->sum, b->sum);
	for (double p = 0.1; p <= 100; p += 0.7)
		assert_int_equal(sl_hist_percentile(a, p), sl_hist_percentile(b, p));
	do {
		more = sl_hist_next(a, &ia, &lo1, &hi1, &c1);
		assert_int_equal(more, sl_hist_next(b, &ib, &lo2, &hi2, &c2));
		if (more) {
			assert_int_equal(lo1, lo2);
			assert_int_equal(hi1, hi2);
			assert_int_equal(c1, c2);
		}
	} while (more);
}

/* A compacted histogram (an exited task's) answers as before, merges, and takes samples again. */
static void test_compact(void **state)
{
	struct sl_hist full, compact, sum1, sum2, empty;
	uint64_t seed = 7;

	sl_hist_init(&full);
	sl_hist_init(&compact);
	for (int i = 0; i < 5000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		uint64_t v = (seed >> 20) % (i % 3 ? 5000000 : 300);	/* exact and log buckets */

		sl_hist_add(&full, v);
		sl_hist_add(&compact, v);
	}
	sl_hist_compact(&compact);
	/* thousands of non-empty buckets: 8-bit groups are smaller than pairs */
	assert_null(compact.sparse);
	assert_non_null(compact.groups);
	for (int g = 0; g < SL_HIST_GROUPS; g++)
		assert_true(!compact.groups[g] || ((uintptr_t)compact.groups[g] & SL_HIST_NARROW));
	assert_same(&full, &compact);
	sl_hist_compact(&compact);		/* again: nothing changes */
	assert_same(&full, &compact);

	/* a few samples: the pairs of the non-empty buckets */
	struct sl_hist few;

	sl_hist_init(&few);
	for (uint64_t v = 1000; v < 1000000; v *= 3)
		sl_hist_add(&few, v);
	sl_hist_add_count(&few, 77777, 100000);	/* past 8 bits */
	sl_hist_compact(&few);
	assert_null(few.groups);
	assert_int_equal(few.nr_sparse, 8);
	assert_int_equal(few.count, 100007);
	assert_int_equal(sl_hist_percentile(&few, 50), sl_hist_bucket_lo(77777) +
			 (sl_hist_bucket_lo(77777 + 512) - sl_hist_bucket_lo(77777) - 1) / 2);
	sl_hist_free(&few);

	/* many samples in few buckets: 32-bit groups, only those with samples */
	sl_hist_init(&few);
	for (int i = 0; i < 300; i++)
		for (uint64_t v = 1024; v < 2048; v += 8)	/* group 3's every bucket */
			sl_hist_add(&few, v);
	sl_hist_compact(&few);
	assert_non_null(few.groups);
	assert_null(few.sparse);
	assert_non_null(few.groups[3]);
	assert_false((uintptr_t)few.groups[3] & SL_HIST_NARROW);	/* 300 each */
	assert_int_equal(few.count, 300 * 128);
	assert_int_equal(sl_hist_percentile(&few, 100), 2040);
	sl_hist_free(&few);

	/* merged either way into a fresh or a compacted histogram */
	sl_hist_init(&sum1);
	sl_hist_init(&sum2);
	sl_hist_merge(&sum1, &full);
	sl_hist_merge(&sum1, &full);
	sl_hist_merge(&sum2, &compact);
	sl_hist_compact(&sum2);
	sl_hist_merge(&sum2, &compact);
	assert_same(&sum1, &sum2);

	/* samples after compaction */
	sl_hist_add(&full, 123456);
	sl_hist_add(&compact, 123456);
	assert_null(compact.sparse);
	assert_same(&full, &compact);

	/* an empty one stays empty */
	sl_hist_init(&empty);
	sl_hist_compact(&empty);
	assert_int_equal(sl_hist_percentile(&empty, 50), 0);
	sl_hist_free(&empty);
	sl_hist_free(&full);
	sl_hist_free(&compact);
	sl_hist_free(&sum1);
	sl_hist_free(&sum2);
}

/*
 * A histogram of fewer than SL_HIST_HELD samples, all held (no table yet,
 * a short-lived task's), compacts to the pairs of its buckets, in bucket
 * order, as the same samples counted in groups do.
 */
static void test_compact_held(void **state)
{
	/* 7: group 0, index 7; 300: group 1, index 22; 5000: group 5, index 28 */
	static const uint64_t vals[] = { 5000, 7, 5000, 300 };
	static const uint32_t pairs[] = { 7, 1, 1 << 8 | 22, 1, 5 << 8 | 28, 2 };
	uint64_t seed = 3;

	struct sl_hist held, counted;

	sl_hist_init(&held);
	for (int k = 0; k < 4; k++)
		sl_hist_add(&held, vals[k]);
	assert_null(held.groups);
	assert_int_equal(held.nr_held, 4);
	sl_hist_compact(&held);
	assert_null(held.groups);
	assert_int_equal(held.nr_held, 0);
	assert_int_equal(held.nr_sparse, 3);
	assert_memory_equal(held.sparse, pairs, sizeof(pairs));
	assert_int_equal(held.count, 4);
	assert_int_equal(held.min, 7);
	assert_int_equal(held.max, 5000);
	assert_int_equal(held.sum, 10307);
	sl_hist_free(&held);

	/* 1 to 4 samples, random and repeated: as counted in groups first */
	for (int round = 0; round < 200; round++) {
		int n = 1 + round % 4;

		sl_hist_init(&held);
		sl_hist_init(&counted);
		for (int k = 0; k < n; k++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			uint64_t v = (seed >> 20) % (round % 3 ? 40 : 5000000);

			sl_hist_add_held(&held, v);
			sl_hist_add_count(&counted, v, 1);
		}
		assert_null(held.groups);
		sl_hist_compact(&held);
		sl_hist_compact(&counted);
		assert_non_null(counted.sparse);
		assert_int_equal(held.nr_sparse, counted.nr_sparse);
		assert_memory_equal(held.sparse, counted.sparse,
				    counted.nr_sparse * 2 * sizeof(*counted.sparse));
		assert_same(&held, &counted);
		sl_hist_add(&held, 123);	/* takes samples again */
		sl_hist_add(&counted, 123);
		assert_same(&held, &counted);
		sl_hist_free(&held);
		sl_hist_free(&counted);
	}
}

/*
 * sl_hist_add_held() gives the same histogram as sl_hist_add() whatever is
 * still held: counted, compacted, merged, walked and freed at any point.
 */
static void test_held(void **state)
{
	struct sl_hist plain, held, sum1, sum2;
	uint64_t seed = 11;

	for (int n = 0; n < 12; n++) {		/* every remainder mod SL_HIST_HELD, several of the stage's */
		sl_hist_init(&plain);
		sl_hist_init(&held);
		for (int i = 0; i < 100 * n + n; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			uint64_t v = (seed >> 20) % (i % 3 ? 5000000 : 300);

			sl_hist_add(&plain, v);
			sl_hist_add_held(&held, v);
			if (i == 50 * n) {	/* an exit halfway: compacted with some held */
				sl_hist_compact(&plain);
				sl_hist_compact(&held);
				assert_int_equal(held.nr_held, 0);
			}
		}
		assert_int_equal(held.count, plain.count);
		assert_true(held.nr_held < (held.stage ? SL_HIST_STAGE : SL_HIST_HELD));
		assert_same(&plain, &held);	/* walks: counts what was held */
		assert_int_equal(held.nr_held, 0);

		/* merged while holding, from either side */
		sl_hist_add_held(&held, 777);
		sl_hist_add(&plain, 777);
		sl_hist_init(&sum1);
		sl_hist_init(&sum2);
		sl_hist_merge(&sum1, &plain);
		sl_hist_merge(&sum2, &held);
		assert_same(&sum1, &sum2);
		sl_hist_add_held(&sum2, 5);
		sl_hist_merge(&sum2, &plain);
		sl_hist_add(&sum1, 5);
		sl_hist_merge(&sum1, &plain);
		assert_same(&sum1, &sum2);
		sl_hist_add_held(&held, 9);	/* freed while holding: no leak */
		sl_hist_free(&plain);
		sl_hist_free(&held);
		sl_hist_free(&sum1);
		sl_hist_free(&sum2);
	}
}

/* The 1-2-5 rows: where a value and a bucket go. */
static void test_rows(void **state)
{
	assert_int_equal(sl_hist_row_lo(0), 1);
	assert_int_equal(sl_hist_row_lo(9), 1000);
	assert_int_equal(sl_hist_row_lo(10), 2000);
	assert_int_equal(sl_hist_row_lo(11), 5000);
	assert_true(sl_hist_row_lo(SL_HIST_ROWS - 1) == 10000000000000000000ULL);
	assert_int_equal(sl_hist_row_of(0), 0);
	assert_int_equal(sl_hist_row_of(1), 0);
	assert_int_equal(sl_hist_row_of(2), 1);
	assert_int_equal(sl_hist_row_of(4), 1);
	assert_int_equal(sl_hist_row_of(5), 2);
	assert_int_equal(sl_hist_row_of(1999), 9);
	assert_int_equal(sl_hist_row_of(2000), 10);
	/* 5010 is in the bucket [4992, 5024): the "2us" row, with its bucket */
	assert_int_equal(sl_hist_row_of(5010), 10);
	assert_int_equal(sl_hist_row_of_bucket(4992), 10);
	assert_int_equal(sl_hist_row_of(5024), 11);
	assert_int_equal(sl_hist_row_of(UINT64_MAX), SL_HIST_ROWS - 1);
}

/* n samples of one value at once are n adds of it, on either form and saturating */
static void test_add_count(void **state)
{
	struct sl_hist one, many;
	static const uint64_t values[] = { 0, 7, 255, 256, 1000, 38000, 5000000 };

	(void)state;
	sl_hist_init(&one);
	sl_hist_init(&many);
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		for (uint64_t k = 0; k < 3 + i; k++)
			sl_hist_add(&one, values[i]);
		if (i == 3)
			sl_hist_compact(&many);	/* sparse: expanded to add */
		sl_hist_add_count(&many, values[i], 3 + i);
	}
	sl_hist_add_count(&many, 12345, 0);	/* nothing */
	assert_same(&one, &many);
	assert_int_equal(many.sum, one.sum);
	assert_int_equal(many.min, 0);
	assert_int_equal(many.max, 5000000);
	sl_hist_free(&one);
	sl_hist_free(&many);

	/* the sum saturates as sl_hist_add's does */
	sl_hist_init(&many);
	sl_hist_add_count(&many, UINT64_MAX / 2, 3);
	assert_int_equal(many.sum, UINT64_MAX);
	assert_int_equal(many.count, 3);
	sl_hist_free(&many);
}

/* removing samples leaves the others, min and max exact while their buckets keep any */
static void test_remove(void **state)
{
	struct sl_hist all, some, rest, none;

	(void)state;
	sl_hist_init(&all);
	sl_hist_init(&some);
	sl_hist_init(&rest);
	sl_hist_init(&none);
	for (uint64_t v = 100; v < 2000000; v = v * 3 / 2 + 7) {
		sl_hist_add(&all, v);
		sl_hist_add(v % 2 ? &some : &rest, v);
	}
	sl_hist_add_held(&all, 5000);		/* held buckets are counted first */
	sl_hist_add(&some, 5000);
	sl_hist_remove(&all, &some);
	assert_same(&all, &rest);
	assert_int_equal(all.count, rest.count);
	assert_int_equal(all.sum, rest.sum);
	assert_int_equal(all.min, rest.min);
	/* rest's max is not all's: it becomes its bucket's top, within 0.4% */
	assert_true(all.max >= rest.max && all.max <= rest.max + rest.max / 128);

	sl_hist_remove(&all, &none);		/* nothing */
	assert_same(&all, &rest);
	sl_hist_remove(&all, &rest);		/* everything */
	assert_int_equal(all.count, 0);
	assert_int_equal(sl_hist_percentile(&all, 99), 0);
	sl_hist_free(&all);
	sl_hist_free(&some);
	sl_hist_free(&rest);
}

/*
 * A held histogram's groups count in 8 bits until a bucket passes 255:
 * the same answers as 32 bits before and after the widening, with
 * samples held, added, merged in, removed, compacted and counted at once.
 */
static void test_narrow(void **state)
{
	struct sl_hist plain, held, part;
	const uint64_t vals[] = { 7, 1000, 1003, 250000, 260000, 9000000 };

	(void)state;
	sl_hist_init(&plain);
	sl_hist_init(&held);
	for (int i = 0; i < 200; i++)
		for (size_t k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
			sl_hist_add(&plain, vals[k]);
			sl_hist_add_held(&held, vals[k]);
		}
	assert_same(&plain, &held);
	assert_true((uintptr_t)held.groups[0] & SL_HIST_NARROW);	/* 200 in a bucket */
	assert_false((uintptr_t)plain.groups[0] & SL_HIST_NARROW);
	for (int i = 0; i < 300; i++) {		/* 1000 and 7 pass 255, not 250000 */
		sl_hist_add(&plain, i % 2 ? 1000 : 7);
		sl_hist_add_held(&held, i % 2 ? 1000 : 7);
	}
	assert_same(&plain, &held);
	assert_false((uintptr_t)held.groups[0] & SL_HIST_NARROW);	/* widened */
	assert_true((uintptr_t)held.groups[10] & SL_HIST_NARROW);	/* 250000's group */

	/* a plain add, a counted add and a merge into narrow groups widen them */
	sl_hist_add(&plain, 250002);
	sl_hist_add(&held, 250002);
	sl_hist_add_count(&plain, 9000001, 1000);
	sl_hist_add_count(&held, 9000001, 1000);
	sl_hist_add_held(&held, 1003);
	sl_hist_add(&plain, 1003);
	sl_hist_init(&part);
	sl_hist_add_held(&part, 250000);
	sl_hist_merge(&held, &part);
	sl_hist_merge(&plain, &part);
	assert_same(&plain, &held);

	/* removed from a narrow group: its counts go down */
	sl_hist_free(&part);
	sl_hist_init(&part);
	for (int i = 0; i < 50; i++)
		sl_hist_add_held(&part, 9000000);
	sl_hist_add_held(&held, 9000000);
	sl_hist_add(&plain, 9000000);
	sl_hist_remove(&held, &part);
	sl_hist_remove(&plain, &part);
	assert_same(&plain, &held);
	assert_int_equal(held.count, plain.count);

	/* compacted from both widths, and back */
	sl_hist_compact(&held);
	assert_same(&plain, &held);
	sl_hist_add_held(&held, 5);
	sl_hist_add(&plain, 5);
	assert_same(&plain, &held);
	sl_hist_free(&plain);
	sl_hist_free(&held);
	sl_hist_free(&part);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_values_exact),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_relative_error),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_compact),
		cmocka_unit_test(test_compact_held),
		cmocka_unit_test(test_held),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_add_count),
		cmocka_unit_test(test_remove),
		cmocka_unit_test(test_narrow),
	};
	return cmocka_run_group_tests_name("hist", tests, NULL, NULL);
}
