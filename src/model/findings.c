// SPDX-License-Identifier: GPL-2.0
/*
 * findings.c - the capped, filtered list of findings and per-kind summaries
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/findings.h"
#include "schedlint/model.h"
#include "util/util.h"

const struct sl_kind_info sl_kinds[SL_KIND__COUNT] = {
	[SL_KIND_WAKEE_STACKING] = { "wakee-stacking", true,
		"wakeup placed on a busy CPU while another CPU of its LLC was idle" },
	[SL_KIND_SYNC_WAKE_REMOTE] = { "sync-wake-remote", true,
		"synchronous wakeup placed on a remote CPU while the waker's CPU went idle" },
	[SL_KIND_SYNC_WAKE_LOCAL] = { "sync-wake-local", false,
		"synchronous wakeup kept on the waker's CPU (measurement)" },
	[SL_KIND_LATE_PREEMPTION] = { "late-preemption", true,
		"task ran far past its slice while others waited on its CPU" },
	[SL_KIND_IDLE_WHILE_RUNNABLE] = { "idle-while-runnable", true,
		"CPU idle while a migratable task waited on another CPU of its LLC" },
};

int sl_kind_by_name(const char *name)
{
	for (int k = 0; k < SL_KIND__COUNT; k++)
		if (!strcmp(sl_kinds[k].name, name))
			return k;
	return -1;
}

struct sl_findings *sl_findings_new(size_t max)
{
	struct sl_findings *fs = xcalloc(1, sizeof(*fs));

	fs->max = max;
	fs->heap = xcalloc(max ? max : 1, sizeof(*fs->heap));
	return fs;
}

static void free_detail(struct sl_finding *f)
{
	if (f->detail && f->ops && f->ops->free_detail)
		f->ops->free_detail(f->detail);
	else
		free(f->detail);
	f->detail = NULL;
}

void sl_findings_free(struct sl_findings *fs)
{
	if (!fs)
		return;
	for (size_t i = 0; i < fs->nr; i++)
		free_detail(&fs->heap[i]);
	free(fs->heap);
	free(fs);
}

/* heap order: cheapest on top; among equal costs the later one goes first */
static bool heap_less(const struct sl_finding *a, const struct sl_finding *b)
{
	return a->cost < b->cost || (a->cost == b->cost && a->ts > b->ts);
}

static void sift_down(struct sl_findings *fs, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < fs->nr && heap_less(&fs->heap[l], &fs->heap[m]))
			m = l;
		if (r < fs->nr && heap_less(&fs->heap[r], &fs->heap[m]))
			m = r;
		if (m == i)
			return;
		struct sl_finding tmp = fs->heap[i];

		fs->heap[i] = fs->heap[m];
		fs->heap[m] = tmp;
		i = m;
	}
}

static void sift_up(struct sl_findings *fs, size_t i)
{
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!heap_less(&fs->heap[i], &fs->heap[parent]))
			return;
		struct sl_finding tmp = fs->heap[i];

		fs->heap[i] = fs->heap[parent];
		fs->heap[parent] = tmp;
		i = parent;
	}
}

static bool passes(const struct sl_model *m, uint64_t ts, int cpu, int32_t pid, uint32_t comm)
{
	struct sl_task t = { .pid = pid, .comm = comm };

	return sl_filter_time(m->cfg, ts) && sl_filter_cpu(m->cfg, cpu) &&
	       sl_filter_task(m->cfg, m->strtab, &t);
}

bool sl_finding_passes(const struct sl_model *m, const struct sl_finding *f)
{
	return passes(m, f->ts, f->cpu, f->pid, f->comm);
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static void summarize(struct sl_findings *fs, int kind, uint64_t cost)
{
	struct sl_kind_summary *s = &fs->summary[kind];

	s->count++;
	s->cost = sat_add(s->cost, cost);
	if (cost > s->max_cost)
		s->max_cost = cost;
}

void sl_findings_add_unlisted(struct sl_model *m, enum sl_kind kind, uint64_t count,
			      uint64_t cost, uint64_t max_cost)
{
	struct sl_kind_summary *s;

	if (kind >= SL_KIND__COUNT || !count)
		return;
	s = &m->findings->summary[kind];
	s->count += count;
	s->cost = sat_add(s->cost, cost);
	if (max_cost > s->max_cost)
		s->max_cost = max_cost;
	m->findings->dropped += count;
}

bool sl_finding_add(struct sl_model *m, const struct sl_finding *f)
{
	struct sl_findings *fs = m->findings;
	struct sl_finding copy = *f;

	if (f->kind >= SL_KIND__COUNT || !passes(m, f->ts, f->cpu, f->pid, f->comm)) {
		free_detail(&copy);
		return false;
	}
	summarize(fs, f->kind, f->cost);
	if (fs->sorted) {
		/* sl_findings_sorted() left it sorted by cost, most costly first */
		for (size_t i = fs->nr / 2; i-- > 0;)
			sift_down(fs, i);
		fs->sorted = false;
	}
	if (!fs->max) {
		free_detail(&copy);
		fs->dropped++;
		return true;
	}
	if (fs->nr < fs->max) {
		fs->heap[fs->nr++] = copy;
		sift_up(fs, fs->nr - 1);
		return true;
	}
	fs->dropped++;
	if (heap_less(&fs->heap[0], &copy)) {
		free_detail(&fs->heap[0]);
		fs->heap[0] = copy;
		sift_down(fs, 0);
	} else {
		free_detail(&copy);
	}
	return true;
}

bool sl_measure_add(struct sl_model *m, enum sl_kind kind, uint64_t ts, int cpu,
		    int32_t pid, uint32_t comm, uint64_t cost)
{
	if (kind >= SL_KIND__COUNT || !passes(m, ts, cpu, pid, comm))
		return false;
	summarize(m->findings, kind, cost);
	return true;
}

static int by_cost_desc(const void *a, const void *b)
{
	const struct sl_finding *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost < y->cost ? 1 : -1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->cpu - y->cpu;
}

const struct sl_finding *sl_findings_sorted(struct sl_findings *fs, size_t *nr)
{
	/* sorting breaks the heap order; nothing is added after the report starts */
	qsort(fs->heap, fs->nr, sizeof(*fs->heap), by_cost_desc);
	fs->sorted = true;
	*nr = fs->nr;
	return fs->heap;
}

void sl_finding_message(const struct sl_finding *f, const struct sl_model *m, char *buf, size_t len)
{
	if (f->ops && f->ops->message)
		f->ops->message(f, m, buf, len);
	else
		snprintf(buf, len, "%s", sl_kinds[f->kind].what);
}
