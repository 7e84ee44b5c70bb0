// SPDX-License-Identifier: GPL-2.0
/*
 * live_top.c - the refreshing summary of schedlint record --live
 *
 * A block of a few lines, like top's header: event rate, wakeup latency
 * so far, finding counts so far, lost events, and per-CPU busy time over
 * the last interval.  On a terminal the block is redrawn in place: its
 * lines are wrapped to the terminal's width by us, so we know how many
 * lines we drew, and the next refresh moves up that many and clears to
 * the end of the screen (after a resize, the whole screen).  Otherwise
 * each refresh prints a new block (80 columns), so a log shows the run's
 * progress.
 *
 * "So far" matters for the findings: analyzers that decide at the end of
 * the trace (affinity is known only then) report their findings in the
 * final report, not here.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

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
	free(top->prev_known);
	free(top->prev_busy);
	top->prev_known = top->prev_busy = NULL;
}

/* Busy time of c up to now, the running task's current stretch included. */
static uint64_t busy_until(const struct sl_cpu *c, uint64_t now)
{
	return c->busy_ns + (c->known && c->curr ? sl_dur(c->curr_since, now) : 0);
}

/* Time c's state was known (busy or idle) up to now. */
static uint64_t known_until(const struct sl_cpu *c, uint64_t now)
{
	return c->busy_ns + c->idle_ns + (c->known ? sl_dur(c->curr_since, now) : 0);
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

/* The terminal's width now (it may have been resized), 80 for a file or pipe. */
static int out_width(const struct sl_live_top *top)
{
	struct winsize ws;

	if (top->tty && !ioctl(fileno(top->out), TIOCGWINSZ, &ws) && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

/*
 * One line of the block, wrapped at spaces to the width (continuation
 * lines indented like the values), so that the block's height on screen
 * is the number of lines we print: the next refresh moves up exactly
 * that far.  The last column is left empty: some terminals wrap there.
 */
static void put_line(struct sl_live_top *top, int width, const char *text)
{
	const int indent = 11, room = width - 1;
	const char *p = text;
	int col = 0;

	while (*p) {
		int gap = (int)strspn(p, " ");
		int len = (int)strcspn(p + gap, " ");

		if (col > indent && col + gap + len > room) {
			fprintf(top->out, "\n%*s", indent, "");
			top->lines++;
			col = indent;
			gap = 0;
			p += strspn(p, " ");
		}
		if (col + gap + len > room)
			len = MAX(room - col - gap, 0);	/* wider than the screen: cut */
		fprintf(top->out, "%*s%.*s", gap, "", len, p + gap);
		col += gap + len;
		p += gap + strcspn(p + gap, " ");
	}
	fputc('\n', top->out);
	top->lines++;
}

static void draw_frame(struct sl_live_top *top, const struct sl_model *m,
		       const struct sl_live_status *st, int width)
{
	FILE *f = top->out;
	char line[1024], a[32], b[32], c[32], d[32];
	uint64_t dt = st->wall_ns - top->prev_wall_ns;
	uint64_t rate = dt ? (m->nr_events - top->prev_events) * 1000000000ULL / dt : 0;
	size_t used;

	if (top->tty && top->lines) {
		if (width != top->width)
			fputs("\033[H\033[2J", f);	/* resized: what we drew has moved */
		else
			fprintf(f, "\r\033[%dA\033[J", top->lines);
	} else if (top->refreshes) {
		fputc('\n', f);
	}
	top->lines = 0;
	top->width = width;

	snprintf(line, sizeof(line), "schedlint record --live  %5.1f s  %s", st->wall_ns / 1e9,
		 st->what);
	put_line(top, width, line);

	fmt_count(a, sizeof(a), m->nr_events);
	fmt_count(b, sizeof(b), rate);
	used = (size_t)snprintf(line, sizeof(line),
				"  events    %s (%s/s)   written %.1f MB   lost %" PRIu64, a, b,
				st->bytes / 1e6, m->lost_events);
	if (st->kernel_lost)
		used += (size_t)snprintf(line + used, sizeof(line) - used, " (ring buffer: %" PRIu64 ")",
					 st->kernel_lost);
	if (st->behind_ns > 1000000000ULL)
		snprintf(line + used, sizeof(line) - used, "   analysis %.1f s behind",
			 st->behind_ns / 1e9);
	put_line(top, width, line);

	fmt_count(a, sizeof(a), m->latency.count);
	if (m->latency.count)
		snprintf(line, sizeof(line), "  wakeups   %s measured   latency p50 %s  p99 %s  max %s", a,
			 fmt_duration(b, sizeof(b), sl_hist_percentile(&m->latency, 50)),
			 fmt_duration(c, sizeof(c), sl_hist_percentile(&m->latency, 99)),
			 fmt_duration(d, sizeof(d), m->latency.max));
	else
		snprintf(line, sizeof(line), "  wakeups   none measured yet");
	put_line(top, width, line);

	used = (size_t)snprintf(line, sizeof(line), "  findings ");
	for (int k = 0; k < SL_KIND__COUNT; k++)
		used += (size_t)snprintf(line + used, sizeof(line) - used, " %s %" PRIu64,
					 sl_kinds[k].name, m->findings->summary[k].count);
	snprintf(line + used, sizeof(line) - used, "  (so far)");
	put_line(top, width, line);

	/*
	 * Each CPU's busy share of the time its state was known since the
	 * last refresh (trace time): from the first refresh on, a CPU counts
	 * from its first switch, not from the start of the clock.
	 */
	if (top->nr_prev < m->nr_cpus) {
		top->prev_busy = xrealloc(top->prev_busy, (size_t)m->nr_cpus * sizeof(*top->prev_busy));
		top->prev_known = xrealloc(top->prev_known,
					   (size_t)m->nr_cpus * sizeof(*top->prev_known));
		memset(top->prev_busy + top->nr_prev, 0,
		       (size_t)(m->nr_cpus - top->nr_prev) * sizeof(*top->prev_busy));
		memset(top->prev_known + top->nr_prev, 0,
		       (size_t)(m->nr_cpus - top->nr_prev) * sizeof(*top->prev_known));
		top->nr_prev = m->nr_cpus;
	}
	used = (size_t)snprintf(line, sizeof(line), "  busy     ");
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		uint64_t busy = busy_until(&m->cpus[cpu], m->now);
		uint64_t known = known_until(&m->cpus[cpu], m->now);
		uint64_t dbusy = sl_dur(top->prev_busy[cpu], busy);
		uint64_t dknown = sl_dur(top->prev_known[cpu], known);

		if (cpu < 16 && dknown)
			used += (size_t)snprintf(line + used, sizeof(line) - used, " cpu%d %.0f%%", cpu,
						 100.0 * (double)MIN(dbusy, dknown) / (double)dknown);
		else if (cpu < 16)
			used += (size_t)snprintf(line + used, sizeof(line) - used, " cpu%d -", cpu);
		top->prev_busy[cpu] = busy;
		top->prev_known[cpu] = known;
	}
	if (m->nr_cpus > 16)
		snprintf(line + used, sizeof(line) - used, " ... (%d CPUs)", m->nr_cpus);
	put_line(top, width, line);

	top->prev_events = m->nr_events;
	top->prev_wall_ns = st->wall_ns;
	top->refreshes++;
}

/*
 * The frame is composed in memory and written at once: a terminal's
 * stdout is line-buffered, and a frame written a line at a time shows
 * half-drawn (the block cleared, then filled line by line).
 */
int sl_live_top_draw(struct sl_live_top *top, const struct sl_model *m,
		     const struct sl_live_status *st)
{
	FILE *out = top->out, *mem;
	int width = out_width(top), ret = 0;
	char *frame = NULL;
	size_t len = 0;

	mem = open_memstream(&frame, &len);
	if (!mem) {
		draw_frame(top, m, st, width);	/* no memory: as it comes */
		return fflush(out) == 0 && !ferror(out) ? 0 : -1;
	}
	top->out = mem;
	draw_frame(top, m, st, width);
	top->out = out;
	if (fclose(mem) || fflush(out) || ferror(out))
		ret = -1;
	/* past stdio: its first write on a line-buffered stream splits a frame */
	if (!ret && write_all(fileno(out), frame, len))
		ret = -1;
	free(frame);
	return ret;
}
