/* SPDX-License-Identifier: GPL-2.0 */
/* task_freeze.h - the model's side of freezing dead tasks (task_freeze.c) */
#ifndef SCHEDLINT_TASK_FREEZE_H
#define SCHEDLINT_TASK_FREEZE_H

#include "schedlint/model.h"

#define SL_FREEZE_HISTS 16

/* A task as the model lays it out, and the room freezing one needs */
struct sl_freeze_layout {
	size_t size;			/* a struct sl_task and its slots: a multiple of 8 */
	/* where it keeps histograms (its latency, the analyzers' task_hists) */
	size_t hist[SL_FREEZE_HISTS];
	int nr_hist;
	uint8_t *buf;			/* room for size * 20 / 8 + 10 bytes */
	uint8_t *image;			/* room for size bytes */
};

/*
 * t's packed form, to take its place: its struct and slots, and the
 * buckets of its histograms, compacted first (held samples counted, the
 * stage freed: read in place, they are not written to), the smallest
 * in the record (freed from t).  The caller frees
 * t.  Its pid says ~t->pid, its comm t->comm, its frozen true.
 */
struct sl_task *sl_task_freeze(struct sl_task *t, const struct sl_freeze_layout *l);
/*
 * The task and slots a frozen one was, into t: its histograms' buckets
 * in blocks of their own (copy: a thawed task, the caller's to free), or
 * pointing into the frozen record (a copy to read while it lives).
 */
void sl_task_unpack(const struct sl_task *frozen, struct sl_task *t,
		    const struct sl_freeze_layout *l, bool copy);
uint32_t sl_frozen_index(const struct sl_task *frozen);
/* The bytes a frozen task takes (its record, without the allocator's) */
size_t sl_frozen_size(const struct sl_task *frozen);

#endif
