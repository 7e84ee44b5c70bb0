// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_common.c - reading a fuzzed trace the way analyze does, and the
 * state model's invariants
 */
#define _GNU_SOURCE
#include <cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "report/report.h"
#include "schedlint/analysis.h"
#include "schedlint/analyzer.h"
#include "schedlint/findings.h"
#include "schedlint/report.h"

/* cmd_dump.c */
void sl_dump_event(FILE *f, const struct sl_strtab *st, const struct sl_event *ev);

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz: invariant broken: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static FILE *devnull(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		fuzz_fail("cannot open /dev/null");
	return f;
}

const char *fuzz_memfile(const uint8_t *data, size_t size, int *fd)
{
	static char path[64];
	size_t done = 0;

	*fd = memfd_create("fuzz-input", MFD_CLOEXEC);
	if (*fd < 0)
		fuzz_fail("memfd_create: %s", strerror(errno));
	while (done < size) {
		ssize_t n = write(*fd, data + done, size - done);

		if (n <= 0)
			fuzz_fail("write to memfd: %s", strerror(errno));
		done += (size_t)n;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", *fd);
	return path;
}

void fuzz_reports(struct sl_model *m)
{
	struct sl_report r = { .out = devnull(), .color = true, .path = "fuzz", .top = 3 };
	cJSON *root;
	char *text;

	sl_report_text(&r, m);
	r.color = false;
	r.top = 10;
	sl_report_text(&r, m);
	root = sl_report_json(m, "fuzz");
	text = cJSON_PrintBuffered(root, 1 << 12, 1);
	if (!text)
		fuzz_fail("the JSON report does not print");
	/* it must parse back: no NaN, no broken strings */
	cJSON *back = cJSON_Parse(text);

	if (!back)
		fuzz_fail("the JSON report does not parse: %.200s", text);
	cJSON_Delete(back);
	free(text);
	cJSON_Delete(root);
	fflush(r.out);
}

/* An event as a reader may hand it downstream. */
static void check_event(const struct sl_reader *r, const struct sl_event *ev)
{
	if (ev->type >= SL_EV__COUNT)
		fuzz_fail("event type %u", ev->type);
	if (ev->cpu < 0 || ev->cpu > 65535)
		fuzz_fail("%s event on CPU %d", sl_event_type_name(ev->type), ev->cpu);
	if (r->info.ncpus > 0 && r->info.format == SL_FMT_DAT6 && ev->cpu >= r->info.ncpus)
		fuzz_fail("event on CPU %d of a %d-CPU trace.dat", ev->cpu, r->info.ncpus);
	if (ev->name >= sl_strtab_count(r->strtab))
		fuzz_fail("event name id %u of %u", ev->name, sl_strtab_count(r->strtab));
}

void fuzz_read_and_analyze(const char *path, const struct sl_read_opts *opts)
{
	struct sl_strtab *st = sl_strtab_new();
	struct sl_error err = { "" };
	struct sl_reader *r;
	struct sl_config cfg;
	struct sl_trace_info info;
	struct sl_model *m;
	struct sl_event ev;
	int ret;

	sl_config_init(&cfg);
	cfg.max_findings = 5;
	if (opts)
		cfg.read = *opts;
	ret = sl_reader_open(path, &cfg.read, st, &r, &err);
	if (ret < 0) {
		if (!err.msg[0])
			fuzz_fail("open failed (%d) without a message", ret);
		goto out;
	}
	info = r->info;
	m = sl_model_new(&cfg, st, &info);
	while ((ret = sl_reader_next(r, &ev)) > 0) {
		check_event(r, &ev);
		sl_dump_event(devnull(), st, &ev);
		sl_model_feed(m, &ev);
		info = r->info;
	}
	if (ret < 0 && !err.msg[0])
		fuzz_fail("next() failed (%d) without a message", ret);
	info = r->info;
	sl_reader_close(r);
	if (ret == 0) {
		sl_model_finish(m);
		fuzz_check_finished(m);
		fuzz_reports(m);
	}
	sl_model_free(m);
out:
	sl_strtab_free(st);
	sl_config_free(&cfg);
}

/* --- the state model's invariants --- */

static const char *state_name(int s)
{
	static const char *const names[] = {
		"unknown", "running", "queued", "pending", "waking", "blocked", "new", "dead",
	};
	return s >= 0 && s < (int)(sizeof(names) / sizeof(names[0])) ? names[s] : "?";
}

/* Walk one list of c: linked both ways, as long as its count, holding tasks in state. */
static void check_list(const struct sl_model *m, const struct sl_cpu *c, const struct sl_task *head,
		       uint32_t nr, int state, uint8_t *seen, const char *what)
{
	const struct sl_task *prev = NULL;
	uint32_t n = 0;

	for (const struct sl_task *t = head; t; prev = t, t = t->q_next) {
		if (++n > m->nr_tasks)
			fuzz_fail("CPU %d: %s list loops", c->cpu, what);
		if (t->q_prev != prev)
			fuzz_fail("CPU %d: %s list: pid %d's back link is wrong", c->cpu, what, t->pid);
		if (t->state != state)
			fuzz_fail("CPU %d: pid %d on the %s list is %s", c->cpu, t->pid, what,
				  state_name(t->state));
		if (t->cpu != c->cpu)
			fuzz_fail("CPU %d: pid %d on its %s list says CPU %d", c->cpu, t->pid, what, t->cpu);
		if (seen[t->index]++)
			fuzz_fail("pid %d is in two places (again on CPU %d's %s list)", t->pid, c->cpu, what);
	}
	if (n != nr)
		fuzz_fail("CPU %d: %u tasks on the %s list, nr = %u", c->cpu, n, what, nr);
}

void fuzz_check_model(const struct sl_model *m)
{
	static uint8_t *seen;
	static size_t seen_alloc;
	uint64_t span = m->last_ts - m->first_ts;

	if (!seen || m->nr_tasks > seen_alloc) {
		seen_alloc = m->nr_tasks * 2 + 64;
		free(seen);
		seen = malloc(seen_alloc);
		if (!seen)
			fuzz_fail("out of memory");
	}
	memset(seen, 0, m->nr_tasks);
	if (m->last_ts < m->first_ts || m->now != m->last_ts)
		fuzz_fail("time: first %llu last %llu now %llu", (unsigned long long)m->first_ts,
			  (unsigned long long)m->last_ts, (unsigned long long)m->now);

	for (int i = 0; i < m->nr_cpus; i++) {
		const struct sl_cpu *c = &m->cpus[i];

		if (c->cpu != i)
			fuzz_fail("CPU %d calls itself %d", i, c->cpu);
		if ((int32_t)c->nr_queued < 0 || (int32_t)c->nr_pending < 0)
			fuzz_fail("CPU %d: negative depth (queued %d, pending %d)", i,
				  (int32_t)c->nr_queued, (int32_t)c->nr_pending);
		check_list(m, c, c->queued, c->nr_queued, SL_TASK_QUEUED, seen, "queued");
		check_list(m, c, c->pending, c->nr_pending, SL_TASK_PENDING, seen, "pending");
		if (c->curr) {
			if (!c->known)
				fuzz_fail("CPU %d runs pid %d but is not known", i, c->curr->pid);
			if (c->curr->state != SL_TASK_RUNNING || c->curr->cpu != i)
				fuzz_fail("CPU %d runs pid %d, which is %s on CPU %d", i, c->curr->pid,
					  state_name(c->curr->state), c->curr->cpu);
			if (seen[c->curr->index]++)
				fuzz_fail("pid %d runs on CPU %d and is somewhere else too", c->curr->pid, i);
		}
		if (c->idle != sl_cpu_is_idle(c))
			fuzz_fail("CPU %d: idle flag %d, sl_cpu_is_idle() %d", i, c->idle, sl_cpu_is_idle(c));
		if (c->busy_ns > span || c->idle_ns > span || c->busy_ns + c->idle_ns > span)
			fuzz_fail("CPU %d: busy %llu + idle %llu ns in a %llu ns trace", i,
				  (unsigned long long)c->busy_ns, (unsigned long long)c->idle_ns,
				  (unsigned long long)span);
		if (c->curr_since > m->now || c->queue_since > m->now || c->last_event_ts > m->now)
			fuzz_fail("CPU %d: a time after now", i);
		if (c->latency.count && c->latency.max > span)
			fuzz_fail("CPU %d: a latency of %llu ns in a %llu ns trace", i,
				  (unsigned long long)c->latency.max, (unsigned long long)span);
	}
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		const struct sl_task *t = m->tasks[i];

		if (t->index != i)
			fuzz_fail("task %u has index %u", i, t->index);
		switch (t->state) {
		case SL_TASK_RUNNING:
		case SL_TASK_QUEUED:
		case SL_TASK_PENDING:
			if (!seen[i])
				fuzz_fail("pid %d is %s on CPU %d but on no CPU's list", t->pid,
					  state_name(t->state), t->cpu);
			break;
		default:
			if (seen[i])
				fuzz_fail("pid %d is %s but on a CPU's list", t->pid, state_name(t->state));
			if (t->q_next || t->q_prev)
				fuzz_fail("pid %d is %s but still linked", t->pid, state_name(t->state));
			break;
		}
		if (t->since > m->now || t->runnable_since > m->now)
			fuzz_fail("pid %d: a time after now", t->pid);
		if (t->run_ns > span || t->wait_ns > span || t->run_ns + t->wait_ns > span)
			fuzz_fail("pid %d: ran %llu + waited %llu ns in a %llu ns trace", t->pid,
				  (unsigned long long)t->run_ns, (unsigned long long)t->wait_ns,
				  (unsigned long long)span);
		if (t->latency.count && t->latency.max > span)
			fuzz_fail("pid %d: a latency of %llu ns in a %llu ns trace", t->pid,
				  (unsigned long long)t->latency.max, (unsigned long long)span);
	}
	{
		struct sl_hist lat;	/* m->latency is made at the end: the samples so far */

		sl_model_latency_now(m, &lat);
		if (lat.count && lat.max > span)
			fuzz_fail("a latency of %llu ns in a %llu ns trace",
				  (unsigned long long)lat.max, (unsigned long long)span);
		sl_hist_free(&lat);
	}
}

void fuzz_check_finished(struct sl_model *m)
{
	uint64_t span = m->last_ts - m->first_ts;
	const struct sl_finding *f;
	size_t nr;

	fuzz_check_model(m);
	/* issue 29: the class rows hold every sample once; no wait is longer than the trace */
	{
		uint64_t by_class = 0;

		for (int k = 0; k < SL_CLASS__NR; k++)
			by_class += m->latency_class[k].count;
		if (by_class != m->latency.count)
			fuzz_fail("%llu samples by class, %llu in all", (unsigned long long)by_class,
				  (unsigned long long)m->latency.count);
		if (m->wait_worst.to && (m->wait_worst.wait > span || m->wait_worst.from > m->wait_worst.to))
			fuzz_fail("a runnable wait of %llu ns in a %llu ns trace",
				  (unsigned long long)m->wait_worst.wait, (unsigned long long)span);
		if (m->fork_delay.count && m->fork_delay.max > span)
			fuzz_fail("a fork delay of %llu ns in a %llu ns trace",
				  (unsigned long long)m->fork_delay.max, (unsigned long long)span);
	}
	/*
	 * Without filters, the tasks ran exactly as long as the CPUs were
	 * busy; the workload a trace names (a filter too) ran at most as long.
	 */
	if (!m->cfg->cpus.nr_words && !m->cfg->nr_pids && !m->cfg->nr_comms &&
	    !m->cfg->from_set && !m->cfg->to_set) {
		uint64_t run = 0, busy = 0;

		for (uint32_t i = 0; i < m->nr_tasks; i++)
			run += m->tasks[i]->run_ns;
		for (uint32_t i = 0; i < m->nr_folded; i++)
			run += m->folded[i].run_ns;	/* dead tasks folded (--keep-tasks) */
		for (int i = 0; i < m->nr_cpus; i++)
			busy += m->cpus[i].busy_ns;
		if (m->cfg->workload_active ? run > busy : run != busy)
			fuzz_fail("the tasks ran %llu ns, the CPUs were busy %llu ns",
				  (unsigned long long)run, (unsigned long long)busy);
	}
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		const struct sl_kind_summary *s = &m->findings->summary[k];

		if (s->max_cost > span)
			fuzz_fail("%s: a cost of %llu ns in a %llu ns trace", sl_kinds[k].name,
				  (unsigned long long)s->max_cost, (unsigned long long)span);
		if (s->max_cost > s->cost)
			fuzz_fail("%s: max cost above the total", sl_kinds[k].name);
		/* every finding counted is kept or dropped (also after late-preemption's split) */
		if (sl_kinds[k].listed &&
		    m->findings->lists[k].nr + m->findings->lists[k].dropped != s->count)
			fuzz_fail("%s: %zu kept and %llu dropped of %llu", sl_kinds[k].name,
				  m->findings->lists[k].nr,
				  (unsigned long long)m->findings->lists[k].dropped,
				  (unsigned long long)s->count);
	}
	f = sl_findings_sorted(m->findings, &nr);
	for (size_t i = 0; i < nr; i++) {
		if (f[i].kind >= SL_KIND__COUNT)
			fuzz_fail("finding of kind %u", f[i].kind);
		if (f[i].cost > span)
			fuzz_fail("%s finding costs %llu ns in a %llu ns trace", sl_kinds[f[i].kind].name,
				  (unsigned long long)f[i].cost, (unsigned long long)span);
		if (f[i].ts < m->first_ts || f[i].ts > m->last_ts)
			fuzz_fail("%s finding at %llu, outside the trace [%llu, %llu]",
				  sl_kinds[f[i].kind].name, (unsigned long long)f[i].ts,
				  (unsigned long long)m->first_ts, (unsigned long long)m->last_ts);
		if (i && f[i].cost > f[i - 1].cost)
			fuzz_fail("findings not sorted by cost");
	}
}
