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

static inline int cpu_heap_less(const struct cpu_heap_node *a, const struct cpu_heap_node *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->cpu < b->cpu);
}

static inline void cpu_heap_push(struct cpu_heap *h, uint64_t ts, int cpu)
{
	int i = h->nr++;

	while (i > 0) {
		int parent = (i - 1) / 2;
		struct cpu_heap_node n = { ts, cpu };

		if (!cpu_heap_less(&n, &h->nodes[parent]))
			break;
		h->nodes[i] = h->nodes[parent];
		i = parent;
	}
	h->nodes[i].ts = ts;
	h->nodes[i].cpu = cpu;
}

/* Remove the minimum (the caller read it from nodes[0]). */
static inline void cpu_heap_pop(struct cpu_heap *h)
{
	struct cpu_heap_node last = h->nodes[--h->nr];
	int i = 0;

	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		const struct cpu_heap_node *best = &last;

		if (l < h->nr && cpu_heap_less(&h->nodes[l], best)) {
			m = l;
			best = &h->nodes[l];
		}
		if (r < h->nr && cpu_heap_less(&h->nodes[r], best))
			m = r;
		if (m == i)
			break;
		h->nodes[i] = h->nodes[m];
		i = m;
	}
	if (h->nr)
		h->nodes[i] = last;
}

/*
 * The minimum's CPU has a new next timestamp: sift it down in place.
 * One sift instead of a pop and a push; when the same CPU stays the
 * earliest, two comparisons.
 */
static inline void cpu_heap_replace_top(struct cpu_heap *h, uint64_t ts)
{
	struct cpu_heap_node top = { ts, h->nodes[0].cpu };
	int i = 0;

	/* one or two CPUs with data (the common small machine): one comparison */
	if (h->nr <= 2) {
		if (h->nr == 2 && cpu_heap_less(&h->nodes[1], &top)) {
			h->nodes[0] = h->nodes[1];
			h->nodes[1] = top;
		} else {
			h->nodes[0] = top;
		}
		return;
	}

	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		const struct cpu_heap_node *best = &top;

		if (l < h->nr && cpu_heap_less(&h->nodes[l], best)) {
			m = l;
			best = &h->nodes[l];
		}
		if (r < h->nr && cpu_heap_less(&h->nodes[r], best))
			m = r;
		if (m == i)
			break;
		h->nodes[i] = h->nodes[m];
		i = m;
	}
	h->nodes[i] = top;
}

#endif /* SCHEDLINT_CPU_HEAP_H */
