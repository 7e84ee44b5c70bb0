// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.c - the event sequences a Linux kernel logs for scheduler actions
 *
 * Each operation checks the state it acts on, logs what the kernel would,
 * on the CPU that would log it, and updates the state.  The sequences and
 * their irq-info flags follow the real 6.18 traces in testdata/real:
 *
 *   local wakeup    waker's CPU: sched_waking, sched_wakeup
 *   remote wakeup   waker's CPU: sched_waking (target_cpu = the previous
 *   (wakelist)      CPU), sched_migrate_task if the CPU changes, ipi_send_cpu
 *                   from ttwu_queue_wakelist; destination, when the IPI
 *                   lands: call_function_single_entry, sched_wakeup (from
 *                   the idle task, in hardirq), sched_switch to the wakee
 *   remote wakeup   waker's CPU: sched_waking, sched_migrate_task,
 *   (direct)        sched_wakeup, ipi_send_cpu from wakeup_preempt if the
 *                   destination must reschedule; destination:
 *                   reschedule_entry, sched_switch
 *   fork            parent's CPU: sched_process_fork, sched_wakeup_new
 *   exit            sched_process_exit, sched_switch with prev_state Z
 *
 * 4.x kernels lack sched_waking and ipi_send_cpu; their remote wakeups
 * arrive as a reschedule IPI (ttwu_queue_remote).  Events a kernel lacks
 * are simply not recorded (output.c drops them).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

enum {
	TM_IPI_ARRIVE = 1,	/* the wakelist IPI reaches tm->cpu (arg: polled, no IPI) */
	TM_RESCHED_ARRIVE,	/* the resched IPI reaches tm->cpu for tm->task */
};

#define VECTOR_LOCAL_TIMER	236
#define VECTOR_CALL_FUNCTION_SINGLE	251
#define VECTOR_RESCHEDULE	253

/* The offsets into the callsites that the real 6.18 traces show. */
#define OFF_TTWU_QUEUE_WAKELIST	0x11d
#define OFF_WAKEUP_PREEMPT	0x55

int sg_sched_error(struct sg_sched *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return -1;
}

void sg_task_init(struct sg_task *t, int pid, const char *comm, int prio)
{
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	/* TASK_COMM_LEN: longer names are cut, as the kernel cuts them */
	memcpy(t->comm, comm, strnlen(comm, sizeof(t->comm) - 1));
	t->prio = prio;
	t->state = TS_BLOCKED;
}

const char *sg_task_state_name(enum sg_task_state st)
{
	static const char *const names[] = {
		[TS_UNBORN] = "not forked yet", [TS_BLOCKED] = "blocked",
		[TS_WAKING] = "waking (IPI in flight)", [TS_RUNNABLE] = "runnable",
		[TS_RUNNING] = "running", [TS_DEAD] = "dead",
	};
	return names[st];
}

int sg_sched_init(struct sg_sched *s, const struct sg_abi *abi, int ncpus, struct sg_output *out)
{
	memset(s, 0, sizeof(*s));
	s->abi = abi;
	s->kernel = abi->kernel;
	s->ncpus = ncpus;
	s->out = out;
	s->gap = NSEC_PER_USEC;
	s->ipi_delay = 5 * NSEC_PER_USEC;
	s->cpu = xcalloc(ncpus, sizeof(*s->cpu));
	for (int i = 0; i < ncpus; i++) {
		struct sg_cpu *c = &s->cpu[i];
		char comm[32];

		snprintf(comm, sizeof(comm), "swapper/%d", i);
		sg_task_init(&c->idle, 0, comm, 120);
		c->idle.state = TS_RUNNING;
		c->idle.cpu = i;
		c->curr = &c->idle;
	}
	return 0;
}

void sg_sched_free(struct sg_sched *s)
{
	free(s->cpu);
	free(s->timers);
}

long long sg_state_blocked(const struct sg_sched *s, char letter)
{
	char str[2] = { letter, 0 };
	long long v = 1;

	sg_state_parse(s->kernel, str, &v);
	return v;
}

/* What an exiting task shows: Z (EXIT_ZOMBIE) on 6.x, x (TASK_DEAD) on 4.x. */
long long sg_state_dead(const struct sg_sched *s)
{
	long long v;

	if (sg_state_parse(s->kernel, "x", &v) == 0)
		return v;
	sg_state_parse(s->kernel, "Z", &v);
	return v;
}

static bool state_is_dead(const struct sg_sched *s, long long state)
{
	long long mask = 0, v;

	if (sg_state_parse(s->kernel, "X", &v) == 0)
		mask |= v;
	if (sg_state_parse(s->kernel, "Z", &v) == 0)
		mask |= v;
	if (sg_state_parse(s->kernel, "x", &v) == 0)
		mask |= v;
	return state & mask;
}

static bool state_is_runnable(const struct sg_sched *s, long long state)
{
	long long letters = state & ~sg_state_preempted(s->kernel);

	return letters == 0;
}

/* ------------------------------------------------------------------ */
/* Queues */

static void list_append(struct sg_task **head, struct sg_task **tail, struct sg_task *t)
{
	t->next = NULL;
	if (*tail)
		(*tail)->next = t;
	else
		*head = t;
	*tail = t;
}

static bool list_remove(struct sg_task **head, struct sg_task **tail, struct sg_task *t)
{
	struct sg_task *prev = NULL;

	for (struct sg_task *p = *head; p; prev = p, p = p->next) {
		if (p != t)
			continue;
		if (prev)
			prev->next = p->next;
		else
			*head = p->next;
		if (*tail == p)
			*tail = prev;
		p->next = NULL;
		return true;
	}
	return false;
}

static void enqueue(struct sg_sched *s, int cpu, struct sg_task *t, uint64_t ts)
{
	struct sg_cpu *c = &s->cpu[cpu];

	list_append(&c->rq_head, &c->rq_tail, t);
	c->nr_queued++;
	t->state = TS_RUNNABLE;
	t->cpu = cpu;
	t->since = ts;
}

/* Take t off whatever queue or wakelist it is on. */
static void unlink_task(struct sg_sched *s, struct sg_task *t)
{
	struct sg_cpu *c = &s->cpu[t->cpu];

	if (t->state == TS_RUNNABLE && list_remove(&c->rq_head, &c->rq_tail, t))
		c->nr_queued--;
	else if (t->state == TS_WAKING && list_remove(&c->wl_head, &c->wl_tail, t))
		c->nr_pending--;
}

int sg_place_running(struct sg_sched *s, struct sg_task *t, int cpu)
{
	struct sg_cpu *c = &s->cpu[cpu];

	if (!sg_cpu_idle(c))
		return sg_sched_error(s, "cpu %d already runs %s-%d", cpu, c->curr->comm,
				      c->curr->pid);
	c->curr = t;
	t->state = TS_RUNNING;
	t->cpu = cpu;
	return 0;
}

int sg_place_runnable(struct sg_sched *s, struct sg_task *t, int cpu)
{
	enqueue(s, cpu, t, 0);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Logging */

static void ev_init(struct sg_sched *s, struct sg_event *ev, int type, int cpu,
		    uint8_t flags, uint8_t preempt_count)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->cpu = cpu;
	ev->flags = flags;
	ev->preempt_count = preempt_count;
	ev->common_pid = s->cpu[cpu].curr->pid;
}

static void ev_task(struct sg_event *ev, int slot, const struct sg_task *t)
{
	ev->comm[slot] = t->comm;
	ev->pid[slot] = t->pid;
	ev->prio[slot] = t->prio;
}

static const char *fmt_ns(uint64_t ns, char *buf)
{
	return fmt_time(ns, buf, 32);
}

/*
 * Log ev at *ts on its CPU.  A CPU's events must not go back in time: a
 * scenario that asks for it is wrong and told so.
 *
 * The scale load is not exact but must stay causal: an operation changes
 * the state when it runs, and its events follow a little later, so another
 * CPU's operation due in between would see (and log) effects before their
 * cause.  There every event is logged strictly after the last one logged
 * anywhere: the trace's order is then the order in which things happened.
 */
static int emit(struct sg_sched *s, struct sg_event *ev, uint64_t *ts)
{
	struct sg_cpu *c = &s->cpu[ev->cpu];
	char a[32], b[32];

	if (!s->strict) {
		if (s->last_ts && *ts <= s->last_ts)
			*ts = s->last_ts + 1;
		s->last_ts = *ts;
	} else if (*ts < c->last_ts) {
		return sg_sched_error(s, "cpu %d: %s at %s would come before the event "
				      "already logged there at %s", ev->cpu,
				      ev->type == SG_LOST ? "the loss" : sg_event_name(ev->type),
				      fmt_ns(*ts, a), fmt_ns(c->last_ts, b));
	}
	ev->ts = *ts;
	c->last_ts = *ts;
	if (sg_output_event(s->out, ev))
		return sg_sched_error(s, "cannot queue an event");
	return 0;
}

/*
 * A sequence of events on one CPU: the first at *ts, each next one gap
 * later.  Events the kernel does not have take no time.
 */
struct seq {
	struct sg_sched *s;
	uint64_t *ts;
	bool started;
};

static int seq_emit(struct seq *q, struct sg_event *ev)
{
	if (!sg_kernel_has(q->s->kernel, ev->type))
		return 0;
	if (q->started)
		*q->ts += q->s->gap;
	q->started = true;
	return emit(q->s, ev, q->ts);
}

/* ------------------------------------------------------------------ */
/* Timers */

static bool timer_before(const struct sg_timer *a, const struct sg_timer *b)
{
	return a->ts != b->ts ? a->ts < b->ts : a->seq < b->seq;
}

void sg_timer_add(struct sg_sched *s, const struct sg_timer *tm)
{
	size_t i;
	struct sg_timer t = *tm;

	t.seq = s->timer_seq++;
	GROW(s->timers, s->alloc_timers, s->nr_timers + 1);
	i = s->nr_timers++;
	while (i) {
		size_t parent = (i - 1) / 2;

		if (!timer_before(&t, &s->timers[parent]))
			break;
		s->timers[i] = s->timers[parent];
		i = parent;
	}
	s->timers[i] = t;
}

static void timer_pop(struct sg_sched *s, struct sg_timer *tm)
{
	struct sg_timer last;
	size_t i = 0;

	*tm = s->timers[0];
	last = s->timers[--s->nr_timers];
	for (;;) {
		size_t child = 2 * i + 1;

		if (child >= s->nr_timers)
			break;
		if (child + 1 < s->nr_timers && timer_before(&s->timers[child + 1], &s->timers[child]))
			child++;
		if (!timer_before(&s->timers[child], &last))
			break;
		s->timers[i] = s->timers[child];
		i = child;
	}
	if (s->nr_timers)
		s->timers[i] = last;
}

bool sg_next_timer(const struct sg_sched *s, uint64_t *ts)
{
	if (!s->nr_timers)
		return false;
	*ts = s->timers[0].ts;
	return true;
}

static int fire_ipi(struct sg_sched *s, const struct sg_timer *tm);
static int fire_resched(struct sg_sched *s, const struct sg_timer *tm);

int sg_run_timers(struct sg_sched *s, uint64_t ts)
{
	struct sg_timer tm;
	int ret = 0;

	while (!ret && s->nr_timers && s->timers[0].ts <= ts) {
		timer_pop(s, &tm);
		s->now = tm.ts;
		if (tm.kind == TM_IPI_ARRIVE)
			ret = fire_ipi(s, &tm);
		else if (tm.kind == TM_RESCHED_ARRIVE)
			ret = fire_resched(s, &tm);
		else if (s->ops && s->ops->fire)
			ret = s->ops->fire(s, &tm);
	}
	return ret;
}

/* ------------------------------------------------------------------ */
/* Switch */

/**
 * sg_switch_to - sched_switch on @cpu from its current task to @next
 * @next: a task queued on @cpu, or NULL for the idle task
 * @prev_state: as the kernel encodes it (0 = R, preempted bit = R+)
 */
int sg_switch_to(struct sg_sched *s, int cpu, struct sg_task *next, long long prev_state,
		 uint64_t *ts)
{
	struct sg_cpu *c = &s->cpu[cpu];
	struct sg_task *prev = c->curr;
	struct sg_event ev;
	int ret;

	if (!next)
		next = &c->idle;
	if (next == prev)
		return sg_sched_error(s, "%s-%d already runs on cpu %d", next->comm, next->pid, cpu);
	if (next != &c->idle && (next->state != TS_RUNNABLE || next->cpu != cpu))
		return sg_sched_error(s, "%s-%d is not runnable on cpu %d (it is %s on cpu %d)",
				      next->comm, next->pid, cpu,
				      sg_task_state_name(next->state), next->cpu);
	if (prev == &c->idle)
		prev_state = 0;	/* the idle task is always "R" */

	ev_init(s, &ev, SG_SCHED_SWITCH, cpu, TRACE_FLAG_IRQS_OFF, 2);
	ev_task(&ev, 0, prev);
	ev_task(&ev, 1, next);
	ev.state = prev_state;
	ret = emit(s, &ev, ts);
	if (ret)
		return ret;

	/* before prev->since changes: the hook may want how long prev ran */
	if (prev != &c->idle && s->ops && s->ops->switched_out)
		s->ops->switched_out(s, cpu, prev, prev_state, next, *ts);
	if (prev != &c->idle) {
		if (state_is_runnable(s, prev_state))
			enqueue(s, cpu, prev, *ts);
		else
			prev->state = state_is_dead(s, prev_state) ? TS_DEAD : TS_BLOCKED;
		prev->since = *ts;
	}
	if (next != &c->idle) {
		unlink_task(s, next);
		next->state = TS_RUNNING;
		next->since = *ts;
		next->gen++;
	}
	c->curr = next;
	if (next != &c->idle && s->ops && s->ops->switched_in)
		s->ops->switched_in(s, cpu, next, *ts);
	return 0;
}

int sg_block(struct sg_sched *s, struct sg_task *t, long long state, uint64_t *ts)
{
	if (t->state != TS_RUNNING)
		return sg_sched_error(s, "%s-%d cannot sleep: it is %s", t->comm, t->pid,
				      sg_task_state_name(t->state));
	if (state_is_runnable(s, state))
		return sg_sched_error(s, "a task that blocks needs a sleeping state, not R");
	return sg_switch_to(s, t->cpu, s->cpu[t->cpu].rq_head, state, ts);
}

int sg_preempt(struct sg_sched *s, int cpu, struct sg_task *next, uint64_t *ts)
{
	struct sg_cpu *c = &s->cpu[cpu];

	if (sg_cpu_idle(c))
		return sg_sched_error(s, "cpu %d is idle: nothing to preempt", cpu);
	if (!next)
		next = c->rq_head;
	if (!next)
		return sg_sched_error(s, "cpu %d has no queued task to preempt %s-%d for", cpu,
				      c->curr->comm, c->curr->pid);
	return sg_switch_to(s, cpu, next, sg_state_preempted(s->kernel), ts);
}

/* ------------------------------------------------------------------ */
/* Wakeups */

/* irq-info of the waker's events by context, as the real traces show them */
static void waker_flags(enum sg_ctx ctx, uint8_t *flags, uint8_t *pc)
{
	*flags = TRACE_FLAG_IRQS_OFF;
	*pc = 3;
	switch (ctx) {
	case CTX_TASK:
		*flags = TRACE_FLAG_IRQS_OFF;
		*pc = 3;
		break;
	case CTX_SOFTIRQ:
		*flags = TRACE_FLAG_IRQS_OFF | TRACE_FLAG_SOFTIRQ;
		*pc = 4;
		break;
	case CTX_HARDIRQ:
		*flags = TRACE_FLAG_IRQS_OFF | TRACE_FLAG_HARDIRQ;
		*pc = 5;
		break;
	}
}

static void wake_event(struct sg_sched *s, struct sg_event *ev, int type, int cpu,
		       uint8_t flags, uint8_t pc, const struct sg_task *t, int target)
{
	ev_init(s, ev, type, cpu, flags, pc);
	ev_task(ev, 0, t);
	ev->arg[0] = target;
}

static void ipi_event(struct sg_sched *s, struct sg_event *ev, int cpu, uint8_t flags,
		      uint8_t pc, int target, int callsite, unsigned int off, bool callback)
{
	ev_init(s, ev, SG_IPI_SEND_CPU, cpu, flags, pc);
	ev->arg[0] = target;
	ev->addr[0] = sg_sym_addr(s->abi, callsite, off);
	ev->addr[1] = callback ?
		sg_sym_addr(s->abi, SYM_GENERIC_SMP_CALL_FUNCTION_SINGLE_INTERRUPT, 0) : 0;
}

/**
 * sg_wake - try_to_wake_up(): wake @t from @a->waker_cpu
 *
 * A task that is running or still queued only gets sched_waking and
 * sched_wakeup on the waker's CPU (ttwu_runnable), and nothing changes.
 */
int sg_wake(struct sg_sched *s, struct sg_task *t, const struct sg_wake_args *a, uint64_t *ts)
{
	int wcpu = a->waker_cpu, prev_cpu = t->cpu, dest;
	struct seq q = { s, ts, false };
	enum sg_wake_method method = a->method;
	struct sg_cpu *dc;
	struct sg_event ev;
	uint8_t flags, pc;
	struct sg_timer tm;
	bool resched;
	int ret;

	waker_flags(a->ctx, &flags, &pc);
	if (t->state == TS_RUNNING || t->state == TS_RUNNABLE) {
		wake_event(s, &ev, SG_SCHED_WAKING, wcpu, flags, pc, t, t->cpu);
		ret = seq_emit(&q, &ev);
		wake_event(s, &ev, SG_SCHED_WAKEUP, wcpu, flags, pc + 1, t, t->cpu);
		return ret ?: seq_emit(&q, &ev);
	}
	if (t->state != TS_BLOCKED)
		return sg_sched_error(s, "%s-%d cannot be woken: it is %s", t->comm, t->pid,
				      sg_task_state_name(t->state));
	dest = a->dest >= 0 ? a->dest : prev_cpu;
	dc = &s->cpu[dest];

	/* sched_waking names the previous CPU: the destination is not chosen yet */
	wake_event(s, &ev, SG_SCHED_WAKING, wcpu, flags, pc, t, prev_cpu);
	ret = seq_emit(&q, &ev);
	if (!ret && dest != prev_cpu) {
		ev_init(s, &ev, SG_SCHED_MIGRATE_TASK, wcpu, flags, pc);
		ev_task(&ev, 0, t);
		ev.arg[0] = prev_cpu;
		ev.arg[1] = dest;
		ret = seq_emit(&q, &ev);
		t->cpu = dest;
	}
	if (ret)
		return ret;

	if (dest == wcpu) {
		resched = sg_cpu_idle(dc) || a->preempt;
		wake_event(s, &ev, SG_SCHED_WAKEUP, wcpu,
			   flags | (resched ? TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED : 0),
			   pc + 1, t, dest);
		ret = seq_emit(&q, &ev);
		if (ret)
			return ret;
		enqueue(s, dest, t, *ts);
		if (sg_cpu_idle(dc)) {
			*ts += s->gap;
			return sg_switch_to(s, dest, t, 0, ts);
		}
		if (a->preempt) {
			*ts += s->gap;
			return sg_preempt(s, dest, t, ts);
		}
		return 0;
	}

	if (method == WAKE_AUTO)
		method = sg_cpu_idle(dc) && !dc->nr_queued ? WAKE_WAKELIST : WAKE_DIRECT;
	memset(&tm, 0, sizeof(tm));
	tm.cpu = dest;

	if (method == WAKE_DIRECT) {
		resched = sg_cpu_idle(dc) || a->preempt;
		wake_event(s, &ev, SG_SCHED_WAKEUP, wcpu, flags, pc + 1, t, dest);
		ret = seq_emit(&q, &ev);
		if (ret)
			return ret;
		enqueue(s, dest, t, *ts);
		if (!resched)
			return 0;
		/* resched_curr() on a remote CPU: a reschedule IPI */
		ipi_event(s, &ev, wcpu, flags, pc + 1, dest, SYM_WAKEUP_PREEMPT,
			  OFF_WAKEUP_PREEMPT, false);
		ret = seq_emit(&q, &ev);
		tm.kind = TM_RESCHED_ARRIVE;
		tm.task = t;
		tm.ts = *ts + (a->ipi_delay ? a->ipi_delay : s->ipi_delay);
		sg_timer_add(s, &tm);
		return ret;
	}

	/* the wakelist: the wakee is pending on dest until its IPI is handled */
	t->state = TS_WAKING;
	t->cpu = dest;
	t->since = *ts;
	t->wake_preempt = a->preempt;
	list_append(&dc->wl_head, &dc->wl_tail, t);
	dc->nr_pending++;
	if (dc->ipi_pending)
		return 0;	/* llist_add() found the list non-empty: no second IPI */
	dc->ipi_pending = true;
	if (method == WAKE_POLL) {
		ev_init(s, &ev, SG_SCHED_WAKE_IDLE_WITHOUT_IPI, wcpu, flags, pc);
		ev.arg[0] = dest;
		ret = seq_emit(&q, &ev);
		tm.arg = 1;
	} else {
		ipi_event(s, &ev, wcpu, flags, pc, dest, SYM_TTWU_QUEUE_WAKELIST,
			  OFF_TTWU_QUEUE_WAKELIST, true);
		ret = seq_emit(&q, &ev);
	}
	tm.kind = TM_IPI_ARRIVE;
	tm.ts = *ts + (a->ipi_delay ? a->ipi_delay : s->ipi_delay);
	sg_timer_add(s, &tm);
	return ret;
}

/* The wakelist IPI lands (or the polling idle loop notices): enqueue the wakees. */
static int fire_ipi(struct sg_sched *s, const struct sg_timer *tm)
{
	struct sg_cpu *c = &s->cpu[tm->cpu];
	bool polled = tm->arg, idle = sg_cpu_idle(c);
	uint64_t ts = tm->ts;
	struct seq q = { s, &ts, false };
	struct sg_task *preempt_by = NULL;
	struct sg_event ev;
	int ret = 0;

	c->ipi_pending = false;
	if (!polled) {
		/* 4.x: ttwu_queue_remote() sent a reschedule IPI */
		bool old = !sg_kernel_has(s->kernel, SG_IPI_SEND_CPU);

		ev_init(s, &ev, old ? SG_RESCHEDULE_ENTRY : SG_CALL_FUNCTION_SINGLE_ENTRY, tm->cpu,
			TRACE_FLAG_IRQS_OFF | TRACE_FLAG_HARDIRQ, idle ? 1 : 0);
		ev.arg[0] = old ? VECTOR_RESCHEDULE : VECTOR_CALL_FUNCTION_SINGLE;
		ret = seq_emit(&q, &ev);
	}
	while (!ret && c->wl_head) {
		struct sg_task *t = c->wl_head;
		uint8_t flags = TRACE_FLAG_IRQS_OFF | (polled ? 0 : TRACE_FLAG_HARDIRQ);

		list_remove(&c->wl_head, &c->wl_tail, t);
		c->nr_pending--;
		if (idle || t->wake_preempt)
			flags |= TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED;
		wake_event(s, &ev, SG_SCHED_WAKEUP, tm->cpu, flags, 2, t, tm->cpu);
		ret = seq_emit(&q, &ev);
		enqueue(s, tm->cpu, t, ts);
		if (t->wake_preempt && !preempt_by)
			preempt_by = t;
		t->wake_preempt = false;
	}
	if (ret)
		return ret;
	if (idle && c->rq_head) {
		ts += s->gap;
		return sg_switch_to(s, tm->cpu, c->rq_head, 0, &ts);
	}
	if (preempt_by && !sg_cpu_idle(c)) {
		ts += s->gap;
		return sg_preempt(s, tm->cpu, preempt_by, &ts);
	}
	return 0;
}

/* A reschedule IPI lands: the woken task takes the CPU. */
static int fire_resched(struct sg_sched *s, const struct sg_timer *tm)
{
	struct sg_cpu *c = &s->cpu[tm->cpu];
	struct sg_task *t = tm->task;
	bool idle = sg_cpu_idle(c);
	uint64_t ts = tm->ts;
	struct sg_event ev;
	int ret;

	ev_init(s, &ev, SG_RESCHEDULE_ENTRY, tm->cpu,
		TRACE_FLAG_IRQS_OFF | TRACE_FLAG_HARDIRQ | TRACE_FLAG_NEED_RESCHED, idle ? 1 : 0);
	ev.arg[0] = VECTOR_RESCHEDULE;
	ret = emit(s, &ev, &ts);
	if (ret)
		return ret;
	/* the task may have run elsewhere meanwhile; then take whoever waits */
	if (t->state != TS_RUNNABLE || t->cpu != tm->cpu)
		t = c->rq_head;
	if (!t || t == c->curr)
		return 0;
	ts += s->gap;
	return sg_switch_to(s, tm->cpu, t, idle ? 0 : sg_state_preempted(s->kernel), &ts);
}

/* ------------------------------------------------------------------ */
/* Fork, exit, migration, ticks, losses */

int sg_fork(struct sg_sched *s, struct sg_task *parent, struct sg_task *child, int dest,
	    uint64_t *ts)
{
	int pcpu = parent->cpu;
	struct seq q = { s, ts, false };
	struct sg_event ev;
	struct sg_timer tm;
	bool idle;
	int ret;

	if (parent->state != TS_RUNNING)
		return sg_sched_error(s, "%s-%d cannot fork: it is %s", parent->comm, parent->pid,
				      sg_task_state_name(parent->state));
	if (child->state != TS_UNBORN)
		return sg_sched_error(s, "pid %d exists already", child->pid);
	if (dest < 0)
		dest = pcpu;
	idle = sg_cpu_idle(&s->cpu[dest]);

	ev_init(s, &ev, SG_SCHED_PROCESS_FORK, pcpu, 0, 0);
	ev_task(&ev, 0, parent);
	ev_task(&ev, 1, child);
	ret = seq_emit(&q, &ev);
	if (ret)
		return ret;
	enqueue(s, dest, child, *ts);
	/* wake_up_new_task(): no sched_waking, no migrate event */
	wake_event(s, &ev, SG_SCHED_WAKEUP_NEW, pcpu, TRACE_FLAG_IRQS_OFF, 2, child, dest);
	ret = seq_emit(&q, &ev);
	if (ret || dest == pcpu || !idle)
		return ret;
	ipi_event(s, &ev, pcpu, TRACE_FLAG_IRQS_OFF, 2, dest, SYM_WAKEUP_PREEMPT,
		  OFF_WAKEUP_PREEMPT, false);
	ret = seq_emit(&q, &ev);
	memset(&tm, 0, sizeof(tm));
	tm.kind = TM_RESCHED_ARRIVE;
	tm.cpu = dest;
	tm.task = child;
	tm.ts = *ts + s->ipi_delay;
	sg_timer_add(s, &tm);
	return ret;
}

int sg_exit(struct sg_sched *s, struct sg_task *t, uint64_t *ts)
{
	struct sg_event ev;
	int ret;

	if (t->state != TS_RUNNING)
		return sg_sched_error(s, "%s-%d cannot exit: it is %s", t->comm, t->pid,
				      sg_task_state_name(t->state));
	ev_init(s, &ev, SG_SCHED_PROCESS_EXIT, t->cpu, 0, 0);
	ev_task(&ev, 0, t);
	ev.arg[0] = 1;		/* group_dead */
	ret = emit(s, &ev, ts);
	if (ret)
		return ret;
	*ts += s->gap;
	return sg_block(s, t, sg_state_dead(s), ts);
}

/**
 * sg_migrate - the load balancer moves a queued task to @dest
 * @on_cpu: the CPU that logs it (the one balancing), -1 for @dest
 *
 * Load balancing runs in the SCHED_SOFTIRQ; an idle destination then runs
 * the task at once.
 */
int sg_migrate(struct sg_sched *s, struct sg_task *t, int dest, int on_cpu, uint64_t *ts)
{
	struct sg_event ev;
	int src = t->cpu, ret;

	if (t->state != TS_RUNNABLE)
		return sg_sched_error(s, "only a queued task can be migrated; %s-%d is %s",
				      t->comm, t->pid, sg_task_state_name(t->state));
	if (src == dest)
		return sg_sched_error(s, "%s-%d is already on cpu %d", t->comm, t->pid, dest);
	if (on_cpu < 0)
		on_cpu = dest;
	ev_init(s, &ev, SG_SCHED_MIGRATE_TASK, on_cpu, TRACE_FLAG_IRQS_OFF | TRACE_FLAG_SOFTIRQ, 2);
	ev_task(&ev, 0, t);
	ev.arg[0] = src;
	ev.arg[1] = dest;
	ret = emit(s, &ev, ts);
	if (ret)
		return ret;
	unlink_task(s, t);
	enqueue(s, dest, t, *ts);
	if (!sg_cpu_idle(&s->cpu[dest]))
		return 0;
	*ts += s->gap;
	return sg_switch_to(s, dest, t, 0, ts);
}

int sg_tick(struct sg_sched *s, int cpu, uint64_t *ts)
{
	struct sg_event ev;

	ev_init(s, &ev, SG_LOCAL_TIMER_ENTRY, cpu, TRACE_FLAG_IRQS_OFF | TRACE_FLAG_HARDIRQ,
		sg_cpu_idle(&s->cpu[cpu]) ? 1 : 0);
	ev.arg[0] = VECTOR_LOCAL_TIMER;
	return emit(s, &ev, ts);
}

/* A write to trace_marker by whatever runs on @cpu. */
int sg_mark(struct sg_sched *s, int cpu, const char *text, uint64_t *ts)
{
	struct sg_event ev;

	ev_init(s, &ev, SG_FTRACE_PRINT, cpu, 0, 0);
	ev.comm[0] = text;
	return emit(s, &ev, ts);
}

int sg_lose(struct sg_sched *s, int cpu, uint64_t count, uint64_t *ts)
{
	struct sg_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = SG_LOST;
	ev.cpu = cpu;
	ev.addr[0] = count;
	return emit(s, &ev, ts);
}

/* ------------------------------------------------------------------ */
/* Raw events */

/**
 * sg_raw_event - log @ev exactly as given (ev->ts set), and follow it
 * @t0, @t1: the tasks of pid[0] and pid[1], NULL for idle or unknown
 *
 * The state follows the event as SPEC.md's state model would read it, so
 * the high-level steps after it stay consistent with what was logged.
 */
int sg_raw_event(struct sg_sched *s, struct sg_event *ev, struct sg_task *t0, struct sg_task *t1)
{
	struct sg_cpu *c = &s->cpu[ev->cpu];
	uint64_t ts = ev->ts;
	int ret;

	ret = emit(s, ev, &ts);
	if (ret)
		return ret;
	switch (ev->type) {
	case SG_SCHED_SWITCH:
		if (t0 && t0->state != TS_UNBORN && t0->state != TS_DEAD) {
			unlink_task(s, t0);
			if (c->curr == t0)
				c->curr = &c->idle;
			if (state_is_runnable(s, ev->state))
				enqueue(s, ev->cpu, t0, ts);
			else
				t0->state = state_is_dead(s, ev->state) ? TS_DEAD : TS_BLOCKED;
		}
		if (t1) {
			if (t1->state == TS_RUNNING && t1->cpu != ev->cpu)
				s->cpu[t1->cpu].curr = &s->cpu[t1->cpu].idle;
			unlink_task(s, t1);
			t1->state = TS_RUNNING;
			t1->cpu = ev->cpu;
			t1->gen++;
			c->curr = t1;
		} else if (ev->pid[1] == 0) {
			c->curr = &c->idle;
		}
		break;
	case SG_SCHED_WAKEUP:
	case SG_SCHED_WAKEUP_NEW:
		if (t0 && t0->state != TS_RUNNING && ev->arg[0] >= 0 && ev->arg[0] < s->ncpus) {
			unlink_task(s, t0);
			enqueue(s, ev->arg[0], t0, ts);
		}
		break;
	case SG_SCHED_MIGRATE_TASK:
		if (t0 && ev->arg[1] >= 0 && ev->arg[1] < s->ncpus) {
			if (t0->state == TS_RUNNABLE) {
				unlink_task(s, t0);
				enqueue(s, ev->arg[1], t0, ts);
			} else if (t0->state != TS_RUNNING) {
				t0->cpu = ev->arg[1];
			}
		}
		break;
	}
	return 0;
}
