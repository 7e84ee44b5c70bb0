// SPDX-License-Identifier: GPL-2.0
/*
 * scale.c - a random but plausible scheduler load, as large as asked
 *
 * For benchmarks and fuzz seeds: traces of many CPUs and millions of events
 * whose every event still obeys the state model, because they are made by
 * the same kernel.c operations as the scenarios.  The load is a mix:
 *
 *   pipe pairs    two tasks that wake each other and sleep (synchronous
 *                 wakeups, remote when the partner last ran elsewhere)
 *   io tasks      short bursts, woken by a running task, a softirq or a
 *                 timer interrupt; they fork children and exit now and then
 *   hogs          long bursts, preempted at the tick when others wait
 *   kworker/N:1   one per CPU, pinned, waking up locally once in a while
 *
 * Wakeups go to the previous CPU when it is idle, else to an idle CPU found
 * by probing a few (a migration), else stay on the busy previous CPU; an
 * idle CPU pulls a queued task from a busy one (load balancing); the tick
 * (HZ=250) preempts a task that ran past its slice while others wait.
 *
 * About 40000 events per second per CPU, like a busy server.  Everything
 * comes from one seeded generator: the same seed gives the same trace.  Events are produced in time order, a timer at a time, and written
 * as soon as no later timer can produce an earlier event, so memory does
 * not grow with the number of events.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

enum {
	TM_RUN_END = SG_TIMER_DRIVER,	/* a task's burst is over */
	TM_WAKE,			/* a sleeping task's wakeup is due */
	TM_TICK,			/* the CPU's scheduler tick */
	TM_NEWIDLE,			/* a CPU went idle: try to pull a task */
};

enum task_class { CLASS_PIPE, CLASS_IO, CLASS_HOG, CLASS_KWORKER };

#define HZ_PERIOD	(4 * NSEC_PER_MSEC)	/* HZ=250, as the real traces */
#define SLICE		(3 * NSEC_PER_MSEC)
#define PROBES		4			/* CPUs looked at for an idle one */

struct load_task {
	struct sg_task task;
	enum task_class class;
	struct load_task *partner;	/* pipe pairs */
	uint64_t burst_left;		/* of the current burst, ns */
	bool pinned;
};

struct load_cpu {
	bool tick_armed;
	uint64_t tick_phase;		/* ticks fall on phase + k * HZ_PERIOD */
};

struct load {
	struct sg_sched sched;
	struct sg_output *out;
	struct sg_rng rng;
	int ncpus;
	struct load_task **tasks;	/* never freed before the output: comms stay valid */
	size_t nr_tasks, alloc_tasks;
	size_t nr_io, io_target;	/* io tasks alive, and the population to keep */
	int next_pid;
	struct load_cpu *cpu;
};

static struct load_task *lt(struct sg_task *t)
{
	return (struct load_task *)t;	/* task is the first member */
}

static uint64_t burst_mean(enum task_class class)
{
	switch (class) {
	case CLASS_PIPE:	return 50 * NSEC_PER_USEC;
	case CLASS_IO:		return 40 * NSEC_PER_USEC;
	case CLASS_HOG:		return 20 * NSEC_PER_MSEC;
	case CLASS_KWORKER:	return 10 * NSEC_PER_USEC;
	}
	return NSEC_PER_USEC;
}

static uint64_t sleep_mean(enum task_class class)
{
	switch (class) {
	case CLASS_IO:		return 1 * NSEC_PER_MSEC;
	case CLASS_HOG:		return 1 * NSEC_PER_MSEC;
	case CLASS_KWORKER:	return 40 * NSEC_PER_MSEC;
	case CLASS_PIPE:	break;
	}
	return NSEC_PER_MSEC;
}

static struct load_task *new_task(struct load *ld, const char *comm, int prio,
				  enum task_class class, int cpu)
{
	struct load_task *t = xcalloc(1, sizeof(*t));

	sg_task_init(&t->task, ld->next_pid++, comm, prio);
	t->task.cpu = cpu;
	t->task.index = ld->nr_tasks;
	t->class = class;
	t->burst_left = sg_rng_exp(&ld->rng, burst_mean(class));
	GROW(ld->tasks, ld->alloc_tasks, ld->nr_tasks + 1);
	ld->tasks[ld->nr_tasks++] = t;
	sg_output_task(ld->out, t->task.pid, t->task.comm);
	if (class == CLASS_IO)
		ld->nr_io++;
	return t;
}

static void add_timer(struct load *ld, int kind, int cpu, struct sg_task *t, uint64_t ts)
{
	struct sg_timer tm = { .ts = ts, .kind = kind, .cpu = cpu, .task = t };

	if (t)
		tm.gen = t->gen;
	sg_timer_add(&ld->sched, &tm);
}

static void arm_tick(struct load *ld, int cpu, uint64_t now)
{
	struct load_cpu *c = &ld->cpu[cpu];
	uint64_t next;

	if (c->tick_armed)
		return;
	next = now - (now - c->tick_phase) % HZ_PERIOD + HZ_PERIOD;
	c->tick_armed = true;
	add_timer(ld, TM_TICK, cpu, NULL, next);
}

/* ------------------------------------------------------------------ */
/* Hooks: a task's burst runs while it has the CPU */

static void switched_in(struct sg_sched *s, int cpu, struct sg_task *t, uint64_t ts)
{
	struct load *ld = s->driver;

	add_timer(ld, TM_RUN_END, cpu, t, ts + lt(t)->burst_left);
	arm_tick(ld, cpu, ts);
}

static void switched_out(struct sg_sched *s, int cpu, struct sg_task *t, long long prev_state,
			 struct sg_task *next, uint64_t ts)
{
	struct load *ld = s->driver;
	uint64_t ran = ts - t->since;

	/* t->since is still its switch-in: kernel.c calls the hook before updating it */
	lt(t)->burst_left = ran < lt(t)->burst_left ? lt(t)->burst_left - ran : 1;
	if (next == &s->cpu[cpu].idle)
		add_timer(ld, TM_NEWIDLE, cpu, NULL, ts + s->gap);
}

/* ------------------------------------------------------------------ */
/* Choices */

static int find_idle(struct load *ld)
{
	for (int i = 0; i < PROBES; i++) {
		int cpu = sg_rng_below(&ld->rng, ld->ncpus);
		struct sg_cpu *c = &ld->sched.cpu[cpu];

		if (sg_cpu_idle(c) && !c->nr_queued && !c->nr_pending)
			return cpu;
	}
	return -1;
}

/* select_task_rq(), roughly: the previous CPU if idle, else an idle one, else stay */
static int pick_dest(struct load *ld, struct load_task *t, int waker_cpu)
{
	int prev = t->task.cpu, idle;
	struct sg_cpu *c = &ld->sched.cpu[prev];

	if (t->pinned)
		return prev;
	if (sg_rng_chance(&ld->rng, 5))
		return waker_cpu;	/* wake affine */
	if (sg_cpu_idle(c) && !c->nr_queued && !c->nr_pending)
		return prev;
	idle = find_idle(ld);
	return idle >= 0 ? idle : prev;
}

/* @sync: the waker sleeps right after (WF_SYNC), so the wakee never preempts it */
static int wake(struct load *ld, struct load_task *t, int waker_cpu, enum sg_ctx ctx, bool sync,
		uint64_t ts)
{
	struct sg_sched *s = &ld->sched;
	struct sg_wake_args wa = { .waker_cpu = waker_cpu, .ctx = ctx };
	struct sg_cpu *dc;

	wa.dest = pick_dest(ld, t, waker_cpu);
	dc = &s->cpu[wa.dest];
	if (!sg_cpu_idle(dc) && !(sync && wa.dest == waker_cpu))
		wa.preempt = t->task.prio < dc->curr->prio || sg_rng_chance(&ld->rng, 10);
	else if (wa.dest != waker_cpu && sg_rng_chance(&ld->rng, 5))
		wa.method = WAKE_POLL;
	wa.ipi_delay = 2 * NSEC_PER_USEC + sg_rng_below(&ld->rng, 8 * NSEC_PER_USEC);
	return sg_wake(s, &t->task, &wa, &ts);
}

static long long sleep_state(struct load *ld, struct load_task *t)
{
	long long idle;

	/* an idle kworker shows "I" where the kernel has it (4.14+) */
	if (t->class == CLASS_KWORKER)
		return sg_state_parse(ld->sched.kernel, "I", &idle) ? sg_state_blocked(&ld->sched, 'S')
								    : idle;
	if (t->class == CLASS_IO && sg_rng_chance(&ld->rng, 10))
		return sg_state_blocked(&ld->sched, 'D');
	return sg_state_blocked(&ld->sched, 'S');
}

/* ------------------------------------------------------------------ */
/* Timers */

/* The burst is over: sleep, wake the partner, fork or exit. */
static int run_end(struct load *ld, struct load_task *t, uint64_t ts)
{
	struct sg_sched *s = &ld->sched;
	int ret;

	t->burst_left = sg_rng_exp(&ld->rng, burst_mean(t->class));
	if (t->class == CLASS_PIPE) {
		struct load_task *p = t->partner;

		if (p->task.state == TS_BLOCKED) {
			ret = wake(ld, p, t->task.cpu, CTX_TASK, true, ts);
			if (ret)
				return ret;
			ts = s->cpu[t->task.cpu].last_ts + s->gap;
			return sg_block(s, &t->task, sg_state_blocked(s, 'S'), &ts);
		}
		/* the partner is not asleep yet: wait for it a little */
		ret = sg_block(s, &t->task, sg_state_blocked(s, 'S'), &ts);
		add_timer(ld, TM_WAKE, t->task.cpu, &t->task, ts + 50 * NSEC_PER_USEC);
		return ret;
	}
	if (t->class == CLASS_IO && ld->nr_io > ld->io_target && sg_rng_chance(&ld->rng, 2)) {
		ld->nr_io--;
		return sg_exit(s, &t->task, &ts);
	}
	if (t->class == CLASS_IO && sg_rng_chance(&ld->rng, 1)) {
		struct load_task *child = new_task(ld, t->task.comm, t->task.prio, CLASS_IO, 0);
		int dest = find_idle(ld);

		child->task.state = TS_UNBORN;
		ret = sg_fork(s, &t->task, &child->task, dest >= 0 ? dest : t->task.cpu, &ts);
		if (ret)
			return ret;
		ts += s->gap;
	}
	ret = sg_block(s, &t->task, sleep_state(ld, t), &ts);
	if (!ret)
		add_timer(ld, TM_WAKE, t->task.cpu, &t->task,
			  ts + sg_rng_exp(&ld->rng, sleep_mean(t->class)));
	return ret;
}

/* A sleeper's time is up: someone wakes it. */
static int wake_due(struct load *ld, struct load_task *t, uint64_t ts)
{
	int cpu = sg_rng_below(&ld->rng, ld->ncpus);
	unsigned int r = sg_rng_below(&ld->rng, 100);

	if (t->task.state != TS_BLOCKED)
		return 0;
	if (t->pinned)
		return wake(ld, t, t->task.cpu, CTX_HARDIRQ, false, ts);
	if (r < 50 && !sg_cpu_idle(&ld->sched.cpu[cpu]))
		return wake(ld, t, cpu, CTX_TASK, false, ts);	/* a running task wakes it */
	if (r < 80)
		return wake(ld, t, t->task.cpu, CTX_SOFTIRQ, false, ts);
	return wake(ld, t, r < 90 ? t->task.cpu : cpu, CTX_HARDIRQ, false, ts);
}

static int tick(struct load *ld, int cpu, uint64_t ts)
{
	struct sg_sched *s = &ld->sched;
	struct sg_cpu *c = &s->cpu[cpu];
	int ret;

	if (sg_cpu_idle(c)) {
		ld->cpu[cpu].tick_armed = false;	/* NOHZ: an idle CPU stops its tick */
		return 0;
	}
	add_timer(ld, TM_TICK, cpu, NULL, ts + HZ_PERIOD);
	ret = sg_tick(s, cpu, &ts);
	if (ret || !c->rq_head || ts - c->curr->since < SLICE)
		return ret;
	ts += s->gap;
	return sg_preempt(s, cpu, NULL, &ts);
}

/* An idle CPU pulls a queued task from a busy one, as newidle balancing does. */
static int newidle(struct load *ld, int cpu, uint64_t ts)
{
	struct sg_sched *s = &ld->sched;
	struct sg_cpu *c = &s->cpu[cpu];

	if (!sg_cpu_idle(c) || c->nr_queued || c->nr_pending)
		return 0;
	for (int i = 0; i < PROBES; i++) {
		struct sg_cpu *busy = &s->cpu[sg_rng_below(&ld->rng, ld->ncpus)];

		for (struct sg_task *t = busy->rq_head; t; t = t->next)
			if (!lt(t)->pinned)
				return sg_migrate(s, t, cpu, cpu, &ts);
	}
	return 0;
}

static int fire(struct sg_sched *s, const struct sg_timer *tm)
{
	struct load *ld = s->driver;
	struct sg_task *t = tm->task;

	switch (tm->kind) {
	case TM_RUN_END:
		if (t->state != TS_RUNNING || t->gen != tm->gen)
			return 0;
		return run_end(ld, lt(t), tm->ts);
	case TM_WAKE:
		return wake_due(ld, lt(t), tm->ts);
	case TM_TICK:
		return tick(ld, tm->cpu, tm->ts);
	case TM_NEWIDLE:
		return newidle(ld, tm->cpu, tm->ts);
	}
	return 0;
}

static const struct sg_sched_ops load_ops = {
	.fire = fire,
	.switched_in = switched_in,
	.switched_out = switched_out,
};

/* ------------------------------------------------------------------ */
/* Setup */

static void populate(struct load *ld, uint64_t start)
{
	static const char *const io_comms[] = { "hackbench", "schbench", "nginx", "postgres" };
	struct sg_sched *s = &ld->sched;
	int n = ld->ncpus;

	for (int cpu = 0; cpu < n; cpu++) {
		char comm[32];
		struct load_task *kw;

		snprintf(comm, sizeof(comm), "kworker/%d:1", cpu);
		kw = new_task(ld, comm, 120, CLASS_KWORKER, cpu);
		kw->pinned = true;
		add_timer(ld, TM_WAKE, cpu, &kw->task,
			  start + sg_rng_exp(&ld->rng, sleep_mean(CLASS_KWORKER)));
		ld->cpu[cpu].tick_phase = sg_rng_below(&ld->rng, HZ_PERIOD);
	}
	/* pipe pairs: one per 5 CPUs; one side runs at the start */
	for (int i = 0; i < (n + 4) / 5; i++) {
		int a = sg_rng_below(&ld->rng, n), b = sg_rng_below(&ld->rng, n);
		struct load_task *x = new_task(ld, "sched-pipe", 120, CLASS_PIPE, a);
		struct load_task *y = new_task(ld, "sched-pipe", 120, CLASS_PIPE, b);

		x->partner = y;
		y->partner = x;
		add_timer(ld, TM_WAKE, a, &x->task, start + sg_rng_below(&ld->rng, NSEC_PER_MSEC));
	}
	/* io tasks: 1.8 per CPU, some niced */
	for (int i = 0; i < n * 9 / 5 + 1; i++) {
		int prio = sg_rng_chance(&ld->rng, 20) ? 110 + sg_rng_below(&ld->rng, 20) : 120;
		struct load_task *t = new_task(ld, io_comms[i % ARRAY_SIZE(io_comms)], prio,
					       CLASS_IO, sg_rng_below(&ld->rng, n));

		add_timer(ld, TM_WAKE, t->task.cpu, &t->task,
			  start + sg_rng_exp(&ld->rng, sleep_mean(CLASS_IO)));
	}
	ld->io_target = ld->nr_io;
	/* hogs: 0.3 per CPU, already running when tracing starts */
	for (int i = 0; i < (n * 3 + 9) / 10; i++) {
		struct load_task *t = new_task(ld, "dd", 120, CLASS_HOG, sg_rng_below(&ld->rng, n));

		if (sg_cpu_idle(&s->cpu[t->task.cpu])) {
			sg_place_running(s, &t->task, t->task.cpu);
			t->task.since = start;
			add_timer(ld, TM_RUN_END, t->task.cpu, &t->task, start + t->burst_left);
			arm_tick(ld, t->task.cpu, start);
		} else {
			add_timer(ld, TM_WAKE, t->task.cpu, &t->task, start + NSEC_PER_MSEC);
		}
	}
}

int cmd_scale(int argc, char **argv)
{
	struct sg_common_opts opts = { .big_endian = -1 };
	struct sg_output_opts oo = { 0 };
	long long ncpus = 0, nevents = 0, seed = 1;
	uint64_t start = 100 * NSEC_PER_SEC, next;
	struct load ld = { 0 };
	struct sg_abi abi;
	int ret = 0;

	for (int i = 1; i < argc; i++) {
		int r = sg_common_opt(&opts, argc, argv, &i);
		long long *dst = NULL;
		long long max = 0;

		if (r < 0)
			return 2;
		if (r)
			continue;
		if (!strcmp(argv[i], "--cpus")) {
			dst = &ncpus;
			max = 8192;
		} else if (!strcmp(argv[i], "--events")) {
			dst = &nevents;
			max = 1LL << 40;
		} else if (!strcmp(argv[i], "--seed")) {
			dst = &seed;
			max = 0x7fffffffffffffffLL;
		} else {
			sg_error("scale: unexpected '%s'", argv[i]);
			return 2;
		}
		if (i + 1 >= argc || parse_int(argv[i + 1], 0, max, dst)) {
			sg_error("%s: a number in [0, %lld]", argv[i], max);
			return 2;
		}
		i++;
	}
	if (ncpus < 1 || nevents < 1) {
		sg_error("scale: --cpus N and --events M are needed");
		return 2;
	}
	if (sg_abi_init(&abi, &opts, NULL, 0, -1))
		return 2;

	oo.dat_path = opts.dat_path;
	oo.text_path = opts.text_path;
	oo.abi = abi;
	oo.ncpus = ncpus;
	oo.max_events = nevents;
	ld.out = sg_output_open(&oo);
	if (!ld.out)
		return 1;
	ld.ncpus = ncpus;
	ld.next_pid = 1000;
	ld.cpu = xcalloc(ncpus, sizeof(*ld.cpu));
	sg_rng_seed(&ld.rng, seed);
	sg_sched_init(&ld.sched, &abi, ncpus, ld.out);
	ld.sched.ops = &load_ops;
	/*
	 * Every event is logged after the previous one, whatever its CPU (see
	 * kernel.c's emit()), so the gap inside a step bounds how many events
	 * the whole machine can log per second: at 100 ns the load (about 40000
	 * events per second per CPU) keeps up even on 256 CPUs, and IPIs land
	 * when they should.
	 */
	ld.sched.gap = 100;
	ld.sched.driver = &ld;
	populate(&ld, start);

	while (!ret && sg_output_queued(ld.out) < (uint64_t)nevents && sg_next_timer(&ld.sched, &next)) {
		/* no timer left can log anything before the next one */
		ret = sg_output_flush_before(ld.out, next);
		if (!ret && sg_run_timers(&ld.sched, next)) {
			sg_error("scale: %s", ld.sched.err);
			ret = -1;
		}
	}
	if (ret)
		sg_output_abort(ld.out);
	else
		ret = sg_output_close(ld.out);
	for (size_t i = 0; i < ld.nr_tasks; i++)
		free(ld.tasks[i]);
	free(ld.tasks);
	free(ld.cpu);
	sg_sched_free(&ld.sched);
	return ret ? 1 : 0;
}
