/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - what a report section is written with
 *
 * src/report/ writes the parts every analysis has (trace facts, wakeup
 * latency, CPUs, tasks, finding summaries; src/report/report.h) and calls
 * each analyzer's report_text / report_json hook for its own section.
 * The helpers here (src/model/section_*.c) keep the analyzers' sections
 * looking like the rest; they sit below the analyzers, which call them.
 */
#ifndef SCHEDLINT_REPORT_H
#define SCHEDLINT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "hist.h"
#include "model.h"

struct cJSON;

struct sl_report {
	FILE *out;
	bool color;
	const char *path;		/* the trace as the user named it */
	int top;			/* how many findings/tasks to list (default 10) */
};

enum sl_color { SL_C_RESET, SL_C_BOLD, SL_C_DIM, SL_C_RED, SL_C_YELLOW, SL_C_GREEN, SL_C_CYAN };
const char *sl_color(const struct sl_report *r, enum sl_color c);

/* "== Title ==" section heading (src/model/section_text.c) */
void sl_report_section(struct sl_report *r, const char *title);
/* A schbench-style row: label, count, min, p50..p99.9, max, mean */
void sl_report_latency_header(struct sl_report *r, int label_width);
void sl_report_latency_row(struct sl_report *r, int label_width, const char *label,
			   const struct sl_hist *h);
/* A duration in a fixed 8-column cell: "   27.3us", "  3.36ms". */
const char *sl_report_cell(char *buf, size_t len, uint64_t ns);

/*
 * Tallies of findings by CPU or task for a section's summary lines
 * ("Destinations: cpu0 12x (3.1 ms), cpu3 2x (...)"): rows is sized by
 * the caller for one row per finding; add, sort by cost, print
 * (src/model/section_tally.c).
 */
struct sl_tally_row {
	int32_t key;			/* a CPU, or a task's pid */
	uint32_t comm;			/* the task's comm (tasks only) */
	uint64_t count, cost;
};

void sl_tally_add(struct sl_tally_row *rows, size_t *nr, int32_t key, uint32_t comm, uint64_t cost);
void sl_tally_sort(struct sl_tally_row *rows, size_t nr);
/* "  LABEL: cpu0 12x (3.1 ms), ..." (or "comm:pid"), the four most costly */
void sl_tally_print(struct sl_report *r, const struct sl_model *m, const char *label,
		    const struct sl_tally_row *rows, size_t nr, bool tasks);

/*
 * JSON (src/model/section_json.c).  Integers in JSON: cJSON keeps numbers as doubles and prints values of
 * 1e15 and more in exponent form; trace timestamps in ns pass that after
 * 11.6 days of uptime.  These add the exact decimal digits instead.
 */
void sl_json_add_u64(struct cJSON *obj, const char *name, uint64_t v);
void sl_json_add_i64(struct cJSON *obj, const char *name, int64_t v);
struct cJSON *sl_json_u64(uint64_t v);

/*
 * Make every string and member name under item valid UTF-8, as JSON must
 * be: comms and other trace strings are any bytes, and an invalid one
 * becomes U+FFFD.  sl_report_json() (src/report/report.h) does it; other JSON writers that
 * carry trace strings should too.
 */
void sl_json_utf8(struct cJSON *item);

/* {"count", "min_ns", "mean_ns", "p50_ns", ..., "max_ns"} */
struct cJSON *sl_hist_json(const struct sl_hist *h);

#endif /* SCHEDLINT_REPORT_H */
