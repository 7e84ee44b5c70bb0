// SPDX-License-Identifier: GPL-2.0
/*
 * lanes.c - draw a window's per-CPU lanes, its time axis and its legend
 *
 * One lane per CPU, one cell per column: the letter (and colour) of the
 * task that ran longest there, '.' for idle, '?' where the trace does not
 * tell (before a CPU's first event, after lost events), blank outside the
 * trace.  Markers replace the letter, or sit on a row of their own under
 * the lane: ^ wakeup (enqueue), ' waking, > migration in, ! IPI, x lost.
 * Zoomed out, a letter says little (a column holds many runs): the
 * density view draws each cell's busy share of the time its CPU's state
 * is known instead, : up to 25%, = up to 50%, * up to 75%, # more.
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

/*
 * shown[] is indexed by the glyph; what is not a glyph of the lanes takes a
 * control character's place: the axis's glyphs ('^' is a lane marker too)
 * and a waiting task's letter under a lane.
 */
#define AXIS_SHOWN(i)	(1 + (i))
#define WAITING_SHOWN	16
static const struct {
	char glyph;
	const char *name;
} axis_glyphs[] = {
	{ 'F', "a finding (axis)" }, { '|', "this finding (axis)" }, { '^', "the cursor (axis)" },
	{ 'A', "marker A (axis)" }, { 'B', "marker B (axis)" },
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

static const char density_glyphs[] = ":=*#";
static const char *const density_names[] = {
	"busy up to 25% (density)", "busy 25-50%", "busy 50-75%", "busy 75% or more",
};

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
	if (l->density) {
		uint64_t known = c->busy_ns + c->idle_ns;

		if (c->unknown_ns > known) {
			*attr = x->attrs[XP_A_IDLE];
			return '?';
		}
		if (!c->busy_ns) {
			*attr = x->attrs[XP_A_IDLE];
			return '.';
		}
		/* 4 levels of (0, 1]: a sliver of work still shows */
		g = density_glyphs[MIN(3, (int)((c->busy_ns * 4 - 1) / known))];
		if (g == '#')
			*attr = A_BOLD;
		return g;
	}
	if (c->busy_ns >= c->idle_ns && c->busy_ns >= c->unknown_ns && c->best_ns) {
		g = xp_window_letter(w, c->best_pid);
		*attr = c->best_pid == w->req.highlight_pid ? x->attrs[XP_A_HILITE] : xp_task_attr(x, g);
		return g;
	}
	if (c->busy_ns >= c->idle_ns && c->busy_ns >= c->unknown_ns && c->other_ns) {
		*attr = x->attrs[XP_A_DIM];
		return '-';	/* busy with tasks the filter hides */
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
			if (l->shown && r->x + lw + col < COLS)
				l->shown[(unsigned char)g & 127] = true;
		}
		attrset(A_NORMAL);
		for (int col = lw + cols; col < r->w; col++)
			mvaddch(y, r->x + col, ' ');
		y++;
		if (l->marker_rows && y < r->y + r->h) {
			xp_put(y, r->x, lw, A_NORMAL, "");
			for (int col = 0; col < cols && lw + col < r->w; col++) {
				char m = row && l->markers ? marker_glyph(row[col].marks) : 0;
				char g = m;

				attrset(m ? x->attrs[XP_A_MARK] : A_NORMAL);
				if (!m && row && row[col].wait_ns) {
					/* no marker here: the task that waited longest on this CPU */
					g = xp_window_letter(w, row[col].wait_pid);
					attrset(x->attrs[XP_A_WAIT]);
					if (l->shown && r->x + lw + col < COLS)
						l->shown[WAITING_SHOWN] = true;
				}
				if (col == l->cursor_col)
					attrset(A_REVERSE);
				mvaddch(y, r->x + lw + col, g ? (chtype)(unsigned char)g : ' ');
				if (l->shown && g && r->x + lw + col < COLS)
					l->shown[(unsigned char)g & 127] = true;
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
	for (int i = 0; i < 2; i++) {
		const uint64_t *m = i ? l->mark_b : l->mark_a;

		if (m && *m >= req->start && *m - req->start <= req->span)
			ruler[xp_window_col(req, *m)] = (char)('A' + i);
	}
	xp_put(y, r->x, lw, A_NORMAL, "");
	for (int col = 0; col < cols; col++) {
		attr_t attr = ruler[col] == 'F' ? x->attrs[XP_A_BAD] :
			      ruler[col] == 'A' || ruler[col] == 'B' ? x->attrs[XP_A_MARK] : x->attrs[XP_A_DIM];

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
		/* the axis's own glyphs, told apart from the lanes' ('^' is both) */
		if (l->shown && strchr("F|^AB", ruler[col]) && r->x + lw + col < COLS)
			l->shown[AXIS_SHOWN(strchr("F|^AB", ruler[col]) - "F|^AB")] = true;
	}
	attrset(A_NORMAL);
	xp_put(y, r->x + lw + cols, r->w - lw - cols, A_NORMAL, "");
	free(ruler);
}

#define PAGE_NOTE_W	14	/* " e: more 2/3" */

struct legend_item {
	char glyph;
	attr_t attr;
	char text[100];
	int row, col;			/* where it goes, in rows of all the pages */
};

static void add_item(struct legend_item **items, size_t *nr, size_t *alloc, char glyph, attr_t attr,
		     const char *text)
{
	GROW(*items, *alloc, *nr + 1);
	(*items)[*nr].glyph = glyph;
	(*items)[*nr].attr = attr;
	snprintf((*items)[*nr].text, sizeof((*items)[*nr].text), " %s", text);
	(*nr)++;
}

int xp_draw_legend(struct xp *x, const struct xp_lanes *l, int *page, int y, const struct xp_rect *r,
		   int max_rows)
{
	const struct xp_window *w = l->w;
	struct legend_item *items = NULL;
	size_t nr = 0, alloc = 0, unlettered = 0;
	int nr_pages = 1, row, col, pg, reserve;
	char text[96], name[64];
	const bool *shown = l->shown;

	if (max_rows <= 0)
		return 0;
	/* what is on the screen, in the order a reader looks for it */
	for (size_t i = 0; i < w->nr_tasks; i++) {
		const struct xp_window_task *t = &w->tasks[i];
		bool hl = t->pid == w->req.highlight_pid;

		if (!t->letter) {
			unlettered++;
			continue;
		}
		if (shown && !shown[(unsigned char)t->letter & 127])
			continue;
		/* a task that exec'd in the window: both its names, as they were */
		snprintf(text, sizeof(text), "%s%s%s%s",
			 t->first_comm && t->first_comm != t->comm ? sl_str(x->m->strtab, t->first_comm) : "",
			 t->first_comm && t->first_comm != t->comm ? ">" : "",
			 xp_task_name(x, t->pid, t->comm, name, sizeof(name)), hl ? "*" : "");
		add_item(&items, &nr, &alloc, t->letter, hl ? x->attrs[XP_A_HILITE] : xp_task_attr(x, t->letter),
			 text);
	}
	if (!shown || shown['+']) {
		snprintf(text, sizeof(text), "%zu more tasks (no letter left)", unlettered);
		add_item(&items, &nr, &alloc, '+', A_NORMAL, text);
	}
	if (!shown || shown['.'])
		add_item(&items, &nr, &alloc, '.', x->attrs[XP_A_IDLE], "idle");
	for (int i = 0; l->density && i < 4; i++)
		if (!shown || shown[(unsigned char)density_glyphs[i]])
			add_item(&items, &nr, &alloc, density_glyphs[i], i == 3 ? A_BOLD : A_NORMAL,
				 density_names[i]);
	if (!shown || shown['?'])
		add_item(&items, &nr, &alloc, '?', x->attrs[XP_A_IDLE], "not known (no event yet, lost)");
	if (shown && shown[WAITING_SHOWN])
		add_item(&items, &nr, &alloc, '_', x->attrs[XP_A_WAIT], "letter under a lane: it waits there (queued)");
	if (shown && shown['-'])
		add_item(&items, &nr, &alloc, '-', x->attrs[XP_A_DIM], "other tasks (filtered out)");
	if (shown && shown[' '])
		add_item(&items, &nr, &alloc, ' ', A_NORMAL, "(blank) outside the trace");
	for (size_t i = ARRAY_SIZE(markers); i-- > 0;)
		if (!shown || shown[(unsigned char)markers[i].glyph])
			add_item(&items, &nr, &alloc, markers[i].glyph, x->attrs[XP_A_MARK], markers[i].name);
	for (size_t i = 0; i < ARRAY_SIZE(axis_glyphs); i++)
		if (shown && shown[AXIS_SHOWN(i)])
			add_item(&items, &nr, &alloc, axis_glyphs[i].glyph,
				 axis_glyphs[i].glyph == 'F' ? x->attrs[XP_A_BAD] : x->attrs[XP_A_MARK],
				 axis_glyphs[i].name);

	/*
	 * Rows of items, pages of max_rows rows; when there is more than one
	 * page, each row keeps room at its end for " e: more 2/3".
	 */
	reserve = 0;
	for (;;) {
		row = col = 0;
		for (size_t i = 0; i < nr; i++) {
			int n = (int)strlen(items[i].text) + 3;

			if (col + n > r->w - reserve && col) {
				row++;
				col = 0;
			}
			items[i].row = row;
			items[i].col = col;
			col += n;
		}
		nr_pages = row / max_rows + 1;
		if (nr_pages == 1 || reserve)
			break;
		reserve = PAGE_NOTE_W;
	}
	pg = *page % nr_pages;
	for (int yy = y; yy < y + max_rows; yy++)
		xp_put(yy, r->x, r->w, A_NORMAL, "");
	for (size_t i = 0; i < nr; i++) {
		int yy = y + items[i].row - pg * max_rows, n = (int)strlen(items[i].text) + 3;

		if (items[i].row / max_rows != pg)
			continue;
		xp_put(yy, r->x + items[i].col, 1, items[i].attr, (char[2]){ items[i].glyph, 0 });
		xp_put(yy, r->x + items[i].col + 1, MIN(n - 1, r->w - items[i].col - 1), A_NORMAL, items[i].text);
	}
	if (nr_pages > 1)
		xp_putf(y + max_rows - 1, r->x + r->w - PAGE_NOTE_W, PAGE_NOTE_W, x->attrs[XP_A_DIM],
			" e: more %d/%d", pg + 1, nr_pages);
	*page = pg;
	free(items);
	return max_rows;
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
				      xp_task_name(x, c->best_pid, c->best_comm, name, sizeof(name)),
				      xp_dur(d, sizeof(d), c->best_ns), (int)(c->busy_ns * 100 / data));
	else if (c->other_ns && c->other_ns >= c->idle_ns && c->other_ns >= c->unknown_ns)
		n += (size_t)snprintf(buf + n, len - n, "tasks the filter hides, busy %d%%",
				      (int)(c->busy_ns * 100 / data));
	else
		n += (size_t)snprintf(buf + n, len - n, "%s", c->idle_ns >= c->unknown_ns ?
				      "idle" : "not known (no events yet, or lost)");
	if (c->wait_ns && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", %s waited %s",
				      xp_task_name(x, c->wait_pid, xp_window_task(w, c->wait_pid) ?
						   xp_window_task(w, c->wait_pid)->comm : 0, name, sizeof(name)),
				      xp_dur(d, sizeof(d), c->wait_ns));
	for (size_t i = 0; i < ARRAY_SIZE(markers) && n < len; i++)
		if (c->marks & markers[i].bit)
			n += (size_t)snprintf(buf + n, len - n, "  %c %s", markers[i].glyph, markers[i].name);
}
