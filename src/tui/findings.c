// SPDX-License-Identifier: GPL-2.0
/*
 * findings.c - the list of findings: sort by cost, time or kind, filter
 * by kind, Enter opens one
 *
 * Any kind an analyzer reports shows here the same way: the core's
 * fields (kind, time, CPU, task, cost, message); its own fields are in
 * the detail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/report.h"
#include "tui.h"
#include "util/util.h"

enum sort_by { SORT_COST = 0, SORT_TIME, SORT_KIND, NR_SORTS };
static const char *const sort_names[NR_SORTS] = { "cost", "time", "kind" };

struct findings_list {
	size_t *order;			/* indexes into x->findings, as shown */
	int nr;
	enum sort_by sort;
	int kind;			/* shown kind, -1 all */
	int sel, top;
	bool dirty;			/* order must be rebuilt */
};

static const struct sl_finding *sort_base;

static int cmp_order(const void *a, const void *b, enum sort_by by)
{
	const struct sl_finding *x = &sort_base[*(const size_t *)a], *y = &sort_base[*(const size_t *)b];

	if (by == SORT_KIND && x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (by == SORT_TIME && x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* then by cost, most costly first (the order of x->findings) */
	return *(const size_t *)a < *(const size_t *)b ? -1 : *(const size_t *)a > *(const size_t *)b;
}

static int cmp_cost(const void *a, const void *b) { return cmp_order(a, b, SORT_COST); }
static int cmp_time(const void *a, const void *b) { return cmp_order(a, b, SORT_TIME); }
static int cmp_kind(const void *a, const void *b) { return cmp_order(a, b, SORT_KIND); }

static void rebuild(struct xp *x, struct findings_list *fl)
{
	static int (*const cmps[NR_SORTS])(const void *, const void *) = { cmp_cost, cmp_time, cmp_kind };
	size_t keep = fl->sel >= 0 && fl->sel < fl->nr ? fl->order[fl->sel] : (size_t)-1;

	fl->nr = 0;
	for (size_t i = 0; i < x->nr_findings; i++)
		if (fl->kind < 0 || x->findings[i].kind == fl->kind)
			fl->order[fl->nr++] = i;
	sort_base = x->findings;
	qsort(fl->order, (size_t)fl->nr, sizeof(*fl->order), cmps[fl->sort]);
	/* keep the selected finding selected */
	fl->sel = 0;
	for (int i = 0; i < fl->nr; i++)
		if (fl->order[i] == keep)
			fl->sel = i;
	fl->dirty = false;
}

static void fl_init(struct xp *x, struct xp_panel *p)
{
	struct findings_list *fl = xcalloc(1, sizeof(*fl));

	fl->order = xcalloc(x->nr_findings + 1, sizeof(*fl->order));
	fl->kind = -1;
	fl->dirty = true;
	p->priv = fl;
}

static void fl_destroy(struct xp *x, struct xp_panel *p)
{
	struct findings_list *fl = p->priv;

	free(fl->order);
	free(fl);
}

/*
 * The columns: each as wide as the widest of the list, the task at most
 * 18; the message gets the rest.  When that would be less than 40
 * columns the CPU goes, then the time (the lines under the list give
 * both with the selected finding's whole message).
 */
struct fl_cols {
	int num, ts, kind, cost, task;
	bool cpu, time;
};

static void fit_columns(struct xp *x, const struct findings_list *fl, int width, struct fl_cols *c)
{
	char buf[64];
	int fixed, n = (int)x->nr_findings;

	memset(c, 0, sizeof(*c));
	c->cpu = c->time = true;
	c->num = 1;
	for (; n >= 10; n /= 10)
		c->num++;
	c->ts = c->kind = c->cost = c->task = 4;
	for (int i = 0; i < fl->nr; i++) {
		const struct sl_finding *f = &x->findings[fl->order[i]];

		c->ts = MAX(c->ts, (int)strlen(fmt_ts(buf, sizeof(buf), f->ts)));
		c->kind = MAX(c->kind, (int)strlen(sl_kinds[f->kind].name));
		c->cost = MAX(c->cost, (int)strlen(xp_dur(buf, sizeof(buf), f->cost)));
		c->task = MAX(c->task, sl_display_width(xp_task_name(x, f->pid, f->comm, buf, sizeof(buf))));
	}
	c->task = MIN(c->task, 18);
	fixed = 1 + c->num + 1 + c->ts + 1 + 3 + 1 + c->kind + 1 + c->cost + 1 + c->task + 1;
	if (width - fixed < 40) {
		c->cpu = false;
		fixed -= 4;
	}
	if (width - fixed < 40) {
		c->time = false;
		fixed -= c->ts + 1;
	}
}

static void put_row(struct xp *x, int y, const struct xp_rect *r, attr_t attr, const struct fl_cols *c,
		    const char *num, const char *ts, const char *cpu, const char *kind,
		    const char *cost, const char *task, const char *msg)
{
	char line[1024];
	int o = snprintf(line, sizeof(line), " %*s", c->num, num);

	if (c->time)
		o += snprintf(line + o, sizeof(line) - (size_t)o, " %-*s", c->ts, ts);
	if (c->cpu)
		o += snprintf(line + o, sizeof(line) - (size_t)o, " %3s", cpu);
	/* the task fitted to its column (xp_fit_task), padded by its display columns */
	snprintf(line + o, sizeof(line) - (size_t)o, " %-*s %*s %s%*s %s", c->kind, kind, c->cost,
		 cost, task, MAX(c->task - sl_display_width(task), 0), "", msg);
	xp_put(y, r->x, r->w, attr, line);
}

static void fl_draw(struct xp *x, struct xp_panel *p, const struct xp_rect *r)
{
	struct findings_list *fl = p->priv;
	int list_h = r->h - 4, y = r->y;
	char ts[32], cost[32], task[64], msg[512], num[24], cpu[16];
	struct fl_cols c;

	if (fl->dirty)
		rebuild(x, fl);
	xp_putf(y++, r->x, r->w, A_NORMAL, " %d of %zu findings, sorted by %s%s%s%s", fl->nr,
		x->nr_findings, sort_names[fl->sort], fl->kind >= 0 ? ", only " : "",
		fl->kind >= 0 ? sl_kinds[fl->kind].name : "",
		x->m->findings->dropped ? " (the list keeps the most costly; the overview counts all)" : "");
	fit_columns(x, fl, r->w, &c);
	put_row(x, y++, r, x->attrs[XP_A_HEAD], &c, "#", "time", "cpu", "kind", "cost", "task",
		"message");
	if (!fl->nr) {
		xp_put(y++, r->x, r->w, A_NORMAL, "");
		xp_put(y++, r->x, r->w, A_NORMAL, x->nr_findings ?
		       "  no finding of this kind: f shows another kind, a all of them" :
		       "  no findings: no bad scheduler decision of a kind schedlint knows was seen");
		while (y < r->y + r->h)
			xp_put(y++, r->x, r->w, A_NORMAL, "");
		return;
	}
	xp_list_clamp(&fl->sel, &fl->top, fl->nr, list_h);
	for (int row = 0; row < list_h; row++, y++) {
		int i = fl->top + row;
		const struct sl_finding *f;

		if (i >= fl->nr) {
			xp_put(y, r->x, r->w, A_NORMAL, "");
			continue;
		}
		f = &x->findings[fl->order[i]];
		sl_finding_message(f, x->m, msg, sizeof(msg));
		snprintf(num, sizeof(num), "%zu", fl->order[i] + 1);
		snprintf(cpu, sizeof(cpu), "%d", f->cpu);
		put_row(x, y, r, i == fl->sel ? x->attrs[XP_A_SELECT] : A_NORMAL, &c, num,
			fmt_ts(ts, sizeof(ts), f->ts), cpu, sl_kinds[f->kind].name,
			xp_dur(cost, sizeof(cost), f->cost),
			(xp_task_name(x, f->pid, f->comm, task, sizeof(task)), xp_fit_task(task, c.task)), msg);
	}
	/* the selected finding's message in full, after its time and CPU */
	{
		const struct sl_finding *f = &x->findings[fl->order[fl->sel]];
		char full[600];
		int len, w = r->w - 2;

		sl_finding_message(f, x->m, msg, sizeof(msg));
		snprintf(full, sizeof(full), "%s cpu %d: %s", fmt_ts(ts, sizeof(ts), f->ts), f->cpu, msg);
		len = (int)strlen(full);
		xp_put(y++, r->x, r->w, x->attrs[XP_A_DIM], "");
		for (int line = 0; line < 2; line++, y++)
			xp_put(y, r->x + 1, r->w - 1, A_NORMAL,
			       line * w < len ? full + line * w : "");
	}
}

/* The next (dir 1) or previous (-1) finding of a task the search names, from the selected one (0: it too). */
static void search_step(struct xp *x, struct findings_list *fl, int dir)
{
	int matches = 0, at = 0;

	if (!x->search.text[0]) {
		xp_set_status(x, false, "no search: / asks for a task's name or pid");
		return;
	}
#define MATCHES(i) xp_match_task(x, &x->search, x->findings[fl->order[i]].pid, x->findings[fl->order[i]].comm)
	for (int i = 0; i < fl->nr; i++)
		matches += MATCHES(i);
	for (int k = dir ? 1 : 0; matches && k <= fl->nr; k++) {
		int i = ((fl->sel + (dir < 0 ? -k : k)) % fl->nr + fl->nr) % fl->nr;

		if (MATCHES(i)) {
			fl->sel = i;
			break;
		}
	}
	if (!matches) {
		xp_set_status(x, false, "no finding of a task matching '%s'", x->search.text);
		return;
	}
	for (int i = 0; i <= fl->sel; i++)
		at += MATCHES(i);
#undef MATCHES
	xp_set_status(x, false, "finding %d of the %d of tasks matching '%s' (n/N: next/previous)", at, matches,
		      x->search.text);
}

static bool fl_key(struct xp *x, struct xp_panel *p, int ch)
{
	struct findings_list *fl = p->priv;
	int page = p->last.h - 4;

	if (fl->dirty)
		rebuild(x, fl);
	if (xp_list_key(ch, &fl->sel, fl->nr, page))
		return true;
	switch (ch) {
	case 's':
		fl->sort = (fl->sort + 1) % NR_SORTS;
		fl->dirty = true;
		return true;
	case 'f': {
		/* the next kind that has findings, then all again */
		int k = fl->kind;

		for (;;) {
			k++;
			if (k >= SL_KIND__COUNT) {
				k = -1;
				break;
			}
			for (size_t i = 0; i < x->nr_findings; i++)
				if (x->findings[i].kind == k)
					goto found;
		}
found:
		fl->kind = k;
		fl->dirty = true;
		return true;
	}
	case 'a':
		fl->kind = -1;
		fl->dirty = true;
		return true;
	case '/':
		if (xp_ask_match(x, " search the findings of a task (name or pid): ", &x->search) > 0)
			search_step(x, fl, 0);
		return true;
	case 'n':
	case 'N':
		search_step(x, fl, ch == 'n' ? 1 : -1);
		return true;
	case '\n':
	case '\r':
	case KEY_ENTER:
	case KEY_RIGHT:
	case 'l':
		if (fl->nr)
			xp_detail_open(x, fl->order[fl->sel]);
		return true;
	case 't':
		if (fl->nr) {
			const struct sl_finding *f = &x->findings[fl->order[fl->sel]];

			xp_timeline_goto(x, f->ts, f->pid, f->cpu);
		}
		return true;
	default:
		return false;
	}
}

size_t xp_findings_step(struct xp *x, size_t cur, int dir)
{
	struct findings_list *fl = x->panels[XP_FINDINGS].priv;

	if (fl->dirty)
		rebuild(x, fl);
	for (int i = 0; i < fl->nr; i++)
		if (fl->order[i] == cur) {
			int j = i + dir;

			if (j < 0 || j >= fl->nr)
				return cur;
			fl->sel = j;
			return fl->order[j];
		}
	return cur;
}

void xp_findings_show_kind(struct xp *x, int kind)
{
	struct findings_list *fl = x->panels[XP_FINDINGS].priv;

	fl->kind = kind;
	fl->dirty = true;
	fl->sel = fl->top = 0;
	xp_show(x, XP_FINDINGS);
}

const char *xp_findings_position(struct xp *x, size_t finding, char *buf, size_t len)
{
	struct findings_list *fl = x->panels[XP_FINDINGS].priv;

	if (fl->dirty)
		rebuild(x, fl);
	for (int i = 0; i < fl->nr; i++)
		if (fl->order[i] == finding) {
			snprintf(buf, len, "%d of %d in the list's order (by %s%s%s)", i + 1, fl->nr,
				 sort_names[fl->sort], fl->kind >= 0 ? ", only " : "",
				 fl->kind >= 0 ? sl_kinds[fl->kind].name : "");
			return buf;
		}
	snprintf(buf, len, "not in the list shown (f / a: its kinds)");
	return buf;
}

static const struct xp_key_help fl_keys[] = {
	{ "Up/Down j/k", "select a finding" },
	{ "PgUp/PgDn Home/End", "by pages, first / last" },
	{ "Enter l Right", "open the finding: explanation, timeline, events" },
	{ "t", "the timeline at the finding, following its task" },
	{ "s", "sort by cost, time, kind" },
	{ "f", "show one kind (each kind in turn), then all" },
	{ "a", "all kinds" },
	{ "/", "search a task's findings (name or pid); n / N" },
	{ NULL, NULL },
};

const struct xp_panel_ops xp_findings_ops = {
	.name = "Findings",
	.init = fl_init,
	.destroy = fl_destroy,
	.draw = fl_draw,
	.key = fl_key,
	.hints = "Enter detail  t timeline  s sort  f kind  a all  / search  ?:help  q:quit",
	.keys = fl_keys,
};
