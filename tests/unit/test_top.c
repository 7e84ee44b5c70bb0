// SPDX-License-Identifier: GPL-2.0
/*
 * test_top.c - the first max elements of a stream (util/top.h)
 *
 * The reports' --top lists keep max tasks instead of sorting every task:
 * what they keep must be the first max of a full sort, in its order, for
 * any max (none, one, fewer than the stream, more) and any stream order,
 * with many ties in the leading keys (equal measures, reused pids).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/top.h"

#define N 500

struct item {
	uint64_t key;
	int32_t pid;
	uint32_t i;	/* unique: the order is total */
};

/* the largest key first, then the lowest pid, then the lowest index */
static int by_rank(const void *x, const void *y)
{
	const struct item *a = x, *b = y;

	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static void check(size_t n, size_t max, unsigned int seed, int keys)
{
	static struct item all[N], sorted[N];
	struct sl_top top;
	size_t want = n < max ? n : max;

	srand(seed);
	for (size_t k = 0; k < n; k++)
		all[k] = (struct item){ (uint64_t)(rand() % keys), rand() % 4, (uint32_t)k };
	memcpy(sorted, all, n * sizeof(*all));
	qsort(sorted, n, sizeof(*sorted), by_rank);

	sl_top_init(&top, max, sizeof(struct item), by_rank);
	for (size_t k = 0; k < n; k++)
		sl_top_add(&top, &all[k]);
	sl_top_sort(&top);
	assert_int_equal(top.nr, want);
	if (want)
		assert_memory_equal(top.v, sorted, want * sizeof(*sorted));
	sl_top_free(&top);
	assert_null(top.v);
}

static void test_first_of_a_sort(void **state)
{
	static const size_t maxes[] = { 0, 1, 2, 3, 10, 499, 500, 501, SIZE_MAX };

	for (size_t m = 0; m < sizeof(maxes) / sizeof(maxes[0]); m++)
		for (unsigned int seed = 1; seed <= 20; seed++) {
			check(N, maxes[m], seed, 1000);	/* few ties */
			check(N, maxes[m], seed, 3);	/* mostly ties: pid and index decide */
			check(seed, maxes[m], seed, 5);	/* short streams */
			check(0, maxes[m], seed, 5);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_of_a_sort),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
