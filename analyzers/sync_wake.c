// SPDX-License-Identifier: GPL-2.0
/*
 * sync_wake.c - synchronous wakeups placed on another CPU (sync-wake-remote)
 *
 * What it flags: a task W wakes T and goes to sleep right after, leaving
 * its CPU with nothing to run, yet T was placed on another CPU and had to
 * be kicked there (usually by an IPI: ttwu_queue_wakelist) and brought out
 * of idle.  A pipe, a futex handoff, a request/reply over a socket: the
 * kernel calls these wakeups WF_SYNC, and "sched: consider WF_SYNC to find
 * idle siblings" shows what the remote placement costs (perf bench sched
 * pipe 8.8 -> 3.7 us/op once the waker's CPU counts as idle).
 *
 * Definition (SPEC "Findings"): W (a task, not interrupt context when the
 * trace says so) wakes T from CPU a; T's destination b != a; W then blocks
 * on a (switch-out with a non-runnable state) having run at most
 * --sync-window (default 100 us) since the waking, and at that switch-out
 * nothing but T could run on a (next is the idle task or T, nothing else
 * queued or pending on a).  Cost = T's wakeup latency.  With b == a the
 * same pattern is sync-wake-local, a measurement: the report sets the
 * latencies of the two side by side, as the WF_SYNC mail does, and names
 * the pairs of tasks that ping-pong across CPUs most.
 *
 * A local wakee often runs before its waker sleeps: it preempts W
 * (wakeup preemption, prev_state R+), runs, and W blocks as soon as it
 * runs again (a pipe on one CPU).  That is the same handoff, so W's
 * wakeups survive a preemption by one of its own wakees placed on a, and
 * the window counts W's own running time: its time off the CPU after such
 * a preemption is left out (for a remote T alone, W never leaves the CPU
 * before it blocks, so that is the time since the waking).  Each end of
 * each stretch is taken at the microsecond, as within_window() says.
 *
 * How: a wakeup's destination is known at its placement, which always
 * comes before the waker's next sched_switch on a; each CPU keeps the few
 * wakeups its running task made since it was switched in, and that task's
 * switch-out decides them, each on its own: W may wake T, T run and
 * sleep, and W wake it again before W sleeps, two wakeups in the window.
 * When W is preempted by one of its wakees placed on a, its wakeups are
 * parked on a (a few wakers per CPU) until W runs there again; W running
 * elsewhere first, or the CPU losing events, drops them.
 * The latency sample may come before the switch-out (T ran on b first) or
 * after it; the wakee's slot keeps whichever half came first, keyed by the
 * task's wake_seq (the decided facts in an array by task index: the slot
 * holds only what every wakeup touches), and the candidate keeps its
 * sample too, for when T's next wakeup has taken the slot by the
 * switch-out.
 *
 * Blind spots: the trace does not carry WF_SYNC itself, so this is the
 * pattern, not the flag: a waker that happens to block soon after an
 * unrelated wakeup counts too.  Traces without irq-info (perf script,
 * trace-cmd report without flags) cannot tell a wakeup from an interrupt
 * that came while W ran; it is then taken as W's.  A switch-out the trace
 * does not show (implied by the model) or lost events on a leave the
 * wakeup undecided.  Wakees never switched in before the end (no latency)
 * are not counted.  On kernels without sched_waking the waker is whoever
 * logged sched_wakeup; on the wakelist path that is the target CPU's
 * interrupt, so those wakeups are not seen as synchronous.
 */
#include <cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/analyzer.h"
#include "schedlint/report.h"
#include "util/util.h"
#include "whatif.h"

#define SYNC_CANDIDATES	16	/* wakeups by one running task awaiting its switch-out */
#define SYNC_PARKED	2	/* wakers per CPU preempted by their own wakee */
#define SYNC_PAIRS	64	/* pairs of tasks tracked (space-saving: the heaviest stay) */
#define PAIR_HASH	128	/* slots of the index of the pairs (a power of two) */
#define SYNC_PAIRS_JSON	10
#define SYNC_PAIRS_TEXT	5

/* A wakeup by the task running on this CPU; decided at its switch-out. */
struct candidate {
	struct sl_task *wakee;
	uint64_t wake_seq;		/* the wakee's wakeup this is */
	uint64_t wake_ts;
	int32_t waker_pid;
	int32_t dest_cpu;		/* where the placement put it */
	/* its latency, when the wakee ran before the waker's switch-out: */
	bool sampled, ipi;
	uint64_t latency;
	/* the waker's running time since the waking, at the microsecond: */
	uint64_t ran_us;		/* in stretches that ended (preempted by its wakee) */
	uint64_t from_us;		/* the current stretch began (the waking, or W ran again) */
};

/* A waker preempted by one of its wakees on this CPU, with its wakeups. */
struct parked {
	struct sl_task *waker;		/* NULL = free */
	uint8_t nr;
	uint8_t buf;			/* its wakeups: parked_cands() */
};

/*
 * The running task's wakeups and the parked ones are in buffers that
 * change roles: parking a waker's wakeups and bringing them back swaps
 * two buffers instead of copying the wakeups (on a hackbench a waker
 * preempted by its wakee, and its return, come at every other switch).
 * The buffer numbers are kept XOR their first ones, so that a zeroed
 * slot is a valid start: the running task's buffer 0, parked slot i's
 * buffer i + 1.
 */
struct sync_cpu {
	struct candidate buf[1 + SYNC_PARKED][SYNC_CANDIDATES];
	uint8_t cur;			/* the running task's wakeups: cands() */
	uint8_t nr;			/* entries in use */
	uint8_t oldest;			/* the one to overwrite when full */
	struct parked parked[SYNC_PARKED];
	uint8_t next_park;		/* the slot to reuse when all are taken */
};

/* the wakeups of the task running on sc's CPU */
static inline struct candidate *cands(struct sync_cpu *sc)
{
	return sc->buf[sc->cur];
}

/* the wakeups of parked slot k */
static inline struct candidate *parked_cands(struct sync_cpu *sc, int k)
{
	return sc->buf[sc->parked[k].buf ^ (k + 1)];
}

/* The running task's buffer becomes parked slot k's, and k's the running task's. */
static void swap_buf(struct sync_cpu *sc, int k)
{
	uint8_t cur = sc->cur;

	sc->cur = (uint8_t)(sc->parked[k].buf ^ (k + 1));
	sc->parked[k].buf = (uint8_t)(cur ^ (k + 1));
}

/* A wakeup decided at its waker's block: the finding's facts, until its latency sample comes. */
struct sync_decided {
	uint32_t waker;			/* its index in m->tasks, while the task there */
	uint64_t waker_serial;		/* has this serial (a folded one's index is reused) */
	int32_t waker_pid;
	uint32_t waker_comm;
	int32_t waker_cpu, dest_cpu;
	uint64_t wake_ts, sleep_after;
};

/*
 * Per task: what a wakeup or a switch touches, and nothing else (24
 * bytes).  As a wakee, what is known of its wakeup in flight (seq), both
 * halves: its sample, and whether it was decided -- the decided facts,
 * which only a wakeup decided before its sample needs to keep, are in
 * sync_priv.decided, by task index.
 */
struct sync_task {
	uint64_t seq;			/* wake_seq these fields are about, 0 none */
	/* sampled: */
	uint64_t latency;
	bool ipi;
	bool decided;			/* the waker slept in time with nothing else to run */
	bool sampled;			/* the latency sample arrived */
	bool done;			/* counted (or dropped by the filters) */
	/*
	 * The index its last wakeup's entry got at its placement (a hint: an
	 * entry moves when parked with another waker's; a CPU has at most
	 * one for a wakeup)
	 */
	uint8_t placed_at;
	int16_t parked_cpu;		/* as a waker: parked on this CPU + 1, 0 none */
};

_Static_assert(SL_MODEL_MAX_CPUS < INT16_MAX, "a CPU + 1 fits in parked_cpu");
_Static_assert(SYNC_CANDIDATES <= UINT8_MAX, "an entry's index fits in placed_at");

/* Two tasks that wake each other: counts since the entry was made. */
struct pair {
	struct sl_task *a, *b;		/* a->index < b->index (shown by pid) */
	uint64_t remote, local;		/* sync-wake-remote / -local between them */
	uint64_t cost;			/* total latency of the remote ones */
};

struct sync_priv {
	struct sl_hist remote, local;	/* latency of the counted ones */
	struct pair pairs[SYNC_PAIRS];
	/*
	 * pairs[i]'s space-saving weight: its remote ones + the evicted
	 * entry's.  Apart from pairs[], so that looking for the lightest
	 * reads 8 cache lines, not 48 (as whatif.c's pair_weight).
	 */
	uint64_t pair_weight[SYNC_PAIRS];
	int nr_pairs;
	uint8_t index[PAIR_HASH];	/* open addressing, linear probing: pair + 1, 0 empty */
	/*
	 * By task index: the facts of a wakee's wakeup decided before its
	 * sample (valid under its slot's decided, which a new wakeup clears;
	 * a task keeps its index while it waits to run)
	 */
	struct sync_decided *decided;
	size_t alloc_decided;
};

/* The finding's own fields. */
struct sync_detail {
	int32_t waker_pid, waker_cpu;
	uint32_t waker_comm;
	uint64_t sleep_after;
	bool ipi;
};

static bool interrupt_context(uint8_t ctx)
{
	return (ctx & SL_CTX_KNOWN) && (ctx & (SL_CTX_HARDIRQ | SL_CTX_SOFTIRQ | SL_CTX_NMI));
}

/* --- the finding --- */

static void sync_message(const struct sl_finding *f, const struct sl_model *m, char *buf, size_t len)
{
	const struct sync_detail *d = f->detail;
	char after[32];

	snprintf(buf, len, "woken by %s:%d%s, which slept %s later leaving cpu%d idle; "
		 "placed on cpu%d%s", sl_str(m->strtab, d->waker_comm), d->waker_pid,
		 sl_recorder_note(m, d->waker_pid),
		 fmt_duration(after, sizeof(after), d->sleep_after), d->waker_cpu, f->cpu,
		 d->ipi ? " with an IPI" : "");
}

static void sync_fields(const struct sl_finding *f, const struct sl_model *m, struct sl_fields *o)
{
	const struct sync_detail *d = f->detail;

	sl_fields_i64(o, "waker_pid", d->waker_pid);
	sl_fields_i64(o, "waker_cpu", d->waker_cpu);
	sl_fields_u64(o, "sleep_after_ns", d->sleep_after);
	sl_fields_bool(o, "ipi", d->ipi);
	sl_fields_str(o, "waker_comm", sl_str(m->strtab, d->waker_comm));
}

/* from the waking (on the waker's CPU) to the switch-in on the destination */
static void sync_moment(const struct sl_finding *f, const struct sl_model *m, struct sl_moment *out)
{
	const struct sync_detail *d = f->detail;

	out->from = f->ts;
	out->to = f->ts + f->cost;
	sl_moment_add_cpu(out, d->waker_cpu);
}

static const struct sl_finding_ops sync_finding_ops = {
	.message = sync_message,
	.moment = sync_moment,
	.fields = sync_fields,
};

/* --- pairs: the heaviest ping-pong partners in bounded memory --- */

/* The index finds a pair in O(1): every sync wakeup looks its pair up. */
static unsigned pair_home(const struct sl_task *a, const struct sl_task *b)
{
	uint64_t h = (uint64_t)(uintptr_t)a * 0x9e3779b97f4a7c15ULL ^
		     (uint64_t)(uintptr_t)b * 0xc2b2ae3d27d4eb4fULL;

	return (unsigned)(h >> 40) & (PAIR_HASH - 1);
}

static struct pair *pair_find(struct sync_priv *p, struct sl_task *a, struct sl_task *b)
{
	for (unsigned i = pair_home(a, b); p->index[i]; i = (i + 1) & (PAIR_HASH - 1)) {
		struct pair *e = &p->pairs[p->index[i] - 1];

		if (e->a == a && e->b == b)
			return e;
	}
	return NULL;
}

static void index_add(struct sync_priv *p, const struct pair *e)
{
	unsigned i = pair_home(e->a, e->b);

	while (p->index[i])
		i = (i + 1) & (PAIR_HASH - 1);
	p->index[i] = (uint8_t)(e - p->pairs + 1);
}

/* Take e out of the index, shifting back the entries its slot kept from their home. */
static void index_del(struct sync_priv *p, const struct pair *e)
{
	unsigned i = pair_home(e->a, e->b), j;

	while (p->index[i] != e - p->pairs + 1)
		i = (i + 1) & (PAIR_HASH - 1);
	for (j = (i + 1) & (PAIR_HASH - 1); p->index[j]; j = (j + 1) & (PAIR_HASH - 1)) {
		const struct pair *f = &p->pairs[p->index[j] - 1];
		unsigned home = pair_home(f->a, f->b);

		/* f may move to i unless its home lies cyclically in (i, j] */
		if (((j - home) & (PAIR_HASH - 1)) >= ((j - i) & (PAIR_HASH - 1))) {
			p->index[i] = p->index[j];
			i = j;
		}
	}
	p->index[i] = 0;
}

/*
 * Space-saving (Metwally et al.): a new pair takes the lightest entry's
 * place and inherits its weight, so a pair that ping-pongs often enough
 * is never pushed out by many occasional ones.  The counts shown are the
 * pair's own since it got its entry: exact for the pairs that matter.
 */
static void pair_add(struct sync_priv *p, struct sl_task *x, struct sl_task *y, bool remote,
		     uint64_t cost)
{
	struct sl_task *a = x->index < y->index ? x : y, *b = a == x ? y : x;
	struct pair *e = pair_find(p, a, b);
	int k;

	if (!e && !remote)
		return;		/* local only: not a cross-CPU ping-pong */
	if (e) {
		k = (int)(e - p->pairs);
	} else {
		uint64_t base = 0;

		if (p->nr_pairs < SYNC_PAIRS) {
			k = p->nr_pairs++;
		} else {
			k = 0;
			for (int i = 1; i < SYNC_PAIRS; i++)
				if (p->pair_weight[i] < p->pair_weight[k])
					k = i;
			base = p->pair_weight[k];
			index_del(p, &p->pairs[k]);
		}
		e = &p->pairs[k];
		*e = (struct pair){ .a = a, .b = b };
		p->pair_weight[k] = base;
		index_add(p, e);
	}
	if (remote) {
		e->remote++;
		p->pair_weight[k]++;
		e->cost += cost;
	} else {
		e->local++;
	}
}

/* --- deciding --- */

static struct sync_task *slot_for(struct sl_model *m, struct sl_analyzer *a, struct sl_task *t,
				   uint64_t seq)
{
	struct sync_task *st = sl_task_priv(m, a, t);

	/* the other fields are written under the flag that says they are there */
	if (st->seq != seq) {
		st->seq = seq;
		st->decided = st->sampled = st->done = false;
	}
	return st;
}

/* Both halves are known (the decided ones in d): count it. */
static void count_sync(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t,
		       struct sync_task *st, const struct sync_decided *d)
{
	struct sync_priv *p = a->priv;
	bool remote, counted;

	if (!st->decided || !st->sampled || st->done)
		return;
	st->done = true;
	remote = d->dest_cpu != d->waker_cpu;
	if (remote) {
		struct sync_detail *det = xmalloc(sizeof(*det));
		struct sl_finding f = {
			.kind = SL_KIND_SYNC_WAKE_REMOTE, .ts = d->wake_ts, .cpu = d->dest_cpu,
			.pid = t->pid, .comm = t->comm, .cost = st->latency,
			.victim_in_workload = t->in_workload, .ops = &sync_finding_ops, .detail = det,
			.whatif = { .fact = d->sleep_after, .cpu = d->waker_cpu },
		};

		*det = (struct sync_detail){
			.waker_pid = d->waker_pid, .waker_cpu = d->waker_cpu,
			.waker_comm = d->waker_comm, .sleep_after = d->sleep_after, .ipi = st->ipi,
		};
		counted = sl_finding_add(m, &f);
		if (counted)
			whatif_victim(m, &(struct whatif_victim){
				.kind = SL_KIND_SYNC_WAKE_REMOTE, .task = t, .wake_seq = st->seq,
				.start = d->wake_ts, .end = d->wake_ts + st->latency,
				.fact = d->sleep_after, .cpu = d->dest_cpu, .alt_cpu = d->waker_cpu,
				.waker_cpu = d->waker_cpu, .key_ts = d->wake_ts, .key_pid = t->pid,
			});
	} else {
		/* the what-if's measure of a local handoff, whatever the filters */
		whatif_local_handoff(m, st->latency, d->sleep_after);
		counted = sl_measure_add(m, SL_KIND_SYNC_WAKE_LOCAL, d->wake_ts, d->waker_cpu,
					 t, st->latency);
	}
	if (!counted)
		return;
	sl_hist_add(remote ? &p->remote : &p->local, st->latency);
	/* not folded since; a pair keeps it: a frozen one is thawed */
	if (d->waker < m->nr_tasks && sl_kept_task(m, d->waker)->serial == d->waker_serial)
		pair_add(p, sl_kept_task_thawed(m, d->waker), t, remote, st->latency);
}

/*
 * Times are compared at the microsecond, the resolution of text traces
 * (tracefs rounds to it), so a trace.dat and its text decide alike: a
 * sleep 100.07 us after the waking is 100 us in both.
 */
static uint64_t to_us(uint64_t ns)
{
	return (ns + 500) / 1000;
}

/*
 * Did the waker block having run at most the window since the waking?
 * now: the time, to_us() (taken once for all the candidates)
 */
static bool within_window(const struct sl_model *m, const struct candidate *cd, uint64_t now)
{
	uint64_t ran = cd->ran_us + (now > cd->from_us ? now - cd->from_us : 0);

	return ran * 1000 <= m->cfg->sync_window_ns;
}

/* Could nothing but t run on c after this switch? (queued and pending count) */
static bool only_task(const struct sl_cpu *c, const struct sl_task *t)
{
	if (c->nr_queued + c->nr_pending > 1)
		return false;
	return (!c->queued || c->queued == t) && (!c->pending || c->pending == t);
}

/**
 * sync_on_placement - remember a wakeup made by the task running on its CPU
 */
static void sync_on_placement(struct sl_analyzer *a, struct sl_model *m, const struct sl_placement *pl)
{
	struct sync_cpu *sc;
	struct sync_task *st;
	struct candidate *cand, *slot = NULL;

	if (pl->waker_pid <= 0 || pl->waker_cpu < 0 || pl->waker_cpu >= m->nr_cpus ||
	    interrupt_context(pl->waker_ctx) || !pl->task->wake_valid)
		return;
	sc = sl_cpu_priv(m, a, pl->waker_cpu);
	cand = cands(sc);
	/*
	 * No entry of this wakeup yet: the model places a wakeup once (only
	 * a WAKING task, and each waking is a new wake_seq)
	 */
	st = sl_task_priv(m, a, pl->task);
	if (sc->nr < SYNC_CANDIDATES) {
		slot = &cand[sc->nr++];
	} else {
		/* full: a wakeup whose waker ran past the window cannot count any more */
		uint64_t now = to_us(pl->ts);

		for (int i = 0; i < sc->nr; i++)
			if (!within_window(m, &cand[i], now)) {
				slot = &cand[i];
				break;
			}
	}
	if (!slot) {
		/* a waker of many: the oldest wakeups are past the window first */
		slot = &cand[sc->oldest];
		sc->oldest = (uint8_t)((sc->oldest + 1) % SYNC_CANDIDATES);
	}
	*slot = (struct candidate){
		.wakee = pl->task, .wake_seq = pl->task->wake_seq, .wake_ts = pl->wake_ts,
		.waker_pid = pl->waker_pid, .dest_cpu = pl->dest_cpu, .from_us = to_us(pl->wake_ts),
	};
	st->placed_at = (uint8_t)(slot - cand);
}

/* W's wakeups, decided at its block: each that fits the pattern is counted. */
static __attribute__((noinline))
void decide(struct sl_analyzer *a, struct sl_model *m, const struct sl_switch_info *sw,
	    struct sync_cpu *sc)
{
	const struct sl_cpu *c = &m->cpus[sw->cpu];
	const struct candidate *cand = cands(sc);
	uint64_t now = to_us(sw->ts);

	for (int i = 0; i < sc->nr; i++) {
		const struct candidate *cd = &cand[i];
		struct sl_task *t = cd->wakee;
		uint64_t after = sl_dur(cd->wake_ts, sw->ts);
		struct sync_task *st = sl_task_priv(m, a, t), earlier;
		struct sync_decided d;

		if (cd->waker_pid != sw->prev->pid || !within_window(m, cd, now))
			continue;
		if ((sw->next && sw->next != t) || !only_task(c, t))
			continue;
		if (st->seq != cd->wake_seq && t->wake_seq != cd->wake_seq) {
			/* W woke t again since: this wakeup's sample is in its candidate */
			if (!cd->sampled)
				continue;
			earlier = (struct sync_task){ .seq = cd->wake_seq, .sampled = true,
						      .latency = cd->latency, .ipi = cd->ipi };
			st = &earlier;
		} else {
			st = slot_for(m, a, t, cd->wake_seq);
		}
		if (st->decided || st->done)
			continue;
		st->decided = true;
		d = (struct sync_decided){
			.waker = sw->prev->index, .waker_serial = sw->prev->serial,
			.waker_pid = sw->prev->pid, .waker_comm = sw->prev->comm,
			.waker_cpu = sw->cpu, .dest_cpu = cd->dest_cpu, .wake_ts = cd->wake_ts,
			.sleep_after = after,
		};
		if (st->sampled) {
			count_sync(a, m, t, st, &d);
		} else {
			struct sync_priv *p = a->priv;

			GROW(p->decided, p->alloc_decided, (size_t)t->index + 1);
			p->decided[t->index] = d;
		}
	}
}

/* Is next one of prev's wakees placed on this CPU (a wakeup preemption)? */
static bool preempted_by_wakee(struct sync_cpu *sc, const struct sl_switch_info *sw)
{
	const struct candidate *cand = cands(sc);

	if (sw->implied || !sw->prev || !sw->next ||
	    (sw->prev_class != SL_PREV_RUNNABLE && sw->prev_class != SL_PREV_PREEMPTED))
		return false;
	for (int i = 0; i < sc->nr; i++)
		if (cand[i].waker_pid == sw->prev->pid && cand[i].wakee == sw->next &&
		    cand[i].dest_cpu == sw->cpu && cand[i].wake_seq == sw->next->wake_seq)
			return true;
	return false;
}

static void unpark(struct sl_model *m, struct sl_analyzer *a, struct sync_cpu *sc, int slot)
{
	struct sync_task *wt = sl_task_priv(m, a, sc->parked[slot].waker);

	wt->parked_cpu = 0;
	sc->parked[slot].waker = NULL;
	sc->parked[slot].nr = 0;
}

/* W leaves the CPU to its wakee: keep its wakeups for when it runs here again. */
static __attribute__((noinline))
void park(struct sl_model *m, struct sl_analyzer *a, struct sync_cpu *sc,
	  const struct sl_switch_info *sw)
{
	struct sync_task *wt = sl_task_priv(m, a, sw->prev);
	uint64_t now = to_us(sw->ts);
	int32_t pid = sw->prev->pid;
	struct candidate *from = cands(sc), *to;
	struct parked *pk;
	int slot = -1, i;

	for (i = 0; i < SYNC_PARKED && slot < 0; i++)
		if (!sc->parked[i].waker)
			slot = i;
	if (slot < 0) {
		slot = sc->next_park;
		sc->next_park = (uint8_t)((sc->next_park + 1) % SYNC_PARKED);
		unpark(m, a, sc, slot);
	}
	pk = &sc->parked[slot];
	pk->waker = sw->prev;
	for (i = 0; i < sc->nr && from[i].waker_pid == pid; i++)
		from[i].ran_us += now > from[i].from_us ? now - from[i].from_us : 0;
	if (i == sc->nr) {
		/* all W's (nearly always): its buffer is parked as it is */
		swap_buf(sc, slot);
		pk->nr = sc->nr;
	} else {
		/* W's alone, the ones before i counted already */
		to = parked_cands(sc, slot);
		for (int k = 0; k < sc->nr; k++) {
			struct candidate cd = from[k];

			if (cd.waker_pid != pid)
				continue;
			if (k >= i)
				cd.ran_us += now > cd.from_us ? now - cd.from_us : 0;
			to[pk->nr++] = cd;
		}
	}
	wt->parked_cpu = (int16_t)(sw->cpu + 1);	/* SL_MODEL_MAX_CPUS fits */
}

/* next runs on cpu: its parked wakeups come back if they were parked here. */
static void resume(struct sl_model *m, struct sl_analyzer *a, struct sync_cpu *sc,
		   const struct sl_switch_info *sw)
{
	struct sync_task *nt = sl_task_priv(m, a, sw->next);
	struct sync_cpu *where;

	if (!nt->parked_cpu)
		return;
	where = sl_cpu_priv(m, a, nt->parked_cpu - 1);
	for (int i = 0; i < SYNC_PARKED; i++) {
		struct parked *pk = &where->parked[i];

		if (pk->waker != sw->next)
			continue;
		if (where == sc && !sw->implied) {
			uint64_t now = to_us(sw->ts);
			struct candidate *cand;

			/* sc has no wakeups of its own now (sync_on_switch): it takes the buffer */
			swap_buf(sc, i);
			cand = cands(sc);
			for (int k = 0; k < pk->nr; k++)
				cand[k].from_us = now;
			sc->nr = pk->nr;
		}
		unpark(m, a, where, i);
		break;
	}
	nt->parked_cpu = 0;
}

/**
 * sync_on_switch - the task that woke others leaves its CPU: decide its wakeups
 */
static void sync_on_switch(struct sl_analyzer *a, struct sl_model *m, const struct sl_switch_info *sw)
{
	struct sync_cpu *sc = sl_cpu_priv(m, a, sw->cpu);

	if (sc->nr) {
		bool blocked = !sw->implied && sw->prev &&
			       (sw->prev_class == SL_PREV_BLOCKED || sw->prev_class == SL_PREV_DEAD);

		if (blocked)
			decide(a, m, sw, sc);
		else if (preempted_by_wakee(sc, sw))
			park(m, a, sc, sw);
		/* whatever ran here is off the CPU: its wakeups are decided or parked */
		sc->nr = 0;
		sc->oldest = 0;
	}
	if (sw->next)
		resume(m, a, sc, sw);
}

static void take_latency(struct candidate *cd, const struct sl_latency_sample *s)
{
	cd->sampled = true;
	cd->latency = s->latency;
	cd->ipi = s->ipi;
}

static void sync_on_latency(struct sl_analyzer *a, struct sl_model *m, const struct sl_latency_sample *s)
{
	struct sync_task *st = slot_for(m, a, s->task, s->wake_seq);
	unsigned hint = st->placed_at;

	if (st->sampled)
		return;
	if (s->waker_cpu >= 0 && s->waker_cpu < m->nr_cpus) {
		/* its waker may wake it again before its own switch-out decides this one */
		struct sync_cpu *sc = sl_cpu_priv(m, a, s->waker_cpu);
		struct candidate *cand = cands(sc);

		/* its entry where its placement put it, nearly always: a CPU has one at most */
		if (hint < sc->nr && cand[hint].wakee == s->task && cand[hint].wake_seq == s->wake_seq) {
			take_latency(&cand[hint], s);
		} else {
			for (int i = 0; i < sc->nr; i++)
				if (cand[i].wakee == s->task && cand[i].wake_seq == s->wake_seq)
					take_latency(&cand[i], s);
		}
	}
	st->sampled = true;
	st->latency = s->latency;
	st->ipi = s->ipi;
	if (st->decided && !st->done)
		count_sync(a, m, s->task, st, &((struct sync_priv *)a->priv)->decided[s->task->index]);
}

static void sync_on_cpu_unknown(struct sl_analyzer *a, struct sl_model *m, int cpu,
				uint64_t gap_start, uint64_t ts)
{
	struct sync_cpu *sc = sl_cpu_priv(m, a, cpu);

	sc->nr = 0;
	sc->oldest = 0;
	for (int i = 0; i < SYNC_PARKED; i++)
		if (sc->parked[i].waker)
			unpark(m, a, sc, i);
}

/* --- report --- */

static int by_remote_desc(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;

	if (p->remote != q->remote)
		return p->remote < q->remote ? 1 : -1;
	if (p->cost != q->cost)
		return p->cost < q->cost ? 1 : -1;
	return (int)p->a->index - (int)q->a->index;
}

/* The pairs, heaviest first, into out (SYNC_PAIRS entries); returns how many. */
static int sorted_pairs(const struct sync_priv *p, struct pair *out)
{
	memcpy(out, p->pairs, (size_t)p->nr_pairs * sizeof(*out));
	qsort(out, (size_t)p->nr_pairs, sizeof(*out), by_remote_desc);
	return p->nr_pairs;
}

static double share(uint64_t part, uint64_t all)
{
	return all ? (double)part / (double)all : 0.0;
}

static void sync_report_text(struct sl_analyzer *a, struct sl_model *m, struct sl_report *r)
{
	struct sync_priv *p = a->priv;
	uint64_t all = p->remote.count + p->local.count;
	struct pair pairs[SYNC_PAIRS];
	char title[96], label[32], x[32], y[32];
	int n;

	if (!all)
		return;
	snprintf(title, sizeof(title), "Synchronous wakeups (the waker slept having run <= %s)",
		 fmt_duration(x, sizeof(x), m->cfg->sync_window_ns));
	sl_report_section(r, title);
	sl_report_latency_header(r, 16);
	snprintf(label, sizeof(label), "remote %5.1f%%", 100 * share(p->remote.count, all));
	sl_report_latency_row(r, 16, label, &p->remote);
	snprintf(label, sizeof(label), "local  %5.1f%%", 100 * share(p->local.count, all));
	sl_report_latency_row(r, 16, label, &p->local);
	if (p->remote.count && p->local.count) {
		uint64_t rm = sl_hist_percentile(&p->remote, 50), lm = sl_hist_percentile(&p->local, 50);

		fprintf(r->out, "  median latency: remote %s, local %s", fmt_duration(x, sizeof(x), rm),
			fmt_duration(y, sizeof(y), lm));
		if (lm)
			fprintf(r->out, " (x%.1f)", (double)rm / (double)lm);
		fputc('\n', r->out);
	}
	n = sorted_pairs(p, pairs);
	if (!n) {
		sl_report_next_steps(r, m, SL_KIND_SYNC_WAKE_REMOTE);
		return;
	}
	static const struct sl_col cols[] = {
		{ "ping-pong across CPUs", 41, 0, true }, { "remote", 7, 0, false },
		{ "local", 6, 0, false }, { "waited", 10, 0, false },
	};
	uint64_t shown = sl_cols_fit(r, 2, cols, ARRAY_SIZE(cols));

	sl_cols_row(r, 2, cols, ARRAY_SIZE(cols), shown, NULL);
	for (int i = 0; i < n && i < SYNC_PAIRS_TEXT; i++) {
		const struct pair *e = &pairs[i];
		bool swap = e->b->pid < e->a->pid;
		const struct sl_task *x1 = swap ? e->b : e->a, *x2 = swap ? e->a : e->b;
		char ta[48], tb[48], cell[4][112];
		const char *cells[4] = { cell[0], cell[1], cell[2], cell[3] };

		snprintf(cell[0], sizeof(cell[0]), "%s <-> %s",
			 sl_task_label(ta, sizeof(ta), sl_task_comm(m, x1), x1->pid, 18),
			 sl_task_label(tb, sizeof(tb), sl_task_comm(m, x2), x2->pid, 18));
		snprintf(cell[1], sizeof(cell[1]), "%" PRIu64, e->remote);
		snprintf(cell[2], sizeof(cell[2]), "%" PRIu64, e->local);
		fmt_duration(cell[3], sizeof(cell[3]), e->cost);
		sl_cols_row(r, 2, cols, ARRAY_SIZE(cols), shown, cells);
	}
	sl_report_next_steps(r, m, SL_KIND_SYNC_WAKE_REMOTE);
}

static cJSON *side_json(const struct sl_hist *h, uint64_t all)
{
	cJSON *o = cJSON_CreateObject();

	sl_json_add_u64(o, "count", h->count);
	cJSON_AddNumberToObject(o, "share", share(h->count, all));
	cJSON_AddItemToObject(o, "latency", sl_hist_json(h));
	return o;
}

static void sync_report_json(struct sl_analyzer *a, struct sl_model *m, cJSON *root)
{
	struct sync_priv *p = a->priv;
	cJSON *o = cJSON_AddObjectToObject(root, "sync_wake");
	cJSON *list;
	uint64_t all = p->remote.count + p->local.count;
	struct pair pairs[SYNC_PAIRS];
	int n = sorted_pairs(p, pairs);

	sl_json_add_u64(o, "window_ns", m->cfg->sync_window_ns);
	cJSON_AddItemToObject(o, "remote", side_json(&p->remote, all));
	cJSON_AddItemToObject(o, "local", side_json(&p->local, all));
	list = cJSON_AddArrayToObject(o, "pairs");
	for (int i = 0; i < n && i < SYNC_PAIRS_JSON; i++) {
		const struct pair *e = &pairs[i];
		cJSON *po = cJSON_CreateObject(), *tasks = cJSON_AddArrayToObject(po, "tasks");
		bool swap = e->b->pid < e->a->pid;
		const struct sl_task *ts[2] = { swap ? e->b : e->a, swap ? e->a : e->b };

		for (int k = 0; k < 2; k++) {
			cJSON *t = cJSON_CreateObject();

			sl_json_add_i64(t, "pid", ts[k]->pid);
			cJSON_AddStringToObject(t, "comm", sl_task_comm(m, ts[k]));
			cJSON_AddItemToArray(tasks, t);
		}
		sl_json_add_u64(po, "remote", e->remote);
		sl_json_add_u64(po, "local", e->local);
		sl_json_add_u64(po, "cost_ns", e->cost);
		cJSON_AddItemToArray(list, po);
	}
}

static int sync_init(struct sl_analyzer *a, struct sl_model *m)
{
	struct sync_priv *p = a->priv;

	sl_hist_init(&p->remote);
	sl_hist_init(&p->local);
	return 0;
}

static void sync_destroy(struct sl_analyzer *a, struct sl_model *m)
{
	struct sync_priv *p = a->priv;

	sl_hist_free(&p->remote);
	sl_hist_free(&p->local);
	free(p->decided);
}

/* Parked, or named by a pair or by a wakeup awaiting its waker's switch-out. */
static bool sync_task_in_use(struct sl_analyzer *a, struct sl_model *m, const struct sl_task *t)
{
	const struct sync_priv *p = a->priv;

	if (((const struct sync_task *)sl_task_priv(m, a, t))->parked_cpu)
		return true;
	for (int i = 0; i < p->nr_pairs; i++)
		if (p->pairs[i].a == t || p->pairs[i].b == t)
			return true;
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct sync_cpu *sc = sl_cpu_priv(m, a, cpu);

		for (int i = 0; i < sc->nr && i < SYNC_CANDIDATES; i++)
			if (cands(sc)[i].wakee == t)
				return true;
		for (int k = 0; k < SYNC_PARKED; k++) {
			if (sc->parked[k].waker == t)
				return true;
			for (int i = 0; sc->parked[k].waker && i < sc->parked[k].nr; i++)
				if (parked_cands(sc, k)[i].wakee == t)
					return true;
		}
	}
	return false;
}

const struct sl_analyzer_ops sl_sync_wake_analyzer = {
	.name = "sync-wake",
	.priv_size = sizeof(struct sync_priv),
	.task_priv_size = sizeof(struct sync_task),
	.cpu_priv_size = sizeof(struct sync_cpu),
	.init = sync_init,
	.on_placement = sync_on_placement,
	.on_switch = sync_on_switch,
	.on_latency = sync_on_latency,
	.on_cpu_unknown = sync_on_cpu_unknown,
	.task_in_use = sync_task_in_use,
	.report_text = sync_report_text,
	.report_json = sync_report_json,
	.destroy = sync_destroy,
};
