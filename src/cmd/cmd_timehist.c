// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_timehist.c - schedlint timehist: one line per wakeup, as it ran
 *
 * What perf sched timehist shows, for the wakeups schedlint measures: a
 * line each time a woken task is switched in, with when it was woken,
 * how long it waited for the CPU (the wakeup latency, perf's "sch
 * delay"), how long it slept before, and how long it ran the time
 * before.  It is the raw material behind analyze's percentiles: the
 * lines to grep when a p99 looks odd.  The samples are the model's
 * (on_latency), so the lines are exactly what analyze counts, filters
 * and all.
 *
 * The lines are spooled to a temporary file and written out only when
 * the whole trace was read: a trace that turns out corrupt half-way gets
 * its one-line error and no partial listing, in memory that does not
 * grow with the trace.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "options.h"
#include "output.h"
#include "schedlint/analysis.h"
#include "schedlint/analyzer.h"
#include "util/util.h"

static const char timehist_usage[] =
	"usage: schedlint timehist [options] [TRACE | -i TRACE]\n"
	"\n"
	"One line per switch-in of a woken task in TRACE (default trace.dat; any\n"
	"input analyze reads): when it ran, on which CPU, the task, when it was\n"
	"woken, how long it had slept, how long it waited to run (the wakeup\n"
	"latency, perf sched timehist's sch delay) and how long it ran before it\n"
	"slept.  Times in seconds as trace-cmd prints them, durations in us.\n"
	"The filters select lines as they select analyze's latency samples.\n"
	"\n";

/* What a task did last, for the line of its next wakeup. */
struct timehist_task {
	uint64_t last_in;	/* its last switch-in, 0 unknown */
	uint64_t last_out;	/* its last switch-out, 0 unknown */
	uint64_t last_run;	/* that run's length, 0 unknown */
};

struct timehist {
	FILE *out;		/* the spool */
	uint64_t lines;
};

static struct timehist timehist_state;

static void print_time(FILE *f, uint64_t ns)
{
	fprintf(f, "%6" PRIu64 ".%06" PRIu64, ns / 1000000000, ns % 1000000000 / 1000);
}

static void print_us(FILE *f, uint64_t ns, bool known)
{
	if (known)
		fprintf(f, " %10" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
	else
		fprintf(f, " %14s", "-");
}

/*
 * timehist_switch - note the runs: prev's ends (its length from the
 * model's switch-in time), next's starts
 */
static void timehist_switch(struct sl_analyzer *a, struct sl_model *m, const struct sl_switch_info *sw)
{
	if (sw->prev) {
		struct timehist_task *t = sl_task_priv(m, a, sw->prev);

		t->last_out = sw->ts;
		t->last_run = sw->prev_ran_since && sw->prev_ran_since <= sw->ts ?
			      sw->ts - sw->prev_ran_since : 0;
	}
	if (sw->next)
		((struct timehist_task *)sl_task_priv(m, a, sw->next))->last_in = sw->ts;
}

/* timehist_latency - a woken task runs: its line */
static void timehist_latency(struct sl_analyzer *a, struct sl_model *m,
			     const struct sl_latency_sample *s)
{
	const struct timehist_task *t = sl_task_priv(m, a, s->task);
	struct timehist *th = &timehist_state;
	char task[64];
	/* the switch-out before this wakeup: the sleep and the run before it */
	bool before = t->last_out && t->last_out <= s->wake_ts;

	if (!s->in_filter)
		return;
	snprintf(task, sizeof(task), "%s[%d]", sl_str(m->strtab, s->task->comm), s->task->pid);
	print_time(th->out, s->run_ts);
	fprintf(th->out, " [%03d]  %-24s ", s->cpu, task);
	print_time(th->out, s->wake_ts);
	print_us(th->out, before ? s->wake_ts - t->last_out : 0, before);
	print_us(th->out, s->latency, true);
	print_us(th->out, t->last_run, before && t->last_run);
	fputs(s->implied_switch ? " *\n" : "\n", th->out);
	th->lines++;
}

static const struct sl_analyzer_ops timehist_ops = {
	.name = "timehist",
	.task_priv_size = sizeof(struct timehist_task),
	.on_switch = timehist_switch,
	.on_latency = timehist_latency,
};

static const struct sl_analyzer_ops *const timehist_analyzers[] = { &timehist_ops };

static void print_header(FILE *f)
{
	fprintf(f, "%13s %5s  %-24s %13s %14s %14s %14s\n", "time", "cpu", "task[pid]",
		"woken", "slept us", "wait us", "ran before us");
	fprintf(f, "%13s %5s  %-24s %13s %14s %14s %14s\n", "-------------", "-----",
		"------------------------", "-------------", "--------------",
		"--------------", "--------------");
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
		if (fwrite(buf, 1, n, stdout) != n)
			break;
	return ferror(spool) ? -1 : 0;
}

int cmd_timehist(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "help",  no_argument,       NULL, 'h' },
		SL_ANALYSIS_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	struct sl_config cfg;
	struct sl_analysis *an = NULL;
	struct sl_error err = { "" };
	const char *path = NULL, *i_path = NULL;
	int c, status = 0;

	sl_config_init(&cfg);
	optind = 1;
	while ((c = sl_getopt(argc, argv, "hi:", long_opts)) != -1) {
		switch (c) {
		case 'i':
			i_path = optarg;
			break;
		case 'h':
			fputs(timehist_usage, stdout);
			fputs(sl_analysis_options_help, stdout);
			sl_config_free(&cfg);
			return 0;
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

	timehist_state.out = tmpfile();
	if (!timehist_state.out) {
		error_msg("timehist: cannot make a temporary file: %s", strerror(errno));
		sl_config_free(&cfg);
		return 2;
	}
	/* fewer, larger writes: the listing of a large trace is tens of MB */
	static char spool_buf[1 << 20];	/* glibc takes no size without a buffer */

	setvbuf(timehist_state.out, spool_buf, _IOFBF, sizeof(spool_buf));
	/* only our hooks: the analyzers' findings are not printed here */
	cfg.analyzers = timehist_analyzers;
	cfg.nr_analyzers = 1;
	if (sl_analysis_run(path, &cfg, NULL, NULL, &an, &err) < 0) {
		error_msg("%s: %s", path, err.msg);
		fclose(timehist_state.out);
		sl_config_free(&cfg);
		return 2;
	}
	sl_output_begin(stdout);
	print_header(stdout);
	if (copy_out(timehist_state.out))
		status = 2;
	if (sl_output_end(stdout) < 0)
		status = 2;
	fclose(timehist_state.out);
	sl_analysis_free(an);
	sl_config_free(&cfg);
	return status;

usage:
	fputs("usage: schedlint timehist [options] [TRACE]   (--help for the options)\n", stderr);
	sl_config_free(&cfg);
	return 2;
}
