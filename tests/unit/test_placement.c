// SPDX-License-Identifier: GPL-2.0
/*
 * test_placement.c - wakee-stacking and idle-while-runnable where the
 * scenarios cannot reach: verdicts changed by what comes later (a gap a
 * CPU's next event reveals), the bounded held list, exact thresholds, and
 * the helpers (gaps, CPU lists, pictures).  Events are fed to the model
 * directly, in us; the findings are read from the JSON report.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "report/report.h"
#include "schedlint/analyzer.h"
#include "schedlint/held.h"
#include "schedlint/model.h"
#include "schedlint/picture.h"
#include "schedlint/report.h"

#define US 1000ULL

struct fixture {
	struct sl_config cfg;
	struct sl_trace_info info;
	struct sl_strtab *st;
	struct sl_model *m;
	cJSON *report;
};

static struct fixture fx;

static struct fixture *setup(int ncpus, uint64_t max_findings, bool assume)
{
	struct fixture *f = &fx;

	memset(f, 0, sizeof(*f));
	sl_config_init(&f->cfg);
	f->cfg.max_findings = max_findings;
	f->cfg.assume_migratable = assume;
	f->info.ncpus = ncpus;
	f->info.has_waking = SL_YES;
	f->info.has_wakeup = SL_YES;
	f->st = sl_strtab_new();
	f->m = sl_model_new(&f->cfg, f->st, &f->info);
	return f;
}

/* End of the trace: the verdicts, then the report as JSON. */
static void finish(struct fixture *f)
{
	cJSON *raw;
	char *text;

	sl_model_finish(f->m);
	/* integers are raw items in the report: read it back as a reader would */
	raw = sl_report_json(f->m, "test");
	text = cJSON_PrintUnformatted(raw);
	f->report = cJSON_Parse(text);
	assert_non_null(f->report);
	free(text);
	cJSON_Delete(raw);
}

static void teardown(struct fixture *f)
{
	cJSON_Delete(f->report);
	sl_model_free(f->m);
	sl_strtab_free(f->st);
	sl_config_free(&f->cfg);
}

static const char *comm_of(int pid)
{
	static char buf[32];

	if (!pid)
		return "swapper";
	if (pid >= 900)
		snprintf(buf, sizeof(buf), "kworker/0:%d", pid - 900);
	else
		snprintf(buf, sizeof(buf), "task%d", pid);
	return buf;
}

static uint32_t intern(struct fixture *f, const char *s)
{
	return sl_intern_cstr(f->st, s);
}

static void ev_switch(struct fixture *f, uint64_t us, int cpu, int prev, int prev_class, int next)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = prev, .type = SL_EV_SWITCH,
			       .name = intern(f, "sched_switch") };

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	ev.sw.prev_class = (uint8_t)prev_class;
	ev.sw.prev_letter = prev_class == SL_PREV_BLOCKED ? 'S' : 'R';
	ev.sw.prev_comm = intern(f, comm_of(prev));
	ev.sw.next_comm = intern(f, comm_of(next));
	sl_model_feed(f->m, &ev);
}

static void ev_wake(struct fixture *f, int type, uint64_t us, int cpu, int waker, int pid, int target)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = waker, .type = (uint16_t)type,
			       .name = intern(f, type == SL_EV_WAKING ? "sched_waking" : "sched_wakeup") };

	ev.wake.pid = pid;
	ev.wake.prio = 120;
	ev.wake.target_cpu = target;
	ev.wake.comm = intern(f, comm_of(pid));
	ev.wake.success = true;
	sl_model_feed(f->m, &ev);
}

static void ev_migrate(struct fixture *f, uint64_t us, int cpu, int running, int pid, int from, int to)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = running, .type = SL_EV_MIGRATE,
			       .name = intern(f, "sched_migrate_task") };

	ev.migrate.pid = pid;
	ev.migrate.prio = 120;
	ev.migrate.orig_cpu = from;
	ev.migrate.dest_cpu = to;
	ev.migrate.comm = intern(f, comm_of(pid));
	sl_model_feed(f->m, &ev);
}

static void ev_simple(struct fixture *f, int type, const char *name, uint64_t us, int cpu, int running)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = running, .type = (uint16_t)type,
			       .name = intern(f, name) };

	if (type == SL_EV_LOST)
		ev.lost.count = 10;
	if (type == SL_EV_IPI_SEND_CPU)
		ev.ipi.target_cpu = -1;
	sl_model_feed(f->m, &ev);
}

/* pid runs on cpu from us and sleeps 1 us later: the CPU's state is known, idle */
static void ran(struct fixture *f, uint64_t us, int cpu, int pid)
{
	ev_switch(f, us, cpu, 0, SL_PREV_RUNNABLE, pid);
	ev_switch(f, us + 1, cpu, pid, SL_PREV_BLOCKED, 0);
}

/* The findings of kind in the report, and how many. */
static int findings(struct fixture *f, const char *kind, cJSON **out, int max)
{
	cJSON *list = cJSON_GetObjectItem(f->report, "findings"), *it;
	int n = 0;

	cJSON_ArrayForEach(it, list) {
		if (strcmp(cJSON_GetObjectItem(it, "kind")->valuestring, kind))
			continue;
		if (n < max)
			out[n] = it;
		n++;
	}
	return n;
}

static double num(cJSON *obj, const char *key)
{
	cJSON *v = cJSON_GetObjectItem(obj, key);

	assert_non_null(v);
	return cJSON_GetNumberValue(v);
}

static const char *str(cJSON *obj, const char *key)
{
	cJSON *v = cJSON_GetObjectItem(obj, key);

	assert_non_null(v);
	return cJSON_GetStringValue(v);
}

static void assert_cpus(cJSON *obj, const char *key, const int *want, int n)
{
	cJSON *list = cJSON_GetObjectItem(obj, key);

	assert_non_null(list);
	assert_int_equal(cJSON_GetArraySize(list), n);
	for (int i = 0; i < n; i++)
		assert_int_equal((int)cJSON_GetNumberValue(cJSON_GetArrayItem(list, i)), want[i]);
}

static uint64_t summary(struct fixture *f, const char *kind, const char *key)
{
	cJSON *s = cJSON_GetObjectItem(cJSON_GetObjectItem(f->report, "summary"), kind);

	return (uint64_t)num(s, key);
}

/*
 * The ttwu_pending race (seeds/000): the second wakeup onto a CPU whose
 * only load is the first one's pending wakeup, after the CPU's wakelist
 * handler started (entry) and before that wakeup's sched_wakeup, is
 * "pending"; the same placement before the handler starts is "in-flight";
 * with no handler events at all it is "in-flight" too and the report says
 * the window cannot be seen.  The idle list is exact.
 */
static void stacking_race(int entry_us, const char *entry_name, const char *want, bool visible)
{
	struct fixture *f = setup(4, 1000, false);
	cJSON *got[4];
	static const int idle[] = { 3 };

	ran(f, 10, 2, 200);
	ran(f, 12, 3, 201);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 100);
	ev_switch(f, 21, 1, 0, SL_PREV_RUNNABLE, 101);
	ev_wake(f, SL_EV_WAKING, 30, 0, 100, 200, 2);
	ev_simple(f, SL_EV_IPI_SEND_CPU, "ipi_send_cpu", 31, 0, 100);	/* 200 placed on idle 2 */
	if (entry_us == 32)
		ev_simple(f, SL_EV_IRQ_VECTOR, entry_name, 32, 2, 0);	/* the handler starts */
	ev_wake(f, SL_EV_WAKING, 32, 1, 101, 201, 3);
	ev_migrate(f, 33, 1, 101, 201, 3, 2);				/* 201 placed on 2 */
	if (entry_us == 34)
		ev_simple(f, SL_EV_IRQ_VECTOR, entry_name, 34, 2, 0);
	ev_wake(f, SL_EV_WAKEUP, 40, 2, 0, 200, 2);
	ev_wake(f, SL_EV_WAKEUP, 41, 2, 0, 201, 2);
	ev_switch(f, 42, 2, 0, SL_PREV_RUNNABLE, 200);
	ev_switch(f, 2042, 2, 200, SL_PREV_BLOCKED, 201);
	finish(f);

	assert_int_equal(findings(f, "wakee-stacking", got, 4), 1);
	assert_int_equal(num(got[0], "pid"), 201);
	assert_int_equal(num(got[0], "cpu"), 2);
	assert_string_equal(str(got[0], "reason"), want);
	assert_int_equal(num(got[0], "cost_ns"), (2042 - 32) * US);
	assert_int_equal(num(got[0], "ts_ns"), 32 * US);
	assert_int_equal(num(got[0], "waker_pid"), 101);
	assert_cpus(got[0], "idle_cpus", idle, 1);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(f->report, "wakee_stacking"),
						     "race_window_visible")) == visible);
	teardown(f);
}

static void test_stacking_pending_race(void **state)
{
	stacking_race(32, "call_function_single_entry", "pending", true);
}

static void test_stacking_in_flight(void **state)
{
	stacking_race(34, "call_function_single_entry", "in-flight", true);	/* handler after */
	stacking_race(32, "reschedule_entry", "in-flight", false);		/* not the wakelist */
	stacking_race(0, NULL, "in-flight", false);				/* no IPI events */
}

/* A wakeup that runs within --min-cost is no finding; at the exact cost it is. */
static void test_stacking_min_cost(void **state)
{
	for (int run = 0; run < 2; run++) {
		struct fixture *f = setup(2, 1000, false);
		cJSON *got[2];

		f->m->cfg_store.min_cost_ns = run ? 480 * US : 481 * US;
		ran(f, 5, 1, 200);				/* 200 ran on 1; cpu 1 idle */
		ev_switch(f, 10, 0, 0, SL_PREV_RUNNABLE, 100);
		ev_wake(f, SL_EV_WAKING, 20, 0, 100, 200, 1);
		ev_migrate(f, 21, 0, 100, 200, 1, 0);		/* onto the busy cpu 0 */
		ev_wake(f, SL_EV_WAKEUP, 22, 0, 100, 200, 0);
		ev_switch(f, 500, 0, 100, SL_PREV_PREEMPTED, 200);	/* latency 480 us */
		finish(f);
		assert_int_equal(findings(f, "wakee-stacking", got, 2), run);
		if (run)
			assert_string_equal(str(got[0], "reason"), "busy");
		teardown(f);
	}
}

/*
 * The idle CPU's ring buffer lost events; its next event shows it only
 * after the wakee ran.  Its state at the placement was not known: no
 * finding.  Without the loss: one.
 */
static void test_stacking_gap_learned_later(void **state)
{
	for (int lose = 0; lose < 2; lose++) {
		struct fixture *f = setup(2, 1000, false);
		cJSON *got[2];

		ran(f, 5, 1, 200);				/* cpu 1's last event: 6 us */
		ev_switch(f, 10, 0, 0, SL_PREV_RUNNABLE, 100);
		ev_wake(f, SL_EV_WAKING, 20, 0, 100, 200, 1);
		ev_migrate(f, 21, 0, 100, 200, 1, 0);
		ev_wake(f, SL_EV_WAKEUP, 22, 0, 100, 200, 0);
		ev_switch(f, 500, 0, 100, SL_PREV_PREEMPTED, 200);
		if (lose)
			ev_simple(f, SL_EV_LOST, "lost", 600, 1, -1);	/* (6 us, 600 us] unknown */
		ev_switch(f, 610, 1, 0, SL_PREV_RUNNABLE, 0);
		finish(f);
		assert_int_equal(findings(f, "wakee-stacking", got, 2), !lose);
		teardown(f);
	}
}

/*
 * An overlap is cut where a gap found later begins: cpu 1's loss shows
 * after the wait ended, and its state is unknown from its tick at 1000 us.
 */
static void test_iwr_cut_by_gap_learned_later(void **state)
{
	for (int run = 0; run < 3; run++) {
		struct fixture *f = setup(2, 1000, false);
		cJSON *got[2];
		int n;

		if (run == 2)
			f->m->cfg_store.idle_threshold_ns = 500 * US;
		ran(f, 5, 1, 200);				/* cpu 1 idle from 6 us */
		ev_switch(f, 10, 0, 0, SL_PREV_RUNNABLE, 100);
		ev_wake(f, SL_EV_WAKING, 20, 0, 100, 200, 1);
		ev_migrate(f, 21, 0, 100, 200, 1, 0);
		ev_wake(f, SL_EV_WAKEUP, 22, 0, 100, 200, 0);	/* queued from 22 us */
		ev_simple(f, SL_EV_TIMER_TICK, "local_timer_entry", 1000, 1, 0);
		ev_switch(f, 3022, 0, 100, SL_PREV_PREEMPTED, 200);	/* waited 3000 us */
		if (run)
			ev_simple(f, SL_EV_LOST, "lost", 4000, 1, -1);
		ev_switch(f, 4010, 1, 0, SL_PREV_RUNNABLE, 0);
		finish(f);
		n = findings(f, "idle-while-runnable", got, 2);
		if (run == 0) {
			assert_int_equal(n, 1);
			assert_int_equal(num(got[0], "cost_ns"), 3000 * US);
		} else if (run == 1) {
			assert_int_equal(n, 0);			/* 978 us left: under 1 ms */
		} else {
			assert_int_equal(n, 1);
			assert_int_equal(num(got[0], "cost_ns"), (1000 - 22) * US);
			assert_int_equal(num(got[0], "ts_ns"), 22 * US);
		}
		/* the placement at 21 us is before the gap: the stacking stands */
		assert_int_equal(findings(f, "wakee-stacking", got, 2), 1);
		teardown(f);
	}
}

/* The overlap must reach --idle-threshold exactly. */
static void test_iwr_threshold_exact(void **state)
{
	for (int run = 0; run < 2; run++) {
		struct fixture *f = setup(2, 1000, false);
		cJSON *got[2];
		uint64_t wait = run ? 1000 : 999;

		ran(f, 5, 1, 200);
		ev_switch(f, 10, 0, 0, SL_PREV_RUNNABLE, 200);		/* 200 on both CPUs */
		ev_switch(f, 100, 0, 200, SL_PREV_PREEMPTED, 100);	/* preempted: queued */
		ev_switch(f, 100 + wait, 0, 100, SL_PREV_BLOCKED, 200);
		finish(f);
		assert_int_equal(findings(f, "idle-while-runnable", got, 2), run);
		if (run) {
			static const int idle[] = { 1 };

			assert_int_equal(num(got[0], "cost_ns"), 1000 * US);
			assert_int_equal(num(got[0], "busy_cpu"), 0);
			assert_int_equal(num(got[0], "cpu"), 1);
			assert_int_equal(num(got[0], "start_ns"), 100 * US);
			assert_cpus(got[0], "idle_cpus", idle, 1);
		}
		teardown(f);
	}
}

/*
 * More candidates than the held list keeps: every one of a migratable task
 * is counted, the list keeps --max-findings and says it is capped; the
 * candidates of a task seen on one CPU only are not counted at all.
 */
static void test_held_overflow(void **state)
{
	for (int assume = 0; assume < 2; assume++) {
		struct fixture *f = setup(2, 1, assume);
		cJSON *got[2];
		uint64_t t = 100;

		ran(f, 5, 1, 200);				/* 200 on cpu 1 and 0: migratable */
		ev_switch(f, 10, 0, 0, SL_PREV_RUNNABLE, 200);
		for (int i = 0; i < 100; i++) {			/* 200 preempted, waits 2000 + i us */
			ev_switch(f, t, 0, 200, SL_PREV_PREEMPTED, 100);
			ev_switch(f, t + 2000 + i, 0, 100, SL_PREV_BLOCKED, 200);
			t += 2000 + i + 10;
		}
		ev_switch(f, t, 0, 200, SL_PREV_BLOCKED, 300);	/* 300: cpu 0 only */
		for (int i = 0; i < 100; i++) {
			ev_switch(f, t + 10, 0, 300, SL_PREV_PREEMPTED, 100);
			ev_switch(f, t + 3010, 0, 100, SL_PREV_BLOCKED, 300);
			t += 3020;
		}
		finish(f);
		assert_int_equal(summary(f, "idle-while-runnable", "count"), assume ? 200 : 100);
		assert_int_equal(summary(f, "idle-while-runnable", "max_cost_ns"),
				 assume ? 3000 * US : 2099 * US);
		assert_int_equal(findings(f, "idle-while-runnable", got, 2), 1);
		assert_int_equal(num(got[0], "cost_ns"), assume ? 3000 * US : 2099 * US);
		assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f->report, "findings_truncated")));
		teardown(f);
	}
}

/* Per-CPU kernel threads are pinned, even with --assume-migratable. */
static void test_kthread_pinned(void **state)
{
	struct fixture *f = setup(2, 1000, true);
	cJSON *got[2];

	ran(f, 5, 1, 200);
	ev_switch(f, 10, 0, 0, SL_PREV_RUNNABLE, 901);		/* kworker/0:1 */
	ev_switch(f, 100, 0, 901, SL_PREV_PREEMPTED, 100);
	ev_switch(f, 3100, 0, 100, SL_PREV_BLOCKED, 901);	/* waited 3 ms */
	finish(f);
	assert_int_equal(findings(f, "idle-while-runnable", got, 2), 0);
	teardown(f);
}

/* --- helpers --- */

static void test_gaps(void **state)
{
	struct sl_gaps g = { 0 };

	sl_gaps_add(&g, 1, 100, 200);
	sl_gaps_add(&g, 1, 500, 600);
	assert_null(sl_gaps_find(&g, 0, 0, 1000));
	assert_null(sl_gaps_find(&g, 1, 0, 100));	/* (a, b] touches the start only */
	assert_non_null(sl_gaps_find(&g, 1, 0, 101));
	assert_null(sl_gaps_find(&g, 1, 200, 500));	/* between the two */
	assert_int_equal(sl_gaps_find(&g, 1, 150, 550)->start, 100);
	assert_int_equal(sl_gaps_find(&g, 1, 250, 550)->start, 500);
	assert_null(sl_gaps_find(&g, 1, 600, 700));
	assert_null(sl_gaps_find(&g, 7, 0, 700));
	sl_gaps_free(&g);
}

static void test_fmt_cpus(void **state)
{
	static const int32_t a[] = { 0, 1, 2, 3, 5, 7, 8 };
	char buf[64];

	assert_string_equal(sl_fmt_cpus(buf, sizeof(buf), a, 7), "0-3,5,7-8");
	assert_string_equal(sl_fmt_cpus(buf, sizeof(buf), a + 4, 1), "5");
	assert_string_equal(sl_fmt_cpus(buf, sizeof(buf), a, 0), "");
}

/*
 * Twenty CPUs in one LLC: the first SL_PICTURE_MAX_CPUS and those asked for
 * are pictured, the others counted; runs of idle CPUs merge, marked CPUs
 * stay, and the printout can be capped.
 */
static void test_picture(void **state)
{
	struct fixture *f = setup(20, 1000, false);
	struct sl_picture pic = { 0 };
	struct sl_picture_mark marks[] = { { 7, "here" } };
	int must[] = { 18, -1, 7 };
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	assert_int_equal(SL_PICTURE_MAX_CPUS, 16);
	for (int cpu = 0; cpu < 20; cpu++)
		ran(f, 10 + (uint64_t)cpu * 10, cpu, 200 + cpu);
	ev_switch(f, 500, 3, 0, SL_PREV_RUNNABLE, 100);		/* cpu 3 busy */
	ev_switch(f, 510, 12, 0, SL_PREV_RUNNABLE, 101);	/* cpu 12 busy */
	sl_picture_take(&pic, f->m, 7, NULL, must, 3);
	assert_int_equal(pic.nr, 17);				/* 0-15 and 18 */
	assert_int_equal(pic.rest_idle, 3);			/* 16, 17, 19 */

	out = open_memstream(&text, &len);
	sl_picture_print(out, &pic, f->m, "", marks, 1, 10);
	fclose(out);
	assert_string_equal(text, "cpu0-2    idle\n"
				  "cpu3      runs task100:100\n"
				  "cpu4-6    idle\n"
				  "cpu7      idle   <- here\n"
				  "cpu8-11   idle\n"
				  "cpu12     runs task101:101\n"
				  "cpu13-15  idle\n"
				  "cpu18     idle\n"
				  "... 3 more CPUs: 0 busy, 3 idle, 0 unknown\n");
	free(text);

	/* at most 3 lines: the marked one, one more, and what was left out */
	out = open_memstream(&text, &len);
	sl_picture_print(out, &pic, f->m, "", marks, 1, 3);
	fclose(out);
	assert_string_equal(text, "cpu0-2    idle\n"
				  "cpu7      idle   <- here\n"
				  "... 16 more CPUs: 2 busy, 14 idle, 0 unknown\n");
	free(text);
	free(pic.cpus);
	teardown(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stacking_pending_race),
		cmocka_unit_test(test_stacking_in_flight),
		cmocka_unit_test(test_stacking_min_cost),
		cmocka_unit_test(test_stacking_gap_learned_later),
		cmocka_unit_test(test_iwr_cut_by_gap_learned_later),
		cmocka_unit_test(test_iwr_threshold_exact),
		cmocka_unit_test(test_held_overflow),
		cmocka_unit_test(test_kthread_pinned),
		cmocka_unit_test(test_gaps),
		cmocka_unit_test(test_fmt_cpus),
		cmocka_unit_test(test_picture),
	};

	return cmocka_run_group_tests_name("placement", tests, NULL, NULL);
}
