/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export.h - an analysis written for other tools (schedlint export)
 *
 * Perfetto's protobuf trace (export_perfetto.c): the schedule as ftrace
 * events, one bundle per CPU, written while the trace is read, then the
 * process tree, the findings as slices on named tracks and the latency
 * over time as counter tracks.  NDJSON (export_ndjson.c): one JSON object
 * a line, each wakeup-latency sample as the model measures it, then each
 * finding and a summary row, all with the trace's id.
 *
 * Both stream: what they hold does not grow with the events (the
 * schedule's bundles are flushed at SL_PFTRACE_BUNDLE bytes).
 */
#ifndef SCHEDLINT_REPORT_EXPORT_H
#define SCHEDLINT_REPORT_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "schedlint/config.h"
#include "schedlint/event.h"
#include "schedlint/reader.h"
#include "schedlint/strtab.h"

struct sl_model;

#define SL_PFTRACE_BUNDLE	(32 * 1024)

struct sl_pftrace;

/* A writer to out (not closed here); the schedule is limited to cfg's --cpus and --from/--to. */
struct sl_pftrace *sl_pftrace_new(FILE *out, const struct sl_config *cfg);
/* Before the first event: the SystemInfo packet (kernel release, CPUs). */
void sl_pftrace_start(struct sl_pftrace *w, const struct sl_trace_info *info,
		      const struct sl_strtab *st);
/* Every event read: the scheduler's go into their CPU's bundle. */
void sl_pftrace_event(struct sl_pftrace *w, const struct sl_event *ev);
/* After the analysis: the rest of the bundles, process tree, findings, counters. */
void sl_pftrace_finish(struct sl_pftrace *w, struct sl_model *m, const char *path);
void sl_pftrace_free(struct sl_pftrace *w);

/* What sl_pftrace_finish() wrote (the tests' counts are independent of these). */
struct sl_pftrace_counts {
	uint64_t events, slices, flows;
};
void sl_pftrace_counts(const struct sl_pftrace *w, struct sl_pftrace_counts *out);

struct sl_ndjson;

/*
 * A writer of rows to out, each with trace_id (from the file's content:
 * sl_ndjson_trace_id()).
 */
struct sl_ndjson *sl_ndjson_new(FILE *out, const char *trace_id);
/* Before the first event: hook the sample rows into the model. */
void sl_ndjson_start(struct sl_ndjson *w, struct sl_model *m);
/* After the analysis: a row per finding kept, then the summary row. */
void sl_ndjson_finish(struct sl_ndjson *w, struct sl_model *m, const char *path);
void sl_ndjson_free(struct sl_ndjson *w);
/*
 * The trace's id: "crc32-size" of the file's bytes (zlib's crc32, 8 hex
 * digits, and the size in bytes): the same file gives the same id on any
 * machine.  An id, not a security hash.  0, or -errno with err filled.
 */
int sl_ndjson_trace_id(const char *path, char *buf, size_t len, struct sl_error *err);

#endif /* SCHEDLINT_REPORT_EXPORT_H */
