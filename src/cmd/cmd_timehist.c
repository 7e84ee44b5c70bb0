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
 * with the trace.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	"  -s, --summary         only the per-task summary (not with -w, -M, -n, -V, -S)\n"
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
	"                        trace seconds (913.5) or +DURATION from the trace start\n"
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

	/* the rows of it that passed the filters */
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

struct timehist {
	FILE *out;		/* the spool */
	bool wakeups, migrations, idle_only, summary, rows, state, next, visual;
	int ncpus;		/* columns of -V */
	int use_waking;		/* 1 sched_waking, 0 sched_wakeup, -1 undecided */
	uint64_t first_ts, last_ts;	/* of the switches in the window: perf's hist_time */
	uint64_t rows_printed;
};

static struct timehist timehist_state;

#define COMM_WIDTH 30

/* ns as perf's msec.usec, rounded to the microsecond as every time we print */
static void put_ms(FILE *f, uint64_t ns, int width)
{
	uint64_t us = ns / 1000 + (ns % 1000 >= 500);

	fprintf(f, "%*" PRIu64 ".%03" PRIu64, width, us / 1000, us % 1000);
}

static void put_time_cpu(FILE *f, uint64_t ts, int cpu)
{
	char buf[32];

	fprintf(f, "%15s [%04d] ", fmt_ts(buf, sizeof(buf), ts), cpu);
}

/* "comm[pid]", the idle task "<idle>" as perf names it */
static const char *task_name(char *buf, size_t len, const struct sl_model *m, int32_t pid,
			     uint32_t comm)
{
	if (pid <= 0)
		return "<idle>";
	/* a task that did nothing the trace shows yet: perf's name for it */
	if (!comm)
		snprintf(buf, len, ":%d", pid);
	else
		snprintf(buf, len, "%s[%d]", sl_str(m->strtab, comm), pid);
	return buf;
}

static void put_visual(struct timehist *th, const struct sl_model *m, FILE *f, int cpu, char c)
{
	if (!th->visual)
		return;
	/* the columns are fixed at the first row: the CPUs the input says it has */
	if (!th->ncpus)
		th->ncpus = MAX(MAX(m->info ? m->info->ncpus : 0, m->nr_cpus), 1);
	fputc(' ', f);
	for (int i = 0; i < th->ncpus; i++)
		fputc(i == cpu ? c : ' ', f);
	fputc(' ', f);
}

/* the end of a row: no trailing blanks */
static void end_row(FILE *f)
{
	fputc('\n', f);
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
	bool show;

	c->seen = true;
	c->last_switch = ev->ts;
	if (!r)
		return;
	if (tprev) {
		if (cfg->from_set && tprev < cfg->from_ns)
			tprev = cfg->from_ns;
		run = sl_dur(tprev, t);
		if (r->ready_to_run && r->ready_to_run <= tprev)
			delay = tprev - r->ready_to_run;
		if (r->last_time && r->last_time <= tprev)
			wait = tprev - r->last_time;
	}
	show = sl_filter_time(cfg, t) && sl_filter_cpu(cfg, ev->cpu) &&
	       (pid == 0 ? sl_filter_task_none(cfg) : task_passes(m, pid)) &&
	       (!th->idle_only || pid == 0 || ev->sw.next_pid == 0);
	if (show) {
		if (!th->first_ts)
			th->first_ts = t;
		th->last_ts = t;
	}
	if (show && th->idle_only) {
		/*
		 * -I, as perf: a task's figures are the idle time that followed
		 * it on its CPU (the idle task's next run there)
		 */
		struct th_runtime *before = pid == 0 && c->last_prev ?
					    runtime_of(m, a, c->last_prev) : NULL;

		if (pid == 0) {
			stats_add(r, run);
			if (before && tprev)
				stats_add(before, run);
			c->last_prev = 0;
		}
	} else if (show) {
		stats_add(r, run);
		r->total_delay += delay;
		r->total_wait[r->last_wait] += wait;
	}
	if (pid > 0)
		c->last_prev = pid;
	if (show && th->rows) {
		char name[64];
		FILE *f = th->out;

		put_time_cpu(f, t, ev->cpu);
		put_visual(th, m, f, ev->cpu, pid == 0 ? 'i' : 's');
		fprintf(f, " %-*s ", COMM_WIDTH, task_name(name, sizeof(name), m, pid, ev->sw.prev_comm));
		put_ms(f, wait, 6);
		fputc(' ', f);
		put_ms(f, delay, 6);
		fputc(' ', f);
		put_ms(f, run, 6);
		if (th->state)
			fprintf(f, "  %5s", pid == 0 ? "I" :
				ev->sw.prev_class == SL_PREV_PREEMPTED ? "R+" :
				(char[]){ ev->sw.prev_letter ? ev->sw.prev_letter : '?', 0 });
		if (th->next)
			fprintf(f, "   next: %s", task_name(name, sizeof(name), m, ev->sw.next_pid,
							   ev->sw.next_comm));
		end_row(f);
		th->rows_printed++;
	}
	r->last_time = ev->ts;
	r->last_wait = wait_kind(ev);
	r->ready_to_run = 0;
	if (ev->sw.prev_class == SL_PREV_DEAD)
		r->dead = true;
}

/* the spacer of perf's wakeup and migration rows, where the durations go */
static void put_event_row(struct timehist *th, struct sl_model *m, const struct sl_event *ev,
			  char mark)
{
	const struct sl_task *t = ev->pid > 0 ? sl_model_task(m, ev->pid) : NULL;
	char name[64];

	put_time_cpu(th->out, ev->ts, ev->cpu);
	put_visual(th, m, th->out, ev->cpu, mark);
	fprintf(th->out, " %-*s  %9s  %9s  %9s  ", COMM_WIDTH,
		task_name(name, sizeof(name), m, ev->pid, t ? t->comm : 0), "", "", "");
}

/* timehist_wakeup - perf's timehist_sched_wakeup_event(): the wakee's ready_to_run */
static void timehist_wakeup(struct timehist *th, struct sl_analyzer *a, struct sl_model *m,
			    const struct sl_event *ev)
{
	struct th_runtime *r = runtime_of(m, a, ev->wake.pid);
	char name[64];

	if (!r)
		return;
	if (!r->ready_to_run)
		r->ready_to_run = ev->ts;
	if (!th->wakeups || !th->rows || th->idle_only || !sl_filter_time(m->cfg, ev->ts) ||
	    !sl_filter_cpu(m->cfg, ev->cpu) ||
	    (!task_passes(m, ev->pid) && !task_passes(m, ev->wake.pid)))
		return;
	put_event_row(th, m, ev, ' ');
	fprintf(th->out, "awakened: %s",
		task_name(name, sizeof(name), m, ev->wake.pid, ev->wake.comm));
	end_row(th->out);
}

static void timehist_migrate(struct timehist *th, struct sl_analyzer *a, struct sl_model *m,
			     const struct sl_event *ev)
{
	struct th_runtime *r = runtime_of(m, a, ev->migrate.pid);
	bool show = sl_filter_time(m->cfg, ev->ts) && sl_filter_cpu(m->cfg, ev->cpu) &&
		    (task_passes(m, ev->pid) || task_passes(m, ev->migrate.pid));
	char name[64];

	if (r && show)
		r->migrations++;
	if (!show || !th->migrations || !th->rows || th->idle_only)
		return;
	put_event_row(th, m, ev, 'm');
	fprintf(th->out, "migrated: %s cpu %d => %d",
		task_name(name, sizeof(name), m, ev->migrate.pid, ev->migrate.comm),
		ev->migrate.orig_cpu, ev->migrate.dest_cpu);
	end_row(th->out);
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
	char buf[32];

	(void)gap_start;
	c->lost_events = m->cpus[cpu].lost_events;
	c->last_switch = 0;
	if (th->rows && sl_filter_cpu(m->cfg, cpu) && sl_filter_time(m->cfg, ts))
		fprintf(th->out, "%15s lost %" PRIu64 " events on cpu %d\n",
			fmt_ts(buf, sizeof(buf), ts), lost, cpu);
}

static const struct sl_analyzer_ops timehist_ops = {
	.name = "timehist",
	.task_priv_size = sizeof(struct th_runtime),
	.cpu_priv_size = sizeof(struct th_cpu),
	.on_event = timehist_event,
	.on_cpu_unknown = timehist_lost,
	.event_types = SL_EV_BIT(SL_EV_SWITCH) | SL_EV_BIT(SL_EV_WAKING) | SL_EV_BIT(SL_EV_WAKEUP) |
		       SL_EV_BIT(SL_EV_WAKEUP_NEW) | SL_EV_BIT(SL_EV_MIGRATE),
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
	put_ms(f, r->total_run, 8);
	if (th->state && !th->idle_only) {
		fputc(' ', f);
		put_ms(f, r->total_wait[WAIT_SLEEP], 6);
		fputs("  ", f);
		put_ms(f, r->total_wait[WAIT_IOWAIT], 6);
		fputs("  ", f);
		put_ms(f, r->total_wait[WAIT_PREEMPT], 6);
		fputs("  ", f);
		put_ms(f, r->total_delay, 6);
	} else {
		fputc(' ', f);
		put_ms(f, r->min_run, 6);
		fputs("  ", f);
		put_ms(f, (uint64_t)(r->mean + 0.5), 6);
		fputs("  ", f);
		put_ms(f, r->max_run, 6);
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
			char name[64];

			if (r->dead != dead)
				continue;
			nr_tasks++;
			switches += r->n;
			run += r->total_run;
			print_summary_row(th, f, task_name(name, sizeof(name), m, tasks[i]->pid,
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
			put_ms(f, c->idle.total_run, 6);
			fprintf(f, "  msec  (%6.2f%%)\n",
				hist ? 100.0 * (double)c->idle.total_run / (double)hist : 0.0);
		}
	}
	fprintf(f, "\n    Total number of unique tasks: %" PRIu64 "\n"
		"Total number of context switches: %" PRIu64 "\n", nr_tasks, switches);
	fputs("           Total run time (msec): ", f);
	put_ms(f, run, 2);
	fputs("\n    Total scheduling time (msec): ", f);
	put_ms(f, sl_dur(th->first_ts, th->last_ts), 2);
	fprintf(f, "  (x %d)\n", th->ncpus);
}

/* Copy the spool to stdout.  0, or -1 with a message. */
static int copy_out(FILE *spool)
{
	char buf[1 << 16];
	size_t n;

	if (fflush(spool) || fseek(spool, 0, SEEK_SET)) {
		error_msg("timehist: cannot read back the listing: %s", strerror(errno));
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), spool)) > 0)
		if (fwrite(buf, 1, n, stdout) != n) {
			sl_output_failed(errno);	/* its errno, not a later EIO */
			break;
		}
	return ferror(spool) ? -1 : 0;
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
	static char spool_buf[1 << 20];	/* glibc takes no size without a buffer */
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
	if (summary_only && (adds_rows || adds_column)) {
		error_msg("timehist: %s adds %s; -s prints only the summary",
			  adds_rows ? adds_rows : adds_column,
			  adds_rows ? "rows" : "a column to the rows");
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

	th->out = tmpfile();
	if (!th->out) {
		error_msg("timehist: cannot make a temporary file: %s", strerror(errno));
		sl_config_free(&cfg);
		return 2;
	}
	/* fewer, larger writes: the listing of a large trace is tens of MB */
	setvbuf(th->out, spool_buf, _IOFBF, sizeof(spool_buf));
	/* only our hooks: the analyzers' findings are not printed here */
	cfg.analyzers = timehist_analyzers;
	cfg.nr_analyzers = 1;
	if (sl_analysis_run(path, &cfg, NULL, NULL, &an, &err) < 0) {
		error_msg("%s: %s", path, err.msg);
		fclose(th->out);
		sl_config_free(&cfg);
		return 2;
	}
	if (!th->ncpus)
		th->ncpus = MAX(MAX(an->info.ncpus, an->model->nr_cpus), 1);
	sl_pager_start();
	sl_output_begin(stdout);
	if (th->rows) {
		print_header(th, stdout);
		if (copy_out(th->out))
			status = 2;
	}
	if (th->summary && an->model->nr_analyzers > 0)
		print_summary(th, an->model->analyzers[0], an->model, stdout);
	if (sl_output_end(stdout) < 0)
		status = 2;
	fclose(th->out);
	sl_analysis_free(an);
	sl_config_free(&cfg);
	return status;

usage:
	fputs("usage: schedlint timehist [options] [TRACE]   (--help for the options)\n", stderr);
	sl_config_free(&cfg);
	return 2;
}
