// SPDX-License-Identifier: GPL-2.0
/*
 * lanes.c - draw a window's per-CPU lanes, its time axis and its legend
 *
 * One lane per CPU, one cell per column: the letter (and colour) of the
 * task that ran longest there, '.' for idle, '?' where the trace does not
 * tell (before a CPU's first event, after lost events), blank outside the
 * trace.  Markers replace the letter, or sit on a row of their own under
 * the lane: ^ wakeup (enqueue), ' waking, > migration in, ! IPI, x lost.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "util/util.h"

static const struct {
	uint16_t bit;
	char glyph;
	const char *name;
} markers[] = {
	{ XP_MARK_LOST,    'x',  "lost events" },
	{ XP_MARK_IPI,     '!',  "IPI" },
	{ XP_MARK_MIGRATE, '>',  "migrate" },
	{ XP_MARK_WAKEUP,  '^',  "wakeup" },
	{ XP_MARK_WAKING,  '\'', "waking" },
};

static char marker_glyph(uint16_t marks)
{
	for (size_t i = 0; i < ARRAY_SIZE(markers); i++)
		if (marks & markers[i].bit)
			return markers[i].glyph;
	return 0;
}

int xp_lanes_rows(const struct xp_lanes *l, int nr)
{
	return nr * (l->marker_rows ? 2 : 1);
}

int xp_lanes_fit(const struct xp_lanes *l, int h)
{
	return h / (l->marker_rows ? 2 : 1);
}

static int lane_cpu(const struct xp_lanes *l, int lane)
{
	return l->order ? l->order[lane] : lane;
}

/* The glyph and attribute of one cell. */
static char cell_glyph(const struct xp *x, const struct xp_lanes *l, const struct xp_cell *c,
		       attr_t *attr)
{
	const struct xp_window *w = l->w;
	uint64_t data = c->busy_ns + c->idle_ns + c->unknown_ns;
	char g;

	*attr = A_NORMAL;
	if (!data)
		return ' ';
	if (c->busy_ns >= c->idle_ns && c->busy_ns >= c->unknown_ns && c->best_ns) {
		g = xp_window_letter(w, c->best_pid);
		*attr = c->best_pid == w->req.highlight_pid ? x->attrs[XP_A_HILITE] : xp_task_attr(x, g);
		return g;
	}
	*attr = x->attrs[XP_A_IDLE];
	return c->idle_ns >= c->unknown_ns ? '.' : '?';
}

void xp_draw_lanes(struct xp *x, const struct xp_lanes *l, const struct xp_rect *r)
{
	const struct xp_window *w = l->w;
	int cols = w->req.cols, y = r->y;
	int lw = l->label_w;

	for (int lane = l->first; lane < l->nr_lanes && y < r->y + r->h; lane++) {
		int cpu = lane_cpu(l, lane);
		bool rel = l->relevant && cpu >= 0 && (l->relevant[cpu / 64] >> (cpu % 64) & 1);
		const struct xp_cell *row = cpu < w->req.nr_cpus ? w->cells + (size_t)cpu * (size_t)cols : NULL;

		xp_putf(y, r->x, lw, lane == l->selected ? x->attrs[XP_A_SELECT] : x->attrs[XP_A_HEAD],
			"%scpu%*d ", rel ? "*" : " ", lw - 5, cpu);
		for (int col = 0; col < cols && lw + col < r->w; col++) {
			attr_t attr = A_NORMAL;
			char g = ' ';

			if (row) {
				g = cell_glyph(x, l, &row[col], &attr);
				if (l->markers && !l->marker_rows) {
					char m = marker_glyph(row[col].marks);

					if (m) {
						g = m;
						attr = x->attrs[XP_A_MARK];
					}
				}
			}
			if (col == l->cursor_col)
				attr |= A_REVERSE;
			attrset(attr);
			mvaddch(y, r->x + lw + col, (chtype)(unsigned char)g);
		}
		attrset(A_NORMAL);
		for (int col = lw + cols; col < r->w; col++)
			mvaddch(y, r->x + col, ' ');
		y++;
		if (l->marker_rows && y < r->y + r->h) {
			xp_put(y, r->x, lw, A_NORMAL, "");
			for (int col = 0; col < cols && lw + col < r->w; col++) {
				char m = row && l->markers ? marker_glyph(row[col].marks) : 0;

				attrset(m ? x->attrs[XP_A_MARK] : A_NORMAL);
				if (col == l->cursor_col)
					attrset(A_REVERSE);
				mvaddch(y, r->x + lw + col, m ? (chtype)(unsigned char)m : ' ');
			}
			attrset(A_NORMAL);
			for (int col = lw + cols; col < r->w; col++)
				mvaddch(y, r->x + col, ' ');
			y++;
		}
	}
	while (y < r->y + r->h)
		xp_put(y++, r->x, r->w, A_NORMAL, "");
}

void xp_draw_axis(struct xp *x, const struct xp_lanes *l, int y, const struct xp_rect *r,
		  uint64_t mark_ts)
{
	const struct xp_window_req *req = &l->w->req;
	char left[32], right[32], scale[48], d[32];
	int lw = l->label_w, cols = MIN(req->cols, r->w - lw);
	char *ruler;

	if (cols <= 0)
		return;
	/* the ruler as characters: '-', then the labels, the findings, this finding, the cursor */
	ruler = xmalloc((size_t)cols + 1);
	memset(ruler, '-', (size_t)cols);
	ruler[cols] = '\0';
	fmt_ts(left, sizeof(left), req->start);
	fmt_ts(right, sizeof(right), req->start + req->span);
	snprintf(scale, sizeof(scale), " %s/col ", xp_dur(d, sizeof(d), req->span / (uint64_t)req->cols));
	if (cols > (int)(strlen(left) + strlen(right) + strlen(scale)) + 6) {
		/* the labels step aside from the cursor (or this finding) rather than lose a digit to it */
		int nl = (int)strlen(left), nr = (int)strlen(right), keep = l->cursor_col;
		int at_left, at_right;

		if (keep < 0 && mark_ts >= req->start && mark_ts < req->start + req->span)
			keep = xp_window_col(req, mark_ts);
		at_left = keep >= 0 && keep < nl + 2 + (int)strlen(scale) ? keep + 1 : 0;
		/* the end's label only at the end: left out where the mark is */
		at_right = keep >= cols - nr - 1 ? -1 : cols - nr;

		if (at_left + nl + 2 + (int)strlen(scale) < cols - nr) {
			memcpy(ruler + at_left, left, (size_t)nl);
			if (at_right >= 0)
				memcpy(ruler + at_right, right, (size_t)nr);
			memcpy(ruler + at_left + nl + 2, scale, strlen(scale));
		}
	}
	for (size_t i = 0; i < x->nr_findings; i++) {
		uint64_t ts = x->findings[i].ts;

		if (ts >= req->start && ts < req->start + req->span) {
			int col = xp_window_col(req, ts);

			if (col < cols && ruler[col] == '-')
				ruler[col] = 'F';
		}
	}
	xp_put(y, r->x, lw, A_NORMAL, "");
	for (int col = 0; col < cols; col++) {
		attr_t attr = ruler[col] == 'F' ? x->attrs[XP_A_BAD] : x->attrs[XP_A_DIM];

		if (mark_ts >= req->start && mark_ts < req->start + req->span &&
		    col == xp_window_col(req, mark_ts)) {
			ruler[col] = '|';
			attr = x->attrs[XP_A_HILITE];
		}
		if (col == l->cursor_col) {
			ruler[col] = '^';
			attr = x->attrs[XP_A_CURSOR];
		}
		attrset(attr);
		if (ruler[col] == '-' && x->utf8)
			mvaddstr(y, r->x + lw + col, "─");
		else
			mvaddch(y, r->x + lw + col, (chtype)(unsigned char)ruler[col]);
	}
	attrset(A_NORMAL);
	xp_put(y, r->x + lw + cols, r->w - lw - cols, A_NORMAL, "");
	free(ruler);
}

int xp_draw_legend(struct xp *x, const struct xp_window *w, int y, const struct xp_rect *r,
		   int max_rows)
{
	int row = 0, col = 0;
	char item[96], name[64];

#define PUT_ITEM(attr_letter, letter, text)						\
	do {										\
		int n = (int)strlen(text) + 4;						\
		if (col + n > r->w && col) {						\
			if (++row >= max_rows)						\
				goto done;						\
			col = 0;							\
		}									\
		xp_put(y + row, r->x + col, 1, attr_letter, (char[2]){ letter, 0 });	\
		xp_put(y + row, r->x + col + 1, n - 1, A_NORMAL, text);		\
		col += n;								\
	} while (0)

	if (max_rows <= 0)
		return 0;
	xp_put(y, r->x, r->w, A_NORMAL, "");
	for (size_t i = 0; i < w->nr_tasks && w->tasks[i].letter; i++) {
		const struct xp_window_task *t = &w->tasks[i];
		bool hl = t->pid == w->req.highlight_pid;

		snprintf(item, sizeof(item), " %s%s", xp_task_name(x, t->pid, t->comm, name, sizeof(name)),
			 hl ? "*" : "");
		if (i >= 12 && !hl) {
			snprintf(item, sizeof(item), " ...%zu more", w->nr_tasks - i);
			PUT_ITEM(A_NORMAL, '+', item);
			break;
		}
		PUT_ITEM(hl ? x->attrs[XP_A_HILITE] : xp_task_attr(x, t->letter), t->letter, item);
	}
	PUT_ITEM(x->attrs[XP_A_IDLE], '.', " idle");
	PUT_ITEM(x->attrs[XP_A_IDLE], '?', " unknown");
	for (size_t i = ARRAY_SIZE(markers); i-- > 0;) {
		snprintf(item, sizeof(item), " %s", markers[i].name);
		PUT_ITEM(x->attrs[XP_A_MARK], markers[i].glyph, item);
	}
done:
	return MIN(row + 1, max_rows);
#undef PUT_ITEM
}

void xp_describe_cell(const struct xp *x, const struct xp_window *w, int cpu, int col,
		      char *buf, size_t len)
{
	const struct xp_window_req *req = &w->req;
	const struct xp_cell *c;
	char t0[32], d[32], name[64];
	uint64_t width, data;
	size_t n;

	if (cpu < 0 || cpu >= req->nr_cpus || col < 0 || col >= req->cols) {
		snprintf(buf, len, "-");
		return;
	}
	c = &w->cells[(size_t)cpu * (size_t)req->cols + (size_t)col];
	width = (col + 1 < req->cols ? xp_window_col_ts(req, col + 1) : req->start + req->span) -
		xp_window_col_ts(req, col);
	data = c->busy_ns + c->idle_ns + c->unknown_ns;
	n = (size_t)snprintf(buf, len, "cpu %d at %s (%s): ", cpu,
			     fmt_ts(t0, sizeof(t0), xp_window_col_ts(req, col)),
			     xp_dur(d, sizeof(d), width));
	if (n >= len)
		return;
	if (!data)
		n += (size_t)snprintf(buf + n, len - n, "outside the trace");
	else if (c->best_ns)
		n += (size_t)snprintf(buf + n, len - n, "%s ran %s, busy %d%%",
				      xp_task_name(x, c->best_pid, 0, name, sizeof(name)),
				      xp_dur(d, sizeof(d), c->best_ns), (int)(c->busy_ns * 100 / data));
	else
		n += (size_t)snprintf(buf + n, len - n, "%s", c->idle_ns >= c->unknown_ns ?
				      "idle" : "not known (no events yet, or lost)");
	for (size_t i = 0; i < ARRAY_SIZE(markers) && n < len; i++)
		if (c->marks & markers[i].bit)
			n += (size_t)snprintf(buf + n, len - n, "  %c %s", markers[i].glyph, markers[i].name);
}
