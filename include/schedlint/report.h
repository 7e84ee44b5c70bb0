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
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hist.h"
#include "model.h"

struct cJSON;

/* How much of the terminal report: its first screen, or that and the detail sections. */
enum sl_report_detail {
	SL_DETAIL_DEFAULT,		/* the summary, then the detail sections */
	SL_DETAIL_BRIEF,		/* the summary only (--brief) */
	SL_DETAIL_FULL,			/* every listed task and kept finding (--full) */
};

struct sl_report {
	FILE *out;
	bool color;
	const char *path;		/* the trace as the user named it */
	int top;			/* how many findings/tasks to list (default 10) */
	int width;			/* columns every line fits in (0: 80) */
	enum sl_report_detail detail;
};

/*
 * The terminal width a report is written for.  Every line of the report
 * fits it: tables drop their least needed columns (sl_cols_fit) and prose
 * wraps (sl_report_wrap); report_text.c wraps whatever line is still too
 * long, so a section may print long prose with plain fprintf.
 */
#define SL_REPORT_MIN_WIDTH 40
int sl_report_width(const struct sl_report *r);
/* Display columns of s: UTF-8 sequences count one, escape sequences none. */
int sl_display_width(const char *s);
/* sl_display_width() of the len bytes at s */
int sl_span_width(const char *s, size_t len);
/*
 * The bytes of the len at s that fill at most cols display columns
 * (escape sequences ride along), never splitting a UTF-8 character.
 */
size_t sl_bytes_for_cols(const char *s, size_t len, int cols);
/*
 * Print the formatted text wrapped at word boundaries to the report's
 * width: the first line after indent spaces, the next ones after hang.
 */
void sl_report_wrap(struct sl_report *r, int indent, int hang, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * Write line (no newline in it) to out, wrapped to width, continuation
 * lines after hang spaces.  SL_GLUE is a space it never breaks at ("on"
 * SL_GLUE "cpu1"), written as a space.
 */
#define SL_GLUE "\x1f"
void sl_fit_line(FILE *out, const char *line, int width, int hang);

/*
 * A table that fits the width: each column has a priority, and the
 * columns with the highest drop values go first until the rest fit.
 * Cells are separated by one space; a cell wider than its column
 * overflows it.
 */
struct sl_col {
	const char *head;
	int width;			/* display columns of the cells */
	int drop;			/* 0: always shown; the highest is dropped first */
	bool left;			/* left-aligned (names) */
};
/*
 * The drop value (struct sl_col) of a wakeup-latency percentile's column
 * in the latency tables (0: it stays): analyze's and explore's narrow
 * tables lose the same columns first.
 */
int sl_latency_pct_drop(double pct);
/* A bit per shown column (at most 64 columns) for tables indented by indent. */
uint64_t sl_cols_fit(const struct sl_report *r, int indent, const struct sl_col *cols, int nr);
/* The same for rows of at most width display columns (explore's views) */
uint64_t sl_cols_fit_width(int width, int indent, const struct sl_col *cols, int nr);
/* One row (cells = NULL: the heading, dimmed) of the shown columns. */
void sl_cols_row(struct sl_report *r, int indent, const struct sl_col *cols, int nr,
		 uint64_t shown, const char *const *cells);
/*
 * "look at: schedlint dump --from A --to B --cpus L TRACE": the command
 * that prints the finding's moment, and for a trace.dat the trace-cmd
 * report pipeline that shows the same events (when tracecmd).  Lines a
 * shell takes back: a long command goes on with a backslash.
 */
struct sl_finding;
void sl_report_look_at(struct sl_report *r, const struct sl_model *m, int indent,
		       const struct sl_finding *f, bool tracecmd);
/* The same "schedlint dump ..." command on one line (export's finding slices). */
void sl_finding_dump_cmd(const struct sl_model *m, const struct sl_finding *f, const char *path,
			 char *buf, size_t len);
/*
 * "what to do next" for a finding kind, at the end of its section: the
 * kernel path, the knobs and how to read them, the patch (sl_kinds[]);
 * nothing when the trace has none of that kind.
 */
void sl_report_next_steps(struct sl_report *r, const struct sl_model *m, int kind);
/* "comm:pid" in at most width columns: the comm is cut, never the pid. */
const char *sl_task_label(char *buf, size_t len, const char *comm, int32_t pid, int width);

enum sl_color { SL_C_RESET, SL_C_BOLD, SL_C_DIM, SL_C_RED, SL_C_YELLOW, SL_C_GREEN, SL_C_CYAN };
const char *sl_color(const struct sl_report *r, enum sl_color c);

/* "== Title ==" section heading (src/model/section_text.c) */
void sl_report_section(struct sl_report *r, const char *title);
/*
 * A schbench-style row: label, count, min, p50..p99.9, max, mean; on a
 * narrow terminal the rarely read columns go first (p99.5, p75, p95,
 * mean, min, p90), count, p50, p99 and max stay.
 */
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
/*
 * A member that may be unknown is null then, never absent nor 0: the
 * string (null when NULL or empty), v when known, an array to fill when
 * given (NULL returned, and null written, when not).
 */
void sl_json_add_str_or_null(struct cJSON *o, const char *name, const char *s);
void sl_json_add_u64_or_null(struct cJSON *o, const char *name, bool known, uint64_t v);
struct cJSON *sl_json_add_array_or_null(struct cJSON *o, const char *name, bool given);
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

/*
 * A finding's fields (its kind's own: sl_finding_ops.fields), written as
 * they are made to where they go: a cJSON object (the report, the TUI),
 * a line of JSON text (export's rows) or Perfetto annotations (export's
 * slices), with no tree between.  Names are member names; a string NULL
 * writes no member (as cJSON).  object() opens a member object, end()
 * closes it; ints() is an array of numbers.
 */
struct sl_fields;
struct sl_fields_ops {
	void (*u64)(struct sl_fields *o, const char *name, uint64_t v);
	void (*i64)(struct sl_fields *o, const char *name, int64_t v);
	void (*str)(struct sl_fields *o, const char *name, const char *s);
	void (*boolean)(struct sl_fields *o, const char *name, bool v);
	void (*null)(struct sl_fields *o, const char *name);
	void (*ints)(struct sl_fields *o, const char *name, const int32_t *v, size_t nr);
	void (*object)(struct sl_fields *o, const char *name);
	void (*end)(struct sl_fields *o);
};
struct sl_fields {
	const struct sl_fields_ops *ops;
};

static inline void sl_fields_u64(struct sl_fields *o, const char *name, uint64_t v)
{
	o->ops->u64(o, name, v);
}
static inline void sl_fields_i64(struct sl_fields *o, const char *name, int64_t v)
{
	o->ops->i64(o, name, v);
}
static inline void sl_fields_str(struct sl_fields *o, const char *name, const char *s)
{
	if (s)
		o->ops->str(o, name, s);
}
static inline void sl_fields_bool(struct sl_fields *o, const char *name, bool v)
{
	o->ops->boolean(o, name, v);
}
static inline void sl_fields_null(struct sl_fields *o, const char *name)
{
	o->ops->null(o, name);
}
static inline void sl_fields_ints(struct sl_fields *o, const char *name, const int32_t *v, size_t nr)
{
	o->ops->ints(o, name, v, nr);
}
static inline void sl_fields_object(struct sl_fields *o, const char *name)
{
	o->ops->object(o, name);
}
static inline void sl_fields_end(struct sl_fields *o)
{
	o->ops->end(o);
}
/* NAME: v when known, null otherwise */
static inline void sl_fields_u64_or_null(struct sl_fields *o, const char *name, bool known, uint64_t v)
{
	if (known)
		sl_fields_u64(o, name, v);
	else
		sl_fields_null(o, name);
}

/* Fields into a cJSON object: sl_fields_tree_init(&t, obj), then &t.base. */
#define SL_FIELDS_DEPTH 8
struct sl_fields_tree {
	struct sl_fields base;
	struct cJSON *at[SL_FIELDS_DEPTH];
	int depth;
};
void sl_fields_tree_init(struct sl_fields_tree *t, struct cJSON *obj);

/*
 * Fields as JSON text, byte for byte what cJSON_PrintUnformatted() of the
 * tree would give after sl_json_utf8(): members appended to s (grown as
 * needed, kept between uses), the first after a comma unless opened with
 * sl_fields_text_open().  No allocation once s is large enough.
 */
struct sl_fields_text {
	struct sl_fields base;
	char *s;
	size_t len, alloc;
	int depth;
	uint32_t started;		/* bit d: a member written at depth d */
};
void sl_fields_text_init(struct sl_fields_text *t);
void sl_fields_text_free(struct sl_fields_text *t);
/* empty s; the next member at depth 0 after a comma when more, else first */
void sl_fields_text_reset(struct sl_fields_text *t, bool more);
void sl_fields_text_raw(struct sl_fields_text *t, const char *s, size_t len);
/* s as a JSON string: quoted, escaped as cJSON does, invalid UTF-8 bytes as U+FFFD */
void sl_fields_text_string(struct sl_fields_text *t, const char *s);

/*
 * A list with a row per task, comm or finding (tens of thousands on a
 * fork-heavy trace): made one element at a time, so that the report is
 * written without a tree of the whole of it.  next() returns the next
 * element (NULL: the end; sl_json_utf8() is applied to it), free() frees
 * ctx.  The elements must not depend on when they are made: the model
 * and the analyzers are finished and not changed until the list is done.
 */
struct sl_json_list {
	struct cJSON *(*next)(void *ctx);
	void (*free)(void *ctx);
	void *ctx;
};

/*
 * The list as member name of obj: a placeholder, made the array by
 * sl_json_lists_fill() or written element by element by
 * sl_json_print_streamed(); sl_model_free() frees a list left over.
 */
void sl_json_add_list(struct sl_model *m, struct cJSON *obj, const char *name,
		      const struct sl_json_list *list);
/* Every list under root made its array: the whole report as one tree (diff, --fail-on). */
void sl_json_lists_fill(struct sl_model *m, struct cJSON *root);
/*
 * root as cJSON_Print() prints it once filled, byte for byte, with each
 * list's elements made, printed and freed one at a time; false when out
 * is not written (its error state).
 */
bool sl_json_print_streamed(struct sl_model *m, struct cJSON *root, FILE *out);
void sl_json_lists_free(struct sl_model *m);

#endif /* SCHEDLINT_REPORT_H */
