// SPDX-License-Identifier: GPL-2.0
/*
 * draw.c - colours and the small drawing helpers every panel uses
 *
 * Every attribute has a monochrome fallback (bold, reverse, dim), used
 * when the terminal has no colours, with NO_COLOR or --color=never, so
 * nothing is told by colour alone: tasks in the lanes are letters, the
 * selection is reverse video.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "schedlint/report.h"
#include "tui.h"
#include "util/util.h"

void xp_init_attrs(struct xp *x)
{
	static const short task_bg[XP_NR_TASK_COLORS] = {
		COLOR_GREEN, COLOR_CYAN, COLOR_YELLOW, COLOR_MAGENTA, COLOR_BLUE, COLOR_WHITE,
	};
	attr_t *a = x->attrs;

	memset(x->attrs, 0, sizeof(x->attrs));
	a[XP_A_SELECT] = A_REVERSE;
	a[XP_A_CURSOR] = A_REVERSE;
	a[XP_A_DIM] = A_DIM;
	a[XP_A_IDLE] = A_DIM;
	a[XP_A_WAIT] = A_DIM | A_UNDERLINE;
	if (!x->color) {
		a[XP_A_TITLE] = A_REVERSE;
		a[XP_A_TAB] = A_BOLD;
		a[XP_A_HEAD] = A_BOLD;
		a[XP_A_BAD] = A_BOLD;
		a[XP_A_WARN] = A_BOLD;
		a[XP_A_MARK] = A_BOLD;
		a[XP_A_HILITE] = A_REVERSE | A_BOLD;
		return;
	}
	use_default_colors();
	init_pair(1, COLOR_WHITE, COLOR_BLUE);
	init_pair(2, COLOR_BLACK, COLOR_CYAN);
	init_pair(3, COLOR_CYAN, -1);
	init_pair(4, COLOR_RED, -1);
	init_pair(5, COLOR_YELLOW, -1);
	init_pair(6, COLOR_GREEN, -1);
	init_pair(7, COLOR_WHITE, COLOR_RED);
	a[XP_A_TITLE] = COLOR_PAIR(1);
	a[XP_A_TAB] = COLOR_PAIR(2) | A_BOLD;
	a[XP_A_HEAD] = COLOR_PAIR(3) | A_BOLD;
	a[XP_A_BAD] = COLOR_PAIR(4) | A_BOLD;
	a[XP_A_WARN] = COLOR_PAIR(5);
	a[XP_A_GOOD] = COLOR_PAIR(6);
	a[XP_A_MARK] = COLOR_PAIR(5) | A_BOLD;
	a[XP_A_HILITE] = COLOR_PAIR(7) | A_BOLD;
	a[XP_A_BAR] = COLOR_PAIR(3);
	for (int i = 0; i < XP_NR_TASK_COLORS; i++) {
		init_pair((short)(8 + i), task_bg[i] == COLOR_BLUE ? COLOR_WHITE : COLOR_BLACK, task_bg[i]);
		a[XP_A_TASK0 + i] = COLOR_PAIR(8 + i);
	}
}

/* A task's colour follows its letter, so it is the same in lanes and legend. */
attr_t xp_task_attr(const struct xp *x, char letter)
{
	if (!x->color)
		return A_NORMAL;
	return x->attrs[XP_A_TASK0 + (unsigned char)letter % XP_NR_TASK_COLORS];
}

void xp_put(int y, int col, int w, attr_t attr, const char *text)
{
	int n = 0;

	if (w <= 0 || y < 0 || y >= LINES || col >= COLS)
		return;
	if (col + w > COLS)
		w = COLS - col;
	attrset(attr);
	move(y, col);
	/* bytes of a comm or a marker text may be anything: print ASCII only */
	for (const char *p = text; *p && n < w; p++, n++)
		addch((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f ? (chtype)*p : '?');
	for (; n < w; n++)
		addch(' ');
	attrset(A_NORMAL);
}

void xp_putf(int y, int col, int w, attr_t attr, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	xp_put(y, col, w, attr, buf);
}

void xp_bar(struct xp *x, int y, int col, int w, double frac, attr_t attr)
{
	static const char *const eighths[] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
	int units, full;

	if (w <= 0)
		return;
	if (frac < 0)
		frac = 0;
	if (frac > 1)
		frac = 1;
	units = (int)(frac * w * 8 + 0.5);
	full = units / 8;
	move(y, col);
	attrset(attr);
	for (int i = 0; i < w; i++) {
		if (i < full)
			addstr(x->utf8 ? "█" : "#");
		else if (i == full && units % 8 && x->utf8)
			addstr(eighths[units % 8]);
		else if (i == full && units % 8 >= 4)
			addch('#');
		else {
			attrset(x->attrs[XP_A_DIM]);
			addstr(x->utf8 ? "·" : ".");
			attrset(attr);
		}
	}
	attrset(A_NORMAL);
}

void xp_clear(const struct xp_rect *r)
{
	for (int y = r->y; y < r->y + r->h; y++)
		xp_put(y, r->x, r->w, A_NORMAL, "");
}

void xp_heading(struct xp *x, int y, const struct xp_rect *r, const char *title)
{
	xp_put(y, r->x, r->w, x->attrs[XP_A_HEAD], title);
}

const char *xp_dur(char *buf, size_t len, uint64_t ns)
{
	return fmt_duration(buf, len, ns);
}

const char *xp_task_name(const struct xp *x, int32_t pid, uint32_t comm, char *buf, size_t len)
{
	const struct sl_task *t;

	if (pid == 0) {
		snprintf(buf, len, "<idle>");
		return buf;
	}
	if (pid < 0) {
		snprintf(buf, len, "<unknown>");
		return buf;
	}
	if (!comm && (t = sl_model_task(x->m, pid)))
		comm = t->comm;
	/* a task the trace never names (only its pid in common_pid): as trace-cmd shows it */
	snprintf(buf, len, "%s:%d", comm ? sl_str(x->m->strtab, comm) : "<...>", pid);
	return buf;
}

char *xp_fit_task(char *name, int cols)
{
	size_t len = strlen(name);
	char *colon = strrchr(name, ':');
	size_t id = colon ? len - (size_t)(colon - name) : 0, keep;

	if (sl_display_width(name) <= cols)
		return name;
	if (!colon || (int)id >= cols) {	/* no pid, or no room beside it: the start */
		name[sl_bytes_for_cols(name, len, MAX(cols, 0))] = '\0';
		return name;
	}
	keep = sl_bytes_for_cols(name, (size_t)(colon - name), cols - (int)id);
	memmove(name + keep, colon, id + 1);
	return name;
}

void xp_list_clamp(int *sel, int *top, int nr, int page)
{
	if (page < 1)
		page = 1;
	if (*sel >= nr)
		*sel = nr - 1;
	if (*sel < 0)
		*sel = 0;
	if (*top > *sel)
		*top = *sel;
	if (*sel >= *top + page)
		*top = *sel - page + 1;
	if (*top > nr - page)
		*top = nr - page;
	if (*top < 0)
		*top = 0;
}

bool xp_list_key(int ch, int *sel, int nr, int page)
{
	switch (ch) {
	case KEY_UP:
	case 'k':
		(*sel)--;
		break;
	case KEY_DOWN:
	case 'j':
		(*sel)++;
		break;
	case KEY_PPAGE:
	case 'b' & 0x1f:	/* ^B */
		*sel -= page > 1 ? page - 1 : 1;
		break;
	case KEY_NPAGE:
	case 'f' & 0x1f:	/* ^F */
	case ' ':
		*sel += page > 1 ? page - 1 : 1;
		break;
	case KEY_HOME:
	case 'g':
		*sel = 0;
		break;
	case KEY_END:
	case 'G':
		*sel = nr - 1;
		break;
	default:
		return false;
	}
	if (*sel >= nr)
		*sel = nr - 1;
	if (*sel < 0)
		*sel = 0;
	return true;
}
