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
 *
 * CMD's output: on a terminal, what CMD printed below the block was
 * erased by the next redraw (perf bench's results never showed).  CMD
 * writes to a pty of ours instead, and a thread copies its complete
 * lines above the block (erased, the lines, the block again), so they
 * stay in the terminal's scrollback in the order written; an unfinished
 * line waits for its end, but for a progress line rewritten with \r: its
 * latest state is shown on a line of its own above the block, replaced
 * by the next one, and by the whole line once it ends.  At the end its last lines are printed once more, after the
 * report, so that they are on the screen when record returns.  Not on a
 * terminal, nothing is redrawn: CMD writes where it was started to.
 */
#define _GNU_SOURCE		/* ptsname_r */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "live_top.h"
#include "schedlint/findings.h"
#include "schedlint/report.h"
#include "util/util.h"

void sl_live_top_init(struct sl_live_top *top, FILE *out, bool tty)
{
	memset(top, 0, sizeof(*top));
	top->out = out;
	top->tty = tty;
	top->pty = -1;
	pthread_mutex_init(&top->lock, NULL);
}

void sl_live_top_free(struct sl_live_top *top)
{
	sl_live_top_pty_end(top);
	free(top->prev_known);
	free(top->prev_busy);
	free(top->frame);
	top->prev_known = top->prev_busy = NULL;
	top->frame = NULL;
	pthread_mutex_destroy(&top->lock);
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
		/* a number and its unit are one word ("26.6 us"), SL_GLUE a space within one */
		int word = (int)text_word_end(p + gap, 0, strlen(p + gap)), len = word;
		/* in display columns: a UTF-8 character is one, whatever its bytes */
		int cols = sl_span_width(p + gap, (size_t)word);

		if (col > indent && col + gap + cols > room) {
			fprintf(top->out, "\n%*s", indent, "");
			top->lines++;
			col = indent;
			gap = 0;
			p += strspn(p, " ");
		}
		if (col + gap + cols > room) {
			/* wider than the screen: cut, between characters */
			len = (int)sl_bytes_for_cols(p + gap, (size_t)word, MAX(room - col - gap, 0));
			cols = sl_span_width(p + gap, (size_t)len);
		}
		fprintf(top->out, "%*s", gap, "");
		for (int i = 0; i < len; i++)
			fputc(p[gap + i] == SL_GLUE[0] ? ' ' : p[gap + i], top->out);
		col += gap + cols;
		p += gap + word;
	}
	fputc('\n', top->out);
	top->lines++;
}

static void draw_frame(struct sl_live_top *top, const struct sl_model *m,
		       const struct sl_live_status *st, int width, long *body)
{
	FILE *f = top->out;
	char line[1024], a[32], b[32], c[32], d[32];
	struct sl_hist lat;
	uint64_t dt = st->wall_ns - top->prev_wall_ns;
	uint64_t rate = dt ? (m->nr_events - top->prev_events) * 1000000000ULL / dt : 0;
	size_t used;

	if (top->tty && top->lines) {
		if (width != top->width) {
			fputs("\033[H\033[2J", f);	/* resized: what we drew has moved */
			top->progress_shown = false;	/* cleared with the rest */
		}
		else
			fprintf(f, "\r\033[%dA\033[J", top->lines);
	} else if (top->refreshes) {
		fputc('\n', f);
	}
	top->lines = 0;
	top->width = width;
	if (body) {
		fflush(f);
		*body = ftell(f);
	}

	snprintf(line, sizeof(line), "schedlint record --live  %5.1f s  %s", st->wall_ns / 1e9,
		 st->what);
	put_line(top, width, line);

	fmt_count(a, sizeof(a), m->nr_events);
	fmt_count(b, sizeof(b), rate);
	used = (size_t)snprintf(line, sizeof(line),
				"  events    %s (%s/s)   written %.1f MB   lost %" PRIu64, a, b,
				st->bytes / 1e6, m->lost_events);
	if (st->kernel_lost)
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 " (ring" SL_GLUE "buffer:" SL_GLUE "%" PRIu64 ")", st->kernel_lost);
	if (st->behind_ns > 1000000000ULL)
		snprintf(line + used, sizeof(line) - used, "   analysis %.1f s behind",
			 st->behind_ns / 1e9);
	put_line(top, width, line);

	/* what this costs the machine: the price of --live is the analysis */
	if (dt)
		snprintf(line, sizeof(line), "  own cost  recording %.1f%% of a CPU, live analysis %.1f%%",
			 100.0 * (double)sl_dur(top->prev_record_cpu_ns, st->record_cpu_ns) / (double)dt,
			 100.0 * (double)sl_dur(top->prev_analysis_cpu_ns, st->analysis_cpu_ns) /
			 (double)dt);
	else
		snprintf(line, sizeof(line), "  own cost  -");
	put_line(top, width, line);

	sl_model_latency_now(m, &lat);	/* the model makes m->latency at the end */
	fmt_count(a, sizeof(a), lat.count);
	if (lat.count)
		snprintf(line, sizeof(line), "  wakeups   %s measured   latency p50 %s  p99 %s  max %s", a,
			 fmt_duration(b, sizeof(b), sl_hist_percentile(&lat, 50)),
			 fmt_duration(c, sizeof(c), sl_hist_percentile(&lat, 99)),
			 fmt_duration(d, sizeof(d), lat.max));
	else
		snprintf(line, sizeof(line), "  wakeups   none measured yet");
	sl_hist_free(&lat);
	put_line(top, width, line);

	used = (size_t)snprintf(line, sizeof(line), "  findings ");
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		if (sl_kinds[k].at_end)
			continue;	/* none until the end: listed below, not as 0 */
		used += (size_t)snprintf(line + used, sizeof(line) - used, " %s" SL_GLUE "%" PRIu64,
					 sl_kinds[k].name, m->findings->summary[k].count);
	}
	used += (size_t)snprintf(line + used, sizeof(line) - used, "  (so" SL_GLUE "far)");
	for (int k = 0, n = 0; k < SL_KIND__COUNT; k++)
		if (sl_kinds[k].at_end)
			used += (size_t)snprintf(line + used, sizeof(line) - used,
						 "%s%s", n++ ? ", " : "; at the end: ", sl_kinds[k].name);
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
			used += (size_t)snprintf(line + used, sizeof(line) - used, " cpu%d" SL_GLUE "%.0f%%", cpu,
						 100.0 * (double)MIN(dbusy, dknown) / (double)dknown);
		else if (cpu < 16)
			used += (size_t)snprintf(line + used, sizeof(line) - used, " cpu%d" SL_GLUE "-", cpu);
		top->prev_busy[cpu] = busy;
		top->prev_known[cpu] = known;
	}
	if (m->nr_cpus > 16)
		snprintf(line + used, sizeof(line) - used, " ... (%d CPUs)", m->nr_cpus);
	put_line(top, width, line);

	top->prev_events = m->nr_events;
	top->prev_wall_ns = st->wall_ns;
	top->prev_record_cpu_ns = st->record_cpu_ns;
	top->prev_analysis_cpu_ns = st->analysis_cpu_ns;
	top->refreshes++;
}

/* Keep the end of what CMD wrote, for the replay. */
static void keep_tail(struct sl_live_top *top, const char *buf, size_t n)
{
	if (n >= sizeof(top->tail)) {
		buf += n - sizeof(top->tail);
		n = sizeof(top->tail);
	}
	if (top->nr_tail + n > sizeof(top->tail)) {
		size_t drop = top->nr_tail + n - sizeof(top->tail);

		memmove(top->tail, top->tail + drop, top->nr_tail - drop);
		top->nr_tail -= drop;
	}
	memcpy(top->tail + top->nr_tail, buf, n);
	top->nr_tail += n;
}

/* Erase the block and the progress line above it (lock held). */
static void erase_block(struct sl_live_top *top, int fd)
{
	int up = top->lines + (top->progress_shown ? 1 : 0);
	char erase[32];

	if (up) {
		snprintf(erase, sizeof(erase), "\r\033[%dA\033[J", up);
		write_all(fd, erase, strlen(erase));
	}
	top->progress_shown = false;
}

/*
 * The unfinished line holds a \r (a progress line, perf bench's or dd's):
 * its latest state - the text after the last \r, or before it when none
 * follows - on a line above the block, in place of the one shown before,
 * cut to the width (its display columns) so that it takes one line (lock
 * held).
 */
static void show_progress(struct sl_live_top *top)
{
	const char *p = top->partial, *end = p + top->nr_partial;
	const char *cr = top->nr_partial ? memrchr(p, '\r', top->nr_partial) : NULL;
	const char *seg;
	size_t len, room = (size_t)(top->width > 1 ? top->width - 1 : 79);
	int fd = fileno(top->out);

	if (!cr)
		return;
	if (cr + 1 < end) {
		seg = cr + 1;
	} else {
		const char *prev = cr > p ? memrchr(p, '\r', (size_t)(cr - p)) : NULL;

		seg = prev ? prev + 1 : p;
	}
	len = (size_t)((cr + 1 < end ? end : cr) - seg);
	if (!len)
		return;
	if (len > room) {
		/* cut by display columns, between characters (NUL-terminated for the cut) */
		char line[sizeof(top->partial) + 1];

		memcpy(line, seg, len);
		line[len] = '\0';
		len = sl_bytes_for_cols(line, len, (int)room);
	}
	erase_block(top, fd);
	write_all(fd, seg, len);
	write_all(fd, "\r\n", 2);
	top->progress_shown = true;
	top->wrote = true;
	if (top->lines && top->frame)
		write_all(fd, top->frame, top->frame_len);
}

/*
 * CMD wrote buf (lock held): its complete lines go above the block - the
 * block erased, the lines, the block again -, an unfinished line waits
 * (unless it is longer than we keep, or flush: CMD ended), its progress
 * shown meanwhile if it has one (show_progress()).
 */
static void show_output(struct sl_live_top *top, const char *buf, size_t n, bool flush)
{
	int fd = fileno(top->out);
	const char *nl = n ? memrchr(buf, '\n', n) : NULL;
	size_t whole = nl ? (size_t)(nl - buf) + 1 : 0;
	char last;

	if (!whole && !flush && top->nr_partial + n <= sizeof(top->partial)) {
		memcpy(top->partial + top->nr_partial, buf, n);
		top->nr_partial += n;
		if (n && memchr(buf, '\r', n))
			show_progress(top);
		return;
	}
	if (!whole)
		whole = n;	/* all of it goes out, ended below */
	erase_block(top, fd);
	last = whole ? buf[whole - 1] : top->nr_partial ? top->partial[top->nr_partial - 1] : '\n';
	write_all(fd, top->partial, top->nr_partial);
	keep_tail(top, top->partial, top->nr_partial);
	write_all(fd, buf, whole);
	keep_tail(top, buf, whole);
	top->wrote = top->wrote || whole || top->nr_partial;
	top->nr_partial = 0;
	if (last != '\n') {
		write_all(fd, "\r\n", 2);	/* the block starts on a line of its own */
		keep_tail(top, "\n", 1);
	}
	if (whole < n) {
		memcpy(top->partial, buf + whole, n - whole);
		top->nr_partial = n - whole;
	}
	if (top->lines && top->frame)
		write_all(fd, top->frame, top->frame_len);
}

/* Copy what CMD wrote so far (lock held); flush: its unfinished line too. */
static void copy_output(struct sl_live_top *top, bool flush)
{
	char buf[8192];
	ssize_t n;

	if (top->pty < 0)
		return;
	while ((n = read(top->pty, buf, sizeof(buf))) > 0)
		show_output(top, buf, (size_t)n, false);
	if (flush && top->nr_partial)
		show_output(top, "", 0, true);
}

/* The copier: waits for CMD's output, shows it. */
static void *copier_main(void *arg)
{
	struct sl_live_top *top = arg;
	struct pollfd pfd = { .fd = top->pty, .events = POLLIN };

	while (!top->stop_copying) {
		int r = poll(&pfd, 1, 100);

		if (r < 0 && errno != EINTR)
			break;
		if (r > 0 && (pfd.revents & (POLLIN | POLLHUP | POLLERR))) {
			pthread_mutex_lock(&top->lock);
			copy_output(top, false);
			pthread_mutex_unlock(&top->lock);
			if (!(pfd.revents & POLLIN))
				usleep(100000);	/* CMD's side closed: nothing to read until it ends */
		}
	}
	return NULL;
}

int sl_live_top_pty(struct sl_live_top *top)
{
	char name[128];
	struct winsize ws;
	int master, slave;

	if (!top->tty)
		return -1;
	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0)
		return -1;
	if (grantpt(master) || unlockpt(master) || ptsname_r(master, name, sizeof(name))) {
		close(master);
		return -1;
	}
	slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (slave < 0) {
		close(master);
		return -1;
	}
	if (!ioctl(fileno(top->out), TIOCGWINSZ, &ws))
		ioctl(slave, TIOCSWINSZ, &ws);
	fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
	top->pty = master;
	return slave;
}

void sl_live_top_pty_started(struct sl_live_top *top, int cmd_fd)
{
	if (cmd_fd >= 0)
		close(cmd_fd);	/* CMD has it: its end is CMD's (and its children's) */
	if (top->pty < 0)
		return;
	top->stop_copying = false;
	top->copying = !pthread_create(&top->copier, NULL, copier_main, top);
}

void sl_live_top_pty_end(struct sl_live_top *top)
{
	if (top->copying) {
		top->stop_copying = true;
		pthread_join(top->copier, NULL);
		top->copying = false;
	}
	if (top->pty < 0)
		return;
	pthread_mutex_lock(&top->lock);
	copy_output(top, true);
	pthread_mutex_unlock(&top->lock);
	close(top->pty);
	top->pty = -1;
}

void sl_live_top_replay(struct sl_live_top *top, const char *cmd)
{
	const int max_lines = 5;
	size_t start = top->nr_tail;
	int lines = 0;

	if (!top->wrote || !top->nr_tail)
		return;
	/* the last max_lines lines (the tail ends with a newline) */
	while (start > 0 && lines <= max_lines)
		if (top->tail[--start] == '\n' && ++lines > max_lines)
			start++;
	fflush(top->out);
	fprintf(top->out, "\n%s: its last lines (all it wrote is above the summaries):\n",
		cmd && *cmd ? cmd : "CMD");
	fflush(top->out);
	write_all(fileno(top->out), top->tail + start, top->nr_tail - start);
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
	long body = 0;

	pthread_mutex_lock(&top->lock);
	/* what CMD wrote until now goes above this frame */
	copy_output(top, false);
	mem = open_memstream(&frame, &len);
	if (!mem) {
		draw_frame(top, m, st, width, NULL);	/* no memory: as it comes */
		ret = fflush(out) == 0 && !ferror(out) ? 0 : -1;
		pthread_mutex_unlock(&top->lock);
		return ret;
	}
	top->out = mem;
	draw_frame(top, m, st, width, &body);
	top->out = out;
	if (fclose(mem) || fflush(out) || ferror(out))
		ret = -1;
	/* past stdio: its first write on a line-buffered stream splits a frame */
	if (!ret && write_all(fileno(out), frame, len))
		ret = -1;
	/* the block without the erase before it: drawn again below CMD's lines */
	if (!ret && top->tty && body >= 0 && (size_t)body <= len) {
		free(top->frame);
		top->frame_len = len - (size_t)body;
		top->frame = xmalloc(top->frame_len + 1);
		memcpy(top->frame, frame + body, top->frame_len);
	}
	free(frame);
	pthread_mutex_unlock(&top->lock);
	return ret;
}
