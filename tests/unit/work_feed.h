/* SPDX-License-Identifier: GPL-2.0 */
/*
 * work_feed.h - the events the work-count tests feed the model, one call each
 *
 * Included after the analyzer's .c (see work_count.h); the test sets the
 * file's st and m before feeding.  Every task is called "task", the idle
 * task "swapper"; a blocked prev_class switches out 'S', any other 'R'.
 */
#ifndef SCHEDLINT_TEST_WORK_FEED_H
#define SCHEDLINT_TEST_WORK_FEED_H

static struct sl_strtab *st;
static struct sl_model *m;

static void feed_switch(uint64_t ts, int cpu, int prev, int prev_class, int next)
{
	struct sl_event ev = { .ts = ts, .cpu = cpu, .pid = prev, .type = SL_EV_SWITCH,
			       .name = sl_intern_cstr(st, "sched_switch") };

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_prio = prev ? 120 : -1;
	ev.sw.next_prio = next ? 120 : -1;
	ev.sw.prev_class = (uint8_t)prev_class;
	ev.sw.prev_letter = prev_class == SL_PREV_BLOCKED ? 'S' : 'R';
	ev.sw.prev_comm = sl_intern_cstr(st, prev ? "task" : "swapper");
	ev.sw.next_comm = sl_intern_cstr(st, next ? "task" : "swapper");
	sl_model_feed(m, &ev);
}

static void feed_wake(int type, uint64_t ts, int cpu, int waker, int pid, int target)
{
	struct sl_event ev = { .ts = ts, .cpu = cpu, .pid = waker, .type = (uint16_t)type,
			       .name = sl_intern_cstr(st, type == SL_EV_WAKING ? "sched_waking"
								       : "sched_wakeup") };

	ev.wake.pid = pid;
	ev.wake.prio = 120;
	ev.wake.target_cpu = target;
	ev.wake.comm = sl_intern_cstr(st, "task");
	ev.wake.success = true;
	sl_model_feed(m, &ev);
}

#endif
