// SPDX-License-Identifier: GPL-2.0
/*
 * help.c - every key: the global ones, then each panel's (the panel the
 * help was opened from first)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "util/util.h"

struct help {
	int top;
	int nr_lines;
};

void xp_help_open(struct xp *x)
{
	struct help *h = x->panels[XP_HELP].priv;

	h->top = 0;
	xp_show(x, XP_HELP);
}

static const struct xp_key_help global_keys[] = {
	{ "1 2 3 4", "overview, findings, timeline, tasks" },
	{ "Tab / Shift-Tab", "next / previous view" },
	{ "?  F1", "this help (? or Esc closes it)" },
	{ "Esc Backspace", "back (from a finding or the help)" },
	{ "Ctrl-L", "redraw the screen" },
	{ "q", "quit" },
	{ NULL, NULL },
};

static const char *const glyphs[] = {
	"Lanes: one per CPU; a letter (and colour) per task, the legend under them",
	"(e: its next page) names every letter and sign on the screen:",
	"  .  idle   ?  not known (before the CPU's first event, after lost events)",
	"  +  a task without a letter (more tasks in the window than letters)",
	"  -  tasks the filter (backslash) hides   blank: outside the trace",
	"  under a lane: markers, else the letter (underlined) of a task waiting there",
	"  ^  wakeup (enqueued there)   '  waking (the waker's CPU)   >  migrated in",
	"  !  IPI sent there or received   x  lost events",
	"Zoomed out (2 ms a column or more; d chooses): a CPU's busy share instead",
	"  of letters:  :  up to 25%   =  up to 50%   *  up to 75%   #  more",
	"Axis: F a finding   | this finding   ^ the cursor   A B the markers",
	"The finding's or followed task: reversed (red) and marked * in the legend;",
	"a task's name is the one it had then (one that exec'd: old>new in the legend).",
};

static void hp_init(struct xp *x, struct xp_panel *p)
{
	p->priv = xcalloc(1, sizeof(struct help));
}

static void hp_destroy(struct xp *x, struct xp_panel *p)
{
	free(p->priv);
}

/* Draw (or only count, when r is NULL) the help's lines from `top`. */
static int lines(struct xp *x, const struct xp_rect *r, int top)
{
	int order[XP_NR_PANELS], n = 0, line = 0;

	order[n++] = x->back[XP_HELP];
	for (int i = 0; i < XP_NR_PANELS; i++)
		if (i != x->back[XP_HELP] && i != XP_HELP)
			order[n++] = i;

#define LINE(attr, ...)								\
	do {									\
		int y_ = line++ - top;						\
		if (r && y_ >= 0 && y_ < r->h)					\
			xp_putf(r->y + y_, r->x, r->w, attr, __VA_ARGS__);	\
	} while (0)

	LINE(x->attrs[XP_A_HEAD], " Keys everywhere");
	for (const struct xp_key_help *k = global_keys; k->keys; k++)
		LINE(A_NORMAL, "   %-22s %s", k->keys, k->what);
	for (int i = 0; i < n; i++) {
		const struct xp_panel_ops *ops = x->panels[order[i]].ops;

		if (!ops->keys)
			continue;
		LINE(A_NORMAL, "%s", "");
		LINE(x->attrs[XP_A_HEAD], " %s%s", ops->name, order[i] == XP_DETAIL ? " (a finding's detail)" : "");
		for (const struct xp_key_help *k = ops->keys; k->keys; k++)
			LINE(A_NORMAL, "   %-22s %s", k->keys, k->what);
	}
	LINE(A_NORMAL, "%s", "");
	for (size_t i = 0; i < ARRAY_SIZE(glyphs); i++)
		LINE(i ? A_NORMAL : x->attrs[XP_A_HEAD], " %s", glyphs[i]);
	LINE(A_NORMAL, "%s", "");
	LINE(x->attrs[XP_A_DIM], " Arrows and vi keys (h j k l) both work.  See schedlint-explore(1).");
#undef LINE
	return line;
}

static void hp_draw(struct xp *x, struct xp_panel *p, const struct xp_rect *r)
{
	struct help *h = p->priv;

	h->nr_lines = lines(x, NULL, 0);
	if (h->top > h->nr_lines - r->h)
		h->top = MAX(0, h->nr_lines - r->h);
	xp_clear(r);
	lines(x, r, h->top);
}

static bool hp_key(struct xp *x, struct xp_panel *p, int ch)
{
	struct help *h = p->priv;

	switch (ch) {
	case KEY_DOWN:
	case 'j':
		h->top++;
		return true;
	case KEY_UP:
	case 'k':
		if (h->top > 0)
			h->top--;
		return true;
	case KEY_NPAGE:
	case ' ':
		h->top += p->last.h - 1;
		return true;
	case KEY_PPAGE:
		h->top = MAX(0, h->top - (p->last.h - 1));
		return true;
	default:
		return false;
	}
}

const struct xp_panel_ops xp_help_ops = {
	.name = "Help",
	.init = hp_init,
	.destroy = hp_destroy,
	.draw = hp_draw,
	.key = hp_key,
	.hints = "j/k PgUp/PgDn scroll  ? or Esc: back  q:quit",
	.keys = NULL,
};
