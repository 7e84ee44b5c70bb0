// SPDX-License-Identifier: GPL-2.0
/*
 * test_sync_wake.c - sync-wake-remote (finding) and sync-wake-local
 * (measurement), one test per clause of the SPEC's definition
 *
 * "waker W (a task, not interrupt context, when the trace says so) wakes
 * T from CPU a; T's destination b != a; W then blocks on a (switch-out
 * with a non-runnable state) within the sync window (default 100 us)
 * after the waking, and at that switch-out nothing but T could run on a
 * (next is the idle task, or T itself).  Cost = T's wakeup latency."
 *
 * Each test feeds a hand-written event sequence (times in us) through the
 * model and every registered analyzer, then reads the findings, the
 * summaries and the JSON report, as a user of the report would.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cJSON.h>

#include "report/report.h"
#include "schedlint/analyzer.h"
#include "schedlint/findings.h"
#include "schedlint/model.h"
#include "schedlint/report.h"

#define US 1000ULL

#define TASK	(SL_CTX_KNOWN)
#define HARDIRQ	(SL_CTX_KNOWN | SL_CTX_HARDIRQ)
#define SOFTIRQ	(SL_CTX_KNOWN | SL_CTX_SOFTIRQ)
#define NMI	(SL_CTX_KNOWN | SL_CTX_NMI | SL_CTX_HARDIRQ)

struct fixture {
	struct sl_config cfg;
	struct sl_trace_info info;
	struct sl_strtab *st;
	struct sl_model *m;
	cJSON *json;
};

static struct fixture fx;

/* A model with every registered analyzer; cfg may be changed before start(). */
static struct fixture *setup(void)
{
	memset(&fx, 0, sizeof(fx));
	sl_config_init(&fx.cfg);
	fx.info.ncpus = 4;
	fx.info.has_waking = SL_YES;
	fx.info.has_wakeup = SL_YES;
	fx.st = sl_strtab_new();
	return &fx;
}

static void start(struct fixture *f)
{
	f->m = sl_model_new(&f->cfg, f->st, &f->info);
}

static void teardown(struct fixture *f)
{
	cJSON_Delete(f->json);
	sl_model_free(f->m);
	sl_strtab_free(f->st);
	/* the config owns the filter arrays a test may have set */
	sl_config_free(&f->cfg);
}

static uint32_t comm_of(struct fixture *f, int pid)
{
	char buf[32];

	if (pid == 0)
		return sl_intern_cstr(f->st, "swapper");
	snprintf(buf, sizeof(buf), "t%d", pid);
	return sl_intern_cstr(f->st, buf);
}

static void feed(struct fixture *f, struct sl_event *ev, const char *name)
{
	ev->name = sl_intern_cstr(f->st, name);
	sl_model_feed(f->m, ev);
}

static void ev_switch(struct fixture *f, uint64_t us, int cpu, int prev, int prev_class, int next)
{
	static const char letters[] = { 'R', 'R', 'S', 'X' };
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = prev, .type = SL_EV_SWITCH,
			       .ctx = TASK };

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	ev.sw.prev_class = (uint8_t)prev_class;
	ev.sw.prev_letter = letters[prev_class];
	ev.sw.prev_comm = comm_of(f, prev);
	ev.sw.next_comm = comm_of(f, next);
	feed(f, &ev, "sched_switch");
}

static void ev_wake(struct fixture *f, int type, uint64_t us, int cpu, int running, int ctx,
		    int pid, int target)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = running, .type = (uint16_t)type,
			       .ctx = (uint8_t)ctx };

	ev.wake.pid = pid;
	ev.wake.prio = 120;
	ev.wake.target_cpu = target;
	ev.wake.comm = comm_of(f, pid);
	ev.wake.success = true;
	feed(f, &ev, type == SL_EV_WAKING ? "sched_waking" : "sched_wakeup");
}

static void waking(struct fixture *f, uint64_t us, int cpu, int waker, int ctx, int pid, int prev_cpu)
{
	ev_wake(f, SL_EV_WAKING, us, cpu, waker, ctx, pid, prev_cpu);
}

/* sched_wakeup logged on cpu by running (the wakelist: the target, in its IPI) */
static void wakeup(struct fixture *f, uint64_t us, int cpu, int running, int pid, int dest)
{
	ev_wake(f, SL_EV_WAKEUP, us, cpu, running, running ? TASK : HARDIRQ, pid, dest);
}

static void ipi_send(struct fixture *f, uint64_t us, int cpu, int running, int target)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = running,
			       .type = SL_EV_IPI_SEND_CPU, .ctx = TASK };

	ev.ipi.target_cpu = target;
	ev.ipi.callsite = sl_intern_cstr(f->st, "ttwu_queue_wakelist");
	ev.ipi.callback = sl_intern_cstr(f->st, "generic_smp_call_function_single_interrupt");
	feed(f, &ev, "ipi_send_cpu");
}

static void lost(struct fixture *f, uint64_t us, int cpu)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = -1, .type = SL_EV_LOST };

	ev.lost.count = 5;
	feed(f, &ev, "lost_events");
}

/* pid ran on cpu and went to sleep there (its state is known: blocked) */
static void sleeper(struct fixture *f, uint64_t us, int cpu, int pid)
{
	ev_switch(f, us, cpu, 0, SL_PREV_RUNNABLE, pid);
	ev_switch(f, us + 1, cpu, pid, SL_PREV_BLOCKED, 0);
}

static void runs(struct fixture *f, uint64_t us, int cpu, int pid)
{
	ev_switch(f, us, cpu, 0, SL_PREV_RUNNABLE, pid);
}

static void finish(struct fixture *f)
{
	sl_model_finish(f->m);
	f->json = sl_report_json(f->m, "test");
}

static uint64_t count_of(struct fixture *f, enum sl_kind k)
{
	return f->m->findings->summary[k].count;
}

static uint64_t cost_of(struct fixture *f, enum sl_kind k)
{
	return f->m->findings->summary[k].cost;
}

/* The report's findings, as --json writes them, of kind sync-wake-remote. */
static int remote_findings(struct fixture *f, cJSON **out, int max)
{
	cJSON *list = cJSON_GetObjectItem(f->json, "findings"), *it;
	int n = 0;

	cJSON_ArrayForEach(it, list) {
		cJSON *kind = cJSON_GetObjectItem(it, "kind");

		if (kind && !strcmp(kind->valuestring, "sync-wake-remote") && n < max)
			out[n++] = it;
	}
	return n;
}

/* A JSON integer: sl_json_add_u64 writes raw digits */
static long long num(cJSON *obj, const char *name)
{
	cJSON *it = cJSON_GetObjectItem(obj, name);

	assert_non_null(it);
	if (cJSON_IsRaw(it))
		return strtoll(it->valuestring, NULL, 10);
	assert_true(cJSON_IsNumber(it));
	return (long long)it->valuedouble;
}

static bool flag(cJSON *obj, const char *name)
{
	cJSON *it = cJSON_GetObjectItem(obj, name);

	assert_non_null(it);
	assert_true(cJSON_IsBool(it));
	return cJSON_IsTrue(it);
}

static cJSON *sync_json(struct fixture *f, const char *side)
{
	cJSON *s = cJSON_GetObjectItem(f->json, "sync_wake");

	assert_non_null(s);
	return side ? cJSON_GetObjectItem(s, side) : s;
}

/*
 * The pipe pattern: W=100 on CPU 0 wakes T=200 (asleep on CPU 1) through
 * the wakelist, sleeps 10 us later, and T runs on CPU 1 after the waker's
 * switch-out.
 */
static void pipe_round(struct fixture *f, int waker_sleep_class)
{
	sleeper(f, 10, 1, 200);
	runs(f, 20, 0, 100);
	waking(f, 30, 0, 100, TASK, 200, 1);
	ipi_send(f, 31, 0, 100, 1);
	ev_switch(f, 40, 0, 100, waker_sleep_class, 0);	/* CPU 0 goes idle */
	wakeup(f, 45, 1, 0, 200, 1);
	runs(f, 50, 1, 200);
}

static void test_remote_waker_sleeps_first(void **state)
{
	struct fixture *f = setup();
	cJSON *fs[4];

	start(f);
	pipe_round(f, SL_PREV_BLOCKED);
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 1);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_LOCAL), 0);
	assert_int_equal(remote_findings(f, fs, 4), 1);
	assert_int_equal(num(fs[0], "ts_ns"), 30 * US);		/* the waking */
	assert_int_equal(num(fs[0], "cpu"), 1);			/* T's destination b */
	assert_int_equal(num(fs[0], "pid"), 200);
	assert_string_equal(cJSON_GetObjectItem(fs[0], "comm")->valuestring, "t200");
	assert_int_equal(num(fs[0], "cost_ns"), 20 * US);		/* 50 - 30 */
	assert_int_equal(num(fs[0], "waker_pid"), 100);
	assert_int_equal(num(fs[0], "waker_cpu"), 0);
	assert_int_equal(num(fs[0], "sleep_after_ns"), 10 * US);
	assert_true(flag(fs[0], "ipi"));
	teardown(f);
}

/* T runs on CPU 1 before W's switch-out reaches the model: same finding */
static void test_remote_wakee_runs_first(void **state)
{
	struct fixture *f = setup();
	cJSON *fs[4];

	start(f);
	sleeper(f, 10, 1, 200);
	runs(f, 20, 0, 100);
	waking(f, 30, 0, 100, TASK, 200, 1);
	ipi_send(f, 31, 0, 100, 1);
	wakeup(f, 33, 1, 0, 200, 1);
	runs(f, 35, 1, 200);
	ev_switch(f, 40, 0, 100, SL_PREV_BLOCKED, 0);
	finish(f);
	assert_int_equal(remote_findings(f, fs, 4), 1);
	assert_int_equal(num(fs[0], "cost_ns"), 5 * US);
	assert_int_equal(num(fs[0], "sleep_after_ns"), 10 * US);
	assert_true(flag(fs[0], "ipi"));
	teardown(f);
}

/* b == a: a measurement (sync-wake-local), not a finding */
static void test_local_is_a_measurement(void **state)
{
	struct fixture *f = setup();
	cJSON *fs[4];

	start(f);
	sleeper(f, 10, 0, 200);
	runs(f, 20, 0, 100);
	waking(f, 30, 0, 100, TASK, 200, 0);
	wakeup(f, 31, 0, 100, 200, 0);
	ev_switch(f, 40, 0, 100, SL_PREV_BLOCKED, 200);	/* T itself is next */
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 0);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_LOCAL), 1);
	assert_int_equal(cost_of(f, SL_KIND_SYNC_WAKE_LOCAL), 10 * US);
	assert_int_equal(remote_findings(f, fs, 4), 0);
	assert_int_equal(num(sync_json(f, "local"), "count"), 1);
	assert_int_equal(num(cJSON_GetObjectItem(sync_json(f, "local"), "latency"), "max_ns"), 10 * US);
	assert_int_equal(num(sync_json(f, "remote"), "count"), 0);
	teardown(f);
}

/* Switched out runnable (preempted or yielding): it did not block */
static void test_waker_keeps_running(void **state)
{
	struct fixture *f = setup();

	start(f);
	pipe_round(f, SL_PREV_PREEMPTED);
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 0);
	teardown(f);

	f = setup();
	start(f);
	pipe_round(f, SL_PREV_RUNNABLE);
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 0);
	teardown(f);
}

/* An exit right after the wakeup (a child waking its parent) is a non-runnable switch-out */
static void test_waker_exits(void **state)
{
	struct fixture *f = setup();

	start(f);
	pipe_round(f, SL_PREV_DEAD);
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 1);
	teardown(f);
}

/* W sleeps sleep_ns after its waking at 30 us */
static void window_case_ns(struct fixture *f, uint64_t sleep_ns)
{
	struct sl_event ev = { .ts = 30 * US + sleep_ns, .cpu = 0, .pid = 100,
			       .type = SL_EV_SWITCH, .ctx = TASK };

	start(f);
	sleeper(f, 10, 1, 200);
	runs(f, 20, 0, 100);
	waking(f, 30, 0, 100, TASK, 200, 1);
	ipi_send(f, 31, 0, 100, 1);
	wakeup(f, 45, 1, 0, 200, 1);
	runs(f, 50, 1, 200);
	ev.sw.prev_pid = 100;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	ev.sw.prev_class = SL_PREV_BLOCKED;
	ev.sw.prev_letter = 'S';
	ev.sw.prev_comm = comm_of(f, 100);
	ev.sw.next_comm = comm_of(f, 0);
	feed(f, &ev, "sched_switch");
	finish(f);
}

static void window_case(struct fixture *f, uint64_t sleep_us)
{
	start(f);
	sleeper(f, 10, 1, 200);
	runs(f, 20, 0, 100);
	waking(f, 30, 0, 100, TASK, 200, 1);
	ipi_send(f, 31, 0, 100, 1);
	wakeup(f, 45, 1, 0, 200, 1);
	runs(f, 50, 1, 200);
	ev_switch(f, 30 + sleep_us, 0, 100, SL_PREV_BLOCKED, 0);
	finish(f);
}

/* within the window: at most sync_window after the waking, inclusive */
static void test_window(void **state)
{
	struct fixture *f = setup();

	window_case(f, 100);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 1);
	teardown(f);

	f = setup();
	window_case(f, 101);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 0);
	teardown(f);

	/* compared at the us, as text traces give it: 100.4 us is in, 100.5 out */
	f = setup();
	window_case_ns(f, 100 * US + 499);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 1);
	teardown(f);

	f = setup();
	window_case_ns(f, 100 * US + 500);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 0);
	teardown(f);

	f = setup();
	f->cfg.sync_window_ns = 200 * US;		/* --sync-window 200us */
	window_case(f, 150);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 1);
	assert_int_equal(num(sync_json(f, NULL), "window_ns"), 200 * US);
	teardown(f);
}

/* another task queued on a runs when W sleeps */
static void test_other_task_runs_next(void **state)
{
	struct fixture *f = setup();

	start(f);
	sleeper(f, 10, 1, 200);
	runs(f, 15, 0, 300);
	ev_switch(f, 20, 0, 300, SL_PREV_PREEMPTED, 100);	/* 300 waits on CPU 0 */
	waking(f, 30, 0, 100, TASK, 200, 1);
	ipi_send(f, 31, 0, 100, 1);
	ev_switch(f, 40, 0, 100, SL_PREV_BLOCKED, 300);
	wakeup(f, 45, 1, 0, 200, 1);
	runs(f, 50, 1, 200);
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 0);
	teardown(f);
}

/* next is the idle task, but a wakeup is pending on a: a is not going idle */
static void test_wakeup_pending_on_waker_cpu(void **state)
{
	struct fixture *f = setup();

	start(f);
	sleeper(f, 10, 1, 200);
	sleeper(f, 12, 0, 400);
	runs(f, 20, 0, 100);
	runs(f, 21, 2, 500);
	waking(f, 29, 2, 500, TASK, 400, 0);		/* 400 placed on CPU 0 ... */
	ipi_send(f, 29, 2, 500, 0);			/* ... pending until its IPI lands */
	waking(f, 30, 0, 100, TASK, 200, 1);
	ipi_send(f, 31, 0, 100, 1);
	ev_switch(f, 40, 0, 100, SL_PREV_BLOCKED, 0);
	wakeup(f, 45, 1, 0, 200, 1);
	runs(f, 50, 1, 200);
	wakeup(f, 60, 0, 0, 400, 0);
	runs(f, 61, 0, 400);
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 0);
	teardown(f);
}

static int interrupt_case(int ctx, int waker)
{
	struct fixture *f = setup();
	int n;

	start(f);
	sleeper(f, 10, 1, 200);
	runs(f, 20, 0, waker);
	waking(f, 30, 0, waker, ctx, 200, 1);
	ipi_send(f, 31, 0, waker, 1);
	ev_switch(f, 40, 0, waker, SL_PREV_BLOCKED, 0);
	wakeup(f, 45, 1, 0, 200, 1);
	runs(f, 50, 1, 200);
	finish(f);
	n = (int)count_of(f, SL_KIND_SYNC_WAKE_REMOTE);
	teardown(f);
	return n;
}

/* the waker must be a task, not an interrupt that came while W ran */
static void test_waker_context(void **state)
{
	assert_int_equal(interrupt_case(SOFTIRQ, 100), 0);
	assert_int_equal(interrupt_case(HARDIRQ, 100), 0);
	assert_int_equal(interrupt_case(NMI, 100), 0);
	/* the input does not tell (no irq-info): taken as task context */
	assert_int_equal(interrupt_case(0, 100), 1);
	assert_int_equal(interrupt_case(TASK, 100), 1);
}

/* a local wakeup from a hardirq is not sync-wake-local either */
static void test_local_from_interrupt(void **state)
{
	struct fixture *f = setup();

	start(f);
	sleeper(f, 10, 0, 200);
	runs(f, 20, 0, 100);
	waking(f, 30, 0, 100, HARDIRQ, 200, 0);
	wakeup(f, 31, 0, 100, 200, 0);
	ev_switch(f, 40, 0, 100, SL_PREV_BLOCKED, 200);
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_LOCAL), 0);
	teardown(f);
}

/* a switch-out the trace does not show (implied) says nothing about how W left */
static void test_implied_switch_out(void **state)
{
	struct fixture *f = setup();

	start(f);
	sleeper(f, 10, 1, 200);
	runs(f, 20, 0, 100);
	waking(f, 30, 0, 100, TASK, 200, 1);
	ipi_send(f, 31, 0, 100, 1);
	wakeup(f, 45, 1, 0, 200, 1);
	runs(f, 50, 1, 200);
	waking(f, 60, 0, 300, TASK, 200, 1);		/* 300 runs on CPU 0 now */
	finish(f);
	assert_int_equal(f->m->implied_switches, 1);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 0);
	teardown(f);
}

/* lost events on a between the waking and the switch-out: no verdict */
static void test_lost_events_on_waker_cpu(void **state)
{
	struct fixture *f = setup();

	start(f);
	sleeper(f, 10, 1, 200);
	runs(f, 20, 0, 100);
	waking(f, 30, 0, 100, TASK, 200, 1);
	ipi_send(f, 31, 0, 100, 1);
	lost(f, 35, 0);
	ev_switch(f, 40, 0, 100, SL_PREV_BLOCKED, 0);
	wakeup(f, 45, 1, 0, 200, 1);
	runs(f, 50, 1, 200);
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 0);
	teardown(f);
}

/* a direct remote wakeup (no IPI) is still the pattern: ipi false */
static void test_remote_without_ipi(void **state)
{
	struct fixture *f = setup();
	cJSON *fs[4];

	start(f);
	sleeper(f, 10, 1, 200);
	runs(f, 20, 0, 100);
	runs(f, 21, 1, 300);				/* CPU 1 busy: direct enqueue */
	waking(f, 30, 0, 100, TASK, 200, 1);
	wakeup(f, 31, 0, 100, 200, 1);
	ev_switch(f, 40, 0, 100, SL_PREV_BLOCKED, 0);
	ev_switch(f, 70, 1, 300, SL_PREV_BLOCKED, 200);
	finish(f);
	assert_int_equal(remote_findings(f, fs, 4), 1);
	assert_false(flag(fs[0], "ipi"));
	assert_int_equal(num(fs[0], "cost_ns"), 40 * US);
	teardown(f);
}

/* the destination comes from a migrate during the wakeup (SPEC rule 2) */
static void test_remote_by_migration(void **state)
{
	struct fixture *f = setup();
	struct sl_event ev = { .ts = 31 * US, .cpu = 0, .pid = 100, .type = SL_EV_MIGRATE,
			       .ctx = TASK };
	cJSON *fs[4];

	start(f);
	sleeper(f, 10, 0, 200);				/* T last ran on the waker's CPU */
	runs(f, 20, 0, 100);
	waking(f, 30, 0, 100, TASK, 200, 0);
	ev.migrate.pid = 200;
	ev.migrate.prio = 120;
	ev.migrate.orig_cpu = 0;
	ev.migrate.dest_cpu = 3;
	ev.migrate.comm = comm_of(f, 200);
	feed(f, &ev, "sched_migrate_task");
	ipi_send(f, 32, 0, 100, 3);
	ev_switch(f, 40, 0, 100, SL_PREV_BLOCKED, 0);
	wakeup(f, 45, 3, 0, 200, 3);
	runs(f, 50, 3, 200);
	finish(f);
	assert_int_equal(remote_findings(f, fs, 4), 1);
	assert_int_equal(num(fs[0], "cpu"), 3);
	assert_int_equal(num(fs[0], "waker_cpu"), 0);
	teardown(f);
}

/* W wakes two tasks elsewhere, then sleeps with nothing left on a: both count */
static void test_two_wakees(void **state)
{
	struct fixture *f = setup();

	start(f);
	sleeper(f, 10, 1, 200);
	sleeper(f, 12, 2, 201);
	runs(f, 20, 0, 100);
	waking(f, 30, 0, 100, TASK, 200, 1);
	ipi_send(f, 31, 0, 100, 1);
	waking(f, 32, 0, 100, TASK, 201, 2);
	ipi_send(f, 33, 0, 100, 2);
	ev_switch(f, 40, 0, 100, SL_PREV_BLOCKED, 0);
	wakeup(f, 45, 1, 0, 200, 1);
	runs(f, 50, 1, 200);
	wakeup(f, 46, 2, 0, 201, 2);
	runs(f, 52, 2, 201);
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 2);
	assert_int_equal(cost_of(f, SL_KIND_SYNC_WAKE_REMOTE), 20 * US + 20 * US);
	teardown(f);
}

/*
 * W wakes T twice before it sleeps: T runs on CPU 1 and sleeps again
 * between the two wakings (pipe.dat shows it when a tick delays W).  Both
 * wakings are followed by W's block within the window with CPU 0 left
 * idle: two findings, each with its own latency (SPEC: "W then blocks on
 * a within the sync window after the waking").
 */
static void test_woken_twice_before_the_sleep(void **state)
{
	struct fixture *f = setup();
	cJSON *fs[4];

	start(f);
	sleeper(f, 10, 1, 200);
	runs(f, 20, 0, 100);
	waking(f, 30, 0, 100, TASK, 200, 1);
	ipi_send(f, 31, 0, 100, 1);
	wakeup(f, 33, 1, 0, 200, 1);
	runs(f, 37, 1, 200);				/* latency 7 us */
	ev_switch(f, 50, 1, 200, SL_PREV_BLOCKED, 0);
	waking(f, 90, 0, 100, TASK, 200, 1);
	ipi_send(f, 91, 0, 100, 1);
	ev_switch(f, 100, 0, 100, SL_PREV_BLOCKED, 0);	/* 70 us after the first */
	wakeup(f, 105, 1, 0, 200, 1);
	runs(f, 110, 1, 200);				/* latency 20 us */
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 2);
	assert_int_equal(cost_of(f, SL_KIND_SYNC_WAKE_REMOTE), 7 * US + 20 * US);
	assert_int_equal(remote_findings(f, fs, 4), 2);
	for (int i = 0; i < 2; i++) {
		bool first = num(fs[i], "ts_ns") == 30 * US;

		assert_int_equal(num(fs[i], "ts_ns"), first ? 30 * US : 90 * US);
		assert_int_equal(num(fs[i], "cost_ns"), first ? 7 * US : 20 * US);
		assert_int_equal(num(fs[i], "sleep_after_ns"), first ? 70 * US : 10 * US);
		assert_true(flag(fs[i], "ipi"));
	}
	assert_int_not_equal(num(fs[0], "ts_ns"), num(fs[1], "ts_ns"));
	teardown(f);

	/* the same, but W sleeps 110 us after the first waking: only the second */
	f = setup();
	start(f);
	sleeper(f, 10, 1, 200);
	runs(f, 20, 0, 100);
	waking(f, 30, 0, 100, TASK, 200, 1);
	wakeup(f, 33, 1, 0, 200, 1);
	runs(f, 37, 1, 200);
	ev_switch(f, 50, 1, 200, SL_PREV_BLOCKED, 0);
	waking(f, 130, 0, 100, TASK, 200, 1);
	ev_switch(f, 140, 0, 100, SL_PREV_BLOCKED, 0);
	wakeup(f, 145, 1, 0, 200, 1);
	runs(f, 150, 1, 200);
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 1);
	assert_int_equal(cost_of(f, SL_KIND_SYNC_WAKE_REMOTE), 20 * US);
	teardown(f);
}

/* no switch-in before the end: no latency, no cost, no finding */
static void test_wakee_never_runs(void **state)
{
	struct fixture *f = setup();

	start(f);
	sleeper(f, 10, 1, 200);
	runs(f, 20, 0, 100);
	waking(f, 30, 0, 100, TASK, 200, 1);
	ipi_send(f, 31, 0, 100, 1);
	ev_switch(f, 40, 0, 100, SL_PREV_BLOCKED, 0);
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 0);
	teardown(f);
}

/* --pid: the findings and measurements of other tasks are not counted */
static void test_filter(void **state)
{
	struct fixture *f = setup();

	f->cfg.pids = calloc(1, sizeof(*f->cfg.pids));
	f->cfg.pids[0] = 999;
	f->cfg.nr_pids = 1;
	start(f);
	pipe_round(f, SL_PREV_BLOCKED);
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 0);
	assert_int_equal(num(sync_json(f, "remote"), "count"), 0);
	teardown(f);
}

/*
 * Ten round trips between CPU 0 and 1 (T=200 and W=100 wake each other),
 * then three local ones: the pair is named with its counts, and the
 * remote/local comparison says 10 vs 3.
 */
static void test_pairs_and_share(void **state)
{
	struct fixture *f = setup();
	cJSON *pairs, *p, *tasks;
	uint64_t t = 100;

	start(f);
	sleeper(f, 10, 1, 200);
	runs(f, 20, 0, 100);
	for (int i = 0; i < 10; i++, t += 100) {
		int w = i % 2 ? 200 : 100, wk = i % 2 ? 100 : 200;
		int a = i % 2, b = !a;

		waking(f, t, a, w, TASK, wk, b);
		ipi_send(f, t + 1, a, w, b);
		ev_switch(f, t + 10, a, w, SL_PREV_BLOCKED, 0);
		wakeup(f, t + 15, b, 0, wk, b);
		runs(f, t + 20, b, wk);
	}
	/* 100 runs on CPU 0 now (the last round woke it); 200 joins it there */
	for (int i = 0; i < 3; i++, t += 100) {
		int w = i % 2 ? 200 : 100, wk = i % 2 ? 100 : 200;
		struct sl_event ev = { .ts = (t - 5) * US, .cpu = 0, .pid = w, .type = SL_EV_MIGRATE };

		if (i == 0) {
			ev.migrate.pid = wk;
			ev.migrate.prio = 120;
			ev.migrate.orig_cpu = 1;
			ev.migrate.dest_cpu = 0;
			ev.migrate.comm = comm_of(f, wk);
			feed(f, &ev, "sched_migrate_task");	/* 200 is asleep: moved to 0 */
		}
		waking(f, t, 0, w, TASK, wk, 0);
		wakeup(f, t + 1, 0, w, wk, 0);
		ev_switch(f, t + 10, 0, w, SL_PREV_BLOCKED, wk);
	}
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 10);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_LOCAL), 3);
	assert_int_equal(num(sync_json(f, "remote"), "count"), 10);
	assert_int_equal(num(sync_json(f, "local"), "count"), 3);
	assert_true(cJSON_GetObjectItem(sync_json(f, "remote"), "share")->valuedouble > 0.76);
	assert_true(cJSON_GetObjectItem(sync_json(f, "remote"), "share")->valuedouble < 0.77);
	pairs = cJSON_GetObjectItem(sync_json(f, NULL), "pairs");
	assert_int_equal(cJSON_GetArraySize(pairs), 1);
	p = cJSON_GetArrayItem(pairs, 0);
	tasks = cJSON_GetObjectItem(p, "tasks");
	assert_int_equal(num(cJSON_GetArrayItem(tasks, 0), "pid"), 100);
	assert_int_equal(num(cJSON_GetArrayItem(tasks, 1), "pid"), 200);
	assert_int_equal(num(p, "remote"), 10);
	assert_int_equal(num(p, "local"), 3);
	assert_int_equal(num(p, "cost_ns"), 10 * 20 * US);
	teardown(f);
}

/* Many pairs: the table stays bounded and the heaviest pair is still named first. */
static void test_pairs_bounded(void **state)
{
	struct fixture *f = setup();
	cJSON *pairs;
	uint64_t t = 100;

	start(f);
	/* 1000 one-off pairs (waker 1000+i wakes 5000+i) and one pair 20 times */
	for (int i = 0; i < 1020; i++, t += 100) {
		int w = i < 1000 ? 1000 + i : 100, wk = i < 1000 ? 5000 + i : 200;

		sleeper(f, t, 1, wk);
		runs(f, t + 2, 0, w);
		waking(f, t + 10, 0, w, TASK, wk, 1);
		ipi_send(f, t + 11, 0, w, 1);
		ev_switch(f, t + 20, 0, w, SL_PREV_BLOCKED, 0);
		wakeup(f, t + 25, 1, 0, wk, 1);
		runs(f, t + 30, 1, wk);
		ev_switch(f, t + 40, 1, wk, SL_PREV_BLOCKED, 0);
	}
	finish(f);
	assert_int_equal(count_of(f, SL_KIND_SYNC_WAKE_REMOTE), 1020);
	pairs = cJSON_GetObjectItem(sync_json(f, NULL), "pairs");
	assert_true(cJSON_GetArraySize(pairs) <= 64);
	assert_int_equal(num(cJSON_GetArrayItem(pairs, 0), "remote"), 20);
	teardown(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remote_waker_sleeps_first),
		cmocka_unit_test(test_remote_wakee_runs_first),
		cmocka_unit_test(test_local_is_a_measurement),
		cmocka_unit_test(test_waker_keeps_running),
		cmocka_unit_test(test_waker_exits),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_other_task_runs_next),
		cmocka_unit_test(test_wakeup_pending_on_waker_cpu),
		cmocka_unit_test(test_waker_context),
		cmocka_unit_test(test_local_from_interrupt),
		cmocka_unit_test(test_implied_switch_out),
		cmocka_unit_test(test_lost_events_on_waker_cpu),
		cmocka_unit_test(test_remote_without_ipi),
		cmocka_unit_test(test_remote_by_migration),
		cmocka_unit_test(test_two_wakees),
		cmocka_unit_test(test_woken_twice_before_the_sleep),
		cmocka_unit_test(test_wakee_never_runs),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_pairs_and_share),
		cmocka_unit_test(test_pairs_bounded),
	};
	return cmocka_run_group_tests_name("sync_wake", tests, NULL, NULL);
}
