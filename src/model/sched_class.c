// SPDX-License-Identifier: GPL-2.0
/*
 * sched_class.c - which scheduling class a task is in, and the wakeup
 * latency by class
 *
 * The trace carries no policy, only the prio of the task in each event:
 * the kernel's p->prio, -1 for SCHED_DEADLINE, 0..99 for SCHED_FIFO/RR
 * (99 - rt_priority), 100..139 for the fair class (nice -20..19), which
 * every format prints as it is ("prev_prio=-1", trace-cmd's "[-1]"; an
 * event without a prio is SL_PRIO_NONE, event.h).  So the
 * class is inferred from it, and said to be (JSON source "prio"); a
 * policy recorded in the trace (sl_task.policy, set by whatever reads
 * schedlint record's markers) goes first.  sched_ext tasks have fair
 * prios: only a recorded policy tells them.  A task whose class changed
 * (chrt on a running task, priority inheritance) counts in its last.
 */
#include "schedlint/model.h"

const char *const sl_sched_class_names[SL_CLASS__NR] = {
	[SL_CLASS_DL] = "dl", [SL_CLASS_RT] = "rt", [SL_CLASS_FAIR] = "fair",
	[SL_CLASS_EXT] = "ext", [SL_CLASS_UNKNOWN] = "unknown",
};

/* t's wakeup-latency samples (in the filters) go to its class's row: at its fold, or at the end. */
void sl_class_take_task(struct sl_model *m, const struct sl_task *t)
{
	enum sl_class_source source;
	enum sl_sched_class c;

	if (!t->latency.count)
		return;
	c = sl_task_class(m, t, &source);
	sl_hist_merge(&m->latency_class[c], &t->latency);
	m->class_tasks[c][source]++;
}
