/* SPDX-License-Identifier: GPL-2.0 */
/* task_fold.h - the model's side of folding dead tasks (task_fold.c) */
#ifndef SCHEDLINT_TASK_FOLD_H
#define SCHEDLINT_TASK_FOLD_H

#include "schedlint/model.h"

/* t is being folded: count it, and add its numbers to its comm's row. */
void sl_fold_task_numbers(struct sl_model *m, const struct sl_task *t);
void sl_fold_free(struct sl_model *m);

#endif
