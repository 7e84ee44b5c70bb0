/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.h - read a trace through the model and every analyzer, once
 *
 * The one pipeline behind analyze, diff and explore:
 * reader -> model (+ analyzers) -> a finished model to report on.
 */
#ifndef SCHEDLINT_ANALYSIS_H
#define SCHEDLINT_ANALYSIS_H

#include "config.h"
#include "model.h"
#include "reader.h"
#include "strtab.h"

struct sl_analysis {
	char *path;
	struct sl_strtab *strtab;
	struct sl_trace_info info;	/* the reader's, final */
	struct sl_model *model;
	int32_t *comm_pids;		/* the config's (--comm by any name a task had) */
};

/* Optional per-event callback (explore builds its index with it). */
typedef void (*sl_event_cb)(void *data, const struct sl_event *ev);

/*
 * Analyze path with cfg.  0 and *out on success; a negative errno with
 * err filled (one line, without the path) when the trace cannot be read:
 * then nothing of it should be reported.
 */
int sl_analysis_run(const char *path, const struct sl_config *cfg,
		    sl_event_cb cb, void *cb_data,
		    struct sl_analysis **out, struct sl_error *err);
/*
 * The same, telling start first: once the reader is open and the model
 * made, before the first event, with the reader's facts (kernel, CPUs,
 * clock) and the model (where one more analyzer may be added with
 * sl_model_add_analyzer()).  export writes its header and hooks its
 * sample rows there.  A non-zero return stops the analysis (-errno, err
 * filled by start).
 */
typedef int (*sl_start_cb)(void *data, struct sl_analysis *an, struct sl_error *err);
int sl_analysis_run_start(const char *path, const struct sl_config *cfg,
			  sl_start_cb start, sl_event_cb cb, void *cb_data,
			  struct sl_analysis **out, struct sl_error *err);
void sl_analysis_free(struct sl_analysis *an);

#endif /* SCHEDLINT_ANALYSIS_H */
