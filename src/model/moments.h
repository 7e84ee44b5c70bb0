/* SPDX-License-Identifier: GPL-2.0 */
/*
 * moments.h - the model's kept wakeup-latency samples (moments.c); the
 * reading side is sl_latency_row_samples() in schedlint/model.h
 */
#ifndef SCHEDLINT_MODEL_MOMENTS_H
#define SCHEDLINT_MODEL_MOMENTS_H

#include "schedlint/model.h"

/* A sample in the filter: kept if among its histogram row's longest. */
void sl_moments_add(struct sl_model *m, const struct sl_wakeup_moment *w);
void sl_moments_free(struct sl_model *m);

#endif /* SCHEDLINT_MODEL_MOMENTS_H */
