// SPDX-License-Identifier: GPL-2.0
/*
 * live_top.c - the refreshing summary of schedlint record --live
 *
 * A block of a few lines, like top's header: event rate, wakeup latency
 * so far, finding counts so far, lost events, and per-CPU busy time over
 * the last interval.  On a terminal the block is redrawn in place (cursor
 * up, clear to the end of the screen); otherwise each refresh prints a
 * new block, so a log shows the run's progress.
 *
 * "So far" matters for the findings: analyzers that decide at the end of
 * the trace (affinity is known only then) report their findings in the
 * final report, not here.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "live_top.h"
#include "schedlint/findings.h"
#include "util/util.h"

void sl_live_top_init(struct sl_live_top *top, FILE *out, bool tty)
{
	memset(top, 0, sizeof(*top));
	top->out = out;
	top->tty = tty;
}

void sl_live_top_free(struct sl_live_top *top)
{
	free(top->prev_busy);
	top->prev_busy = NULL;
}

/* Busy time of c up to now, the running task's current stretch included. */
static uint64_t busy_until(const struct sl_cpu *c, uint64_t now)
{
	return c->busy_ns + (c->known && c->curr ? sl_dur(c->curr_since, now) : 0);
}

static void fmt_count(char *buf, size_t len, uint64_t n)
{
	if (n >= 10000000)
		snprintf(buf, len, "%.1fM", n / 1e6);
	else if (n >= 100000)
		snprintf(buf, len, "%.0fk", n / 1e3);
	else
		snprintf(buf, len, "%" PRIu64, n);
}

int sl_live_top_draw(struct sl_live_top *top, const struct sl_model *m,
		     const struct sl_live_status *st)
{
	FILE *f = top->out;
	char a[32], b[32], c[32], d[32];
	uint64_t dt = st->wall_ns - top->prev_wall_ns;
	uint64_t rate = dt ? (m->nr_events - top->prev_events) * 1000000000ULL / dt : 0;
	uint64_t model_dt = sl_dur(top->prev_now, m->now);
	int lines = 0;

	if (top->tty && top->lines)
		fprintf(f, "\033[%dA\033[J", top->lines);
	else if (top->refreshes)
		fputc('\n', f);

	fprintf(f, "schedlint record --live  %5.1f s  %s\n", st->wall_ns / 1e9, st->what);
	lines++;

	fmt_count(a, sizeof(a), m->nr_events);
	fmt_count(b, sizeof(b), rate);
	fprintf(f, "  events    %s  (%s/s)   written %.1f MB   lost %" PRIu64, a, b,
		st->bytes / 1e6, m->lost_events);
	if (st->kernel_lost)
		fprintf(f, " (ring buffer: %" PRIu64 ")", st->kernel_lost);
	if (st->behind_ns > 1000000000ULL)
		fprintf(f, "   analysis %.1f s behind", st->behind_ns / 1e9);
	fputc('\n', f);
	lines++;

	fmt_count(a, sizeof(a), m->latency.count);
	if (m->latency.count)
		fprintf(f, "  wakeups   %s measured   latency p50 %s  p99 %s  max %s\n", a,
			fmt_duration(b, sizeof(b), sl_hist_percentile(&m->latency, 50)),
			fmt_duration(c, sizeof(c), sl_hist_percentile(&m->latency, 99)),
			fmt_duration(d, sizeof(d), m->latency.max));
	else
		fputs("  wakeups   none measured yet\n", f);
	lines++;

	fputs("  findings ", f);
	for (int k = 0; k < SL_KIND__COUNT; k++)
		fprintf(f, " %s %" PRIu64, sl_kinds[k].name, m->findings->summary[k].count);
	fputs("  (so far)\n", f);
	lines++;

	/* busy share of each CPU over the last interval, in trace time */
	if (top->nr_prev_busy < m->nr_cpus) {
		top->prev_busy = xrealloc(top->prev_busy, (size_t)m->nr_cpus * sizeof(*top->prev_busy));
		memset(top->prev_busy + top->nr_prev_busy, 0,
		       (size_t)(m->nr_cpus - top->nr_prev_busy) * sizeof(*top->prev_busy));
		top->nr_prev_busy = m->nr_cpus;
	}
	fputs("  busy     ", f);
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		uint64_t busy = busy_until(&m->cpus[cpu], m->now);
		uint64_t delta = sl_dur(top->prev_busy[cpu], busy);

		if (cpu < 16)
			fprintf(f, " cpu%d %3.0f%%", cpu,
				model_dt ? 100.0 * (double)MIN(delta, model_dt) / (double)model_dt : 0.0);
		top->prev_busy[cpu] = busy;
	}
	if (m->nr_cpus > 16)
		fprintf(f, " ... (%d CPUs)", m->nr_cpus);
	fputc('\n', f);
	lines++;

	top->lines = lines;
	top->prev_events = m->nr_events;
	top->prev_wall_ns = st->wall_ns;
	top->prev_now = m->now;
	top->refreshes++;
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
