/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timeline.h - each CPU's busy time and runqueue depth over time, in
 * windows, for the time plots of analyze --html
 *
 * Not one of the default analyzers (it finds nothing and costs a hook per
 * switch and per enqueue): a command that draws the plots adds
 * sl_timeline_analyzer to its config's list.
 */
#ifndef SCHEDLINT_ANALYZERS_TIMELINE_H
#define SCHEDLINT_ANALYZERS_TIMELINE_H

#include <stdint.h>

#include "schedlint/analyzer.h"

/* At most this many windows: the width doubles (pairs merged) to fit the trace. */
#define SL_TIMELINE_WINDOWS 512

struct sl_timeline_cpu {
	/* per window, in ns: time the CPU's state was known, time it ran a task */
	uint64_t known[SL_TIMELINE_WINDOWS];
	uint64_t busy[SL_TIMELINE_WINDOWS];
	/* integral of the queued tasks (the running one not counted) over the known time */
	uint64_t area[SL_TIMELINE_WINDOWS];
	uint32_t max_depth[SL_TIMELINE_WINDOWS];
};

struct sl_timeline {
	uint64_t origin;		/* start of window 0 (the trace's first event) */
	uint64_t width;			/* ns per window */
	int nr_windows;			/* windows up to the trace's last event */
	int nr_cpus;
	struct sl_timeline_cpu **cpus;	/* [nr_cpus], NULL for a CPU never seen */
};

extern const struct sl_analyzer_ops sl_timeline_analyzer;

/* The timeline m ran with, or NULL when sl_timeline_analyzer was not among its analyzers. */
const struct sl_timeline *sl_timeline_of(const struct sl_model *m);

#endif /* SCHEDLINT_ANALYZERS_TIMELINE_H */
