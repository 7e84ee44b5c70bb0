// SPDX-License-Identifier: GPL-2.0
/*
 * test_task_freeze.c - a frozen dead task unpacks to exactly the bytes it
 * was (task_freeze.c), whatever its words hold, its compacted histograms
 * to the same buckets, and a dead task like a fork's child packs into a
 * few bytes
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/task_freeze.h"
#include "schedlint/hist.h"

#define SLOTS 776	/* about every analyzer's slots */

static size_t image_size(void)
{
	return sizeof(struct sl_task) + SLOTS;
}

static struct sl_freeze_layout layout(void)
{
	struct sl_freeze_layout l = { .size = image_size() };

	l.hist[l.nr_hist++] = offsetof(struct sl_task, latency);
	l.hist[l.nr_hist++] = sizeof(struct sl_task) + 64;	/* a slot's */
	l.buf = malloc(l.size / 8 * 20 + 10);
	l.image = malloc(l.size);
	return l;
}

/* freeze t (image_size() bytes), unpack it again: the same bytes; the record's bytes in *len */
static void round_trip(struct sl_task *t, size_t *len)
{
	struct sl_freeze_layout l = layout();
	size_t size = l.size;
	struct sl_task *f, *back = malloc(size);

	l.nr_hist = 0;		/* its words are no histograms */

	f = sl_task_freeze(t, &l);
	assert_true(f->frozen);
	assert_int_equal(f->pid, ~t->pid);	/* no lookup finds it by chance */
	assert_int_equal(f->comm, t->comm);
	assert_int_equal(sl_frozen_index(f), t->index);
	memset(back, 0xa5, size);
	sl_task_unpack(f, back, &l, false);
	assert_memory_equal(back, t, size);
	if (len)
		*len = sl_frozen_size(f);
	free(back);
	free(f);
	free(l.buf);
	free(l.image);
}

static void test_words_of_every_kind(void **state)
{
	size_t size = image_size();
	struct sl_task *t = calloc(1, size);
	uint64_t *w = (uint64_t *)t;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void)state;
	t->pid = 4242;
	t->comm = 7;
	t->index = 65535;
	t->since = 123456789012345ull;
	/* zeroes, small counts, -1 pairs, timestamps near and far, pointers, noise */
	for (size_t k = 4; k < size / 8; k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		switch (k % 9) {
		case 0: w[k] = 0; break;
		case 1: w[k] = k; break;
		case 2: w[k] = UINT64_MAX; break;
		case 3: w[k] = 0xffffffffull; break;
		case 4: w[k] = t->since + (x & 0xffff); break;
		case 5: w[k] = t->since - (x & 0xffffff); break;
		case 6: w[k] = 0x55dd31940000ull + (x & 0xfff0); break;
		case 7: w[k] = x; break;
		default: w[k] = (uint64_t)(uint32_t)-(int32_t)k << 32 | (uint32_t)k; break;
		}
	}
	w[size / 8 - 1] = x;	/* the last word too */
	round_trip(t, NULL);
	memset(w + 4, 0, size - 32);	/* nothing but the header */
	round_trip(t, NULL);
	free(t);
}

static void same_hist(const struct sl_hist *a, const struct sl_hist *b)
{
	struct sl_hist_iter ia = { 0 }, ib = { 0 };
	uint64_t lo[2], hi[2], n[2];
	int more;

	assert_int_equal(a->count, b->count);
	assert_int_equal(a->sum, b->sum);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	do {
		more = sl_hist_next(a, &ia, &lo[0], &hi[0], &n[0]);
		assert_int_equal(more, sl_hist_next(b, &ib, &lo[1], &hi[1], &n[1]));
		if (more) {
			assert_int_equal(lo[0], lo[1]);
			assert_int_equal(n[0], n[1]);
		}
	} while (more);
	assert_int_equal(sl_hist_percentile(a, 99), sl_hist_percentile(b, 99));
}

/*
 * A compacted histogram's buckets go into the record and come back the
 * same: read in place, or copied for a thawed task (its to free); one
 * in groups, or with no samples, stays as it was
 */
static void test_hists(void **state)
{
	struct sl_freeze_layout l = layout();
	struct sl_task *t = calloc(1, l.size), *back = calloc(1, l.size), *f;
	struct sl_hist *slot = (struct sl_hist *)((char *)t + l.hist[1]);
	struct sl_hist want, want_slot;
	uint32_t *groups_before;

	(void)state;
	t->pid = 7;
	t->since = 5000000;
	for (uint64_t v = 1; v < 4000000; v = v * 3 + 17)	/* a few buckets */
		sl_hist_add(&t->latency, v);
	sl_hist_compact(&t->latency);
	assert_non_null(t->latency.sparse);
	for (uint64_t v = 0; v < 20000; v++)	/* many: it stays in groups */
		sl_hist_add(slot, v * 7);
	sl_hist_compact(slot);
	groups_before = (uint32_t *)slot->groups;
	sl_hist_init(&want);
	sl_hist_init(&want_slot);
	sl_hist_merge(&want, &t->latency);
	sl_hist_merge(&want_slot, slot);

	f = sl_task_freeze(t, &l);
	assert_null(t->latency.sparse);		/* its block freed, the buckets in f */
	assert_true(sl_frozen_size(f) >= t->latency.nr_sparse * 8);
	sl_task_unpack(f, back, &l, false);	/* read in place */
	assert_true((char *)back->latency.sparse > (char *)f &&
		    (char *)back->latency.sparse < (char *)f + sl_frozen_size(f));
	same_hist(&back->latency, &want);
	assert_ptr_equal(((struct sl_hist *)((char *)back + l.hist[1]))->groups, groups_before);
	same_hist((struct sl_hist *)((char *)back + l.hist[1]), &want_slot);
	sl_task_unpack(f, back, &l, true);	/* a thawed task's own */
	same_hist(&back->latency, &want);
	sl_hist_add(&back->latency, 12345);	/* its own: it can take samples */
	assert_int_equal(back->latency.count, want.count + 1);
	sl_hist_free(&back->latency);
	sl_hist_free(slot);
	sl_hist_free(&want);
	sl_hist_free(&want_slot);
	free(f);
	free(t);
	free(back);
	free(l.buf);
	free(l.image);
}

/* The samples in h's buckets: its count when each is counted once */
static uint64_t bucket_total(const struct sl_hist *h)
{
	struct sl_hist_iter it = { 0 };
	uint64_t lo, hi, n, total = 0;

	while (sl_hist_next(h, &it, &lo, &hi, &n))
		total += n;
	return total;
}

/*
 * A task that dies with samples not yet counted (sl_hist_add_held(): the
 * first ones held in the histogram, later ones staged out of it), as one
 * whose pid is reused without an exit: frozen, it is read in place any
 * number of times (the reports, sl_kept_task()) and each sample is in
 * its bucket once, nothing allocated by the reads (ASan: no leak);
 * thawed, its histograms are its own, freed once.
 */
static void test_held_samples(void **state)
{
	struct sl_freeze_layout l = layout();
	struct sl_task *t = calloc(1, l.size), *back = calloc(1, l.size), *f;
	struct sl_hist *slot = (struct sl_hist *)((char *)t + l.hist[1]);
	struct sl_hist *back_slot = (struct sl_hist *)((char *)back + l.hist[1]);
	struct sl_hist want, want_slot;
	int n = 2 * SL_HIST_HELD + 3;

	(void)state;
	t->pid = 9;
	t->since = 7000000;
	sl_hist_init(&want);
	sl_hist_init(&want_slot);
	/* held[] filled twice (its groups and its stage made), 3 samples staged */
	for (int k = 0; k < n; k++) {
		sl_hist_add_held(&t->latency, 1000 + 300 * (uint64_t)k);
		sl_hist_add(&want, 1000 + 300 * (uint64_t)k);
	}
	assert_non_null(t->latency.groups);
	assert_non_null(t->latency.stage);
	assert_int_equal(t->latency.nr_held, 3);
	/* and one of 3 samples, all held: no groups yet */
	for (int k = 0; k < 3; k++) {
		sl_hist_add_held(slot, 50000 + 7 * (uint64_t)k);
		sl_hist_add(&want_slot, 50000 + 7 * (uint64_t)k);
	}
	assert_null(slot->groups);

	f = sl_task_freeze(t, &l);
	for (int reads = 0; reads < 3; reads++) {
		memset(back, 0, l.size);
		sl_task_unpack(f, back, &l, false);	/* read in place, as sl_kept_task() */
		same_hist(&back->latency, &want);
		same_hist(back_slot, &want_slot);
		assert_int_equal(bucket_total(&back->latency), (uint64_t)n);
		assert_int_equal(bucket_total(back_slot), 3);
	}
	memset(back, 0, l.size);
	sl_task_unpack(f, back, &l, true);	/* thawed: its own, to free */
	same_hist(&back->latency, &want);
	same_hist(back_slot, &want_slot);
	assert_int_equal(bucket_total(&back->latency), (uint64_t)n);
	sl_hist_free(&back->latency);
	sl_hist_free(back_slot);
	sl_hist_free(&want);
	sl_hist_free(&want_slot);
	free(f);
	free(t);
	free(back);
	free(l.buf);
	free(l.image);
}

/* a fork's child: ran once, died; about 40 non-zero words of 1,2 K */
static void test_small(void **state)
{
	size_t size = image_size(), len;
	struct sl_task *t = calloc(1, size);
	uint64_t *w = (uint64_t *)t;

	(void)state;
	t->pid = 2000;
	t->comm = 3;
	t->prio = 120;
	t->policy = -1;
	t->state = SL_TASK_DEAD;
	t->since = 1000005000;
	t->waker_pid = t->waker_cpu = t->wakeup_cpu = -1;
	t->run_ns = 3000;
	t->wait_ns = 1000;
	t->switches = 1;
	t->index = 2;
	t->serial = 3;
	t->wait_worst = (struct sl_wait_moment){ .wait = 1000, .from = 1000001000, .to = 1000002000,
						 .pid = 2000, .comm = 3, .serial = 3, .kind = SL_WAIT_NEW };
	for (int k = 0; k < 20; k++)	/* the slots: timestamps and counts */
		w[sizeof(*t) / 8 + (size_t)k * 4] = k % 2 ? 1000001000 + (uint64_t)k : (uint64_t)k;
	round_trip(t, &len);
	assert_in_range(len, 1, 120);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words_of_every_kind),
		cmocka_unit_test(test_hists),
		cmocka_unit_test(test_held_samples),
		cmocka_unit_test(test_small),
	};
	return cmocka_run_group_tests_name("task_freeze", tests, NULL, NULL);
}
