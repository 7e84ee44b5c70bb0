// SPDX-License-Identifier: GPL-2.0
/*
 * report_text.c - the terminal report
 *
 * One screen first, answering "is anything wrong, how much, where": the
 * findings of each kind (count, cost, the worst and when), the wakeup
 * latency and its worst moment, the trace facts and notes.  Then the
 * detail sections, in the order a scheduler developer reads: the latency
 * table (schbench's), where time went per CPU, which tasks suffered, each
 * analyzer's section, and each kind's most costly findings with the
 * timestamps to open in trace-cmd report or KernelShark.
 *
 * Every line fits the report's width: tables drop the columns least read,
 * and what a section still prints too long is wrapped here, at the end.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/slice.h"
#include "report.h"
#include "schedlint/context.h"
#include "schedlint/analyzer.h"
#include "schedlint/findings.h"
#include "util/top.h"
#include "util/util.h"

/* the CPUs named one by one in a header note; the JSON lists them all */
#define CPU_LIST_MAX 16

/* A bar of width cells for frac in [0,1], with eighth blocks. */
static void bar(struct sl_report *r, double frac, int width)
{
	static const char *const eighths[] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
	int units = (int)(frac * width * 8 + 0.5), full = units / 8, rest = units % 8;
	int cells = 0;

	if (frac < 0)
		units = full = rest = 0;
	for (; cells < full && cells < width; cells++)
		fputs("█", r->out);
	if (cells < width && rest) {
		fputs(eighths[rest], r->out);
		cells++;
	}
	for (; cells < width; cells++)
		fputc(' ', r->out);
}

/* The LLC domains as --llc takes them (CPUs of a domain joined by '+'), and where they came from. */
static void llc_line(struct sl_report *r, const struct sl_model *m)
{
	int nr_domains = 0;

	fputs("  llc      ", r->out);
	if (!m->nr_llc_cpus) {
		fputs("one domain of all CPUs (the trace does not say; see --llc)\n",
		      r->out);
		return;
	}
	for (int cpu = 0; cpu < m->nr_llc_cpus; cpu++)
		nr_domains = MAX(nr_domains, m->llc_of[cpu] + 1);
	for (int d = 0; d < nr_domains; d++) {
		const char *sep = "";

		fputs(d ? "," : "", r->out);
		for (int cpu = 0; cpu < m->nr_llc_cpus; cpu++) {
			int last = cpu;

			if (m->llc_of[cpu] != d)
				continue;
			while (last + 1 < m->nr_llc_cpus && m->llc_of[last + 1] == d)
				last++;
			if (last > cpu)
				fprintf(r->out, "%s%d-%d", sep, cpu, last);
			else
				fprintf(r->out, "%s%d", sep, cpu);
			sep = "+";
			cpu = last;
		}
	}
	fprintf(r->out, " (from %s)\n", m->llc_source);
}

static void filter_lines(struct sl_report *r, struct sl_model *m);

/*
 * The scheduling context: the kernel's settings and where each came
 * from, and whether policies and groups were recorded (schedlint record)
 * or only what the trace's prio says is known.  Never silent: without
 * groups no shares are computed, and the report says why.
 */
static void context_lines(struct sl_report *r, const struct sl_model *m)
{
	const struct sl_context *c = m->ctx;
	uint64_t n[3], recorded, inferred, unknown;
	uint32_t autogroups = 0, cgroups = 0;

	sl_class_sources(m, n);
	recorded = n[SL_CLASS_FROM_POLICY];
	inferred = n[SL_CLASS_FROM_PRIO];
	unknown = n[SL_CLASS_FROM_NONE];
	if (c && (c->hz.value[0] || c->hrtick.value[0] || c->preempt.value[0] ||
		  c->base_slice_ns)) {
		const char *sep = "";

		fputs("  kernel  ", r->out);
		if (c->hz.value[0]) {
			fprintf(r->out, " HZ %s (%s", c->hz.value, c->hz.from);
			/* late-preemption's inference disagrees: said, not chosen silently */
			if (m->hz_inferred && m->hz_inferred != sl_hz_recorded(m))
				fprintf(r->out, "; the trace shows %d", m->hz_inferred);
			fputc(')', r->out);
			sep = ",";
		}
		if (c->hrtick.value[0]) {
			fprintf(r->out, "%s HRTICK %s (%s)", sep, c->hrtick.value, c->hrtick.from);
			sep = ",";
		}
		if (c->preempt.value[0]) {
			fprintf(r->out, "%s preempt %s (%s)", sep, c->preempt.value, c->preempt.from);
			sep = ",";
		}
		if (c->base_slice_ns)
			fprintf(r->out, "%s base slice %.2f ms (%s)", sep, c->base_slice_ns / 1e6,
				c->base_slice.from);
		fputc('\n', r->out);
	}
	for (uint32_t g = 1; c && g < c->nr_groups; g++)
		if (c->groups[g].defined && c->groups[g].kind == SL_GROUP_AUTOGROUP)
			autogroups++;
		else if (c->groups[g].defined)
			cgroups++;
	if (c && c->recorded) {
		fprintf(r->out, "  context  policies and groups recorded for %" PRIu64 " of %" PRIu64
			" task%s (schedlint record): %" PRIu32 " autogroup%s, %" PRIu32 " cgroup%s\n",
			recorded, recorded + inferred + unknown,
			recorded + inferred + unknown == 1 ? "" : "s", autogroups,
			autogroups == 1 ? "" : "s", cgroups, cgroups == 1 ? "" : "s");
		if (inferred || unknown)
			fprintf(r->out, "           the others: class from their prio %" PRIu64
				", unknown %" PRIu64 ", group unknown (counted in the root)\n",
				inferred, unknown);
	} else {
		fprintf(r->out, "  context  not recorded: class from the trace's prio (%" PRIu64
			" task%s, %" PRIu64 " unknown); groups unknown: no CPU shares "
			"computed\n", inferred, inferred == 1 ? "" : "s", unknown);
	}
}

/* The workload the trace names, and whether the report covers only it. */
static void workload_line(struct sl_report *r, const struct sl_model *m)
{
	uint32_t others = m->nr_workload_tasks ? m->nr_workload_tasks - 1 : 0;

	if (!m->workload_pid)
		return;
	fprintf(r->out, "  workload pid %d", m->workload_pid);
	if (m->workload_cmd[0])
		fprintf(r->out, " (%.40s%s)", m->workload_cmd,
			strlen(m->workload_cmd) > 40 ? "..." : "");
	if (others == 0)
		fputs(", which started no task\n", r->out);
	else if (others == 1)
		fputs(" and the task it started\n", r->out);
	else
		fprintf(r->out, " and the %" PRIu32 " tasks it started\n", others);
	if (m->cfg->workload_active)
		fprintf(r->out, "           the report covers %s only (--system: every task)\n",
			others ? "them" : "it");
	else
		fputs("           --system: the report covers every task\n", r->out);
}

/*
 * A chunk (" name count") at column col of a facts line, or on the next
 * line under the first chunk when it would not fit: a count never leaves
 * its name.  Returns the column after it.
 */
static int fact_chunk(struct sl_report *r, int col, const char *chunk)
{
	int w = (int)strlen(chunk);

	if (col > 10 && col + w > sl_report_width(r)) {
		fputs("\n          ", r->out);
		col = 10;
	}
	fputs(chunk, r->out);
	return col + w;
}

static int count_pair(struct sl_report *r, int col, const char *name, uint64_t count)
{
	char pair[64];

	snprintf(pair, sizeof(pair), " %s %" PRIu64, name, count);
	return fact_chunk(r, col, pair);
}

/*
 * What schedlint record, which wrote the trace, cost while it recorded:
 * its own runs on the CPUs it recorded, and their share of one CPU over
 * the span (what a reader of the trace must discount).
 */
static void recorder_line(struct sl_report *r, const struct sl_model *m)
{
	uint64_t span = sl_dur(m->first_ts, m->last_ts);
	char a[32], b[32], ts[32];

	fprintf(r->out, "  recorder schedlint record itself, pid %d: %.1f%% of a CPU (%s)\n",
		m->recorder_pid, span ? 100.0 * (double)m->recorder_run_ns / (double)span : 0.0,
		fmt_duration(a, sizeof(a), m->recorder_run_ns));
	fprintf(r->out, "           %.0f ns per event, %" PRIu64 " runs",
		m->nr_events ? (double)m->recorder_run_ns / (double)m->nr_events : 0.0,
		m->recorder_runs);
	if (m->recorder_runs)
		fprintf(r->out, ", the longest %s at %s", fmt_duration(b, sizeof(b),
			m->recorder_longest_ns), fmt_ts(ts, sizeof(ts), m->recorder_longest_ts));
	fputc('\n', r->out);
}

static void trace_facts(struct sl_report *r, struct sl_model *m)
{
	const struct sl_trace_info *info = m->info;
	char a[32], b[32], d[32];
	int col, ncpus = info->ncpus > m->nr_cpus ? info->ncpus : m->nr_cpus;

	fprintf(r->out, "\n  trace    %s", sl_format_name(info->format));
	if (info->compression[0] && strcmp(info->compression, "none"))
		fprintf(r->out, " (%s)", info->compression);
	fprintf(r->out, ", %d CPUs", ncpus);
	if (info->kernel[0])
		fprintf(r->out, ", kernel %s", info->kernel);
	if (info->clock[0])
		fprintf(r->out, ", clock %s", info->clock);
	fputc('\n', r->out);
	fprintf(r->out, "  span     %s .. %s (%s), %" PRIu64 " events\n",
		fmt_ts(a, sizeof(a), m->first_ts), fmt_ts(b, sizeof(b), m->last_ts),
		fmt_duration(d, sizeof(d), sl_dur(m->first_ts, m->last_ts)), m->nr_events);
	filter_lines(r, m);
	llc_line(r, m);
	context_lines(r, m);

	fputs("  events  ", r->out);
	col = 10;
	for (int t = 1; t < SL_EV__COUNT; t++)
		if (m->type_counts[t] && t != SL_EV_LOST)
			col = count_pair(r, col, sl_event_type_name(t), m->type_counts[t]);
	if (m->type_counts[SL_EV_OTHER])
		count_pair(r, col, "other", m->type_counts[SL_EV_OTHER]);
	fputc('\n', r->out);

	if (m->recorder_pid > 0)
		recorder_line(r, m);

	if (m->lost_gaps) {
		char head[128], chunk[64], floor[48] = "";
		bool is_floor;
		uint64_t uncounted = sl_model_lost_uncounted(m, &is_floor);
		int shown = 0;

		/* a gap of no count: the others' sum is a floor, unless the input gave the total */
		if (is_floor)
			snprintf(floor, sizeof(floor), " (%" PRIu64 " did not say how many)", uncounted);
		col = snprintf(head, sizeof(head), "  lost     %s%" PRIu64 " events in %" PRIu64 " gap%s%s:",
			       floor[0] ? "at least " : "", m->lost_events, m->lost_gaps,
			       m->lost_gaps == 1 ? "" : "s", floor);
		fprintf(r->out, "  %s%s", sl_color(r, SL_C_YELLOW), head + 2);
		for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
			const struct sl_cpu *c = &m->cpus[cpu];

			if (!c->lost_gaps || shown++ >= CPU_LIST_MAX)
				continue;
			if (!c->lost_events)	/* the input did not say how many */
				snprintf(chunk, sizeof(chunk), " cpu%d ?", cpu);
			else		/* and "+?" when some of its gaps did not */
				snprintf(chunk, sizeof(chunk), " cpu%d %" PRIu64 "%s", cpu, c->lost_events,
					 c->lost_uncounted ? "+?" : "");
			col = fact_chunk(r, col, chunk);
		}
		if (shown > CPU_LIST_MAX) {
			snprintf(chunk, sizeof(chunk), " and %d more CPUs", shown - CPU_LIST_MAX);
			fact_chunk(r, col, chunk);
		}
		fprintf(r->out, "%s\n           no latency or finding is computed across a gap"
			" (%" PRIu64 " wakeup%s not measured)\n", sl_color(r, SL_C_RESET),
			m->samples_dropped_gap, m->samples_dropped_gap == 1 ? "" : "s");
	}
	if (info->lost_unplaced)
		fprintf(r->out, "  %slost     perf lost events %" PRIu64 " times, the text does not say"
			" where%s\n           (perf script --show-lost-events does): latencies and"
			" findings may span them\n", sl_color(r, SL_C_YELLOW), info->lost_unplaced,
			sl_color(r, SL_C_RESET));
	if (!m->seen_waking && m->seen_wakeup)
		fputs("  note     no sched_waking events: wakeup time = sched_wakeup time\n", r->out);
	if (m->seen_waking && !m->seen_wakeup)
		fputs("  note     no sched_wakeup events (perf sched record?): wakees are enqueued"
		      " at their waking\n", r->out);
	if (!m->seen_waking && !m->seen_wakeup)
		fputs("  note     no wakeup events: wakeup latency cannot be measured\n", r->out);
	if (m->implied_switches) {
		fprintf(r->out, "  note     %" PRIu64 " context switch%s missing from the trace (",
			m->implied_switches, m->implied_switches == 1 ? " is" : "es are");
		const char *sep = "";
		int shown = 0;

		for (int cpu = 0; cpu < m->nr_cpus; cpu++)
			if (m->cpus[cpu].implied_switches && shown++ < CPU_LIST_MAX) {
				fprintf(r->out, "%scpu%d %" PRIu64, sep, cpu, m->cpus[cpu].implied_switches);
				sep = ", ";
			}
		if (shown > CPU_LIST_MAX)
			fprintf(r->out, " and %d more CPUs", shown - CPU_LIST_MAX);
		fputs("):\n           inferred from the task running each CPU's next event,"
		      " at the earliest time possible\n", r->out);
	}
	if (info->header_ncpus && m->nr_cpus > info->header_ncpus)
		fprintf(r->out, "  %snote     the header declares %d CPUs, the events name CPUs up to %d%s\n",
			sl_color(r, SL_C_YELLOW), info->header_ncpus, m->nr_cpus - 1,
			sl_color(r, SL_C_RESET));
	/* the model drops CPUs beyond a trace.dat's count, or beyond its own limit */
	if (m->bad_cpu_refs && (info->format == SL_FMT_DAT6 || info->format == SL_FMT_DAT7) &&
	    info->ncpus > 0 && info->ncpus < SL_MODEL_MAX_CPUS)
		fprintf(r->out, "  %snote     %" PRIu64 " events name CPUs the trace does not have "
			"(beyond its %d): ignored%s\n", sl_color(r, SL_C_YELLOW), m->bad_cpu_refs,
			info->ncpus, sl_color(r, SL_C_RESET));
	else if (m->bad_cpu_refs)
		fprintf(r->out, "  %snote     %" PRIu64 " events name CPUs beyond the %d schedlint "
			"handles (Linux's most): ignored%s\n", sl_color(r, SL_C_YELLOW),
			m->bad_cpu_refs, SL_MODEL_MAX_CPUS, sl_color(r, SL_C_RESET));
	if (info->formats_ignored)
		fprintf(r->out, "  note     %" PRIu32 " event format%s of events not decoded look%s"
			" malformed (%s):\n           not parsed, their events counted by name\n",
			info->formats_ignored, info->formats_ignored > 1 ? "s" : "",
			info->formats_ignored > 1 ? "" : "s", info->format_ignored);
	if (info->bad_lines > !!info->cut_last_line)
		fprintf(r->out, "  %snote     %" PRIu64 " %s not event%s (first: line %" PRIu64 ")%s\n",
			sl_color(r, SL_C_YELLOW), info->bad_lines - !!info->cut_last_line,
			info->bad_lines - !!info->cut_last_line == 1 ? "line was" : "lines were",
			info->bad_lines - !!info->cut_last_line == 1 ? "" : "s", info->first_bad_line,
			sl_color(r, SL_C_RESET));
	if (info->cut_last_line)
		fprintf(r->out, "  %snote     the last line (%" PRIu64 ") ends without a newline (a cut "
			"file?): left out%s\n", sl_color(r, SL_C_YELLOW), info->cut_last_line,
			sl_color(r, SL_C_RESET));
	if (m->max_inversion_ns > 100000)
		fprintf(r->out, "  note     timestamps go back by up to %s (%" PRIu64 " times): "
			"clocks disagree across CPUs\n",
			fmt_duration(d, sizeof(d), m->max_inversion_ns), m->clock_inversions);
}

/*
 * The samples that end at an inferred switch: their own row (a part of
 * "all", or what --exclude-inferred left out of it) and what they mean.
 */
static void inferred_rows(struct sl_report *r, struct sl_model *m)
{
	const struct sl_hist *h = &m->latency_inferred;

	if (!h->count)
		return;
	if (m->cfg->exclude_inferred) {
		sl_report_latency_row(r, 14, " left out", h);
		fprintf(r->out, "  %" PRIu64 " samples end at a switch the trace does not show:"
			" left out\n  (--exclude-inferred); their latency is a lower bound\n",
			h->count);
		return;
	}
	sl_report_latency_row(r, 14, " inferred", h);
	fprintf(r->out, "  %" PRIu64 " of %" PRIu64 " samples end at a switch the trace does not"
		" show: lower\n  bounds (--exclude-inferred leaves them out)\n", h->count,
		m->latency.count);
}

static char *glued(char *s);

/*
 * "max wait 30.53 ms: sh:7575 runnable after preemption 2593.273729, ran
 * 2593.304255 on cpu0": the longest runnable wait of any kind.
 */
/* "sh:7575", or "sched-pipe:12926 (perf then)": named as perf names it, its last comm */
static const char *wait_task(char *buf, size_t len, struct sl_model *m, const struct sl_wait_moment *w)
{
	if (sl_wait_comm(m, w) != w->comm)
		snprintf(buf, len, "%s:%d (%s then)", sl_str(m->strtab, sl_wait_comm(m, w)), w->pid,
			 sl_str(m->strtab, w->comm));
	else
		snprintf(buf, len, "%s:%d", sl_str(m->strtab, w->comm), w->pid);
	return buf;
}

static void max_delay_line(struct sl_report *r, struct sl_model *m, bool brief)
{
	const struct sl_wait_moment *w = &m->wait_worst, *p = &m->wait_worst_perf61;
	char d[32], a[32], b[32], task[160];

	if (!w->to)
		return;
	if (brief) {
		/* the first screen: two lines */
		sl_report_wrap(r, 2, 11, "%-8s %s (any kind: perf's max delay): %s after" SL_GLUE
			       "%s %s" SL_GLUE ".." SL_GLUE "%s" SL_GLUE "cpu%d%s", "max wait",
			       fmt_duration(d, sizeof(d), w->wait), wait_task(task, sizeof(task), m, w),
			       sl_wait_kind_names[w->kind], fmt_ts(a, sizeof(a), w->from),
			       fmt_ts(b, sizeof(b), w->to), w->cpu, w->inferred ? " (at least)" : "");
		return;
	}
	sl_report_wrap(r, 2, 11, "%-8s %s: %s runnable after" SL_GLUE "%s %s, ran" SL_GLUE "%s"
		       SL_GLUE "on" SL_GLUE "cpu%d%s (the longest wait of any kind: perf sched"
		       " latency's max delay)", "max wait", fmt_duration(d, sizeof(d), w->wait),
		       wait_task(task, sizeof(task), m, w), sl_wait_kind_names[w->kind],
		       fmt_ts(a, sizeof(a), w->from), fmt_ts(b, sizeof(b), w->to), w->cpu,
		       w->inferred ? " (an inferred switch-in: at least this long)" : "");
	if (!p->to || (p->pid == w->pid && p->from == w->from && p->to == w->to))
		return;
	/* perf 6.1 counts fewer kinds (see max_as_perf_6_1 in model.h) */
	sl_report_wrap(r, 11, 11, "perf 6.1's max delay (sched_wakeup only, \"R+\" not a wait): %s,"
		       " %s after" SL_GLUE "%s %s .. %s", fmt_duration(d, sizeof(d), p->wait),
		       wait_task(task, sizeof(task), m, p), sl_wait_kind_names[p->kind],
		       fmt_ts(a, sizeof(a), p->from), fmt_ts(b, sizeof(b), p->to));
}

/* "new      12 tasks, fork to first run (not wakeups): p50 1.2 ms, max 27.8 ms" */
static void fork_delay_line(struct sl_report *r, struct sl_model *m)
{
	char a[32], c[32];

	if (!m->fork_delay.count)
		return;
	fmt_duration(a, sizeof(a), sl_hist_percentile(&m->fork_delay, 50));
	fmt_duration(c, sizeof(c), m->fork_delay.max);
	sl_report_wrap(r, 2, 11, "%-8s %" PRIu64 " task%s, fork to first run (not wakeups): p50"
		       SL_GLUE "%s, max" SL_GLUE "%s", "new", m->fork_delay.count,
		       m->fork_delay.count == 1 ? "" : "s", glued(a), glued(c));
}

/* The latency section's rows of the other waits: new tasks' first run, the longest wait. */
static void other_wait_rows(struct sl_report *r, struct sl_model *m)
{
	if (m->fork_delay.count) {
		fputs("\n  new tasks, fork (sched_wakeup_new) to first run, apart from the wakeups:\n",
		      r->out);
		sl_report_latency_header(r, 14);
		sl_report_latency_row(r, 14, "new task", &m->fork_delay);
	}
	max_delay_line(r, m, false);
}

/*
 * The rows by scheduling class, when more than one class has samples:
 * "RT", "DL", "fair", "ext", "unknown", each said inferred from the prio
 * (or recorded) below.
 */
static void class_rows(struct sl_report *r, struct sl_model *m)
{
	static const char *const label[SL_CLASS__NR] = {
		[SL_CLASS_DL] = " DL", [SL_CLASS_RT] = " RT", [SL_CLASS_FAIR] = " fair",
		[SL_CLASS_EXT] = " ext", [SL_CLASS_UNKNOWN] = " class unknown",
	};
	uint64_t policy = 0, prio = 0;
	int classes = 0;

	for (int k = 0; k < SL_CLASS__NR; k++) {
		classes += m->latency_class[k].count > 0;
		policy += m->class_tasks[k][SL_CLASS_FROM_POLICY];
		prio += m->class_tasks[k][SL_CLASS_FROM_PRIO];
	}
	if (classes < 2)
		return;
	for (int k = 0; k < SL_CLASS__NR; k++)
		if (m->latency_class[k].count)
			sl_report_latency_row(r, 14, label[k], &m->latency_class[k]);
	fprintf(r->out, "  classes: %s (by the class when woken)\n",
		policy && prio ? "recorded policies, else inferred from the prio" :
		policy ? "the recorded policies" : "inferred from the prio (<100 RT, -1 DL)");
}

/* "worst    1.33 ms: tail:8336 woken 913.967145, ran 913.968480 on cpu1" */
static void worst_line(struct sl_report *r, struct sl_model *m, const char *label,
		       const struct sl_wakeup_moment *w)
{
	char d[32], a[32], b[32], task[64];

	snprintf(task, sizeof(task), "%s:%d", sl_str(m->strtab, w->comm), w->pid);
	sl_report_wrap(r, 2, 11, "%-8s %s: %s woken" SL_GLUE "%s, ran" SL_GLUE "%s" SL_GLUE "on"
		       SL_GLUE "cpu%d%s", label,
		       fmt_duration(d, sizeof(d), w->latency), task, fmt_ts(a, sizeof(a), w->wake_ts),
		       fmt_ts(b, sizeof(b), w->run_ts), w->cpu,
		       w->inferred ? " (an inferred switch-in: at least this long)" : "");
}

/* s with its spaces made SL_GLUE: "1.33 ms" never breaks */
static char *glued(char *s)
{
	for (char *p = s; (p = strchr(p, ' ')); p++)
		*p = SL_GLUE[0];
	return s;
}

/*
 * "peak     p99 1.20 ms in 913.560000-913.570000 (10.0 ms window, 340
 * wakeups)": the worst window of latency over time (series.h)
 */
static void peak_line(struct sl_report *r, struct sl_model *m)
{
	const struct sl_series *s = &m->latency_series;
	int peak = sl_series_peak(s);
	const struct sl_series_window *w;
	char d[32], a[32], b[32], win[32];
	uint64_t start;

	if (peak < 0)
		return;
	w = &s->w[peak];
	start = s->origin + (uint64_t)peak * s->window_ns;
	sl_report_wrap(r, 2, 11, "%-8s p99" SL_GLUE "%s in" SL_GLUE "%s-%s (%s window, %" PRIu64
		       " wakeup%s)", "peak", (fmt_duration(d, sizeof(d), sl_series_percentile(s, (uint32_t)peak, 99)), glued(d)),
		       fmt_ts(a, sizeof(a), start), fmt_ts(b, sizeof(b), start + s->window_ns),
		       (fmt_duration(win, sizeof(win), s->window_ns), glued(win)), w->count,
		       w->count == 1 ? "" : "s");
}

static void latency_section(struct sl_report *r, struct sl_model *m)
{
	sl_report_section(r, "Wakeup latency (waking -> running)");
	if (!m->latency.count) {
		fputs("  no wakeup-latency samples\n", r->out);
		inferred_rows(r, m);
		other_wait_rows(r, m);
		return;
	}
	sl_report_latency_header(r, 14);
	sl_report_latency_row(r, 14, "all", &m->latency);
	sl_report_latency_row(r, 14, "local", &m->latency_local);
	sl_report_latency_row(r, 14, "remote", &m->latency_remote);
	if (m->latency_ipi.count)
		sl_report_latency_row(r, 14, " remote + IPI", &m->latency_ipi);
	if (m->latency_noipi.count && m->latency_ipi.count)
		sl_report_latency_row(r, 14, " remote no IPI", &m->latency_noipi);
	class_rows(r, m);
	inferred_rows(r, m);
	worst_line(r, m, "worst", &m->latency_worst);
	peak_line(r, m);
	other_wait_rows(r, m);
}

/* "1us", "20ms": a 1-2-5 boundary as a short label */
static const char *short_ns(char *buf, size_t len, uint64_t ns)
{
	static const struct { uint64_t div; const char *unit; } units[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" }, { 1, "ns" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (ns >= units[i].div) {
			snprintf(buf, len, "%" PRIu64 "%s", ns / units[i].div, units[i].unit);
			return buf;
		}
	snprintf(buf, len, "0");
	return buf;
}

/*
 * Histogram: one row per 1-2-5 step (1us, 2us, 5us, 10us, ...; hist.h),
 * the way people read latencies, with bars scaled to the fullest row.
 */
static void histogram_section(struct sl_report *r, struct sl_model *m)
{
	uint64_t rows[SL_HIST_ROWS] = { 0 }, maxc = 0;
	struct sl_hist_iter it = { 0 };
	uint64_t lo, hi, c;
	int first = -1, last = -1;
	char a[32];

	if (!m->latency.count)
		return;
	while (sl_hist_next(&m->latency, &it, &lo, &hi, &c))
		rows[sl_hist_row_of_bucket(lo)] += c;
	for (int i = 0; i < SL_HIST_ROWS; i++) {
		if (!rows[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		if (rows[i] > maxc)
			maxc = rows[i];
	}
	sl_report_section(r, "Latency histogram");
	for (int i = first; i <= last; i++) {
		fprintf(r->out, "  %6s .. |", short_ns(a, sizeof(a), sl_hist_row_lo(i)));
		fputs(sl_color(r, SL_C_CYAN), r->out);
		bar(r, (double)rows[i] / (double)maxc, 40);
		fputs(sl_color(r, SL_C_RESET), r->out);
		fprintf(r->out, " %" PRIu64 "\n", rows[i]);
	}
}

/*
 * More of the CPU's switches were inferred than traced, or more of the
 * wakeups that ran on it ended at an inferred switch than at a traced one
 * (a CPU that never logs its switches away from the idle task).
 */
static bool mostly_inferred(const struct sl_model *m, const struct sl_cpu *c)
{
	uint64_t samples = c->latency.count + (m->cfg->exclude_inferred ? c->latency_inferred : 0);

	return c->implied_switches > c->switches || c->latency_inferred * 2 > samples;
}

/* A bar of width cells into buf (eighth blocks), for a table cell. */
static const char *bar_cell(char *buf, size_t len, const struct sl_report *r, double frac,
			    int width, enum sl_color color)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	struct sl_report sub = *r;

	if (!f) {
		snprintf(buf, len, "%*s", width, "");
		return buf;
	}
	sub.out = f;
	fputs(sl_color(r, color), f);
	bar(&sub, frac, width);
	fputs(sl_color(r, SL_C_RESET), f);
	fclose(f);
	snprintf(buf, len, "%s", text);
	free(text);
	return buf;
}

static void cpus_section(struct sl_report *r, struct sl_model *m)
{
	enum { C_CPU, C_BAR, C_BUSY, C_SWITCHES, C_WAKEUPS, C_MAXQ, C_MEANQ, C_P99, C__NR };
	static const struct sl_col cols[C__NR] = {
		[C_CPU] = { "cpu", 5, 0, false },
		[C_BAR] = { "utilization", 24, 3, true },
		[C_BUSY] = { "busy", 6, 0, false },
		[C_SWITCHES] = { "switches ", 9, 0, false },
		[C_WAKEUPS] = { "wakeups", 8, 0, false },
		[C_MAXQ] = { "maxq", 5, 1, false },
		[C_MEANQ] = { "meanq", 6, 2, false },
		[C_P99] = { "p99 lat", 8, 0, false },
	};
	uint64_t shown = sl_cols_fit(r, 0, cols, C__NR);
	char b[C__NR][256];
	const char *cells[C__NR];
	bool marked = false;

	for (int i = 0; i < C__NR; i++)
		cells[i] = b[i];
	sl_report_section(r, "CPUs");
	sl_cols_row(r, 0, cols, C__NR, shown, NULL);
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sl_cpu *c = &m->cpus[cpu];
		uint64_t known = c->busy_ns + c->idle_ns;
		double util = known ? (double)c->busy_ns / (double)known : 0;

		if (!sl_filter_cpu(m->cfg, cpu))
			continue;
		snprintf(b[C_CPU], sizeof(b[0]), "%d", cpu);
		bar_cell(b[C_BAR], sizeof(b[0]), r, util, 24, util > 0.9 ? SL_C_RED : SL_C_GREEN);
		snprintf(b[C_BUSY], sizeof(b[0]), "%.1f%%", util * 100);
		/* '*': mostly inferred (the note below the table); the digits stay aligned */
		snprintf(b[C_SWITCHES], sizeof(b[0]), "%" PRIu64 "%c", c->switches,
			 mostly_inferred(m, c) ? '*' : ' ');
		snprintf(b[C_WAKEUPS], sizeof(b[0]), "%" PRIu64, c->wakeups);
		snprintf(b[C_MAXQ], sizeof(b[0]), "%u", c->max_queue);
		snprintf(b[C_MEANQ], sizeof(b[0]), "%.2f",
			 c->queue_known_ns ?
					(double)c->queue_area / (double)c->queue_known_ns : 0.0);
		if (c->latency.count)
			fmt_duration(b[C_P99], sizeof(b[0]), sl_hist_percentile(&c->latency, 99));
		else
			snprintf(b[C_P99], sizeof(b[0]), "-");
		sl_cols_row(r, 0, cols, C__NR, shown, cells);
		marked |= mostly_inferred(m, c);
	}
	if (marked)
		fputs("  * most of its switches or switch-ins are inferred (not in the trace):\n"
		      "    the latencies that end there are lower bounds\n", r->out);
}

/*
 * A task (its index: a frozen dead task is read through sl_kept_task())
 * and its p99, computed once: a percentile walks the histogram.
 */
struct task_p99 {
	uint32_t i;
	int32_t pid;
	uint64_t p99;
};

/* the largest p99 first, then the lowest pid, then the lowest index: a total order (sl_top) */
static int by_p99_desc(const void *a, const void *b)
{
	const struct task_p99 *x = a, *y = b;

	if (x->p99 != y->p99)
		return x->p99 < y->p99 ? 1 : -1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Which of the tasks shown have lower-bound samples, and how many of theirs. */
static void inferred_tasks(struct sl_report *r, struct sl_model *m,
			   const struct task_p99 *list, size_t n)
{
	const char *lead = m->cfg->exclude_inferred ? "  left out, lower bounds:"
						    : "  of which lower bounds:";
	int col = 0;

	for (size_t i = 0; i < n; i++) {
		const struct sl_task *t = sl_kept_task(m, list[i].i);
		char item[64];
		int len;

		if (!t->latency_inferred)
			continue;
		len = snprintf(item, sizeof(item), " %s:%d %" PRIu32, sl_task_comm(m, t), t->pid,
			       t->latency_inferred);
		if (!col) {
			col = fprintf(r->out, "%s", lead);
		} else if (col + 1 + len > 79) {
			fputs(",\n", r->out);
			col = fprintf(r->out, "%*s", (int)strlen(lead), "");
		} else {
			col += fprintf(r->out, ",");
		}
		col += fprintf(r->out, "%s", item);
	}
	if (col)
		fputc('\n', r->out);
}

/* How many entries of a list the report shows: --top, or all with --full. */
static size_t listed(const struct sl_report *r, size_t n)
{
	if (r->detail == SL_DETAIL_FULL)
		return n;
	return n < (size_t)r->top ? n : (size_t)r->top;
}

/* The display width of the trace's timestamps ("913.968510": 10). */
static int ts_width(const struct sl_model *m)
{
	char a[32];

	return (int)strlen(fmt_ts(a, sizeof(a), m->last_ts));
}

/* The dead tasks past the cap are not listed: their numbers are summed by comm. */
static void folded_line(struct sl_report *r, const struct sl_model *m)
{
	if (m->tasks_folded)
		fprintf(r->out, "  %" PRIu64 " dead tasks past the last %zu folded by comm"
			" (--json: tasks_folded)\n", m->tasks_folded,
			m->cfg->keep_tasks ? m->cfg->keep_tasks : (size_t)SL_KEEP_DEAD_TASKS);
}

static void tasks_section(struct sl_report *r, struct sl_model *m)
{
	enum { T_TASK, T_WAKEUPS, T_P50, T_P99, T_MAX, T_WOKEN, T_RAN, T_MAXWAIT, T_RUN, T_WAIT,
	       T_PREEM, T_MIGR, T__NR };
	struct sl_col cols[T__NR] = {
		[T_TASK] = { "task", 20, 0, true },
		[T_WAKEUPS] = { "wakeups", 7, 0, false },
		[T_P50] = { "p50", 8, 4, false },
		[T_P99] = { "p99", 8, 0, false },
		[T_MAX] = { "max", 8, 0, false },
		[T_WOKEN] = { "max woken", ts_width(m), 0, false },
		[T_RAN] = { "max ran", ts_width(m), 3, false },
		/* the longest wait of any kind: perf sched latency's max delay */
		[T_MAXWAIT] = { "max wait", 8, 2, false },
		[T_RUN] = { "run", 9, 6, false },
		[T_WAIT] = { "wait", 9, 5, false },
		[T_PREEM] = { "preem", 6, 8, false },
		[T_MIGR] = { "migr", 6, 7, false },
	};
	struct sl_top top;
	const struct task_p99 *list;
	size_t n = 0, shown;
	uint64_t mask;
	char b[T__NR][64];
	const char *cells[T__NR];

	/* the tasks shown kept, not all: 16 bytes a task, twice with the sort's copy */
	sl_top_init(&top, listed(r, SIZE_MAX), sizeof(struct task_p99), by_p99_desc);
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		const struct sl_task *t = sl_kept_task(m, i);

		if (t->latency.count && sl_filter_task(m->cfg, m->strtab, t)) {
			sl_top_add(&top, &(struct task_p99){ i, t->pid,
							     sl_hist_percentile(&t->latency, 99) });
			n++;
		}
	}
	if (!n) {
		if (m->tasks_folded)
			sl_report_section(r, "Tasks");
		folded_line(r, m);
		return;
	}
	sl_top_sort(&top);
	list = (const struct task_p99 *)top.v;
	for (int i = 0; i < T__NR; i++)
		cells[i] = b[i];
	/* the header must fit a column: a wider timestamp widens it */
	for (int i = T_WOKEN; i <= T_RAN; i++)
		if (cols[i].width < (int)strlen(cols[i].head))
			cols[i].width = (int)strlen(cols[i].head);
	mask = sl_cols_fit(r, 2, cols, T__NR);
	sl_report_section(r, "Tasks by wakeup-latency p99 (max: the worst wakeup, woken .. ran;"
			  " max wait: its longest wait of any kind)");
	sl_cols_row(r, 2, cols, T__NR, mask, NULL);
	shown = listed(r, n);
	for (size_t i = 0; i < shown; i++) {
		const struct sl_task *t = sl_kept_task(m, list[i].i);

		sl_task_label(b[T_TASK], sizeof(b[0]), sl_task_comm(m, t), t->pid, cols[T_TASK].width);
		snprintf(b[T_WAKEUPS], sizeof(b[0]), "%" PRIu64, t->latency.count);
		sl_report_cell(b[T_P50], sizeof(b[0]), sl_hist_percentile(&t->latency, 50));
		sl_report_cell(b[T_P99], sizeof(b[0]), list[i].p99);
		sl_report_cell(b[T_MAX], sizeof(b[0]), t->latency.max);
		fmt_ts(b[T_WOKEN], sizeof(b[0]), t->worst.wake_ts);
		fmt_ts(b[T_RAN], sizeof(b[0]), t->worst.run_ts);
		if (t->wait_worst.to)
			sl_report_cell(b[T_MAXWAIT], sizeof(b[0]), t->wait_worst.wait);
		else
			snprintf(b[T_MAXWAIT], sizeof(b[0]), "-");
		fmt_duration(b[T_RUN], sizeof(b[0]), t->run_ns);
		fmt_duration(b[T_WAIT], sizeof(b[0]), t->wait_ns);
		snprintf(b[T_PREEM], sizeof(b[0]), "%" PRIu64, t->preemptions);
		snprintf(b[T_MIGR], sizeof(b[0]), "%" PRIu64, t->migrations);
		sl_cols_row(r, 2, cols, T__NR, mask, cells);
	}
	if (n > shown)
		fprintf(r->out, "  ... %zu more tasks with wakeups (--full or --json lists all)\n",
			n - shown);
	inferred_tasks(r, m, list, shown);
	folded_line(r, m);
	sl_top_free(&top);
}

/* The detail list: each listed kind's most costly findings. */
static void findings_section(struct sl_report *r, struct sl_model *m)
{
	char a[32], ts[32], msg[512], task[96];
	bool any = false;

	for (int k = 0; k < SL_KIND__COUNT; k++) {
		const struct sl_kind_summary *s = &m->findings->summary[k];
		const struct sl_finding *f;
		size_t nr, shown;

		if (!sl_kinds[k].listed || !s->count)
			continue;
		if (!any)
			sl_report_section(r, "Findings, each kind's most costly "
					  "(times as trace-cmd report prints them)");
		any = true;
		f = sl_findings_of_kind(m->findings, k, &nr);
		shown = listed(r, nr);
		fprintf(r->out, "  %s%s%s  %" PRIu64 " found", sl_color(r, SL_C_BOLD), sl_kinds[k].name,
			sl_color(r, SL_C_RESET), s->count);
		if (nr < s->count)
			fprintf(r->out, ", %zu kept", nr);
		if (shown < nr)
			fprintf(r->out, ", %zu shown", shown);
		if (nr < s->count || shown < nr)
			fprintf(r->out, " (%s%s%s)", nr < s->count ? "--max-findings" : "",
				nr < s->count && shown < nr ? ", " : "", shown < nr ? "--top" : "");
		fputc('\n', r->out);
		for (size_t i = 0; i < shown; i++, f++) {
			sl_finding_message(f, m, msg, sizeof(msg));
			snprintf(task, sizeof(task), "%s:%d%s", sl_str(m->strtab, f->comm), f->pid,
				 sl_recorder_note(m, f->pid));
			/* one line, wrapped under its timestamp's end */
			sl_report_wrap(r, 4, 8, "%s%s%s cpu%-3d %s%9s%s  %s  %s", sl_color(r, SL_C_BOLD),
				       fmt_ts(ts, sizeof(ts), f->ts), sl_color(r, SL_C_RESET), f->cpu,
				       sl_color(r, SL_C_YELLOW), fmt_duration(a, sizeof(a), f->cost),
				       sl_color(r, SL_C_RESET), task, msg);
			sl_report_look_at(r, m, 8, f, false);
		}
	}
}

/* The kept finding of kind whose cost is the kind's worst, or NULL (not kept). */
static const struct sl_finding *worst_kept(struct sl_model *m, int kind)
{
	size_t nr;
	const struct sl_finding *f = sl_findings_of_kind(m->findings, kind, &nr);

	if (!nr || f->cost != m->findings->summary[kind].max_cost)
		return NULL;
	return f;
}

/*
 * The first screen's findings table: each kind's count, total cost and
 * worst, and where the worst was.  A column the what-if estimates can
 * join goes between "worst" and "worst at" (summary_cols below).
 */
static void summary_findings(struct sl_report *r, struct sl_model *m)
{
	enum { S_KIND, S_COUNT, S_COST, S_WORST, S_AT, S__NR };
	struct sl_col cols[S__NR] = {
		[S_KIND] = { "", 19, 0, true },
		[S_COUNT] = { "count", 7, 0, false },
		[S_COST] = { "cost", 10, 0, false },
		[S_WORST] = { "worst", 10, 0, false },
		[S_AT] = { " worst at", 9, 0, true },
	};
	uint64_t shown;
	int width = sl_report_width(r), used;
	char b[S__NR][256];
	const char *cells[S__NR];

	for (int i = 0; i < S__NR; i++)
		cells[i] = b[i];
	shown = sl_cols_fit(r, 2, cols, S__NR);
	used = 2;
	for (int i = 0; i < S_AT; i++)
		if (shown >> i & 1)
			used += cols[i].width + 1;
	fprintf(r->out, "\n%s%-*s%s", sl_color(r, SL_C_BOLD), 2 + cols[S_KIND].width,
		"Findings", sl_color(r, SL_C_RESET));
	cols[S_KIND].head = "";
	sl_cols_row(r, 0, cols + 1, S__NR - 1, shown >> 1, NULL);
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		const struct sl_kind_summary *s = &m->findings->summary[k];
		const struct sl_finding *f = NULL;
		bool bad = s->count && sl_kinds[k].listed;

		if (sl_kinds[k].configuration)
			continue;	/* its analyzer's line below the table (report_summary) */

		snprintf(b[S_KIND], sizeof(b[0]), "%s%s%s", sl_color(r, bad ? SL_C_RED : SL_C_RESET),
			 sl_kinds[k].name, sl_color(r, SL_C_RESET));
		snprintf(b[S_COUNT], sizeof(b[0]), "%" PRIu64, s->count);
		b[S_COST][0] = b[S_WORST][0] = b[S_AT][0] = '\0';
		if (s->count) {
			fmt_duration(b[S_COST], sizeof(b[0]), s->cost);
			fmt_duration(b[S_WORST], sizeof(b[0]), s->max_cost);
		}
		if (!sl_kinds[k].listed && s->count)
			snprintf(b[S_AT], sizeof(b[0]), " %s(a measurement)%s", sl_color(r, SL_C_DIM),
				 sl_color(r, SL_C_RESET));
		else if (s->count)
			f = worst_kept(m, k);
		if (f) {
			char ts[32], task[96];
			int room;

			snprintf(b[S_AT], sizeof(b[0]), " %s cpu%d", fmt_ts(ts, sizeof(ts), f->ts), f->cpu);
			room = width - used - (int)strlen(b[S_AT]) - 1;
			/* the task when it fits whole: the latency line and the detail name it too */
			snprintf(task, sizeof(task), "%s:%d%s", sl_str(m->strtab, f->comm), f->pid,
				 sl_recorder_note(m, f->pid));
			if (sl_display_width(task) <= room)
				snprintf(b[S_AT] + strlen(b[S_AT]), sizeof(b[0]) - strlen(b[S_AT]), " %s",
					 task);
		}
		sl_cols_row(r, 2, cols, S__NR, shown, cells);
	}
}

/* The first screen's latency lines: the percentiles read most, and the worst moment. */
static void summary_latency(struct sl_report *r, struct sl_model *m)
{
	char a[32], b[32], c[32];

	fprintf(r->out, "\n%sWakeup latency%s", sl_color(r, SL_C_BOLD), sl_color(r, SL_C_RESET));
	if (!m->latency.count) {
		fputs("  no samples\n", r->out);
		fork_delay_line(r, m);
		max_delay_line(r, m, true);
		return;
	}
	fmt_duration(a, sizeof(a), sl_hist_percentile(&m->latency, 50));
	fmt_duration(b, sizeof(b), sl_hist_percentile(&m->latency, 99));
	fmt_duration(c, sizeof(c), m->latency.max);
	/* a narrow terminal breaks it between the values, not in one */
	fprintf(r->out, "  %" PRIu64 " wakeups: p50" SL_GLUE "%s, p99" SL_GLUE "%s, max" SL_GLUE "%s\n",
		m->latency.count, glued(a), glued(b), glued(c));
	worst_line(r, m, "worst", &m->latency_worst);
	fork_delay_line(r, m);
	max_delay_line(r, m, true);
}

/* "0-3,8" */
static void cpulist(FILE *out, const struct sl_cpuset *set)
{
	const char *sep = "";
	int nr = (int)set->nr_words * 64;

	for (int cpu = 0; cpu < nr; cpu++) {
		int last = cpu;

		if (!sl_cpuset_test(set, cpu))
			continue;
		while (last + 1 < nr && sl_cpuset_test(set, last + 1))
			last++;
		if (last > cpu)
			fprintf(out, "%s%d-%d", sep, cpu, last);
		else
			fprintf(out, "%s%d", sep, cpu);
		sep = ",";
		cpu = last;
	}
}

/* The window analyzed (--from/--to, within what was read) and the other filters. */
static void filter_lines(struct sl_report *r, struct sl_model *m)
{
	const struct sl_config *cfg = m->cfg;
	char a[32], b[32], d[32];

	if (cfg->from_set || cfg->to_set) {
		uint64_t from = cfg->from_set && cfg->from_ns > m->first_ts ? cfg->from_ns : m->first_ts;
		/* reading stops past --to: then the window ends at --to, not at the last event read */
		uint64_t to = cfg->to_set && (cfg->to_ns < m->last_ts || m->stopped_at_to) ?
			      cfg->to_ns : m->last_ts;

		if (to < from)
			to = from;
		fprintf(r->out, "  window   %s .. %s (%s) analyzed (--from/--to)\n",
			fmt_ts(a, sizeof(a), from), fmt_ts(b, sizeof(b), to),
			fmt_duration(d, sizeof(d), to - from));
	}
	if (!cfg->cpus.nr_words && !cfg->nr_pids && !cfg->nr_comms)
		return;
	fputs("  filters ", r->out);
	if (cfg->cpus.nr_words) {
		fputs(" --cpus ", r->out);
		cpulist(r->out, &cfg->cpus);
	}
	if (cfg->nr_pids) {
		fputs(" --pid ", r->out);
		for (size_t i = 0; i < cfg->nr_pids; i++)
			fprintf(r->out, "%s%d", i ? "," : "", cfg->pids[i]);
	}
	for (size_t i = 0; i < cfg->nr_comms; i++)
		fprintf(r->out, " --comm %s", cfg->comms[i]);
	fputc('\n', r->out);
}

/*
 * The hanging indent of a line too long for the report: under the value
 * of a "  label    value" line, else two columns in from the line's own.
 */
static int hang_of(const char *line)
{
	int lead = 0, i;

	while (line[lead] == ' ')
		lead++;
	for (i = lead; line[i] && line[i] != ' ' && i < lead + 14; i++)
		;
	if (line[i] == ' ' && line[i + 1] == ' ') {
		while (line[i] == ' ')
			i++;
		if (i <= lead + 16 && line[i])
			return i;
	}
	/* a paragraph's own continuation lines (deeply indented) keep their indentation */
	return lead >= 4 ? lead : lead + 2;
}

static void summary(struct sl_report *r, struct sl_model *m)
{
	fprintf(r->out, "%sschedlint %s%s — %s\n", sl_color(r, SL_C_BOLD), SCHEDLINT_VERSION,
		sl_color(r, SL_C_RESET), r->path);
	workload_line(r, m);
	summary_findings(r, m);
	for (int i = 0; i < m->nr_analyzers; i++) {
		struct sl_analyzer *a = m->analyzers[i];

		if (a->ops->report_summary)
			a->ops->report_summary(a, m, r);
	}
	summary_latency(r, m);
	trace_facts(r, m);
}

void sl_report_text_facts(struct sl_report *r, struct sl_model *m)
{
	trace_facts(r, m);
}

void sl_report_text_details(struct sl_report *r, struct sl_model *m)
{
	latency_section(r, m);
	histogram_section(r, m);
	cpus_section(r, m);
	tasks_section(r, m);
	for (int i = 0; i < m->nr_analyzers; i++) {
		struct sl_analyzer *a = m->analyzers[i];

		if (a->ops->report_text)
			a->ops->report_text(a, m, r);
	}
}

static void details(struct sl_report *r, struct sl_model *m)
{
	sl_report_text_details(r, m);
	findings_section(r, m);
}

void sl_report_text(struct sl_report *r, struct sl_model *m)
{
	FILE *out = r->out, *mem;
	char *text = NULL;
	size_t size = 0;

	if (r->top <= 0)
		r->top = 10;
	/* written whole, then every line fitted to the width */
	mem = open_memstream(&text, &size);
	if (!mem) {
		fputs("schedlint: out of memory\n", stderr);
		abort();
	}
	r->out = mem;
	summary(r, m);
	if (r->detail == SL_DETAIL_BRIEF)
		fprintf(r->out, "\n%s(the summary only: without --brief the detail sections follow)%s\n",
			sl_color(r, SL_C_DIM), sl_color(r, SL_C_RESET));
	else
		details(r, m);
	fclose(mem);
	r->out = out;
	for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		sl_fit_line(out, line, sl_report_width(r), hang_of(line));
	}
	free(text);
}
