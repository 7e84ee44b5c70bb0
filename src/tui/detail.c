// SPDX-License-Identifier: GPL-2.0
/*
 * detail.c - one finding: what it says, the CPUs around it, the events
 *
 * The finding's kind, time, CPU, task and cost; its message; its own
 * fields as key: value (whatever its kind's json hook writes, so a new
 * kind needs nothing here); then a timeline window around its time with
 * the CPUs it names first (marked *), and the raw events nearest to it,
 * as trace-cmd report would print them.
 */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/report.h"
#include "tui.h"
#include "util/util.h"

#define DETAIL_EVENTS	300	/* raw events kept on each side of the finding */
#define FIELD_TEXT	96
#define MIN_SPAN	2000ULL	/* 2 us: zoom-in stops there */

struct detail {
	size_t cur;			/* the finding: index in x->findings */
	bool open;
	char (*fields)[FIELD_TEXT];	/* "key: value" of the kind's own fields */
	int nr_fields;
	uint64_t *relevant;		/* CPUs the finding names (bitmap) */
	int *order;			/* lanes: the named CPUs first */
	int nr_relevant;

	uint64_t span, start;		/* the window */
	uint64_t open_span;		/* its span when the finding was opened */
	bool all_events;		/* raw events of every CPU, not only the named ones */
	bool marker_rows;
	struct xp_window w;
	bool have_window;
	struct xp_window_req made;	/* what w was read for */
	int lane_first;
	int ev_sel, ev_top;		/* the event list */
	int legend_page;		/* e pages through the legend */
};

static bool is_cpu_key(const char *key)
{
	size_t n = strlen(key);

	return !strcmp(key, "cpu") || (n > 4 && !strcmp(key + n - 4, "_cpu")) ||
	       !strcmp(key, "cpus") || (n > 5 && !strcmp(key + n - 5, "_cpus"));
}

static void add_relevant(struct xp *x, struct detail *d, int64_t cpu)
{
	if (cpu < 0 || cpu >= x->nr_cpus || (d->relevant[cpu / 64] >> (cpu % 64) & 1))
		return;
	d->relevant[cpu / 64] |= 1ULL << (cpu % 64);
	d->order[d->nr_relevant++] = (int)cpu;
}

static int64_t json_int(const cJSON *item)
{
	if (cJSON_IsRaw(item) && item->valuestring)
		return strtoll(item->valuestring, NULL, 10);
	if (cJSON_IsNumber(item))
		return (int64_t)item->valuedouble;
	return -1;
}

/* The kind's own fields, and the CPUs they name. */
static void load_fields(struct xp *x, struct detail *d, const struct sl_finding *f)
{
	static const char *const common[] = { "kind", "ts_ns", "cpu", "pid", "comm", "cost_ns", "message" };
	cJSON *obj = cJSON_CreateObject(), *item;
	struct sl_fields_tree tree;

	d->nr_fields = 0;
	sl_fields_tree_init(&tree, obj);
	if (f->ops && f->ops->fields)
		f->ops->fields(f, x->m, &tree.base);
	cJSON_ArrayForEach(item, obj) {
		char value[FIELD_TEXT], *text = NULL;
		bool skip = false;

		for (size_t i = 0; i < ARRAY_SIZE(common); i++)
			skip |= !strcmp(item->string, common[i]);
		if (is_cpu_key(item->string)) {
			const cJSON *e;

			if (cJSON_IsArray(item))
				cJSON_ArrayForEach(e, item)
					add_relevant(x, d, json_int(e));
			else
				add_relevant(x, d, json_int(item));
		}
		if (skip)
			continue;
		if (cJSON_IsString(item)) {
			snprintf(value, sizeof(value), "%s", item->valuestring);
		} else {
			text = cJSON_PrintUnformatted(item);
			snprintf(value, sizeof(value), "%s", text ? text : "?");
			free(text);
		}
		/*
		 * ns: a time in the trace as trace-cmd prints it (seconds, so
		 * the name loses its "_ns"), a duration in words after the ns
		 */
		int name_len = (int)strlen(item->string);

		if (name_len > 3 && !strcmp(item->string + name_len - 3, "_ns") && json_int(item) > 0) {
			uint64_t v = (uint64_t)json_int(item);
			char t[32];

			if (v >= x->first_ts && v <= x->last_ts && x->first_ts) {
				snprintf(value, sizeof(value), "%s", fmt_ts(t, sizeof(t), v));
				name_len -= 3;
			} else {
				snprintf(value + strlen(value), sizeof(value) - strlen(value), " (%s)",
					 xp_dur(t, sizeof(t), v));
			}
		}
		d->fields = xrealloc(d->fields, (size_t)(d->nr_fields + 1) * sizeof(*d->fields));
		snprintf(d->fields[d->nr_fields++], FIELD_TEXT, "%.*s: %s", name_len, item->string, value);
	}
	cJSON_Delete(obj);
}

/* Zoom-out stops at the whole trace (or the window it opened with, when wider). */
static uint64_t max_span(const struct xp *x, const struct detail *d)
{
	uint64_t dur = sl_dur(x->first_ts, x->last_ts);

	return MAX(dur < UINT64_MAX ? dur + 1 : dur, d->open_span);
}

/* Some of the trace stays in the window, and its end (start + span) does not wrap. */
static void clamp_window(const struct xp *x, struct detail *d)
{
	d->span = MIN(MAX(d->span, MIN_SPAN), max_span(x, d));
	if (d->start > x->last_ts)
		d->start = x->last_ts;
	if (d->start < x->first_ts && x->first_ts - d->start > d->span)
		d->start = x->first_ts - d->span;
	if (d->start > UINT64_MAX - d->span)
		d->start = UINT64_MAX - d->span;
}

/*
 * The new span around the finding, which keeps its place on the screen;
 * around the window's middle when the finding was moved out of it.
 */
static void zoom(const struct xp *x, struct detail *d, const struct sl_finding *f, uint64_t span)
{
	uint64_t at = f->ts >= d->start && f->ts - d->start <= d->span ? f->ts : d->start + d->span / 2;
	uint64_t before = (uint64_t)((unsigned __int128)(at - d->start) * span / d->span);

	d->start = at > before ? at - before : 0;
	d->span = span;
	clamp_window(x, d);
}

void xp_detail_open(struct xp *x, size_t finding)
{
	struct detail *d = x->panels[XP_DETAIL].priv;
	const struct sl_finding *f = &x->findings[finding];
	int next = 0;

	d->cur = finding;
	d->open = true;
	memset(d->relevant, 0, (size_t)(x->nr_cpus + 63) / 64 * sizeof(*d->relevant));
	d->nr_relevant = 0;
	add_relevant(x, d, f->cpu);
	load_fields(x, d, f);
	/* the other CPUs after the named ones */
	for (int cpu = 0; cpu < x->nr_cpus; cpu++)
		if (!(d->relevant[cpu / 64] >> (cpu % 64) & 1))
			d->order[d->nr_relevant + next++] = cpu;
	/* a window several times the cost: the run or the wait and what came before */
	d->span = MAX(f->cost * 6, 200000ULL);
	d->span = MIN(d->span, 2000000000ULL);
	d->open_span = d->span;
	d->start = f->ts > d->span / 2 ? f->ts - d->span / 2 : 0;
	/* within the trace when it is longer than the window: no columns wasted before its start */
	if (x->last_ts > x->first_ts && sl_dur(x->first_ts, x->last_ts) > d->span) {
		d->start = MAX(d->start, x->first_ts);
		d->start = MIN(d->start, x->last_ts - d->span);
	}
	clamp_window(x, d);
	d->all_events = x->nr_cpus <= 8;
	d->lane_first = 0;
	d->ev_sel = -1;
	d->have_window = false;
	xp_show(x, XP_DETAIL);
}

static void dt_init(struct xp *x, struct xp_panel *p)
{
	struct detail *d = xcalloc(1, sizeof(*d));

	d->relevant = xcalloc((size_t)(x->nr_cpus + 63) / 64 + 1, sizeof(*d->relevant));
	d->order = xcalloc((size_t)x->nr_cpus + 1, sizeof(*d->order));
	d->marker_rows = true;
	p->priv = d;
}

static void dt_destroy(struct xp *x, struct xp_panel *p)
{
	struct detail *d = p->priv;

	xp_window_free(&d->w);
	free(d->fields);
	free(d->relevant);
	free(d->order);
	free(d);
}

/* Re-read the window when what it shows changed. */
static void update_window(struct xp *x, struct detail *d, int cols)
{
	const struct sl_finding *f = &x->findings[d->cur];
	struct xp_window_req req = {
		.start = d->start, .span = d->span, .cols = cols, .nr_cpus = x->nr_cpus,
		.highlight_pid = f->pid, .center = f->ts, .max_events = DETAIL_EVENTS,
		.event_cpus = d->all_events ? NULL : d->relevant,
	};

	if (d->have_window && !memcmp(&req, &d->made, sizeof(req)))
		return;
	d->made = req;
	d->have_window = xp_read_window(x, &d->w, &req) == 0;
	d->ev_sel = -1;
}

/* Lines of wrapped "key: value" items, at most max_rows; returns rows used. */
static int draw_fields(struct xp *x, struct detail *d, int y, const struct xp_rect *r, int max_rows)
{
	int row = 0, col = 1;

	if (!d->nr_fields || max_rows <= 0)
		return 0;
	xp_put(y, r->x, r->w, A_NORMAL, "");
	for (int i = 0; i < d->nr_fields; i++) {
		int n = (int)strlen(d->fields[i]) + 3;

		if (col + n > r->w && col > 1) {
			if (++row >= max_rows)
				break;
			col = 1;
			xp_put(y + row, r->x, r->w, A_NORMAL, "");
		}
		xp_put(y + row, r->x + col, MIN(n, r->w - col), A_NORMAL, d->fields[i]);
		col += n;
	}
	return MIN(row + 1, max_rows);
}

static void dt_draw(struct xp *x, struct xp_panel *p, const struct xp_rect *r)
{
	struct detail *d = p->priv;
	const struct sl_finding *f;
	char ts[32], cost[32], task[64], msg[512], line[512];
	struct xp_lanes lanes = { 0 };
	int y = r->y, bottom = r->y + r->h, lanes_h, ev_h, msg_len;
	bool shown[128] = { false };

	if (!d->open) {
		xp_clear(r);
		xp_put(r->y + 1, r->x, r->w, A_NORMAL, "  no finding open: choose one in the findings list (2)");
		return;
	}
	f = &x->findings[d->cur];
	xp_put(y, r->x, r->w, A_NORMAL, "");
	xp_putf(y, r->x, (int)strlen(sl_kinds[f->kind].name) + 2, x->attrs[XP_A_BAD], " %s",
		sl_kinds[f->kind].name);
	xp_putf(y++, r->x + (int)strlen(sl_kinds[f->kind].name) + 2,
		r->w - (int)strlen(sl_kinds[f->kind].name) - 2, x->attrs[XP_A_HEAD],
		"#%zu of %zu  at %s  cpu %d  %s  cost %s", d->cur + 1, x->nr_findings,
		fmt_ts(ts, sizeof(ts), f->ts), f->cpu, xp_task_name(x, f->pid, f->comm, task, sizeof(task)),
		xp_dur(cost, sizeof(cost), f->cost));
	sl_finding_message(f, x->m, msg, sizeof(msg));
	msg_len = (int)strlen(msg);
	{
		/* two rows at most, broken at a space */
		int room = r->w - 2, cut = msg_len;

		if (msg_len > room) {
			for (cut = room; cut > room / 2 && msg[cut] != ' '; cut--)
				;
			if (msg[cut] != ' ')
				cut = room;
		}
		xp_putf(y++, r->x + 1, r->w - 1, A_NORMAL, "%.*s", cut, msg);
		if (cut < msg_len)
			xp_put(y++, r->x + 1, r->w - 1, A_NORMAL, msg + cut + (msg[cut] == ' '));
	}
	/* what the other decision would have given (man schedlint-analyze, WHAT IF) */
	if (sl_finding_whatif_text(f, x->m, msg, sizeof(msg)))
		xp_putf(y++, r->x + 1, r->w - 1, A_NORMAL, "%s", msg);
	y += draw_fields(x, d, y, r, r->h >= 30 ? 3 : 2);

	/* the lanes */
	lanes.label_w = 8;
	update_window(x, d, MAX(10, r->w - lanes.label_w));
	if (!d->have_window) {
		while (y < bottom)
			xp_put(y++, r->x, r->w, A_NORMAL, "");
		return;
	}
	lanes.w = &d->w;
	lanes.order = d->order;
	lanes.nr_lanes = x->nr_cpus;
	lanes.relevant = d->relevant;
	lanes.selected = -1;
	lanes.cursor_col = -1;
	lanes.markers = true;
	lanes.shown = shown;
	/* room for the axis, a legend row and at least 4 events */
	lanes_h = bottom - y - 2 - 5;
	lanes.marker_rows = d->marker_rows && xp_lanes_rows(&lanes, x->nr_cpus) <= lanes_h;
	lanes_h = MIN(lanes_h, xp_lanes_rows(&lanes, x->nr_cpus));
	if (lanes_h < 1)
		lanes_h = 1;
	if (d->lane_first > x->nr_cpus - xp_lanes_fit(&lanes, lanes_h))
		d->lane_first = MAX(0, x->nr_cpus - xp_lanes_fit(&lanes, lanes_h));
	lanes.first = d->lane_first;
	xp_draw_lanes(x, &lanes, &(struct xp_rect){ y, r->x, lanes_h, r->w });
	y += lanes_h;
	xp_draw_axis(x, &lanes, y++, r, f->ts);
	y += xp_draw_legend(x, &lanes, &d->legend_page, y, r, bottom - y >= 10 ? 2 : 1);

	/* the raw events */
	if (y >= bottom)
		return;
	xp_putf(y++, r->x, r->w, x->attrs[XP_A_HEAD], " events %s (%s; Enter: timeline there)",
		d->all_events ? "of all CPUs" : "of the CPUs marked *",
		d->all_events ? "a: only the marked CPUs" : "a: all CPUs");
	ev_h = bottom - y;
	if (d->ev_sel < 0) {
		d->ev_sel = (int)MIN(d->w.center_idx, d->w.nr_events ? d->w.nr_events - 1 : 0);
		d->ev_top = d->ev_sel - ev_h / 3;
	}
	xp_list_clamp(&d->ev_sel, &d->ev_top, (int)d->w.nr_events, ev_h);
	for (int row = 0; row < ev_h; row++, y++) {
		int i = d->ev_top + row;
		const struct xp_raw_event *e;
		attr_t attr = A_NORMAL;
		bool mine;

		if (i >= (int)d->w.nr_events) {
			xp_put(y, r->x, r->w, A_NORMAL, i == 0 ? "  (no events in this window)" : "");
			continue;
		}
		e = &d->w.events[i];
		xp_event_text(x, e, line, sizeof(line));
		mine = e->ev.pid == f->pid ||
		       (e->ev.type == SL_EV_SWITCH && (e->ev.sw.prev_pid == f->pid || e->ev.sw.next_pid == f->pid)) ||
		       ((e->ev.type == SL_EV_WAKING || e->ev.type == SL_EV_WAKEUP || e->ev.type == SL_EV_WAKEUP_NEW) &&
			e->ev.wake.pid == f->pid) ||
		       (e->ev.type == SL_EV_MIGRATE && e->ev.migrate.pid == f->pid);
		if (mine)
			attr = A_BOLD;
		if (i == d->ev_sel)
			attr = x->attrs[XP_A_SELECT];
		xp_putf(y, r->x, r->w, attr, "%c%s", (size_t)i == d->w.center_idx ? '>' : ' ', line);
	}
}

static bool dt_key(struct xp *x, struct xp_panel *p, int ch)
{
	struct detail *d = p->priv;
	const struct sl_finding *f;
	int page = MAX(1, p->last.h / 3);

	if (!d->open)
		return false;
	f = &x->findings[d->cur];
	if (d->have_window && xp_list_key(ch, &d->ev_sel, (int)d->w.nr_events, page))
		return true;
	switch (ch) {
	case '+':
	case '=':
	case 'z':
		if (d->span / 2 >= MIN_SPAN)
			zoom(x, d, f, d->span / 2);
		else
			xp_set_status(x, false, "zoomed in as far as it goes");
		return true;
	case '-':
	case 'Z':
		if (d->span >= max_span(x, d))
			xp_set_status(x, false, "the whole trace is in the window");
		else
			zoom(x, d, f, MIN(d->span <= UINT64_MAX / 2 ? d->span * 2 : UINT64_MAX, max_span(x, d)));
		return true;
	case KEY_LEFT:
	case 'h':
		d->start = d->start > d->span / 4 ? d->start - d->span / 4 : 0;
		clamp_window(x, d);
		return true;
	case KEY_RIGHT:
	case 'l':
		d->start = d->start < UINT64_MAX - d->span / 4 ? d->start + d->span / 4 : UINT64_MAX;
		clamp_window(x, d);
		return true;
	case '0':
		xp_detail_open(x, d->cur);
		return true;
	case 'J':
		if (d->lane_first < x->nr_cpus - 1)
			d->lane_first++;
		return true;
	case 'K':
		if (d->lane_first > 0)
			d->lane_first--;
		return true;
	case 'a':
		d->all_events = !d->all_events;
		return true;
	case 'm':
		d->marker_rows = !d->marker_rows;
		return true;
	case 'e':
		d->legend_page++;
		return true;
	case 'n':
	case 'p':
	case 'N': {
		size_t next = xp_findings_step(x, d->cur, ch == 'n' ? 1 : -1);
		char where[128];

		xp_findings_position(x, d->cur, where, sizeof(where));
		if (next == d->cur) {
			xp_set_status(x, false, "no %s finding: this one is %s", ch == 'n' ? "next" : "previous", where);
			return true;
		}
		xp_detail_open(x, next);
		xp_set_status(x, false, "%s finding: %s", ch == 'n' ? "next" : "previous",
			      xp_findings_position(x, next, where, sizeof(where)));
		return true;
	}
	case 't':
		xp_timeline_goto(x, f->ts, f->pid, f->cpu);
		return true;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (d->have_window && d->ev_sel >= 0 && (size_t)d->ev_sel < d->w.nr_events)
			xp_timeline_goto(x, d->w.events[d->ev_sel].ev.ts, f->pid,
					 d->w.events[d->ev_sel].ev.cpu);
		else
			xp_timeline_goto(x, f->ts, f->pid, f->cpu);
		return true;
	default:
		return false;
	}
}

static const char *dt_check(const struct xp *x, const struct xp_panel *p)
{
	const struct detail *d = p->priv;

	if (!d->open)
		return NULL;
	if (d->cur >= x->nr_findings)
		return "detail: no such finding";
	if (d->span < MIN_SPAN || d->span > max_span(x, d))
		return "detail: span outside [2 us, the trace]";
	if (d->start > UINT64_MAX - d->span)
		return "detail: the window's end wraps";
	if (d->lane_first < 0 || d->lane_first >= x->nr_cpus)
		return "detail: first lane out of the CPUs";
	return NULL;
}

static const struct xp_key_help dt_keys[] = {
	{ "Up/Down j/k", "select an event (PgUp/PgDn, Home/End)" },
	{ "Enter", "the timeline at the selected event" },
	{ "t", "the timeline at the finding" },
	{ "+ - (z Z)", "zoom the window in / out" },
	{ "Left/Right h/l", "move the window" },
	{ "0", "the window as it opened" },
	{ "J / K", "scroll the CPUs (many CPUs)" },
	{ "a", "events of all CPUs / of the CPUs the finding names" },
	{ "m", "markers on their own row / over the lanes" },
	{ "e", "the next page of the legend" },
	{ "n / p", "next / previous finding in the list's order" },
	{ "Esc Backspace", "back to the list" },
	{ NULL, NULL },
};

const struct xp_panel_ops xp_detail_ops = {
	.name = "Finding",
	.init = dt_init,
	.destroy = dt_destroy,
	.draw = dt_draw,
	.key = dt_key,
	.check = dt_check,
	.hints = "j/k events  +/- zoom  h/l move  n/p next/prev  t timeline  Esc back  ?:help",
	.keys = dt_keys,
};
