// SPDX-License-Identifier: GPL-2.0
/*
 * held.c - candidate findings kept until the end of the trace (held.h)
 */
#include <stdlib.h>
#include <string.h>

#include "schedlint/analyzer.h"
#include "schedlint/held.h"
#include "schedlint/model.h"
#include "util/util.h"

void sl_held_init(struct sl_held *h, const struct sl_analyzer *a, size_t tally_off, size_t max)
{
	*h = (struct sl_held){ .a = a, .tally_off = tally_off, .max = max ? max : 1 };
}

struct sl_held_tally *sl_held_tally(const struct sl_model *m, const struct sl_held *h,
				    const struct sl_task *t)
{
	return (struct sl_held_tally *)((char *)sl_task_priv(m, h->a, t) + h->tally_off);
}

static void free_detail(struct sl_finding *f)
{
	if (f->detail && f->ops && f->ops->free_detail)
		f->ops->free_detail(f->detail);
	else
		free(f->detail);
	f->detail = NULL;
}

/* the order of findings.c: cheapest first, among equal costs the later one */
static bool item_less(const struct sl_held_item *a, const struct sl_held_item *b)
{
	return a->f.cost < b->f.cost || (a->f.cost == b->f.cost && a->f.ts > b->f.ts);
}

static void swap(struct sl_held_item *a, struct sl_held_item *b)
{
	struct sl_held_item tmp = *a;

	*a = *b;
	*b = tmp;
}

static void sift_down(struct sl_held *h, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, min = i;

		if (l < h->nr && item_less(&h->items[l], &h->items[min]))
			min = l;
		if (r < h->nr && item_less(&h->items[r], &h->items[min]))
			min = r;
		if (min == i)
			return;
		swap(&h->items[i], &h->items[min]);
		i = min;
	}
}

static void sift_up(struct sl_held *h, size_t i)
{
	while (i > 0 && item_less(&h->items[i], &h->items[(i - 1) / 2])) {
		swap(&h->items[i], &h->items[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

static void tally(struct sl_model *m, struct sl_held *h, struct sl_held_item *it)
{
	struct sl_held_tally *t = sl_held_tally(m, h, it->task);

	t->count++;
	t->cost = t->cost + it->f.cost < t->cost ? UINT64_MAX : t->cost + it->f.cost;
	if (it->f.cost > t->max_cost)
		t->max_cost = it->f.cost;
	free_detail(&it->f);
	h->evicted++;
}

bool sl_held_add(struct sl_model *m, struct sl_held *h, struct sl_task *t, const struct sl_finding *f)
{
	struct sl_held_item it = { .f = *f, .task = t };

	if (!sl_finding_passes(m, f)) {
		free_detail(&it.f);
		return false;
	}
	if (!h->items)
		h->items = xcalloc(h->max, sizeof(*h->items));
	if (h->nr < h->max) {
		h->items[h->nr++] = it;
		sift_up(h, h->nr - 1);
		return true;
	}
	if (item_less(&h->items[0], &it)) {
		tally(m, h, &h->items[0]);
		h->items[0] = it;
		sift_down(h, 0);
	} else {
		tally(m, h, &it);
	}
	return true;
}

void sl_held_free(struct sl_held *h)
{
	for (size_t i = 0; i < h->nr; i++)
		free_detail(&h->items[i].f);
	free(h->items);
	h->items = NULL;
	h->nr = 0;
}

bool sl_held_known_migratable(const struct sl_model *m, const struct sl_task *t)
{
	return sl_task_affinity(m, t) == SL_AFFINITY_MIGRATABLE;
}

bool sl_held_migratable(const struct sl_model *m, const struct sl_task *t)
{
	enum sl_affinity aff = sl_task_affinity(m, t);

	return aff == SL_AFFINITY_MIGRATABLE ||
	       (aff == SL_AFFINITY_UNKNOWN && m->cfg->assume_migratable);
}

void sl_held_decide(struct sl_model *m, struct sl_held held[2], enum sl_kind kind,
		    bool (*stands)(void *ctx, const struct sl_model *m, struct sl_finding *f), void *ctx)
{
	for (int h = 0; h < 2; h++) {
		for (size_t i = 0; i < held[h].nr; i++) {
			struct sl_held_item *it = &held[h].items[i];

			if (!sl_held_migratable(m, it->task) || !stands(ctx, m, &it->f))
				continue;
			sl_finding_add(m, &it->f);
			it->f.detail = NULL;	/* the findings own it now */
		}
	}
	/* the tallies live in the task slots; held[0]'s names where */
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		struct sl_held_tally *t = sl_held_tally(m, &held[0], m->tasks[i]);

		if (t->count && sl_held_migratable(m, m->tasks[i]))
			sl_findings_add_unlisted(m, kind, t->count, t->cost, t->max_cost);
	}
	sl_held_free(&held[0]);
	sl_held_free(&held[1]);
}

void sl_gaps_add(struct sl_gaps *gs, int cpu, uint64_t start, uint64_t end)
{
	struct sl_gap_list *l;

	if (cpu < 0)
		return;
	if (cpu >= gs->nr_cpus) {
		/* zeroed, and grown geometrically: CPUs may appear one by one */
		GROW(gs->cpu, gs->cpus_alloc, (size_t)cpu + 1);
		gs->nr_cpus = cpu + 1;
	}
	l = &gs->cpu[cpu];
	if (start > end)
		start = end;
	if (l->nr && start < l->gap[l->nr - 1].end)
		start = l->gap[l->nr - 1].end;	/* keep them ordered and apart */
	GROW(l->gap, l->alloc, l->nr + 1);
	l->gap[l->nr++] = (struct sl_gap){ .start = start, .end = end };
}

const struct sl_gap *sl_gaps_find(const struct sl_gaps *gs, int cpu, uint64_t a, uint64_t b)
{
	const struct sl_gap_list *l;
	size_t lo = 0, hi;

	if (cpu < 0 || cpu >= gs->nr_cpus)
		return NULL;
	l = &gs->cpu[cpu];
	hi = l->nr;
	/* the first gap that ends after a */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->gap[mid].end > a)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo < l->nr && l->gap[lo].start < b)
		return &l->gap[lo];
	return NULL;
}

void sl_gaps_free(struct sl_gaps *gs)
{
	for (int i = 0; i < gs->nr_cpus; i++)
		free(gs->cpu[i].gap);
	free(gs->cpu);
	memset(gs, 0, sizeof(*gs));
}
