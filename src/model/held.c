// SPDX-License-Identifier: GPL-2.0
/*
 * held.c - candidate findings kept until the end of the trace (held.h)
 */
#include <cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/analyzer.h"
#include "schedlint/held.h"
#include "schedlint/model.h"
#include "schedlint/report.h"
#include "util/util.h"

const char *const sl_aff_source_names[SL_AFF__NR] = {
	[SL_AFF_RECORDED] = "recorded", [SL_AFF_INFERRED] = "inferred", [SL_AFF_ASSUMED] = "assumed",
};

void sl_held_init(struct sl_held *h, const struct sl_analyzer *a, size_t tally_off, size_t max,
		  sl_held_stands_fn stands, void *ctx)
{
	*h = (struct sl_held){ .a = a, .tally_off = tally_off, .max = max ? max : 1,
			       .stands = stands, .ctx = ctx };
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

/*
 * Fold the cheapest candidate into its task's tally.  A task with recorded
 * affinity is judged candidate by candidate: this one now, with what is
 * known so far (a re-read written later than the change does not count).
 */
static void tally(struct sl_model *m, struct sl_held *h, struct sl_held_item *it)
{
	struct sl_held_tally *t = sl_held_tally(m, h, it->task);

	if (it->task->nr_aff && h->stands) {
		enum sl_stand st = h->stands(h->ctx, m, &it->f, it->task);

		if (st != SL_STANDS) {
			h->aff.not_allowed += st == SL_FALLS_AFFINITY;
			free_detail(&it->f);
			h->evicted++;
			return;
		}
	}
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
	/*
	 * At its cap at once, unless the cap is every finding
	 * (SL_FINDINGS_ALL), and not zeroed: only items[0 .. nr) are ever
	 * read, and the pages of the room no candidate reaches are never
	 * touched (GROW() zeroed all of it: 4096 items of 104 bytes a list,
	 * a fault per page, most of them for nothing on a trace of few
	 * candidates).
	 */
	if (!h->items && h->max < SL_FINDINGS_ALL) {
		h->items = xmalloc(h->max * sizeof(*h->items));
		h->alloc = h->max;
	}
	if (h->nr < h->max) {
		GROW(h->items, h->alloc, h->nr + 1);
		sl_held_tally(m, h, t)->items++;
		h->items[h->nr++] = it;
		sift_up(h, h->nr - 1);
		return true;
	}
	if (item_less(&h->items[0], &it)) {
		sl_held_tally(m, h, h->items[0].task)->items--;
		tally(m, h, &h->items[0]);
		sl_held_tally(m, h, t)->items++;
		h->items[0] = it;
		sift_down(h, 0);
	} else {
		tally(m, h, &it);
	}
	return true;
}

bool sl_held_needs(const struct sl_model *m, const struct sl_held *h, const struct sl_task *t)
{
	const struct sl_held_tally *tl = sl_held_tally(m, h, t);

	return tl->count || tl->items;
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
	const struct sl_cpuset *allowed = sl_task_allowed_at(m, t, m->now);

	if (allowed)
		return sl_cpuset_count(allowed) > 1;
	return sl_task_affinity(m, t) == SL_AFFINITY_MIGRATABLE;
}

enum sl_aff_source sl_held_source(const struct sl_model *m, const struct sl_task *t)
{
	enum sl_affinity aff;

	if (t->nr_aff)
		return SL_AFF_RECORDED;
	aff = sl_task_affinity(m, t);
	if (aff == SL_AFFINITY_MIGRATABLE)
		return SL_AFF_INFERRED;
	if (aff == SL_AFFINITY_UNKNOWN && m->cfg->assume_migratable)
		return SL_AFF_ASSUMED;
	return SL_AFF_NONE;
}

bool sl_held_allowed(const struct sl_model *m, const struct sl_task *t, int cpu, uint64_t ts)
{
	const struct sl_cpuset *allowed = sl_task_allowed_at(m, t, ts);

	return !allowed || sl_cpuset_test(allowed, cpu);
}

static void count_kept(struct sl_held_affinity *aff, const struct sl_task *t,
		       enum sl_aff_source src, uint64_t n)
{
	aff->kept[src] += n;
	if (src == SL_AFF_INFERRED && t->stopper_moves)
		aff->kept_after_stopper += n;
	if (src == SL_AFF_INFERRED && t->execs)
		aff->kept_after_exec += n;
}

static void count_not_migratable(struct sl_held_affinity *aff, const struct sl_task *t, uint64_t n)
{
	aff->not_migratable += n;
	if (t->stopper_moves)
		aff->after_stopper += n;
	if (t->execs)
		aff->after_exec += n;
}

void sl_held_decide(struct sl_model *m, struct sl_held held[2], enum sl_kind kind)
{
	struct sl_held_affinity *aff = &held[0].aff;

	aff->not_allowed += held[1].aff.not_allowed;
	for (int h = 0; h < 2; h++) {
		for (size_t i = 0; i < held[h].nr; i++) {
			struct sl_held_item *it = &held[h].items[i];
			enum sl_aff_source src = sl_held_source(m, it->task);
			enum sl_stand st;

			if (src == SL_AFF_NONE) {
				count_not_migratable(aff, it->task, 1);
				continue;
			}
			st = held[0].stands(held[0].ctx, m, &it->f, it->task);
			if (st != SL_STANDS) {
				aff->not_allowed += st == SL_FALLS_AFFINITY;
				continue;
			}
			sl_finding_add(m, &it->f);
			it->f.detail = NULL;	/* the findings own it now */
			count_kept(aff, it->task, src, 1);
		}
	}
	/* the tallies live in the task slots; held[0]'s names where */
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		const struct sl_task *task = sl_kept_task(m, i);	/* read only */
		const struct sl_held_tally *t = sl_held_tally(m, &held[0], task);
		enum sl_aff_source src;

		if (!t->count)
			continue;
		src = sl_held_source(m, task);
		if (src == SL_AFF_NONE) {
			count_not_migratable(aff, task, t->count);
			continue;
		}
		sl_findings_add_unlisted(m, kind, t->count, t->cost, t->max_cost);
		count_kept(aff, task, src, t->count);
	}
	sl_held_free(&held[0]);
	sl_held_free(&held[1]);
}

bool sl_held_affinity_any(const struct sl_held_affinity *aff)
{
	return aff->kept[SL_AFF_RECORDED] || aff->kept[SL_AFF_INFERRED] ||
	       aff->kept[SL_AFF_ASSUMED] || aff->not_allowed || aff->not_migratable;
}

void sl_held_affinity_text(struct sl_report *r, const struct sl_held_affinity *aff,
			   const char *what)
{
	const uint64_t *k = aff->kept;

	if (!sl_held_affinity_any(aff))
		return;
	fprintf(r->out, "  affinity %" PRIu64 " recorded by schedlint record, %" PRIu64
		" inferred (seen on two\n", k[SL_AFF_RECORDED], k[SL_AFF_INFERRED]);
	fputs("           CPUs", r->out);
	if (k[SL_AFF_INFERRED])
		fprintf(r->out, "; %" PRIu64 " of them since a migration/N move",
			aff->kept_after_stopper);
	if (aff->kept_after_exec)
		fprintf(r->out, ", %" PRIu64 " since an exec", aff->kept_after_exec);
	fprintf(r->out, ")%s", k[SL_AFF_ASSUMED] ? "," : "\n");
	if (k[SL_AFF_ASSUMED])
		fprintf(r->out, " %" PRIu64 " --assume-migratable\n", k[SL_AFF_ASSUMED]);
	if (aff->not_migratable)
		fprintf(r->out, "  left out %" PRIu64 " %s of tasks not seen on two CPUs (%" PRIu64
			" judged\n           from where they ran after their last "
			"migration/N move, %" PRIu64 " after\n           their last exec)\n",
			aff->not_migratable, what, aff->after_stopper, aff->after_exec);
	if (aff->not_allowed)
		fprintf(r->out, "  left out %" PRIu64 " %s whose recorded affinity excluded the "
			"idle CPUs\n", aff->not_allowed, what);
}

void sl_held_affinity_json(cJSON *obj, const struct sl_held_affinity *aff)
{
	cJSON *o = cJSON_AddObjectToObject(obj, "affinity");

	for (int i = 0; i < SL_AFF__NR; i++)
		sl_json_add_u64(o, sl_aff_source_names[i], aff->kept[i]);
	sl_json_add_u64(o, "inferred_after_stopper", aff->kept_after_stopper);
	sl_json_add_u64(o, "left_out_not_migratable", aff->not_migratable);
	sl_json_add_u64(o, "left_out_after_stopper", aff->after_stopper);
	sl_json_add_u64(o, "inferred_after_exec", aff->kept_after_exec);
	sl_json_add_u64(o, "left_out_after_exec", aff->after_exec);
	sl_json_add_u64(o, "left_out_not_allowed", aff->not_allowed);
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
