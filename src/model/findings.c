// SPDX-License-Identifier: GPL-2.0
/*
 * findings.c - the capped, filtered list of findings and per-kind summaries
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/findings.h"
#include "schedlint/model.h"
#include "util/util.h"

const struct sl_kind_info sl_kinds[SL_KIND__COUNT] = {
	[SL_KIND_WAKEE_STACKING] = { .name = "wakee-stacking", .listed = true, .at_end = true,
		.what = "wakeup placed on a busy CPU while another CPU of its LLC was idle",
		.kernel = "select_task_rq_fair() chose the CPU: wake_affine(), then "
			  "select_idle_sibling() (kernel/sched/fair.c)",
		.knobs = "WA_IDLE, WA_WEIGHT, SIS_UTIL: cat /sys/kernel/debug/sched/features",
		.patch = "\"sched: Clear ttwu_pending after enqueue_task\" (the pending case)",
		.patch_url = "https://lore.kernel.org/r/20221104023601.12844-1-dtcccc@linux.alibaba.com" },
	[SL_KIND_SYNC_WAKE_REMOTE] = { .name = "sync-wake-remote", .listed = true,
		.what = "synchronous wakeup placed on a remote CPU while the waker's CPU went idle",
		.kernel = "select_task_rq_fair() did not keep the WF_SYNC wakee: wake_affine(), "
			  "select_idle_sibling(); ttwu_queue_wakelist() sent the IPI",
		.knobs = "WA_IDLE, WA_WEIGHT, TTWU_QUEUE: cat /sys/kernel/debug/sched/features",
		.patch = "\"sched: consider WF_SYNC to find idle siblings\"",
		.patch_url = "https://lore.kernel.org/r/20221027202603.670616-1-avagin@google.com" },
	[SL_KIND_SYNC_WAKE_LOCAL] = { .name = "sync-wake-local", .listed = false,
		.what = "synchronous wakeup kept on the waker's CPU (measurement)" },
	[SL_KIND_LATE_PREEMPTION] = { .name = "late-preemption", .listed = true,
		.what = "task ran far past its slice while others waited on its CPU",
		.kernel = "only the tick preempted it: sched_tick() -> task_tick_fair() -> "
			  "update_curr() -> resched_curr(); no hrtick at the slice's end",
		.knobs = "HRTICK: grep HRTICK /sys/kernel/debug/sched/features\n"
			 "CONFIG_HZ: grep CONFIG_HZ= /boot/config-$(uname -r)\n"
			 "base slice: cat /sys/kernel/debug/sched/base_slice_ns",
		.patch = "\"sched: Fix SCHED_HRTICK bug leading to late preemption of tasks\"",
		.patch_url = "https://lore.kernel.org/r/20160919181747.l2sy56teyiqnmgmt@codeaurora.org" },
	[SL_KIND_IDLE_WHILE_RUNNABLE] = { .name = "idle-while-runnable", .listed = true, .at_end = true,
		.what = "CPU idle while a migratable task waited on another CPU of its LLC",
		.kernel = "no balance pulled it: sched_balance_newidle() (newidle_balance() "
			  "before 6.10) as the CPU went idle, nor the periodic balance",
		.knobs = "migration_cost_ns: cat /sys/kernel/debug/sched/migration_cost_ns\n"
			 "domain flags: cat /sys/kernel/debug/sched/domains/cpu0/domain*/flags",
		.patch = "RFC \"sched: Implement shared wakequeue in CFS\" (not merged)",
		.patch_url = "https://lore.kernel.org/r/ZJkqeXkPJMTl49GB@BLR-5CG11610CF.amd.com" },
	[SL_KIND_LATE_PREEMPTION_AT_TICK] = { .name = "late-preemption-at-tick", .listed = true,
		.configuration = true,
		.what = "task ran past its slice to the next tick (HRTICK off: the kernel's design)",
		.kernel = "with HRTICK off the slice's end is looked at by the tick only: "
			  "sched_tick() -> task_tick_fair() -> update_curr() -> resched_curr()",
		.knobs = "HRTICK: grep HRTICK /sys/kernel/debug/sched/features; "
			 "on: echo HRTICK > /sys/kernel/debug/sched/features\n"
			 "CONFIG_HZ: grep CONFIG_HZ= /boot/config-$(uname -r)",
		.patch = "\"sched: Fix SCHED_HRTICK bug leading to late preemption of tasks\"",
		.patch_url = "https://lore.kernel.org/r/20160919181747.l2sy56teyiqnmgmt@codeaurora.org" },
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
	/*
	 * At the cap at once (a cap the machine cannot hold fails here), but
	 * not zeroed: an entry is written before it is read (l->nr), and the
	 * 1000 entries a kind of the default cap, 768 KB, are most often
	 * never touched at all (GROW()'s memset paid their page faults at
	 * every start).
	 */
	if (max < SL_FINDINGS_ALL)
		for (int k = 0; k < SL_KIND__COUNT; k++) {
			size_t n = max ? max : 1;

			fs->lists[k].heap = xmalloc(n * sizeof(*fs->lists[k].heap));
			fs->lists[k].alloc = n;
		}
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
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		for (size_t i = 0; i < fs->lists[k].nr; i++)
			free_detail(&fs->lists[k].heap[i]);
		free(fs->lists[k].heap);
	}
	free(fs->sorted);
	free(fs);
}

/* heap order: cheapest on top; among equal costs the later one goes first */
static bool heap_less(const struct sl_finding *a, const struct sl_finding *b)
{
	return a->cost < b->cost || (a->cost == b->cost && a->ts > b->ts);
}

/*
 * The sifts move a hole, not the finding: each step copies one finding
 * up or down, and the one sifted is written once, where it stops (the
 * same places a swap at every step gives).
 */
static void sift_down(struct sl_finding_list *l, size_t i)
{
	struct sl_finding x = l->heap[i];

	for (;;) {
		size_t left = 2 * i + 1, right = left + 1, m = i;
		const struct sl_finding *least = &x;

		if (left < l->nr && heap_less(&l->heap[left], least))
			least = &l->heap[m = left];
		if (right < l->nr && heap_less(&l->heap[right], least))
			m = right;
		if (m == i)
			break;
		l->heap[i] = l->heap[m];
		i = m;
	}
	l->heap[i] = x;
}

static void sift_up(struct sl_finding_list *l, size_t i)
{
	struct sl_finding x = l->heap[i];

	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!heap_less(&x, &l->heap[parent]))
			break;
		l->heap[i] = l->heap[parent];
		i = parent;
	}
	l->heap[i] = x;
}

/* --pid/--comm: a task made of what the filter reads (a struct sl_task is large) */
static __attribute__((noinline)) bool passes_list(const struct sl_model *m, int32_t pid,
						   uint32_t comm, bool in_workload)
{
	struct sl_task t = { .pid = pid, .comm = comm, .in_workload = in_workload };

	return sl_filter_task(m->cfg, m->strtab, &t);
}

static bool passes(const struct sl_model *m, uint64_t ts, int cpu, int32_t pid, uint32_t comm,
		   bool in_workload)
{
	const struct sl_config *cfg = m->cfg;

	if (!sl_filter_time(cfg, ts) || !sl_filter_cpu(cfg, cpu))
		return false;
	if (cfg->no_task_list || (!cfg->nr_pids && !cfg->nr_comms))	/* sl_filter_task()'s */
		return !cfg->workload_active || in_workload;
	return passes_list(m, pid, comm, in_workload);
}

bool sl_finding_passes(const struct sl_model *m, const struct sl_finding *f)
{
	return passes(m, f->ts, f->cpu, f->pid, f->comm, f->victim_in_workload);
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
	m->findings->lists[kind].dropped += count;
	m->findings->dropped += count;
}

/* A list sorted for a report is a heap again before the next add. */
static void unsort(struct sl_findings *fs, struct sl_finding_list *l)
{
	free(fs->sorted);
	fs->sorted = NULL;
	if (!l->sorted)
		return;
	for (size_t i = l->nr / 2; i-- > 0;)
		sift_down(l, i);
	l->sorted = false;
}

/* f's detail as the list keeps it: f's own, or a copy of the caller's (size > 0) */
static void *kept_detail(const struct sl_finding *f, size_t size)
{
	void *d;

	if (!size || !f->detail)
		return f->detail;
	d = xmalloc(size);
	memcpy(d, f->detail, size);
	return d;
}

/* sl_finding_add(), and sl_finding_add_copy() with size > 0 */
static bool add(struct sl_model *m, const struct sl_finding *f, size_t size)
{
	struct sl_findings *fs = m->findings;
	struct sl_finding copy = *f;
	struct sl_finding_list *l;

	if (f->kind >= SL_KIND__COUNT || !passes(m, f->ts, f->cpu, f->pid, f->comm, f->victim_in_workload)) {
		if (!size)
			free_detail(&copy);
		return false;
	}
	summarize(fs, f->kind, f->cost);
	l = &fs->lists[f->kind];
	unsort(fs, l);
	if (l->nr < fs->max) {
		/* grown as it fills: export's max is every finding */
		GROW(l->heap, l->alloc, l->nr + 1);
		copy.detail = kept_detail(f, size);
		l->heap[l->nr++] = copy;
		fs->nr++;
		sift_up(l, l->nr - 1);
		return true;
	}
	l->dropped++;
	fs->dropped++;
	if (fs->max && heap_less(&l->heap[0], &copy)) {
		free_detail(&l->heap[0]);
		copy.detail = kept_detail(f, size);
		l->heap[0] = copy;
		sift_down(l, 0);
	} else if (!size) {
		free_detail(&copy);
	}
	return true;
}

bool sl_finding_add(struct sl_model *m, const struct sl_finding *f)
{
	return add(m, f, 0);
}

bool sl_finding_add_copy(struct sl_model *m, const struct sl_finding *f, size_t size)
{
	return add(m, f, size);
}

bool sl_measure_add(struct sl_model *m, enum sl_kind kind, uint64_t ts, int cpu,
		    const struct sl_task *t, uint64_t cost)
{
	if (kind >= SL_KIND__COUNT || !passes(m, ts, cpu, t->pid, t->comm, t->in_workload))
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
	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	return (int)x->kind - (int)y->kind;
}

void sl_findings_move(struct sl_findings *fs, enum sl_kind from, enum sl_kind to,
		      bool (*pick)(const struct sl_finding *f, void *arg), void *arg,
		      const struct sl_kind_summary *rest, const struct sl_kind_summary *moved)
{
	struct sl_finding_list *lf = &fs->lists[from], *lt = &fs->lists[to];
	size_t keep = 0;

	unsort(fs, lf);
	unsort(fs, lt);
	for (size_t i = 0; i < lf->nr; i++) {
		struct sl_finding f = lf->heap[i];

		if (!pick(&f, arg)) {
			lf->heap[keep++] = f;
			continue;
		}
		f.kind = (uint8_t)to;
		if (lt->nr < fs->max) {
			GROW(lt->heap, lt->alloc, lt->nr + 1);
			lt->heap[lt->nr++] = f;
			sift_up(lt, lt->nr - 1);
			continue;
		}
		fs->nr--;	/* the cap of to: the cheaper of the two goes */
		if (heap_less(&lt->heap[0], &f)) {
			free_detail(&lt->heap[0]);
			lt->heap[0] = f;
			sift_down(lt, 0);
		} else {
			free_detail(&f);
		}
	}
	lf->nr = keep;
	for (size_t i = lf->nr / 2; i-- > 0;)
		sift_down(lf, i);
	fs->summary[from].count = rest->count;
	fs->summary[from].cost = rest->cost;
	fs->summary[from].max_cost = rest->max_cost;
	fs->summary[to].count = moved->count;
	fs->summary[to].cost = moved->cost;
	fs->summary[to].max_cost = moved->max_cost;
	fs->dropped -= lf->dropped + lt->dropped;
	lf->dropped = rest->count > lf->nr ? rest->count - lf->nr : 0;
	lt->dropped = moved->count > lt->nr ? moved->count - lt->nr : 0;
	fs->dropped += lf->dropped + lt->dropped;
}

const struct sl_finding *sl_findings_of_kind(struct sl_findings *fs, enum sl_kind kind, size_t *nr)
{
	struct sl_finding_list *l = &fs->lists[kind];

	/* sorting breaks the heap order; unsort() restores it before an add */
	if (!l->sorted && l->nr)
		qsort(l->heap, l->nr, sizeof(*l->heap), by_cost_desc);
	l->sorted = true;
	*nr = l->nr;
	return l->heap;
}

struct sl_finding *sl_findings_edit(struct sl_findings *fs, enum sl_kind kind, size_t *nr)
{
	free(fs->sorted);	/* copies of the findings as they were */
	fs->sorted = NULL;
	*nr = fs->lists[kind].nr;
	return fs->lists[kind].heap;
}

const struct sl_finding *sl_findings_sorted(struct sl_findings *fs, size_t *nr)
{
	size_t n = 0;

	if (!fs->sorted) {
		/* shallow copies: the lists own the details */
		fs->sorted = xcalloc(fs->nr ? fs->nr : 1, sizeof(*fs->sorted));
		for (int k = 0; k < SL_KIND__COUNT; k++) {
			if (fs->lists[k].nr)
				memcpy(fs->sorted + n, fs->lists[k].heap,
				       fs->lists[k].nr * sizeof(*fs->sorted));
			n += fs->lists[k].nr;
		}
		if (n)
			qsort(fs->sorted, n, sizeof(*fs->sorted), by_cost_desc);
	}
	*nr = fs->nr;
	return fs->sorted;
}

bool sl_finding_whatif_text(const struct sl_finding *f, const struct sl_model *m, char *buf,
			    size_t len)
{
	const struct sl_finding_whatif *x = &f->whatif;
	char est[32], now[32], lo[32], hi[32], what[96];

	if (!x->est)
		return false;
	switch (f->kind) {
	case SL_KIND_WAKEE_STACKING:
		snprintf(what, sizeof(what), "if placed on cpu%d", x->cpu);
		break;
	case SL_KIND_SYNC_WAKE_REMOTE:
		snprintf(what, sizeof(what), "if kept on cpu%d", x->cpu);
		break;
	case SL_KIND_LATE_PREEMPTION:
	case SL_KIND_LATE_PREEMPTION_AT_TICK:
		snprintf(what, sizeof(what), "if switched at the slice, %s:%d waits",
			 sl_str(m->strtab, x->comm), x->pid);
		break;
	case SL_KIND_IDLE_WHILE_RUNNABLE:
		snprintf(what, sizeof(what), "if pulled by cpu%d", x->cpu);
		break;
	default:
		return false;
	}
	fmt_duration(est, sizeof(est), x->est);
	fmt_duration(now, sizeof(now), x->now);
	fmt_duration(lo, sizeof(lo), x->lo);
	fmt_duration(hi, sizeof(hi), x->hi);
	snprintf(buf, len, "%s: ~%s instead of %s (%s..%s, from %" PRIu64 "%s)", what, est, now,
		 lo, hi, x->basis, x->weak ? ", weak" : "");
	return true;
}

void sl_finding_message(const struct sl_finding *f, const struct sl_model *m, char *buf, size_t len)
{
	if (f->ops && f->ops->message)
		f->ops->message(f, m, buf, len);
	else
		snprintf(buf, len, "%s", sl_kinds[f->kind].what);
}

void sl_moment_add_cpu(struct sl_moment *mo, int32_t cpu)
{
	int i;

	if (cpu < 0 || mo->nr_cpus >= SL_MOMENT_CPUS)
		return;
	for (i = 0; i < mo->nr_cpus; i++)
		if (mo->cpus[i] == cpu)
			return;
	/* ascending, as a CPU list reads */
	for (i = mo->nr_cpus; i > 0 && mo->cpus[i - 1] > cpu; i--)
		mo->cpus[i] = mo->cpus[i - 1];
	mo->cpus[i] = cpu;
	mo->nr_cpus++;
}

void sl_finding_moment(const struct sl_finding *f, const struct sl_model *m, struct sl_moment *out)
{
	memset(out, 0, sizeof(*out));
	out->from = f->ts;
	out->to = f->ts + f->cost < f->ts ? UINT64_MAX : f->ts + f->cost;
	if (f->ops && f->ops->moment) {
		struct sl_moment mo = { 0 };

		f->ops->moment(f, m, &mo);
		out->from = mo.from;
		out->to = mo.to;
		for (int i = 0; i < mo.nr_cpus; i++)
			sl_moment_add_cpu(out, mo.cpus[i]);
	}
	sl_moment_add_cpu(out, f->cpu);
}
