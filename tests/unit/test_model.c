// SPDX-License-Identifier: GPL-2.0
/*
 * test_model.c - the SPEC's state-model rules, one test (or more) per rule
 *
 * Each test feeds a short hand-written event sequence and checks what
 * SPEC.md "The state model (rules)" says must follow.  Times are in us
 * to keep the sequences readable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedlint/analyzer.h"
#include "schedlint/model.h"

#define US 1000ULL

struct fixture {
	struct sl_config cfg;
	struct sl_trace_info info;
	struct sl_strtab *st;
	struct sl_model *m;
	/* the samples delivered to analyzers, through a test analyzer */
};

static struct sl_latency_sample samples[64];
static int nr_samples;
static struct sl_placement placements[64];
static int nr_placements;

static void rec_placement(struct sl_analyzer *a, struct sl_model *m, const struct sl_placement *p)
{
	if (nr_placements < 64)
		placements[nr_placements++] = *p;
}

static void rec_latency(struct sl_analyzer *a, struct sl_model *m, const struct sl_latency_sample *s)
{
	if (nr_samples < 64)
		samples[nr_samples++] = *s;
}

/* A model with its usual analyzers, plus sample capture through the model's samples */
static struct fixture *setup_model(int ncpus)
{
	static struct fixture f;

	memset(&f, 0, sizeof(f));
	sl_config_init(&f.cfg);
	f.info.ncpus = ncpus;
	f.info.has_waking = SL_YES;
	f.info.has_wakeup = SL_YES;
	f.st = sl_strtab_new();
	f.m = sl_model_new(&f.cfg, f.st, &f.info);
	nr_samples = 0;
	nr_placements = 0;
	/* capture samples: an extra analyzer appended for the test */
	static struct sl_analyzer_ops cap = { .name = "capture", .on_latency = rec_latency,
					      .on_placement = rec_placement };
	static struct sl_analyzer capa = { .ops = &cap };
	sl_model_add_analyzer(f.m, &capa);
	return &f;
}

static void teardown_model(struct fixture *f)
{
	/* the capture analyzer is static: take it out before freeing */
	f->m->nr_analyzers--;
	sl_model_free(f->m);
	sl_strtab_free(f->st);
	sl_config_free(&f->cfg);
}

static uint32_t comm(struct fixture *f, const char *s)
{
	return sl_intern_cstr(f->st, s);
}

static void ev_switch(struct fixture *f, uint64_t us, int cpu, int prev, int prev_class,
		      char letter, int next)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = prev, .type = SL_EV_SWITCH,
			       .name = comm(f, "sched_switch") };

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	ev.sw.prev_class = (uint8_t)prev_class;
	ev.sw.prev_letter = letter;
	ev.sw.prev_comm = comm(f, prev ? "task" : "swapper");
	ev.sw.next_comm = comm(f, next ? "task" : "swapper");
	sl_model_feed(f->m, &ev);
}

static void ev_wake(struct fixture *f, int type, uint64_t us, int cpu, int waker, int pid, int target)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = waker, .type = (uint16_t)type,
			       .name = comm(f, type == SL_EV_WAKING ? "sched_waking" :
					       type == SL_EV_WAKEUP ? "sched_wakeup" : "sched_wakeup_new") };

	ev.wake.pid = pid;
	ev.wake.prio = 120;
	ev.wake.target_cpu = target;
	ev.wake.comm = comm(f, "task");
	ev.wake.success = true;
	sl_model_feed(f->m, &ev);
}

static void ev_migrate(struct fixture *f, uint64_t us, int cpu, int running, int pid, int from, int to)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = running, .type = SL_EV_MIGRATE,
			       .name = comm(f, "sched_migrate_task") };

	ev.migrate.pid = pid;
	ev.migrate.prio = 120;
	ev.migrate.orig_cpu = from;
	ev.migrate.dest_cpu = to;
	ev.migrate.comm = comm(f, "task");
	sl_model_feed(f->m, &ev);
}

static void ev_lost(struct fixture *f, uint64_t us, int cpu)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = -1, .type = SL_EV_LOST,
			       .name = comm(f, "lost_events") };

	ev.lost.count = 10;
	sl_model_feed(f->m, &ev);
}

/* Put task pid to sleep on cpu (known state: ran, then blocked). */
static void sleeping(struct fixture *f, uint64_t us, int cpu, int pid)
{
	ev_switch(f, us, cpu, 0, SL_PREV_RUNNABLE, 'R', pid);
	ev_switch(f, us + 1, cpu, pid, SL_PREV_BLOCKED, 'S', 0);
}

/* Rule 1: waking is logged by the waker; wake time = waking time. */
static void test_rule1_wake_time_is_waking(void **state)
{
	struct fixture *f = setup_model(4);

	sleeping(f, 10, 1, 100);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 'R', 200);		/* the waker runs on 0 */
	ev_wake(f, SL_EV_WAKING, 30, 0, 200, 100, 1);		/* target_cpu = prev CPU */
	ev_wake(f, SL_EV_WAKEUP, 35, 1, 0, 100, 1);
	ev_switch(f, 50, 1, 0, SL_PREV_RUNNABLE, 'R', 100);
	assert_int_equal(nr_samples, 1);
	assert_int_equal(samples[0].latency, 20 * US);		/* 50 - 30, not 50 - 35 */
	assert_int_equal(samples[0].waker_pid, 200);
	assert_int_equal(samples[0].waker_cpu, 0);
	assert_true(samples[0].remote);
	teardown_model(f);
}

/* Rule 2: the destination is a migrate's dest_cpu during the wakeup... */
static void test_rule2_destination_from_migrate(void **state)
{
	struct fixture *f = setup_model(4);

	sleeping(f, 10, 1, 100);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 'R', 200);
	ev_wake(f, SL_EV_WAKING, 30, 0, 200, 100, 1);
	ev_migrate(f, 31, 0, 200, 100, 1, 2);
	ev_switch(f, 32, 0, 200, SL_PREV_RUNNABLE, 'R', 0);	/* the waker goes on */
	assert_int_equal(f->m->cpus[2].nr_pending, 1);
	assert_int_equal(f->m->cpus[1].nr_pending, 0);
	assert_int_equal(sl_model_task(f->m, 100)->cpu, 2);
	teardown_model(f);
}

/*
 * ... and it is decided at that migrate: on the wakelist path nothing else
 * may follow on the waker's CPU for a long time, while the wakee already
 * sits in the destination's ttwu_pending window.
 */
static void test_rule2_placement_at_migrate(void **state)
{
	struct fixture *f = setup_model(4);

	sleeping(f, 10, 1, 100);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 'R', 200);
	ev_wake(f, SL_EV_WAKING, 30, 0, 200, 100, 1);
	assert_int_equal(nr_placements, 0);
	ev_migrate(f, 31, 0, 200, 100, 1, 2);			/* nothing follows on CPU 0 */
	assert_int_equal(nr_placements, 1);
	assert_int_equal(placements[0].dest_cpu, 2);
	assert_int_equal(placements[0].prev_cpu, 1);
	assert_int_equal(placements[0].ts, 31 * US);
	assert_int_equal(placements[0].wake_ts, 30 * US);
	assert_int_equal(f->m->cpus[2].nr_pending, 1);
	assert_false(sl_cpu_is_idle(&f->m->cpus[2]));
	ev_wake(f, SL_EV_WAKEUP, 40, 2, 0, 100, 2);		/* the IPI lands on 2 */
	assert_int_equal(nr_placements, 1);			/* placed once */
	assert_int_equal(f->m->cpus[2].nr_pending, 0);
	assert_int_equal(f->m->cpus[2].nr_queued, 1);
	teardown_model(f);
}

/* ... without one, it stays on its previous CPU (sched_waking.target_cpu) */
static void test_rule2_destination_previous_cpu(void **state)
{
	struct fixture *f = setup_model(4);

	sleeping(f, 10, 3, 100);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 'R', 200);
	ev_wake(f, SL_EV_WAKING, 30, 0, 200, 100, 3);
	ev_switch(f, 32, 0, 200, SL_PREV_BLOCKED, 'S', 0);
	assert_int_equal(f->m->cpus[3].nr_pending, 1);
	assert_int_equal(f->m->cpus[0].nr_pending, 0);
	teardown_model(f);
}

/* Rule 2: runqueue updates apply to the destination, not the logging CPU */
static void test_rule2_enqueue_on_destination(void **state)
{
	struct fixture *f = setup_model(4);

	sleeping(f, 10, 2, 100);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 'R', 200);
	ev_switch(f, 21, 2, 0, SL_PREV_RUNNABLE, 'R', 300);	/* cpu 2 busy */
	ev_wake(f, SL_EV_WAKING, 30, 0, 200, 100, 2);
	ev_wake(f, SL_EV_WAKEUP, 31, 0, 200, 100, 2);		/* direct path: logged on 0 */
	assert_int_equal(f->m->cpus[2].nr_queued, 1);
	assert_int_equal(f->m->cpus[0].nr_queued, 0);
	assert_int_equal(f->m->cpus[2].nr_pending, 0);
	assert_int_equal(f->m->cpus[2].wakeups, 1);
	teardown_model(f);
}

/* Rule 3: a CPU with a pending wakeup is not idle */
static void test_rule3_pending_not_idle(void **state)
{
	struct fixture *f = setup_model(4);

	sleeping(f, 10, 1, 100);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 'R', 200);
	assert_true(sl_cpu_is_idle(&f->m->cpus[1]));
	ev_wake(f, SL_EV_WAKING, 30, 0, 200, 100, 1);
	ev_switch(f, 31, 0, 200, SL_PREV_BLOCKED, 'S', 0);	/* placement decided */
	assert_false(sl_cpu_is_idle(&f->m->cpus[1]));
	assert_int_equal(f->m->cpus[1].nr_pending, 1);
	ev_wake(f, SL_EV_WAKEUP, 40, 1, 0, 100, 1);
	assert_int_equal(f->m->cpus[1].nr_pending, 0);
	assert_int_equal(f->m->cpus[1].nr_queued, 1);
	assert_false(sl_cpu_is_idle(&f->m->cpus[1]));
	teardown_model(f);
}

/* Rule 4: waking a task that is running or runnable changes nothing */
static void test_rule4_wakeup_of_running_task(void **state)
{
	struct fixture *f = setup_model(2);

	ev_switch(f, 10, 0, 0, SL_PREV_RUNNABLE, 'R', 100);	/* 100 runs on 0 */
	ev_switch(f, 11, 1, 0, SL_PREV_RUNNABLE, 'R', 200);
	ev_wake(f, SL_EV_WAKING, 20, 1, 200, 100, 0);
	ev_wake(f, SL_EV_WAKEUP, 21, 1, 200, 100, 0);
	assert_int_equal(sl_model_task(f->m, 100)->state, SL_TASK_RUNNING);
	assert_int_equal(f->m->cpus[0].nr_queued, 0);
	ev_switch(f, 30, 0, 100, SL_PREV_RUNNABLE, 'R', 0);	/* preempted: queued */
	ev_wake(f, SL_EV_WAKING, 31, 1, 200, 100, 0);
	ev_switch(f, 40, 0, 0, SL_PREV_RUNNABLE, 'R', 100);
	assert_int_equal(nr_samples, 0);
	assert_int_equal(sl_model_task(f->m, 100)->wakeups, 0);
	teardown_model(f);
}

/* Rule 5: sched_wakeup_new makes a task runnable on target_cpu, no latency sample */
static void test_rule5_wakeup_new(void **state)
{
	struct fixture *f = setup_model(4);

	ev_switch(f, 10, 0, 0, SL_PREV_RUNNABLE, 'R', 200);
	ev_wake(f, SL_EV_WAKEUP_NEW, 20, 0, 200, 101, 3);
	assert_int_equal(f->m->cpus[3].nr_queued, 1);
	assert_int_equal(sl_model_task(f->m, 101)->runnable_reason, SL_RUNNABLE_NEW);
	ev_switch(f, 30, 3, 0, SL_PREV_RUNNABLE, 'R', 101);
	assert_int_equal(nr_samples, 0);
	assert_int_equal(sl_model_task(f->m, 101)->state, SL_TASK_RUNNING);
	teardown_model(f);
}

/*
 * A pid reused by a fork with no exit seen: the task it named is dead
 * (handle_fork()), and takes no more samples.  Its latency histogram is
 * compacted there, as at an exit or a last switch-out: its samples all
 * counted, none held, no stage (they stayed held until it was frozen).
 */
static void test_pid_reuse_compacts_the_dead(void **state)
{
	struct fixture *f = setup_model(1);
	struct sl_event fork = { .ts = 10 * US, .cpu = 0, .pid = 500, .type = SL_EV_FORK,
				 .name = comm(f, "sched_process_fork") };
	const struct sl_task *dead;
	uint32_t idx;

	fork.fork.parent_pid = 500;
	fork.fork.child_pid = 2000;
	fork.fork.parent_comm = comm(f, "task");
	fork.fork.child_comm = comm(f, "task");
	ev_switch(f, 5, 0, 0, SL_PREV_RUNNABLE, 'R', 500);
	sl_model_feed(f->m, &fork);
	ev_wake(f, SL_EV_WAKEUP_NEW, 11, 0, 500, 2000, 0);
	ev_switch(f, 12, 0, 500, SL_PREV_RUNNABLE, 'R', 2000);
	for (uint64_t k = 0; k < 3; k++) {	/* three wakeups: 2, 3, 4 us */
		ev_switch(f, 20 + 10 * k, 0, 2000, SL_PREV_BLOCKED, 'S', 500);
		ev_wake(f, SL_EV_WAKING, 21 + 10 * k, 0, 500, 2000, 0);
		ev_switch(f, 23 + 10 * k, 0, 500, SL_PREV_RUNNABLE, 'R', 2000);
	}
	idx = sl_model_task(f->m, 2000)->index;
	assert_int_equal(sl_model_task(f->m, 2000)->latency.count, 3);
	ev_switch(f, 60, 0, 2000, SL_PREV_RUNNABLE, 'R', 500);	/* left queued */
	fork.ts = 70 * US;
	sl_model_feed(f->m, &fork);
	dead = f->m->tasks[idx];
	assert_int_not_equal(sl_model_task(f->m, 2000)->index, idx);
	assert_int_equal(dead->state, SL_TASK_DEAD);
	assert_int_equal(dead->latency.count, 3);
	assert_int_equal(dead->latency.nr_held, 0);
	assert_null(dead->latency.stage);
	teardown_model(f);
}

/* Rule 6: R and R+ stay runnable on that CPU; S blocks; X dies */
static void test_rule6_prev_states(void **state)
{
	struct fixture *f = setup_model(2);

	ev_switch(f, 10, 0, 0, SL_PREV_RUNNABLE, 'R', 100);
	ev_switch(f, 20, 0, 100, SL_PREV_PREEMPTED, 'R', 101);
	assert_int_equal(sl_model_task(f->m, 100)->state, SL_TASK_QUEUED);
	assert_int_equal(sl_model_task(f->m, 100)->cpu, 0);
	assert_int_equal(sl_model_task(f->m, 100)->preemptions, 1);
	assert_int_equal(f->m->cpus[0].nr_queued, 1);
	ev_switch(f, 30, 0, 101, SL_PREV_RUNNABLE, 'R', 100);
	assert_int_equal(sl_model_task(f->m, 101)->state, SL_TASK_QUEUED);
	ev_switch(f, 40, 0, 100, SL_PREV_BLOCKED, 'D', 101);
	assert_int_equal(sl_model_task(f->m, 100)->state, SL_TASK_BLOCKED);
	assert_int_equal(sl_model_task(f->m, 100)->block_letter, 'D');
	ev_switch(f, 50, 0, 101, SL_PREV_DEAD, 'X', 0);
	assert_int_equal(sl_model_task(f->m, 101)->state, SL_TASK_DEAD);
	assert_int_equal(f->m->cpus[0].nr_queued, 0);
	assert_true(sl_cpu_is_idle(&f->m->cpus[0]));
	teardown_model(f);
}

/* Rule 6: a task switched in while the model thinks it blocked: runnable, no sample */
static void test_rule6_stale_blocked_switch_in(void **state)
{
	struct fixture *f = setup_model(2);

	sleeping(f, 10, 0, 100);
	ev_switch(f, 30, 0, 0, SL_PREV_RUNNABLE, 'R', 100);	/* no wakeup seen */
	assert_int_equal(nr_samples, 0);
	assert_int_equal(sl_model_task(f->m, 100)->state, SL_TASK_RUNNING);
	teardown_model(f);
}

/* Rule 7: migrating a queued task moves it between runqueues */
static void test_rule7_migrate_queued(void **state)
{
	struct fixture *f = setup_model(4);

	ev_switch(f, 10, 0, 0, SL_PREV_RUNNABLE, 'R', 100);
	ev_switch(f, 20, 0, 100, SL_PREV_PREEMPTED, 'R', 101);
	ev_migrate(f, 25, 3, 0, 100, 0, 3);			/* load balance from CPU 3 */
	assert_int_equal(f->m->cpus[0].nr_queued, 0);
	assert_int_equal(f->m->cpus[3].nr_queued, 1);
	assert_int_equal(sl_model_task(f->m, 100)->runnable_reason, SL_RUNNABLE_MIGRATED);
	assert_int_equal(sl_model_task(f->m, 100)->migrations, 1);
	teardown_model(f);
}

/* Rule 8: a task whose first event is a switch-out ran since the start: no sample */
static void test_rule8_first_event_switch_out(void **state)
{
	struct fixture *f = setup_model(2);

	ev_switch(f, 10, 0, 100, SL_PREV_BLOCKED, 'S', 0);
	assert_int_equal(sl_model_task(f->m, 100)->state, SL_TASK_BLOCKED);
	assert_int_equal(sl_model_task(f->m, 100)->run_ns, 0);
	assert_int_equal(nr_samples, 0);
	teardown_model(f);
}

/* SPEC "Affinity": per-CPU kthreads pinned, seen running on two CPUs = migratable */
static void test_affinity_evidence(void **state)
{
	struct fixture *f = setup_model(2);
	struct sl_event ev = { .ts = 5 * US, .cpu = 1, .pid = 300, .type = SL_EV_SWITCH,
			       .name = comm(f, "sched_switch") };

	/* 100: first seen switched out on 0 (rule 8), later switched in on 1 */
	ev_switch(f, 10, 0, 100, SL_PREV_BLOCKED, 'S', 0);
	ev_switch(f, 20, 1, 0, SL_PREV_RUNNABLE, 'R', 100);
	assert_int_equal(sl_task_affinity(f->m, sl_model_task(f->m, 100)), SL_AFFINITY_MIGRATABLE);
	/* 101: only ever on CPU 0 */
	ev_switch(f, 30, 0, 0, SL_PREV_RUNNABLE, 'R', 101);
	ev_switch(f, 40, 0, 101, SL_PREV_BLOCKED, 'S', 0);
	assert_int_equal(sl_task_affinity(f->m, sl_model_task(f->m, 101)), SL_AFFINITY_UNKNOWN);
	/* 300: a per-CPU kthread, whatever CPUs it shows up on */
	ev.sw = (typeof(ev.sw)){ .prev_pid = 300, .next_pid = 0, .prev_prio = 120, .next_prio = 120,
				 .prev_class = SL_PREV_BLOCKED, .prev_letter = 'S',
				 .prev_comm = comm(f, "kworker/1:2"), .next_comm = comm(f, "swapper") };
	ev.ts = 50 * US;
	sl_model_feed(f->m, &ev);
	assert_int_equal(sl_task_affinity(f->m, sl_model_task(f->m, 300)), SL_AFFINITY_PINNED);
	teardown_model(f);
}

/* Rule 9: small clock inversions across CPUs: no negative times, counted */
static void test_rule9_clock_skew(void **state)
{
	struct fixture *f = setup_model(2);

	sleeping(f, 10, 1, 100);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 'R', 200);
	ev_wake(f, SL_EV_WAKING, 30, 0, 200, 100, 1);
	ev_wake(f, SL_EV_WAKEUP, 32, 0, 200, 100, 1);
	/* CPU 1's clock is 5 us behind: its switch-in looks earlier than the waking */
	ev_switch(f, 28, 1, 0, SL_PREV_RUNNABLE, 'R', 100);
	assert_int_equal(nr_samples, 1);
	assert_true(samples[0].latency < 1000 * US);		/* 0, not a wrapped huge value */
	assert_int_equal(f->m->clock_inversions, 1);
	teardown_model(f);
}

/* Lost events: the CPU is unknown until its next switch; no sample across the gap */
static void test_lost_events_no_sample_across_gap(void **state)
{
	struct fixture *f = setup_model(2);

	sleeping(f, 10, 1, 100);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 'R', 200);
	ev_wake(f, SL_EV_WAKING, 30, 0, 200, 100, 1);
	ev_wake(f, SL_EV_WAKEUP, 31, 1, 0, 100, 1);
	ev_lost(f, 40, 1);
	assert_false(f->m->cpus[1].known);
	assert_int_equal(f->m->cpus[1].nr_queued, 0);
	ev_switch(f, 50, 1, 0, SL_PREV_RUNNABLE, 'R', 100);
	assert_int_equal(nr_samples, 0);
	assert_true(f->m->cpus[1].known);
	assert_int_equal(f->m->lost_events, 10);
	teardown_model(f);
}

/* An event of a task that is not the model's running one: an untraced switch */
static void test_implied_switch(void **state)
{
	struct fixture *f = setup_model(2);
	struct sl_event ev = { 0 };

	sleeping(f, 10, 1, 100);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 'R', 200);
	ev_wake(f, SL_EV_WAKING, 30, 0, 200, 100, 1);
	ev_wake(f, SL_EV_WAKEUP, 40, 1, 0, 100, 1);		/* logged by idle on 1 */
	/* 100 runs on CPU 1 without a sched_switch: its own waking shows it */
	ev_wake(f, SL_EV_WAKING, 60, 1, 100, 200, 0);
	assert_int_equal(nr_samples, 1);
	assert_int_equal(samples[0].latency, 10 * US);		/* earliest: CPU 1's last event */
	assert_true(samples[0].implied_switch);
	assert_int_equal(f->m->implied_switches, 1);
	assert_int_equal(sl_model_task(f->m, 100)->state, SL_TASK_RUNNING);
	(void)ev;
	teardown_model(f);
}

/*
 * A CPU switches to idle while the model has a task queued on it: the
 * task's switches were not traced (seen on the 6.18 VM: a tokio worker
 * woken onto CPU 1, then never seen until 30 ms later).  The kernel picks
 * idle only with nothing runnable, so the task is not waiting there: its
 * state is unknown, and its next switch-in is no 30 ms latency sample.
 */
static void test_idle_with_queued_task(void **state)
{
	struct fixture *f = setup_model(2);

	sleeping(f, 10, 1, 100);
	ev_switch(f, 20, 1, 0, SL_PREV_RUNNABLE, 'R', 200);	/* 200 runs on CPU 1 */
	ev_wake(f, SL_EV_WAKING, 30, 1, 200, 100, 1);
	ev_wake(f, SL_EV_WAKEUP, 31, 1, 200, 100, 1);		/* 100 queued on CPU 1 */
	assert_int_equal(f->m->cpus[1].nr_queued, 1);
	ev_switch(f, 40, 1, 200, SL_PREV_BLOCKED, 'S', 0);	/* and CPU 1 goes idle */
	assert_int_equal(f->m->cpus[1].nr_queued, 0);
	assert_int_equal(sl_model_task(f->m, 100)->state, SL_TASK_UNKNOWN);
	assert_true(sl_cpu_is_idle(&f->m->cpus[1]));
	ev_switch(f, 30000, 1, 0, SL_PREV_RUNNABLE, 'R', 100);
	assert_int_equal(nr_samples, 0);
	/* a preempted prev stays queued: the switch to idle says nothing of it */
	ev_switch(f, 30010, 1, 100, SL_PREV_PREEMPTED, 'R', 0);
	assert_int_equal(sl_model_task(f->m, 100)->state, SL_TASK_QUEUED);
	teardown_model(f);
}

/*
 * A task running when its CPU lost events, then seen (implied) on another
 * CPU: its run there starts after the run counted on the first CPU, never
 * before (fuzz_model found it counted twice: ran longer than the trace).
 */
static void test_lost_then_implied_elsewhere(void **state)
{
	struct fixture *f = setup_model(2);
	struct sl_event ev = { .ts = 0, .cpu = 1, .pid = 100, .type = SL_EV_OTHER,
			       .name = comm(f, "other") };

	ev_switch(f, 50, 1, 0, SL_PREV_RUNNABLE, 'R', 0);	/* CPU 1 idle, known */
	ev_switch(f, 100, 0, 0, SL_PREV_RUNNABLE, 'R', 100);	/* 100 runs on CPU 0 */
	ev_wake(f, SL_EV_WAKING, 300, 0, 100, 200, 0);		/* CPU 0's last event */
	ev_lost(f, 500, 0);					/* 100 ran 100..300 */
	assert_int_equal(sl_model_task(f->m, 100)->run_ns, 200 * US);
	ev.ts = 600 * US;					/* 100 on CPU 1 */
	sl_model_feed(f->m, &ev);
	assert_int_equal(sl_model_task(f->m, 100)->state, SL_TASK_RUNNING);
	sl_model_finish(f->m);
	/* 100..300 on CPU 0, then from 300 (not 100) to the end at 600 on CPU 1 */
	assert_int_equal(sl_model_task(f->m, 100)->run_ns, 500 * US);
	assert_true(sl_model_task(f->m, 100)->run_ns <= f->m->last_ts - f->m->first_ts);
	teardown_model(f);
}

/*
 * The same through a switch whose prev is not the task the model had
 * running, and no task at all (a corrupt pid, -1: no implied switch comes
 * first): that task stopped running there at that switch, and a task runs
 * on one CPU at a time, so an implied switch-in elsewhere is not earlier
 * (fuzz_model found it counted twice: ran longer than the trace).
 */
static void test_switched_away_then_implied_elsewhere(void **state)
{
	struct fixture *f = setup_model(2);
	struct sl_event ev = { .ts = 0, .cpu = 1, .pid = 100, .type = SL_EV_OTHER,
			       .name = comm(f, "other") };

	ev_switch(f, 50, 1, 0, SL_PREV_RUNNABLE, 'R', 0);	/* CPU 1 idle, known */
	ev_switch(f, 100, 0, 0, SL_PREV_RUNNABLE, 'R', 100);	/* 100 runs on CPU 0 */
	/* logged by 100 (common_pid), but its prev is -1: 100 left unseen */
	struct sl_event sw = { .ts = 300 * US, .cpu = 0, .pid = 100, .type = SL_EV_SWITCH,
			       .name = comm(f, "sched_switch") };

	sw.sw.prev_pid = -1;
	sw.sw.prev_prio = sw.sw.next_prio = 120;
	sw.sw.prev_class = SL_PREV_BLOCKED;
	sw.sw.prev_letter = 'S';
	sw.sw.prev_comm = comm(f, "task");
	sw.sw.next_comm = comm(f, "swapper");
	sl_model_feed(f->m, &sw);
	assert_int_equal(sl_model_task(f->m, 100)->state, SL_TASK_UNKNOWN);
	assert_int_equal(sl_model_task(f->m, 100)->run_ns, 200 * US);
	ev.ts = 600 * US;					/* 100 on CPU 1 */
	sl_model_feed(f->m, &ev);
	assert_int_equal(sl_model_task(f->m, 100)->state, SL_TASK_RUNNING);
	sl_model_finish(f->m);
	/* 100..300 on CPU 0, then from 300 (not 100) to the end at 600 on CPU 1 */
	assert_int_equal(sl_model_task(f->m, 100)->run_ns, 500 * US);
	assert_true(sl_model_task(f->m, 100)->run_ns <= f->m->last_ts - f->m->first_ts);
	teardown_model(f);
}

/*
 * A waking logged while the wakee still ran elsewhere (rule 4's edge: a
 * real wakeup), the wakee placed on a third CPU (no sched_wakeup), and its
 * switch-in there not in the trace (its own event shows it).  Without
 * sched_wakeup the switch-in may be as early as the wakee became runnable
 * (issue 32), but that is its switch-out here, not the waking: it ran on
 * CPU 0 until then, and a task runs on one CPU at a time.  It was placed
 * at the waking, and ran on two CPUs at once, longer than the trace
 * (text: 2000.032 s in 1000.054 s).
 *
 *   100 us  CPU 0: 100 switched in
 *   110 us  CPU 2: 300 switched in
 *   122 us  CPU 1: 200 wakes 100 (still running on CPU 0)
 *  1000 us  CPU 0: 100 switched out, asleep (S): the wakeup applies
 *  1001 us  CPU 1: 100 migrated 0 -> 2 (placed on CPU 2)
 *  1054 us  CPU 2: an event of 100: it runs there
 *
 * Expected (SPEC rules 4, 6, the implied switch at the earliest time it
 * can have been): 100 ran 100..1000 on CPU 0 and 1000..1054 on CPU 2,
 * 954 us, the whole trace; 300 ran 110..1000 (890 us); the latency
 * sample is 122 -> 1000 (878 us), an inferred switch-in; 100 waited 0.
 */
static void test_early_waking_implied_elsewhere(void **state)
{
	struct fixture *f = setup_model(3);
	struct sl_event ev = { .ts = 1054 * US, .cpu = 2, .pid = 100, .type = SL_EV_OTHER,
			       .name = comm(f, "other") };

	(void)state;
	ev_switch(f, 100, 0, 0, SL_PREV_RUNNABLE, 'R', 100);
	ev_switch(f, 110, 2, 0, SL_PREV_RUNNABLE, 'R', 300);
	ev_wake(f, SL_EV_WAKING, 122, 1, 200, 100, 0);
	ev_switch(f, 1000, 0, 100, SL_PREV_BLOCKED, 'S', 0);
	ev_migrate(f, 1001, 1, 200, 100, 0, 2);
	sl_model_feed(f->m, &ev);
	assert_int_equal(sl_model_task(f->m, 100)->state, SL_TASK_RUNNING);
	assert_int_equal(nr_samples, 1);
	assert_true(samples[0].implied_switch);
	assert_int_equal(samples[0].latency, 878 * US);
	sl_model_finish(f->m);
	assert_int_equal(sl_model_task(f->m, 100)->run_ns, 954 * US);
	assert_int_equal(sl_model_task(f->m, 100)->wait_ns, 0);
	assert_int_equal(sl_model_task(f->m, 300)->run_ns, 890 * US);
	assert_true(sl_model_task(f->m, 100)->run_ns <= f->m->last_ts - f->m->first_ts);
	teardown_model(f);
}

/*
 * Rule 4's edge: try_to_wake_up() logs the waking, then waits for the
 * wakee to finish switching out on its CPU (p->on_cpu).  The waking comes
 * first in the trace, the task was going to sleep: a real wakeup.
 */
static void test_rule4_waking_during_switch_out(void **state)
{
	struct fixture *f = setup_model(4);

	ev_switch(f, 10, 1, 0, SL_PREV_RUNNABLE, 'R', 100);	/* 100 runs on 1 */
	ev_switch(f, 11, 0, 0, SL_PREV_RUNNABLE, 'R', 200);	/* the waker on 0 */
	ev_wake(f, SL_EV_WAKING, 30, 0, 200, 100, 1);		/* 100 still on CPU 1 */
	ev_switch(f, 32, 1, 100, SL_PREV_BLOCKED, 'S', 0);	/* ... now it is off */
	ev_migrate(f, 33, 0, 200, 100, 1, 2);
	ev_wake(f, SL_EV_WAKEUP, 34, 0, 200, 100, 2);
	ev_switch(f, 40, 2, 0, SL_PREV_RUNNABLE, 'R', 100);
	assert_int_equal(nr_samples, 1);
	assert_int_equal(samples[0].latency, 10 * US);		/* from the waking at 30 */
	assert_int_equal(samples[0].cpu, 2);
	assert_int_equal(samples[0].waker_pid, 200);
	teardown_model(f);
}

/* ... whereas a wakeup of a task that never slept (ttwu_runnable) is none */
static void test_rule4_ttwu_runnable(void **state)
{
	struct fixture *f = setup_model(4);

	ev_switch(f, 10, 1, 0, SL_PREV_RUNNABLE, 'R', 100);
	ev_switch(f, 11, 0, 0, SL_PREV_RUNNABLE, 'R', 200);
	ev_wake(f, SL_EV_WAKING, 30, 0, 200, 100, 1);
	ev_wake(f, SL_EV_WAKEUP, 31, 0, 200, 100, 1);		/* still running: no-op */
	ev_switch(f, 50, 1, 100, SL_PREV_BLOCKED, 'S', 0);	/* sleeps later, for real */
	assert_int_equal(sl_model_task(f->m, 100)->state, SL_TASK_BLOCKED);
	assert_int_equal(sl_model_task(f->m, 100)->wakeups, 0);
	assert_int_equal(f->m->cpus[1].nr_pending + f->m->cpus[1].nr_queued, 0);
	teardown_model(f);
}

/*
 * The moment of each task's worst wakeup and of the trace's, and the
 * histogram row of its samples: three wakeups of 100 by 200 (cpu 0 ->
 * cpu 1) of 25, 30 and 30 us; the first of the equal ones is the worst.
 */
static void test_worst_wakeup_moments(void **state)
{
	struct fixture *f = setup_model(2);
	static const uint64_t waking[3] = { 30, 100, 200 }, lat[3] = { 25, 30, 30 };
	const struct sl_task *t;
	int row = sl_hist_row_of(25 * US);

	sleeping(f, 10, 1, 100);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 'R', 200);
	for (int i = 0; i < 3; i++) {
		ev_wake(f, SL_EV_WAKING, waking[i], 0, 200, 100, 1);
		ev_wake(f, SL_EV_WAKEUP, waking[i] + 1, 1, 0, 100, 1);
		ev_switch(f, waking[i] + lat[i], 1, 0, SL_PREV_RUNNABLE, 'R', 100);
		ev_switch(f, waking[i] + lat[i] + 1, 1, 100, SL_PREV_BLOCKED, 'S', 0);
	}
	t = sl_model_task(f->m, 100);
	assert_non_null(t);
	assert_int_equal(t->latency.count, 3);
	assert_int_equal(t->worst.latency, 30 * US);
	assert_int_equal(t->worst.wake_ts, 100 * US);
	assert_int_equal(t->worst.run_ts, 130 * US);
	assert_int_equal(t->worst.cpu, 1);
	assert_int_equal(t->worst.waker_cpu, 0);
	assert_int_equal(f->m->latency_worst.run_ts, 130 * US);
	assert_int_equal(f->m->latency_worst.pid, 100);
	/*
	 * 25 and 30 us are both in the "20us .." row (a bucket goes to the row
	 * of its low end: exactly 20 us is in [19968, 20096), the 10 us row)
	 */
	assert_int_equal(row, sl_hist_row_of(30 * US));
	assert_int_equal(sl_hist_row_lo(row), 20 * US);
	teardown_model(f);
}

/* A switch in of pid with prio, from the idle task of cpu. */
static void ev_switch_prio(struct fixture *f, uint64_t us, int cpu, int pid, int prio)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = 0, .type = SL_EV_SWITCH,
			       .name = comm(f, "sched_switch") };

	ev.sw.prev_pid = 0;
	ev.sw.next_pid = pid;
	ev.sw.prev_prio = 120;
	ev.sw.next_prio = prio;
	ev.sw.prev_class = SL_PREV_RUNNABLE;
	ev.sw.prev_letter = 'R';
	ev.sw.prev_comm = comm(f, "swapper");
	ev.sw.next_comm = comm(f, "task");
	sl_model_feed(f->m, &ev);
}

/*
 * The class from the events' prio (issue 29): -1 is SCHED_DEADLINE in
 * every format (the kernel's p->prio, printed as it is), SL_PRIO_NONE an
 * event without a prio; 0..99 RT, 100..139 fair; a recorded policy goes
 * first.
 */
static void test_class_from_prio(void **state)
{
	static const struct { enum sl_format fmt; int prio; enum sl_sched_class want; } c[] = {
		{ SL_FMT_DAT7, -1, SL_CLASS_DL }, { SL_FMT_PERF_DATA, -1, SL_CLASS_DL },
		{ SL_FMT_FTRACE_TEXT, -1, SL_CLASS_DL }, { SL_FMT_TRACECMD_REPORT, -1, SL_CLASS_DL },
		{ SL_FMT_FTRACE_TEXT, SL_PRIO_NONE, SL_CLASS_UNKNOWN },
		{ SL_FMT_DAT7, SL_PRIO_NONE, SL_CLASS_UNKNOWN }, { SL_FMT_DAT6, 49, SL_CLASS_RT },
		{ SL_FMT_DAT6, 0, SL_CLASS_RT }, { SL_FMT_PERF_SCRIPT, 120, SL_CLASS_FAIR },
		{ SL_FMT_DAT6, 139, SL_CLASS_FAIR },
	};
	enum sl_class_source src;

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct fixture *f = setup_model(2);
		struct sl_task *t;

		f->info.format = c[i].fmt;
		ev_switch_prio(f, 10, 0, 100, c[i].prio);
		t = sl_model_task(f->m, 100);
		assert_int_equal(sl_task_class(f->m, t, &src), c[i].want);
		assert_int_equal(src, c[i].want == SL_CLASS_UNKNOWN ? SL_CLASS_FROM_NONE
								    : SL_CLASS_FROM_PRIO);
		/* a prio seen later is the task's: a deadline task set back to fair */
		ev_switch_prio(f, 20, 1, 100, 120);
		assert_int_equal(sl_task_class(f->m, t, &src), SL_CLASS_FAIR);
		/* a recorded policy first: SCHED_FIFO */
		t->policy = 1;
		assert_int_equal(sl_task_class(f->m, t, &src), SL_CLASS_RT);
		assert_int_equal(src, SL_CLASS_FROM_POLICY);
		teardown_model(f);
	}
}

/*
 * A wakeup's class (schedlint-analyze(1), LATENCY BY CLASS): the prio
 * decides RT, DL or fair whatever the recorded policy; the policy tells
 * sched_ext from fair and classifies a task without a prio.
 */
static void test_class_at_wakeup(void **state)
{
	static const struct {
		int32_t prio;
		bool dl;
		int policy;
		enum sl_sched_class want;
		bool by_policy;
	} c[] = {
		{ 120, false, -1, SL_CLASS_FAIR, false },	/* nothing recorded */
		{ 120, false, 0, SL_CLASS_FAIR, true },		/* SCHED_NORMAL */
		{ 139, false, 5, SL_CLASS_FAIR, true },		/* SCHED_IDLE */
		{ 89, false, 0, SL_CLASS_RT, false },		/* boosted, or a chrt not re-read */
		{ 89, false, 1, SL_CLASS_RT, true },		/* SCHED_FIFO */
		{ 120, false, 1, SL_CLASS_FAIR, false },	/* chrt -o since the FIFO read */
		{ 120, true, 0, SL_CLASS_DL, false },		/* events gave -1 */
		{ 120, true, 6, SL_CLASS_DL, true },		/* SCHED_DEADLINE */
		{ 120, false, 7, SL_CLASS_EXT, true },		/* SCHED_EXT: a fair prio */
		{ 49, false, 7, SL_CLASS_RT, false },		/* an ext task boosted */
		{ -1, false, 2, SL_CLASS_RT, true },		/* no prio: SCHED_RR's class */
		{ -1, false, -1, SL_CLASS_UNKNOWN, false },
		{ 200, false, -1, SL_CLASS_UNKNOWN, false },	/* not a prio */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		bool by_policy = !c[i].by_policy;

		assert_int_equal(sl_class_at(c[i].prio, c[i].dl, c[i].policy, &by_policy), c[i].want);
		assert_int_equal(by_policy, c[i].by_policy);
	}
}

/*
 * The leave of a task switched in (analyzer.h, runnable_calls): an
 * analyzer that asks for SL_RUNNABLE_SWITCH_LEAVES (0 asks for all) is
 * called on_runnable(enter = false) for it; one that does not reads it
 * in on_switch (next_left_cpu, next_queued_since).  Every other leave
 * (here a migration of a queued task) is a call for both.
 */
struct leave_rec {
	int32_t pid, cpu;
	uint64_t ts;
};

struct switch_rec {
	int32_t next_pid, left_cpu;
	uint64_t ts, queued_since;
};

struct hook_rec {
	struct leave_rec leaves[8];
	int nr_leaves;
	struct switch_rec switches[16];
	int nr_switches;
};

static struct hook_rec rec_all, rec_folded;

static void rec_runnable(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t, int cpu,
			 uint64_t ts, bool enter)
{
	struct hook_rec *r = a->priv;

	if (!enter && r->nr_leaves < 8)
		r->leaves[r->nr_leaves++] = (struct leave_rec){ .pid = t->pid, .cpu = cpu, .ts = ts };
}

static void rec_switch(struct sl_analyzer *a, struct sl_model *m, const struct sl_switch_info *sw)
{
	struct hook_rec *r = a->priv;

	if (r->nr_switches < 16)
		r->switches[r->nr_switches++] = (struct switch_rec){
			.next_pid = sw->next ? sw->next->pid : 0, .left_cpu = sw->next_left_cpu,
			.ts = sw->ts, .queued_since = sw->next_queued_since,
		};
}

static void test_switch_in_leave(void **state)
{
	struct fixture *f = setup_model(4);
	static struct sl_analyzer_ops all = {
		.name = "leaves-all", .on_runnable = rec_runnable, .on_switch = rec_switch,
	};
	static struct sl_analyzer_ops folded = {
		.name = "leaves-folded", .on_runnable = rec_runnable, .on_switch = rec_switch,
		.runnable_calls = SL_RUNNABLE_ENTERS | SL_RUNNABLE_LEAVES,
	};
	static struct sl_analyzer a_all = { .ops = &all, .priv = &rec_all };
	static struct sl_analyzer a_folded = { .ops = &folded, .priv = &rec_folded };
	const struct switch_rec *sw;

	memset(&rec_all, 0, sizeof(rec_all));
	memset(&rec_folded, 0, sizeof(rec_folded));
	sl_model_add_analyzer(f->m, &a_all);
	sl_model_add_analyzer(f->m, &a_folded);

	sleeping(f, 10, 1, 100);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 'R', 200);	/* 200 first seen: on no queue */
	ev_wake(f, SL_EV_WAKING, 30, 0, 200, 100, 1);
	ev_wake(f, SL_EV_WAKEUP, 35, 1, 0, 100, 1);		/* 100 queued on 1 from 35 */
	ev_switch(f, 50, 1, 0, SL_PREV_RUNNABLE, 'R', 100);	/* ... until its switch-in */
	ev_switch(f, 60, 0, 200, SL_PREV_PREEMPTED, 'R', 0);	/* 200 queued on 0 from 60 */
	ev_migrate(f, 61, 0, 0, 200, 0, 2);			/* a leave, not at a switch-in */
	ev_switch(f, 70, 2, 0, SL_PREV_RUNNABLE, 'R', 200);	/* queued on 2 from 61 */

	/* the one that wants every call: the switch-ins' leaves too */
	assert_int_equal(rec_all.nr_leaves, 3);
	assert_int_equal(rec_all.leaves[0].pid, 100);
	assert_int_equal(rec_all.leaves[0].cpu, 1);
	assert_int_equal(rec_all.leaves[0].ts, 50 * US);
	assert_int_equal(rec_all.leaves[1].pid, 200);
	assert_int_equal(rec_all.leaves[1].cpu, 0);
	assert_int_equal(rec_all.leaves[1].ts, 61 * US);
	assert_int_equal(rec_all.leaves[2].pid, 200);
	assert_int_equal(rec_all.leaves[2].cpu, 2);
	assert_int_equal(rec_all.leaves[2].ts, 70 * US);
	/* the other: the migration's alone */
	assert_int_equal(rec_folded.nr_leaves, 1);
	assert_int_equal(rec_folded.leaves[0].pid, 200);
	assert_int_equal(rec_folded.leaves[0].cpu, 0);
	assert_int_equal(rec_folded.leaves[0].ts, 61 * US);

	/* both see the same switches: 10, 11 (sleeping()), 20, 50, 60, 70 */
	assert_int_equal(rec_folded.nr_switches, 6);
	assert_int_equal(rec_all.nr_switches, 6);
	assert_memory_equal(rec_all.switches, rec_folded.switches, sizeof(rec_all.switches));
	sw = rec_folded.switches;
	assert_int_equal(sw[2].next_pid, 200);
	assert_int_equal(sw[2].left_cpu, -1);			/* on no queue */
	assert_int_equal(sw[3].next_pid, 100);
	assert_int_equal(sw[3].left_cpu, 1);
	assert_int_equal(sw[3].queued_since, 35 * US);
	assert_int_equal(sw[4].next_pid, 0);
	assert_int_equal(sw[4].left_cpu, -1);			/* the idle task */
	assert_int_equal(sw[5].next_pid, 200);
	assert_int_equal(sw[5].left_cpu, 2);
	assert_int_equal(sw[5].queued_since, 61 * US);

	f->m->nr_analyzers -= 2;	/* static, as the capture analyzer */
	teardown_model(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule1_wake_time_is_waking),
		cmocka_unit_test(test_rule2_destination_from_migrate),
		cmocka_unit_test(test_rule2_placement_at_migrate),
		cmocka_unit_test(test_rule2_destination_previous_cpu),
		cmocka_unit_test(test_rule2_enqueue_on_destination),
		cmocka_unit_test(test_rule3_pending_not_idle),
		cmocka_unit_test(test_rule4_wakeup_of_running_task),
		cmocka_unit_test(test_rule4_waking_during_switch_out),
		cmocka_unit_test(test_rule4_ttwu_runnable),
		cmocka_unit_test(test_rule5_wakeup_new),
		cmocka_unit_test(test_pid_reuse_compacts_the_dead),
		cmocka_unit_test(test_rule6_prev_states),
		cmocka_unit_test(test_rule6_stale_blocked_switch_in),
		cmocka_unit_test(test_rule7_migrate_queued),
		cmocka_unit_test(test_rule8_first_event_switch_out),
		cmocka_unit_test(test_affinity_evidence),
		cmocka_unit_test(test_rule9_clock_skew),
		cmocka_unit_test(test_lost_events_no_sample_across_gap),
		cmocka_unit_test(test_implied_switch),
		cmocka_unit_test(test_idle_with_queued_task),
		cmocka_unit_test(test_lost_then_implied_elsewhere),
		cmocka_unit_test(test_switched_away_then_implied_elsewhere),
		cmocka_unit_test(test_early_waking_implied_elsewhere),
		cmocka_unit_test(test_worst_wakeup_moments),
		cmocka_unit_test(test_class_from_prio),
		cmocka_unit_test(test_class_at_wakeup),
		cmocka_unit_test(test_switch_in_leave),
	};
	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
