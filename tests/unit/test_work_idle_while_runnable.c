// SPDX-License-Identifier: GPL-2.0
/*
 * test_work_idle_while_runnable.c - idle-while-runnable's work grows linearly
 *
 * Issue 25, reproduction 04: N tasks queued on cpu 0 behind a hog while
 * cpu 1 idles 2 ms, M times: each idle period's end walked every waiting
 * task, N x M steps (22 MB of text took 74 s).  The work is counted as
 * accesses to the tasks' slots (work_count.h), not timed: here it must stay
 * within a small constant times N + M.
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
#define sl_idle_while_runnable_analyzer counted_analyzer
#include "../../analyzers/idle_while_runnable.c"

#define US 1000ULL
#define MS 1000000ULL

#include "work_feed.h"

/*
 * N tasks woken onto cpu 0 (busy with the hog 10) and never run; cpu 1
 * idles 2 ms, then a blip runs 1 us there, M times.  With
 * --assume-migratable every wait is a finding.
 */
static unsigned long work(int n, int periods, uint64_t *findings)
{
	static const struct sl_analyzer_ops *const only[] = { &counted_analyzer };
	struct sl_trace_info info = { .ncpus = 2, .has_waking = SL_YES, .has_wakeup = SL_YES };
	struct sl_config cfg;
	uint64_t ts = 1000 * MS;

	sl_config_init(&cfg);
	cfg.analyzers = only;
	cfg.nr_analyzers = 1;
	cfg.assume_migratable = true;
	st = sl_strtab_new();
	m = sl_model_new(&cfg, st, &info);
	work_visits = 0;

	feed_switch(ts, 0, 0, SL_PREV_RUNNABLE, 10);
	feed_switch(ts, 1, 0, SL_PREV_RUNNABLE, 12);
	ts += 1 * US;
	for (int i = 0; i < n; i++, ts += 200) {
		feed_wake(SL_EV_WAKING, ts, 1, 12, 1000 + i, 0);
		feed_wake(SL_EV_WAKEUP, ts + 100, 1, 12, 1000 + i, 0);
	}
	feed_switch(ts, 1, 12, SL_PREV_BLOCKED, 0);
	for (int j = 0; j < periods; j++) {
		ts += 2 * MS;
		feed_switch(ts, 1, 0, SL_PREV_RUNNABLE, 13);
		feed_switch(ts + 1 * US, 1, 13, SL_PREV_BLOCKED, 0);
		ts += 1 * US;
	}
	sl_model_finish(m);
	*findings = m->findings->summary[SL_KIND_IDLE_WHILE_RUNNABLE].count;
	sl_model_free(m);
	sl_strtab_free(st);
	sl_config_free(&cfg);
	return work_visits;
}

static void test_linear_in_waiters_and_idle_periods(void **state)
{
	uint64_t found_small, found_big;
	unsigned long small = work(100, 100, &found_small);
	unsigned long big = work(2000, 2000, &found_big);

	/* every wait overlapped cpu 1's idle periods by 2 ms */
	assert_int_equal(found_small, 100);
	assert_int_equal(found_big, 2000);
	/* a walk of the waiters per idle period would be 2000 x 2000 = 4e6 visits */
	if (big > 40UL * (2000 + 2000))
		fail_msg("%lu slot visits for 2000 waiting tasks and 2000 idle periods "
			 "(%lu for 100 and 100): not linear", big, small);
	/* and 20 times the input is about 20 times the work, not 400 */
	if (big > 40 * small)
		fail_msg("%lu visits vs %lu for 20 times the input", big, small);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linear_in_waiters_and_idle_periods),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
