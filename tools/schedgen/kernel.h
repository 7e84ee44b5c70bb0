/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel.h - what the kernel logs when it wakes, switches, forks, migrates
 *
 * A minimal scheduler state (who runs where, who is queued or pending on
 * which CPU) and the operations that change it, each emitting the events a
 * 6.x (or 4.x) kernel logs for it, in the kernel's order and on the CPU
 * whose ring buffer gets them.  The scenario language and the scale load
 * are both drivers of these operations; keeping the state here is what
 * makes their traces obey SPEC.md's state model.
 */
#ifndef SCHEDGEN_KERNEL_H
#define SCHEDGEN_KERNEL_H

#include "schedgen.h"

enum sg_task_state {
	TS_UNBORN,	/* declared, forked later */
	TS_BLOCKED,	/* asleep, on cpu (its last CPU) */
	TS_WAKING,	/* placed on cpu's wakelist, IPI not handled yet (ttwu_pending) */
	TS_RUNNABLE,	/* queued on cpu */
	TS_RUNNING,	/* current on cpu */
	TS_DEAD,
};

struct sg_task {
	int pid;
	char comm[SG_COMM_LEN];
	int prio;
	enum sg_task_state state;
	int cpu;			/* where it runs, waits, or last ran */
	struct sg_task *next;		/* runqueue or wakelist link */
	uint64_t since;			/* when it entered its state */
	bool wake_preempt;		/* its pending wakeup preempts the current task */
	unsigned int gen;		/* bumped at every switch-in: stale timers ignore it */
	int index;			/* the driver's */
};

struct sg_cpu {
	struct sg_task idle;		/* swapper/N */
	struct sg_task *curr;		/* &idle when idle */
	struct sg_task *rq_head, *rq_tail;	/* queued tasks, FIFO */
	int nr_queued;
	struct sg_task *wl_head, *wl_tail;	/* the wakelist (pending wakeups) */
	int nr_pending;
	bool ipi_pending;		/* an IPI is on its way for the wakelist */
	uint64_t last_ts;		/* of the last event logged here */
};

enum sg_ctx {
	CTX_TASK,	/* the running task itself (or idle) */
	CTX_SOFTIRQ,
	CTX_HARDIRQ,
};

enum sg_wake_method {
	WAKE_AUTO,	/* wakelist when the destination idles, else direct */
	WAKE_WAKELIST,	/* ttwu_queue_wakelist + IPI, sched_wakeup on the destination */
	WAKE_DIRECT,	/* sched_wakeup logged by the waker; resched IPI if needed */
	WAKE_POLL,	/* wakelist, but the idle destination polls: no IPI */
};

struct sg_wake_args {
	int waker_cpu;
	enum sg_ctx ctx;
	int dest;			/* -1: the wakee's last CPU */
	enum sg_wake_method method;
	bool preempt;			/* the wakee preempts the destination's task */
	uint64_t ipi_delay;		/* 0: the scheduler's default */
};

struct sg_timer {
	uint64_t ts;
	uint64_t seq;
	int kind;			/* < SG_TIMER_DRIVER: kernel.c's own */
	int cpu;
	struct sg_task *task;
	long long arg;
	unsigned int gen;
};

#define SG_TIMER_DRIVER 100

struct sg_sched;

struct sg_sched_ops {
	/* a driver timer (kind >= SG_TIMER_DRIVER) is due */
	int (*fire)(struct sg_sched *s, const struct sg_timer *tm);
	/* @task was just switched in on @cpu at @ts (optional) */
	void (*switched_in)(struct sg_sched *s, int cpu, struct sg_task *task, uint64_t ts);
	/* @task just left @cpu with @prev_state (optional); @next runs now */
	void (*switched_out)(struct sg_sched *s, int cpu, struct sg_task *task,
			     long long prev_state, struct sg_task *next, uint64_t ts);
};

struct sg_sched {
	const struct sg_kernel *kernel;
	const struct sg_abi *abi;
	int ncpus;
	struct sg_cpu *cpu;
	struct sg_output *out;
	const struct sg_sched_ops *ops;
	void *driver;
	uint64_t gap;		/* between the events of one step on one CPU */
	uint64_t ipi_delay;	/* IPI send -> handler entry on the target */
	/*
	 * Scenarios are exact: an event that would go back in time on a CPU is
	 * an error in the scenario.  The scale load logs every event after the
	 * previous one, whatever its CPU (see emit()).
	 */
	bool strict;
	uint64_t last_ts;	/* not strict: of the last event logged anywhere */
	uint64_t now;		/* time of the step or timer being handled */
	struct sg_timer *timers;
	size_t nr_timers, alloc_timers;
	uint64_t timer_seq;
	char err[256];
};

int sg_sched_init(struct sg_sched *s, const struct sg_abi *abi, int ncpus, struct sg_output *out);
void sg_sched_free(struct sg_sched *s);
int sg_sched_error(struct sg_sched *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void sg_task_init(struct sg_task *t, int pid, const char *comm, int prio);
const char *sg_task_state_name(enum sg_task_state st);

/* Put a task in its initial state (no event: it was so when tracing began). */
int sg_place_running(struct sg_sched *s, struct sg_task *t, int cpu);
int sg_place_runnable(struct sg_sched *s, struct sg_task *t, int cpu);

/*
 * The operations.  *ts is when the operation starts on its CPU; on return
 * it is the time of the last event it logged there.  All return 0 or a
 * negative error with s->err set.
 */
int sg_wake(struct sg_sched *s, struct sg_task *t, const struct sg_wake_args *a, uint64_t *ts);
int sg_switch_to(struct sg_sched *s, int cpu, struct sg_task *next, long long prev_state,
		 uint64_t *ts);
int sg_block(struct sg_sched *s, struct sg_task *t, long long state, uint64_t *ts);
int sg_preempt(struct sg_sched *s, int cpu, struct sg_task *next, uint64_t *ts);
int sg_fork(struct sg_sched *s, struct sg_task *parent, struct sg_task *child, int dest,
	    uint64_t *ts);
int sg_exit(struct sg_sched *s, struct sg_task *t, uint64_t *ts);
int sg_migrate(struct sg_sched *s, struct sg_task *t, int dest, int on_cpu, uint64_t *ts);
int sg_tick(struct sg_sched *s, int cpu, uint64_t *ts);
int sg_lose(struct sg_sched *s, int cpu, uint64_t count, uint64_t *ts);
int sg_mark(struct sg_sched *s, int cpu, const char *text, uint64_t *ts);
/* Log one event as given, updating the state as the state model reads it. */
int sg_raw_event(struct sg_sched *s, struct sg_event *ev, struct sg_task *t0, struct sg_task *t1);

/* The default state letters of this kernel. */
long long sg_state_blocked(const struct sg_sched *s, char letter);
long long sg_state_dead(const struct sg_sched *s);

/* Timers: kernel.c uses them for IPIs in flight; drivers for their own plans. */
void sg_timer_add(struct sg_sched *s, const struct sg_timer *tm);
/* Fire every timer due at or before ts, in time order. */
int sg_run_timers(struct sg_sched *s, uint64_t ts);
bool sg_next_timer(const struct sg_sched *s, uint64_t *ts);

static inline bool sg_cpu_idle(const struct sg_cpu *c)
{
	return c->curr == &c->idle;
}

#endif /* SCHEDGEN_KERNEL_H */
