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

/* SCHED_* of include/uapi/linux/sched.h */
enum { POLICY_NORMAL = 0, POLICY_FIFO, POLICY_RR, POLICY_BATCH, POLICY_ISO, POLICY_IDLE,
       POLICY_DEADLINE, POLICY_EXT };

static enum sl_sched_class class_of_policy(int policy)
{
	switch (policy) {
	case POLICY_NORMAL:
	case POLICY_BATCH:
	case POLICY_IDLE:
		return SL_CLASS_FAIR;
	case POLICY_FIFO:
	case POLICY_RR:
		return SL_CLASS_RT;
	case POLICY_DEADLINE:
		return SL_CLASS_DL;
	case POLICY_EXT:
		return SL_CLASS_EXT;
	default:
		return SL_CLASS_UNKNOWN;
	}
}

enum sl_sched_class sl_task_class(const struct sl_model *m, const struct sl_task *t,
				  enum sl_class_source *source)
{
	enum sl_sched_class c = SL_CLASS_UNKNOWN;

	(void)m;
	*source = SL_CLASS_FROM_NONE;
	if (t->policy >= 0 && (c = class_of_policy(t->policy)) != SL_CLASS_UNKNOWN) {
		*source = SL_CLASS_FROM_POLICY;
		return c;
	}
	if (t->prio_dl)
		c = SL_CLASS_DL;
	else if (t->prio >= 0 && t->prio < 100)
		c = SL_CLASS_RT;
	else if (t->prio >= 100 && t->prio <= 139)
		c = SL_CLASS_FAIR;
	if (c != SL_CLASS_UNKNOWN)
		*source = SL_CLASS_FROM_PRIO;
	return c;
}

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
