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
 * schedlint record's markers) tells sched_ext from fair (sched_ext tasks
 * have fair prios) and gives a class where the events give no prio.
 * Each wakeup-latency sample counts in the class its task was in when
 * woken (sl_class_at() of the waking's prio): one changed by chrt, or
 * boosted by priority inheritance while it ran, counts each wakeup where
 * it was.  At no cost per sample while a task is woken at the prio its
 * samples' class was decided for (struct sl_task.lat_prio): they go to
 * the row from its own histogram, when it is folded and at the end.  A
 * task whose class changes has the samples it had moved to its old
 * class's row then, and each later one put in its row as it comes
 * (lat_class SL_LAT_SPLIT).
 */
#include "schedlint/model.h"

const char *const sl_sched_class_names[SL_CLASS__NR] = {
	[SL_CLASS_DL] = "dl", [SL_CLASS_RT] = "rt", [SL_CLASS_FAIR] = "fair",
	[SL_CLASS_EXT] = "ext", [SL_CLASS_UNKNOWN] = "unknown",
};

enum sl_sched_class sl_class_at(int32_t prio, bool prio_dl, int policy, bool *by_policy)
{
	enum sl_sched_class pc = policy >= 0 ? sl_class_of_policy(policy) : SL_CLASS_UNKNOWN;
	enum sl_sched_class c;

	if (prio_dl)
		c = SL_CLASS_DL;
	else if (prio >= 0 && prio < 100)
		c = SL_CLASS_RT;
	else if (prio >= 100 && prio < 140)
		c = pc == SL_CLASS_EXT ? SL_CLASS_EXT : SL_CLASS_FAIR;
	else
		c = pc;
	*by_policy = c == pc && c != SL_CLASS_UNKNOWN;
	return c;
}

void sl_class_sample(struct sl_model *m, struct sl_task *t, uint64_t v)
{
	bool by_policy;
	unsigned c = sl_class_at(t->wake_prio, t->prio_dl, t->policy, &by_policy);

	t->class_seen |= (uint8_t)(1u << c);
	if (by_policy)
		t->class_policy |= (uint8_t)(1u << c);
	if (t->lat_class == SL_LAT_NONE || t->lat_class == c) {
		/* its first, or one of the class of those before: to the row at the end */
		t->lat_class = (uint8_t)c;
		/* a deadline task's prio is not its class: asked each time (model.c) */
		t->lat_prio = t->prio_dl ? SL_LAT_ASK : t->wake_prio;
		return;
	}
	if (t->lat_class != SL_LAT_SPLIT) {
		/* its first of another class: the ones before go to theirs now */
		sl_hist_merge(&m->latency_class[t->lat_class], &t->latency);
		t->lat_class = SL_LAT_SPLIT;
		t->lat_prio = SL_LAT_ASK;	/* from now on, each sample here */
	}
	sl_hist_add(&m->latency_class[c], v);
}

/*
 * t's samples (in the filters) into the row of their class, when they
 * are all of one, and t into the task counts of the rows it had samples
 * in (at its fold, or at the end): by its recorded policy when that gave
 * the class, else by the prio.
 */
void sl_class_take_task(struct sl_model *m, const struct sl_task *t)
{
	if (!t->latency.count)
		return;
	if (t->lat_class < SL_CLASS__NR)
		sl_hist_merge(&m->latency_class[t->lat_class], &t->latency);
	for (int c = 0; c < SL_CLASS__NR; c++) {
		if (!(t->class_seen & (1u << c)))
			continue;
		m->class_tasks[c][t->class_policy & (1u << c) ? SL_CLASS_FROM_POLICY :
				  c == SL_CLASS_UNKNOWN ? SL_CLASS_FROM_NONE : SL_CLASS_FROM_PRIO]++;
	}
}
