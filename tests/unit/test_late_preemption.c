// SPDX-License-Identifier: GPL-2.0
/*
 * test_late_preemption.c - late-preemption and tick inference, fed event by event
 *
 * Each test writes a short event sequence, runs it through the model and
 * its analyzers, and checks the JSON report against numbers computed by
 * hand from SPEC.md "late-preemption" (the computation is in the comment
 * next to each expected value).  Weights: nice -10 = 9548, nice -5 = 3121,
 * nice 0 = 1024, nice 5 = 335.  Base slice: 0.75 ms x (1 + ilog2(ncpus)):
 * 1.5 ms on 2 CPUs, 3 ms on 8.  CFS on 2 CPUs: latency 12 ms, min_gran
 * 1.5 ms, sched_nr_latency 8.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "report/report.h"
#include "schedlint/analyzer.h"
#include "schedlint/model.h"
#include "schedlint/report.h"

#define US 1000ULL
#define MS 1000000ULL

struct lp_test {
	struct sl_config cfg;
	struct sl_trace_info info;
	struct sl_strtab *st;
	struct sl_model *m;
	cJSON *report;		/* parsed back: numbers as doubles, exact below 2^53 */
};

static struct lp_test T;

/* Defaults for a test: tweak T.cfg / T.info, then start(). */
static void prepare(int ncpus)
{
	memset(&T, 0, sizeof(T));
	sl_config_init(&T.cfg);
	T.info.ncpus = ncpus;
	T.info.has_waking = SL_YES;
	T.info.has_wakeup = SL_YES;
	snprintf(T.info.kernel, sizeof(T.info.kernel), "6.18.0");
}

static void start(void)
{
	T.st = sl_strtab_new();
	T.m = sl_model_new(&T.cfg, T.st, &T.info);
}

static void finish(void)
{
	cJSON *raw;
	char *text;

	sl_model_finish(T.m);
	raw = sl_report_json(T.m, "test");
	text = cJSON_PrintUnformatted(raw);
	T.report = cJSON_Parse(text);
	assert_non_null(T.report);
	free(text);
	cJSON_Delete(raw);
}

static void cleanup(void)
{
	cJSON_Delete(T.report);
	sl_model_free(T.m);
	sl_strtab_free(T.st);
	sl_config_free(&T.cfg);
}

static uint32_t str(const char *s)
{
	return sl_intern_cstr(T.st, s);
}

/* --- events (times in ns; common_pid -1 unless the test needs it) --- */

static void ev_switch(uint64_t ts, int cpu, int prev, int prev_prio, int prev_class, int next, int next_prio)
{
	struct sl_event ev = { .ts = ts, .cpu = cpu, .pid = prev, .type = SL_EV_SWITCH,
			       .name = str("sched_switch") };

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_prio = prev_prio;
	ev.sw.next_prio = next_prio;
	ev.sw.prev_class = (uint8_t)prev_class;
	ev.sw.prev_letter = prev_class == SL_PREV_BLOCKED ? 'S' : 'R';
	ev.sw.prev_comm = str(prev ? "task" : "swapper");
	ev.sw.next_comm = str(next ? "task" : "swapper");
	sl_model_feed(T.m, &ev);
}

static void ev_wake(int type, uint64_t ts, int cpu, int common_pid, int pid, int prio, int target)
{
	struct sl_event ev = { .ts = ts, .cpu = cpu, .pid = common_pid, .type = (uint16_t)type,
			       .name = str(type == SL_EV_WAKING ? "sched_waking" :
					   type == SL_EV_WAKEUP ? "sched_wakeup" : "sched_wakeup_new") };

	ev.wake.pid = pid;
	ev.wake.prio = prio;
	ev.wake.target_cpu = target;
	ev.wake.comm = str("task");
	ev.wake.success = true;
	sl_model_feed(T.m, &ev);
}

/* A new task queued on cpu (its sched_wakeup_new, logged on that CPU). */
static void new_task(uint64_t ts, int cpu, int pid, int prio)
{
	ev_wake(SL_EV_WAKEUP_NEW, ts, cpu, -1, pid, prio, cpu);
}

static void ev_migrate(uint64_t ts, int cpu, int pid, int from, int to)
{
	struct sl_event ev = { .ts = ts, .cpu = cpu, .pid = -1, .type = SL_EV_MIGRATE,
			       .name = str("sched_migrate_task") };

	ev.migrate.pid = pid;
	ev.migrate.prio = 120;
	ev.migrate.orig_cpu = from;
	ev.migrate.dest_cpu = to;
	ev.migrate.comm = str("task");
	sl_model_feed(T.m, &ev);
}

static void ev_timer(uint64_t ts, int cpu)
{
	struct sl_event ev = { .ts = ts, .cpu = cpu, .pid = -1, .type = SL_EV_TIMER_TICK,
			       .name = str("local_timer_entry") };

	ev.irq.vector = 236;
	sl_model_feed(T.m, &ev);
}

static void ev_lost(uint64_t ts, int cpu)
{
	struct sl_event ev = { .ts = ts, .cpu = cpu, .pid = -1, .type = SL_EV_LOST,
			       .name = str("lost_events") };

	ev.lost.count = 10;
	sl_model_feed(T.m, &ev);
}

/* --- the report --- */

static cJSON *get(cJSON *o, const char *path)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
		o = cJSON_GetObjectItemCaseSensitive(o, k);
	return o;
}

static int64_t num(cJSON *o, const char *path)
{
	cJSON *v = get(o, path);

	if (!cJSON_IsNumber(v))
		fail_msg("%s: not a number", path);
	return (int64_t)v->valuedouble;
}

/* late-preemption, or one of the runs it set apart as late-preemption-at-tick */
static bool is_late_run(cJSON *f)
{
	return !strcmp(get(f, "kind")->valuestring, "late-preemption") ||
	       !strcmp(get(f, "kind")->valuestring, "late-preemption-at-tick");
}

/* The late runs' findings: both kinds */
static int nr_findings(void)
{
	int n = 0;
	cJSON *f;

	cJSON_ArrayForEach(f, get(T.report, "findings"))
		n += is_late_run(f);
	return n;
}

/* The late-preemption finding at ts, or a test failure. */
static cJSON *finding_at(uint64_t ts)
{
	cJSON *f;

	cJSON_ArrayForEach(f, get(T.report, "findings"))
		if (is_late_run(f) && (uint64_t)num(f, "ts_ns") == ts)
			return f;
	fail_msg("no late-preemption finding at %llu", (unsigned long long)ts);
	return NULL;
}

static cJSON *lp(void)
{
	return get(T.report, "late_preemption");
}

static cJSON *cpu_entry(int cpu)
{
	cJSON *c;

	cJSON_ArrayForEach(c, get(lp(), "cpus"))
		if (num(c, "cpu") == cpu)
			return c;
	fail_msg("no cpus[] entry for cpu %d", cpu);
	return NULL;
}

static cJSON *task_entry(int pid)
{
	cJSON *t;

	cJSON_ArrayForEach(t, get(lp(), "tasks"))
		if (num(t, "pid") == pid)
			return t;
	fail_msg("no tasks[] entry for pid %d", pid);
	return NULL;
}

/* --- scenes --- */

/*
 * Two nice-0 tasks take turns on cpu, 10 ms each, from 10 us: 401 runs,
 * 402 (queued at 1 us) waits; 401 preempted by 402 at 10.01 ms, 402 by
 * 401 at 20.01 ms; 401 sleeps at 30.01 ms with 402 queued.
 */
static void equal_pair(int cpu, int prio_a, int prio_b)
{
	new_task(0, cpu, 401, prio_a);
	new_task(1 * US, cpu, 402, prio_b);
	ev_switch(10 * US, cpu, 0, 120, SL_PREV_RUNNABLE, 401, prio_a);
	ev_switch(10010 * US, cpu, 401, prio_a, SL_PREV_PREEMPTED, 402, prio_b);
	ev_switch(20010 * US, cpu, 402, prio_b, SL_PREV_PREEMPTED, 401, prio_a);
	ev_switch(30010 * US, cpu, 401, prio_a, SL_PREV_BLOCKED, 402, prio_b);
}

/* SPEC acceptance 1: 8 CPUs, equal weights, 10 ms runs: cost 10 - 3 ms each. */
static void test_eevdf_equal_weights(void **state)
{
	cJSON *f;

	prepare(8);
	start();
	equal_pair(4, 120, 120);
	finish();

	assert_int_equal(nr_findings(), 3);
	f = finding_at(10010 * US);
	assert_int_equal(num(f, "cpu"), 4);
	assert_int_equal(num(f, "pid"), 401);
	assert_int_equal(num(f, "cost_ns"), 7 * MS);		/* 10 ms - 3 ms */
	assert_int_equal(num(f, "ran_ns"), 10 * MS);
	assert_int_equal(num(f, "expected_ns"), 3 * MS);
	assert_int_equal(num(f, "slice_ns"), 3 * MS);
	assert_int_equal(num(f, "start_ns"), 10 * US);
	assert_int_equal(num(f, "contended_since_ns"), 10 * US);	/* queued before t0 */
	assert_int_equal(num(f, "nr_waiting"), 1);
	assert_int_equal(cJSON_GetArraySize(get(f, "waiting")), 1);
	assert_int_equal(cJSON_GetArrayItem(get(f, "waiting"), 0)->valueint, 402);
	assert_int_equal(num(f, "max_wait_ns"), 10009 * US);	/* 402 queued 1 us .. 10.01 ms */
	f = finding_at(20010 * US);
	assert_int_equal(num(f, "pid"), 402);
	assert_int_equal(num(f, "max_wait_ns"), 10 * MS);
	f = finding_at(30010 * US);				/* a run ending in sleep counts too */
	assert_int_equal(num(f, "pid"), 401);
	assert_int_equal(num(f, "cost_ns"), 7 * MS);
	assert_int_equal(num(f, "max_wait_ns"), 10 * MS);	/* 402 still queued at t1 */

	assert_string_equal(get(lp(), "model")->valuestring, "eevdf");
	assert_int_equal(num(lp(), "base_slice_ns"), 3 * MS);
	assert_int_equal(num(lp(), "runs"), 3);
	assert_int_equal(num(lp(), "late"), 3);
	assert_int_equal(num(cpu_entry(4), "cost_ns"), 21 * MS);
	assert_int_equal(num(task_entry(401), "late"), 2);
	assert_int_equal(num(task_entry(401), "delayed"), 1);
	/* 401 waited 10.01 .. 20.01 ms; 402's run was expected to end at 13.01 ms */
	assert_int_equal(num(task_entry(401), "delayed_ns"), 7 * MS);
	assert_int_equal(num(T.report, "summary.late-preemption.count"), 3);
	assert_int_equal(num(T.report, "config.base_slice_ns"), 3 * MS);
	assert_string_equal(get(T.report, "config.slice_model")->valuestring, "eevdf");
	cleanup();
}

/* --base-slice replaces the CPU-count default. */
static void test_eevdf_base_slice_option(void **state)
{
	prepare(8);
	T.cfg.base_slice_ns = 2 * MS;
	start();
	equal_pair(4, 120, 120);
	finish();
	assert_int_equal(nr_findings(), 3);
	assert_int_equal(num(finding_at(10010 * US), "cost_ns"), 8 * MS);	/* 10 - 2 */
	assert_int_equal(num(T.report, "config.base_slice_ns"), 2 * MS);
	cleanup();
}

/*
 * SPEC acceptance 2: nice 0 (1024) runs while nice 5 (335) waits: slice =
 * 3 ms x 1024 / 335 = 9170149 ns, so a 10 ms run is 829851 ns late: under
 * the 1 ms tolerance.  The nice-5 task's runs get the plain 3 ms.
 */
static void test_eevdf_weight_ratio(void **state)
{
	prepare(8);
	start();
	equal_pair(0, 120, 125);
	finish();
	assert_int_equal(nr_findings(), 1);
	assert_int_equal(num(finding_at(20010 * US), "pid"), 402);
	assert_int_equal(num(finding_at(20010 * US), "slice_ns"), 3 * MS);	/* max(1, 335/1024) */
	assert_int_equal(num(finding_at(20010 * US), "cost_ns"), 7 * MS);
	assert_int_equal(num(lp(), "runs"), 3);
	cleanup();

	prepare(8);
	T.cfg.tolerance_ns = 500 * US;
	start();
	equal_pair(0, 120, 125);
	finish();
	assert_int_equal(nr_findings(), 3);
	assert_int_equal(num(finding_at(10010 * US), "slice_ns"), 9170149);
	assert_int_equal(num(finding_at(10010 * US), "expected_ns"), 9170149);
	assert_int_equal(num(finding_at(10010 * US), "cost_ns"), 829851);
	assert_int_equal(num(finding_at(30010 * US), "cost_ns"), 829851);
	cleanup();
}

/*
 * The max weight is over every waiter of the run: R nice -5 (3121) with a
 * nice-0 waiter alone would get 3 ms x 3121 / 1024 = 9143554 ns, but a
 * nice -10 (9548) waiter joins at 2 ms, so the slice is 3 ms: a 9 ms run
 * is 6 ms late.
 */
static void test_eevdf_max_weight_over_run(void **state)
{
	cJSON *f;

	prepare(8);
	start();
	new_task(0, 0, 601, 115);
	new_task(1 * US, 0, 602, 120);
	ev_switch(10 * US, 0, 0, 120, SL_PREV_RUNNABLE, 601, 115);
	new_task(2010 * US, 0, 603, 110);
	ev_switch(9010 * US, 0, 601, 115, SL_PREV_PREEMPTED, 603, 110);
	finish();
	assert_int_equal(nr_findings(), 1);
	f = finding_at(9010 * US);
	assert_int_equal(num(f, "slice_ns"), 3 * MS);
	assert_int_equal(num(f, "cost_ns"), 6 * MS);
	assert_int_equal(num(f, "nr_waiting"), 2);
	assert_int_equal(cJSON_GetArrayItem(get(f, "waiting"), 0)->valueint, 602);
	assert_int_equal(cJSON_GetArrayItem(get(f, "waiting"), 1)->valueint, 603);
	cleanup();
}

/* CFS, n runnable on cpu 0 of 2: R (prio_r) runs 10 ms from 10 us with the others queued. */
static void cfs_run(const int *prios, int n)
{
	prepare(2);
	T.cfg.slice_model = SL_SLICE_CFS;
	T.cfg.slice_model_set = true;
	start();
	for (int i = 0; i < n; i++)
		new_task(i * US, 0, 700 + i, prios[i]);
	ev_switch(10 * US, 0, 0, 120, SL_PREV_RUNNABLE, 700, prios[0]);
	ev_switch(10010 * US, 0, 700, prios[0], SL_PREV_PREEMPTED, 701, prios[1]);
	finish();
	assert_string_equal(get(lp(), "model")->valuestring, "cfs");
	assert_int_equal(num(lp(), "latency_ns"), 12 * MS);
	assert_int_equal(num(lp(), "min_granularity_ns"), 1500 * US);
}

/* SPEC acceptance 3: CFS with 2, 4 and 9 runnable tasks. */
static void test_cfs_two(void **state)
{
	static const int prios[] = { 120, 120 };

	cfs_run(prios, 2);
	/* period max(12, 2 x 1.5) = 12 ms; 12 x 1024 / 2048 = 6 ms */
	assert_int_equal(num(finding_at(10010 * US), "slice_ns"), 6 * MS);
	assert_int_equal(num(finding_at(10010 * US), "cost_ns"), 4 * MS);
	assert_string_equal(get(T.report, "config.slice_model")->valuestring, "cfs");
	cleanup();
}

static void test_cfs_four_with_nice(void **state)
{
	static const int prios[] = { 120, 120, 125, 115 };

	cfs_run(prios, 4);
	/* sum 1024 + 1024 + 335 + 3121 = 5504; 12 ms x 1024 / 5504 = 2232558 */
	assert_int_equal(num(finding_at(10010 * US), "slice_ns"), 2232558);
	assert_int_equal(num(finding_at(10010 * US), "cost_ns"), 7767442);
	assert_int_equal(num(finding_at(10010 * US), "nr_waiting"), 3);
	cleanup();
}

static void test_cfs_nine_period_stretch(void **state)
{
	static const int heavy[] = { 115, 120, 120, 120, 120, 120, 120, 120, 120 };
	static const int light[] = { 120, 115, 120, 120, 120, 120, 120, 120, 120 };

	/* n = 9 > sched_nr_latency: period 9 x 1.5 = 13.5 ms; sum 3121 + 8 x 1024 = 11313 */
	cfs_run(heavy, 9);
	/* 13.5 ms x 3121 / 11313 = 3724343 (12 ms, unstretched, would give 3310527) */
	assert_int_equal(num(finding_at(10010 * US), "slice_ns"), 3724343);
	assert_int_equal(num(finding_at(10010 * US), "cost_ns"), 6275657);
	cleanup();
	cfs_run(light, 9);
	/* 13.5 ms x 1024 / 11313 = 1221957 < min_gran: 1.5 ms */
	assert_int_equal(num(finding_at(10010 * US), "slice_ns"), 1500 * US);
	assert_int_equal(num(finding_at(10010 * US), "cost_ns"), 8500 * US);
	cleanup();
}

/*
 * A waiter arriving after R used its slice: CFS expects the switch at the
 * arrival (max(t0 + 6 ms, tc)), EEVDF a slice after it (tc + 1.5 ms).
 * R runs alone from 10 us; the waiter comes at 10.01 ms; switch at 12.51.
 */
static void late_waiter(enum sl_slice_model model)
{
	prepare(2);
	T.cfg.slice_model = model;
	T.cfg.slice_model_set = true;
	start();
	new_task(0, 0, 801, 120);
	ev_switch(10 * US, 0, 0, 120, SL_PREV_RUNNABLE, 801, 120);
	new_task(10010 * US, 0, 802, 120);
	ev_switch(12510 * US, 0, 801, 120, SL_PREV_PREEMPTED, 802, 120);
	finish();
}

static void test_waiter_after_the_slice(void **state)
{
	late_waiter(SL_SLICE_CFS);
	assert_int_equal(nr_findings(), 1);
	assert_int_equal(num(finding_at(12510 * US), "cost_ns"), 2500 * US);	/* 12.51 - 10.01 */
	assert_int_equal(num(finding_at(12510 * US), "expected_ns"), 10 * MS);	/* 10.01 - 0.01 */
	assert_int_equal(num(finding_at(12510 * US), "contended_since_ns"), 10010 * US);
	cleanup();
	late_waiter(SL_SLICE_EEVDF);
	/* expected 10.01 + 1.5 = 11.51 ms: exactly 1 ms late, not more */
	assert_int_equal(nr_findings(), 0);
	assert_int_equal(num(lp(), "runs"), 1);
	cleanup();
}

/* The model from the kernel version: >= 6.6 EEVDF, older CFS, --slice-model wins. */
static void test_model_from_kernel_version(void **state)
{
	static const struct { const char *kernel; int opt; const char *want; } cases[] = {
		{ "4.19.0-26-amd64", -1, "cfs" },
		{ "6.5.13", -1, "cfs" },
		{ "6.6.0", -1, "eevdf" },
		{ "", -1, "eevdf" },
		{ "5.15.0", SL_SLICE_EEVDF, "eevdf" },
		{ "6.18.0", SL_SLICE_CFS, "cfs" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		prepare(2);
		snprintf(T.info.kernel, sizeof(T.info.kernel), "%s", cases[i].kernel);
		if (cases[i].opt >= 0) {
			T.cfg.slice_model = cases[i].opt;
			T.cfg.slice_model_set = true;
		}
		start();
		finish();
		assert_string_equal(get(lp(), "model")->valuestring, cases[i].want);
		assert_string_equal(get(T.report, "config.slice_model")->valuestring, cases[i].want);
		cleanup();
	}
}

/*
 * SPEC acceptance 4: RT and DL runs are not judged, RT waiters do not
 * count.  On each CPU a runner (first prio) runs 20 ms from 10 us with a
 * waiter (second prio) queued from 1 us.  cpu 0: an RT runner, a fair
 * waiter; cpu 1: a fair runner, only an RT waiter; cpu 2: a deadline
 * runner (the trace shows prio -1), a fair waiter; cpu 3: both fair, which
 * is late: 20 - 3 = 17 ms.
 */
static void test_rt_and_dl_excluded(void **state)
{
	static const int prio[4][2] = { { 50, 120 }, { 120, 10 }, { -1, 120 }, { 120, 120 } };

	prepare(8);
	start();
	for (int cpu = 0; cpu < 4; cpu++)
		new_task(0, cpu, 901 + 10 * cpu, prio[cpu][0]);
	for (int cpu = 0; cpu < 4; cpu++)
		new_task(1 * US, cpu, 902 + 10 * cpu, prio[cpu][1]);
	for (int cpu = 0; cpu < 4; cpu++)
		ev_switch(10 * US, cpu, 0, 120, SL_PREV_RUNNABLE, 901 + 10 * cpu, prio[cpu][0]);
	for (int cpu = 0; cpu < 4; cpu++)
		ev_switch(20010 * US, cpu, 901 + 10 * cpu, prio[cpu][0], SL_PREV_PREEMPTED,
			  902 + 10 * cpu, prio[cpu][1]);
	finish();
	assert_int_equal(nr_findings(), 1);
	assert_int_equal(num(finding_at(20010 * US), "cpu"), 3);
	assert_int_equal(num(finding_at(20010 * US), "cost_ns"), 17 * MS);
	assert_int_equal(num(lp(), "runs"), 1);
	cleanup();
}

/*
 * A pending wakeup is not a waiter: 1002 is woken at 1 ms from cpu 1 and
 * placed on cpu 0 (its waker goes on at 1.001 ms), but enqueued only at
 * its sched_wakeup on cpu 0 at 4 ms.  tc = 4 ms: expected 5.5 ms, the
 * switch at 7 ms is 1.5 ms late (4.5 ms if pending counted).
 */
static void test_pending_is_not_waiting(void **state)
{
	cJSON *f;

	prepare(2);
	start();
	new_task(0, 0, 1001, 120);
	ev_switch(10 * US, 0, 0, 120, SL_PREV_RUNNABLE, 1001, 120);
	ev_switch(20 * US, 1, 0, 120, SL_PREV_RUNNABLE, 1100, 120);
	ev_switch(30 * US, 1, 1100, 120, SL_PREV_RUNNABLE, 1002, 120);
	ev_switch(40 * US, 1, 1002, 120, SL_PREV_BLOCKED, 1100, 120);	/* 1002 last ran on cpu 1 */
	ev_wake(SL_EV_WAKING, 1 * MS, 1, 1100, 1002, 120, 1);
	ev_migrate(1 * MS + 500, 1, 1002, 1, 0);			/* placed on cpu 0 */
	ev_switch(1001 * US, 1, 1100, 120, SL_PREV_BLOCKED, 0, 120);
	ev_wake(SL_EV_WAKEUP, 4 * MS, 0, 1001, 1002, 120, 0);		/* enqueued (wakelist) */
	ev_switch(7 * MS, 0, 1001, 120, SL_PREV_PREEMPTED, 1002, 120);
	finish();
	assert_int_equal(nr_findings(), 1);
	f = finding_at(7 * MS);
	assert_int_equal(num(f, "contended_since_ns"), 4 * MS);
	assert_int_equal(num(f, "cost_ns"), 1500 * US);
	assert_int_equal(num(f, "max_wait_ns"), 3 * MS);		/* queued 4 .. 7 ms */
	cleanup();
}

/* Lost events on the CPU during the run: not judged. */
static void test_lost_events_not_judged(void **state)
{
	prepare(2);
	start();
	new_task(0, 0, 401, 120);
	new_task(1 * US, 0, 402, 120);
	ev_switch(10 * US, 0, 0, 120, SL_PREV_RUNNABLE, 401, 120);
	ev_lost(5 * MS, 0);
	ev_switch(10010 * US, 0, 401, 120, SL_PREV_PREEMPTED, 402, 120);
	ev_switch(20010 * US, 0, 402, 120, SL_PREV_PREEMPTED, 401, 120);	/* its start is known */
	finish();
	assert_int_equal(nr_findings(), 1);
	assert_int_equal(num(finding_at(20010 * US), "pid"), 402);
	assert_int_equal(num(lp(), "not_judged.lost_events"), 1);
	cleanup();
}

/* A run whose switch-in the trace does not show (first event a switch-out). */
static void test_unknown_start_not_judged(void **state)
{
	prepare(2);
	start();
	new_task(1 * US, 0, 402, 120);
	ev_switch(20 * MS, 0, 401, 120, SL_PREV_PREEMPTED, 402, 120);
	ev_switch(30 * MS, 0, 402, 120, SL_PREV_PREEMPTED, 401, 120);
	finish();
	assert_int_equal(nr_findings(), 1);
	assert_int_equal(num(finding_at(30 * MS), "pid"), 402);
	assert_int_equal(num(lp(), "not_judged.unknown_start"), 1);
	cleanup();
}

/*
 * An implied switch-in (SPEC: a CPU that does not trace its switches from
 * idle): 1201's run on cpu 1 starts somewhere between 0.5 ms and 5 ms, so
 * it is not judged.
 */
static void test_implied_switch_not_judged(void **state)
{
	prepare(2);
	start();
	ev_switch(100 * US, 1, 0, 120, SL_PREV_RUNNABLE, 1200, 120);
	ev_switch(500 * US, 1, 1200, 120, SL_PREV_BLOCKED, 0, 120);
	new_task(1 * MS, 1, 1202, 120);				/* logged with common_pid -1 */
	new_task(2 * MS, 0, 1201, 120);
	ev_migrate(3 * MS, 0, 1201, 0, 1);
	ev_wake(SL_EV_WAKEUP_NEW, 5 * MS, 1, 1201, 1203, 120, 0);	/* 1201 runs cpu 1 */
	ev_switch(20 * MS, 1, 1201, 120, SL_PREV_PREEMPTED, 1202, 120);
	finish();
	assert_int_equal(T.m->implied_switches, 1);
	assert_int_equal(nr_findings(), 0);
	assert_int_equal(num(lp(), "not_judged.implied_switch"), 1);
	cleanup();
}

/* A waiter that leaves (migrated away) and comes back is one waiter. */
static void test_waiter_counted_once(void **state)
{
	cJSON *f;

	prepare(2);
	start();
	new_task(0, 0, 1301, 120);
	new_task(1 * US, 0, 1302, 120);
	ev_switch(10 * US, 0, 0, 120, SL_PREV_RUNNABLE, 1301, 120);
	ev_migrate(2 * MS, 0, 1302, 0, 1);
	ev_migrate(3 * MS, 0, 1302, 1, 0);
	ev_switch(10010 * US, 0, 1301, 120, SL_PREV_PREEMPTED, 1302, 120);
	finish();
	f = finding_at(10010 * US);
	assert_int_equal(num(f, "nr_waiting"), 1);
	assert_int_equal(cJSON_GetArraySize(get(f, "waiting")), 1);
	assert_int_equal(num(f, "cost_ns"), 8500 * US);			/* 10 - 1.5 */
	assert_int_equal(num(f, "max_wait_ns"), 7010 * US);		/* 3 .. 10.01 ms */
	cleanup();
}

/* A run still going when the trace ends has no switch-out: not judged. */
static void test_run_at_end_not_judged(void **state)
{
	prepare(2);
	start();
	new_task(0, 0, 401, 120);
	new_task(1 * US, 0, 402, 120);
	ev_switch(10 * US, 0, 0, 120, SL_PREV_RUNNABLE, 401, 120);
	ev_timer(50 * MS, 0);
	finish();
	assert_int_equal(nr_findings(), 0);
	assert_int_equal(num(lp(), "runs"), 0);
	cleanup();
}

/* --pid keeps the findings of that task as the runner. */
static void test_pid_filter(void **state)
{
	static int32_t pid = 402;

	prepare(8);
	T.cfg.pids = malloc(sizeof(pid));
	T.cfg.pids[0] = pid;
	T.cfg.nr_pids = 1;
	start();
	equal_pair(4, 120, 120);
	finish();
	assert_int_equal(nr_findings(), 1);
	assert_int_equal(num(finding_at(20010 * US), "pid"), 402);
	assert_int_equal(num(T.report, "summary.late-preemption.count"), 1);
	assert_int_equal(num(lp(), "runs"), 1);
	cleanup();
}

/*
 * Tick inference from local_timer_entry: cpu 0 ticks every 4 ms (plus one
 * other hrtimer at 6.5 ms), cpu 1 is idle with NOHZ (spacings 4, 20, 4,
 * 72 ms): the most common spacing is 4 ms, HZ=250.
 */
static void ticks(void)
{
	for (int k = 0; k < 10; k++)
		ev_timer(k * 4 * MS + 3 * US, 0);
	ev_timer(6500 * US, 0);
	ev_timer(0, 1);
	ev_timer(4 * MS, 1);
	ev_timer(24 * MS, 1);
	ev_timer(28 * MS, 1);
	ev_timer(100 * MS, 1);
}

static void test_hz_from_timer_spacing(void **state)
{
	prepare(2);
	start();
	ticks();
	finish();
	assert_int_equal(T.m->hz_inferred, 250);
	assert_int_equal(num(T.report, "config.hz"), 250);
	assert_string_equal(get(lp(), "hz_source")->valuestring, "local_timer_entry");
	cleanup();

	prepare(2);
	T.cfg.hz = 1000;
	start();
	ticks();
	finish();
	assert_int_equal(T.m->hz_inferred, 250);		/* what the trace shows */
	assert_int_equal(num(T.report, "config.hz"), 1000);	/* what the user said wins */
	assert_string_equal(get(lp(), "hz_source")->valuestring, "--hz");
	assert_int_equal(num(lp(), "hz_inferred"), 250);
	cleanup();
}

/* Without timer events: preemptions 30 us after every 4 ms boundary say HZ=250. */
static void test_hz_from_preemption_times(void **state)
{
	prepare(2);
	start();
	new_task(0, 0, 401, 120);
	new_task(1 * US, 0, 402, 120);
	ev_switch(10 * US, 0, 0, 120, SL_PREV_RUNNABLE, 401, 120);
	for (int k = 1; k <= 10; k++)
		ev_switch(k * 4 * MS + 30 * US, 0, k % 2 ? 401 : 402, 120, SL_PREV_PREEMPTED,
			  k % 2 ? 402 : 401, 120);
	finish();
	assert_int_equal(T.m->hz_inferred, 250);
	assert_string_equal(get(lp(), "hz_source")->valuestring, "preemption times");
	/* 10 late preemptions (4 ms runs, 1.5 ms slice), all in one tick window */
	assert_int_equal(num(lp(), "late_preemptions"), 10);
	assert_int_equal(num(lp(), "at_tick"), 10);
	assert_string_equal(get(lp(), "cause")->valuestring,
			    "preemption only at tick, HZ=250: HRTICK off or not armed");
	cleanup();

	/* every 1.37 ms: no tick period makes these cluster */
	prepare(2);
	start();
	new_task(0, 0, 401, 120);
	new_task(1 * US, 0, 402, 120);
	ev_switch(10 * US, 0, 0, 120, SL_PREV_RUNNABLE, 401, 120);
	for (int k = 1; k <= 10; k++)
		ev_switch(k * 1370 * US, 0, k % 2 ? 401 : 402, 120, SL_PREV_PREEMPTED,
			  k % 2 ? 402 : 401, 120);
	finish();
	assert_int_equal(T.m->hz_inferred, 0);
	assert_true(cJSON_IsNull(get(T.report, "config.hz")));
	assert_true(cJSON_IsNull(get(lp(), "cause")));
	cleanup();
}

/*
 * Preemption times of a mixed workload: one at the tick (30 us after each
 * 4 ms boundary) and `others` elsewhere in each of `periods` periods, at
 * phases from lo to lo + span (one per slot of equal width, so sorted).
 * 40 periods with 3 others from 250 us to 3.75 ms: a quarter at the tick,
 * far from a fixed 70%, but the tick's window holds about 5 times its
 * share (20 of the 80 counted in a 5% window) where uniform phases would
 * put 4: HZ=250.  200 periods with 30 others at any phase (a recorded pipe
 * and hackbench run beside hogs, without timer events, looked like this):
 * 3% at the tick, the window holds (1 + 30 * 5%) / 31 / 5% = 1.6 times
 * its share, far beyond chance with 6200 preemptions.  Without the
 * tick's, nothing clusters.
 */
static void mixed_preemptions(bool with_tick, int periods, int others, uint64_t lo, uint64_t span)
{
	uint64_t slot = span / (uint64_t)others;
	uint32_t lcg = 12345;
	int on_cpu = 401;

	prepare(2);
	start();
	new_task(0, 0, 401, 120);
	new_task(1 * US, 0, 402, 120);
	ev_switch(10 * US, 0, 0, 120, SL_PREV_RUNNABLE, 401, 120);
	for (int k = 1; k <= periods; k++) {
		uint64_t base = (uint64_t)k * 4 * MS;

		for (int i = 0; i <= others; i++) {
			uint64_t ts;

			if (i == 0 && !with_tick)
				continue;
			if (i == 0) {
				ts = base + 30 * US;
			} else {
				lcg = lcg * 1103515245u + 12345u;
				ts = base + lo + (uint64_t)(i - 1) * slot + (lcg >> 8) % slot;
			}
			ev_switch(ts, 0, on_cpu, 120, SL_PREV_PREEMPTED, on_cpu == 401 ? 402 : 401, 120);
			on_cpu = on_cpu == 401 ? 402 : 401;
		}
	}
	finish();
}

static void test_hz_from_mixed_preemptions(void **state)
{
	mixed_preemptions(true, 40, 3, 250 * US, 3500 * US);
	assert_int_equal(T.m->hz_inferred, 250);
	assert_string_equal(get(lp(), "hz_source")->valuestring, "preemption times");
	cleanup();

	mixed_preemptions(false, 40, 3, 250 * US, 3500 * US);
	assert_int_equal(T.m->hz_inferred, 0);
	assert_true(cJSON_IsNull(get(lp(), "hz_source")));
	cleanup();
}

/* 3% of the preemptions at the tick among many: 1.6 times the share. */
static void test_hz_from_mostly_wakeup_preemptions(void **state)
{
	mixed_preemptions(true, 200, 30, 0, 4 * MS);
	assert_int_equal(T.m->hz_inferred, 250);
	assert_string_equal(get(lp(), "hz_source")->valuestring, "preemption times");
	cleanup();

	mixed_preemptions(false, 200, 30, 0, 4 * MS);
	assert_int_equal(T.m->hz_inferred, 0);
	assert_true(cJSON_IsNull(get(lp(), "hz_source")));
	cleanup();
}

/*
 * The cause: four hogs switched 1 us after a 4 ms tick (the HRTICK mail),
 * against the same switches 1 ms after the tick (something else preempts).
 */
static void hogs(uint64_t tick_before)
{
	prepare(2);
	start();
	for (int i = 0; i < 4; i++)
		new_task(i * US, 0, 501 + i, 120);
	ev_switch(10 * US, 0, 0, 120, SL_PREV_RUNNABLE, 501, 120);
	for (int k = 1; k <= 8; k++) {
		uint64_t t1 = k * 4 * MS + 11 * US;

		ev_timer(t1 - tick_before, 0);
		ev_switch(t1, 0, 501 + (k - 1) % 4, 120, SL_PREV_PREEMPTED, 501 + k % 4, 120);
	}
	finish();
}

static void test_cause_tick_only(void **state)
{
	hogs(1 * US);
	assert_int_equal(nr_findings(), 8);
	assert_int_equal(num(finding_at(8011 * US), "cost_ns"), 2500 * US);	/* 4 - 1.5 ms */
	assert_int_equal(num(lp(), "hz"), 250);
	assert_int_equal(num(lp(), "late_preemptions"), 8);
	assert_int_equal(num(lp(), "at_tick"), 8);
	assert_int_equal(num(cpu_entry(0), "at_tick"), 8);
	assert_string_equal(get(lp(), "cause")->valuestring,
			    "preemption only at tick, HZ=250: HRTICK off or not armed");
	/* then HRTICK is taken as off: the runs at the first tick are set apart (issue 29) */
	assert_string_equal(get(get(lp(), "hrtick"), "state")->valuestring, "off");
	assert_string_equal(get(get(lp(), "hrtick"), "source")->valuestring, "tick pattern");
	assert_int_equal(num(get(get(T.report, "summary"), "late-preemption-at-tick"), "count"), 8);
	assert_int_equal(num(get(get(T.report, "summary"), "late-preemption"), "count"), 0);
	assert_string_equal(get(finding_at(8011 * US), "kind")->valuestring, "late-preemption-at-tick");
	cleanup();

	hogs(1 * MS);
	assert_int_equal(nr_findings(), 8);
	assert_int_equal(num(lp(), "hz"), 250);
	assert_int_equal(num(lp(), "at_tick"), 0);
	assert_true(cJSON_IsNull(get(lp(), "cause")));
	/* no tick pattern: HRTICK unknown, every late run stays late-preemption */
	assert_string_equal(get(get(lp(), "hrtick"), "state")->valuestring, "unknown");
	assert_int_equal(num(get(get(T.report, "summary"), "late-preemption-at-tick"), "count"), 0);
	assert_int_equal(num(get(get(T.report, "summary"), "late-preemption"), "count"), 8);
	cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hz_from_mixed_preemptions),
		cmocka_unit_test(test_hz_from_mostly_wakeup_preemptions),
		cmocka_unit_test(test_eevdf_equal_weights),
		cmocka_unit_test(test_eevdf_base_slice_option),
		cmocka_unit_test(test_eevdf_weight_ratio),
		cmocka_unit_test(test_eevdf_max_weight_over_run),
		cmocka_unit_test(test_cfs_two),
		cmocka_unit_test(test_cfs_four_with_nice),
		cmocka_unit_test(test_cfs_nine_period_stretch),
		cmocka_unit_test(test_waiter_after_the_slice),
		cmocka_unit_test(test_model_from_kernel_version),
		cmocka_unit_test(test_rt_and_dl_excluded),
		cmocka_unit_test(test_pending_is_not_waiting),
		cmocka_unit_test(test_lost_events_not_judged),
		cmocka_unit_test(test_unknown_start_not_judged),
		cmocka_unit_test(test_implied_switch_not_judged),
		cmocka_unit_test(test_waiter_counted_once),
		cmocka_unit_test(test_run_at_end_not_judged),
		cmocka_unit_test(test_pid_filter),
		cmocka_unit_test(test_hz_from_timer_spacing),
		cmocka_unit_test(test_hz_from_preemption_times),
		cmocka_unit_test(test_cause_tick_only),
	};
	return cmocka_run_group_tests_name("late_preemption", tests, NULL, NULL);
}
