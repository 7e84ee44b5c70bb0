/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slice.h - the scheduler parameters a trace implies (SPEC "late-preemption")
 */
#ifndef SCHEDLINT_SLICE_H
#define SCHEDLINT_SLICE_H

#include <stdint.h>

#include "schedlint/context.h"
#include "schedlint/model.h"

/* EEVDF or CFS: --slice-model, else the trace's kernel (>= 6.6 is EEVDF), else EEVDF. */
enum sl_slice_model sl_slice_model(const struct sl_model *m);
/*
 * The CPU count the slice is scaled by: a trace.dat's or perf.data's
 * header, else the larger of a text's header and the CPUs its events named
 * so far (all of them once the model has finished), and where that came
 * from.
 */
int sl_ncpus(const struct sl_model *m);
const char *sl_ncpus_source(const struct sl_model *m);
/* The same in a word, whatever the file: "header" or "events" (JSON). */
const char *sl_ncpus_source_key(const struct sl_model *m);
/* The CPU-count factor 1 + ilog2(min(ncpus, 8)) of sysctl_sched_base_slice & co. */
unsigned int sl_slice_factor(const struct sl_model *m);
/*
 * Can the factor still change?  Not with --base-slice, a trace.dat or
 * perf.data, or 8 CPUs seen (its cap); a text may name a new CPU at its
 * last line.
 */
bool sl_slice_factor_final(const struct sl_model *m);
/* --base-slice, else the one the trace recorded (context.h), else 0.75 ms x factor. */
uint64_t sl_base_slice(const struct sl_model *m);
/* --hz, else the HZ schedlint record recorded, else what the trace showed (0 when unknown). */
int sl_hz(const struct sl_model *m);
/* The HZ schedlint record recorded (its kernel marker, context.h), 0 none. */
int sl_hz_recorded(const struct sl_model *m);
extern const uint32_t sl_prio_to_weight[40];

/*
 * The kernel's sched_prio_to_weight[] for a prio 100..139 (nice -20..19);
 * 1024 otherwise.  Inline: late-preemption asks for it at every enqueue,
 * dequeue and switch.
 */
static inline uint32_t sl_prio_weight(int prio)
{
	if (prio < 100 || prio > 139)
		return 1024;
	return sl_prio_to_weight[prio - 100];
}
/*
 * t's load weight (nice 0 = 1024): its recorded nice (context.h), else
 * its prio's; SCHED_IDLE 3.  Inline: late-preemption asks for it for
 * every waiter of a run judged per group entity.
 */
static inline uint32_t sl_task_load_weight(const struct sl_model *m, const struct sl_task *t)
{
	const struct sl_sched_ctx *k = sl_task_sched(m, t);

	if (k && k->policy == SL_POLICY_IDLE)
		return 3;	/* WEIGHT_IDLEPRIO */
	if (k && k->policy != SL_POLICY_FIFO && k->policy != SL_POLICY_RR &&
	    k->policy != SL_POLICY_DEADLINE)
		return sl_prio_weight(120 + k->prio);
	return sl_prio_weight(t ? t->prio : 120);
}
/* Parse "6.18.44-fc" into 6, 18; false when the string has no version. */
bool sl_kernel_version(const char *release, int *major, int *minor);

#endif /* SCHEDLINT_SLICE_H */
