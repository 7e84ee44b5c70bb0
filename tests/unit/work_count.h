/* SPDX-License-Identifier: GPL-2.0 */
/*
 * work_count.h - count an analyzer's work per task, for tests of its complexity
 *
 * A test that wants to know how much work an analyzer does includes this,
 * names the analyzer's ops symbol, and then includes the analyzer's .c
 * itself: every access to a task's slot (sl_task_priv(), the only way an
 * analyzer reaches its per-task state) is counted in work_visits.  The
 * count says "linear" or "quadratic" on a small input without timing
 * anything:
 *
 *	#include "work_count.h"
 *	#define sl_late_preemption_analyzer counted_analyzer
 *	#include "../../analyzers/late_preemption.c"
 *
 * The analyzer built into the test is a copy under another name (its ops
 * symbol renamed), which the test runs alone (struct sl_config's list).
 */
#ifndef SCHEDLINT_TEST_WORK_COUNT_H
#define SCHEDLINT_TEST_WORK_COUNT_H

#include "schedlint/analyzer.h"

static unsigned long work_visits;

static inline void *counted_task_priv(const struct sl_model *m, const struct sl_analyzer *a,
				      const struct sl_task *t)
{
	work_visits++;
	return sl_task_priv(m, a, t);
}

/* from here on, the analyzer's slot accesses are counted */
#define sl_task_priv counted_task_priv

#endif
