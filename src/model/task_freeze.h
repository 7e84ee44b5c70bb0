/* SPDX-License-Identifier: GPL-2.0 */
/* task_freeze.h - the model's side of freezing dead tasks (task_freeze.c) */
#ifndef SCHEDLINT_TASK_FREEZE_H
#define SCHEDLINT_TASK_FREEZE_H

#include "schedlint/model.h"

/*
 * t's packed form (t and its slots: size bytes, a multiple of 8), to
 * take its place; buf: scratch room for size * 20 / 8 + 10 bytes.  The
 * caller frees t.  Its pid says ~t->pid, its comm t->comm, its frozen true.
 */
struct sl_task *sl_task_freeze(struct sl_task *t, size_t size, uint8_t *buf);
/* The task and slots a frozen one was, into t (size bytes). */
void sl_task_unpack(const struct sl_task *frozen, struct sl_task *t, size_t size);
uint32_t sl_frozen_index(const struct sl_task *frozen);
/* The bytes a frozen task takes (its record, without the allocator's) */
size_t sl_frozen_size(const struct sl_task *frozen);

#endif
