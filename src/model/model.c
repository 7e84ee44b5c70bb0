// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the SPEC's state rules applied to the event stream
 *
 * Per CPU: the running task, the runnable queue, the pending wakeups (the
 * kernel's ttwu_pending window) and whether any of that is known.  Per
 * task: running / queued / pending / waking / blocked / new / dead, where,
 * since when, and the wakeup in flight.  Each handler below implements
 * one event's rules (numbers refer to SPEC.md "The state model") and then
 * tells the analyzers what changed.
 *
 * The clock: ftrace's "local" clock is per CPU and may be skewed by a few
 * microseconds (rule 9), so the merged stream is not strictly ordered.
 * Every transition uses max(event time, latest time seen), which keeps
 * every interval non-negative; the inversions are counted for the report.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/analyzer.h"
#include "schedlint/findings.h"
#include "schedlint/model.h"
#include "schedlint/report.h"
#include "affinity.h"
#include "context_model.h"
#include "task_fold.h"
#include "task_freeze.h"
#include "topology.h"
#include "util/util.h"

#define MAX_CPUS SL_MODEL_MAX_CPUS
#define SAMPLE_KINDS 3	/* model_priv.cpu_kind: local, remote with an IPI, remote without */
/*
 * Dead tasks are frozen (task_freeze.c) once more than this many are
 * kept: below, they take little memory, and a trace of a few hundred
 * tasks does not pay for packing them and for reading them back.
 */
#ifndef FREEZE_AFTER	/* -DFREEZE_AFTER=0: every one, to check the reports stay the same */
#define FREEZE_AFTER 1024
#endif

struct task_hash {
	struct sl_task **slots;
	uint32_t nr_slots;		/* power of two */
	uint32_t nr;
};

/* A queue of task indexes (in m->tasks), oldest first. */
struct index_ring {
	uint32_t *at;
	size_t head, nr, alloc;		/* alloc: a power of two */
};

static void ring_push(struct index_ring *r, uint32_t i)
{
	if (r->nr == r->alloc) {
		size_t alloc = r->alloc ? 2 * r->alloc : 1024;
		uint32_t *at = xcalloc(alloc, sizeof(*at));

		for (size_t k = 0; k < r->nr; k++)
			at[k] = r->at[(r->head + k) & (r->alloc - 1)];
		free(r->at);
		r->at = at;
		r->alloc = alloc;
		r->head = 0;
	}
	r->at[(r->head + r->nr++) & (r->alloc - 1)] = i;
}

static uint32_t ring_pop(struct index_ring *r)
{
	uint32_t i = r->at[r->head];

	r->head = (r->head + 1) & (r->alloc - 1);
	r->nr--;
	return i;
}

/*
 * The calls of one hook: each analyzer that has it, with its function
 * (hook_up()), ended by a NULL fn.  The loop over them loads two words a
 * call, where a walk over the analyzers reloaded the count, the array, the
 * analyzer and its ops after every call (analyze calls 8 to 9 hooks per
 * event: the dispatch was 10% of the model's own instructions).
 */
#define HOOK_CALLS(hook) \
	struct { __typeof__(((struct sl_analyzer_ops *)0)->hook) fn; struct sl_analyzer *a; }

struct model_priv {
	struct task_hash hash;
	size_t task_priv_size;		/* analyzers' slots after each struct sl_task */
	/* per CPU: the wake_seq of its last_placed (struct sl_cpu) */
	uint64_t *last_placed_seq;
	/*
	 * per CPU, [cpu * SAMPLE_KINDS + kind]: its latency samples, local,
	 * remote with an IPI, remote without; sl_model_finish() makes the
	 * CPU's and the model's of each kind from them (a sample goes into
	 * one histogram here, not two)
	 */
	struct sl_hist *cpu_kind;
	/* per hook, the analyzers that have it (CALL_HOOK) */
	HOOK_CALLS(on_event) *on_event[SL_EV__COUNT];	/* by event type: the ones that want it */
	HOOK_CALLS(on_placement) *on_placement;
	HOOK_CALLS(on_latency) *on_latency;
	HOOK_CALLS(on_switch) *on_switch;
	HOOK_CALLS(on_runnable) *on_runnable[2];		/* [enter] */
	/* on_runnable(enter = false) of a task switched in: who wants it as a call */
	HOOK_CALLS(on_runnable) *on_switch_leave;
	HOOK_CALLS(on_cpu_idle) *on_cpu_idle;
	HOOK_CALLS(on_cpu_unknown) *on_cpu_unknown;
	/* sl_model_after_event(): the analyzers to call after this event, in the order they asked */
	struct sl_analyzer **after;
	int nr_after;
	bool rehook;			/* sl_model_hooks_idle() changed an analyzer: hook_up() */
	struct sl_analyzer_ops *disabled;	/* the ops of analyzers whose init failed */
	int cpus_alloc;			/* CPUs the per-CPU arrays have room for */
	bool started;
	bool stopped;			/* past SL_MARKER_STOPPED: feed_after_stop() (started false) */
	bool implied;			/* handle_switch() is applying an implied switch */
	bool all_in;			/* no --cpu, --from or --to (see ALL_IN_CLONES) */
	bool have_worst;		/* m->latency_worst is a sample's */
	/*
	 * By wait kind: a wait below it changes none of the model's longest
	 * of its kind (m->wait_worst_by[kind], m->wait_worst_perf61 where it
	 * counts): note_wait()'s test in one compare; 0 while one is none
	 * yet, and always for a new task's (its fork delay is every one's)
	 */
	uint64_t wait_lim[SL_WAIT__NR];
	int cpu_limit;			/* CPU numbers at or above it do not exist in the trace */
	/*
	 * dead tasks not folded yet, oldest death first, by index in m->tasks
	 * (a ring; see fold_one()): a task keeps its index until it is folded
	 */
	struct index_ring dead;
	/* dead tasks not frozen yet (freeze_one()), by index */
	struct index_ring to_freeze;
	struct sl_freeze_layout layout;	/* m->freeze, once a task is frozen */
	size_t keep_dead;		/* SL_KEEP_DEAD_TASKS or --keep-tasks */
	/* the tasks the event being applied got (get_task()): not folded under it */
	const struct sl_task *touched[4];
	int nr_touched;			/* > 4: too many, nothing is folded */
	/* interned names of the wakelist handler's events, 0 until met */
	uint32_t name_cfs_entry, name_ipi_func, name_ttwu_pending;
	/*
	 * By interned comm: 0 not looked at yet, else COMM_SEEN and what the
	 * name says (comm_flags(); sl_task_affinity() is asked at every
	 * enqueue: a string scan each time was 1% of analyze)
	 */
	uint8_t *comm_pinned;
	size_t comm_pinned_alloc;
	uint32_t not_exec_name;		/* the last other event's name, not sched_process_exec */
	/* start_trace(): the first event or marker was seen; relative --from, --to as given */
	bool seen;
	uint64_t from_rel_ns, to_rel_ns;
};

static inline struct model_priv *priv_of(const struct sl_model *m)
{
	return m->priv;
}

static void hook_up(struct sl_model *m);

/* --- analyzers: one call site per hook --- */

#define FOR_EACH_ANALYZER(m, a) \
	for (int _i = 0; _i < (m)->nr_analyzers && ((a) = (m)->analyzers[_i]); _i++)

/* Call hook of every analyzer that has it, in registry order. */
#define CALL_HOOK(m, hook, ...) do {						\
	for (__typeof__(priv_of(m)->hook) _e = priv_of(m)->hook; _e->fn; _e++)	\
		_e->fn(_e->a, (m), __VA_ARGS__);					\
} while (0)

static void notify_runnable(struct sl_model *m, struct sl_task *t, int cpu, uint64_t ts, bool enter)
{
	CALL_HOOK(m, on_runnable[enter], t, cpu, ts, enter);
}

/* t, switched in, left cpu's runqueue: the analyzers that want a call (the others read sl_switch_info) */
static void notify_switch_leave(struct sl_model *m, struct sl_task *t, int cpu, uint64_t ts)
{
	CALL_HOOK(m, on_switch_leave, t, cpu, ts, false);
}

/*
 * Is cpu a CPU of the trace?  A trace.dat says how many CPUs it has (one
 * ring buffer each): a CPU field beyond them is corrupt data, and it is
 * counted and ignored rather than given a runqueue no task ever leaves.
 * Text has no authoritative count (its header may be missing or wrong).
 */
static bool cpu_ok(struct sl_model *m, int cpu)
{
	if (cpu >= 0 && cpu < priv_of(m)->cpu_limit)
		return true;
	if (cpu != -1)
		m->bad_cpu_refs++;
	return false;
}

/* --- tasks --- */

static uint32_t pid_hash(int32_t pid)
{
	return (uint32_t)pid * 2654435761u;
}

static void hash_insert(struct task_hash *h, struct sl_task *t);

/*
 * A frozen task's record says ~pid (task_freeze.c): the lookups of the
 * events never match it, so they cost no test more; the pid table's own
 * upkeep reads the pid through this.
 */
static inline int32_t real_pid(const struct sl_task *t)
{
	return t->pid < 0 ? ~t->pid : t->pid;
}

static void hash_grow(struct task_hash *h)
{
	struct task_hash old = *h;

	h->nr_slots = old.nr_slots ? old.nr_slots * 2 : 1024;
	h->slots = xcalloc(h->nr_slots, sizeof(*h->slots));
	h->nr = 0;
	for (uint32_t i = 0; i < old.nr_slots; i++)
		if (old.slots[i])
			hash_insert(h, old.slots[i]);
	free(old.slots);
}

/* Insert or replace the entry for t->pid. */
static void hash_insert(struct task_hash *h, struct sl_task *t)
{
	if ((h->nr + 1) * 2 > h->nr_slots)
		hash_grow(h);
	uint32_t mask = h->nr_slots - 1;

	for (uint32_t i = pid_hash(real_pid(t)) & mask;; i = (i + 1) & mask) {
		if (!h->slots[i]) {
			h->slots[i] = t;
			h->nr++;
			return;
		}
		if (real_pid(h->slots[i]) == real_pid(t)) {
			h->slots[i] = t;
			return;
		}
	}
}

static struct sl_task *thaw(struct sl_model *m, struct sl_task *f, bool requeue);

/* pid's frozen task, thawed; NULL none (the lookup found no task alive or dead of pid) */
static __attribute__((noinline)) struct sl_task *thaw_pid(const struct sl_model *m, int32_t pid)
{
	const struct task_hash *h = &priv_of(m)->hash;
	uint32_t mask = h->nr_slots - 1;

	if (!m->kept_copy || pid < 0)
		return NULL;	/* none frozen yet */
	for (uint32_t i = pid_hash(pid) & mask; h->slots[i]; i = (i + 1) & mask)
		if (h->slots[i]->pid == ~pid)
			return thaw((struct sl_model *)m, h->slots[i], true);
	return NULL;
}

/* Inline: get_task() asks it for every event or two */
static inline struct sl_task *lookup(const struct sl_model *m, int32_t pid)
{
	const struct task_hash *h = &priv_of(m)->hash;
	uint32_t mask = h->nr_slots - 1;

	for (uint32_t i = pid_hash(pid) & mask; h->slots[i]; i = (i + 1) & mask)
		if (h->slots[i]->pid == pid)
			return h->slots[i];
	return thaw_pid(m, pid);
}

struct sl_task *sl_model_task(const struct sl_model *m, int32_t pid)
{
	return lookup(m, pid);
}

/* The pid table's entry of old (if it is there) becomes new. */
static void hash_replace(struct task_hash *h, const struct sl_task *old, struct sl_task *new)
{
	uint32_t mask = h->nr_slots - 1;

	for (uint32_t i = pid_hash(real_pid(old)) & mask; h->slots[i]; i = (i + 1) & mask)
		if (h->slots[i] == old) {
			h->slots[i] = new;
			return;
		}
}

/* Take t out of the pid table, if it is the entry for its pid (backward-shift deletion). */
static void hash_remove(struct task_hash *h, const struct sl_task *t)
{
	uint32_t mask = h->nr_slots - 1, i, j;

	for (i = pid_hash(real_pid(t)) & mask; h->slots[i] != t; i = (i + 1) & mask)
		if (!h->slots[i])
			return;
	for (j = (i + 1) & mask; h->slots[j]; j = (j + 1) & mask) {
		uint32_t home = pid_hash(real_pid(h->slots[j])) & mask;

		/* the entry at j may move to the hole at i if its home is not in (i, j] */
		if (((j - home) & mask) >= ((j - i) & mask)) {
			h->slots[i] = h->slots[j];
			i = j;
		}
	}
	h->slots[i] = NULL;
	h->nr--;
}

/* Dead task t waits to be frozen (freeze_one()), once in the queue. */
static void queue_freeze(struct model_priv *p, struct sl_task *t)
{
	if (t->freeze_queued)
		return;
	ring_push(&p->to_freeze, t->index);
	t->freeze_queued = true;
}

/* t has died: it waits on the dead queue, to be folded past keep_dead. */
static void task_died(struct sl_model *m, struct sl_task *t)
{
	struct model_priv *p = priv_of(m);

	queue_freeze(p, t);
	if (t->dead_queued)
		return;
	ring_push(&p->dead, t->index);
	t->dead_queued = true;
}

/*
 * A task and its analyzers' slots, zeroed, starting on a cache line
 * (64-byte aligned, padded to whole lines): each field and slot is on the
 * same line(s) of every task, none shares a line with another
 * allocation.  With accounting's slot last (task_priv_last) -1.1% D1
 * misses (cachegrind, hackbench traces) for some 300 instructions more
 * per task allocated (glibc's memalign; issue 31).  Live and thawed tasks
 * are allocated so; frozen ones are packed (task_freeze.c).
 */
static struct sl_task *task_alloc(const struct model_priv *p)
{
	return xcalloc_aligned(sizeof(struct sl_task) + p->task_priv_size, 64);
}

/* --- frozen dead tasks (task_freeze.c) --- */

/*
 * A task's size and where it keeps histograms (its latency, each
 * analyzer's task_hists: accounting's run_len), once the analyzers that
 * run are known: the layout freezing packs by, and the list a task's
 * death compacts (compact_task_hists()).
 */
static void list_task_hists(struct sl_model *m)
{
	struct model_priv *p = priv_of(m);
	struct sl_freeze_layout *l = &p->layout;

	l->size = sizeof(struct sl_task) + p->task_priv_size;
	l->nr_hist = 0;
	l->hist[l->nr_hist++] = offsetof(struct sl_task, latency);
	for (int i = 0; i < m->nr_analyzers; i++) {
		const struct sl_analyzer *a = m->analyzers[i];

		for (int k = 0; k < a->ops->nr_task_hists; k++) {
			/* one left out would not be frozen with its task: raise SL_FREEZE_HISTS */
			if (l->nr_hist == SL_FREEZE_HISTS)
				abort();
			l->hist[l->nr_hist++] = sizeof(struct sl_task) + a->task_off + a->ops->task_hists[k];
		}
	}
}

/* The room freezing takes, at the first task frozen */
static void freeze_room(struct sl_model *m)
{
	struct sl_freeze_layout *l = &priv_of(m)->layout;

	if (m->kept_copy)
		return;
	l->buf = xmalloc(l->size / 8 * 20 + 10);
	l->image = xmalloc(l->size);
	m->kept_copy = xcalloc(1, l->size);
	m->freeze = l;
}

/*
 * Frozen task f (in m->tasks and the pid table) becomes the task it was
 * again; requeue: frozen again once nothing refers to it, if still dead
 * (not for one about to be folded).
 */
static struct sl_task *thaw(struct sl_model *m, struct sl_task *f, bool requeue)
{
	struct model_priv *p = priv_of(m);
	struct sl_task *t = task_alloc(p);

	sl_task_unpack(f, t, m->freeze, true);
	m->tasks[t->index] = t;
	hash_replace(&p->hash, f, t);
	if (m->kept_copy_of == f)
		m->kept_copy_of = NULL;
	free(f);
	if (requeue && t->state == SL_TASK_DEAD)
		queue_freeze(p, t);
	return t;
}

struct sl_task *sl_kept_task_thaw(const struct sl_model *m, uint32_t i)
{
	return thaw((struct sl_model *)m, m->tasks[i], true);
}

static bool task_in_use(struct sl_model *m, const struct sl_task *t);

/*
 * Freeze the oldest dead task nothing refers to (the test of folding):
 * at most two looks per new task, as fold_one().  One still referred to
 * goes to the end of the queue; one that came back to life leaves it.
 */
static void freeze_one(struct sl_model *m)
{
	struct model_priv *p = priv_of(m);

	for (int tries = 0; tries < 2 && p->to_freeze.nr; tries++) {
		uint32_t i = ring_pop(&p->to_freeze);
		struct sl_task *t = i < m->nr_tasks ? m->tasks[i] : NULL;
		struct sl_task *f;

		if (!t || t->frozen)
			continue;
		t->freeze_queued = false;	/* (an index folded and reused: another task's, or stale) */
		if (t->state != SL_TASK_DEAD)
			continue;
		if (task_in_use(m, t)) {
			queue_freeze(p, t);
			continue;
		}
		freeze_room(m);
		f = sl_task_freeze(t, m->freeze);
		m->tasks[i] = f;
		hash_replace(&p->hash, t, f);
		free(t);
	}
}

/*
 * Free the frozen tasks and what they own (the analyzers' fold_task
 * frees what a slot holds, as when a task is folded); their places in
 * m->tasks get the zeroed scratch copy, for the analyzers' destroy.
 */
static void free_frozen(struct sl_model *m)
{
	if (!m->kept_copy)
		return;
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		struct sl_task *f = m->tasks[i];

		if (!f || !f->frozen)
			continue;
		sl_task_unpack(f, m->kept_copy, m->freeze, true);	/* fold_task frees */
		for (int k = 0; k < m->nr_analyzers; k++) {
			struct sl_analyzer *a = m->analyzers[k];

			if (a->ops->fold_task)
				a->ops->fold_task(a, m, m->kept_copy);
		}
		sl_hist_free(&m->kept_copy->latency);
		sl_aff_task_free(m->kept_copy);
		free(f);
		m->tasks[i] = m->kept_copy;
	}
	memset(m->kept_copy, 0, m->freeze->size);
	m->kept_copy_of = NULL;
}

/* Does anything still refer to dead task t: the model, or an analyzer? */
static bool task_in_use(struct sl_model *m, const struct sl_task *t)
{
	struct model_priv *p = priv_of(m);

	if (t->q_prev || t->q_next || p->nr_touched > 4)
		return true;
	for (int i = 0; i < p->nr_touched; i++)
		if (p->touched[i] == t)
			return true;
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sl_cpu *c = &m->cpus[cpu];

		if (c->curr == t || c->queued == t || c->pending == t || c->open_wake == t ||
		    c->last_placed == t)
			return true;
	}
	for (int i = 0; i < m->nr_analyzers; i++) {
		struct sl_analyzer *a = m->analyzers[i];
		const struct sl_analyzer_ops *o = a->ops;

		if (o->task_in_use ? o->task_in_use(a, m, t) :
		    o->task_priv_size || o->on_event || o->on_placement || o->on_latency ||
		    o->on_switch || o->on_runnable || o->on_cpu_idle || o->on_cpu_unknown ||
		    o->finish)
			return true;
	}
	return false;
}

/*
 * Past keep_dead dead tasks, fold the oldest one nothing refers to: its
 * numbers go to its comm's row (task_fold.c), it is freed (a pointer
 * kept by mistake is a use after free for ASan, not silently another
 * task), and its index in m->tasks is returned for the next new task;
 * -1 when none is folded.  A task that came back to life leaves the
 * queue (it joins again when it dies); one still referred to goes to its
 * end.  At most two looks per new task: the queue shrinks as fast as
 * deaths can fill it.
 */
static int64_t fold_one(struct sl_model *m)
{
	struct model_priv *p = priv_of(m);

	for (int tries = 0; tries < 2 && p->dead.nr > p->keep_dead; tries++) {
		uint32_t index = ring_pop(&p->dead);
		struct sl_task *t = m->tasks[index];

		if (t->frozen)
			t = thaw(m, t, false);	/* to be folded: not queued to freeze again */
		t->dead_queued = false;
		if (t->state != SL_TASK_DEAD)
			continue;
		if (task_in_use(m, t)) {
			task_died(m, t);
			continue;
		}
		sl_fold_task_numbers(m, t);
		for (int i = 0; i < m->nr_analyzers; i++) {
			struct sl_analyzer *a = m->analyzers[i];

			if (a->ops->fold_task)
				a->ops->fold_task(a, m, t);
		}
		hash_remove(&p->hash, t);
		sl_hist_free(&t->latency);
		sl_aff_task_free(t);
		index = t->index;
		free(t);
		m->tasks[index] = NULL;
		return index;
	}
	return -1;
}

static struct sl_task *new_task(struct sl_model *m, int32_t pid)
{
	struct model_priv *p = priv_of(m);
	int64_t slot = fold_one(m);
	struct sl_task *t;

	if (p->dead.nr > FREEZE_AFTER)
		freeze_one(m);
	t = task_alloc(p);

	t->pid = pid;
	t->serial = ++m->tasks_seen;
	t->prio = -1;
	t->policy = -1;
	t->lat_class = SL_LAT_NONE;
	t->lat_prio = SL_LAT_ASK;
	t->cpu = -1;
	t->first_cpu = -1;
	t->waker_pid = -1;
	t->waker_cpu = -1;
	t->wakeup_cpu = -1;
	if (slot >= 0) {
		t->index = (uint32_t)slot;	/* a folded task's */
	} else {
		GROW(m->tasks, m->tasks_alloc, (size_t)m->nr_tasks + 1);
		t->index = m->nr_tasks++;
	}
	m->tasks[t->index] = t;
	hash_insert(&p->hash, t);
	sl_aff_new_task(m, t);	/* a mask recorded before it was seen */
	sl_ctx_new_task(m, t);	/* and its scheduling context */
	return t;
}

/*
 * An exec (a comm change while alive, or sched_process_exec): taskset and
 * the like set the mask and exec, so where the task ran before says
 * nothing of where it may run after.  Without a recorded mask only where
 * it runs from now on counts (as after a stopper move).  A thread that
 * renames itself (prctl) looks the same: judged afresh, conservatively.
 */
static void exec_restarts_affinity(struct sl_model *m, struct sl_task *t)
{
	if (t->exec_ts == m->now && m->now)
		return;		/* the same exec, by its comm and its event */
	t->execs++;
	t->exec_ts = m->now;
	t->first_cpu = -1;
	t->multi_cpu = false;
}

/* t's comm is now comm (an exec, a rename, or its first sight) */
static __attribute__((noinline)) void comm_changed(struct sl_model *m, struct sl_task *t, uint32_t comm)
{
	if (t->comm) {
		t->exec_seen = true;
		exec_restarts_affinity(m, t);
	}
	t->comm = comm;
}

/*
 * The task for pid (never the idle task 0), created on first sight;
 * hint: a task that may be it (a CPU's running one), no lookup then.
 * Inline: every scheduling event gets one or two.
 */
static inline struct sl_task *get_task_hint(struct sl_model *m, int32_t pid, uint32_t comm,
					    int32_t prio, struct sl_task *hint)
{
	struct model_priv *p = priv_of(m);
	struct sl_task *t;

	if (pid <= 0)
		return NULL;
	if (hint && hint->pid == pid)
		t = hint;
	else if (!(t = lookup(m, pid)))
		t = new_task(m, pid);
	p->touched[p->nr_touched++ & 3] = t;	/* past 4, task_in_use() says in use */
	if (comm && comm != t->comm)
		comm_changed(m, t, comm);
	if (prio >= 0) {
		t->prio = prio;
		t->prio_dl = false;
	} else if (prio == -1 && !p->implied) {
		t->prio_dl = true;	/* SCHED_DEADLINE: p->prio is -1, in every format */
		t->lat_prio = SL_LAT_ASK;	/* its samples' class: not its prio's */
	}
	return t;
}

static inline struct sl_task *get_task(struct sl_model *m, int32_t pid, uint32_t comm, int32_t prio)
{
	return get_task_hint(m, pid, comm, prio, NULL);
}

const char *sl_recorder_note(const struct sl_model *m, int32_t pid)
{
	return pid > 0 && pid == m->recorder_pid ? " (schedlint record itself)" : "";
}

const char *sl_task_comm(const struct sl_model *m, const struct sl_task *t)
{
	return t ? sl_str(m->strtab, t->comm) : "<idle>";
}

uint32_t sl_wait_comm(const struct sl_model *m, const struct sl_wait_moment *w)
{
	const struct sl_task *t = sl_model_task(m, w->pid);

	return t && t->serial == w->serial ? t->comm : w->comm;
}

/* Per-CPU kernel threads: "ksoftirqd/3", "kworker/3:1", "kworker/1:1H", "migration/2". */
static bool comm_is_percpu_kthread(const char *comm)
{
	const char *p = strrchr(comm, '/');

	if (!p || !(*++p >= '0' && *p <= '9'))
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == ':') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == 'H')
			p++;
	}
	return *p == '\0';
}

#define COMM_SEEN	1	/* looked at */
#define COMM_PINNED	2	/* a per-CPU kernel thread's */
#define COMM_STOPPER	4	/* a migration/N stopper's ("migration/...") */

/* What the interned comm says (COMM_*), each name read once */
static uint8_t comm_flags(const struct sl_model *m, uint32_t comm)
{
	struct model_priv *p = priv_of(m);

	GROW(p->comm_pinned, p->comm_pinned_alloc, (size_t)comm + 1);
	if (!p->comm_pinned[comm]) {
		const char *s = sl_str(m->strtab, comm);

		p->comm_pinned[comm] = COMM_SEEN | (comm_is_percpu_kthread(s) ? COMM_PINNED : 0) |
				       (!strncmp(s, "migration/", 10) ? COMM_STOPPER : 0);
	}
	return p->comm_pinned[comm];
}

enum sl_affinity sl_task_affinity(const struct sl_model *m, const struct sl_task *t)
{
	if (comm_flags(m, t->comm) & COMM_PINNED)
		return SL_AFFINITY_PINNED;
	return t->multi_cpu ? SL_AFFINITY_MIGRATABLE : SL_AFFINITY_UNKNOWN;
}

/* --- CPUs --- */

bool sl_same_llc(const struct sl_model *m, int a, int b)
{
	if (!m->nr_llc_cpus)
		return true;
	if (a < 0 || b < 0 || a >= m->nr_llc_cpus || b >= m->nr_llc_cpus)
		return a == b;
	return m->llc_of[a] >= 0 && m->llc_of[a] == m->llc_of[b];
}

/* a's CPU slots are at m->cpu_priv (sl_cpu_priv()) */
static void cpu_slots_moved(const struct sl_model *m, struct sl_analyzer *a)
{
	a->cpu_base = m->cpu_priv + a->cpu_off;
	a->cpu_stride = m->cpu_priv_size;
}

static void add_cpus(struct sl_model *m, int cpu)
{
	struct model_priv *p = priv_of(m);
	int n = m->nr_cpus;
	int new_n = cpu + 1;

	/*
	 * Room for twice as many: text names its CPUs as it goes, and a
	 * file naming CPUs 0, 1, 2 ... 8191 in turn made this quadratic (a
	 * 9 KB input took 44 s under the fuzzer).
	 */
	if (new_n > p->cpus_alloc) {
		int alloc = MAX(new_n, MIN(MAX(2 * p->cpus_alloc, 8), MAX_CPUS));
		size_t old = (size_t)p->cpus_alloc;

		m->cpus = xrealloc(m->cpus, (size_t)alloc * sizeof(*m->cpus));
		memset(m->cpus + old, 0, ((size_t)alloc - old) * sizeof(*m->cpus));
		m->cpu_priv = xrealloc(m->cpu_priv, (size_t)alloc * m->cpu_priv_size + 1);
		memset(m->cpu_priv + old * m->cpu_priv_size, 0,
		       ((size_t)alloc - old) * m->cpu_priv_size);
		p->last_placed_seq = xrealloc(p->last_placed_seq,
					      (size_t)alloc * sizeof(*p->last_placed_seq));
		p->cpu_kind = xrealloc(p->cpu_kind, (size_t)alloc * SAMPLE_KINDS * sizeof(*p->cpu_kind));
		p->cpus_alloc = alloc;
		for (int i = 0; i < m->nr_analyzers; i++)
			cpu_slots_moved(m, m->analyzers[i]);
	}
	for (int i = n; i < new_n; i++) {
		m->cpus[i].cpu = i;
		p->last_placed_seq[i] = 0;
		sl_hist_init(&m->cpus[i].latency);
		for (int k = 0; k < SAMPLE_KINDS; k++)
			sl_hist_init(&p->cpu_kind[i * SAMPLE_KINDS + k]);
	}
	m->nr_cpus = new_n;
}

/* Make CPUs up to cpu exist (called for every event: the test inline). */
static inline void ensure_cpu(struct sl_model *m, int cpu)
{
	if (cpu >= m->nr_cpus)
		add_cpus(m, cpu);
}

/*
 * The filters of --cpu, --from and --to, asked by the per-event functions
 * with all_in: true when none is set (model_priv.all_in), so every CPU
 * and moment is in and an interval's clipped length is its length.  Each
 * function that asks them per event is compiled twice (ALL_IN_CLONES):
 * a run without those options, nearly every run, takes the copy with
 * all_in constant, where the tests are gone (1 to 3 instructions each,
 * about 20 per event: 1.7% of analyze's instructions on a perf.data of
 * hackbench).  all_in false asks the filters, which is right in every
 * run: the functions that are not per event pass it.
 */
static inline __attribute__((always_inline)) bool cpu_in(const struct sl_model *m, bool all_in, int cpu)
{
	return all_in || sl_filter_cpu(m->cfg, cpu);
}

static inline __attribute__((always_inline)) bool time_in(const struct sl_model *m, bool all_in, uint64_t ts)
{
	return all_in || sl_filter_time(m->cfg, ts);
}

static inline __attribute__((always_inline)) uint64_t clip(const struct sl_model *m, bool all_in, uint64_t a, uint64_t b)
{
	return all_in ? sl_dur(a, b) : sl_filter_clip(m->cfg, a, b);
}

/*
 * name(..., all_in): the function name##_inline (void, always inline, its
 * last parameter all_in) as two functions, one per value of all_in, and
 * the call of the one all_in says (a constant at every call: no test).
 */
#define ALL_IN_CLONES(name, params, ...)						\
	static __attribute__((noinline)) void name##_filtered params			\
	{										\
		name##_inline(__VA_ARGS__, false);					\
	}										\
	static __attribute__((noinline)) void name##_all params			\
	{										\
		name##_inline(__VA_ARGS__, true);					\
	}
#define ALL_IN_CALL(name, all_in, ...) \
	((all_in) ? name##_all(__VA_ARGS__) : name##_filtered(__VA_ARGS__))

/*
 * Integrate the queue depth up to ts (for the time-weighted mean), over
 * the CPU's known time only (tasks woken onto a CPU not yet seen
 * switching made "max 3, mean 3002"), and divide by the time integrated:
 * busy + idle time ends where a CPU lost events, the queue's time at the
 * next event that changes it, so with lost events the mean went past the
 * max (issue 32, 11: max 6, mean 17.37).
 */
static inline __attribute__((always_inline)) void account_queue(struct sl_model *m,
								 struct sl_cpu *c, uint64_t ts,
								 bool all_in)
{
	if (c->known) {
		uint64_t d = clip(m, all_in, c->queue_since, ts);

		c->queue_area += (uint64_t)c->nr_queued * d;
		c->queue_known_ns += d;
	}
	c->queue_since = ts;
}

static void idle_flipped(struct sl_model *m, struct sl_cpu *c, uint64_t ts, bool idle)
{
	c->idle = idle;
	CALL_HOOK(m, on_cpu_idle, c->cpu, ts, idle);
}

/* Tell analyzers when a CPU's idleness (SPEC definition) flips. */
static inline __attribute__((always_inline)) void cpu_changed(struct sl_model *m, struct sl_cpu *c, uint64_t ts)
{
	bool idle = sl_cpu_is_idle(c);

	if (idle != c->idle)
		idle_flipped(m, c, ts, idle);
}

/* Account the CPU's time from curr_since to ts as busy or idle. */
static inline __attribute__((always_inline)) void account_cpu(struct sl_model *m,
							       struct sl_cpu *c, uint64_t ts,
							       bool all_in)
{
	if (c->known && cpu_in(m, all_in, c->cpu)) {
		uint64_t d = clip(m, all_in, c->curr_since, ts);

		if (c->curr)
			c->busy_ns += d;
		else
			c->idle_ns += d;
	}
	c->curr_since = ts;
}

/* --- runqueue and pending lists --- */

static inline __attribute__((always_inline)) void list_add(struct sl_task **head, struct sl_task *t)
{
	t->q_prev = NULL;
	t->q_next = *head;
	if (*head)
		(*head)->q_prev = t;
	*head = t;
}

static inline __attribute__((always_inline)) void list_del(struct sl_task **head, struct sl_task *t)
{
	if (t->q_prev)
		t->q_prev->q_next = t->q_next;
	else
		*head = t->q_next;
	if (t->q_next)
		t->q_next->q_prev = t->q_prev;
	t->q_prev = t->q_next = NULL;
}

/*
 * Take t off the queue or pending list it is on (its state is left as is).
 * Inline where every switch and wakeup takes it (detach() elsewhere);
 * switch_in: t is being switched in (notify_switch_leave()).
 */
static inline __attribute__((always_inline)) void detach_body(struct sl_model *m,
							      struct sl_task *t, uint64_t ts,
							      bool all_in, bool switch_in)
{
	struct sl_cpu *c = sl_model_cpu(m, t->cpu);

	if (!c)
		return;
	if (t->state == SL_TASK_QUEUED) {
		account_queue(m, c, ts, all_in);
		list_del(&c->queued, t);
		c->nr_queued--;
		if (switch_in)
			notify_switch_leave(m, t, c->cpu, ts);
		else
			notify_runnable(m, t, c->cpu, ts, false);
		cpu_changed(m, c, ts);
	} else if (t->state == SL_TASK_PENDING) {
		list_del(&c->pending, t);
		c->nr_pending--;
		cpu_changed(m, c, ts);
	} else if (t->state == SL_TASK_RUNNING && c->curr == t) {
		/*
		 * It runs elsewhere now (the model missed this CPU's switch), or
		 * its pid was reused.  Its time here counts until now, for the
		 * task as for the CPU (which counts it busy), and an implied
		 * switch-in elsewhere is not earlier (implied_switch()).
		 */
		if (sl_filter_task(m->cfg, m->strtab, t) && cpu_in(m, all_in, c->cpu))
			t->run_ns += clip(m, all_in, t->since, ts);
		t->since = ts;
		account_cpu(m, c, ts, all_in);
		account_queue(m, c, ts, all_in);
		c->curr = NULL;
		c->known = false;
		cpu_changed(m, c, ts);
	}
}

static inline __attribute__((always_inline)) void detach_inline(struct sl_model *m,
								struct sl_task *t, uint64_t ts,
								bool all_in)
{
	detach_body(m, t, ts, all_in, false);
}

ALL_IN_CLONES(detach, (struct sl_model *m, struct sl_task *t, uint64_t ts), m, t, ts)
#define detach(m, t, ts, all_in) ALL_IN_CALL(detach, all_in, m, t, ts)

/* t enters cpu's queue; inline where every switch and wakeup does it (enqueue() elsewhere) */
static inline __attribute__((always_inline)) void enqueue_inline(struct sl_model *m,
								 struct sl_task *t, int cpu,
								 uint64_t ts,
								 enum sl_runnable_reason reason,
								 bool all_in)
{
	struct sl_cpu *c;

	ensure_cpu(m, cpu);
	c = &m->cpus[cpu];
	account_queue(m, c, ts, all_in);
	t->state = SL_TASK_QUEUED;
	t->cpu = cpu;
	t->since = ts;
	t->runnable_reason = (uint8_t)reason;
	list_add(&c->queued, t);
	c->nr_queued++;
	if (c->nr_queued > c->max_queue && cpu_in(m, all_in, cpu) && time_in(m, all_in, ts))
		c->max_queue = c->nr_queued;
	notify_runnable(m, t, cpu, ts, true);
	cpu_changed(m, c, ts);
}

ALL_IN_CLONES(enqueue, (struct sl_model *m, struct sl_task *t, int cpu, uint64_t ts,
			      enum sl_runnable_reason reason), m, t, cpu, ts, reason)
#define enqueue(m, t, cpu, ts, reason, all_in) ALL_IN_CALL(enqueue, all_in, m, t, cpu, ts, reason)

static inline __attribute__((always_inline)) void add_pending(struct sl_model *m,
							       struct sl_task *t, int cpu,
							       uint64_t ts)
{
	struct sl_cpu *c;

	ensure_cpu(m, cpu);
	c = &m->cpus[cpu];
	t->state = SL_TASK_PENDING;
	t->cpu = cpu;
	t->since = ts;
	if (!c->nr_pending)
		c->pending_since = ts;
	list_add(&c->pending, t);
	c->nr_pending++;
	cpu_changed(m, c, ts);
}

static bool gap_since(const struct sl_model *m, int cpu, uint64_t since);

const char *const sl_wait_kind_names[SL_WAIT__NR] = {
	[SL_WAIT_WAKEUP] = "wakeup", [SL_WAIT_PREEMPTED] = "preemption",
	[SL_WAIT_RUNNABLE] = "switch-out R", [SL_WAIT_NEW] = "fork",
};

/* The longest so far (to = 0: none yet; perf keeps the first of equal ones). */
static bool keep_longest(struct sl_wait_moment *worst, const struct sl_wait_moment *w)
{
	if (!worst->to || w->wait > worst->wait) {
		*worst = *w;
		return true;
	}
	return false;
}

/* a wait below it is not longer than w (0: w is none yet) */
static uint64_t wait_lim_of(const struct sl_wait_moment *w)
{
	return !w->to ? 0 : w->wait == UINT64_MAX ? UINT64_MAX : w->wait + 1;
}

/* model_priv.wait_lim[] from the model's longest waits, once one changed */
static __attribute__((noinline)) void wait_limits(struct sl_model *m)
{
	struct model_priv *p = priv_of(m);
	uint64_t perf61 = wait_lim_of(&m->wait_worst_perf61);

	for (int k = 0; k < SL_WAIT__NR; k++) {
		uint64_t lim = wait_lim_of(&m->wait_worst_by[k]);

		if (k != SL_WAIT_PREEMPTED)
			lim = MIN(lim, perf61);
		p->wait_lim[k] = k == SL_WAIT_NEW ? 0 : lim;
	}
}

/*
 * note_wait - t, runnable since runnable_since, is switched in on c at ts:
 * one runnable wait of any kind (perf sched latency's delay), and for a
 * new task its fork-to-first-run delay.  Not across lost events on either
 * CPU (as wakeup latency); an inferred switch-in makes it a lower bound.
 * in: t, c's CPU and ts are in the filters.
 */
static inline __attribute__((always_inline)) void note_wait(struct sl_model *m,
							     const struct sl_cpu *c,
							     struct sl_task *t, uint64_t ts,
							     bool inferred, bool in)
{
	uint64_t from = t->runnable_since, wait = sl_dur(from, ts);
	uint8_t kind = t->wait_kind;
	struct sl_wait_moment w;
	bool changed;

	/* most waits are the longest of nothing: a few compares per switch-in (to = 0: none yet) */
	if (!from || (t->wait_worst.to && wait <= t->wait_worst.wait &&
		      wait < priv_of(m)->wait_lim[kind]))
		return;
	if (gap_since(m, c->cpu, from) || (t->cpu != c->cpu && gap_since(m, t->cpu, from)) || !in)
		return;
	w = (struct sl_wait_moment){
		.wait = wait, .from = from, .to = ts, .cpu = c->cpu, .pid = t->pid,
		.comm = t->comm, .serial = t->serial, .kind = kind, .inferred = inferred,
	};
	if (kind == SL_WAIT_NEW && !t->fork_delay_seen) {
		sl_hist_add(&m->fork_delay, wait);
		t->fork_delay = wait;
		t->fork_delay_seen = true;
	}
	keep_longest(&t->wait_worst, &w);
	keep_longest(&m->wait_worst, &w);
	changed = keep_longest(&m->wait_worst_by[kind], &w);
	if (kind == SL_WAIT_WAKEUP && t->wakeup_ts && t->wakeup_ts >= from) {
		/* perf 6.1: from the sched_wakeup */
		w.from = t->wakeup_ts;
		w.wait = sl_dur(w.from, ts);
		changed |= keep_longest(&m->wait_worst_perf61, &w);
	} else if (kind != SL_WAIT_WAKEUP && kind != SL_WAIT_PREEMPTED) {
		changed |= keep_longest(&m->wait_worst_perf61, &w);
	}
	if (changed)
		wait_limits(m);
}

/*
 * The wait of a runnable task ends (switch-in, or its state became
 * unknown); in: t is in the task filters (sl_filter_task()).
 */
static inline __attribute__((always_inline)) void end_wait(struct sl_model *m, struct sl_task *t,
							    uint64_t ts, bool in, bool all_in)
{
	if (t->runnable_since && in)
		t->wait_ns += clip(m, all_in, t->runnable_since, ts);
	t->runnable_since = 0;
}

static void lose_task(struct sl_model *m, struct sl_task *t, uint64_t ts)
{
	detach(m, t, ts, false);
	t->state = SL_TASK_UNKNOWN;
	t->state_lost = true;
	t->wake_valid = false;
	t->runnable_since = 0;
}

/* --- wakeups --- */

static inline __attribute__((always_inline)) void start_wakeup(struct sl_model *m,
								struct sl_task *t, int32_t waker_pid,
								int32_t waker_cpu, uint8_t waker_ctx,
								uint64_t ts, bool valid, bool all_in)
{
	t->early_waking = false;
	t->wake_unconfirmed = false;
	t->wake_valid = valid;
	t->wake_prio = t->prio;
	t->wake_ts = ts;
	t->waker_pid = waker_pid;
	t->waker_cpu = waker_cpu;
	t->waker_ctx = waker_ctx;
	t->wakeup_cpu = -1;
	t->wakeup_ts = 0;
	t->ipi_sent = false;
	t->ipi_ts = 0;
	t->wake_seq++;
	t->runnable_since = ts;
	t->wait_kind = SL_WAIT_WAKEUP;
	if (sl_filter_task(m->cfg, m->strtab, t) && time_in(m, all_in, ts))
		t->wakeups++;
}

/* t's placement is no longer open on its waker's CPU. */
static void clear_open_wake(struct sl_model *m, struct sl_task *t)
{
	if (t->waker_cpu >= 0 && t->waker_cpu < m->nr_cpus && m->cpus[t->waker_cpu].open_wake == t)
		m->cpus[t->waker_cpu].open_wake = NULL;
}

/*
 * The wakee's destination is decided: it becomes pending there (rule 3),
 * or, when the trace has no sched_wakeup at all, enqueued right away.
 * Inline where most placements close (close_placement()); place() elsewhere.
 */
static inline __attribute__((always_inline)) void place_inline(struct sl_model *m,
							       struct sl_task *t, int dest,
							       int prev_cpu, uint64_t ts, bool all_in)
{
	struct model_priv *p = priv_of(m);
	struct sl_placement pl;

	ensure_cpu(m, dest);
	clear_open_wake(m, t);
	add_pending(m, t, dest, ts);
	if (t->waker_cpu >= 0 && t->waker_cpu < m->nr_cpus) {
		m->cpus[t->waker_cpu].last_placed = t;
		p->last_placed_seq[t->waker_cpu] = t->wake_seq;
	}

	pl = (struct sl_placement){
		.task = t, .wake_ts = t->wake_ts, .ts = ts, .dest_cpu = dest,
		.prev_cpu = prev_cpu, .waker_pid = t->waker_pid, .waker_cpu = t->waker_cpu,
		.waker_ctx = t->waker_ctx,
	};
	CALL_HOOK(m, on_placement, &pl);

	if (m->wakeup_missing) {
		detach_inline(m, t, ts, all_in);
		enqueue_inline(m, t, dest, ts, SL_RUNNABLE_WAKEUP, all_in);
		m->cpus[dest].wakeups += cpu_in(m, all_in, dest) && time_in(m, all_in, ts);
	}
}

ALL_IN_CLONES(place, (struct sl_model *m, struct sl_task *t, int dest, int prev_cpu,
			    uint64_t ts), m, t, dest, prev_cpu, ts)
#define place(m, t, dest, prev_cpu, ts, all_in) \
	ALL_IN_CALL(place, all_in, m, t, dest, prev_cpu, ts)

/* Close the open placement of cpu: no migrate came, so the wakee stays (rule 2). */
static inline __attribute__((always_inline)) void close_placement_inline(struct sl_model *m,
									 int cpu, uint64_t ts,
									 bool all_in)
{
	struct sl_task *t = m->cpus[cpu].open_wake;

	if (!t)
		return;
	m->cpus[cpu].open_wake = NULL;
	if (t->state != SL_TASK_WAKING)
		return;
	if (t->cpu < 0) {
		/* no CPU to place it on: sched_waking had a bad target_cpu */
		t->state = SL_TASK_UNKNOWN;
		t->wake_valid = false;
		return;
	}
	place_inline(m, t, t->cpu, t->cpu, ts, all_in);
}

ALL_IN_CLONES(close_placement, (struct sl_model *m, int cpu, uint64_t ts), m, cpu, ts)
#define close_placement(m, cpu, ts, all_in) ALL_IN_CALL(close_placement, all_in, m, cpu, ts)

static bool gap_since(const struct sl_model *m, int cpu, uint64_t since)
{
	const struct sl_cpu *c = sl_model_cpu(m, cpu);

	return c && c->gap_ts && c->gap_ts >= since;
}

/*
 * drop_stale_wakeup - t's wakeup came from an early waking (one logged
 * while t still ran on another CPU, see handle_waking) that no
 * sched_wakeup confirmed, and t is woken again before it ran.  The kernel
 * logs sched_waking only for a task that sleeps (ttwu_state_match()), so
 * the early one was ttwu_runnable() -- t never slept then -- and t slept
 * at its switch-out: the wakeup that counts is the new one.  Without
 * sched_wakeup in the trace nothing else tells the two apart.
 */
static void drop_stale_wakeup(struct sl_model *m, struct sl_task *t, uint64_t ts)
{
	uint64_t slept = t->runnable_since;	/* its switch-out (early_waking_applies) */

	if (t->state == SL_TASK_QUEUED && m->wakeup_missing &&
	    sl_filter_cpu(m->cfg, t->cpu) && sl_filter_time(m->cfg, t->since))
		m->cpus[t->cpu].wakeups--;	/* place() counted it */
	if (sl_filter_task(m->cfg, m->strtab, t) && sl_filter_time(m->cfg, t->wake_ts))
		t->wakeups--;			/* start_wakeup() counted it */
	clear_open_wake(m, t);
	detach(m, t, ts, false);
	t->state = SL_TASK_BLOCKED;
	t->since = slept ? slept : ts;
	t->wake_valid = false;
	t->wake_unconfirmed = false;
	t->runnable_since = 0;
}

static inline __attribute__((always_inline)) void handle_waking(struct sl_model *m,
								 const struct sl_event *ev,
								 uint64_t ts, bool all_in)
{
	struct sl_task *t = get_task(m, ev->wake.pid, ev->wake.comm, ev->wake.prio);

	m->seen_waking = true;
	if (!t)
		return;
	switch (t->state) {
	case SL_TASK_RUNNING:
		/*
		 * Woken on another CPU while it still runs there: either it is
		 * on its way to sleep (try_to_wake_up() logs the waking, then
		 * waits for the switch-out to finish: p->on_cpu) or it never
		 * slept (ttwu_runnable()).  Its next switch-out tells which.
		 */
		if (t->cpu != ev->cpu) {
			t->early_waking = true;
			t->early_waking_ts = ts;
			t->early_waker_pid = ev->pid;
			t->early_waker_cpu = ev->cpu;
			t->early_waker_ctx = ev->ctx;
		}
		return;
	case SL_TASK_QUEUED:
	case SL_TASK_PENDING:
	case SL_TASK_WAKING:
		if (!t->wake_unconfirmed)
			return;		/* rule 4: already awake, not a sample */
		drop_stale_wakeup(m, t, ts);
		break;
	default:
		break;
	}
	/* a task whose state was lost with its CPU's events may not have slept */
	bool valid = !(t->state == SL_TASK_UNKNOWN && t->state_lost);

	start_wakeup(m, t, ev->pid, ev->cpu, ev->ctx, ts, valid, all_in);
	t->state = SL_TASK_WAKING;
	t->since = ts;
	t->cpu = ev->wake.target_cpu;	/* rule 1: the previous CPU, until a migrate says */
	if (!cpu_ok(m, t->cpu))
		t->cpu = -1;
	/* sl_model_feed() closed the CPU's open placement: one is open again only after a drop */
	if (m->cpus[ev->cpu].open_wake)
		close_placement(m, ev->cpu, ts, all_in);
	m->cpus[ev->cpu].open_wake = t;
}

static inline __attribute__((always_inline)) void handle_wakeup(struct sl_model *m,
								 const struct sl_event *ev,
								 uint64_t ts, bool all_in)
{
	struct sl_task *t = get_task(m, ev->wake.pid, ev->wake.comm, ev->wake.prio);
	int dest = ev->wake.target_cpu;

	m->wakeup_task = t;
	m->seen_wakeup = true;
	if (!t || !ev->wake.success)
		return;
	if (!cpu_ok(m, dest))
		dest = ev->cpu;
	ensure_cpu(m, dest);

	switch (t->state) {
	case SL_TASK_RUNNING:
		t->early_waking = false;	/* ttwu_runnable(): it never slept */
		return;
	case SL_TASK_QUEUED:
		return;		/* rule 4 */
	case SL_TASK_WAKING:
		/* sched_wakeup.target_cpu confirms the destination (rule 2) */
		t->wake_unconfirmed = false;
		t->cpu = dest;
		place(m, t, dest, ev->wake.target_cpu, ts, all_in);
		if (t->state == SL_TASK_QUEUED)		/* placed and enqueued (no-wakeup mode) */
			break;
		/* fall through */
	case SL_TASK_PENDING:
		t->wake_unconfirmed = false;
		detach_inline(m, t, ts, all_in);
		enqueue_inline(m, t, dest, ts, SL_RUNNABLE_WAKEUP, all_in);
		break;
	default: {
		/*
		 * No sched_waking for it: an old kernel (wake time = wakeup time),
		 * or the waking was lost (then the wake time is unknown).
		 */
		bool has_waking = m->seen_waking || m->info->has_waking == SL_YES;
		bool valid = !has_waking && !(t->state == SL_TASK_UNKNOWN && t->state_lost);

		start_wakeup(m, t, ev->pid, ev->cpu, ev->ctx, ts, valid, all_in);
		place(m, t, dest, -1, ts, all_in);
		if (t->state != SL_TASK_QUEUED) {
			detach(m, t, ts, all_in);
			enqueue(m, t, dest, ts, SL_RUNNABLE_WAKEUP, all_in);
		}
		break;
	}
	}
	t->wakeup_cpu = ev->cpu;
	t->wakeup_ts = ts;
	if (cpu_in(m, all_in, dest) && time_in(m, all_in, ts) && !m->wakeup_missing)
		m->cpus[dest].wakeups++;
}

static void handle_wakeup_new(struct sl_model *m, const struct sl_event *ev, uint64_t ts)
{
	struct sl_task *t = get_task(m, ev->wake.pid, ev->wake.comm, ev->wake.prio);
	int dest = ev->wake.target_cpu;

	if (!t)
		return;
	if (!cpu_ok(m, dest))
		dest = ev->cpu;
	if (t->state == SL_TASK_RUNNING || t->state == SL_TASK_QUEUED)
		return;
	detach(m, t, ts, false);
	t->wake_valid = false;	/* rule 5: a new task, not a wakeup */
	t->runnable_since = ts;
	t->wait_kind = SL_WAIT_NEW;
	enqueue(m, t, dest, ts, SL_RUNNABLE_NEW, false);
}

/*
 * Was the move done by a migration/N stopper?  sched_setaffinity() has the
 * stopper move a task that runs on a CPU it may no longer use (so do
 * active balancing and NUMA swaps): a possible affinity change.  The
 * mover is nearly always the task the model has running on the event's
 * CPU (sl_model_feed() made it so): no lookup then, and its name's
 * verdict is kept by comm.
 */
static bool moved_by_stopper(const struct sl_model *m, const struct sl_event *ev)
{
	const struct sl_task *curr = m->cpus[ev->cpu].curr;
	const struct sl_task *s;

	if (ev->pid <= 0)
		return false;
	s = curr && curr->pid == ev->pid ? curr : sl_model_task(m, ev->pid);
	return s && (comm_flags(m, s->comm) & COMM_STOPPER);
}

/*
 * An exec: record re-reads the task's affinity after it (taskset and the
 * like set the mask, then exec), so its recorded mask is out of date
 * until that re-read arrives.  Called for an SL_EV_OTHER of a task whose
 * name is not not_exec_name (sl_model_feed() tests that).
 */
static __attribute__((noinline)) void note_exec(struct sl_model *m, const struct sl_event *ev)
{
	struct model_priv *p = priv_of(m);
	struct sl_task *t;

	if (m->exec_name ? ev->name != m->exec_name
			 : strcmp(sl_str(m->strtab, ev->name), "sched_process_exec")) {
		p->not_exec_name = ev->name;	/* the other events come in runs of one name */
		return;
	}
	m->exec_name = ev->name;
	t = sl_model_task(m, ev->pid);
	if (!t)
		return;
	exec_restarts_affinity(m, t);
	if (m->affinity_recorded)
		t->aff_stale = true;
}

/* Without a recorded mask, only where t runs from now on tells its affinity. */
static void stopper_move(struct sl_model *m, struct sl_task *t, uint64_t ts)
{
	t->stopper_ts = ts;
	t->stopper_moves++;
	if (m->affinity_recorded)
		t->aff_stale = true;	/* record re-reads it, a drain round later */
	t->first_cpu = -1;
	t->multi_cpu = false;
	m->stopper_moves++;
}

static inline __attribute__((always_inline)) void handle_migrate(struct sl_model *m,
								  const struct sl_event *ev,
								  uint64_t ts, bool all_in)
{
	struct sl_task *t = get_task(m, ev->migrate.pid, ev->migrate.comm, ev->migrate.prio);
	int dest = ev->migrate.dest_cpu;

	if (!t || !cpu_ok(m, dest))
		return;
	ensure_cpu(m, dest);
	if (sl_filter_task(m->cfg, m->strtab, t) && time_in(m, all_in, ts))
		t->migrations++;
	if (moved_by_stopper(m, ev))
		stopper_move(m, t, ts);
	else if (t->nr_aff)
		sl_aff_moved(m, t, dest, ts);	/* outside its recorded mask: changed unseen */

	switch (t->state) {
	case SL_TASK_WAKING:
		/*
		 * Rule 2: the wakeup's destination.  select_task_rq() runs once
		 * per wakeup, so it is decided here, not at the waker's next
		 * event: on the wakelist path that may come long after the
		 * wakee sits in the destination's ttwu_pending window.
		 */
		t->cpu = dest;
		place(m, t, dest, ev->migrate.orig_cpu, ts, all_in);
		break;
	case SL_TASK_PENDING:
		detach(m, t, ts, all_in);
		add_pending(m, t, dest, ts);
		break;
	case SL_TASK_QUEUED:		/* rule 7: load balance, affinity change */
		detach(m, t, ts, all_in);
		enqueue(m, t, dest, ts, SL_RUNNABLE_MIGRATED, all_in);
		break;
	case SL_TASK_RUNNING:
		/* migrated while running: its switch-out on the other CPU is late (clock skew) */
		break;
	default:
		t->cpu = dest;
		break;
	}
}

/*
 * The waking logged while the task was still switching out on its CPU
 * (see handle_waking) was a real wakeup from sleep: start it now, at the
 * waking's time, with the waker's CPU open for the placement's migrate.
 */
static void early_waking_applies(struct sl_model *m, struct sl_task *t, uint64_t ts)
{
	int waker_cpu = t->early_waker_cpu;

	start_wakeup(m, t, t->early_waker_pid, waker_cpu, t->early_waker_ctx,
		     t->early_waking_ts, true, false);
	t->wake_unconfirmed = true;	/* until a sched_wakeup, or it runs */
	/* the latency counts from the waking, the wait from now: it ran until now */
	t->runnable_since = ts;
	t->state = SL_TASK_WAKING;
	t->since = ts;
	/* t->cpu stays the CPU it just left: its previous CPU */
	if (waker_cpu >= 0 && waker_cpu < m->nr_cpus) {
		if (m->cpus[waker_cpu].open_wake && m->cpus[waker_cpu].open_wake != t)
			close_placement(m, waker_cpu, ts, false);
		m->cpus[waker_cpu].open_wake = t;
	}
}

/* --- sched_switch (rule 6) --- */

/* A run of schedlint record itself ended at ts (it was switched out). */
static void recorder_run(struct sl_model *m, const struct sl_task *t, uint64_t ts, bool preempted)
{
	uint64_t ran = sl_dur(t->since, ts);

	m->recorder_run_ns += ran;
	m->recorder_runs++;
	m->recorder_preempted += preempted;
	if (ran > m->recorder_longest_ns) {
		m->recorder_longest_ns = ran;
		m->recorder_longest_ts = t->since;
	}
}

/* Affinity evidence: t ran on cpu (switched in, or switched out, there). */
static void seen_running(struct sl_task *t, int cpu)
{
	if (t->first_cpu < 0)
		t->first_cpu = cpu;
	else if (t->first_cpu != cpu)
		t->multi_cpu = true;
}

/* A latency sample as the report's worst lines keep it. */
static struct sl_wakeup_moment wakeup_moment(const struct sl_latency_sample *s,
					     const struct sl_task *t)
{
	return (struct sl_wakeup_moment){
		.latency = s->latency, .wake_ts = s->wake_ts, .run_ts = s->run_ts, .cpu = s->cpu,
		.waker_cpu = s->waker_cpu, .pid = t->pid, .comm = t->comm,
		.inferred = s->implied_switch,
	};
}

static inline __attribute__((always_inline)) void handle_switch_inline(struct sl_model *m,
									const struct sl_event *ev,
									uint64_t ts, bool all_in)
{
	struct model_priv *p = priv_of(m);
	struct sl_cpu *c = &m->cpus[ev->cpu];
	struct sl_task *prev = get_task_hint(m, ev->sw.prev_pid, ev->sw.prev_comm, ev->sw.prev_prio,
					     c->curr);
	struct sl_task *next = get_task(m, ev->sw.next_pid, ev->sw.next_comm, ev->sw.next_prio);
	struct sl_latency_sample sample;
	struct sl_switch_info sw;
	bool have_sample = false;
	/* the filters' verdicts, asked once (they do not change during the switch) */
	const bool c_in = cpu_in(m, all_in, c->cpu), ts_in = time_in(m, all_in, ts);
	const bool prev_in = prev && sl_filter_task(m->cfg, m->strtab, prev);
	const bool next_in = next && sl_filter_task(m->cfg, m->strtab, next);

	if (!p->implied && c_in && ts_in)
		c->switches++;

	/* switched in without its sched_wakeup: the trace has none */
	if (!m->seen_wakeup && m->seen_waking && next &&
	    (next->state == SL_TASK_PENDING || next->state == SL_TASK_WAKING))
		m->wakeup_missing = true;
	/*
	 * next runs before its waker's next event closed its placement (rule
	 * 2): its destination is where it runs.  Placed before this CPU's
	 * state changes, so the analyzers see the CPUs as the wakee found them.
	 */
	if (next && next->state == SL_TASK_WAKING && !p->implied)
		place(m, next, c->cpu, next->cpu, ts, all_in);

	sw = (struct sl_switch_info){
		.ts = ts, .cpu = c->cpu, .prev = prev, .next = next,
		.prev_class = ev->sw.prev_class, .implied = p->implied, .next_left_cpu = -1,
	};
	if (prev && prev->state == SL_TASK_RUNNING && prev->cpu == c->cpu && c->known && c->curr == prev) {
		sw.prev_known = true;
		sw.prev_ran_since = prev->since;
	} else if (!prev && c->known && !c->curr) {
		sw.prev_known = true;
	}

	/* whoever the model thought ran here is not running any more */
	if (c->known && c->curr && c->curr != prev)
		lose_task(m, c->curr, ts);
	account_cpu(m, c, ts, all_in);
	c->curr = NULL;

	if (prev) {
		if (sw.prev_known) {
			if (prev_in && c_in)
				prev->run_ns += clip(m, all_in, prev->since, ts);
			if (prev->pid == m->recorder_pid)
				recorder_run(m, prev, ts, ev->sw.prev_class == SL_PREV_RUNNABLE ||
						 ev->sw.prev_class == SL_PREV_PREEMPTED);
			prev->state = SL_TASK_UNKNOWN;	/* about to be set below */
		} else if (prev->state != SL_TASK_RUNNING || prev->cpu != c->cpu) {
			/* rule 8 (first sight) or an inconsistency: take the event as the truth */
			detach(m, prev, ts, all_in);
			prev->wake_valid = false;
			prev->runnable_since = 0;
		}
		prev->cpu = c->cpu;
		prev->state_lost = false;
		seen_running(prev, c->cpu);
		switch (ev->sw.prev_class) {
		case SL_PREV_RUNNABLE:
		case SL_PREV_PREEMPTED:
			if (prev_in && ts_in)
				prev->preemptions++;
			prev->wake_valid = false;
			prev->runnable_since = ts;
			prev->wait_kind = ev->sw.prev_class == SL_PREV_PREEMPTED ? SL_WAIT_PREEMPTED
										  : SL_WAIT_RUNNABLE;
			enqueue_inline(m, prev, c->cpu, ts, SL_RUNNABLE_PREEMPTED, all_in);
			break;
		case SL_PREV_DEAD:
			prev->state = SL_TASK_DEAD;
			prev->since = ts;
			sl_hist_compact(&prev->latency);
			task_died(m, prev);
			break;
		default:
			prev->state = SL_TASK_BLOCKED;
			prev->block_letter = ev->sw.prev_letter;
			prev->since = ts;
			if (prev->early_waking && !p->implied)
				early_waking_applies(m, prev, ts);
			break;
		}
		prev->early_waking = false;
	}

	/*
	 * The kernel switches to the idle task only when nothing is runnable
	 * on the CPU: tasks the model still has queued here left it unseen
	 * (their switches were not traced, or were lost).  Where they are is
	 * unknown now; they did not wait here, and no wakeup of theirs is
	 * measured until they are seen again.
	 */
	if (!next && !p->implied) {
		struct sl_task *t, *t_next;

		for (t = c->queued; t; t = t_next) {
			t_next = t->q_next;
			if (t != prev)
				lose_task(m, t, ts);
		}
	}

	if (next) {
		bool was_runnable = next->state == SL_TASK_QUEUED || next->state == SL_TASK_PENDING ||
				    next->state == SL_TASK_WAKING;

		if (next->state == SL_TASK_PENDING || next->state == SL_TASK_WAKING)
			clear_open_wake(m, next);
		if (next->state == SL_TASK_QUEUED && sl_model_cpu(m, next->cpu)) {
			sw.next_left_cpu = next->cpu;
			sw.next_queued_since = next->since;
		}
		detach_body(m, next, ts, all_in, true);
		if (was_runnable && next->wake_valid) {
			if (gap_since(m, c->cpu, next->wake_ts) ||
			    (next->cpu >= 0 && next->cpu != c->cpu && gap_since(m, next->cpu, next->wake_ts))) {
				m->samples_dropped_gap++;
			} else {
				have_sample = true;
				sample = (struct sl_latency_sample){
					.task = next, .wake_ts = next->wake_ts, .run_ts = ts,
					.latency = sl_dur(next->wake_ts, ts), .cpu = c->cpu,
					.waker_pid = next->waker_pid, .waker_cpu = next->waker_cpu,
					.waker_ctx = next->waker_ctx, .wakeup_cpu = next->wakeup_cpu,
					.wakeup_ts = next->wakeup_ts,
					.remote = next->waker_cpu != c->cpu, .ipi = next->ipi_sent,
					.ipi_ts = next->ipi_ts, .wake_seq = next->wake_seq,
					.implied_switch = p->implied,
				};
				sample.in_filter = next_in && c_in && ts_in;
			}
		}
		if (was_runnable) {
			note_wait(m, c, next, ts, p->implied, next_in && c_in && ts_in);
			end_wait(m, next, ts, next_in, all_in);
		}
		next->wake_valid = false;
		next->wake_unconfirmed = false;
		next->runnable_since = 0;
		next->state = SL_TASK_RUNNING;
		next->state_lost = false;
		next->cpu = c->cpu;
		next->since = ts;
		if (next_in && ts_in)
			next->switches++;
		seen_running(next, c->cpu);
	}

	if (!c->known)
		account_queue(m, c, ts, all_in);	/* the mean counts from here */
	c->curr = next;
	c->curr_since = ts;
	c->known = true;
	cpu_changed(m, c, ts);

	/*
	 * A sample that ends at an inferred switch is a lower bound: counted,
	 * and with --exclude-inferred measured no further (as one at a gap).
	 */
	if (have_sample && sample.implied_switch) {
		if (sample.in_filter) {
			sl_hist_add(&m->latency_inferred, sample.latency);
			next->latency_inferred++;
			c->latency_inferred++;
		}
		if (m->cfg->exclude_inferred)
			have_sample = false;
	}
	if (have_sample) {
		if (sample.in_filter && !m->cfg->no_latency_stats) {
			uint64_t v = sample.latency;
			unsigned g, i;

			if (!p->have_worst || v > m->latency_worst.latency) {
				m->latency_worst = wakeup_moment(&sample, next);
				p->have_worst = true;
			}
			if (!next->latency.count || v > next->worst.latency)
				next->worst = wakeup_moment(&sample, next);
			/* the model's, the CPU's and the kinds' made of cpu_kind at the end */
			sl_hist_bucket_of(v, &g, &i);
			sl_series_add(&m->latency_series, sample.run_ts, v);
			if (__builtin_expect(next->wake_prio != next->lat_prio, 0))
				sl_class_sample(m, next, v);	/* rare: its class to decide */
			sl_hist_add_held(&next->latency, v);
			sl_hist_add_at(&p->cpu_kind[c->cpu * SAMPLE_KINDS +
						    (!sample.remote ? 0 : sample.ipi ? 1 : 2)], v, g, i);
		}
		CALL_HOOK(m, on_latency, &sample);
	}
	CALL_HOOK(m, on_switch, &sw);

	/* the waker went on: IPIs after this are not for its last wakee */
	c->last_placed = NULL;
}

ALL_IN_CLONES(handle_switch, (struct sl_model *m, const struct sl_event *ev, uint64_t ts),
	      m, ev, ts)
#define handle_switch(m, ev, ts, all_in) ALL_IN_CALL(handle_switch, all_in, m, ev, ts)

/*
 * A switch the trace does not show.  Every event carries the task running
 * on its CPU (common_pid), so when a known CPU logs an event of another
 * task than the model's running one, a sched_switch was not recorded.
 * (Seen for real: on a 6.18 VM one CPU never logs its switches away from
 * the idle task.)  Apply it at the earliest time it can have happened:
 * the CPU's previous event, or the task's last transition if later.  The task
 * that was running is left in an unknown state: how it left is not known.
 */
static void implied_switch(struct sl_model *m, struct sl_cpu *c, int32_t pid, uint64_t ts)
{
	struct model_priv *p = priv_of(m);
	struct sl_task *prev = c->curr;
	struct sl_task *next = pid > 0 ? get_task(m, pid, 0, SL_PRIO_NONE) : NULL;
	struct sl_event sev = { .type = SL_EV_SWITCH, .cpu = c->cpu };
	uint64_t when = c->last_event_ts;

	/*
	 * Not before the task's last known transition either: its enqueue
	 * here, or where it ran, slept or was lost elsewhere (a task does
	 * not run on two CPUs at once).
	 */
	if (next && next->since > when)
		when = next->since;
	/*
	 * ... but without sched_wakeup a wakee's enqueue is placed at its
	 * waker's next event (place()), a time the trace does not show (and
	 * a pending one's sched_wakeup, its enqueue, was not seen either):
	 * from its waking on, the switch-in may have been, and the latency
	 * stays a lower bound (it was "at least 4.00 ms" where the trace
	 * allowed 0 to 4.1 ms: issue 32, 15).  From its waking, or from its
	 * switch-out when the waking came while it still ran elsewhere
	 * (early_waking_applies(): runnable_since): before that it ran
	 * there, and a task runs on one CPU at a time.
	 */
	if (next && next->wake_valid && next->since == when && next->since > c->last_event_ts &&
	    (next->state == SL_TASK_PENDING ||
	     (m->wakeup_missing && next->state == SL_TASK_QUEUED &&
	      next->runnable_reason == SL_RUNNABLE_WAKEUP)))
		when = MAX(MAX(next->wake_ts, next->runnable_since), c->last_event_ts);
	if (when > ts || !when)
		when = ts;
	sev.ts = when;
	sev.pid = prev ? prev->pid : 0;
	sev.sw.prev_pid = prev ? prev->pid : 0;
	sev.sw.prev_prio = SL_PRIO_NONE;
	sev.sw.prev_class = SL_PREV_BLOCKED;
	sev.sw.prev_letter = '?';
	sev.sw.next_pid = pid;
	sev.sw.next_prio = SL_PRIO_NONE;

	m->implied_switches++;
	c->implied_switches++;
	p->implied = true;
	handle_switch(m, &sev, when, false);
	p->implied = false;
	if (prev) {
		/* not blocked for sure: its switch-out is what we did not see */
		prev->state = SL_TASK_UNKNOWN;
		prev->state_lost = true;
		prev->wake_valid = false;
	}
}

/* --- other events --- */

/*
 * Dead t takes no more samples: each of its histograms (its latency, the
 * analyzers' task_hists: accounting's run_len; list_task_hists()) in the
 * compact form, as the exit and the last switch-out leave them, not held
 * and staged until it is frozen, if ever.
 */
static void compact_task_hists(struct sl_model *m, struct sl_task *t)
{
	const struct sl_freeze_layout *l = &priv_of(m)->layout;

	for (int k = 0; k < l->nr_hist; k++)
		sl_hist_compact((struct sl_hist *)((char *)t + l->hist[k]));
}

static void handle_fork(struct sl_model *m, const struct sl_event *ev, uint64_t ts)
{
	struct sl_task *t, *parent;

	get_task(m, ev->fork.parent_pid, ev->fork.parent_comm, SL_PRIO_NONE);
	if (ev->fork.child_pid <= 0)
		return;
	t = sl_model_task(m, ev->fork.child_pid);
	if (t && t->state != SL_TASK_NEW && t->state != SL_TASK_UNKNOWN) {
		/*
		 * pid reuse: a new task with an old pid.  The old one is gone
		 * (its exit was not seen, or the trace is corrupt): wherever the
		 * model had it, it is dead now, not left running or queued on
		 * no list.
		 */
		detach(m, t, ts, false);
		if (t->state == SL_TASK_QUEUED || t->state == SL_TASK_PENDING ||
		    t->state == SL_TASK_WAKING)
			end_wait(m, t, ts, sl_filter_task(m->cfg, m->strtab, t), false);
		clear_open_wake(m, t);
		t->state = SL_TASK_DEAD;
		t->since = ts;
		t->wake_valid = false;
		t->runnable_since = 0;
		compact_task_hists(m, t);
		task_died(m, t);
		t = NULL;
	}
	if (!t)
		t = new_task(m, ev->fork.child_pid);
	if (ev->fork.child_comm)
		t->comm = ev->fork.child_comm;
	parent = sl_model_task(m, ev->fork.parent_pid);
	if (parent)
		sl_aff_inherit(m, parent, t, ts);	/* the kernel copies the mask at fork */
	sl_ctx_inherit(parent, t);	/* and policy, nice and groups */
	/* a mask copied from one out of date is too; record re-reads such a child */
	t->aff_stale = parent && parent->aff_stale;
	if (parent && parent->in_workload && !t->in_workload) {
		t->in_workload = true;	/* a process or a thread the workload started */
		m->nr_workload_tasks++;
	}
	t->state = SL_TASK_NEW;
	t->since = ts;
	t->cpu = ev->cpu;
}

/* An IPI sent from the waker's CPU to its last wakee's destination is for that wakeup. */
static void note_ipi(struct sl_model *m, const struct sl_event *ev, uint64_t ts)
{
	struct model_priv *p = priv_of(m);
	struct sl_task *t = m->cpus[ev->cpu].last_placed;

	if (!t || t->wake_seq != p->last_placed_seq[ev->cpu] || t->ipi_sent)
		return;
	if (t->state != SL_TASK_PENDING && t->state != SL_TASK_QUEUED)
		return;
	bool to_dest = ev->ipi.target_cpu >= 0 ? ev->ipi.target_cpu == t->cpu
					       : sl_cpumask_test(&ev->ipi.mask, t->cpu);

	if (to_dest && t->cpu != ev->cpu) {
		t->ipi_sent = true;
		t->ipi_ts = ts;
	}
}

/* Is id the interned string s?  The id is remembered once found (ids are unique). */
static bool is_name(const struct sl_model *m, uint32_t id, uint32_t *cache, const char *s)
{
	if (*cache)
		return id == *cache;
	if (!id || strcmp(sl_str(m->strtab, id), s))
		return false;
	*cache = id;
	return true;
}

/*
 * The CPU entered its wakelist handler: sched_ttwu_pending() itself
 * (csd_function_entry, 6.6+), or the IPI that runs it (x86's
 * call_function_single_entry, arm64's function-call ipi_entry).
 */
static void note_wakelist_entry(struct sl_model *m, const struct sl_event *ev, uint64_t ts)
{
	struct model_priv *p = priv_of(m);
	bool entry;

	switch (ev->type) {
	case SL_EV_IRQ_VECTOR:
		entry = is_name(m, ev->name, &p->name_cfs_entry, "call_function_single_entry");
		break;
	case SL_EV_IPI_ENTRY:
		entry = is_name(m, ev->ipi.callsite, &p->name_ipi_func, "Function call interrupts");
		break;
	default:
		entry = is_name(m, ev->ipi.callback, &p->name_ttwu_pending, "sched_ttwu_pending");
		break;
	}
	if (!entry)
		return;
	m->cpus[ev->cpu].wakelist_entry_ts = ts;
	m->seen_wakelist_entry = true;
}

const char *sl_llc_from_text(const char *from)
{
	static const struct { const char *token, *text; } known[] = {
		{ "cache-L1", "L1 cache" },
		{ "cache-L2", "L2 cache" },
		{ "cache-L3", "L3 cache" },
		{ "cache-L4", "L4 cache" },
		{ "package", "packages, no cache information in sysfs" },
		{ "die", "dies, no cache information in sysfs" },
		{ "all-cpus", "all CPUs, no cache or package information in sysfs" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (!strcmp(from, known[i].token))
			return known[i].text;
	return from;
}

/*
 * The workload marker (SL_MARKER_WORKLOAD): the command record ran.  Its
 * task and every task forked from one of its tasks from now on are the
 * workload's, and the report covers only them unless --system.  The first
 * such marker counts.
 */
static void workload_marker(struct sl_model *m, const char *text)
{
	const char *cmd;
	char *end;
	long pid;
	struct sl_task *t;

	if (m->workload_pid)
		return;
	errno = 0;
	pid = strtol(text, &end, 10);
	if (errno || end == text || pid <= 0 || pid > INT32_MAX ||
	    (*end && strncmp(end, SL_MARKER_WORKLOAD_CMD, strlen(SL_MARKER_WORKLOAD_CMD))))
		return;		/* not ours after all */
	cmd = *end ? end + strlen(SL_MARKER_WORKLOAD_CMD) : "";
	m->workload_pid = (int32_t)pid;
	snprintf(m->workload_cmd, sizeof(m->workload_cmd), "%s", cmd);
	t = get_task(m, m->workload_pid, 0, SL_PRIO_NONE);
	if (!t->in_workload) {
		t->in_workload = true;
		m->nr_workload_tasks++;
	}
	if (m->cfg_store.scope != SL_SCOPE_SYSTEM)
		m->cfg_store.workload_active = true;
}

/*
 * An affinity marker (SL_MARKER_AFFINITY): each token's mask goes to the
 * tasks it names, from the marker's time or its @NS; a pid not seen yet
 * gets it when it appears (the sweep at the start names tasks before
 * their first event; a re-read's @NS is before the task's first event
 * too, so from its start is the same).  A token never makes a task: a
 * forged range of 65,536 pids made as many (issue 32, 01); the pids kept
 * for later are bounded (AFF_MAX_PENDING).
 */
static void affinity_marker(struct sl_model *m, const char *text, uint64_t ts)
{
	struct sl_aff_token tok;

	while (*text) {
		const char *end = strchr(text, ' ');
		size_t len = end ? (size_t)(end - text) : strlen(text);
		const char *pids = tok.pids;
		int32_t lo, hi;
		int ret;

		if (len && sl_aff_parse_token(m, text, len, ts, &tok)) {
			m->affinity_bad_tokens++;
		} else if (len) {
			m->affinity_recorded = true;
			while ((ret = sl_aff_next_pids(&pids, &lo, &hi)) > 0) {
				for (int64_t pid = lo; pid <= hi; pid++) {
					struct sl_task *t = sl_model_task(m, (int32_t)pid);

					if (!t) {	/* never a task made for a pid named */
						sl_aff_pending(m, (int32_t)pid, tok.mask);
						continue;
					}
					sl_aff_add_span(t, tok.since, tok.mask);
					t->aff_stale = false;	/* read after its change */
				}
			}
			if (ret < 0)
				m->affinity_bad_tokens++;
		}
		text += len;
		while (*text == ' ')
			text++;
	}
}

/*
 * A sched marker (SL_MARKER_SCHED, context.h): each token's policy, nice,
 * slice and group go to the tasks it names; a pid not seen yet gets them
 * when it appears.  A marker never makes a task.
 */
static void sched_marker(struct sl_model *m, const char *text, uint64_t ts)
{
	char pids[1024];

	while (*text) {
		size_t len = strcspn(text, " ");
		const char *p = pids;
		uint32_t kind;
		int32_t lo, hi;
		int ret;

		if (len && !sl_ctx_parse_sched(m, text, len, ts, pids, sizeof(pids), &kind)) {
			while ((ret = sl_aff_next_pids(&p, &lo, &hi)) > 0) {
				for (int64_t pid = lo; pid <= hi; pid++) {
					struct sl_task *t = sl_model_task(m, (int32_t)pid);

					if (t) {
						t->sched_kind = kind;
						t->policy = (int8_t)sl_policy_kernel(
							m->ctx->kinds[kind - 1].policy);
						t->lat_prio = SL_LAT_ASK;	/* its class again */
					} else
						sl_ctx_pending(m, (int32_t)pid, kind);
					m->ctx->tasks_recorded++;
				}
			}
			if (ret < 0)
				sl_ctx_garbage(m, ts, "sched token", text, len);
		}
		text += len;
		text += strspn(text, " ");
	}
}

/* Is ev SL_MARKER_STOPPED?  Asked only where a switch is implied or a placement closed. */
static bool stops_events(const struct sl_model *m, const struct sl_event *ev)
{
	return ev->type == SL_EV_MARKER &&
	       !strcmp(sl_str(m->strtab, ev->marker.text), SL_MARKER_STOPPED);
}

/*
 * record disabled its events before SL_MARKER_STOPPED: what follows are
 * its last sweeps' markers, written by the recorder from any CPU, which
 * hold from the events' end (handle_marker()).  They, and that marker, are
 * no task's event: no switch is implied by them, nor a placement closed at
 * their time (those open are closed now, at the end, as sl_model_finish()
 * would), and an event of another kind after the marker (record writes
 * none) is not the trace's.  So nothing opens after the end, and no time
 * of a task or CPU passes it (the fuzz_model harness: a wakee placed, a
 * task switched in, a CPU busy after the end).  Off the per-event path:
 * with started false, each event after the marker goes to
 * feed_after_stop().
 */
static void stop_events(struct sl_model *m)
{
	struct model_priv *p = priv_of(m);

	for (int cpu = 0; cpu < m->nr_cpus; cpu++)
		if (m->cpus[cpu].open_wake)
			close_placement(m, cpu, m->events_end, false);
	p->stopped = true;
	p->started = false;
}

static __attribute__((noinline, cold)) void feed_after_stop(struct sl_model *m,
							     const struct sl_event *ev)
{
	struct model_priv *p = priv_of(m);
	struct sl_event mark;

	if (ev->type != SL_EV_MARKER)
		return;
	mark = *ev;
	mark.pid = -1;		/* the recorder's, on any CPU: no switch implied */
	p->started = true;
	sl_model_feed(m, &mark);
	p->started = false;
}

/*
 * handle_marker - facts the recorder wrote into the trace itself
 *
 * schedlint record writes the machine's LLC groups to its instance's
 * trace_marker before it enables any event, so this marker comes before
 * the events of its CPU (another CPU's first event may still sort before
 * it), and every later LLC question (sl_same_llc) is answered from it.
 * --llc wins over it; the first such marker counts.  The workload marker
 * comes after the events are enabled, right before CMD starts.
 */
static void handle_marker(struct sl_model *m, const struct sl_event *ev)
{
	const char *text = sl_str(m->strtab, ev->marker.text);
	size_t prefix = strlen(SL_MARKER_LLC);
	const char *end, *from;
	char spec[4096];
	int *dom, nr_cpus, nr_domains;
	/* after SL_MARKER_STOPPED, record's last sweeps: they hold at the events' end */
	uint64_t ts = m->events_end && ev->ts > m->events_end ? m->events_end : ev->ts;

	if (!strcmp(text, SL_MARKER_STOPPED)) {
		/* each CPU's last event so far (this marker's is not counted yet) */
		uint64_t last = m->first_ts;

		for (int cpu = 0; cpu < m->nr_cpus; cpu++)
			last = MAX(last, m->cpus[cpu].last_event_ts);
		if (!m->events_end) {
			m->events_end = last;
			stop_events(m);
		}
		return;
	}
	if (!strncmp(text, SL_MARKER_RECORDER, strlen(SL_MARKER_RECORDER))) {
		long pid = strtol(text + strlen(SL_MARKER_RECORDER), NULL, 10);

		if (m->recorder_pid <= 0 && pid > 0 && pid <= INT32_MAX)
			m->recorder_pid = (int32_t)pid;
		return;
	}
	if (!strncmp(text, SL_MARKER_WORKLOAD, strlen(SL_MARKER_WORKLOAD))) {
		workload_marker(m, text + strlen(SL_MARKER_WORKLOAD));
		/*
		 * a recording before the recorder marker: the task that wrote
		 * this is record (unless it is the workload, as in scenarios)
		 */
		if (!m->recorder_pid && ev->pid > 0 && ev->pid != m->workload_pid)
			m->recorder_pid = ev->pid;
		return;
	}
	if (!strncmp(text, SL_MARKER_AFFINITY, strlen(SL_MARKER_AFFINITY))) {
		affinity_marker(m, text + strlen(SL_MARKER_AFFINITY), ts);
		return;
	}
	if (!strncmp(text, SL_MARKER_SCHED, strlen(SL_MARKER_SCHED))) {
		sched_marker(m, text + strlen(SL_MARKER_SCHED), ts);
		return;
	}
	if (sl_ctx_marker(m, text, ts))
		return;
	if (strncmp(text, SL_MARKER_LLC, prefix) || m->cfg->llc_spec || m->nr_llc_cpus)
		return;
	text += prefix;
	end = strchr(text, ' ');
	if (!end)
		end = text + strlen(text);
	if ((size_t)(end - text) >= sizeof(spec))
		return;
	memcpy(spec, text, (size_t)(end - text));
	spec[end - text] = '\0';
	from = *end ? end + 1 : NULL;
	if (from && strncmp(from, SL_MARKER_LLC_FROM, strlen(SL_MARKER_LLC_FROM)))
		return;		/* not ours after all: an ordinary marker */
	if (sl_parse_llc(spec, &dom, &nr_cpus, &nr_domains))
		return;
	m->llc_of = dom;
	m->nr_llc_cpus = nr_cpus;
	m->llc_source = SL_LLC_FROM_TRACE;
	if (from) {
		snprintf(m->llc_source_buf, sizeof(m->llc_source_buf),
			 "trace marker (schedlint record: %s)",
			 sl_llc_from_text(from + strlen(SL_MARKER_LLC_FROM)));
		m->llc_source = m->llc_source_buf;
	}
}

/* Lost events: the CPU's state is unknown until its next sched_switch. */
static void handle_lost(struct sl_model *m, const struct sl_event *ev, uint64_t ts)
{
	struct sl_cpu *c = &m->cpus[ev->cpu];
	uint64_t gap_start = c->last_event_ts ? c->last_event_ts : ts;

	m->lost_events = sat_add_u64(m->lost_events, ev->lost.count);
	m->lost_gaps++;
	c->lost_events = sat_add_u64(c->lost_events, ev->lost.count);
	c->lost_gaps++;
	c->lost_uncounted += !ev->lost.count;	/* the marker did not say how many */

	account_cpu(m, c, gap_start, false);
	account_queue(m, c, gap_start, false);
	c->queue_since = ts;	/* the queue's time is unknown too, until the next switch */
	CALL_HOOK(m, on_cpu_unknown, c->cpu, gap_start, ts);

	if (c->curr) {
		struct sl_task *t = c->curr;

		if (sl_filter_task(m->cfg, m->strtab, t) && sl_filter_cpu(m->cfg, c->cpu))
			t->run_ns += sl_filter_clip(m->cfg, t->since, gap_start);
		c->curr = NULL;
		/* its run is counted to here: an implied switch-in elsewhere is not earlier */
		t->since = gap_start;
		t->state = SL_TASK_UNKNOWN;
		t->state_lost = true;
		t->wake_valid = false;
	}
	while (c->queued)
		lose_task(m, c->queued, ts);
	while (c->pending)
		lose_task(m, c->pending, ts);
	if (c->open_wake) {
		struct sl_task *t = c->open_wake;

		c->open_wake = NULL;
		if (t->state == SL_TASK_WAKING) {
			t->state = SL_TASK_UNKNOWN;
			t->state_lost = true;
			t->wake_valid = false;
		}
	}
	c->last_placed = NULL;
	account_queue(m, c, ts, false);
	c->known = false;
	c->gap_ts = ts;
	c->curr_since = ts;
	cpu_changed(m, c, ts);
}

static inline void count_named(struct sl_model *m, int cpu, uint64_t ts, uint32_t name, int type,
			       bool all_in)
{
	if (!cpu_in(m, all_in, cpu) || !time_in(m, all_in, ts))
		return;
	GROW(m->event_counts, m->event_counts_alloc, (size_t)name + 1);
	m->event_counts[name]++;
	m->type_counts[type]++;
}


void sl_model_after_event(struct sl_model *m, struct sl_analyzer *a)
{
	struct model_priv *p = priv_of(m);

	if (a->after_due || !a->ops->after_event)
		return;
	a->after_due = true;
	p->after[p->nr_after++] = a;	/* at most one entry per analyzer */
}

void sl_model_hooks_idle(struct sl_model *m, struct sl_analyzer *a, bool idle)
{
	if (a->idle == idle)
		return;
	a->idle = idle;
	/* from init(): hook_up() comes after every init; else after this event */
	priv_of(m)->rehook = true;
}

/* The after_event calls asked while the event was applied. */
static void run_after(struct sl_model *m)
{
	struct model_priv *p = priv_of(m);

	for (int i = 0; i < p->nr_after; i++) {
		struct sl_analyzer *a = p->after[i];

		a->after_due = false;
		a->ops->after_event(a, m);
	}
	p->nr_after = 0;
}

/*
 * feed_folded - the event a reader folded into ev (sl_event.folded_ago):
 * an SL_EV_OTHER of m->folded_name that ev's task logged on ev's CPU
 * just before.  Applied as sl_model_feed() applies it, in fewer steps
 * when it is what it nearly always is: not the first event, not earlier
 * than the one before, on a CPU already seen, of a name known not to be
 * sched_process_exec (note_exec()'s not_exec_name), and no analyzer
 * wants SL_EV_OTHER events (on_event): then it only counts, and tells
 * which task runs there (implied_switch()) and that the waker went on
 * (close_placement()).  perf sched record logs one before most switches
 * and wakeups.
 */
static inline __attribute__((always_inline)) void feed_folded_inline(struct sl_model *m,
								      const struct sl_event *ev,
								      bool all_in)
{
	struct model_priv *p = priv_of(m);
	uint64_t ts = ev->ts - (ev->folded_ago - 1u);
	int cpu = ev->cpu;
	struct sl_cpu *c;

	if (!p->started || ts < m->now || cpu < 0 || cpu >= m->nr_cpus ||
	    (ev->pid > 0 && p->not_exec_name != m->folded_name) || p->on_event[SL_EV_OTHER]->fn) {
		const struct sl_event folded = {
			.ts = ts, .cpu = cpu, .pid = ev->pid,
			.type = SL_EV_OTHER, .name = m->folded_name,
		};

		sl_model_feed(m, &folded);
		return;
	}
	p->nr_touched = 0;
	m->now = ts;
	m->last_ts = ts;
	m->nr_events++;
	count_named(m, cpu, ts, m->folded_name, SL_EV_OTHER, all_in);
	c = &m->cpus[cpu];
	if (c->known && ev->pid >= 0 && ev->pid != (c->curr ? c->curr->pid : 0))
		implied_switch(m, c, ev->pid, ts);
	if (m->cpus[cpu].open_wake)
		close_placement(m, cpu, ts, all_in);
	m->cpus[cpu].last_event_ts = ts;
	if (p->nr_after)
		run_after(m);
}

/*
 * The trace's first event: "--from +100ms" counts from it.  A lost-events
 * marker is none (a perf.data's PERF_RECORD_LOST can come long before its
 * first sample: lost.data's by 0.59 s, and --to=+10ms held nothing), so
 * while relative times wait for it (p->started stays false) the markers
 * before it are before such a --from and before such a --to's end.
 */
static __attribute__((noinline)) void start_trace(struct sl_model *m, struct model_priv *p,
						   const struct sl_event *ev, uint64_t ts)
{
	struct sl_config *cfg = &m->cfg_store;

	if (!p->seen) {
		p->seen = true;
		m->first_ts = ts;
		m->now = ts;
		p->from_rel_ns = cfg->from_ns;
		p->to_rel_ns = cfg->to_ns;
	}
	if (ev->type == SL_EV_LOST && (cfg->from_rel || cfg->to_rel)) {
		if (cfg->from_rel)
			cfg->from_ns = UINT64_MAX;
		if (cfg->to_rel)
			cfg->to_ns = UINT64_MAX;
		return;
	}
	p->started = true;
	if (cfg->from_rel) {
		cfg->from_ns = p->from_rel_ns + ts;
		cfg->from_rel = false;
	}
	if (cfg->to_rel) {
		cfg->to_ns = p->to_rel_ns + ts;
		cfg->to_rel = false;
	}
	sl_series_start(&m->latency_series, cfg->from_set && cfg->from_ns > m->first_ts ?
			cfg->from_ns : m->first_ts);
}

/* sl_model_feed(), in its two copies (ALL_IN_CLONES), feed_folded_inline() in each */
static inline __attribute__((always_inline)) void feed_inline(struct sl_model *m,
							       const struct sl_event *ev, bool all_in)
{
	struct model_priv *p = priv_of(m);
	uint64_t ts = ev->ts;

	if (ev->folded_ago)
		feed_folded_inline(m, ev, all_in);
	if (ev->cpu < 0 || ev->cpu >= p->cpu_limit) {
		m->bad_cpu_refs++;
		return;		/* readers reject these; never index with them */
	}
	ensure_cpu(m, ev->cpu);
	p->nr_touched = 0;

	if (!p->started) {
		if (p->stopped) {
			feed_after_stop(m, ev);
			return;
		}
		start_trace(m, p, ev, ts);
	}
	if (ts < m->now) {
		m->clock_inversions++;
		if (m->now - ts > m->max_inversion_ns)
			m->max_inversion_ns = m->now - ts;
		ts = m->now;
	}
	m->now = ts;
	m->last_ts = ts;

	if (ev->type == SL_EV_LOST) {
		handle_lost(m, ev, ts);
		return;
	}
	m->nr_events++;
	count_named(m, ev->cpu, ev->ts, ev->name, ev->type, all_in);

	/* the event's task is not the one the model has running there */
	{
		struct sl_cpu *c = &m->cpus[ev->cpu];
		int32_t running = ev->type == SL_EV_SWITCH ? ev->sw.prev_pid : ev->pid;

		if (c->known && running >= 0 && running != (c->curr ? c->curr->pid : 0) &&
		    !stops_events(m, ev))
			implied_switch(m, c, running, ts);
	}

	/* the waker went on to something else: its wakee stays where it is */
	{
		const struct sl_task *open = m->cpus[ev->cpu].open_wake;

		if (open && !(ev->type == SL_EV_MIGRATE && ev->migrate.pid == open->pid) &&
		    !stops_events(m, ev))
			close_placement(m, ev->cpu, ts, all_in);
	}

	switch (ev->type) {
	case SL_EV_SWITCH:
		handle_switch(m, ev, ts, all_in);
		break;
	case SL_EV_WAKING:
		handle_waking(m, ev, ts, all_in);
		break;
	case SL_EV_WAKEUP:
		handle_wakeup(m, ev, ts, all_in);
		break;
	case SL_EV_WAKEUP_NEW:
		handle_wakeup_new(m, ev, ts);
		break;
	case SL_EV_MIGRATE:
		handle_migrate(m, ev, ts, all_in);
		break;
	case SL_EV_FORK:
		handle_fork(m, ev, ts);
		break;
	case SL_EV_EXIT: {
		struct sl_task *t = get_task(m, ev->exit.pid, ev->exit.comm, ev->exit.prio);

		/*
		 * It takes no more latency samples: its histogram shrinks to
		 * its non-empty buckets, and the memory goes to the tasks that
		 * come next (hackbench forks thousands) instead of growing.
		 */
		if (t)
			sl_hist_compact(&t->latency);
		break;
	}
	case SL_EV_IPI_SEND_CPU:
	case SL_EV_IPI_SEND_CPUMASK:
	case SL_EV_IPI_RAISE:
		note_ipi(m, ev, ts);
		break;
	case SL_EV_MARKER:
		handle_marker(m, ev);
		break;
	case SL_EV_OTHER:
		/* the other events come in runs of one name: the test here, the call rare */
		if (ev->pid > 0 && ev->name != p->not_exec_name)
			note_exec(m, ev);
		break;
	case SL_EV_IRQ_VECTOR:
	case SL_EV_IPI_ENTRY:
	case SL_EV_CSD_FUNC_ENTRY:
		note_wakelist_entry(m, ev, ts);
		break;
	default:
		break;
	}
	m->cpus[ev->cpu].last_event_ts = ts;

	CALL_HOOK(m, on_event[ev->type], ev);
	if (p->nr_after)
		run_after(m);
	if (__builtin_expect(p->rehook, 0))
		hook_up(m);	/* not while the lists are being walked */
}

void sl_model_comm(struct sl_model *m, const struct sl_event *ev)
{
	struct model_priv *p = priv_of(m);

	CALL_HOOK(m, on_event[SL_EV_COMM], ev);
	if (__builtin_expect(p->rehook, 0))
		hook_up(m);
}

void sl_model_feed(struct sl_model *m, const struct sl_event *ev)
{
	if (priv_of(m)->all_in)
		feed_inline(m, ev, true);
	else
		feed_inline(m, ev, false);
}

/*
 * The same for n events in a row: one call, whose registers are saved
 * and restored once for them all (17 instructions an event, with the
 * call and the all_in test, in sl_model_feed()).  Its own copies of the
 * feed: a run uses this one (analysis.c's pipelined loop) or the other.
 */
void sl_model_feed_many(struct sl_model *m, const struct sl_event *ev, size_t n)
{
	const struct sl_event *end = ev + n;

	if (priv_of(m)->all_in)
		for (; ev < end; ev++)
			feed_inline(m, ev, true);
	else
		for (; ev < end; ev++)
			feed_inline(m, ev, false);
}

void sl_model_latency_now(const struct sl_model *m, struct sl_hist *h)
{
	const struct model_priv *p = priv_of(m);

	sl_hist_init(h);
	sl_hist_merge(h, &m->latency);
	for (int i = 0; i < m->nr_cpus * SAMPLE_KINDS; i++)
		sl_hist_merge(h, &p->cpu_kind[i]);
}

void sl_model_finish(struct sl_model *m)
{
	struct model_priv *p = priv_of(m);
	struct sl_analyzer *a;
	uint64_t end;

	/* record's last sweeps came after its events: the trace ends with those */
	if (m->events_end && m->events_end < m->last_ts) {
		m->last_ts = m->now = m->events_end;
		/* and for each CPU: its sweeps' markers are not its events */
		for (int cpu = 0; cpu < m->nr_cpus; cpu++)
			m->cpus[cpu].last_event_ts = MIN(m->cpus[cpu].last_event_ts, m->events_end);
	}
	end = m->last_ts;

	/* a reader may know of losses no marker carries (tracefs text's overrun) */
	if (m->info && m->info->lost_events > m->lost_events)
		m->lost_events = m->info->lost_events;
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		if (m->cpus[cpu].open_wake)
			close_placement(m, cpu, end, false);
	}
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct sl_cpu *c = &m->cpus[cpu];

		account_cpu(m, c, end, false);
		account_queue(m, c, end, false);
		if (c->curr && c->known && sl_filter_task(m->cfg, m->strtab, c->curr) &&
		    sl_filter_cpu(m->cfg, cpu))
			c->curr->run_ns += sl_filter_clip(m->cfg, c->curr->since, end);
	}
	/* tasks still waiting at the end: their wait so far counts, no sample */
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		struct sl_task *t = m->tasks[i];

		if (t->frozen)
			continue;	/* dead */
		if (t->state == SL_TASK_QUEUED || t->state == SL_TASK_PENDING ||
		    t->state == SL_TASK_WAKING)
			end_wait(m, t, end, sl_filter_task(m->cfg, m->strtab, t), false);
	}
	/*
	 * The samples by CPU and kind (handle_switch() adds to those only):
	 * the model's, each CPU's, and the model's local, IPI and no-IPI ones,
	 * moved so that a second finish adds nothing twice; remote is IPI +
	 * no IPI.
	 */
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct sl_hist *const kind_of[SAMPLE_KINDS] = {
			&m->latency_local, &m->latency_ipi, &m->latency_noipi,
		};

		for (int k = 0; k < SAMPLE_KINDS; k++) {
			struct sl_hist *h = &p->cpu_kind[cpu * SAMPLE_KINDS + k];

			sl_hist_merge(&m->latency, h);
			sl_hist_merge(&m->cpus[cpu].latency, h);
			sl_hist_merge(kind_of[k], h);
			sl_hist_free(h);
			sl_hist_init(h);
		}
	}
	sl_hist_free(&m->latency_remote);
	sl_hist_init(&m->latency_remote);
	sl_hist_merge(&m->latency_remote, &m->latency_ipi);
	sl_hist_merge(&m->latency_remote, &m->latency_noipi);
	sl_series_finish(&m->latency_series, m->cfg->to_set && m->cfg->to_ns < end ? m->cfg->to_ns : end);
	for (uint32_t i = 0; i < m->nr_tasks; i++)
		sl_class_take_task(m, sl_kept_task(m, i));
	FOR_EACH_ANALYZER(m, a)
		if (a->ops->finish)
			a->ops->finish(a, m);
}

/* --- construction --- */

static void hook_up(struct sl_model *m);

struct sl_model *sl_model_new(const struct sl_config *cfg, struct sl_strtab *strtab,
			      const struct sl_trace_info *info)
{
	struct sl_model *m = xcalloc_lines(sizeof(*m));
	struct model_priv *p = xcalloc_lines(sizeof(*p));

	m->cfg_store = *cfg;
	m->cfg_store.no_time_filter = !cfg->from_set && !cfg->to_set;
	m->cfg_store.no_task_list = !cfg->nr_pids && !cfg->nr_comms;
	m->cfg = &m->cfg_store;
	p->all_in = !cfg->cpus.nr_words && m->cfg_store.no_time_filter;
	m->strtab = strtab;
	m->info = info;
	m->priv = p;
	m->wakeup_missing = info->has_wakeup == SL_NO;
	m->findings = sl_findings_new(cfg->max_findings);
	p->keep_dead = cfg->keep_tasks ? cfg->keep_tasks : SL_KEEP_DEAD_TASKS;
	sl_hist_init(&m->latency);
	sl_hist_init(&m->latency_local);
	sl_hist_init(&m->latency_remote);
	sl_hist_init(&m->latency_ipi);
	sl_hist_init(&m->latency_noipi);
	sl_hist_init(&m->latency_inferred);
	sl_hist_init(&m->fork_delay);
	for (int k = 0; k < SL_CLASS__NR; k++)
		sl_hist_init(&m->latency_class[k]);
	sl_series_init(&m->latency_series, cfg->window_ns);
	hash_grow(&p->hash);
	m->llc_source = "default (one domain)";
	if (cfg->llc_spec) {
		int nd;

		if (!sl_parse_llc(cfg->llc_spec, &m->llc_of, &m->nr_llc_cpus, &nd))
			m->llc_source = "--llc";
	}

	m->analyzers = xcalloc((size_t)cfg->nr_analyzers, sizeof(*m->analyzers));
	p->disabled = xcalloc((size_t)MAX(cfg->nr_analyzers, 1), sizeof(*p->disabled));
	for (int i = 0; i < cfg->nr_analyzers; i++) {
		const struct sl_analyzer_ops *ops = cfg->analyzers[i];
		struct sl_analyzer *a = xcalloc(1, sizeof(*a));

		a->ops = ops;
		a->id = i;
		a->priv = ops->priv_size ? xcalloc(1, ops->priv_size) : NULL;
		a->cpu_off = m->cpu_priv_size;
		m->cpu_priv_size += (ops->cpu_priv_size + 7) & ~(size_t)7;
		m->analyzers[m->nr_analyzers++] = a;
	}
	/* the task slots in registry order, those asked last after the others */
	for (int last = 0; last < 2; last++)
		for (int i = 0; i < m->nr_analyzers; i++) {
			struct sl_analyzer *a = m->analyzers[i];

			if (a->ops->task_priv_last != last)
				continue;
			a->task_off = p->task_priv_size;
			p->task_priv_size += (a->ops->task_priv_size + 7) & ~(size_t)7;
		}
	p->cpu_limit = MAX_CPUS;
	if ((info->format == SL_FMT_DAT6 || info->format == SL_FMT_DAT7) &&
	    info->ncpus > 0 && info->ncpus < MAX_CPUS)
		p->cpu_limit = info->ncpus;
	if (info->ncpus > 0 && info->ncpus <= MAX_CPUS)
		ensure_cpu(m, info->ncpus - 1);
	for (int i = 0; i < m->nr_analyzers; i++) {
		struct sl_analyzer *a = m->analyzers[i];

		if (a->ops->init && a->ops->init(a, m)) {
			/* an analyzer that cannot run is left out, not fatal */
			p->disabled[i] = (struct sl_analyzer_ops){ .name = a->ops->name };
			a->ops = &p->disabled[i];
		}
	}
	list_task_hists(m);
	hook_up(m);
	return m;
}

/*
 * calls = the analyzers (m->analyzers, in order) with the hook and for
 * which want is true, then a NULL fn.
 */
#define HOOK_UP(m, calls, hook, want) do {					\
	int _n = 0;								\
										\
	(calls) = xrealloc((calls), ((size_t)(m)->nr_analyzers + 1) * sizeof(*(calls))); \
	for (int _i = 0; _i < (m)->nr_analyzers; _i++) {			\
		struct sl_analyzer *a = (m)->analyzers[_i];			\
										\
		if (a->ops->hook && (want)) {					\
			(calls)[_n].fn = a->ops->hook;				\
			(calls)[_n++].a = a;					\
		}								\
	}									\
	(calls)[_n].fn = NULL;							\
	(calls)[_n].a = NULL;							\
} while (0)

/* The calls of each hook (CALL_HOOK), from m->analyzers. */
static void hook_up(struct sl_model *m)
{
	struct model_priv *p = priv_of(m);

	HOOK_UP(m, p->on_placement, on_placement, !a->idle);
	HOOK_UP(m, p->on_latency, on_latency, !a->idle);
	HOOK_UP(m, p->on_switch, on_switch, !a->idle);
	HOOK_UP(m, p->on_runnable[1], on_runnable, !a->idle &&
		(!a->ops->runnable_calls || (a->ops->runnable_calls & SL_RUNNABLE_ENTERS)));
	HOOK_UP(m, p->on_runnable[0], on_runnable, !a->idle &&
		(!a->ops->runnable_calls || (a->ops->runnable_calls & SL_RUNNABLE_LEAVES)));
	HOOK_UP(m, p->on_switch_leave, on_runnable, !a->idle &&
		(!a->ops->runnable_calls || (a->ops->runnable_calls & SL_RUNNABLE_SWITCH_LEAVES)));
	HOOK_UP(m, p->on_cpu_idle, on_cpu_idle, !a->idle);
	HOOK_UP(m, p->on_cpu_unknown, on_cpu_unknown, true);
	for (int t = 0; t < SL_EV__COUNT; t++)
		HOOK_UP(m, p->on_event[t], on_event,
			!a->ops->event_types || (a->ops->event_types & SL_EV_BIT(t)));
	p->after = xrealloc(p->after, (size_t)MAX(m->nr_analyzers, 1) * sizeof(*p->after));
	p->rehook = false;
}

void sl_model_add_analyzer(struct sl_model *m, struct sl_analyzer *a)
{
	m->analyzers = xrealloc(m->analyzers, (size_t)(m->nr_analyzers + 1) * sizeof(*m->analyzers));
	m->analyzers[m->nr_analyzers++] = a;
	cpu_slots_moved(m, a);
	hook_up(m);
}

void sl_model_free(struct sl_model *m)
{
	struct model_priv *p;

	if (!m)
		return;
	p = priv_of(m);
	sl_json_lists_free(m);		/* before the analyzers whose state they read */
	free_frozen(m);
	for (int i = 0; i < m->nr_analyzers; i++) {
		struct sl_analyzer *a = m->analyzers[i];

		if (a->ops->destroy)
			a->ops->destroy(a, m);
		free(a->priv);
		free(a);
	}
	free(m->analyzers);
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		if (m->tasks[i] == m->kept_copy)
			continue;	/* a frozen one's: free_frozen() */
		sl_hist_free(&m->tasks[i]->latency);
		sl_aff_task_free(m->tasks[i]);
		free(m->tasks[i]);
	}
	sl_aff_free(m);
	sl_ctx_free(m);
	free(m->tasks);
	sl_fold_free(m);
	free(p->dead.at);
	free(p->to_freeze.at);
	free(m->kept_copy);
	free(p->layout.buf);
	free(p->layout.image);
	for (int i = 0; i < m->nr_cpus; i++) {
		sl_hist_free(&m->cpus[i].latency);
		for (int k = 0; k < SAMPLE_KINDS; k++)
			sl_hist_free(&p->cpu_kind[i * SAMPLE_KINDS + k]);
	}
	free(p->cpu_kind);
	free(m->cpus);
	sl_hist_free(&m->latency);
	sl_series_free(&m->latency_series);
	sl_hist_free(&m->latency_local);
	sl_hist_free(&m->latency_remote);
	sl_hist_free(&m->latency_ipi);
	sl_hist_free(&m->latency_noipi);
	sl_hist_free(&m->latency_inferred);
	sl_hist_free(&m->fork_delay);
	for (int k = 0; k < SL_CLASS__NR; k++)
		sl_hist_free(&m->latency_class[k]);
	free(m->event_counts);
	free(m->llc_of);
	sl_findings_free(m->findings);
	free(p->hash.slots);
	free(m->cpu_priv);
	free(p->last_placed_seq);
	free(p->on_placement);
	free(p->on_latency);
	free(p->on_switch);
	free(p->on_runnable[0]);
	free(p->on_runnable[1]);
	free(p->on_switch_leave);
	free(p->on_cpu_idle);
	free(p->on_cpu_unknown);
	for (int t = 0; t < SL_EV__COUNT; t++)
		free(p->on_event[t]);
	free(p->after);
	free(p->disabled);
	free(p->comm_pinned);
	free(p);
	free(m);
}
