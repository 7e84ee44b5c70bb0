/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tui.h - schedlint explore: panels on an ncurses screen
 *
 * As in htop, the screen is built from panels that each draw themselves
 * into the rectangle they are given and handle their own keys; the main
 * loop (ui.c) only draws the tab bar and the footer, dispatches keys and
 * handles the global ones (views, help, quit, resize, signals).
 *
 * Panels: overview.c (trace facts, findings summary, latency, CPUs),
 * findings.c (the list), detail.c (one finding: its fields, a timeline
 * window around it and the raw events), timeline.c (the browser),
 * tasks.c, help.c.  lanes.c draws the per-CPU lanes of a window for
 * detail and timeline; draw.c has the colours and small drawing helpers;
 * event_text.c prints an event as a line of text.
 *
 * The data: the finished analysis (model, findings) and, to re-read the
 * windows, the index and second reader of trace_window.h.
 */
#ifndef SCHEDLINT_TUI_H
#define SCHEDLINT_TUI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ncursesw/curses.h>

#include "schedlint/analysis.h"
#include "schedlint/findings.h"
#include "trace_window.h"

struct xp;
struct xp_panel;

/* The area a panel draws in. */
struct xp_rect {
	int y, x, h, w;
};

/* One line of the ? help: keys and what they do. */
struct xp_key_help {
	const char *keys;
	const char *what;
};

struct xp_panel_ops {
	const char *name;		/* tab label */
	/* allocate p->priv; called once when explore starts */
	void (*init)(struct xp *x, struct xp_panel *p);
	void (*destroy)(struct xp *x, struct xp_panel *p);
	/* draw the whole of r (erase what it does not write) */
	void (*draw)(struct xp *x, struct xp_panel *p, const struct xp_rect *r);
	/* true when the panel used the key */
	bool (*key)(struct xp *x, struct xp_panel *p, int ch);
	/* what its state promises after any key: NULL, or what broke (for the fuzz harness) */
	const char *(*check)(const struct xp *x, const struct xp_panel *p);
	const char *hints;		/* the footer: the panel's main keys */
	const struct xp_key_help *keys;	/* every key, for the help; NULL-terminated */
};

struct xp_panel {
	const struct xp_panel_ops *ops;
	void *priv;
	struct xp_rect last;		/* where it was drawn last (page sizes) */
};

enum xp_panel_id {
	XP_OVERVIEW = 0,
	XP_FINDINGS,
	XP_TIMELINE,
	XP_TASKS,
	XP_DETAIL,			/* not tabs: a finding, opened from the findings */
	XP_EVENTS,			/* the events between the timeline's markers A and B */
	XP_SAMPLES,			/* the samples of a latency histogram bucket */
	XP_HELP,
	XP_NR_PANELS,
};
#define XP_NR_TABS 4

extern const struct xp_panel_ops xp_overview_ops, xp_findings_ops, xp_timeline_ops,
	xp_tasks_ops, xp_detail_ops, xp_events_ops, xp_samples_ops, xp_help_ops;

/* Text attributes, in colour or their monochrome fallback. */
enum xp_attr {
	XP_A_NORMAL = 0,
	XP_A_TITLE,		/* the tab bar */
	XP_A_TAB,		/* the current tab */
	XP_A_SELECT,		/* the selected row */
	XP_A_HEAD,		/* column headings, section titles */
	XP_A_DIM,
	XP_A_BAD,		/* findings, high cost */
	XP_A_WARN,		/* lost events, notes */
	XP_A_GOOD,
	XP_A_MARK,		/* lane markers */
	XP_A_IDLE,
	XP_A_HILITE,		/* the finding's or followed task */
	XP_A_CURSOR,		/* the time cursor */
	XP_A_BAR,		/* histogram and utilization bars */
	XP_A_WAIT,		/* a task waiting on a CPU's queue, under its lane */
	XP_A_TASK0,		/* XP_NR_TASK_COLORS colours for the tasks in the lanes */
	XP_NR_ATTRS = XP_A_TASK0 + 6,
};
#define XP_NR_TASK_COLORS 6

/* search.c: a task named by a pid or a part of its name (/ and \\) */
struct xp_match {
	char text[64];			/* as typed; "" matches every task */
	int32_t pid;			/* the text was a pid; 0 otherwise */
};

struct xp {
	/* what explore shows */
	const char *name;		/* the trace as the user named it */
	struct sl_analysis *an;
	struct sl_model *m;
	struct xp_index idx;		/* built during the analysis */
	struct xp_source src;		/* re-reads windows */
	const struct sl_finding *findings;	/* sorted by cost, most costly first */
	size_t nr_findings;
	int nr_cpus;			/* lanes */
	uint64_t first_ts, last_ts;
	uint64_t workload_ts;		/* the workload marker (its start), 0 none found */

	/* the screen */
	bool color, utf8;
	attr_t attrs[XP_NR_ATTRS];
	int panel;			/* enum xp_panel_id shown */
	int back[XP_NR_PANELS];		/* where Esc goes from a panel that is not a tab */
	struct xp_panel panels[XP_NR_PANELS];
	char status[256];		/* a message in the footer until the next key */
	bool status_error;
	bool quit;
	struct xp_match search;		/* what / looks for, in every view (n / N) */
	volatile sig_atomic_t *stop;	/* the signal that ends explore, 0 none */
	/* where keys come from: NULL = the terminal (getch()); ERR = none yet */
	int (*read_key)(struct xp *x);
	void *read_key_data;
};

/* samples.c: explore's own analyzer, and the rows of the latency histogram */
#define XP_HIST_ROWS	60		/* 1, 2, 5, 10 ... ns: the 1-2-5 rows */
/* Add explore's sample keeper to the analyzers cfg runs (before the analysis). */
void xp_config(struct sl_config *cfg);
uint64_t xp_hist_row_lo(int row);
int xp_hist_row(uint64_t latency);
/* A task's worst wakeup in the filters: false when it has none. */
bool xp_worst_wakeup(const struct xp *x, const struct sl_task *t, uint64_t *wake_ts, uint64_t *run_ts,
		     int *cpu);
/* The list of a histogram row's samples. */
void xp_samples_open(struct xp *x, int row);

/* search.c: tasks named by a pid or a part of their name (/ and \\) */
/* Set m from text: false when it is empty (m then matches every task). */
bool xp_match_set(struct xp_match *m, const char *text);
/* Does m name the task pid, whose comm then was comm (0: its last)? */
bool xp_match_task(const struct xp *x, const struct xp_match *m, int32_t pid, uint32_t comm);
/* A window's keep_task for a filter: data is a struct xp_match_ctx. */
struct xp_match_ctx {
	const struct xp *x;
	struct xp_match match;
};
bool xp_match_keep(const void *data, int32_t pid, uint32_t comm);
/* Ask for m in the footer: 1 set, 0 emptied (no match), -1 cancelled (m as it was). */
int xp_ask_match(struct xp *x, const char *question, struct xp_match *m);

/* ui.c */
/*
 * After the analysis filled x->idx and x->src was opened: what explore
 * shows, from the analysis (x keeps an).
 */
void xp_init(struct xp *x, struct sl_analysis *an);
/* The whole session on the terminal: 0 after q, 2, or 128 + a signal. */
int xp_run(struct xp *x);
/* A screen on out (term: terminfo name, NULL = $TERM); false when none. */
bool xp_screen_open(struct xp *x, const char *term, FILE *out, FILE *in);
void xp_screen_close(void);
/* The panels' state: after xp_init() and xp_screen_open(). */
void xp_panels_init(struct xp *x);
void xp_panels_destroy(struct xp *x);
/* Draw everything; hand one key to the panel shown, then the global keys. */
void xp_draw(struct xp *x);
void xp_key(struct xp *x, int ch);
/* Every panel's promises (panel ops ->check): NULL, or what broke. */
const char *xp_check(const struct xp *x);
void xp_show(struct xp *x, int panel);
void xp_set_status(struct xp *x, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Ask for a line in the footer: true with buf filled, false on Esc. */
bool xp_prompt(struct xp *x, const char *question, char *buf, size_t len);
/* Tell the user a slow read is going on (drawn at once in the footer). */
void xp_busy(struct xp *x, const char *what);
/* Read a window, reporting an error in the status line: 0 or -errno. */
int xp_read_window(struct xp *x, struct xp_window *w, const struct xp_window_req *req);

/* Panels' entry points for the others */
void xp_help_open(struct xp *x);				/* from its top */
void xp_detail_open(struct xp *x, size_t finding);		/* index in x->findings */
/* The timeline at ts, following pid (-1 none), with cpu's lane selected (-1 as it is). */
void xp_timeline_goto(struct xp *x, uint64_t ts, int32_t follow_pid, int cpu);
/*
 * The timeline over [a, b] (with some time around), markers A at a and B
 * at b, the cursor at b, following pid (-1: as it is), cpu's lane selected.
 */
void xp_timeline_span(struct xp *x, uint64_t a, uint64_t b, int32_t follow_pid, int cpu);
/* The events of [from, to] (the timeline's markers), highlight's in bold (-1 none). */
void xp_events_open(struct xp *x, uint64_t from, uint64_t to, int32_t highlight);
/* The finding after (dir 1) or before (-1) cur in the list's order; it becomes selected there. */
size_t xp_findings_step(struct xp *x, size_t cur, int dir);
/* The findings list, only kind's (-1 all). */
void xp_findings_show_kind(struct xp *x, int kind);
/* "3 of 57 in the list's order (by cost)": where finding is in the list as shown. */
const char *xp_findings_position(struct xp *x, size_t finding, char *buf, size_t len);

/* draw.c */
void xp_init_attrs(struct xp *x);
attr_t xp_task_attr(const struct xp *x, char letter);
/* Write text at (y, col) in at most w columns, padded with blanks to w. */
void xp_put(int y, int col, int w, attr_t attr, const char *text);
void xp_putf(int y, int col, int w, attr_t attr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* A horizontal bar of frac (0..1) of w columns. */
void xp_bar(struct xp *x, int y, int col, int w, double frac, attr_t attr);
void xp_clear(const struct xp_rect *r);
/* A section heading across r's width at row y. */
void xp_heading(struct xp *x, int y, const struct xp_rect *r, const char *title);
/* "1.50 ms" etc; "-" for 0 when dash */
const char *xp_dur(char *buf, size_t len, uint64_t ns);
const char *xp_task_name(const struct xp *x, int32_t pid, uint32_t comm, char *buf, size_t len);
/*
 * name (xp_task_name()'s "comm:pid") cut in place to at most cols display
 * columns: the comm is cut, its ":pid" kept whole (a cut pid names
 * another task), as analyze's tables do (sl_task_label)
 */
char *xp_fit_task(char *name, int cols);
/* Keep a list selection and its scroll inside nr items with page rows. */
void xp_list_clamp(int *sel, int *top, int nr, int page);
/* Common list keys (arrows, vi keys, pages, home/end): true when used. */
bool xp_list_key(int ch, int *sel, int nr, int page);

/* lanes.c: the per-CPU lanes of a window */
struct xp_lanes {
	const struct xp_window *w;
	const int *order;		/* lane -> CPU; NULL: CPU = lane */
	int nr_lanes;
	int first;			/* the first lane shown (vertical scroll) */
	int selected;			/* highlighted lane, -1 none */
	const uint64_t *relevant;	/* CPUs marked '*' in their label (bitmap), NULL none */
	bool marker_rows;		/* markers on a row of their own under each lane */
	bool markers;			/* markers at all */
	int cursor_col;			/* a column drawn as the cursor, -1 none */
	int label_w;			/* columns of the "cpu N" label */
	const uint64_t *mark_a, *mark_b;	/* the timeline's markers A and B on the axis, NULL none */
	bool *shown;			/* [128]: set for each glyph drawn (the legend explains them); NULL */
	bool density;			/* a cell's busy share (: = * #), not the task that ran */
};
/* Rows the lanes need for nr lanes. */
int xp_lanes_rows(const struct xp_lanes *l, int nr);
/* Lanes that fit in h rows. */
int xp_lanes_fit(const struct xp_lanes *l, int h);
void xp_draw_lanes(struct xp *x, const struct xp_lanes *l, const struct xp_rect *r);
/* The time axis under the lanes, with the cursor and the findings' marks. */
void xp_draw_axis(struct xp *x, const struct xp_lanes *l, int y, const struct xp_rect *r,
		  uint64_t mark_ts);
/*
 * The legend: every glyph the lanes and the axis drew (l->shown), the
 * tasks' letters first, in pages of max_rows rows (*page: which, wraps).
 * Returns the rows used.
 */
int xp_draw_legend(struct xp *x, const struct xp_lanes *l, int *page, int y, const struct xp_rect *r,
		   int max_rows);
/* What the window shows at (cpu, col) in words. */
void xp_describe_cell(const struct xp *x, const struct xp_window *w, int cpu, int col,
		      char *buf, size_t len);

/* event_text.c */
void xp_event_text(const struct xp *x, const struct xp_raw_event *r, char *buf, size_t len);

#endif /* SCHEDLINT_TUI_H */
