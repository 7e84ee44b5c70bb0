// SPDX-License-Identifier: GPL-2.0
/*
 * events.c - the events between the timeline's markers A and B
 *
 * As KernelShark's two markers: the time between them and what happened
 * in it.  The events of [A, B] are read again from the trace (from the
 * index's checkpoint before A), counted by type and listed, the first
 * EVENTS_KEPT of them kept; Enter puts the timeline's cursor on one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "util/util.h"

#define EVENTS_KEPT	5000	/* listed; the rest are counted */

struct events_view {
	bool open, have;		/* asked for; read */
	uint64_t from, to;		/* [from, to] */
	int32_t highlight;		/* the followed task: its events in bold, -1 none */
	struct xp_raw_event *ev;	/* the first EVENTS_KEPT, in time order */
	size_t nr;
	uint64_t total;
	uint64_t by_type[SL_EV__COUNT];
	uint32_t type_name[SL_EV__COUNT];	/* as the trace names it (sched_switch), 0 none */
	int sel, top;
};

void xp_events_open(struct xp *x, uint64_t from, uint64_t to, int32_t highlight)
{
	struct events_view *v = x->panels[XP_EVENTS].priv;

	v->open = true;
	v->have = false;
	v->from = MIN(from, to);
	v->to = MAX(from, to);
	v->highlight = highlight;
	v->sel = v->top = 0;
	xp_show(x, XP_EVENTS);
}

/* Read [from, to]: 0, or -errno (said in the status line). */
static int read_events(struct xp *x, struct events_view *v)
{
	const struct xp_checkpoint *cp = xp_index_find(&x->idx, v->from);
	struct xp_comms comms = { 0 };
	struct sl_event ev;
	int ret;

	v->nr = 0;
	v->total = 0;
	memset(v->by_type, 0, sizeof(v->by_type));
	memset(v->type_name, 0, sizeof(v->type_name));
	xp_busy(x, "the events between A and B");
	ret = xp_source_seek(&x->src, cp ? cp->ts : v->from);
	while (ret >= 0 && (ret = xp_source_next(&x->src, &ev)) > 0) {
		if (ev.ts > v->to)
			break;
		xp_comms_note(&comms, &ev);
		if (ev.ts < v->from)
			continue;
		v->total++;
		if ((unsigned)ev.type < SL_EV__COUNT) {
			v->by_type[ev.type]++;
			if (!v->type_name[ev.type])
				v->type_name[ev.type] = ev.name;
		}
		if (v->nr < EVENTS_KEPT)
			xp_raw_keep(&v->ev[v->nr++], &ev, xp_comms_get(&comms, ev.pid));
	}
	xp_comms_free(&comms);
	if (ret < 0 && ret != -EINTR)
		xp_set_status(x, true, "%s: %s", x->name, x->src.err.msg[0] ? x->src.err.msg : strerror(-ret));
	return ret < 0 ? ret : 0;
}

static void ev_init(struct xp *x, struct xp_panel *p)
{
	struct events_view *v = xcalloc(1, sizeof(*v));

	v->ev = xcalloc(EVENTS_KEPT, sizeof(*v->ev));
	p->priv = v;
}

static void ev_destroy(struct xp *x, struct xp_panel *p)
{
	struct events_view *v = p->priv;

	free(v->ev);
	free(v);
}

static bool mine(const struct sl_event *ev, int32_t pid)
{
	return pid > 0 && (ev->pid == pid ||
		(ev->type == SL_EV_SWITCH && (ev->sw.prev_pid == pid || ev->sw.next_pid == pid)) ||
		((ev->type == SL_EV_WAKING || ev->type == SL_EV_WAKEUP || ev->type == SL_EV_WAKEUP_NEW) &&
		 ev->wake.pid == pid) ||
		(ev->type == SL_EV_MIGRATE && ev->migrate.pid == pid));
}

static void ev_draw(struct xp *x, struct xp_panel *p, const struct xp_rect *r)
{
	struct events_view *v = p->priv;
	char a[32], b[32], d[32], line[512], types[512];
	int y = r->y, bottom = r->y + r->h, list_h;
	size_t n = 0;

	if (!v->open) {
		xp_clear(r);
		xp_put(r->y + 1, r->x, r->w, A_NORMAL,
		       "  no markers: in the timeline (3), a and b set them, v lists the events between");
		return;
	}
	if (!v->have) {
		if (read_events(x, v) < 0) {
			xp_clear(r);
			return;
		}
		v->have = true;
	}
	xp_putf(y++, r->x, r->w, x->attrs[XP_A_HEAD], " A %s to B %s: %s, %" PRIu64 " events%s",
		fmt_ts(a, sizeof(a), v->from), fmt_ts(b, sizeof(b), v->to),
		xp_dur(d, sizeof(d), v->to - v->from), v->total,
		v->total > v->nr ? " (the first listed)" : "");
	types[0] = '\0';
	for (int t = 0; t < SL_EV__COUNT && n < sizeof(types); t++)
		if (v->by_type[t])
			n += (size_t)snprintf(types + n, sizeof(types) - n, "%s%" PRIu64 " %s", n ? ", " : "",
					      v->by_type[t], v->type_name[t] && t != SL_EV_OTHER ?
					      sl_str(x->m->strtab, v->type_name[t]) : sl_event_type_name(t));
	xp_putf(y++, r->x, r->w, A_NORMAL, " %s", v->total ? types : "no events between the markers");
	list_h = bottom - y;
	xp_list_clamp(&v->sel, &v->top, (int)v->nr, list_h);
	for (int row = 0; row < list_h; row++, y++) {
		int i = v->top + row;
		attr_t attr = A_NORMAL;

		if (i >= (int)v->nr) {
			xp_put(y, r->x, r->w, A_NORMAL, "");
			continue;
		}
		xp_event_text(x, &v->ev[i], line, sizeof(line));
		if (mine(&v->ev[i].ev, v->highlight))
			attr = A_BOLD;
		if (i == v->sel)
			attr = x->attrs[XP_A_SELECT];
		xp_putf(y, r->x, r->w, attr, " %s", line);
	}
}

static bool ev_key(struct xp *x, struct xp_panel *p, int ch)
{
	struct events_view *v = p->priv;

	if (!v->open || !v->have)
		return false;
	if (xp_list_key(ch, &v->sel, (int)v->nr, MAX(1, p->last.h - 2)))
		return true;
	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (v->sel >= 0 && (size_t)v->sel < v->nr)
			xp_timeline_goto(x, v->ev[v->sel].ev.ts, -1, v->ev[v->sel].ev.cpu);
		return true;
	default:
		return false;
	}
}

static const struct xp_key_help ev_keys[] = {
	{ "Up/Down j/k", "select an event (PgUp/PgDn, Home/End)" },
	{ "Enter", "the timeline's cursor on the event" },
	{ "Esc Backspace", "back to the timeline" },
	{ NULL, NULL },
};

const struct xp_panel_ops xp_events_ops = {
	.name = "Events A-B",
	.init = ev_init,
	.destroy = ev_destroy,
	.draw = ev_draw,
	.key = ev_key,
	.hints = "j/k select  Enter the timeline there  Esc back  ?:help  q:quit",
	.keys = ev_keys,
};
