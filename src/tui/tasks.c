// SPDX-License-Identifier: GPL-2.0
/*
 * tasks.c - every task with its wakeup latency and its time, sortable,
 * searched (/, n, N) and filtered (backslash) by name or pid; Enter puts
 * the timeline on its worst wakeup (markers A at the waking, B at the
 * switch-in), following it
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/report.h"
#include "tui.h"
#include "util/util.h"

enum task_sort { BY_P99 = 0, BY_MAX, BY_RUN, BY_WAIT, BY_WAKEUPS, BY_MIGRATIONS, BY_PID, BY_COMM, NR_TASK_SORTS };
static const char *const sort_names[NR_TASK_SORTS] = {
	"latency p99", "latency max", "run time", "runnable wait", "wakeups", "migrations", "pid", "name",
};

struct tasks_list {
	struct sl_task **tasks;
	int nr;
	enum task_sort sort;
	int sel, top;
	bool dirty;
	struct xp_match filter;		/* only these tasks; "" all */
};

static const struct sl_model *sort_model;
static enum task_sort sort_key;
static uint64_t *sort_p99;	/* by task index, computed once per sort: a percentile walks */

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

static int cmp_task(const void *pa, const void *pb)
{
	const struct sl_task *a = *(struct sl_task *const *)pa, *b = *(struct sl_task *const *)pb;
	int c = 0;

	switch (sort_key) {
	case BY_P99:
		c = cmp_u64_desc(sort_p99[a->index], sort_p99[b->index]);
		break;
	case BY_MAX:
		c = cmp_u64_desc(a->latency.max, b->latency.max);
		break;
	case BY_RUN:
		c = cmp_u64_desc(a->run_ns, b->run_ns);
		break;
	case BY_WAIT:
		c = cmp_u64_desc(a->wait_ns, b->wait_ns);
		break;
	case BY_WAKEUPS:
		c = cmp_u64_desc(a->latency.count, b->latency.count);
		break;
	case BY_MIGRATIONS:
		c = cmp_u64_desc(a->migrations, b->migrations);
		break;
	case BY_COMM:
		c = strcmp(sl_task_comm(sort_model, a), sl_task_comm(sort_model, b));
		break;
	default:
		break;
	}
	if (c)
		return c;
	return a->pid != b->pid ? (a->pid < b->pid ? -1 : 1) : (a->index < b->index ? -1 : 1);
}

static void rebuild(struct xp *x, struct tasks_list *tl)
{
	struct sl_task *keep = tl->sel >= 0 && tl->sel < tl->nr ? tl->tasks[tl->sel] : NULL;

	tl->nr = 0;
	for (uint32_t i = 0; i < x->m->nr_tasks; i++) {
		struct sl_task *t = x->m->tasks[i];

		if (t->pid > 0 && sl_filter_task(x->m->cfg, x->m->strtab, t) &&
		    (t->run_ns || t->wait_ns || t->latency.count || t->switches) &&
		    xp_match_task(x, &tl->filter, t->pid, t->comm))
			tl->tasks[tl->nr++] = t;
	}
	sort_model = x->m;
	sort_key = tl->sort;
	if (sort_key == BY_P99) {
		sort_p99 = xcalloc(x->m->nr_tasks + 1, sizeof(*sort_p99));
		for (int i = 0; i < tl->nr; i++)
			sort_p99[tl->tasks[i]->index] = sl_hist_percentile(&tl->tasks[i]->latency, 99);
	}
	qsort(tl->tasks, (size_t)tl->nr, sizeof(*tl->tasks), cmp_task);
	free(sort_p99);
	sort_p99 = NULL;
	tl->sel = 0;
	for (int i = 0; i < tl->nr; i++)
		if (tl->tasks[i] == keep)
			tl->sel = i;
	tl->dirty = false;
}

static void tk_init(struct xp *x, struct xp_panel *p)
{
	struct tasks_list *tl = xcalloc(1, sizeof(*tl));

	tl->tasks = xcalloc(x->m->nr_tasks + 1, sizeof(*tl->tasks));
	tl->dirty = true;
	p->priv = tl;
}

static void tk_destroy(struct xp *x, struct xp_panel *p)
{
	struct tasks_list *tl = p->priv;

	free(tl->tasks);
	free(tl);
}

static const char *lat(char *buf, size_t len, const struct sl_task *t, double pct)
{
	if (!t->latency.count)
		return "-";
	return xp_dur(buf, len, pct > 100 ? t->latency.max : sl_hist_percentile(&t->latency, pct));
}

/*
 * The columns after the task's name, and the order they go in when the
 * screen is narrower than all of them (the highest drop first; 0: they
 * stay): at 80 columns wakeups, latency p99 and max, run and wait time.
 * The column the list is sorted by stays.
 */
enum { TK_WAKEUPS, TK_P50, TK_P99, TK_MAX, TK_RUN, TK_WAIT, TK_SWITCH, TK_PREEM, TK_MIGR, TK__NR };
static const struct { const char *head; int width, drop, sort; } tk_cols[TK__NR] = {
	[TK_WAKEUPS] = { "wakeups", 7, 1, BY_WAKEUPS },
	[TK_P50] = { "lat p50", 9, 4, -1 },
	[TK_P99] = { "lat p99", 9, 0, BY_P99 },
	[TK_MAX] = { "lat max", 9, 0, BY_MAX },
	[TK_RUN] = { "run", 9, 2, BY_RUN },
	[TK_WAIT] = { "wait", 9, 3, BY_WAIT },
	[TK_SWITCH] = { "switch", 7, 6, -1 },
	[TK_PREEM] = { "preem", 6, 7, -1 },
	[TK_MIGR] = { "migr", 6, 5, BY_MIGRATIONS },
};
#define TK_NAME_W 24

/* a bit per shown column: " %-24s", then " %*s" each, the last screen column left empty */
static unsigned tk_shown(int width, enum task_sort sort)
{
	/* the name (it stays), then the columns: analyze's fitting (sl_cols_fit) */
	struct sl_col cols[1 + TK__NR] = { { "task", TK_NAME_W, 0, true } };

	for (int i = 0; i < TK__NR; i++)
		cols[1 + i] = (struct sl_col){ tk_cols[i].head, tk_cols[i].width,
					       tk_cols[i].sort == (int)sort ? 0 : tk_cols[i].drop, false };
	return (unsigned)(sl_cols_fit_width(width - 1, 1, cols, 1 + TK__NR) >> 1);
}

static void tk_row(int y, const struct xp_rect *r, attr_t attr, unsigned shown, const char *name,
		   const char *const cells[TK__NR])
{
	char line[512];
	int n = snprintf(line, sizeof(line), " %-*s", TK_NAME_W, name);

	for (int i = 0; i < TK__NR && n < (int)sizeof(line); i++)
		if (shown >> i & 1)
			n += snprintf(line + n, sizeof(line) - (size_t)n, " %*s", tk_cols[i].width, cells[i]);
	xp_put(y, r->x, r->w, attr, line);
}

static void tk_draw(struct xp *x, struct xp_panel *p, const struct xp_rect *r)
{
	struct tasks_list *tl = p->priv;
	int y = r->y, list_h = r->h - 2;
	char name[64], b[TK__NR][32];
	const char *cells[TK__NR];
	unsigned shown = tk_shown(r->w, tl->sort);

	if (tl->dirty)
		rebuild(x, tl);
	xp_putf(y++, r->x, r->w, A_NORMAL, " %d task%s%s%s%s, sorted by %s", tl->nr, tl->nr == 1 ? "" : "s",
		tl->filter.text[0] ? " matching '" : "", tl->filter.text, tl->filter.text[0] ? "'" : "",
		sort_names[tl->sort]);
	for (int i = 0; i < TK__NR; i++)
		cells[i] = tk_cols[i].head;
	tk_row(y++, r, x->attrs[XP_A_HEAD], shown, "task", cells);
	xp_list_clamp(&tl->sel, &tl->top, tl->nr, list_h);
	for (int row = 0; row < list_h; row++, y++) {
		int i = tl->top + row;
		const struct sl_task *t;

		if (i >= tl->nr) {
			xp_put(y, r->x, r->w, A_NORMAL, "");
			continue;
		}
		t = tl->tasks[i];
		snprintf(b[TK_WAKEUPS], 32, "%" PRIu64, t->latency.count);
		snprintf(b[TK_SWITCH], 32, "%" PRIu64, t->switches);
		snprintf(b[TK_PREEM], 32, "%" PRIu64, t->preemptions);
		snprintf(b[TK_MIGR], 32, "%" PRIu64, t->migrations);
		for (int k = 0; k < TK__NR; k++)
			cells[k] = b[k];
		cells[TK_P50] = lat(b[TK_P50], 32, t, 50);
		cells[TK_P99] = lat(b[TK_P99], 32, t, 99);
		cells[TK_MAX] = lat(b[TK_MAX], 32, t, 101);
		cells[TK_RUN] = xp_dur(b[TK_RUN], 32, t->run_ns);
		cells[TK_WAIT] = xp_dur(b[TK_WAIT], 32, t->wait_ns);
		tk_row(y, r, i == tl->sel ? x->attrs[XP_A_SELECT] : A_NORMAL, shown,
		       xp_task_name(x, t->pid, t->comm, name, sizeof(name)), cells);
	}
}

/* The next (dir 1) or previous (-1) task the search names, from the one selected (0: it too). */
static void search_step(struct xp *x, struct tasks_list *tl, int dir)
{
	int matches = 0, at = 0;

	if (!x->search.text[0]) {
		xp_set_status(x, false, "no search: / asks for a task's name or pid");
		return;
	}
	for (int i = 0; i < tl->nr; i++)
		matches += xp_match_task(x, &x->search, tl->tasks[i]->pid, tl->tasks[i]->comm);
	for (int k = dir ? 1 : 0; matches && k <= tl->nr; k++) {
		int i = ((tl->sel + (dir < 0 ? -k : k)) % tl->nr + tl->nr) % tl->nr;

		if (xp_match_task(x, &x->search, tl->tasks[i]->pid, tl->tasks[i]->comm)) {
			tl->sel = i;
			break;
		}
	}
	if (!matches) {
		xp_set_status(x, false, "no task matches '%s'", x->search.text);
		return;
	}
	for (int i = 0; i <= tl->sel; i++)
		at += xp_match_task(x, &x->search, tl->tasks[i]->pid, tl->tasks[i]->comm);
	xp_set_status(x, false, "task %d of %d matching '%s' (n/N: next/previous)", at, matches, x->search.text);
}

static bool tk_key(struct xp *x, struct xp_panel *p, int ch)
{
	struct tasks_list *tl = p->priv;

	if (tl->dirty)
		rebuild(x, tl);
	if (xp_list_key(ch, &tl->sel, tl->nr, p->last.h - 2))
		return true;
	switch (ch) {
	case 's':
		tl->sort = (tl->sort + 1) % NR_TASK_SORTS;
		tl->dirty = true;
		return true;
	case 'S':
		tl->sort = (tl->sort + NR_TASK_SORTS - 1) % NR_TASK_SORTS;
		tl->dirty = true;
		return true;
	case '/':
		if (xp_ask_match(x, " search a task (name or pid): ", &x->search) > 0)
			search_step(x, tl, 0);
		return true;
	case 'n':
	case 'N':
		search_step(x, tl, ch == 'n' ? 1 : -1);
		return true;
	case '\\': {
		int ret = xp_ask_match(x, " show only tasks (name or pid; empty: all): ", &tl->filter);

		if (ret >= 0)
			tl->dirty = true;
		return true;
	}
	case '\n':
	case '\r':
	case KEY_ENTER: {
		const struct sl_task *t = tl->nr ? tl->tasks[tl->sel] : NULL;
		uint64_t found, wake_ts, run_ts;
		char who[64], d[32];
		int ret, cpu;

		if (!t)
			return true;
		if (xp_worst_wakeup(x, t, &wake_ts, &run_ts, &cpu)) {
			xp_timeline_span(x, wake_ts, run_ts, t->pid, cpu);
			xp_set_status(x, false, "the worst wakeup of %s: woken at A, switched in on cpu %d at B, "
				      "%s later", xp_task_name(x, t->pid, t->comm, who, sizeof(who)), cpu,
				      xp_dur(d, sizeof(d), run_ts - wake_ts));
			return true;
		}
		xp_busy(x, "for the task's first run");
		ret = xp_find_switch_in(&x->src, &x->idx, tl->tasks[tl->sel]->pid,
					x->first_ts ? x->first_ts - 1 : 0, true, &found);
		if (ret < 0 && ret != -EINTR)
			xp_set_status(x, true, "%s: %s", x->name, x->src.err.msg);
		if (ret < 0)
			return true;
		xp_timeline_goto(x, ret ? found : x->first_ts, tl->tasks[tl->sel]->pid, -1);
		xp_set_status(x, false, ret ? "pid %d has no wakeup latency: its first run" :
			      "pid %d is never switched in", tl->tasks[tl->sel]->pid);
		return true;
	}
	default:
		return false;
	}
}

static const struct xp_key_help tk_keys[] = {
	{ "Up/Down j/k", "select a task (PgUp/PgDn, Home/End)" },
	{ "s / S", "sort by the next / previous column" },
	{ "/", "search a task (name or pid); n / N next / previous" },
	{ "\\", "show only the tasks named (name or pid)" },
	{ "Enter", "the timeline at the task's worst wakeup (A/B)" },
	{ NULL, NULL },
};

const struct xp_panel_ops xp_tasks_ops = {
	.name = "Tasks",
	.init = tk_init,
	.destroy = tk_destroy,
	.draw = tk_draw,
	.key = tk_key,
	.hints = "j/k select  s sort  / search  \\ filter  Enter its worst wakeup  ?:help  q:quit",
	.keys = tk_keys,
};
