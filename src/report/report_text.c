// SPDX-License-Identifier: GPL-2.0
/*
 * report_text.c - the terminal report
 *
 * Dense and in the order a scheduler developer reads: what the trace is,
 * what the wakeup latency was (schbench's table), where time went per CPU,
 * which tasks suffered, then each finding kind with the exact timestamps
 * to open in trace-cmd report or KernelShark.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/slice.h"
#include "report.h"
#include "schedlint/analyzer.h"
#include "schedlint/findings.h"
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
		fputs("one domain of all CPUs (the default: the trace does not say; see --llc)\n",
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

static void trace_facts(struct sl_report *r, struct sl_model *m)
{
	const struct sl_trace_info *info = m->info;
	char a[32], b[32], d[32];
	int ncpus = info->ncpus > m->nr_cpus ? info->ncpus : m->nr_cpus;

	fprintf(r->out, "%sschedlint %s%s — %s\n", sl_color(r, SL_C_BOLD), SCHEDLINT_VERSION,
		sl_color(r, SL_C_RESET), r->path);
	fprintf(r->out, "  trace    %s", sl_format_name(info->format));
	if (info->compression[0] && strcmp(info->compression, "none"))
		fprintf(r->out, " (%s)", info->compression);
	fprintf(r->out, ", %d CPUs", ncpus);
	if (info->kernel[0])
		fprintf(r->out, ", kernel %s", info->kernel);
	if (info->clock[0])
		fprintf(r->out, ", clock %s", info->clock);
	fputc('\n', r->out);
	llc_line(r, m);
	fprintf(r->out, "  span     %s .. %s (%s), %" PRIu64 " events\n",
		fmt_ts(a, sizeof(a), m->first_ts), fmt_ts(b, sizeof(b), m->last_ts),
		fmt_duration(d, sizeof(d), sl_dur(m->first_ts, m->last_ts)), m->nr_events);

	fputs("  events  ", r->out);
	for (int t = 1; t < SL_EV__COUNT; t++)
		if (m->type_counts[t] && t != SL_EV_LOST)
			fprintf(r->out, " %s %" PRIu64, sl_event_type_name(t), m->type_counts[t]);
	if (m->type_counts[SL_EV_OTHER])
		fprintf(r->out, " other %" PRIu64, m->type_counts[SL_EV_OTHER]);
	fputc('\n', r->out);

	if (m->lost_gaps) {
		fprintf(r->out, "  %slost     %" PRIu64 " events in %" PRIu64 " gaps:", sl_color(r, SL_C_YELLOW),
			m->lost_events, m->lost_gaps);
		int shown = 0;

		for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
			if (!m->cpus[cpu].lost_gaps || shown++ >= CPU_LIST_MAX)
				continue;
			if (m->cpus[cpu].lost_events)	/* else the input did not say how many */
				fprintf(r->out, " cpu%d %" PRIu64, cpu, m->cpus[cpu].lost_events);
			else
				fprintf(r->out, " cpu%d ?", cpu);
		}
		if (shown > CPU_LIST_MAX)
			fprintf(r->out, " and %d more CPUs", shown - CPU_LIST_MAX);
		fprintf(r->out, "%s\n           no latency or finding is computed across a gap"
			" (%" PRIu64 " wakeups not measured)\n", sl_color(r, SL_C_RESET),
			m->samples_dropped_gap);
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
		fprintf(r->out, "  note     %" PRIu64 " context switches are missing from the trace (",
			m->implied_switches);
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
	if (info->bad_lines)
		fprintf(r->out, "  %snote     %" PRIu64 " lines were not events (first: line %" PRIu64 ")%s\n",
			sl_color(r, SL_C_YELLOW), info->bad_lines, info->first_bad_line,
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

static void latency_section(struct sl_report *r, struct sl_model *m)
{
	sl_report_section(r, "Wakeup latency (waking -> running)");
	if (!m->latency.count) {
		fputs("  no wakeup-latency samples\n", r->out);
		inferred_rows(r, m);
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
	inferred_rows(r, m);
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
 * Histogram: one row per 1-2-5 step (1us, 2us, 5us, 10us, ...), the way
 * people read latencies, with bars scaled to the fullest row.
 */
static void histogram_section(struct sl_report *r, struct sl_model *m)
{
	uint64_t bounds[64], rows[64] = { 0 }, maxc = 0;
	struct sl_hist_iter it = { 0 };
	uint64_t lo, hi, c, b = 1;
	int nr = 0, first = -1, last = -1;
	char a[32];

	if (!m->latency.count)
		return;
	for (int i = 0; nr < 60 && b < UINT64_MAX / 10; i++) {
		static const int steps[] = { 1, 2, 5 };

		bounds[nr++] = b * (uint64_t)steps[i % 3];
		if (i % 3 == 2)
			b *= 10;
	}
	while (sl_hist_next(&m->latency, &it, &lo, &hi, &c)) {
		int row = 0;

		while (row + 1 < nr && bounds[row + 1] <= lo)
			row++;
		rows[row] += c;
	}
	for (int i = 0; i < nr; i++) {
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
		fprintf(r->out, "  %6s .. |", short_ns(a, sizeof(a), bounds[i]));
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

static void cpus_section(struct sl_report *r, struct sl_model *m)
{
	char a[32];
	bool marked = false;

	sl_report_section(r, "CPUs");
	fprintf(r->out, "  %scpu  utilization                  busy  switches  wakeups  maxq  meanq      p99 lat%s\n",
		sl_color(r, SL_C_DIM), sl_color(r, SL_C_RESET));
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sl_cpu *c = &m->cpus[cpu];
		uint64_t known = c->busy_ns + c->idle_ns;
		double util = known ? (double)c->busy_ns / (double)known : 0;

		if (!sl_filter_cpu(m->cfg, cpu))
			continue;
		fprintf(r->out, "  %3d  ", cpu);
		fputs(sl_color(r, util > 0.9 ? SL_C_RED : SL_C_GREEN), r->out);
		bar(r, util, 24);
		fputs(sl_color(r, SL_C_RESET), r->out);
		fprintf(r->out, " %5.1f%% %8" PRIu64 "%c %8" PRIu64 " %5u %6.2f %8s\n", util * 100,
			c->switches, mostly_inferred(m, c) ? '*' : ' ', c->wakeups, c->max_queue,
			known ? (double)c->queue_area / (double)known : 0.0,
			c->latency.count ? fmt_duration(a, sizeof(a), sl_hist_percentile(&c->latency, 99)) : "-");
		marked |= mostly_inferred(m, c);
	}
	if (marked)
		fputs("  * most of its switches or switch-ins are inferred (not in the trace):\n"
		      "    the latencies that end there are lower bounds\n", r->out);
}

/* A task and its p99, computed once: a percentile walks the histogram. */
struct task_p99 {
	const struct sl_task *t;
	uint64_t p99;
};

static int by_p99_desc(const void *a, const void *b)
{
	const struct task_p99 *x = a, *y = b;

	if (x->p99 != y->p99)
		return x->p99 < y->p99 ? 1 : -1;
	return x->t->pid - y->t->pid;
}

/* Which of the tasks shown have lower-bound samples, and how many of theirs. */
static void inferred_tasks(struct sl_report *r, struct sl_model *m,
			   const struct task_p99 *list, size_t n)
{
	const char *lead = m->cfg->exclude_inferred ? "  left out, lower bounds:"
						    : "  of which lower bounds:";
	int col = 0;

	for (size_t i = 0; i < n; i++) {
		const struct sl_task *t = list[i].t;
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

static void tasks_section(struct sl_report *r, struct sl_model *m)
{
	struct task_p99 *list = xcalloc(m->nr_tasks + 1, sizeof(*list));
	size_t n = 0;
	char b[6][32];

	for (uint32_t i = 0; i < m->nr_tasks; i++)
		if (m->tasks[i]->latency.count && sl_filter_task(m->cfg, m->strtab, m->tasks[i]))
			list[n++] = (struct task_p99){ m->tasks[i], sl_hist_percentile(&m->tasks[i]->latency, 99) };
	if (!n) {
		free(list);
		return;
	}
	qsort(list, n, sizeof(*list), by_p99_desc);
	sl_report_section(r, "Tasks by wakeup-latency p99");
	fprintf(r->out, "  %s%-24s %7s %8s %8s %8s %9s %9s %6s %6s%s\n", sl_color(r, SL_C_DIM),
		"task", "wakeups", "p50", "p99", "max", "run", "wait", "preem", "migr",
		sl_color(r, SL_C_RESET));
	for (size_t i = 0; i < n && i < (size_t)r->top; i++) {
		const struct sl_task *t = list[i].t;
		char name[40];

		snprintf(name, sizeof(name), "%s:%d", sl_task_comm(m, t), t->pid);
		fprintf(r->out, "  %-24s %7" PRIu64 " %8s %8s %8s %9s %9s %6" PRIu64 " %6" PRIu64 "\n",
			name, t->latency.count,
			sl_report_cell(b[0], 32, sl_hist_percentile(&t->latency, 50)),
			sl_report_cell(b[1], 32, list[i].p99),
			sl_report_cell(b[2], 32, t->latency.max), fmt_duration(b[3], 32, t->run_ns),
			fmt_duration(b[4], 32, t->wait_ns), t->preemptions, t->migrations);
	}
	if (n > (size_t)r->top)
		fprintf(r->out, "  ... %zu more tasks with wakeups (--json lists all)\n", n - (size_t)r->top);
	inferred_tasks(r, m, list, MIN(n, (size_t)r->top));
	free(list);
}

static void findings_section(struct sl_report *r, struct sl_model *m)
{
	const struct sl_findings *fs = m->findings;
	char a[32], b[32], ts[32], msg[512];
	size_t nr, shown = 0;
	const struct sl_finding *f;

	sl_report_section(r, "Findings");
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		const struct sl_kind_summary *s = &fs->summary[k];
		bool bad = s->count && sl_kinds[k].listed;

		fprintf(r->out, "  %s%-20s %7" PRIu64 "%s", sl_color(r, bad ? SL_C_RED : SL_C_RESET),
			sl_kinds[k].name, s->count, sl_color(r, SL_C_RESET));
		if (s->count)
			fprintf(r->out, "   total %9s   worst %9s", fmt_duration(a, sizeof(a), s->cost),
				fmt_duration(b, sizeof(b), s->max_cost));
		if (!s->count)
			fprintf(r->out, "%*s", 43, "");
		fprintf(r->out, "   %s%s%s\n", sl_color(r, SL_C_DIM), sl_kinds[k].what,
			sl_color(r, SL_C_RESET));
	}

	f = sl_findings_sorted(m->findings, &nr);
	if (!nr)
		return;
	fprintf(r->out, "\n  most costly (timestamps as trace-cmd report prints them):\n");
	for (size_t i = 0; i < nr && shown < (size_t)r->top; i++, f++, shown++) {
		sl_finding_message(f, m, msg, sizeof(msg));
		fprintf(r->out, "  %s%s%s cpu%-3d %-18s %s%9s%s  %s:%d  %s\n", sl_color(r, SL_C_BOLD),
			fmt_ts(ts, sizeof(ts), f->ts), sl_color(r, SL_C_RESET), f->cpu,
			sl_kinds[f->kind].name, sl_color(r, SL_C_YELLOW),
			fmt_duration(a, sizeof(a), f->cost), sl_color(r, SL_C_RESET),
			sl_str(m->strtab, f->comm), f->pid, msg);
	}
	if (fs->dropped)
		fprintf(r->out, "  (lists keep the %zu most costly findings; summaries count all)\n",
			fs->max);
}

void sl_report_text(struct sl_report *r, struct sl_model *m)
{
	if (r->top <= 0)
		r->top = 10;
	trace_facts(r, m);
	latency_section(r, m);
	histogram_section(r, m);
	cpus_section(r, m);
	tasks_section(r, m);
	for (int i = 0; i < m->nr_analyzers; i++) {
		struct sl_analyzer *a = m->analyzers[i];

		if (a->ops->report_text)
			a->ops->report_text(a, m, r);
	}
	findings_section(r, m);
}
