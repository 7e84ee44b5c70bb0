/* SPDX-License-Identifier: GPL-2.0 */
/*
 * context_model.h - the recorded scheduling context, for model.c (context.c)
 *
 * model.c hands every schedlint: kernel / group / sched marker to
 * sl_ctx_marker(), a new task to sl_ctx_new_task() (a pid named before
 * it was seen), a fork to sl_ctx_inherit() (the kernel copies policy,
 * nice and groups at fork), and frees it all with sl_ctx_free().
 */
#ifndef SCHEDLINT_MODEL_CONTEXT_H
#define SCHEDLINT_MODEL_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "schedlint/context.h"
#include "schedlint/model.h"

/*
 * A marker's text, if it is a kernel or group marker: applied, or its
 * garbage noted (m->ctx->error); true.  false: not one of them.
 */
bool sl_ctx_marker(struct sl_model *m, const char *text, uint64_t ts);
/*
 * One "PIDS=POLICY/PRIO/SLICE/GROUP[@NS]" token of a sched marker logged
 * at ts: its pid list into pids (checked: digits, '-' and ','), its
 * context interned into *kind; 0, or -EINVAL with the garbage noted.
 */
int sl_ctx_parse_sched(struct sl_model *m, const char *tok, size_t len, uint64_t ts,
		       char *pids, size_t pids_len, uint32_t *kind);
/* pid, not seen yet, has kind: given to its task when it appears (bounded). */
void sl_ctx_pending(struct sl_model *m, int32_t pid, uint32_t kind);
/* Note garbage in a marker at ts (the first one is the analysis' error). */
void sl_ctx_garbage(struct sl_model *m, uint64_t ts, const char *what, const char *tok, size_t len);
void sl_ctx_new_task(struct sl_model *m, struct sl_task *t);
void sl_ctx_inherit(const struct sl_task *parent, struct sl_task *child);
void sl_ctx_free(struct sl_model *m);

#endif /* SCHEDLINT_MODEL_CONTEXT_H */
