// SPDX-License-Identifier: GPL-2.0
/*
 * samples.c - the wakeup-latency samples explore keeps, and their list
 *
 * The model keeps histograms, not samples.  explore adds an analyzer of
 * its own to the analysis (xp_config()): it sees every latency sample the
 * histograms count (those in the filters) and keeps, for each row of the
 * overview's 1-2-5 histogram, its SAMPLES_KEPT longest samples, and for
 * each task its worst wakeup.  Memory: rows x SAMPLES_KEPT samples plus
 * one per task, whatever the trace.
 *
 * The panel lists one row's samples, longest first; Enter puts the
 * timeline on one with markers A at its waking and B at its switch-in.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/analyzer.h"
#include "schedlint/hist.h"
#include "tui.h"
#include "util/util.h"

#define SAMPLES_KEPT	200	/* per histogram row: the longest */

/* --- the 1-2-5 rows: 1, 2, 5, 10, 20, 50 ... ns --- */

uint64_t xp_hist_row_lo(int row)
{
	static const uint64_t steps[] = { 1, 2, 5 };
	uint64_t b = 1;

	for (int i = 0; i < row / 3; i++)
		b *= 10;
	return b * steps[row % 3];
}

int xp_hist_row(uint64_t v)
{
	/* by the bucket's lowest value, as the overview adds the histogram's buckets up */
	uint64_t lo = sl_hist_bucket_lo(v);
	int row = 0;

	while (row + 1 < XP_HIST_ROWS && xp_hist_row_lo(row + 1) <= lo)
		row++;
	return row;
}

/* --- the analyzer --- */

struct sample {
	uint64_t latency, wake_ts, run_ts;
	int32_t pid, cpu, waker_pid, waker_cpu;
	uint32_t comm;			/* the task's name then */
	bool inferred;			/* its switch-in is inferred: a lower bound */
};

struct sampler {
	struct sample *rows[XP_HIST_ROWS];	/* min-heaps by latency, SAMPLES_KEPT each */
	uint32_t nr[XP_HIST_ROWS];
	uint64_t count[XP_HIST_ROWS];	/* samples of the row, kept or not */
};

/* A task's worst wakeup (its slot in the model's task area). */
struct worst {
	bool valid;
	struct sample s;
};

static void sift_down(struct sample *h, uint32_t nr, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < nr && h[l].latency < h[m].latency)
			m = l;
		if (r < nr && h[r].latency < h[m].latency)
			m = r;
		if (m == i)
			return;
		struct sample t = h[i];

		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void sift_up(struct sample *h, uint32_t i)
{
	while (i && h[(i - 1) / 2].latency > h[i].latency) {
		struct sample t = h[i];

		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void on_latency(struct sl_analyzer *a, struct sl_model *m, const struct sl_latency_sample *ls)
{
	struct sampler *sp = a->priv;
	struct worst *w = sl_task_priv(m, a, ls->task);
	struct sample s = {
		.latency = ls->latency, .wake_ts = ls->wake_ts, .run_ts = ls->run_ts,
		.pid = ls->task->pid, .cpu = ls->cpu, .waker_pid = ls->waker_pid,
		.waker_cpu = ls->waker_cpu, .comm = ls->task->comm,
		.inferred = ls->implied_switch,
	};
	int row;

	if (!ls->in_filter)	/* as the histograms */
		return;
	if (!w->valid || s.latency > w->s.latency) {
		w->valid = true;
		w->s = s;
	}
	row = xp_hist_row(s.latency);
	sp->count[row]++;
	if (!sp->rows[row])
		sp->rows[row] = xcalloc(SAMPLES_KEPT, sizeof(*sp->rows[row]));
	if (sp->nr[row] < SAMPLES_KEPT) {
		sp->rows[row][sp->nr[row]] = s;
		sift_up(sp->rows[row], sp->nr[row]++);
	} else if (s.latency > sp->rows[row][0].latency) {
		sp->rows[row][0] = s;
		sift_down(sp->rows[row], sp->nr[row], 0);
	}
}

static void sampler_destroy(struct sl_analyzer *a, struct sl_model *m)
{
	struct sampler *sp = a->priv;

	for (int i = 0; i < XP_HIST_ROWS; i++)
		free(sp->rows[i]);
}

static const struct sl_analyzer_ops sampler_ops = {
	.name = "explore-samples",
	.priv_size = sizeof(struct sampler),
	.task_priv_size = sizeof(struct worst),
	.on_latency = on_latency,
	.destroy = sampler_destroy,
};

void xp_config(struct sl_config *cfg)
{
	/* the list outlives any one analysis: the model keeps pointing at it */
	static const struct sl_analyzer_ops *ops[64];

	if (cfg->analyzers == ops || cfg->nr_analyzers + 1 > (int)ARRAY_SIZE(ops))
		return;		/* done, or no room: the overview's buckets and Tasks' worst wakeup go without */
	memcpy(ops, cfg->analyzers, (size_t)cfg->nr_analyzers * sizeof(*ops));
	ops[cfg->nr_analyzers] = &sampler_ops;
	cfg->analyzers = ops;
	cfg->nr_analyzers++;
}

static struct sl_analyzer *sampler(const struct xp *x)
{
	for (int i = 0; i < x->m->nr_analyzers; i++)
		if (x->m->analyzers[i]->ops == &sampler_ops)
			return x->m->analyzers[i];
	return NULL;
}

bool xp_worst_wakeup(const struct xp *x, const struct sl_task *t, uint64_t *wake_ts, uint64_t *run_ts,
		     int *cpu)
{
	struct sl_analyzer *a = sampler(x);
	const struct worst *w;

	if (!a)
		return false;
	w = sl_task_priv(x->m, a, t);
	if (!w->valid)
		return false;
	*wake_ts = w->s.wake_ts;
	*run_ts = w->s.run_ts;
	*cpu = w->s.cpu;
	return true;
}

/* --- the panel: one row's samples --- */

struct samples_view {
	int row;			/* -1: none chosen */
	struct sample *list;		/* the row's kept samples, longest first */
	uint32_t nr;
	uint64_t count;
	int sel, top;
};

static int by_latency_desc(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	if (x->latency != y->latency)
		return x->latency < y->latency ? 1 : -1;
	return x->run_ts < y->run_ts ? -1 : x->run_ts > y->run_ts;
}

void xp_samples_open(struct xp *x, int row)
{
	struct samples_view *v = x->panels[XP_SAMPLES].priv;
	struct sl_analyzer *a = sampler(x);
	struct sampler *sp = a ? a->priv : NULL;

	if (row < 0 || row >= XP_HIST_ROWS)
		return;
	v->row = row;
	v->nr = sp ? sp->nr[row] : 0;
	v->count = sp ? sp->count[row] : 0;
	free(v->list);
	v->list = xcalloc(v->nr + 1, sizeof(*v->list));
	if (v->nr)
		memcpy(v->list, sp->rows[row], v->nr * sizeof(*v->list));
	qsort(v->list, v->nr, sizeof(*v->list), by_latency_desc);
	v->sel = v->top = 0;
	xp_show(x, XP_SAMPLES);
}

static void sa_init(struct xp *x, struct xp_panel *p)
{
	struct samples_view *v = xcalloc(1, sizeof(*v));

	v->row = -1;
	p->priv = v;
}

static void sa_destroy(struct xp *x, struct xp_panel *p)
{
	struct samples_view *v = p->priv;

	free(v->list);
	free(v);
}

static void sa_draw(struct xp *x, struct xp_panel *p, const struct xp_rect *r)
{
	struct samples_view *v = p->priv;
	char lo[32], hi[32], lat[32], a[32], b[32], who[64], waker[64];
	int y = r->y, list_h = r->h - 2;
	uint32_t inferred = 0;

	if (v->row < 0) {
		xp_clear(r);
		xp_put(r->y + 1, r->x, r->w, A_NORMAL,
		       "  no bucket chosen: in the overview (1), Enter on a histogram row lists its samples");
		return;
	}
	for (uint32_t i = 0; i < v->nr; i++)
		inferred += v->list[i].inferred;
	xp_putf(y++, r->x, r->w, A_NORMAL, " wakeup latency %s .. %s: %" PRIu64 " samples%s%s",
		xp_dur(lo, sizeof(lo), xp_hist_row_lo(v->row)),
		xp_dur(hi, sizeof(hi), xp_hist_row_lo(v->row + 1)), v->count,
		v->count > v->nr ? ", the longest listed" : "",
		inferred ? "; * a lower bound (switch-in not in the trace)" : "");
	xp_putf(y++, r->x, r->w, x->attrs[XP_A_HEAD], " %9s %-18s %-18s %3s %-22s %s", "latency", "woken",
		"switched in", "cpu", "task", "waker");
	xp_list_clamp(&v->sel, &v->top, (int)v->nr, list_h);
	for (int row = 0; row < list_h; row++, y++) {
		int i = v->top + row;
		const struct sample *s;

		if (i >= (int)v->nr) {
			xp_put(y, r->x, r->w, A_NORMAL, i == 0 ? "  (no samples)" : "");
			continue;
		}
		s = &v->list[i];
		xp_dur(lat, sizeof(lat) - 1, s->latency);
		if (s->inferred)
			strcat(lat, "*");	/* a lower bound (the title says) */
		snprintf(waker, sizeof(waker), "%s on cpu %d",
			 s->waker_pid >= 0 ? xp_task_name(x, s->waker_pid, 0, who, sizeof(who)) : "?", s->waker_cpu);
		xp_putf(y, r->x, r->w, i == v->sel ? x->attrs[XP_A_SELECT] : A_NORMAL,
			" %9s %-18s %-18s %3d %-22s %s", lat,
			fmt_ts(a, sizeof(a), s->wake_ts), fmt_ts(b, sizeof(b), s->run_ts), s->cpu,
			xp_task_name(x, s->pid, s->comm, who, sizeof(who)), waker);
	}
}

static bool sa_key(struct xp *x, struct xp_panel *p, int ch)
{
	struct samples_view *v = p->priv;

	if (v->row < 0)
		return false;
	if (xp_list_key(ch, &v->sel, (int)v->nr, MAX(1, p->last.h - 2)))
		return true;
	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (v->sel >= 0 && (uint32_t)v->sel < v->nr) {
			const struct sample *s = &v->list[v->sel];

			xp_timeline_span(x, s->wake_ts, s->run_ts, s->pid, s->cpu);
		}
		return true;
	default:
		return false;
	}
}

static const struct xp_key_help sa_keys[] = {
	{ "Up/Down j/k", "select a sample (PgUp/PgDn, Home/End)" },
	{ "Enter", "the timeline: A at its waking, B at its switch-in" },
	{ "Esc Backspace", "back to the overview" },
	{ NULL, NULL },
};

const struct xp_panel_ops xp_samples_ops = {
	.name = "Samples",
	.init = sa_init,
	.destroy = sa_destroy,
	.draw = sa_draw,
	.key = sa_key,
	.hints = "j/k select  Enter the timeline at the sample  Esc back  ?:help  q:quit",
	.keys = sa_keys,
};
