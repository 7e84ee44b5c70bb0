// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_timehist.c - schedlint timehist: a row per context switch, as perf sched timehist
 *
 * What perf sched timehist prints, with its definitions (tools/perf/
 * builtin-sched.c, timehist_update_runtime_stats()), so a perf user reads
 * the same numbers from a trace.dat, a perf.data or a text trace:
 *
 *   - a row at each sched_switch, for the task that leaves the CPU (the
 *     CPU's idle task too): its "run time" is from the CPU's previous
 *     sched_switch to this one; its "wait time" from its own previous
 *     switch-out to that switch-in; its "sch delay" from its first wakeup
 *     since that switch-out (sched_waking when the trace has them, else
 *     sched_wakeup, or sched_wakeup_new) to that switch-in;
 *   - -w: a row per wakeup (the waker, the wakee); -M: a row per
 *     sched_migrate_task; -I: only the switches into and out of idle;
 *   - -s / -S: per task, the runs counted and their length (min, mean,
 *     max, the relative standard error of the mean, perf's "stddev"),
 *     its migrations; with --state its wait time by the state it left
 *     the CPU in; the CPUs' idle time; the totals.
 *
 * The events are read from the model's hook on_event, after the model
 * applied them: the task and the filters are the model's; the numbers are
 * perf's, not the model's wakeup latency (which analyze and explore
 * measure).  A CPU's first switch, and its first after lost events, has
 * no previous switch to measure from: zeros, as perf prints at the start.
 *
 * The rows are spooled to a temporary file and written out only when the
 * whole trace was read: a trace that turns out corrupt half-way gets its
 * one-line error and no partial listing, in memory that does not grow
 * with the trace.  A row is formatted by hand into the spool's buffer,
 * not by printf: on a large trace the listing is tens of MB, and printf's
 * parsing of its format, row by row, cost as much as the whole model.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "cmds.h"
#include "options.h"
#include "output.h"
#include "pager.h"
#include "schedlint/analysis.h"
#include "schedlint/analyzer.h"
#include "util/util.h"

static const char timehist_usage[] =
	"usage: schedlint timehist [options] [TRACE | -i TRACE]\n"
	"\n"
	"A row per context switch in TRACE (default trace.dat; any input analyze\n"
	"reads, a perf.data too), as perf sched timehist prints it: the task that\n"
	"left the CPU, the time it waited since its previous switch-out (wait\n"
	"time), from its wakeup to its switch-in (sch delay), and its run (run\n"
	"time), in ms.  Times in trace seconds, rounded to the microsecond.\n"
	"\n"
	"  -w, --wakeups         also a row per wakeup (waker, awakened task)\n"
	"  -M, --migrations      also a row per sched_migrate_task\n"
	"  -I, --idle-hist       only the switches into and out of idle (not with -w,\n"
	"                        -M); with -s, each task's idle time after it\n"
	"  -s, --summary         only the per-task summary (not with -w, -n, -V, -S)\n"
	"  -S, --with-summary    the rows, then the summary\n"
	"      --state           the state the task left the CPU in; with -s, its\n"
	"                        wait time by that state\n"
	"  -n, --next            the task switched in\n"
	"  -V, --cpu-visual      a column per CPU marking the row's\n"
	"  -C, --cpu=LIST        perf's name for --cpus\n"
	"  -p, -t, --tid=PID     perf's names for --pid\n"
	"      --time=FROM,TO    perf's --from/--to (seconds, either may be empty)\n"
	"      --no-pager        never page\n"
	"Filters (the model still reads every event):\n"
	"  --workload            only the tasks of the command schedlint record ran (the\n"
	"                        default when the trace names one)\n"
	"  --system              every task, even when the trace names a workload\n"
	"  --cpus=LIST           only rows of these CPUs, e.g. 0-3,8\n"
	"  --pid=PID[,PID...]    only these tasks (a wakeup or migration row: when the\n"
	"                        task on the CPU or the one woken or moved is one)\n"
	"  --comm=COMM           only tasks with this name (repeatable)\n"
	"  --from=T, --to=T      only switches in this window (runs clipped to it):\n"
	"                        trace seconds (913.5) or +DURATION from the first event\n"
	"  --reader=R            trace.dat reader: flyrecord (default) or libtracecmd\n"
	"  --buffer=NAME         trace.dat: this instance buffer (trace-cmd -B NAME)\n";

enum {
	OPT_STATE = SL_OPT__END + 1,
	OPT_TIME,
	OPT_NO_PAGER,
};

/* perf's thread_runtime: what a task (or a CPU's idle task) did last, and its totals */
struct th_runtime {
	uint64_t last_time;	/* its last switch-out, 0 none (yet, or filtered) */
	uint64_t ready_to_run;	/* its first wakeup since then, 0 none */
	uint8_t last_wait;	/* how it left the CPU then: WAIT_* */
	bool dead;		/* left the CPU exiting (X, Z) */

	/* the rows of it that passed the filters (counted for -s, -S only) */
	uint64_t n;
	uint64_t total_run, min_run, max_run;
	double mean, m2;	/* of its runs, Welford's, as perf's update_stats() */
	uint64_t total_wait[3];	/* by WAIT_* */
	uint64_t total_delay;
	uint64_t migrations;
};

enum { WAIT_SLEEP, WAIT_IOWAIT, WAIT_PREEMPT };

struct th_cpu {
	uint64_t last_switch;	/* its previous sched_switch, 0 none (or lost events since) */
	struct th_runtime idle;
	int32_t last_prev;	/* -I: the last task that left it (its idle time follows), 0 none */
	uint64_t lost_events;	/* the model's count of its lost events at its last gap */
	bool seen;
};

/*
 * The spool: rows are formatted into buf, which goes to the temporary
 * file fd when full; a listing that fits in buf never touches the file.
 */
#define SPOOL_SIZE (1 << 20)
#define ROW_MAX 512		/* a row's length, its -V columns aside */

struct th_spool {
	FILE *file;		/* the temporary file (its fd written directly) */
	char *buf;		/* SPOOL_SIZE bytes */
	size_t len;		/* bytes in buf */
	bool spilled;		/* something went to the file */
	off_t size;		/* bytes in the file */
	int err;		/* the first write error on the file, 0 none */
};

struct timehist {
	struct th_spool out;
	bool wakeups, migrations, idle_only, summary, rows, state, next, visual;
	int ncpus;		/* columns of -V */
	int use_waking;		/* 1 sched_waking, 0 sched_wakeup, -1 undecided */
	uint64_t first_ts, last_ts;	/* the first and last switch in the window, any CPU and
					 * task, -I or not: perf's hist_time (-s, -S) */
	uint64_t rows_printed;
	/*
	 * The names the trace gives apart from the tracepoints (perf.data's
	 * PERF_RECORD_COMM), by pid, the latest: perf's name of a task in
	 * a wakeup or migration row.  Open addressing, pid 0 empty.
	 */
	int32_t *comm_pid;
	uint32_t *comm_id;
	uint32_t comm_cap, comm_n;
};

static struct timehist timehist_state;

#define COMM_WIDTH 30

/* Write buf's bytes to the file; a write error is kept for copy_out(). */
static void spool_flush(struct th_spool *sp)
{
	const char *p = sp->buf;
	size_t left = sp->len;

	sp->len = 0;
	if (!left)
		return;
	sp->spilled = true;
	while (left && !sp->err) {
		ssize_t n = write(fileno(sp->file), p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			sp->err = n < 0 ? errno : EIO;
			break;
		}
		p += n;
		left -= (size_t)n;
		sp->size += n;
	}
}

/* Room for a row of len bytes at most: where it goes. */
static char *spool_row(struct th_spool *sp, size_t len)
{
	if (SPOOL_SIZE - sp->len < len)
		spool_flush(sp);
	return sp->buf + sp->len;
}

/* The row that begins at buf + len and ends at p is written. */
static void spool_done(struct th_spool *sp, const char *p)
{
	sp->len = (size_t)(p - sp->buf);
}

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static int decimal_digits(uint64_t v)
{
	int n = 1;

	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return v >= 1000 ? n + 3 : v >= 100 ? n + 2 : v >= 10 ? n + 1 : n;
}

/*
 * v in decimal, right-aligned in width (at most 8) with blanks: printf's
 * %*PRIu64.  Writes 8 bytes at least (room a row has).
 */
static char *put_u64(char *p, uint64_t v, int width)
{
	int n = decimal_digits(v);
	char *end;

	memcpy(p, "        ", 8);
	if (width > n)
		p += width - n;
	end = p + n;
	while (v >= 100) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(end - 2, digit_pairs + 2 * v, 2);
	else
		end[-1] = (char)('0' + v);
	return p + n;
}

/* v with leading zeros in digits: printf's %0*u of v < 10^digits */
static char *put_digits(char *p, uint32_t v, int digits)
{
	char *q = p + digits;

	while (q - p >= 2) {
		q -= 2;
		memcpy(q, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (q > p)
		*p = (char)('0' + v % 10);
	return p + digits;
}

/* v as printf's %d */
static char *put_int(char *p, int32_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, -(int64_t)v, 0);
	}
	return put_u64(p, (uint64_t)v, 0);
}

static char *put_str(char *p, const char *s, size_t len)
{
	memcpy(p, s, len);
	return p + len;
}

/* ns as perf's msec.usec, rounded to the microsecond as every time we print */
static char *put_ms(char *p, uint64_t ns, int width)
{
	uint64_t us = ns / 1000 + (ns % 1000 >= 500);

	if (width == 6 && us < 1000000) {
		/* a row's duration, under a second: "%6u.%03u" in 10 bytes */
		uint32_t ms = (uint32_t)us / 1000, frac = (uint32_t)us % 1000;

		memcpy(p, "     0.", 7);
		if (ms >= 100)
			memcpy(p + 3, digit_pairs + 2 * (ms / 10), 2);
		else if (ms >= 10)
			p[4] = (char)('0' + ms / 10);
		p[5] = (char)('0' + ms % 10);
		p[7] = (char)('0' + frac / 100);
		memcpy(p + 8, digit_pairs + 2 * (frac % 100), 2);
		return p + 10;
	}
	p = put_u64(p, us / 1000, width);
	*p++ = '.';
	return put_digits(p, (uint32_t)(us % 1000), 3);
}

/* the time as fmt_ts() prints it, right-aligned in 15 */
static char *put_time(char *p, uint64_t ts)
{
	uint64_t us = ts / 1000 + (ts % 1000 >= 500);

	p = put_u64(p, us / 1000000, 15 - 7);
	*p++ = '.';
	return put_digits(p, (uint32_t)(us % 1000000), 6);
}

/* a row's start: "%15s [%04d] " of its time and CPU */
static char *put_time_cpu(char *p, uint64_t ts, int cpu)
{
	p = put_time(p, ts);
	if (cpu < 0 || cpu > 9999)
		return p + sprintf(p, " [%04d] ", cpu);
	*p++ = ' ';
	*p++ = '[';
	p = put_digits(p, (uint32_t)cpu, 4);
	*p++ = ']';
	*p++ = ' ';
	return p;
}

#define NAME_MAX_LEN 63		/* a task's name, as it was cut in a char[64] */

/*
 * "comm[pid]" in at most NAME_MAX_LEN bytes: a longer comm is cut, its
 * "[pid]" kept whole (a kernel's comm has 15 bytes: only a text trace's
 * can be longer)
 */
static inline __attribute__((always_inline)) char *put_comm_pid(char *p, const char *s,
								int32_t pid)
{
	size_t len = strlen(s);
	char tail[16], *t = tail;

	if (__builtin_expect(len <= NAME_MAX_LEN - 13, 1)) {
		/* room for any "[pid]" (13 bytes at most) */
		p = put_str(p, s, len);
		*p++ = '[';
		p = put_int(p, pid);
		*p++ = ']';
		return p;
	}
	*t++ = '[';
	t = put_int(t, pid);
	*t++ = ']';
	if (len > NAME_MAX_LEN - (size_t)(t - tail))
		len = NAME_MAX_LEN - (size_t)(t - tail);
	p = put_str(p, s, len);
	return put_str(p, tail, (size_t)(t - tail));
}

/* "comm[pid]", the idle task "<idle>" as perf names it; at most NAME_MAX_LEN bytes */
static inline char *put_task_name(char *p, const struct sl_model *m, int32_t pid, uint32_t comm)
{
	if (pid <= 0)
		return put_str(p, "<idle>", 6);
	/* a task that did nothing the trace shows yet: perf's name for it */
	if (!comm) {
		*p++ = ':';
		return put_int(p, pid);
	}
	return put_comm_pid(p, sl_str(m->strtab, comm), pid);
}

/*
 * -n's "  next: comm[pid]": perf's, the sched_switch's next_comm and
 * next_pid as they are (the idle task "swapper/0[0]")
 */
static char *put_next(char *p, const struct sl_model *m, const struct sl_event *ev)
{
	p = put_str(p, "  next: ", 8);
	return put_comm_pid(p, ev->sw.next_comm ? sl_str(m->strtab, ev->sw.next_comm) : "",
			    ev->sw.next_pid);
}

/* " %-30s " of the task's name */
static char *put_name_column(char *p, const struct sl_model *m, int32_t pid, uint32_t comm)
{
	char *start;

	*p++ = ' ';
	start = p;
	memset(p, ' ', COMM_WIDTH);
	p = put_task_name(p, m, pid, comm);
	if (p - start < COMM_WIDTH)
		p = start + COMM_WIDTH;
	*p++ = ' ';
	return p;
}

/* put_name_column() of a name not interned (sl_model_saved_comm()'s) */
static char *put_saved_name_column(char *p, const char *comm, int32_t pid)
{
	char *start;

	*p++ = ' ';
	start = p;
	memset(p, ' ', COMM_WIDTH);
	p = put_comm_pid(p, comm, pid);
	if (p - start < COMM_WIDTH)
		p = start + COMM_WIDTH;
	*p++ = ' ';
	return p;
}

/* the CPU columns of -V; the number of them is fixed at the first row */
static int visual_cpus(struct timehist *th, const struct sl_model *m)
{
	if (th->visual && !th->ncpus)
		th->ncpus = MAX(MAX(m->info ? m->info->ncpus : 0, m->nr_cpus), 1);
	return th->visual ? th->ncpus : 0;
}

static char *put_visual(struct timehist *th, char *p, int cpu, char c)
{
	if (!th->visual)
		return p;
	*p++ = ' ';
	memset(p, ' ', (size_t)th->ncpus);
	if (cpu >= 0 && cpu < th->ncpus)
		p[cpu] = c;
	p += th->ncpus;
	*p++ = ' ';
	return p;
}

/* Room for a row, its -V columns counted. */
static char *begin_row(struct timehist *th, const struct sl_model *m)
{
	return spool_row(&th->out, ROW_MAX + (size_t)visual_cpus(th, m));
}

/* the end of a row: no trailing blanks */
static void end_row(struct timehist *th, char *p)
{
	*p++ = '\n';
	spool_done(&th->out, p);
}

/* the summary's: put_ms() to f */
static void fput_ms(FILE *f, uint64_t ns, int width)
{
	char buf[64];

	fwrite(buf, 1, (size_t)(put_ms(buf, ns, width) - buf), f);
}

/* the summary's: the task's name as a string in buf */
static const char *task_name(char buf[NAME_MAX_LEN + 1], const struct sl_model *m, int32_t pid,
			     uint32_t comm)
{
	*put_task_name(buf, m, pid, comm) = '\0';
	return buf;
}

static bool task_passes(const struct sl_model *m, int32_t pid)
{
	const struct sl_task *t;

	if (sl_filter_task_none(m->cfg))
		return true;
	t = pid > 0 ? sl_model_task(m, pid) : NULL;
	return t && sl_filter_task_list(m->cfg, m->strtab, t);
}

static struct th_runtime *runtime_of(struct sl_model *m, struct sl_analyzer *a, int32_t pid)
{
	struct sl_task *t = pid > 0 ? sl_model_task(m, pid) : NULL;

	return t ? sl_task_priv(m, a, t) : NULL;
}

static void stats_add(struct th_runtime *r, uint64_t run)
{
	double delta;

	r->n++;
	delta = (double)run - r->mean;
	r->mean += delta / (double)r->n;
	r->m2 += delta * ((double)run - r->mean);
	if (r->n == 1 || run < r->min_run)
		r->min_run = run;
	if (run > r->max_run)
		r->max_run = run;
	r->total_run += run;
}

static uint8_t wait_kind(const struct sl_event *ev)
{
	if (ev->sw.prev_class == SL_PREV_RUNNABLE || ev->sw.prev_class == SL_PREV_PREEMPTED)
		return WAIT_PREEMPT;
	return ev->sw.prev_letter == 'D' ? WAIT_IOWAIT : WAIT_SLEEP;
}

/* "  %5s" of the state the task left the CPU in */
static char *put_state(char *p, int32_t pid, const struct sl_event *ev)
{
	char letter = ev->sw.prev_letter ? ev->sw.prev_letter : '?';

	if (pid == 0)
		return put_str(p, "      I", 7);
	if (ev->sw.prev_class == SL_PREV_PREEMPTED)
		return put_str(p, "     R+", 7);
	p = put_str(p, "      ", 6);
	*p++ = letter;
	return p;
}

/*
 * timehist_switch - perf's timehist_sched_change_event(): the row of the
 * task leaving the CPU
 */
static void timehist_switch(struct timehist *th, struct sl_analyzer *a, struct sl_model *m,
			    const struct sl_event *ev)
{
	const struct sl_config *cfg = m->cfg;
	struct th_cpu *c = sl_cpu_priv(m, a, ev->cpu);
	int32_t pid = ev->sw.prev_pid;
	struct th_runtime *r = pid == 0 ? &c->idle : runtime_of(m, a, pid);
	uint64_t t = ev->ts, tprev = c->last_switch;
	uint64_t run = 0, delay = 0, wait = 0;
	bool show, in_window = true;

	c->seen = true;
	c->last_switch = ev->ts;
	if (!r)
		return;
	if (__builtin_expect(cfg->to_set, 0)) {
		/*
		 * --to, as perf: the run in progress at --to ends there (its
		 * row at --to), the CPU's later switches are past it; a run
		 * whose switch-in the trace does not show may not have been in
		 * the window: no row
		 */
		if (!tprev || tprev > cfg->to_ns)
			in_window = false;
		else if (t > cfg->to_ns)
			t = cfg->to_ns;
	}
	if (tprev) {
		/*
		 * The wait and the sch delay end at the switch-in, whatever
		 * the window; a run that began before --from is counted from
		 * it (perf moves the switch-in there for all three: its wait
		 * then counts time the task ran)
		 */
		if (r->ready_to_run && r->ready_to_run <= tprev)
			delay = tprev - r->ready_to_run;
		if (r->last_time && r->last_time <= tprev)
			wait = tprev - r->last_time;
		if (cfg->from_set && tprev < cfg->from_ns)
			tprev = cfg->from_ns;
		run = sl_dur(tprev, t);
	}
	show = in_window && sl_filter_time(cfg, t) && sl_filter_cpu(cfg, ev->cpu) &&
	       (pid == 0 ? sl_filter_task_none(cfg) : task_passes(m, pid)) &&
	       (!th->idle_only || pid == 0 || ev->sw.next_pid == 0);
	/* the figures only the summary prints */
	if (th->summary && sl_filter_time(cfg, t)) {
		/* perf's hist_time: every switch in the window, whatever the other filters */
		if (!th->first_ts)
			th->first_ts = t;
		th->last_ts = t;
	}
	if (th->summary && show) {
		if (th->idle_only) {
			/*
			 * -I, as perf: a task's figures are the idle time that
			 * followed it on its CPU (the idle task's next run there)
			 */
			struct th_runtime *before = pid == 0 && c->last_prev ?
						    runtime_of(m, a, c->last_prev) : NULL;

			if (pid == 0) {
				stats_add(r, run);
				if (before && tprev)
					stats_add(before, run);
				c->last_prev = 0;
			}
		} else {
			stats_add(r, run);
			r->total_delay += delay;
			r->total_wait[r->last_wait] += wait;
		}
	}
	if (pid > 0)
		c->last_prev = pid;
	if (show && th->rows) {
		char *p = begin_row(th, m);

		p = put_time_cpu(p, t, ev->cpu);
		p = put_visual(th, p, ev->cpu, pid == 0 ? 'i' : 's');
		p = put_name_column(p, m, pid, ev->sw.prev_comm);
		p = put_ms(p, wait, 6);
		*p++ = ' ';
		p = put_ms(p, delay, 6);
		*p++ = ' ';
		p = put_ms(p, run, 6);
		if (th->state)
			p = put_state(p, pid, ev);
		if (th->next)
			p = put_next(p, m, ev);
		end_row(th, p);
		th->rows_printed++;
	}
	r->last_time = ev->ts;
	r->last_wait = wait_kind(ev);
	r->ready_to_run = 0;
	if (ev->sw.prev_class == SL_PREV_DEAD)
		r->dead = true;
}

static uint32_t comm_slot(const struct timehist *th, int32_t pid)
{
	uint32_t i = ((uint32_t)pid * 2654435761u) & (th->comm_cap - 1);

	while (th->comm_pid[i] && th->comm_pid[i] != pid)
		i = (i + 1) & (th->comm_cap - 1);
	return i;
}

/* the name pid's last PERF_RECORD_COMM gave, 0 none */
static uint32_t comm_of(const struct timehist *th, int32_t pid)
{
	uint32_t i;

	if (!th->comm_n || pid <= 0)
		return 0;
	i = comm_slot(th, pid);
	return th->comm_pid[i] ? th->comm_id[i] : 0;
}

static void timehist_comm(struct timehist *th, const struct sl_event *ev)
{
	uint32_t i;

	if (ev->comm.pid <= 0 || !ev->comm.comm)
		return;
	if (2 * (th->comm_n + 1) > th->comm_cap) {
		int32_t *old_pid = th->comm_pid;
		uint32_t *old_id = th->comm_id, old_cap = th->comm_cap;

		th->comm_cap = old_cap ? 2 * old_cap : 1024;
		th->comm_pid = xcalloc(th->comm_cap, sizeof(*th->comm_pid));
		th->comm_id = xcalloc(th->comm_cap, sizeof(*th->comm_id));
		for (uint32_t j = 0; j < old_cap; j++) {
			if (old_pid[j]) {
				i = comm_slot(th, old_pid[j]);
				th->comm_pid[i] = old_pid[j];
				th->comm_id[i] = old_id[j];
			}
		}
		free(old_pid);
		free(old_id);
	}
	i = comm_slot(th, ev->comm.pid);
	if (!th->comm_pid[i]) {
		th->comm_pid[i] = ev->comm.pid;
		th->comm_n++;
	}
	th->comm_id[i] = ev->comm.comm;
}

/* the start of perf's wakeup and migration rows: blanks where the durations go */
static char *put_event_row(struct timehist *th, struct sl_model *m, const struct sl_event *ev,
			   char mark)
{
	const struct sl_task *t = ev->pid > 0 ? sl_model_task(m, ev->pid) : NULL;
	char *p = begin_row(th, m);

	p = put_time_cpu(p, ev->ts, ev->cpu);
	p = put_visual(th, p, ev->cpu, mark);
	if (ev->pid == 0) {
		/* an idle CPU's: perf's name for the thread of pid 0 here */
		*p++ = ' ';
		memcpy(p, "swapper                       ", COMM_WIDTH);
		p += COMM_WIDTH;
		*p++ = ' ';
	} else {
		/*
		 * perf's name: its last PERF_RECORD_COMM's, else the last
		 * switch's; a task no event named yet: a trace.dat's saved
		 * cmdlines' name, as trace-cmd report names it (":pid" none)
		 */
		uint32_t comm = comm_of(th, ev->pid);
		const char *saved;

		if (!comm && t)
			comm = t->comm;
		if (!comm && (saved = sl_model_saved_comm(m, ev->pid)))
			p = put_saved_name_column(p, saved, ev->pid);
		else
			p = put_name_column(p, m, ev->pid, comm);
	}
	/* " %9s  %9s  %9s  " of nothing, after the name column's blank */
	memset(p, ' ', 34);
	return p + 34;
}

/* timehist_wakeup - perf's timehist_sched_wakeup_event(): the wakee's ready_to_run */
static void timehist_wakeup(struct timehist *th, struct sl_analyzer *a, struct sl_model *m,
			    const struct sl_event *ev)
{
	struct th_runtime *r = runtime_of(m, a, ev->wake.pid);
	char *p;

	if (!r)
		return;
	if (!r->ready_to_run)
		r->ready_to_run = ev->ts;
	if (!th->wakeups || !th->rows || th->idle_only || !sl_filter_time(m->cfg, ev->ts) ||
	    !sl_filter_cpu(m->cfg, ev->cpu) ||
	    (!task_passes(m, ev->pid) && !task_passes(m, ev->wake.pid)))
		return;
	p = put_event_row(th, m, ev, ' ');
	p = put_str(p, "awakened: ", 10);
	p = put_task_name(p, m, ev->wake.pid, ev->wake.comm);
	end_row(th, p);
}

static void timehist_migrate(struct timehist *th, struct sl_analyzer *a, struct sl_model *m,
			     const struct sl_event *ev)
{
	struct th_runtime *r = runtime_of(m, a, ev->migrate.pid);
	bool show = sl_filter_time(m->cfg, ev->ts) && sl_filter_cpu(m->cfg, ev->cpu) &&
		    (task_passes(m, ev->pid) || task_passes(m, ev->migrate.pid));
	char *p;

	if (r && show && th->summary)
		r->migrations++;
	if (!show || !th->migrations || !th->rows || th->idle_only)
		return;
	p = put_event_row(th, m, ev, 'm');
	p = put_str(p, "migrated: ", 10);
	p = put_task_name(p, m, ev->migrate.pid, ev->migrate.comm);
	p = put_str(p, " cpu ", 5);
	p = put_int(p, ev->migrate.orig_cpu);
	p = put_str(p, " => ", 4);
	p = put_int(p, ev->migrate.dest_cpu);
	end_row(th, p);
}

static void timehist_event(struct sl_analyzer *a, struct sl_model *m, const struct sl_event *ev)
{
	struct timehist *th = &timehist_state;

	switch (ev->type) {
	case SL_EV_SWITCH:
		timehist_switch(th, a, m, ev);
		break;
	case SL_EV_WAKING:
	case SL_EV_WAKEUP:
		/* perf prefers sched_waking when the trace has it */
		if (th->use_waking < 0)
			th->use_waking = m->info && m->info->has_waking == SL_YES ? 1 :
					 m->info && m->info->has_waking == SL_NO ? 0 :
					 ev->type == SL_EV_WAKING;
		if ((ev->type == SL_EV_WAKING) != (th->use_waking == 1))
			break;
		/* fall through */
	case SL_EV_WAKEUP_NEW:
		timehist_wakeup(th, a, m, ev);
		break;
	case SL_EV_MIGRATE:
		timehist_migrate(th, a, m, ev);
		break;
	case SL_EV_COMM:
		timehist_comm(th, ev);
		break;
	default:
		break;
	}
}

/*
 * timehist_lost - cpu's buffer lost events: perf's "lost N events" line;
 * its next switch has no previous one to measure from
 */
static void timehist_lost(struct sl_analyzer *a, struct sl_model *m, int cpu,
			  uint64_t gap_start, uint64_t ts)
{
	struct timehist *th = &timehist_state;
	struct th_cpu *c = sl_cpu_priv(m, a, cpu);
	uint64_t lost = m->cpus[cpu].lost_events - c->lost_events;
	char *p;

	(void)gap_start;
	c->lost_events = m->cpus[cpu].lost_events;
	c->last_switch = 0;
	if (!th->rows || !sl_filter_cpu(m->cfg, cpu) || !sl_filter_time(m->cfg, ts))
		return;
	p = spool_row(&th->out, ROW_MAX);
	p = put_time(p, ts);
	p = put_str(p, " lost ", 6);
	p = put_u64(p, lost, 0);
	p = put_str(p, " events on cpu ", 15);
	p = put_int(p, cpu);
	end_row(th, p);
}

static const struct sl_analyzer_ops timehist_ops = {
	.name = "timehist",
	.task_priv_size = sizeof(struct th_runtime),
	.cpu_priv_size = sizeof(struct th_cpu),
	.on_event = timehist_event,
	.on_cpu_unknown = timehist_lost,
	.event_types = SL_EV_BIT(SL_EV_SWITCH) | SL_EV_BIT(SL_EV_WAKING) | SL_EV_BIT(SL_EV_WAKEUP) |
		       SL_EV_BIT(SL_EV_WAKEUP_NEW) | SL_EV_BIT(SL_EV_MIGRATE) | SL_EV_BIT(SL_EV_COMM),
};

static const struct sl_analyzer_ops *const timehist_analyzers[] = { &timehist_ops };

static void print_header(const struct timehist *th, FILE *f)
{
	static const char dots[] = "------------------------------------------------------------";
	int nc = th->ncpus;

	fprintf(f, "%15s %6s ", "time", "cpu");
	if (th->visual) {
		fputc(' ', f);
		for (int i = 0; i < nc; i++)
			fputc("0123456789abcdef"[i % 16], f);
		fputc(' ', f);
	}
	fprintf(f, " %-*s  %9s  %9s  %9s", COMM_WIDTH, "task name", "wait time", "sch delay",
		"run time");
	if (th->state)
		fprintf(f, "  %s", "state");
	fprintf(f, "\n%15s %-6s ", "", "");
	if (th->visual)
		fprintf(f, " %*s ", nc, "");
	fprintf(f, " %-*s  %9s  %9s  %9s\n", COMM_WIDTH, "[tid]", "(msec)", "(msec)", "(msec)");
	fprintf(f, "%.15s %.6s ", dots, dots);
	if (th->visual)
		fprintf(f, " %.*s ", nc, dots);
	fprintf(f, " %.*s  %.9s  %.9s  %.9s", COMM_WIDTH, dots, dots, dots, dots);
	if (th->state)
		fprintf(f, "  %.5s", dots);
	fputc('\n', f);
}

/* perf's stddev_stats() / rel_stddev_stats(): the standard error of the mean, % of it */
static double rel_stderr(const struct th_runtime *r)
{
	double var;

	if (r->n < 2 || r->mean == 0)
		return 0;
	var = r->m2 / (double)(r->n - 1);
	return 100.0 * sqrt(var / (double)r->n) / r->mean;
}

static int cmp_task_pid(const void *a, const void *b)
{
	const struct sl_task *x = *(struct sl_task *const *)a, *y = *(struct sl_task *const *)b;

	return x->pid < y->pid ? -1 : x->pid > y->pid ? 1 : x->serial < y->serial ? -1 : 1;
}

static void print_summary_row(const struct timehist *th, FILE *f, const char *name,
			      const struct th_runtime *r)
{
	fprintf(f, "%*s  %9" PRIu64 " ", COMM_WIDTH, name, r->n);
	fput_ms(f, r->total_run, 8);
	if (th->state && !th->idle_only) {
		fputc(' ', f);
		fput_ms(f, r->total_wait[WAIT_SLEEP], 6);
		fputs("  ", f);
		fput_ms(f, r->total_wait[WAIT_IOWAIT], 6);
		fputs("  ", f);
		fput_ms(f, r->total_wait[WAIT_PREEMPT], 6);
		fputs("  ", f);
		fput_ms(f, r->total_delay, 6);
	} else {
		fputc(' ', f);
		fput_ms(f, r->min_run, 6);
		fputs("  ", f);
		fput_ms(f, (uint64_t)(r->mean + 0.5), 6);
		fputs("  ", f);
		fput_ms(f, r->max_run, 6);
		fprintf(f, "   %5.2f   %5" PRIu64, rel_stderr(r), r->migrations);
	}
	fputc('\n', f);
}

/* perf's timehist_print_summary(), without its parent column (see the man page) */
static void print_summary(const struct timehist *th, struct sl_analyzer *a, struct sl_model *m,
			  FILE *f)
{
	static const char dots[] = "---------------------------------------------------------"
				   "------------------------------------------------------------";
	struct sl_task **tasks = xmalloc((m->nr_tasks + 1) * sizeof(*tasks));
	uint64_t nr_tasks = 0, switches = 0, run = 0;
	uint32_t n = 0;

	for (uint32_t i = 0; i < m->nr_tasks; i++)
		if (m->tasks[i] && ((struct th_runtime *)sl_task_priv(m, a, m->tasks[i]))->n)
			tasks[n++] = m->tasks[i];
	qsort(tasks, n, sizeof(*tasks), cmp_task_pid);
	if (th->idle_only) {
		fprintf(f, "\nIdle-time summary\n");
		fprintf(f, "%*s  sched-out  ", COMM_WIDTH, "comm");
		fprintf(f, "  idle-time   min-idle    avg-idle    max-idle  stddev  migrations\n");
	} else {
		fprintf(f, "\n%s summary\n", th->state ? "Wait-time" : "Runtime");
		fprintf(f, "%*s   sched-in  ", COMM_WIDTH, "comm");
		if (th->state)
			fprintf(f, "   run-time      sleep      iowait     preempt       delay\n");
		else
			fprintf(f, "   run-time    min-run     avg-run     max-run  stddev  migrations\n");
	}
	fprintf(f, "%*s    (count)  ", COMM_WIDTH, "");
	fprintf(f, "     (msec)     (msec)      (msec)      (msec)       %s\n",
		th->state && !th->idle_only ? "(msec)" : "%");
	fprintf(f, "%.109s\n", dots);
	for (int dead = 0; dead <= 1; dead++) {
		uint64_t before = nr_tasks;

		if (dead)
			fputs("\nTerminated tasks:\n", f);
		for (uint32_t i = 0; i < n; i++) {
			const struct th_runtime *r = sl_task_priv(m, a, tasks[i]);
			char name[NAME_MAX_LEN + 1];

			if (r->dead != dead)
				continue;
			nr_tasks++;
			switches += r->n;
			run += r->total_run;
			print_summary_row(th, f, task_name(name, m, tasks[i]->pid,
							   tasks[i]->comm), r);
		}
		if (nr_tasks == before)
			fputs(dead ? "<no terminated tasks>\n" : "<no still running tasks>\n", f);
	}
	free(tasks);
	/* the idle task's share is known only when every task's rows are counted */
	if (sl_filter_task_none(m->cfg)) {
		uint64_t hist = sl_dur(th->first_ts, th->last_ts);

		fputs("\nIdle stats:\n", f);
		for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
			const struct th_cpu *c = sl_cpu_priv(m, a, cpu);

			if (!c->seen || !sl_filter_cpu(m->cfg, cpu))
				continue;
			switches += c->idle.n;
			if (!c->idle.n) {
				fprintf(f, "    CPU %2d idle entire time window\n", cpu);
				continue;
			}
			fprintf(f, "    CPU %2d idle for ", cpu);
			fput_ms(f, c->idle.total_run, 6);
			fprintf(f, "  msec  (%6.2f%%)\n",
				hist ? 100.0 * (double)c->idle.total_run / (double)hist : 0.0);
		}
	}
	fprintf(f, "\n    Total number of unique tasks: %" PRIu64 "\n"
		"Total number of context switches: %" PRIu64 "\n", nr_tasks, switches);
	fputs("           Total run time (msec): ", f);
	fput_ms(f, run, 2);
	fputs("\n    Total scheduling time (msec): ", f);
	fput_ms(f, sl_dur(th->first_ts, th->last_ts), 2);
	fprintf(f, "  (x %d)\n", th->ncpus);
}

/*
 * Copy the spool to stdout: by sendfile(), without a copy through our
 * memory, where stdout takes it (a pipe, a file); else, or to meet again
 * a write error it got, read back and written with stdio, which notes
 * the error for sl_output_end().  0, or -1 with a message.
 */
static int copy_out(struct th_spool *sp)
{
	int fd = fileno(sp->file);
	off_t off = 0;
	ssize_t n;

	if (!sp->spilled) {
		/* the whole listing is in buf */
		if (sp->len && fwrite(sp->buf, 1, sp->len, stdout) != sp->len)
			sl_output_failed(errno);	/* its errno, not a later EIO */
		return 0;
	}
	spool_flush(sp);
	if (sp->err) {
		error_msg("timehist: cannot read back the listing: %s", strerror(sp->err));
		return -1;
	}
	if (fflush(stdout)) {
		sl_output_failed(errno);	/* sl_output_end() reports it */
		return 0;
	}
	while (off < sp->size) {
		n = sendfile(STDOUT_FILENO, fd, &off, (size_t)(sp->size - off));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
	}
	if (off == sp->size)
		return 0;
	if (lseek(fd, off, SEEK_SET) < 0) {
		error_msg("timehist: cannot read back the listing: %s", strerror(errno));
		return -1;
	}
	while ((n = read(fd, sp->buf, SPOOL_SIZE)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_msg("timehist: cannot read back the listing: %s", strerror(errno));
			return -1;
		}
		if (fwrite(sp->buf, 1, (size_t)n, stdout) != (size_t)n) {
			sl_output_failed(errno);	/* its errno, not a later EIO */
			break;
		}
	}
	return 0;
}

/* --time=FROM,TO as perf takes it: seconds, either side may be empty */
static int time_option(struct sl_config *cfg, const char *arg)
{
	const char *comma = strchr(arg, ',');
	char from[64];
	size_t len = comma ? (size_t)(comma - arg) : strlen(arg);

	if (len >= sizeof(from)) {
		error_msg("timehist: --time: '%s' is not FROM,TO (trace seconds)", arg);
		return -1;
	}
	memcpy(from, arg, len);
	from[len] = '\0';
	if (*from && sl_config_option(cfg, SL_OPT_FROM, from, "timehist"))
		return -1;
	if (comma && comma[1] && sl_config_option(cfg, SL_OPT_TO, comma + 1, "timehist"))
		return -1;
	return 0;
}

int cmd_timehist(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "help",         no_argument,       NULL, 'h' },
		{ "wakeups",      no_argument,       NULL, 'w' },
		{ "migrations",   no_argument,       NULL, 'M' },
		{ "idle-hist",    no_argument,       NULL, 'I' },
		{ "summary",      no_argument,       NULL, 's' },
		{ "with-summary", no_argument,       NULL, 'S' },
		{ "next",         no_argument,       NULL, 'n' },
		{ "cpu-visual",   no_argument,       NULL, 'V' },
		{ "cpu",          required_argument, NULL, 'C' },
		{ "tid",          required_argument, NULL, 't' },
		{ "state",        no_argument,       NULL, OPT_STATE },
		{ "time",         required_argument, NULL, OPT_TIME },
		{ "no-pager",     no_argument,       NULL, OPT_NO_PAGER },
		{ "workload",     no_argument,       NULL, SL_OPT_WORKLOAD },
		{ "system",       no_argument,       NULL, SL_OPT_SYSTEM },
		{ "cpus",         required_argument, NULL, SL_OPT_CPUS },
		{ "pid",          required_argument, NULL, SL_OPT_PID },
		{ "comm",         required_argument, NULL, SL_OPT_COMM },
		{ "from",         required_argument, NULL, SL_OPT_FROM },
		{ "to",           required_argument, NULL, SL_OPT_TO },
		{ "reader",       required_argument, NULL, SL_OPT_READER },
		{ "buffer",       required_argument, NULL, SL_OPT_BUFFER },
		{ NULL, 0, NULL, 0 }
	};
	static char spool_buf[SPOOL_SIZE];
	struct timehist *th = &timehist_state;
	struct sl_config cfg;
	struct sl_analysis *an = NULL;
	struct sl_error err = { "" };
	const char *path = NULL, *i_path = NULL;
	int c, status = 0;
	bool summary_only = false;
	const char *adds_rows = NULL, *adds_column = NULL;	/* the last given */

	memset(th, 0, sizeof(*th));
	th->rows = true;
	th->use_waking = -1;
	sl_config_init(&cfg);
	optind = 1;
	while ((c = sl_getopt(argc, argv, "hi:wMIsSnVC:p:t:", long_opts)) != -1) {
		switch (c) {
		case 'i':
			i_path = optarg;
			break;
		case 'h':
			fputs(timehist_usage, stdout);
			sl_config_free(&cfg);
			return 0;
		case 'w':
			th->wakeups = true;
			adds_rows = "-w";
			break;
		case 'M':
			th->migrations = true;
			adds_rows = "-M";
			break;
		case 'I':
			th->idle_only = true;
			break;
		case 's':
			summary_only = true;
			break;
		case 'S':
			th->summary = true;
			break;
		case 'n':
			th->next = true;
			adds_column = "-n";
			break;
		case 'V':
			th->visual = true;
			adds_column = "-V";
			break;
		case OPT_STATE:
			th->state = true;
			break;
		case OPT_NO_PAGER:
			sl_no_pager = true;
			break;
		case OPT_TIME:
			if (time_option(&cfg, optarg))
				goto usage;
			break;
		case 'C':
			if (sl_config_option(&cfg, SL_OPT_CPUS, optarg, "timehist"))
				goto usage;
			break;
		case 'p':
		case 't':
			if (sl_config_option(&cfg, SL_OPT_PID, optarg, "timehist"))
				goto usage;
			break;
		default:
			if (c >= SL_OPT_BASE && c < SL_OPT__END) {
				if (sl_config_option(&cfg, c, optarg, "timehist"))
					goto usage;
				break;
			}
			goto usage;
		}
	}
	if (sl_trace_operand("timehist", argc, argv, i_path, &path))
		goto usage;
	/* what would not be printed is refused, not ignored */
	if (summary_only && th->summary) {
		error_msg("timehist: -s and -S exclude each other");
		goto usage;
	}
	/*
	 * -M is taken: perf counts the summary's migrations under -M only,
	 * so a perf user asks for them with it (we count them always)
	 */
	if (summary_only && (th->wakeups || adds_column)) {
		error_msg("timehist: %s adds %s; -s prints only the summary",
			  th->wakeups ? "-w" : adds_column,
			  th->wakeups ? "rows" : "a column to the rows");
		goto usage;
	}
	if (th->idle_only && adds_rows) {
		error_msg("timehist: %s adds rows; -I prints only the switches into and out of idle",
			  adds_rows);
		goto usage;
	}
	if (summary_only) {
		th->summary = true;
		th->rows = false;
	}

	th->out.file = tmpfile();
	if (!th->out.file) {
		error_msg("timehist: cannot make a temporary file: %s", strerror(errno));
		sl_config_free(&cfg);
		return 2;
	}
	th->out.buf = spool_buf;
	/* only our hooks: the analyzers' findings are not printed here */
	cfg.analyzers = timehist_analyzers;
	cfg.nr_analyzers = 1;
	cfg.no_latency_stats = true;	/* perf's sch delay is ours, not the model's latency */
	cfg.read_past_to = true;	/* each CPU's run in progress at --to ends at it */
	cfg.read_comm = true;		/* perf's names of the wakers: PERF_RECORD_COMM */
	cfg.max_findings = 0;		/* no analyzer: no finding lists to make room for */
	if (sl_analysis_run(path, &cfg, NULL, NULL, &an, &err) < 0) {
		error_msg("%s: %s", path, err.msg);
		fclose(th->out.file);
		sl_config_free(&cfg);
		free(th->comm_pid);
		free(th->comm_id);
		return 2;
	}
	if (!th->ncpus)
		th->ncpus = MAX(MAX(an->info.ncpus, an->model->nr_cpus), 1);
	sl_pager_start();
	sl_output_begin(stdout);
	if (th->rows) {
		print_header(th, stdout);
		if (copy_out(&th->out))
			status = 2;
	}
	if (th->summary && an->model->nr_analyzers > 0)
		print_summary(th, an->model->analyzers[0], an->model, stdout);
	if (sl_output_end(stdout) < 0)
		status = 2;
	fclose(th->out.file);
	sl_analysis_free(an);
	sl_config_free(&cfg);
	free(th->comm_pid);
	free(th->comm_id);
	return status;

usage:
	fputs("usage: schedlint timehist [options] [TRACE]   (--help for the options)\n", stderr);
	sl_config_free(&cfg);
	return 2;
}
