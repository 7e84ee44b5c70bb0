// SPDX-License-Identifier: GPL-2.0
/*
 * timeline.c - each CPU's busy time and runqueue depth over time, in windows
 *
 * For the time plots of analyze --html (timeline.h).  Per CPU, the time
 * since its last change is added to the windows it covers when the CPU
 * switches (busy: a task runs), when a task enters or leaves its queue
 * (depth: the model's queued tasks, the running one not counted, as the
 * report's max queue), and when its buffer loses events (unknown until
 * its next switch, as the model says).  Window 0 starts at the trace's
 * first event, the width at 10 us; when the trace outgrows
 * SL_TIMELINE_WINDOWS windows the width doubles and neighbours merge, so
 * the cost is O(1) per hook plus the windows an interval spans, and the
 * memory is fixed per CPU (16 KB).
 */
#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "util/util.h"

#define TL_FIRST_WIDTH	10000		/* ns */

struct tl_cpu {
	uint64_t since;			/* the state below holds since (0: not yet seen) */
	uint32_t depth;
	bool known, busy;
};

static struct sl_timeline *tl_of(struct sl_analyzer *a)
{
	return a->priv;
}

/* Double the width until the window of ts exists. */
static void fit(struct sl_timeline *tl, uint64_t ts)
{
	while ((ts - tl->origin) / tl->width >= SL_TIMELINE_WINDOWS) {
		for (int c = 0; c < tl->nr_cpus; c++) {
			struct sl_timeline_cpu *w = tl->cpus[c];

			if (!w)
				continue;
			for (int i = 0; i < SL_TIMELINE_WINDOWS / 2; i++) {
				w->known[i] = w->known[2 * i] + w->known[2 * i + 1];
				w->busy[i] = w->busy[2 * i] + w->busy[2 * i + 1];
				w->area[i] = w->area[2 * i] + w->area[2 * i + 1];
				w->max_depth[i] = MAX(w->max_depth[2 * i], w->max_depth[2 * i + 1]);
			}
			memset(w->known + SL_TIMELINE_WINDOWS / 2, 0, sizeof(w->known) / 2);
			memset(w->busy + SL_TIMELINE_WINDOWS / 2, 0, sizeof(w->busy) / 2);
			memset(w->area + SL_TIMELINE_WINDOWS / 2, 0, sizeof(w->area) / 2);
			memset(w->max_depth + SL_TIMELINE_WINDOWS / 2, 0, sizeof(w->max_depth) / 2);
		}
		tl->width *= 2;
	}
}

static struct sl_timeline_cpu *windows_of(struct sl_timeline *tl, int cpu)
{
	if (cpu >= tl->nr_cpus) {
		int n = cpu + 1;

		tl->cpus = xrealloc(tl->cpus, (size_t)n * sizeof(*tl->cpus));
		memset(tl->cpus + tl->nr_cpus, 0, (size_t)(n - tl->nr_cpus) * sizeof(*tl->cpus));
		tl->nr_cpus = n;
	}
	if (!tl->cpus[cpu])
		tl->cpus[cpu] = xcalloc(1, sizeof(*tl->cpus[cpu]));
	return tl->cpus[cpu];
}

/* Add cpu's state since its last change up to ts to the windows. */
static void flush(struct sl_analyzer *a, struct sl_model *m, int cpu, uint64_t ts)
{
	struct sl_timeline *tl = tl_of(a);
	struct tl_cpu *tc = sl_cpu_priv(m, a, cpu);
	struct sl_timeline_cpu *w;
	uint64_t from = tc->since;

	if (!tl->width) {
		tl->origin = MIN(m->first_ts, ts);
		tl->width = TL_FIRST_WIDTH;
	}
	if (from && ts < from)
		return;		/* an event out of order: counted from the later time */
	tc->since = ts;
	if (!from || ts == from || from < tl->origin || !tc->known)
		return;
	fit(tl, ts);
	w = windows_of(tl, cpu);
	for (uint64_t t = from; t < ts;) {
		uint64_t i = (t - tl->origin) / tl->width;
		uint64_t end = MIN(ts, tl->origin + (i + 1) * tl->width), d = end - t;

		w->known[i] += d;
		if (tc->busy)
			w->busy[i] += d;
		w->area[i] += d * tc->depth;
		if (tc->depth > w->max_depth[i])
			w->max_depth[i] = tc->depth;
		t = end;
	}
}

static void tl_on_switch(struct sl_analyzer *a, struct sl_model *m, const struct sl_switch_info *sw)
{
	struct tl_cpu *tc = sl_cpu_priv(m, a, sw->cpu);

	flush(a, m, sw->cpu, sw->ts);
	tc->known = true;
	tc->busy = sw->next != NULL;
}

static void tl_on_runnable(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t,
			   int cpu, uint64_t ts, bool enter)
{
	struct tl_cpu *tc = sl_cpu_priv(m, a, cpu);

	(void)t;
	flush(a, m, cpu, ts);
	if (enter)
		tc->depth++;
	else if (tc->depth)
		tc->depth--;
}

static void tl_on_cpu_unknown(struct sl_analyzer *a, struct sl_model *m, int cpu,
			      uint64_t gap_start, uint64_t ts)
{
	struct tl_cpu *tc = sl_cpu_priv(m, a, cpu);

	/* known until the loss began; from there until its next switch, not */
	flush(a, m, cpu, MAX(gap_start, tc->since));
	tc->known = false;
	tc->depth = 0;
	flush(a, m, cpu, ts);
}

static bool tl_task_in_use(struct sl_analyzer *a, struct sl_model *m, const struct sl_task *t)
{
	(void)a, (void)m, (void)t;
	return false;
}

static void tl_finish(struct sl_analyzer *a, struct sl_model *m)
{
	struct sl_timeline *tl = tl_of(a);

	for (int c = 0; c < m->nr_cpus; c++)
		flush(a, m, c, m->last_ts);
	if (tl->width) {
		fit(tl, m->last_ts);
		tl->nr_windows = (int)((m->last_ts - tl->origin) / tl->width) + 1;
	}
}

static void tl_destroy(struct sl_analyzer *a, struct sl_model *m)
{
	struct sl_timeline *tl = tl_of(a);

	(void)m;
	for (int c = 0; c < tl->nr_cpus; c++)
		free(tl->cpus[c]);
	free(tl->cpus);
}

const struct sl_analyzer_ops sl_timeline_analyzer = {
	.name = "timeline",
	.priv_size = sizeof(struct sl_timeline),
	.cpu_priv_size = sizeof(struct tl_cpu),
	.on_switch = tl_on_switch,
	.on_runnable = tl_on_runnable,
	.on_cpu_unknown = tl_on_cpu_unknown,
	.task_in_use = tl_task_in_use,
	.finish = tl_finish,
	.destroy = tl_destroy,
};

const struct sl_timeline *sl_timeline_of(const struct sl_model *m)
{
	for (int i = 0; i < m->nr_analyzers; i++)
		if (m->analyzers[i]->ops == &sl_timeline_analyzer)
			return m->analyzers[i]->priv;
	return NULL;
}
