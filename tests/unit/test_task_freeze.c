// SPDX-License-Identifier: GPL-2.0
/*
 * test_task_freeze.c - a frozen dead task unpacks to exactly the bytes it
 * was (task_freeze.c), whatever its words hold, and a dead task like a
 * fork's child packs into a few bytes
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/task_freeze.h"

#define SLOTS 776	/* about every analyzer's slots */

static size_t image_size(void)
{
	return sizeof(struct sl_task) + SLOTS;
}

/* freeze t (image_size() bytes), unpack it again: the same bytes; the record's bytes in *len */
static void round_trip(struct sl_task *t, size_t *len)
{
	size_t size = image_size();
	uint8_t *buf = malloc(size / 8 * 20 + 10);
	struct sl_task *f, *back = malloc(size);

	f = sl_task_freeze(t, size, buf);
	assert_true(f->frozen);
	assert_int_equal(f->pid, ~t->pid);	/* no lookup finds it by chance */
	assert_int_equal(f->comm, t->comm);
	assert_int_equal(sl_frozen_index(f), t->index);
	memset(back, 0xa5, size);
	sl_task_unpack(f, back, size);
	assert_memory_equal(back, t, size);
	if (len)
		*len = sl_frozen_size(f);
	free(back);
	free(f);
	free(buf);
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
		cmocka_unit_test(test_small),
	};
	return cmocka_run_group_tests_name("task_freeze", tests, NULL, NULL);
}
