// SPDX-License-Identifier: GPL-2.0
/*
 * test_work_late_preemption.c - late-preemption's work grows linearly
 *
 * Issue 25, reproduction 03: N tasks queued behind two hogs that switch M
 * times, each switch a late run: judge_run() walked the whole runqueue
 * for every late run, N x M steps (31 MB of text took 95 s).  The work is
 * counted as accesses to the tasks' slots (work_count.h), not timed: here
 * it must stay within a small constant times N + M.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "work_count.h"
#define sl_late_preemption_analyzer counted_analyzer
#include "../../analyzers/late_preemption.c"

#define US 1000ULL
#define MS 1000000ULL

#include "work_feed.h"

/* N tasks woken onto cpu 0 and never run; hogs 10 and 11 take turns every 4 ms, M times. */
static unsigned long work(int n, int runs, uint64_t *late)
{
	static const struct sl_analyzer_ops *const only[] = { &counted_analyzer };
	struct sl_trace_info info = { .ncpus = 2, .has_waking = SL_YES, .has_wakeup = SL_YES };
	struct sl_config cfg;
	uint64_t ts = 1000 * MS;
	int cur = 10, next = 11;

	sl_config_init(&cfg);
	cfg.analyzers = only;
	cfg.nr_analyzers = 1;
	st = sl_strtab_new();
	m = sl_model_new(&cfg, st, &info);
	work_visits = 0;

	feed_switch(ts, 0, 0, SL_PREV_RUNNABLE, cur);
	feed_switch(ts + 1 * US, 1, 0, SL_PREV_RUNNABLE, 12);
	ts += 2 * US;
	for (int i = 0; i < n; i++, ts += 200) {
		feed_wake(SL_EV_WAKING, ts, 1, 12, 1000 + i, 0);
		feed_wake(SL_EV_WAKEUP, ts + 100, 1, 12, 1000 + i, 0);
	}
	for (int j = 0; j < runs; j++, ts += 4 * MS) {
		feed_switch(ts, 0, cur, SL_PREV_PREEMPTED, next);
		cur ^= next;
		next ^= cur;
		cur ^= next;
	}
	sl_model_finish(m);
	*late = ((struct lp_priv *)m->analyzers[0]->priv)->late;
	sl_model_free(m);
	sl_strtab_free(st);
	sl_config_free(&cfg);
	return work_visits;
}

static void test_linear_in_queue_and_runs(void **state)
{
	uint64_t late_small, late_big;
	unsigned long small = work(100, 100, &late_small);
	unsigned long big = work(2000, 2000, &late_big);

	/* every run after the first watched one is late: 4 ms against 1.5 ms */
	assert_int_equal(late_small, 99);
	assert_int_equal(late_big, 1999);
	/* a walk of the queue per late run would be 2000 x 2000 = 4e6 visits */
	if (big > 40UL * (2000 + 2000))
		fail_msg("%lu slot visits for 2000 queued tasks and 2000 late runs "
			 "(%lu for 100 and 100): not linear", big, small);
	/* and 20 times the input is about 20 times the work, not 400 */
	if (big > 40 * small)
		fail_msg("%lu visits vs %lu for 20 times the input", big, small);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linear_in_queue_and_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
