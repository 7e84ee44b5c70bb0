// SPDX-License-Identifier: GPL-2.0
/*
 * read_text.c - scheduler traces as text: tracefs, trace-cmd report, perf script
 *
 * Three producers print the same ring-buffer events as text, each its way:
 *
 *  - the tracefs "trace" file (header "# tracer: nop", "#P:2") and
 *    "trace_pipe" (no header): with or without the irq-info column ("d.h1."
 *    or, before 5.x, "d.h1"), with or without a "(tgid)" column, pid
 *    column 5 or 7 wide, "CPU:1 [LOST 123 EVENTS]" after an overrun;
 *  - "trace-cmd report" (first line "cpus=2", maybe "version = 6"): the
 *    sched plugin's "bash:2856 [120] S ==> foo:12 [120]", -N for the kernel
 *    print formats, -R for raw numbers, -t for ns, -l for the latency
 *    layout, and "CPU:1 [123 EVENTS DROPPED]" / "CPU:1 [EVENTS DROPPED]";
 *  - "perf script" of sched tracepoints: "sched:sched_switch:" names, the
 *    pid right-aligned after the comm, ":-1 -1" for tasks already gone,
 *    "PERF_RECORD_LOST lost 9" with --show-lost-events, and perf's
 *    warnings on stderr ("lost 12 chunks!") when the user merged it in.
 *
 * The dialect is detected from the content (headers, then the shape of the
 * first event line), never from the file name.  Pitfalls that shaped the
 * code: comms may hold blanks, dashes, colons and brackets; timestamps have
 * 6 decimals (us) unless -t/--ns; prev_state is printed three different
 * ways (see read_text_fields.c); a lost-event marker says nothing about
 * time, so it is held until the next event of its CPU gives it one.
 *
 * Speed: lines are parsed in place in the read buffer (read_text_input.c),
 * with no allocation per line, no sscanf/strtol, and caches in front of
 * the string table for event names and comms.
 */
#define _GNU_SOURCE	/* memmem */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read_text.h"
#include "util/util.h"

/* The first event must come within this many non-comment lines. */
#define DETECT_MAX_LINES	1000

static inline const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static bool starts_with(const char *p, const char *end, const char *lit, size_t len)
{
	return (size_t)(end - p) >= len && !memcmp(p, lit, len);
}
#define STARTS_WITH(p, end, lit)	starts_with(p, end, lit, sizeof(lit) - 1)

static struct sl_error *text_err(struct text_reader *r)
{
	return r->base.err ? r->base.err : r->open_err;
}

static void note_cpu(struct text_reader *r, int32_t cpu)
{
	if (cpu >= r->base.info.ncpus)
		r->base.info.ncpus = cpu + 1;
}

/* --- input: lines out of the read buffer (read_text_input.c) --- */

/* next_line() found a line longer than the whole buffer (buf_max): bad, skipped */
#define LINE_TOO_LONG	2
/* next_line() found a last line without a newline: cut, not trusted */
#define LINE_CUT	3

/*
 * next_line - the next line in [*line, *end), without its newline.
 * Returns 1, 0 at the end of the input, LINE_TOO_LONG with the start of a
 * line that does not fit the buffer (its rest is skipped), LINE_CUT with
 * a last line that has no newline, or -errno.  A file cut in the middle
 * of "next_prio=120" ends in "next_prio=1": the line would parse, with a
 * value it never had, so a line without its newline is not an event.
 */
static int next_line(struct text_reader *r, const char **line, const char **end)
{
	if (r->retired) {	/* the line handed out before is done with */
		free(r->retired);
		r->retired = NULL;
	}
	for (;;) {
		char *start = r->buf + r->pos;
		size_t avail = r->len - r->pos;
		char *nl = memchr(start, '\n', avail);
		ssize_t n;

		if (nl) {
			r->pos = (size_t)(nl + 1 - r->buf);
			if (r->skipping) {	/* the tail of a too long line */
				r->skipping = false;
				continue;
			}
			r->line_no++;
			*line = start;
			*end = nl;
			return 1;
		}
		if (r->eof) {
			r->pos = r->len;
			if (!avail || r->skipping)
				return 0;
			r->line_no++;
			*line = start;
			*end = start + avail;
			return LINE_CUT;
		}
		if (r->pos) {
			memmove(r->buf, start, avail);
			r->len = avail;
			r->pos = 0;
		}
		if (r->len == r->buf_size && r->buf_size < r->buf_max) {
			/* a line longer than the buffer: room for more of it */
			r->buf_size = MIN(2 * r->buf_size, r->buf_max);
			r->buf = xrealloc(r->buf, r->buf_size);
		} else if (r->len == r->buf_size) {
			/* no newline in the whole buffer: drop it (still readable until the next read) */
			r->len = 0;
			if (!r->skipping) {
				r->skipping = true;
				r->line_no++;
				*line = r->buf;
				*end = r->buf + r->buf_size;
				return LINE_TOO_LONG;
			}
		}
		if (r->ahead_errno)
			return -r->ahead_errno;
		n = read(r->fd, r->buf + r->len, r->buf_size - r->len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			r->eof = true;
		r->len += (size_t)n;
	}
}

/* --- lines that are not events --- */

static void set_format(struct text_reader *r, enum sl_format fmt, bool from_header)
{
	if (r->format_from_header && !from_header)
		return;
	r->base.info.format = fmt;
	r->format_from_header |= from_header;
}

static void set_ncpus_from_header(struct text_reader *r, const char *p, const char *end)
{
	uint64_t n;

	p = skip_blanks(p, end);
	if (text_parse_u64(&p, end, &n) && n > 0 && n <= TEXT_MAX_CPU + 1) {
		r->base.info.header_ncpus = (int)n;
		note_cpu(r, (int32_t)n - 1);
	}
}

static void hold_lost(struct text_reader *r, uint32_t cpu, uint64_t count, bool known);

/*
 * handle_entries - "# entries-in-buffer/entries-written: 789/54653   #P:2"
 *
 * The kernel prints the events in the buffer and those written, which are
 * the former plus the ring buffer's overrun: the difference was overwritten
 * before the oldest event shown.  The text does not say on which CPU, so
 * every CPU gets a gap of unknown size before its first event and the total
 * goes to the trace's lost count.
 */
static void handle_entries(struct text_reader *r, const char *p, const char *end)
{
	uint64_t in_buffer, written;
	const char *q;

	for (q = p; (q = memchr(q, '#', (size_t)(end - q))); q++)
		if (STARTS_WITH(q, end, "#P:"))
			set_ncpus_from_header(r, q + 3, end);

	p = skip_blanks(p, end);
	if (!text_parse_u64(&p, end, &in_buffer) || p == end || *p++ != '/' ||
	    !text_parse_u64(&p, end, &written) || written <= in_buffer)
		return;
	/*
	 * Only the CPUs whose gap went out since the last such line, and new
	 * ones: 40,000 repeated lines saying #P:65536 took 6 s when each
	 * went over every CPU.
	 */
	for (size_t i = 0; i < r->nr_gap_done; i++)
		hold_lost(r, r->gap_done[i], 0, false);
	r->nr_gap_done = 0;
	for (int32_t cpu = r->gap_cpus; cpu < r->base.info.ncpus; cpu++)
		hold_lost(r, (uint32_t)cpu, 0, false);
	r->gap_cpus = MAX(r->gap_cpus, r->base.info.ncpus);
	r->base.info.lost_events = sat_add_u64(r->base.info.lost_events, written - in_buffer);
}

/*
 * "# tracer: nop", "# entries-in-buffer/entries-written: 1/1   #P:2", perf's
 * "# nrcpus avail : 2" and "# event : name = sched:sched_switch, ..."
 */
static void handle_comment(struct text_reader *r, const char *p, const char *end)
{
	if (STARTS_WITH(p, end, "# tracer:")) {
		set_format(r, SL_FMT_FTRACE_TEXT, true);
		return;
	}
	if (STARTS_WITH(p, end, "# entries-in-buffer/entries-written:")) {
		handle_entries(r, p + 36, end);
		return;
	}
	if (STARTS_WITH(p, end, "# nrcpus avail :")) {
		set_format(r, SL_FMT_PERF_SCRIPT, true);
		set_ncpus_from_header(r, p + 16, end);
		return;
	}
	if (STARTS_WITH(p, end, "# event : name = ")) {
		/* perf script --header lists the events recorded: is sched_wakeup one? */
		struct sl_trace_info *info = &r->base.info;

		set_format(r, SL_FMT_PERF_SCRIPT, true);
		p += 17;
		if (STARTS_WITH(p, end, "sched:sched_wakeup,"))
			info->has_wakeup = SL_YES;
		else if (info->has_wakeup == SL_UNKNOWN)
			info->has_wakeup = SL_NO;
		if (STARTS_WITH(p, end, "sched:sched_waking,"))
			info->has_waking = SL_YES;
		else if (info->has_waking == SL_UNKNOWN)
			info->has_waking = SL_NO;
		return;
	}
	if (STARTS_WITH(p, end, "# ========"))	/* perf script --header */
		set_format(r, SL_FMT_PERF_SCRIPT, true);
}

/* trace-cmd report's "cpus=2" and "version = 6" (the latter from its stderr) */
static bool handle_header(struct text_reader *r, const char *p, const char *end)
{
	if (STARTS_WITH(p, end, "cpus=")) {
		set_format(r, SL_FMT_TRACECMD_REPORT, true);
		set_ncpus_from_header(r, p + 5, end);
		return true;
	}
	if (STARTS_WITH(p, end, "version = ")) {
		set_format(r, SL_FMT_TRACECMD_REPORT, true);
		return true;
	}
	return false;
}

static void hold_lost(struct text_reader *r, uint32_t cpu, uint64_t count, bool known)
{
	GROW(r->lost, r->lost_alloc, (size_t)cpu + 1);
	if (!r->lost[cpu].pending) {
		r->lost[cpu].pending = true;
		r->lost[cpu].count = 0;
		r->lost_pending++;
	}
	r->lost[cpu].count = sat_add_u64(r->lost[cpu].count, count);
	if (known)
		r->base.info.lost_events = sat_add_u64(r->base.info.lost_events, count);
	else
		r->base.info.lost_unknown++;
	note_cpu(r, (int32_t)cpu);
}

/*
 * handle_lost_marker - "CPU:1 [LOST 123 EVENTS]", "CPU:1 [LOST EVENTS]"
 * (tracefs), "CPU:1 [123 EVENTS DROPPED]", "CPU:1 [EVENTS DROPPED]"
 * (trace-cmd, maybe after an "instance: " prefix).  trace-cmd's
 * "[SUBBUFFER START]" is accepted and ignored.  Returns false if the
 * line is none of these.
 */
static bool handle_lost_marker(struct text_reader *r, const char *p, const char *end)
{
	uint64_t cpu, count = 0;
	bool known;

	if (!STARTS_WITH(p, end, "CPU:")) {
		const char *colon = memchr(p, ':', (size_t)(end - p));

		if (!colon || colon + 1 >= end || colon[1] != ' ')
			return false;
		p = skip_blanks(colon + 1, end);
		if (!STARTS_WITH(p, end, "CPU:"))
			return false;
	}
	p += 4;
	if (!text_parse_u64(&p, end, &cpu) || cpu > TEXT_MAX_CPU || !STARTS_WITH(p, end, " ["))
		return false;
	p += 2;
	if (STARTS_WITH(p, end, "LOST ")) {
		p += 5;
		known = text_parse_u64(&p, end, &count);
		if (!(known ? STARTS_WITH(p, end, " EVENTS]") : STARTS_WITH(p, end, "EVENTS]")))
			return false;
	} else if (STARTS_WITH(p, end, "SUBBUFFER START]")) {
		return true;
	} else {
		known = text_parse_u64(&p, end, &count);
		if (!(known ? STARTS_WITH(p, end, " EVENTS DROPPED]") : STARTS_WITH(p, end, "EVENTS DROPPED]")))
			return false;
		set_format(r, SL_FMT_TRACECMD_REPORT, false);
	}
	hold_lost(r, (uint32_t)cpu, count, known);
	return true;
}

static void perf_lost_unplaced(struct text_reader *r)
{
	r->base.info.lost_unplaced = r->perf_lost_warned > r->perf_lost_records ?
				     r->perf_lost_warned - r->perf_lost_records : 0;
}

/*
 * handle_perf_warning - perf's warnings on its stderr, in the text when
 * the user merged the two (perf script ... 2>&1): "Warning:", "Processed
 * 26355 events and lost 385 chunks!", "Processed 67790 samples and lost
 * 64.12%!", "Check IO/CPU overload!".  They say that the kernel lost
 * events (385 times), not where: unless as many PERF_RECORD_LOST lines
 * place them, the losses are counted as unplaced (the report says so).
 * Returns false if the line is none of these.
 */
static bool handle_perf_warning(struct text_reader *r, const char *p, const char *end)
{
	const char *lost;
	uint64_t n;

	if ((end - p == 8 && !memcmp(p, "Warning:", 8)) ||
	    (end - p == 22 && !memcmp(p, "Check IO/CPU overload!", 22)))
		return true;
	if (!STARTS_WITH(p, end, "Processed ") || end[-1] != '!')
		return false;
	p += 10;
	if (!text_parse_u64(&p, end, &n) ||
	    !(lost = memmem(p, (size_t)(end - p), " and lost ", 10)))
		return false;
	p = lost + 10;
	if (!text_parse_u64(&p, end, &n))
		return false;
	if (STARTS_WITH(p, end, " chunks!")) {
		r->perf_lost_warned = MAX(r->perf_lost_warned, n);
	} else if (p < end && (*p == '.' || *p == '%')) {	/* "lost 64.12%!": a share */
		bool some = n > 0;

		for (p += *p == '.'; p < end && is_digit(*p); p++)
			some |= *p != '0';
		if (!STARTS_WITH(p, end, "%!"))
			return false;
		if (some)
			r->perf_lost_warned = MAX(r->perf_lost_warned, 1);
	} else {
		return false;
	}
	set_format(r, SL_FMT_PERF_SCRIPT, false);
	perf_lost_unplaced(r);
	return true;
}

/* Keep the first bad line for the error message, printable and short. */
/*
 * A line of perf script with a "sched:" event but no [CPU] column: -F
 * without cpu, which nothing can be analyzed without.  The hint that goes
 * after "not a recognized trace (line N: ...)", or "".
 */
static const char *perf_fields_hint(const char *p, const char *end)
{
	static const char ev[] = "sched:sched_";

	if (!memmem(p, (size_t)(end - p), ev, sizeof(ev) - 1))
		return "";
	for (const char *q = p; q < end; q++) {
		const char *d = q + 1;

		if (*q != '[')
			continue;
		while (d < end && *d >= '0' && *d <= '9')
			d++;
		if (d > q + 1 && d < end && *d == ']')
			return "";	/* it has a CPU: something else is wrong */
	}
	return ": perf script -F without cpu? schedlint reads its comm, tid, cpu, time, event "
	       "and trace fields";
}

static int note_bad_line(struct text_reader *r, const char *p, const char *end)
{
	struct sl_trace_info *info = &r->base.info;

	info->bad_lines++;
	if (!info->first_bad_line) {
		size_t n = MIN((size_t)(end - p), sizeof(r->first_bad) - 1);

		r->first_bad_hint = perf_fields_hint(p, end);
		info->first_bad_line = r->line_no;
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)p[i];

			r->first_bad[i] = c >= 0x20 && c < 0x7f && c != '"' ? (char)c : '?';
		}
		r->first_bad[n] = '\0';
	}
	if (!r->events && ++r->unrecognized >= DETECT_MAX_LINES) {
		sl_error_set(text_err(r), "not a recognized trace (line %llu: \"%s\")%s",
			     (unsigned long long)info->first_bad_line, r->first_bad, r->first_bad_hint);
		return -EINVAL;
	}
	return 0;
}

/* --- events --- */

static void fill_lost_event(struct text_reader *r, uint32_t cpu, uint64_t ts, struct sl_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->ts = ts;
	ev->cpu = (int32_t)cpu;
	ev->pid = -1;
	ev->type = SL_EV_LOST;
	ev->name = r->lost_name;
	ev->lost.count = r->lost[cpu].count;
	r->lost[cpu].pending = false;
	r->lost_pending--;
	r->events++;
	if ((int32_t)cpu < r->gap_cpus) {
		GROW(r->gap_done, r->gap_done_alloc, r->nr_gap_done + 1);
		r->gap_done[r->nr_gap_done++] = cpu;
	}
}

/*
 * Far back in time: far beyond the few µs of skew between CPUs' local
 * clocks.  A CPU's first event this far before the line above it starts
 * a section; a time this far ahead of all that follows it is corrupt.
 */
#define FAR_BACK_NS		1000000	/* 1 ms */
/*
 * A last line's gap that no quiet end of a trace comes near: a scenario's
 * long last run is milliseconds, a machine's quietest second has events.
 */
#define FAR_AHEAD_LAST_NS	1000000000ULL	/* 1 s */

/* note_time_order - the counts pump() judges the time order by at the end */
static void note_time_order(struct text_reader *r, const struct sl_event *ev)
{
	bool first = !r->cpu_runs;

	if (ev->ts > r->last_ts || first) {
		if (first)
			r->first_ts = r->last_ts = ev->ts;
		r->max_before_max = r->last_ts;
		r->events_before_max = r->events;
		r->last_ts = ev->ts;
		r->last_ts_line = r->line_no;
		r->back_since_max = r->events_since_max = r->max_since_max = 0;
	} else {
		r->ts_back += ev->ts < r->last_ts;
		r->back_since_max += ev->ts < r->last_ts;
		r->events_since_max++;
		r->max_since_max = MAX(r->max_since_max, ev->ts);
	}
	if (ev->cpu >= 0) {
		GROW(r->cpu_order, r->cpu_order_alloc, (size_t)ev->cpu + 1);
		struct text_cpu_order *c = &r->cpu_order[ev->cpu];

		if (!c->seen) {
			c->seen = true;
			r->cpus_seen++;
			if (!first && r->prev_ts > ev->ts && r->prev_ts - ev->ts > FAR_BACK_NS &&
			    !r->section_line) {
				r->section_line = r->line_no;
				r->section_cpu = ev->cpu;
				r->section_back = r->prev_ts - ev->ts;
			}
		} else if (ev->ts < c->last_ts && !r->cpu_back++) {
			r->cpu_back_line = r->line_no;
		}
		c->last_ts = ev->ts;
	}
	if (ev->cpu != r->prev_cpu || first)
		r->cpu_runs++;
	r->prev_cpu = ev->cpu;
	r->prev_ts = ev->ts;
}

static void note_event(struct text_reader *r, const struct text_line *line, const struct sl_event *ev)
{
	struct sl_trace_info *info = &r->base.info;

	if (info->format == SL_FMT_UNKNOWN)
		set_format(r, line->perf ? SL_FMT_PERF_SCRIPT :
			   line->latency ? SL_FMT_TRACECMD_REPORT : SL_FMT_FTRACE_TEXT, false);
	else if (r->plugin_shape && info->format == SL_FMT_FTRACE_TEXT)
		set_format(r, SL_FMT_TRACECMD_REPORT, false);	/* only trace-cmd prints these */
	note_cpu(r, ev->cpu);
	note_time_order(r, ev);
	if (ev->type == SL_EV_WAKING)
		info->has_waking = SL_YES;
	else if (ev->type == SL_EV_WAKEUP)
		info->has_wakeup = SL_YES;
	else if (ev->type == SL_EV_LOST) {	/* PERF_RECORD_LOST */
		info->lost_events = sat_add_u64(info->lost_events, ev->lost.count);
		r->perf_lost_records++;
		perf_lost_unplaced(r);
	}
	r->events++;
}

/*
 * perf script --show-task-events (--show-mmap-events...): perf's own
 * records of a fork, a comm, an exit, stamped 0 when synthesized at the
 * start, are not events (the model names tasks from the tracepoints;
 * taken as events they made the span 0 .. 2588 s: issue 32, 20).  Its
 * PERF_RECORD_LOST is one, parsed as such before this is asked.
 */
static bool is_perf_record(const char *p, const char *end)
{
	return memmem(p, (size_t)(end - p), ": PERF_RECORD_", 14) != NULL;
}

/*
 * handle_line - one line of input.  Returns 1 with *ev filled (a held
 * lost marker of the event's CPU comes first: then the event waits in the
 * queue), 0 for a line that gives no event, or -errno.
 */
static int handle_line(struct text_reader *r, const char *p, const char *end, struct sl_event *ev)
{
	const char *line_start = p;
	struct text_line line;

	while (end > p && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	/* event lines first: they are nearly all of the input */
	if ((p == end || *p != '#') &&
	    !text_parse_line(r, line_start, end, &line) && !text_parse_event(r, &line, ev)) {
		if (ev->type != SL_EV_OTHER || !is_perf_record(p, end))
			goto event;
		return 0;
	}

	p = skip_blanks(p, end);
	if (p == end)
		return 0;
	if (*p == '#') {
		handle_comment(r, p, end);
		return 0;
	}
	if (handle_header(r, p, end) || handle_lost_marker(r, p, end) ||
	    handle_perf_warning(r, p, end))
		return 0;
	/* perf script -g: callchain lines, tab-indented, under each event */
	if (*line_start == '\t' && r->base.info.format == SL_FMT_PERF_SCRIPT)
		return 0;
	if (is_perf_record(p, end))
		return 0;
	return note_bad_line(r, p, end);

event:
	note_event(r, &line, ev);
	if (r->lost_pending && (size_t)ev->cpu < r->lost_alloc && r->lost[ev->cpu].pending) {
		r->queue[r->q_len++] = *ev;
		fill_lost_event(r, (uint32_t)ev->cpu, ev->ts, ev);
	}
	return 1;
}

/*
 * At the end of the input: markers still held get the last timestamp.
 * Nothing is held anew now, so the scan goes on where it stopped (from 0
 * each time it was quadratic in the CPUs: a text naming CPUs up to 46000,
 * each with an overrun gap, took 0.9 s).
 */
static int flush_lost(struct text_reader *r, struct sl_event *ev)
{
	for (size_t cpu = r->lost_flushed; r->lost_pending && cpu < r->lost_alloc; cpu++) {
		if (r->lost[cpu].pending) {
			fill_lost_event(r, (uint32_t)cpu, r->last_ts, ev);
			r->lost_flushed = cpu + 1;
			return 1;
		}
	}
	return 0;
}

static int fail(struct text_reader *r, int ret)
{
	r->sticky_error = ret;
	return ret;
}

/*
 * time_order_ok - at the end of a text read whole: are its events in the
 * order the model takes them, merged by time?  The model takes an event
 * older than the latest at the latest time (a few µs of skew between
 * CPUs' local clocks, a line or two out of place): fine for a few, a
 * report of meaningless intervals when the order is broken.  Broken are:
 * a text whose CPUs come one after another (each in order: the kernel's
 * per-CPU buffers are), one where more than half of at least 16 events
 * are before an earlier line's time, and one whose latest time is far
 * ahead of all of at least 16 events after it (those would all be taken
 * at it); the message says which of the causes seen so far it is.
 * With fewer after it (a corrupt time among the last lines), the latest
 * time is as far ahead of the latest before it too (a line or two out of
 * place at the end are a few small inversions), and of at least 16
 * events in all; with none after it (the last line), there is no event
 * to contradict it, and its gap must also be longer than all the events
 * before it span and than 1 s (a quiet end is neither).  Either way
 * the span of the report would be that time's.  False with the error set.
 */
static bool time_order_ok(struct text_reader *r)
{
	bool mostly_back, jump, jump_at_end;
	char a[32], b[32], c[32], d[32];

	if (r->section_line && r->cpu_runs == r->cpus_seen && !r->cpu_back) {
		sl_error_set(text_err(r), "not a trace in time order: its CPUs come one after "
			     "another (line %llu starts CPU %d's events, %s s before the line above "
			     "it); schedlint reads them merged in time order, as the tracefs trace "
			     "file and trace-cmd report without --cpu print them",
			     (unsigned long long)r->section_line, r->section_cpu,
			     fmt_ts(a, sizeof(a), r->section_back));
		return false;
	}
	mostly_back = r->events >= 16 && r->ts_back > r->events / 2;
	/* a time far ahead of at least 16 events after it, none catching up */
	jump = r->events_since_max >= 16 && r->back_since_max == r->events_since_max &&
	       r->last_ts - r->max_since_max > FAR_BACK_NS;
	/* ... with fewer after it: far ahead of the latest before it too */
	jump_at_end = !jump && r->events >= 16 && r->back_since_max == r->events_since_max &&
		      r->last_ts - MAX(r->max_since_max, r->max_before_max) > FAR_BACK_NS;
	if (jump_at_end && !r->events_since_max) {
		/* the last line: nothing contradicts it but its distance */
		uint64_t gap = r->last_ts - r->max_before_max;

		if (gap <= r->max_before_max - r->first_ts || gap <= FAR_AHEAD_LAST_NS)
			return true;
		/*
		 * refused (it would be the span's end); but a text filtered to a
		 * few tasks can end so: --to reads it without that line
		 */
		sl_error_set(text_err(r), "line %llu's time, %s, is %s s after the latest event "
			     "before it, more than the %s s the %llu events before it span (a "
			     "corrupt timestamp?); --to %s reads the rest",
			     (unsigned long long)r->last_ts_line,
			     fmt_ts(a, sizeof(a), r->last_ts), fmt_ts(b, sizeof(b), gap),
			     fmt_ts(c, sizeof(c), r->max_before_max - r->first_ts),
			     (unsigned long long)r->events_before_max,
			     fmt_ts(d, sizeof(d), r->max_before_max));
		return false;
	}
	jump = jump || jump_at_end;
	if (!mostly_back && !jump)
		return true;
	/* a time column of deltas goes back on every CPU, about every other event */
	if (mostly_back && r->cpu_back > r->events / 4) {
		sl_error_set(text_err(r), "not a trace in time order: %llu of its %llu events "
			     "go back in time, on their CPU from line %llu on (perf script --deltatime?)",
			     (unsigned long long)r->ts_back, (unsigned long long)r->events,
			     (unsigned long long)r->cpu_back_line);
		return false;
	}
	sl_error_set(text_err(r), "not a trace in time order: line %llu's time, %s, is after "
		     "%llu of the %llu events that follow it (a corrupt timestamp?)",
		     (unsigned long long)r->last_ts_line, fmt_ts(a, sizeof(a), r->last_ts),
		     (unsigned long long)r->back_since_max, (unsigned long long)r->events_since_max);
	return false;
}

/* pump - produce the next event from the input: 1, 0 at the end, or -errno. */
static int pump(struct text_reader *r, struct sl_event *ev)
{
	const char *line = NULL, *end = NULL;
	int ret;

	if (r->sticky_error)
		return r->sticky_error;
	for (;;) {
		ret = next_line(r, &line, &end);
		if (ret < 0) {
			sl_error_set(text_err(r), "read error after line %llu: %s",
				     (unsigned long long)r->line_no, strerror(-ret));
			return fail(r, ret);
		}
		if (ret == 0)
			break;
		if (ret == LINE_TOO_LONG && !r->events) {
			/* /dev/zero: a line that never ends must not keep the detection waiting */
			sl_error_set(text_err(r), "not a recognized trace (line %llu: more than %zu "
				     "bytes without a newline)", (unsigned long long)r->line_no,
				     r->buf_max);
			return fail(r, -EINVAL);
		}
		if (ret == LINE_CUT) {
			const char *p = skip_blanks(line, end);

			/* a comment or a blank line can end a file: anything else is cut */
			ret = p == end || *p == '#' ? 1 : LINE_TOO_LONG;
			if (ret == LINE_TOO_LONG)
				r->base.info.cut_last_line = r->line_no;
		}
		if (ret == LINE_TOO_LONG)
			ret = note_bad_line(r, line, end);
		else
			ret = handle_line(r, line, end, ev);
		if (ret < 0)
			return fail(r, ret);
		if (ret > 0)
			return 1;
	}
	if (!r->events && !r->lost_pending) {
		if (r->base.info.bad_lines) {
			sl_error_set(text_err(r), "not a recognized trace (line %llu: \"%s\")%s",
				     (unsigned long long)r->base.info.first_bad_line, r->first_bad,
				     r->first_bad_hint);
			return fail(r, -EINVAL);
		}
		sl_error_set(text_err(r), "no events");
		return fail(r, -ENODATA);
	}
	/*
	 * A text whose lines are mostly not events, or whose times mostly go
	 * back, is not a trace of this kind: perf script -F without comm
	 * (2058 of 2079 lines not events), --deltatime (the time column
	 * holds deltas: 2070 of 2079 go back) gave full reports of
	 * meaningless numbers, exit 0 (issue 32, 21).  A real one has a few
	 * (a cut line, the local clock's skew between CPUs).  Both judge
	 * the whole text read once from its start: a reader sought by time
	 * (explore's windows) reads parts of it again, after a seek back
	 * every event is before the last one read, and the counts mix.
	 */
	if (r->sought)
		return flush_lost(r, ev);
	if (r->base.info.bad_lines > r->events && !r->lost_pending) {
		sl_error_set(text_err(r), "not a trace: %llu of its %llu lines are not events "
			     "(line %llu: \"%s\"; perf script -F without comm?)",
			     (unsigned long long)r->base.info.bad_lines,
			     (unsigned long long)(r->base.info.bad_lines + r->events),
			     (unsigned long long)r->base.info.first_bad_line, r->first_bad);
		return fail(r, -EINVAL);
	}
	if (!r->lost_pending && !time_order_ok(r))
		return fail(r, -EINVAL);
	return flush_lost(r, ev);
}

static int text_next(struct sl_reader *base, struct sl_event *ev)
{
	struct text_reader *r = (struct text_reader *)base;

	if (r->q_len) {
		*ev = r->queue[0];
		r->queue[0] = r->queue[1];
		r->q_len--;
		return 1;
	}
	return pump(r, ev);
}

static void text_close(struct sl_reader *base)
{
	struct text_reader *r = (struct text_reader *)base;

	if (r->fd >= 0)
		close(r->fd);
	text_input_free(r);
	free(r->lost);
	free(r->gap_done);
	free(r->mask_words);
	free(r->cpu_order);
	free(r);
}

/* --- seeking by time (explore re-reads windows) --- */

#define PROBE_CHUNK		(64 * 1024)
/* A probe gives up after this much text without an event line. */
#define PROBE_MAX_SCAN		(4 * 1024 * 1024)

/*
 * probe_event_line - the first event line that starts at or after byte
 * off: its start offset and timestamp.  False when there is none (end of
 * file, or PROBE_MAX_SCAN of lines that are no events) or on a read error.
 */
static bool probe_event_line(struct text_reader *r, char *buf, uint64_t off,
			     uint64_t *line_off, uint64_t *ts)
{
	/* from the byte before off: a line starts after the first newline */
	uint64_t base = off ? off - 1 : 0;
	bool at_line_start = off == 0;
	size_t have = 0, start = 0;

	for (uint64_t scanned = 0; scanned < PROBE_MAX_SCAN;) {
		ssize_t n;

		if (start) {	/* keep the unfinished line, read after it */
			memmove(buf, buf + start, have - start);
			base += start;
			have -= start;
			start = 0;
		}
		if (have == PROBE_CHUNK)	/* a line longer than the chunk: not an event */
			have = 0, base += PROBE_CHUNK, at_line_start = false;
		n = pread(r->fd, buf + have, PROBE_CHUNK - have, (off_t)(base + have));
		if (n <= 0)
			return false;
		have += (size_t)n;
		scanned += (uint64_t)n;
		for (;;) {
			char *line = buf + start, *nl = memchr(line, '\n', have - start);
			const char *end = nl;
			struct text_line tl;

			if (!nl)
				break;
			start = (size_t)(nl + 1 - buf);
			if (!at_line_start) {
				at_line_start = true;
				continue;
			}
			while (end > line && (end[-1] == '\r' || end[-1] == ' '))
				end--;
			if (line < end && *line != '#' && !text_parse_line(r, line, end, &tl)) {
				*line_off = base + (uint64_t)(line - buf);
				*ts = tl.ts;
				return true;
			}
		}
	}
	return false;
}

/*
 * text_seek_time - binary search of the file by the timestamps of its
 * event lines: every producer prints events merged in time order.  The
 * search stops within PROBE_CHUNK bytes before the first event at ts.
 * Needs a file (lseek); a pipe gets -ENOTSUP.
 */
static int text_seek_time(struct sl_reader *base, uint64_t ts)
{
	struct text_reader *r = (struct text_reader *)base;
	uint64_t lo = 0, hi, line_off, line_ts;
	struct stat st;
	char *buf;

	if (fstat(r->fd, &st) < 0 || !S_ISREG(st.st_mode) || lseek(r->fd, 0, SEEK_CUR) < 0)
		return -ENOTSUP;
	buf = xmalloc(PROBE_CHUNK);
	/* lo: its first event line is before ts (or lo = 0); hi: not */
	hi = (uint64_t)st.st_size;
	while (hi - lo > PROBE_CHUNK) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (probe_event_line(r, buf, mid, &line_off, &line_ts) && line_ts < ts)
			lo = mid;
		else
			hi = mid;
	}
	free(buf);

	if (lseek(r->fd, (off_t)(lo ? lo - 1 : 0), SEEK_SET) < 0) {
		sl_error_set(text_err(r), "cannot seek: %s", strerror(errno));
		return -errno;
	}
	r->pos = r->len = 0;
	r->eof = false;
	r->skipping = lo > 0;		/* the rest of the line lo is in */
	r->q_len = 0;
	for (size_t cpu = 0; cpu < r->lost_alloc; cpu++)
		r->lost[cpu].pending = false;
	r->lost_pending = 0;
	r->lost_flushed = 0;
	r->gap_cpus = 0;
	r->nr_gap_done = 0;
	r->last_ts = 0;
	r->sought = true;
	return 0;
}

static const struct sl_reader_ops text_ops = {
	.next = text_next,
	.close = text_close,
	.seek_time = text_seek_time,
};

/*
 * sl_read_text_open - open prefix + fd as a text trace.  Reads up to the
 * first event, so that a file that is no trace fails here, and the
 * dialect and the header facts (ncpus) are known when this returns.
 */
int sl_read_text_open(int fd, const char *prefix, size_t prefix_len,
		      struct sl_strtab *strtab, struct sl_reader **out,
		      struct sl_error *err)
{
	struct text_reader *r = xcalloc(1, sizeof(*r));
	struct sl_event first;
	int ret;

	*out = NULL;
	r->base.ops = &text_ops;
	r->base.strtab = strtab;
	r->strtab = strtab;
	r->open_err = err;
	r->fd = fd;
	text_input_init(r, prefix, prefix_len);
	text_fields_init(r);

	ret = pump(r, &first);
	if (ret <= 0) {
		text_close(&r->base);
		return ret ? ret : -ENODATA;
	}
	/* first goes before whatever handle_line() queued behind it */
	if (r->q_len)
		r->queue[1] = r->queue[0];
	r->queue[0] = first;
	r->q_len++;
	if (r->base.info.format == SL_FMT_UNKNOWN)
		r->base.info.format = SL_FMT_FTRACE_TEXT;
	*out = &r->base;
	return 0;
}
