/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpu_heap.h - merge per-CPU event streams in timestamp order
 *
 * A binary min-heap of (ts, cpu): popping the next event costs
 * O(log ncpus), so the per-event cost does not grow with the CPU count
 * the way libtracecmd's linear scan over every CPU does.  Ties go to the
 * lower CPU, which is what trace-cmd report prints.
 */
#ifndef SCHEDLINT_CPU_HEAP_H
#define SCHEDLINT_CPU_HEAP_H

#include <stdint.h>

struct cpu_heap_node {
	uint64_t ts;
	int cpu;
};

struct cpu_heap {
	struct cpu_heap_node *nodes;
	int nr;
};

/* Does node a come before (ts, cpu)? */
static inline int cpu_heap_before(const struct cpu_heap_node *a, uint64_t ts, int cpu)
{
	return a->ts < ts || (a->ts == ts && a->cpu < cpu);
}

/*
 * Nodes are written field by field, never as a struct built on the stack
 * and copied whole: that copy loads 16 bytes that two narrower stores
 * wrote an instant before, which the processor cannot forward from its
 * store buffer - it waits for the stores to land, about a dozen cycles
 * on every event (a quarter of bench/read_only's CPU on a two-CPU v6
 * trace; the instructions are the same).
 */
static inline void cpu_heap_set(struct cpu_heap_node *n, uint64_t ts, int cpu)
{
	n->ts = ts;
	n->cpu = cpu;
}

static inline void cpu_heap_push(struct cpu_heap *h, uint64_t ts, int cpu)
{
	int i = h->nr++;

	while (i > 0) {
		int parent = (i - 1) / 2;

		/* (ts, cpu) before the parent, or it stays below */
		if (!(ts < h->nodes[parent].ts ||
		      (ts == h->nodes[parent].ts && cpu < h->nodes[parent].cpu)))
			break;
		cpu_heap_set(&h->nodes[i], h->nodes[parent].ts, h->nodes[parent].cpu);
		i = parent;
	}
	cpu_heap_set(&h->nodes[i], ts, cpu);
}

/* Sift (ts, cpu) down from the root of h's first nr nodes. */
static inline void cpu_heap_sift_down(struct cpu_heap *h, uint64_t ts, int cpu)
{
	int i = 0;

	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		uint64_t best_ts = ts;
		int best_cpu = cpu;

		if (l < h->nr && cpu_heap_before(&h->nodes[l], best_ts, best_cpu)) {
			m = l;
			best_ts = h->nodes[l].ts;
			best_cpu = h->nodes[l].cpu;
		}
		if (r < h->nr && cpu_heap_before(&h->nodes[r], best_ts, best_cpu)) {
			m = r;
			best_ts = h->nodes[r].ts;
			best_cpu = h->nodes[r].cpu;
		}
		if (m == i)
			break;
		cpu_heap_set(&h->nodes[i], best_ts, best_cpu);
		i = m;
	}
	cpu_heap_set(&h->nodes[i], ts, cpu);
}

/* Remove the minimum (the caller read it from nodes[0]). */
static inline void cpu_heap_pop(struct cpu_heap *h)
{
	int n = --h->nr;

	if (n)
		cpu_heap_sift_down(h, h->nodes[n].ts, h->nodes[n].cpu);
}

/*
 * The minimum's CPU has a new next timestamp: sift it down in place.
 * One sift instead of a pop and a push; when the same CPU stays the
 * earliest, two comparisons.
 */
static inline void cpu_heap_replace_top(struct cpu_heap *h, uint64_t ts)
{
	int cpu = h->nodes[0].cpu;

	/* one or two CPUs with data (the common small machine): one comparison */
	if (h->nr <= 2) {
		if (h->nr == 2 && cpu_heap_before(&h->nodes[1], ts, cpu)) {
			cpu_heap_set(&h->nodes[0], h->nodes[1].ts, h->nodes[1].cpu);
			cpu_heap_set(&h->nodes[1], ts, cpu);
		} else {
			h->nodes[0].ts = ts;	/* the same CPU stays on top */
		}
		return;
	}
	cpu_heap_sift_down(h, ts, cpu);
}

#endif /* SCHEDLINT_CPU_HEAP_H */
