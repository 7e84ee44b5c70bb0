// SPDX-License-Identifier: GPL-2.0
/*
 * timeline.c - the timeline browser: every CPU as a lane over time
 *
 * A time cursor moves over the window; the window scrolls with it, zooms
 * around it, jumps to the next or previous finding, to a time typed in,
 * or to where a followed task is switched in next.  With more CPUs than
 * rows the lanes scroll vertically with the selected one.  Only the
 * shown window is read from the trace (trace_window.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "tui.h"
#include "util/util.h"

#define LABEL_W		8
#define DEFAULT_SPAN	(100 * 1000 * 1000ULL)	/* 100 ms */
#define MIN_SPAN	(2 * 1000ULL)		/* 2 us */

enum markers_mode { MARKERS_AUTO = 0, MARKERS_OVER, MARKERS_ROWS, MARKERS_OFF, NR_MARKERS_MODES };
/* the lanes' cells: auto = the busy share from DENSITY_COL_NS a column on, else the task */
enum density_mode { DENSITY_AUTO = 0, DENSITY_ON, DENSITY_OFF, NR_DENSITY_MODES };
static const char *const density_mode_names[] = {
	"auto (busy share from 2 ms a column, else the task that ran)", "busy share", "tasks",
};
#define DENSITY_COL_NS	(2 * 1000 * 1000ULL)
static const char *const markers_names[] = {
	"auto (own rows, or off when they do not fit)", "over the lanes", "own rows", "off",
};

struct timeline {
	bool set;			/* start/span chosen */
	uint64_t start, span;
	uint64_t cursor;		/* ts of the cursor */
	int sel;			/* selected lane (CPU) */
	int first;			/* first lane shown */
	int32_t follow;			/* followed pid, -1 none */
	int at_finding;			/* the finding n / N reached (index), -1 none */
	uint64_t mark[2];		/* KernelShark's markers A and B */
	bool has_mark[2];
	int legend_page;		/* e pages through the legend */
	bool searching;			/* n / N go to x->search's runs, not to findings */
	struct xp_match_ctx filter;	/* backslash: only these tasks in the lanes and events */
	uint32_t filter_gen;
	enum markers_mode markers;
	enum density_mode density;
	int cols;			/* of the last draw */
	int lanes_h;			/* rows of lanes in the last draw */
	bool marker_rows;		/* markers had rows of their own in the last draw */
	int events_h;			/* rows of the event list (0: none) */
	struct xp_window w;
	bool have_window;
	struct xp_window_req made;
};

static void tl_init(struct xp *x, struct xp_panel *p)
{
	struct timeline *t = xcalloc(1, sizeof(*t));

	t->follow = -1;
	t->at_finding = -1;
	p->priv = t;
}

static void tl_destroy(struct xp *x, struct xp_panel *p)
{
	struct timeline *t = p->priv;

	xp_window_free(&t->w);
	free(t);
}

/* The widest window: the whole trace (zoom-out stops there), at least MIN_SPAN. */
static uint64_t max_span(const struct xp *x)
{
	uint64_t dur = sl_dur(x->first_ts, x->last_ts);

	return MAX(dur < UINT64_MAX ? dur + 1 : dur, MIN_SPAN);
}

/*
 * What every key leaves true, whatever it was and whatever the times in
 * the trace: the span between MIN_SPAN and the trace's, the cursor on the
 * trace, the window around the cursor, and the window's end (start +
 * span) not past 2^64 - 1, so that no sum of times wraps.
 */
static void clamp_view(const struct xp *x, struct timeline *t)
{
	t->span = MIN(MAX(t->span, MIN_SPAN), max_span(x));
	if (x->last_ts >= x->first_ts) {
		t->cursor = MAX(t->cursor, x->first_ts);
		t->cursor = MIN(t->cursor, x->last_ts);
	}
	if (t->start > t->cursor)
		t->start = t->cursor;
	if (t->cursor - t->start > t->span)
		t->start = t->cursor - t->span;
	if (t->start > UINT64_MAX - t->span)
		t->start = UINT64_MAX - t->span;
}

/*
 * The first window: from where the workload started when the trace names
 * one (what came before is record's own setup), else from the trace's start.
 */
static void set_default(struct xp *x, struct timeline *t)
{
	t->start = x->workload_ts > x->first_ts && x->workload_ts <= x->last_ts ?
		   x->workload_ts : x->first_ts;
	t->span = DEFAULT_SPAN;
	t->cursor = t->start;
	t->set = true;
	clamp_view(x, t);
}

/*
 * Put the window around ts, keeping its span; inside the trace when the
 * trace is longer than the window (no half screen of nothing at its ends).
 */
static void center_on(const struct xp *x, struct timeline *t, uint64_t ts)
{
	t->start = ts > t->span / 2 ? ts - t->span / 2 : 0;
	if (x->last_ts > x->first_ts && sl_dur(x->first_ts, x->last_ts) > t->span) {
		t->start = MAX(t->start, x->first_ts);
		t->start = MIN(t->start, x->last_ts - t->span);
	}
	t->cursor = ts;
	clamp_view(x, t);
}

void xp_timeline_goto(struct xp *x, uint64_t ts, int32_t follow_pid, int cpu)
{
	struct timeline *t = x->panels[XP_TIMELINE].priv;

	if (!t->set)
		set_default(x, t);
	/* a window that shows the moment and some of what led to it */
	if (t->span > 20 * 1000 * 1000ULL)
		t->span = 20 * 1000 * 1000ULL;
	center_on(x, t, ts);
	if (follow_pid >= 0)
		t->follow = follow_pid;
	if (cpu >= 0 && cpu < x->nr_cpus)
		t->sel = cpu;
	xp_show(x, XP_TIMELINE);
}

void xp_timeline_span(struct xp *x, uint64_t a, uint64_t b, int32_t follow_pid, int cpu)
{
	struct timeline *t = x->panels[XP_TIMELINE].priv;
	uint64_t d = sl_dur(a, b);

	xp_timeline_goto(x, b, follow_pid, cpu);
	/* the time between, a quarter of the window before it and after */
	t->span = d < UINT64_MAX / 2 ? 2 * d : UINT64_MAX;
	t->start = a > d / 2 ? a - d / 2 : 0;
	t->cursor = b;
	t->mark[0] = a;
	t->mark[1] = b;
	t->has_mark[0] = t->has_mark[1] = true;
	clamp_view(x, t);
}

static int cursor_col(const struct timeline *t)
{
	struct xp_window_req req = { .start = t->start, .span = t->span, .cols = t->cols };

	if (t->cursor < t->start || t->cursor - t->start > t->span || t->cols <= 0)
		return -1;
	/* the window's end (End: the trace's last event) is in its last column */
	return xp_window_col(&req, t->cursor);
}

/* Keep the cursor in the window: it scrolls by a quarter when the cursor leaves. */
static void follow_cursor(const struct xp *x, struct timeline *t)
{
	if (t->cursor < t->start)
		t->start = t->cursor > t->span / 4 ? t->cursor - t->span / 4 : 0;
	else if (t->cursor - t->start >= t->span)
		t->start = t->cursor - (t->span - t->span / 4);
	clamp_view(x, t);
}

static void update_window(struct xp *x, struct timeline *t)
{
	struct xp_window_req req = {
		.start = t->start, .span = t->span, .cols = t->cols, .nr_cpus = x->nr_cpus,
		.highlight_pid = t->follow,
		.center = t->events_h ? t->cursor : 0, .max_events = t->events_h,
		.keep_task = t->filter.match.text[0] ? xp_match_keep : NULL,
		.keep_data = t->filter.match.text[0] ? &t->filter : NULL, .keep_gen = t->filter_gen,
	};

	if (t->have_window && !memcmp(&req, &t->made, sizeof(req)))
		return;
	t->made = req;
	t->have_window = xp_read_window(x, &t->w, &req) == 0;
}

/* The events nearest the cursor, the first one at or after it marked '>'. */
static void draw_events(struct xp *x, struct timeline *t, int y, const struct xp_rect *r, int h)
{
	const struct xp_window *w = &t->w;
	char line[512];
	int top;

	xp_putf(y++, r->x, r->w, x->attrs[XP_A_HEAD], " events around the cursor, all CPUs%s",
		t->follow > 0 ? " (the followed task's in bold)" : "");
	h--;
	top = (int)w->center_idx - h / 3;
	if (top > (int)w->nr_events - h)
		top = (int)w->nr_events - h;
	if (top < 0)
		top = 0;
	for (int row = 0; row < h; row++, y++) {
		size_t i = (size_t)(top + row);
		const struct sl_event *ev;
		bool mine;

		if (i >= w->nr_events) {
			xp_put(y, r->x, r->w, A_NORMAL, i == 0 ? "  (no events here)" : "");
			continue;
		}
		ev = &w->events[i].ev;
		mine = t->follow > 0 && (ev->pid == t->follow ||
			(ev->type == SL_EV_SWITCH && (ev->sw.prev_pid == t->follow || ev->sw.next_pid == t->follow)) ||
			((ev->type == SL_EV_WAKING || ev->type == SL_EV_WAKEUP || ev->type == SL_EV_WAKEUP_NEW) &&
			 ev->wake.pid == t->follow));
		xp_event_text(x, &w->events[i], line, sizeof(line));
		xp_putf(y, r->x, r->w, mine ? A_BOLD : A_NORMAL, "%c%s", i == w->center_idx ? '>' : ' ', line);
	}
}

static void tl_draw(struct xp *x, struct xp_panel *p, const struct xp_rect *r)
{
	struct timeline *t = p->priv;
	struct xp_lanes lanes = { 0 };
	char ts[32], rel[32], span[32], who[64], cell[256];
	int y = r->y, bottom = r->y + r->h, fit, room, legend_h;
	bool shown[128] = { false };

	if (!t->set)
		set_default(x, t);
	t->cols = MAX(10, r->w - LABEL_W);
	lanes.nr_lanes = x->nr_cpus;
	lanes.label_w = LABEL_W;
	/* rows for the lanes: what is left after the info, markers, axis, legend and cell lines */
	room = MAX(1, bottom - y - 4 - (t->has_mark[0] || t->has_mark[1]));
	lanes.marker_rows = t->markers == MARKERS_ROWS ||
		(t->markers == MARKERS_AUTO && 2 * x->nr_cpus <= room / 2);
	/* auto: markers over the letters would hide the tasks of a busy many-CPU trace */
	lanes.markers = t->markers == MARKERS_OVER || lanes.marker_rows;
	t->lanes_h = MIN(room, xp_lanes_rows(&lanes, x->nr_cpus));
	/* what the lanes leave goes to the events around the cursor */
	t->events_h = room - t->lanes_h >= 6 ? room - t->lanes_h : 0;
	/* the legend gets up to 3 rows from the events' (e pages through the rest) */
	legend_h = t->events_h >= 12 ? 3 : t->events_h >= 8 ? 2 : 1;
	t->events_h -= t->events_h ? legend_h - 1 : 0;
	t->marker_rows = lanes.marker_rows;
	update_window(x, t);
	{
		char extra[160] = "";

		if (t->filter.match.text[0])
			snprintf(extra, sizeof(extra), "  only '%s'", t->filter.match.text);
		if (t->searching)
			snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra), "  n/N: runs of '%s'",
				 x->search.text);
		xp_putf(y++, r->x, r->w, A_NORMAL, " cursor %s (+%s)  window %s  follow %s%s",
			fmt_ts(ts, sizeof(ts), t->cursor),
			xp_dur(rel, sizeof(rel), sl_dur(x->first_ts, t->cursor)),
			xp_dur(span, sizeof(span), t->span),
			t->follow >= 0 ? xp_task_name(x, t->follow, 0, who, sizeof(who)) : "-", extra);
	}
	if (t->has_mark[0] || t->has_mark[1]) {
		char a[32] = "-", b[32] = "-", d[32] = "";

		if (t->has_mark[0])
			fmt_ts(a, sizeof(a), t->mark[0]);
		if (t->has_mark[1])
			fmt_ts(b, sizeof(b), t->mark[1]);
		if (t->has_mark[0] && t->has_mark[1])
			snprintf(d, sizeof(d), "%s%s", t->mark[1] < t->mark[0] ? "-" : "",
				 xp_dur(rel, sizeof(rel), t->mark[1] < t->mark[0] ? t->mark[0] - t->mark[1] :
					t->mark[1] - t->mark[0]));
		xp_putf(y++, r->x, r->w, x->attrs[XP_A_HEAD], " A %s  B %s  B-A %s%s", a, b, d[0] ? d : "-",
			d[0] ? "  (v: the events between)" : "");
	}
	if (!t->have_window) {
		while (y < bottom)
			xp_put(y++, r->x, r->w, A_NORMAL, "");
		return;
	}
	lanes.w = &t->w;
	lanes.density = t->density == DENSITY_ON ||
		(t->density == DENSITY_AUTO && t->span / (uint64_t)MAX(1, t->cols) >= DENSITY_COL_NS);
	lanes.selected = t->sel;
	lanes.cursor_col = cursor_col(t);
	lanes.mark_a = t->has_mark[0] ? &t->mark[0] : NULL;
	lanes.mark_b = t->has_mark[1] ? &t->mark[1] : NULL;
	lanes.shown = shown;
	fit = MAX(1, xp_lanes_fit(&lanes, t->lanes_h));
	/* the selected lane stays in view */
	if (t->sel < t->first)
		t->first = t->sel;
	if (t->sel >= t->first + fit)
		t->first = t->sel - fit + 1;
	if (t->first > x->nr_cpus - fit)
		t->first = MAX(0, x->nr_cpus - fit);
	lanes.first = t->first;
	xp_draw_lanes(x, &lanes, &(struct xp_rect){ y, r->x, t->lanes_h, r->w });
	y += t->lanes_h;
	xp_draw_axis(x, &lanes, y++, r, UINT64_MAX);
	y += xp_draw_legend(x, &lanes, &t->legend_page, y, r, legend_h);
	xp_describe_cell(x, &t->w, t->sel, lanes.cursor_col, cell, sizeof(cell));
	xp_putf(y++, r->x, r->w, x->attrs[XP_A_HEAD], " %s%s", cell,
		x->nr_cpus > fit ? "   (j/k PgUp/PgDn: more CPUs)" : "");
	if (t->events_h)
		draw_events(x, t, y, r, bottom - y);
	else
		while (y < bottom)
			xp_put(y++, r->x, r->w, A_NORMAL, "");
}

/*
 * The list's findings in time order (ties by their index): the next after
 * the cursor (dir 1) or the last before it (-1), the finding the cursor is
 * on (t->at_finding) counting as before or after it.  Its index, or -1.
 */
static ssize_t finding_near(const struct xp *x, const struct timeline *t, int dir)
{
	uint64_t ts = t->cursor;
	bool on = t->at_finding >= 0 && (size_t)t->at_finding < x->nr_findings &&
		  x->findings[t->at_finding].ts == ts;
	ssize_t cur = on ? t->at_finding : dir > 0 ? SSIZE_MAX : -1, best = -1;

	for (size_t i = 0; i < x->nr_findings; i++) {
		const struct sl_finding *f = &x->findings[i];
		const struct sl_finding *b = best >= 0 ? &x->findings[best] : NULL;
		ssize_t si = (ssize_t)i;

		if (dir > 0 && (f->ts > ts || (f->ts == ts && si > cur)) &&
		    (!b || f->ts < b->ts || (f->ts == b->ts && si < best)))
			best = si;
		if (dir < 0 && (f->ts < ts || (f->ts == ts && si < cur)) &&
		    (!b || f->ts > b->ts || (f->ts == b->ts && si > best)))
			best = si;
	}
	return best;
}

/* Where finding i is in time order: 1 for the earliest. */
static size_t time_rank(const struct xp *x, size_t i)
{
	size_t rank = 1;

	for (size_t j = 0; j < x->nr_findings; j++)
		if (x->findings[j].ts < x->findings[i].ts || (x->findings[j].ts == x->findings[i].ts && j < i))
			rank++;
	return rank;
}

/* n / N: to the next / previous finding, and say which it is. */
static void step_finding(struct xp *x, struct timeline *t, int dir)
{
	ssize_t i = finding_near(x, t, dir);
	const struct sl_finding *f;
	char who[64], cost[32];

	if (i < 0) {
		xp_set_status(x, false, x->nr_findings ? "no %s finding: this is the %s of %zu" : "no findings",
			      dir > 0 ? "later" : "earlier", dir > 0 ? "last" : "first", x->nr_findings);
		return;
	}
	f = &x->findings[i];
	center_on(x, t, f->ts);
	t->at_finding = (int)i;
	t->sel = f->cpu >= 0 && f->cpu < x->nr_cpus ? f->cpu : t->sel;
	xp_set_status(x, false, "finding %zu of %zu by time (#%zd by cost): %s cpu %d %s %s; Enter opens it",
		      time_rank(x, (size_t)i), x->nr_findings, i + 1, sl_kinds[f->kind].name, f->cpu,
		      xp_task_name(x, f->pid, f->comm, who, sizeof(who)), xp_dur(cost, sizeof(cost), f->cost));
}

static void go_to_time(struct xp *x, struct timeline *t)
{
	char buf[64] = "";
	uint64_t ts, d, lo, hi;

	if (!xp_prompt(x, " go to time (seconds as in the trace, or +DURATION from its start): ",
		       buf, sizeof(buf)) || !buf[0])
		return;
	if (buf[0] == '+' && !parse_duration(buf + 1, &d))
		ts = d < UINT64_MAX - x->first_ts ? x->first_ts + d : UINT64_MAX;
	else if (parse_timestamp(buf, &ts)) {
		char a[32];

		/* the example in this trace's own times */
		xp_set_status(x, true, "not a time: '%s' (%s, %" PRIu64 "ns or +1.5ms)", buf,
			      fmt_ts(a, sizeof(a), x->first_ts), x->first_ts);
		return;
	}
	ts_as_printed(ts, &lo, &hi);	/* a time copied from a report: the microsecond it prints */
	if (buf[0] == '+')
		lo = hi = ts;
	if (hi < x->first_ts || lo > x->last_ts) {
		char a[32], b[32];

		xp_set_status(x, false, "%s is outside the trace (%s to %s): the cursor is at its %s", buf,
			      fmt_ts(a, sizeof(a), x->first_ts), fmt_ts(b, sizeof(b), x->last_ts),
			      ts < x->first_ts ? "start" : "end");
	} else if (ts < x->first_ts || ts > x->last_ts) {
		ts = ts < x->first_ts ? x->first_ts : x->last_ts;	/* the edge it printed as */
	}
	center_on(x, t, ts);
}

static void follow_task(struct xp *x, struct timeline *t)
{
	char buf[32] = "", who[64];
	int col = cursor_col(t);
	int32_t pid = -1;

	/* the task under the cursor is the default */
	if (t->have_window && col >= 0 && t->sel < t->w.req.nr_cpus) {
		const struct xp_cell *c = &t->w.cells[(size_t)t->sel * (size_t)t->w.req.cols + (size_t)col];

		if (c->best_ns)
			snprintf(buf, sizeof(buf), "%d", c->best_pid);
	}
	if (!xp_prompt(x, " follow pid (empty or 0: none): ", buf, sizeof(buf)))
		return;
	pid = atoi(buf);
	if (pid > 0 && !sl_model_task(x->m, pid)) {
		xp_set_status(x, true, "no task %d in the trace", pid);
		return;
	}
	t->follow = pid > 0 ? pid : -1;
	if (t->follow > 0)
		xp_set_status(x, false, "following %s: ] and [ go to its next / previous switch-in",
			      xp_task_name(x, pid, 0, who, sizeof(who)));
}

static void jump_switch_in(struct xp *x, struct timeline *t, bool forward)
{
	uint64_t found;
	int ret;

	if (t->follow <= 0) {
		xp_set_status(x, false, "no task followed: f chooses one");
		return;
	}
	xp_busy(x, forward ? "ahead for its next switch-in" : "back for its last switch-in");
	ret = xp_find_switch_in(&x->src, &x->idx, t->follow, t->cursor, forward, &found);
	if (ret < 0) {
		if (ret != -EINTR)
			xp_set_status(x, true, "%s: %s", x->name, x->src.err.msg);
		return;
	}
	if (!ret) {
		xp_set_status(x, false, "no %s switch-in of pid %d", forward ? "later" : "earlier", t->follow);
		return;
	}
	t->cursor = found;
	if (found < t->start || found >= t->start + t->span)
		center_on(x, t, found);
	/* select the lane it ran on */
	if (t->have_window) {
		/* read the new window first, then find the lane with the switch-in */
		update_window(x, t);
		for (int cpu = 0; t->have_window && cpu < t->w.req.nr_cpus; cpu++) {
			int col = cursor_col(t);

			if (col >= 0 && t->w.cells[(size_t)cpu * (size_t)t->w.req.cols + (size_t)col].marks &
			    XP_MARK_FOLLOW)
				t->sel = cpu;
		}
	}
}

static bool search_matches(const void *data, const struct sl_event *ev)
{
	const struct xp *x = data;

	return xp_match_task(x, &x->search, ev->sw.next_pid, ev->sw.next_comm);
}

/* / then n / N: the next / previous run of a task the search names, from the cursor */
static void step_search(struct xp *x, struct timeline *t, int dir)
{
	struct sl_event ev;
	char who[64], at[32];
	int ret;

	xp_busy(x, dir > 0 ? "ahead for the next match" : "back for the previous match");
	ret = xp_find_switch_in_match(&x->src, &x->idx, search_matches, x, t->cursor, dir > 0, &ev);
	if (ret < 0) {
		if (ret != -EINTR)
			xp_set_status(x, true, "%s: %s", x->name, x->src.err.msg);
		return;
	}
	if (!ret) {
		xp_set_status(x, false, "no %s run of a task matching '%s'", dir > 0 ? "later" : "earlier",
			      x->search.text);
		return;
	}
	center_on(x, t, ev.ts);
	if (ev.cpu >= 0 && ev.cpu < x->nr_cpus)
		t->sel = ev.cpu;
	xp_set_status(x, false, "'%s': %s runs on cpu %d from %s (n/N: next/previous; / and nothing: "
		      "n/N go to findings)", x->search.text,
		      xp_task_name(x, ev.sw.next_pid, ev.sw.next_comm, who, sizeof(who)), ev.cpu,
		      fmt_ts(at, sizeof(at), ev.ts));
}

static void ask_search(struct xp *x, struct timeline *t)
{
	int ret = xp_ask_match(x, " search a task (name or pid; empty: n/N go to findings): ", &x->search);

	if (ret < 0)
		return;
	t->searching = ret > 0;
	if (t->searching)
		step_search(x, t, 1);
	else
		xp_set_status(x, false, "no search: n / N go to the next / previous finding");
}

/* backslash: only the tasks named (a pid or a part of a name) in the lanes and the events */
static void ask_filter(struct xp *x, struct timeline *t)
{
	int ret = xp_ask_match(x, " show only tasks (name or pid; empty: all): ", &t->filter.match);

	if (ret < 0)
		return;
	t->filter.x = x;
	t->filter_gen++;
	xp_set_status(x, false, ret ? "only tasks matching '%s': the others are -" : "every task shown%s",
		      ret ? t->filter.match.text : "");
}

/* a / b: marker A or B at the cursor, and the time between them */
static void set_marker(struct xp *x, struct timeline *t, int which)
{
	char at[32], d[32];

	t->mark[which] = t->cursor;
	t->has_mark[which] = true;
	if (t->has_mark[!which])
		xp_set_status(x, false, "marker %c at %s: B-A %s%s (v: the events between)", 'A' + which,
			      fmt_ts(at, sizeof(at), t->cursor), t->mark[1] < t->mark[0] ? "-" : "",
			      xp_dur(d, sizeof(d), t->mark[1] < t->mark[0] ? t->mark[0] - t->mark[1] :
				     t->mark[1] - t->mark[0]));
	else
		xp_set_status(x, false, "marker %c at %s (%c: the other one)", 'A' + which,
			      fmt_ts(at, sizeof(at), t->cursor), 'b' - which);
}

static void zoom_out(struct xp *x, struct timeline *t)
{
	uint64_t span = t->span <= UINT64_MAX / 2 ? t->span * 2 : UINT64_MAX, before = t->cursor - t->start;

	span = MIN(span, max_span(x));
	if (span <= t->span) {
		xp_set_status(x, false, "the whole trace is in the window");
		t->start = x->first_ts;
		return;
	}
	/* the cursor keeps its place on the screen */
	before = (uint64_t)((unsigned __int128)before * span / t->span);
	t->start = t->cursor > before ? t->cursor - before : 0;
	t->span = span;
	if (span == max_span(x))
		t->start = x->first_ts;
}

static bool tl_key(struct xp *x, struct xp_panel *p, int ch)
{
	struct timeline *t = p->priv;
	uint64_t col_ns;
	int fit = MAX(1, t->marker_rows ? t->lanes_h / 2 : t->lanes_h);

	if (!t->set)
		set_default(x, t);
	col_ns = MAX(1, t->span / (uint64_t)MAX(1, t->cols));
	switch (ch) {
	case KEY_LEFT:
	case 'h':
		t->cursor = t->cursor > col_ns ? t->cursor - col_ns : 0;
		follow_cursor(x, t);
		return true;
	case KEY_RIGHT:
	case 'l':
		t->cursor = t->cursor < UINT64_MAX - col_ns ? t->cursor + col_ns : UINT64_MAX;
		follow_cursor(x, t);
		return true;
	case 'H':
	case KEY_SLEFT:
		t->start = t->start > t->span / 2 ? t->start - t->span / 2 : 0;
		t->cursor = t->cursor > t->span / 2 ? t->cursor - t->span / 2 : 0;
		break;
	case 'L':
	case KEY_SRIGHT:
		t->start = t->start < UINT64_MAX - t->span / 2 ? t->start + t->span / 2 : UINT64_MAX;
		t->cursor = t->cursor < UINT64_MAX - t->span / 2 ? t->cursor + t->span / 2 : UINT64_MAX;
		break;
	case KEY_UP:
	case 'k':
		if (t->sel > 0)
			t->sel--;
		return true;
	case KEY_DOWN:
	case 'j':
		if (t->sel < x->nr_cpus - 1)
			t->sel++;
		return true;
	case KEY_PPAGE:
		t->sel = MAX(0, t->sel - fit);
		t->first = MAX(0, t->first - fit);
		return true;
	case KEY_NPAGE:
	case ' ':
		t->sel = MIN(x->nr_cpus - 1, t->sel + fit);
		t->first = MIN(x->nr_cpus - 1, t->first + fit);
		return true;
	case '+':
	case '=':
	case 'z':
		if (t->span / 2 >= MIN_SPAN) {
			/* the cursor keeps its place on the screen */
			t->start = t->cursor - (t->cursor - t->start) / 2;
			t->span /= 2;
		} else {
			xp_set_status(x, false, "zoomed in as far as it goes (%llu ns a window)",
				      (unsigned long long)t->span);
		}
		break;
	case '-':
	case 'Z':
		zoom_out(x, t);
		break;
	case 'c':
		/* exactly, even past an end of the trace: asked for */
		t->start = t->cursor > t->span / 2 ? t->cursor - t->span / 2 : 0;
		break;
	case KEY_HOME:
		center_on(x, t, x->first_ts);
		t->start = x->first_ts;
		break;
	case KEY_END:
		center_on(x, t, x->last_ts);
		break;
	case 'n':
	case 'N':
		if (t->searching)
			step_search(x, t, ch == 'n' ? 1 : -1);
		else
			step_finding(x, t, ch == 'n' ? 1 : -1);
		break;
	case '/':
		ask_search(x, t);
		break;
	case '\\':
		ask_filter(x, t);
		return true;
	case '\n':
	case '\r':
	case KEY_ENTER: {
		/* open the finding at the cursor, if one is in its column */
		uint64_t a = t->cursor, b = t->cursor < UINT64_MAX - col_ns ? t->cursor + col_ns : UINT64_MAX;

		for (size_t i = 0; i < x->nr_findings; i++)
			if (x->findings[i].ts >= a && x->findings[i].ts < b) {
				xp_detail_open(x, i);
				return true;
			}
		xp_set_status(x, false, "no finding at the cursor (n / N go to the next / previous)");
		return true;
	}
	case 'g':
		go_to_time(x, t);
		break;
	case 'f':
		follow_task(x, t);
		return true;
	case ']':
		jump_switch_in(x, t, true);
		break;
	case '[':
		jump_switch_in(x, t, false);
		break;
	case 'd':
		t->density = (t->density + 1) % NR_DENSITY_MODES;
		xp_set_status(x, false, "lanes: %s", density_mode_names[t->density]);
		return true;
	case 'm':
		t->markers = (t->markers + 1) % NR_MARKERS_MODES;
		xp_set_status(x, false, "lane markers: %s", markers_names[t->markers]);
		return true;
	case 'a':
	case 'b':
		set_marker(x, t, ch - 'a');
		return true;
	case 'A':
	case 'B':
		if (!t->has_mark[ch - 'A']) {
			xp_set_status(x, false, "no marker %c: %c sets it at the cursor", ch, ch - 'A' + 'a');
			return true;
		}
		center_on(x, t, t->mark[ch - 'A']);
		break;
	case 'x':
		t->has_mark[0] = t->has_mark[1] = false;
		xp_set_status(x, false, "markers A and B cleared");
		return true;
	case 'v':
		if (!t->has_mark[0] || !t->has_mark[1]) {
			xp_set_status(x, false, "the events between A and B: a and b set them at the cursor");
			return true;
		}
		xp_events_open(x, t->mark[0], t->mark[1], t->follow);
		return true;
	case 'e':
		t->legend_page++;
		return true;
	default:
		return false;
	}
	clamp_view(x, t);
	return true;
}

static const char *tl_check(const struct xp *x, const struct xp_panel *p)
{
	const struct timeline *t = p->priv;

	if (!t->set)
		return NULL;
	if (t->span < MIN_SPAN || t->span > max_span(x))
		return "timeline: span outside [2 us, the trace]";
	if (t->cursor < x->first_ts || t->cursor > x->last_ts)
		return "timeline: the cursor is off the trace";
	if (t->start > t->cursor || t->cursor - t->start > t->span)
		return "timeline: the cursor is out of the window";
	if (t->start > UINT64_MAX - t->span)
		return "timeline: the window's end wraps";
	if (t->sel < 0 || t->sel >= x->nr_cpus || t->first < 0 || t->first >= x->nr_cpus)
		return "timeline: no such CPU selected or first";
	return NULL;
}

static const struct xp_key_help tl_keys[] = {
	{ "Left/Right h/l", "move the time cursor a column" },
	{ "H/L Shift-Left/Right", "scroll half a window" },
	{ "Up/Down j/k", "select a CPU (the lanes scroll)" },
	{ "PgUp/PgDn Space", "a page of CPUs" },
	{ "+ - (z Z)", "zoom in / out around the cursor" },
	{ "c", "center the window on the cursor" },
	{ "Home/End", "start / end of the trace" },
	{ "n / N", "next / previous finding (after /: match)" },
	{ "/", "search a task (name or pid): n / N its runs" },
	{ "\\", "show only the tasks named (name or pid)" },
	{ "Enter", "open the finding at the cursor" },
	{ "g", "go to a time (trace seconds, or +1.5ms from the start)" },
	{ "f", "follow a task (default: the one at the cursor)" },
	{ "] / [", "next / previous switch-in of the followed task" },
	{ "m", "lane markers: auto / over the lanes / own rows / off" },
	{ "d", "lane cells: auto / busy share / task letters" },
	{ "a / b", "set marker A / B at the cursor (B-A is shown)" },
	{ "A / B", "the cursor to marker A / B" },
	{ "v", "the events between markers A and B" },
	{ "x", "clear the markers" },
	{ "e", "the next page of the legend" },
	{ NULL, NULL },
};

const struct xp_panel_ops xp_timeline_ops = {
	.name = "Timeline",
	.init = tl_init,
	.destroy = tl_destroy,
	.draw = tl_draw,
	.key = tl_key,
	.check = tl_check,
	.hints = "h/l cursor  +/- zoom  n/N finding  / search  a/b markers  g time  ?:help",
	.keys = tl_keys,
};
