/* SPDX-License-Identifier: GPL-2.0 */
/*
 * affinity.h - the recorded affinity's data, for model.c (affinity.c)
 *
 * model.c reads SL_MARKER_AFFINITY markers token by token
 * (sl_aff_parse_token()), walks each token's pids (sl_aff_next_pids())
 * and gives the tasks their spans (sl_aff_add_span()), or keeps the mask
 * for a pid not seen yet (sl_aff_pending(), taken by sl_aff_new_task()).
 */
#ifndef SCHEDLINT_MODEL_AFFINITY_H
#define SCHEDLINT_MODEL_AFFINITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedlint/model.h"

#define SL_AFF_MAX_RANGE	65536	/* pids one range of a token applies to */

/* One "PIDS=CPUS[@NS]" token of an affinity marker. */
struct sl_aff_token {
	char pids[1024];		/* the range list, checked: digits, '-' and ',' */
	uint32_t mask;			/* the CPUs, interned (sl_task_allowed_at()) */
	uint64_t since;			/* @NS, else the marker's time */
	bool timed;			/* @NS was given: a re-read after a change */
};

/* Parse tok (len bytes) of a marker logged at ts; 0, or -EINVAL. */
int sl_aff_parse_token(struct sl_model *m, const char *tok, size_t len, uint64_t ts,
		       struct sl_aff_token *out);
/* The next range of a pid list at *p: 1 and [lo, hi] (at most SL_AFF_MAX_RANGE), 0 at the end, -EINVAL. */
int sl_aff_next_pids(const char **p, int32_t *lo, int32_t *hi);
/* t may run on mask from `from` on (and before, when nothing was recorded for it). */
void sl_aff_add_span(struct sl_task *t, uint64_t from, uint32_t mask);
/* pid, not seen yet, may run on mask: given to its task when it appears. */
void sl_aff_pending(struct sl_model *m, int32_t pid, uint32_t mask);
void sl_aff_new_task(struct sl_model *m, struct sl_task *t);
/*
 * t, with a recorded mask, was moved to dest at ts by anything but a
 * migration/N stopper: a dest outside its mask says the mask changed
 * unseen (sched_setaffinity() on a task waiting runnable moves it from
 * the caller; record re-reads only after stopper moves and execs), so
 * from ts until record's next word on it, its mask is not known: the
 * empty one, on which no finding counts an idle CPU for it.
 */
void sl_aff_moved(struct sl_model *m, struct sl_task *t, int dest, uint64_t ts);
/* child was forked by parent at ts: it gets what the parent may run on. */
void sl_aff_inherit(struct sl_model *m, const struct sl_task *parent, struct sl_task *child,
		    uint64_t ts);
void sl_aff_task_free(struct sl_task *t);
void sl_aff_free(struct sl_model *m);

#endif /* SCHEDLINT_MODEL_AFFINITY_H */
