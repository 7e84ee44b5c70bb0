// SPDX-License-Identifier: GPL-2.0
/*
 * test_trace_window.c - explore's index and windows: the lanes a window
 * shows are the same whether it is replayed from a nearby checkpoint
 * (seek) or from the start of the trace, and they say what the trace says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui/trace_window.h"

#define US 1000ULL
#define MS 1000000ULL

/* --- the lane rules, on hand-written events --- */

static struct sl_event ev_at(uint64_t ts, int cpu, int pid, int type)
{
	struct sl_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.ts = ts;
	ev.cpu = cpu;
	ev.pid = pid;
	ev.type = (uint16_t)type;
	return ev;
}

static struct sl_event ev_switch(uint64_t ts, int cpu, int prev, int next)
{
	struct sl_event ev = ev_at(ts, cpu, prev, SL_EV_SWITCH);

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	return ev;
}

static void test_lane_rules(void **state)
{
	struct xp_lane lanes[2] = { { .curr = XP_PID_UNKNOWN }, { .curr = XP_PID_UNKNOWN } };
	struct xp_lane_change chg[2];
	struct sl_event ev;

	/* first evidence on an unknown CPU: from the event on, not before */
	ev = ev_at(5 * US, 1, 7, SL_EV_TIMER_TICK);
	assert_int_equal(xp_lanes_apply(lanes, 2, &ev, chg), 1);
	assert_int_equal(chg[0].pid, 7);
	assert_int_equal(chg[0].ts, 5 * US);

	/* switch to idle, then a task's event without its switch-in: back to the CPU's last event */
	ev = ev_switch(10 * US, 1, 7, 0);
	assert_int_equal(xp_lanes_apply(lanes, 2, &ev, chg), 1);
	assert_int_equal(chg[0].pid, 0);
	ev = ev_at(50 * US, 1, 9, SL_EV_TIMER_TICK);
	assert_int_equal(xp_lanes_apply(lanes, 2, &ev, chg), 1);
	assert_int_equal(chg[0].pid, 9);
	assert_int_equal(chg[0].ts, 10 * US);

	/* ...or to its enqueue there, when that came later (logged by another CPU) */
	ev = ev_switch(60 * US, 1, 9, 0);
	xp_lanes_apply(lanes, 2, &ev, chg);
	ev = ev_at(70 * US, 0, 3, SL_EV_WAKEUP);
	ev.wake.pid = 11;
	ev.wake.target_cpu = 1;
	assert_int_equal(xp_lanes_apply(lanes, 2, &ev, chg), 1);	/* CPU 0: 3 runs */
	ev = ev_switch(90 * US, 1, 11, 0);	/* 11's switch-out: its switch-in was not seen */
	assert_int_equal(xp_lanes_apply(lanes, 2, &ev, chg), 2);
	assert_int_equal(chg[0].pid, 11);
	assert_int_equal(chg[0].ts, 70 * US);
	assert_int_equal(chg[1].pid, 0);
	assert_int_equal(chg[1].ts, 90 * US);

	/* lost events: unknown from there */
	ev = ev_at(100 * US, 1, -1, SL_EV_LOST);
	assert_int_equal(xp_lanes_apply(lanes, 2, &ev, chg), 1);
	assert_int_equal(chg[0].pid, XP_PID_UNKNOWN);
	assert_int_equal(lanes[1].curr, XP_PID_UNKNOWN);
}

/* --- index + window on real traces --- */

struct analyzed {
	struct sl_strtab *st;
	struct xp_index idx;
	struct xp_source src;
	int nr_cpus;
};

static void index_trace(struct analyzed *a, const char *path, uint64_t spacing)
{
	struct sl_error err = { "" };
	struct sl_reader *r;
	struct sl_event ev;
	int ret;

	a->st = sl_strtab_new();
	xp_index_init(&a->idx);
	a->idx.spacing = spacing;
	assert_int_equal(sl_reader_open(path, NULL, a->st, &r, &err), 0);
	while ((ret = sl_reader_next(r, &ev)) > 0)
		xp_index_add(&a->idx, &ev);
	assert_int_equal(ret, 0);
	sl_reader_close(r);
	a->nr_cpus = a->idx.nr_cpus;
	assert_int_equal(xp_source_open(&a->src, path, NULL, a->st), 0);
}

static void analyzed_free(struct analyzed *a)
{
	xp_source_close(&a->src);
	xp_index_free(&a->idx);
	sl_strtab_free(a->st);
}

static void assert_same_window(const struct xp_window *x, const struct xp_window *y)
{
	const struct xp_window_req *req = &x->req;

	for (int i = 0; i < req->nr_cpus * req->cols; i++) {
		const struct xp_cell *a = &x->cells[i], *b = &y->cells[i];

		if (a->busy_ns != b->busy_ns || a->idle_ns != b->idle_ns ||
		    a->unknown_ns != b->unknown_ns || a->marks != b->marks ||
		    (a->best_ns && a->best_pid != b->best_pid))
			fail_msg("window %llu+%llu: cpu %d col %d differs: busy %llu/%llu idle %llu/%llu "
				 "unknown %llu/%llu pid %d/%d marks %x/%x",
				 (unsigned long long)req->start, (unsigned long long)req->span,
				 i / req->cols, i % req->cols,
				 (unsigned long long)a->busy_ns, (unsigned long long)b->busy_ns,
				 (unsigned long long)a->idle_ns, (unsigned long long)b->idle_ns,
				 (unsigned long long)a->unknown_ns, (unsigned long long)b->unknown_ns,
				 a->best_pid, b->best_pid, a->marks, b->marks);
	}
	assert_int_equal(x->nr_tasks, y->nr_tasks);
	for (size_t t = 0; t < x->nr_tasks; t++) {
		assert_int_equal(x->tasks[t].pid, y->tasks[t].pid);
		assert_int_equal(x->tasks[t].run_ns, y->tasks[t].run_ns);
		assert_int_equal(x->tasks[t].letter, y->tasks[t].letter);
	}
	assert_int_equal(x->nr_events, y->nr_events);
	assert_int_equal(x->center_idx, y->center_idx);
	for (size_t e = 0; e < x->nr_events; e++) {
		assert_int_equal(x->events[e].ev.ts, y->events[e].ev.ts);
		assert_int_equal(x->events[e].ev.cpu, y->events[e].ev.cpu);
		assert_int_equal(x->events[e].ev.type, y->events[e].ev.type);
	}
}

/* Each column's time is accounted at most once, and exactly once inside the trace. */
static void assert_cells_add_up(const struct xp_window *w, uint64_t first, uint64_t last)
{
	const struct xp_window_req *req = &w->req;

	for (int cpu = 0; cpu < req->nr_cpus; cpu++)
		for (int col = 0; col < req->cols; col++) {
			const struct xp_cell *c = &w->cells[cpu * req->cols + col];
			uint64_t c0 = xp_window_col_ts(req, col);
			uint64_t c1 = col + 1 < req->cols ? xp_window_col_ts(req, col + 1)
							  : req->start + req->span;
			uint64_t sum = c->busy_ns + c->idle_ns + c->unknown_ns;

			if (c0 >= first && c1 <= last)
				assert_int_equal(sum, c1 - c0);
			else
				assert_true(sum <= c1 - c0);
		}
}

/*
 * The same windows from checkpoints every few events and from the start
 * only (each of those replays the trace up to the window: keep them few).
 */
static void windows_agree(const char *path, int nr_windows)
{
	struct analyzed fine, coarse;
	uint64_t first, last;

	index_trace(&fine, path, 16);
	index_trace(&coarse, path, UINT64_MAX);
	assert_true(fine.idx.nr_cps > 20);
	assert_true(fine.idx.nr_cps <= XP_MAX_CHECKPOINTS);
	assert_int_equal(coarse.idx.nr_cps, 1);
	first = fine.idx.first_ts;
	last = fine.idx.last_ts;

	for (int i = 0; i < nr_windows; i++) {
		static const uint64_t spans[] = { 50 * US, 1 * MS, 3 * MS, 20 * MS, 200 * MS, 1000 * MS, 5000 * MS };
		struct xp_window_req req = {
			.start = first + (last - first) / (uint64_t)nr_windows * (uint64_t)i + 12345,
			.span = spans[i * 7 / nr_windows], .cols = 97, .nr_cpus = fine.nr_cpus, .highlight_pid = -1,
			.max_events = 40,
		};
		struct xp_window a = { 0 }, b = { 0 };

		req.center = req.start + req.span / 2;
		assert_int_equal(xp_window_read(&a, &req, &fine.idx, &fine.src), 0);
		assert_int_equal(xp_window_read(&b, &req, &coarse.idx, &coarse.src), 0);
		assert_same_window(&a, &b);
		assert_cells_add_up(&a, first, last);
		/* the fine index replays little before the window */
		assert_true(a.events_read <= b.events_read);
		xp_window_free(&a);
		xp_window_free(&b);
	}
	analyzed_free(&fine);
	analyzed_free(&coarse);
}

static void test_windows_dat(void **state)
{
	windows_agree("testdata/real/hackbench.dat", 4);
}

static void test_windows_text(void **state)
{
	windows_agree("testdata/real/pipe.txt", 7);
}

/*
 * hogs: four dd pinned to CPU 0 take turns every 4 ms (the tick).  A
 * 20 ms window in the middle: CPU 0 busy all the time with the four dd,
 * each about a quarter, and their switches marked for the followed one.
 */
static void test_hogs_lanes(void **state)
{
	static const int32_t dd[] = { 8345, 8347, 8349, 8351 };
	struct analyzed a;
	struct xp_window w = { 0 };
	struct xp_window_req req = { .cols = 80, .highlight_pid = 8349, .span = 20 * MS };
	int follow_marks = 0;

	index_trace(&a, "testdata/real/hogs.dat", 64);
	req.nr_cpus = a.nr_cpus;
	req.start = a.idx.first_ts + (a.idx.last_ts - a.idx.first_ts) / 2;
	assert_int_equal(xp_window_read(&w, &req, &a.idx, &a.src), 0);
	for (int col = 0; col < req.cols; col++) {
		const struct xp_cell *c = &w.cells[col];

		assert_int_equal(c->idle_ns + c->unknown_ns, 0);
		assert_true(c->best_pid >= dd[0] && c->best_pid <= dd[3]);
		if (c->marks & XP_MARK_FOLLOW)
			follow_marks++;
	}
	/* 20 ms of 4 ms turns among 4: the followed one comes in once or twice */
	assert_in_range(follow_marks, 1, 2);
	assert_int_equal(w.tasks[0].pid, 8349);
	assert_int_equal(w.tasks[0].letter, 'A');
	assert_int_equal(xp_window_letter(&w, 8349), 'A');
	assert_int_equal(xp_window_letter(&w, 0), '.');
	for (int i = 0; i < 4; i++) {
		const struct xp_window_task *t = xp_window_task(&w, dd[i]);

		assert_non_null(t);
		assert_in_range(t->run_ns, 2 * MS, 8 * MS);
	}
	xp_window_free(&w);

	/* following 8349: its next switch-in after the window start, and back */
	uint64_t next, prev;

	assert_int_equal(xp_find_switch_in(&a.src, &a.idx, 8349, req.start, true, &next), 1);
	assert_true(next > req.start && next < req.start + 20 * MS);
	assert_int_equal(xp_find_switch_in(&a.src, &a.idx, 8349, next, false, &prev), 1);
	assert_true(prev < next && next - prev >= 8 * MS);
	assert_int_equal(xp_find_switch_in(&a.src, &a.idx, 999999, req.start, true, &next), 0);
	analyzed_free(&a);
}

/* Memory: checkpoints stay at most XP_MAX_CHECKPOINTS, the spacing grows. */
static void test_index_bounded(void **state)
{
	struct xp_index idx;
	struct sl_event ev;

	xp_index_init(&idx);
	idx.spacing = 2;
	for (uint64_t i = 0; i < 20000; i++) {
		ev = ev_switch(1000 + i * 10, (int)(i % 4), (int)(i % 7), (int)((i + 1) % 7));
		xp_index_add(&idx, &ev);
	}
	assert_true(idx.nr_cps <= XP_MAX_CHECKPOINTS);
	assert_true(idx.nr_cps >= XP_MAX_CHECKPOINTS / 2);
	assert_true(idx.spacing >= 8);
	for (size_t i = 1; i < idx.nr_cps; i++)
		assert_true(idx.cps[i].ts > idx.cps[i - 1].ts);
	/* the state kept at a checkpoint is the one before its time */
	const struct xp_checkpoint *cp = xp_index_find(&idx, 1000 + 12345 * 10);

	assert_true(cp->ts <= 1000 + 12345 * 10);
	assert_int_equal(xp_index_find(&idx, 0), &idx.cps[0]);
	for (int cpu = 0; cpu < 4; cpu++) {
		/* the last switch on cpu before cp->ts */
		uint64_t i = (cp->ts - 1000) / 10 - 1;

		while (i % 4 != (uint64_t)cpu)
			i--;
		assert_int_equal(xp_checkpoint_lane(&idx, cp, cpu).curr, (int)((i + 1) % 7));
	}
	xp_index_free(&idx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lane_rules),
		cmocka_unit_test(test_index_bounded),
		cmocka_unit_test(test_windows_dat),
		cmocka_unit_test(test_windows_text),
		cmocka_unit_test(test_hogs_lanes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
