// SPDX-License-Identifier: GPL-2.0
/*
 * test_cpu_heap.c - the heap that merges per-CPU streams (cpu_heap.h)
 *
 * Both trace.dat readers pop the earliest CPU, read that CPU's next
 * event and put it back (cpu_heap_replace_top(), or cpu_heap_pop() at the
 * CPU's end).  Merged streams must come out in (timestamp, CPU) order -
 * ties to the lower CPU, as trace-cmd report prints them - with nothing
 * lost, for any number of CPUs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "read/cpu_heap.h"

#define MAX_CPUS 300
#define MAX_EVENTS 200

/* Merge ncpus random non-decreasing streams; check order and count. */
static void merge(int ncpus, unsigned int seed, int ts_range)
{
	static uint64_t ts[MAX_CPUS][MAX_EVENTS];
	int len[MAX_CPUS], pos[MAX_CPUS], total = 0, seen = 0;
	struct cpu_heap h = { .nodes = calloc(MAX_CPUS, sizeof(*h.nodes)) };
	uint64_t last_ts = 0;
	int last_cpu = -1;

	srand(seed);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		uint64_t t = (uint64_t)(rand() % ts_range);

		len[cpu] = rand() % MAX_EVENTS;		/* some CPUs have no events */
		pos[cpu] = 0;
		for (int i = 0; i < len[cpu]; i++) {
			t += (uint64_t)(rand() % 3);	/* equal timestamps happen */
			ts[cpu][i] = t;
		}
		total += len[cpu];
		if (len[cpu])
			cpu_heap_push(&h, ts[cpu][0], cpu);
	}
	while (h.nr) {
		int cpu = h.nodes[0].cpu;
		uint64_t t = h.nodes[0].ts;

		assert_int_equal(t, ts[cpu][pos[cpu]]);
		/* (ts, cpu) never decreases: a CPU's own equal timestamps stay together */
		assert_true(seen == 0 || t > last_ts || (t == last_ts && cpu >= last_cpu));
		last_ts = t;
		last_cpu = cpu;
		seen++;
		if (++pos[cpu] < len[cpu])
			cpu_heap_replace_top(&h, ts[cpu][pos[cpu]]);
		else
			cpu_heap_pop(&h);
	}
	assert_int_equal(seen, total);
	free(h.nodes);
}

static void test_one_cpu(void **state)
{
	merge(1, 1, 100);
}

static void test_two_cpus_interleaved(void **state)
{
	for (unsigned int seed = 0; seed < 50; seed++)
		merge(2, seed, 10);
}

static void test_many_cpus(void **state)
{
	merge(8, 7, 1000);
	merge(256, 11, 1000);
	merge(MAX_CPUS, 13, 5);		/* mostly ties */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_cpu),
		cmocka_unit_test(test_two_cpus_interleaved),
		cmocka_unit_test(test_many_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
