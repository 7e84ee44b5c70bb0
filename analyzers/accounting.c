// SPDX-License-Identifier: GPL-2.0
/*
 * accounting.c - how tasks run and sleep, how CPUs idle, where tasks move
 *
 * What perf sched timehist -s and perf sched map tell a scheduler
 * developer besides latency, from the same trace:
 *
 *  - per task, the length of each run (switch-in to switch-out: p50, p99,
 *    max), the time it slept by the state it slept in (S interruptible,
 *    D uninterruptible - I/O, locks -, other: T, t, I, ...), and the time
 *    it waited runnable (the model's wait_ns);
 *  - per CPU, the length of each idle period (a run of its idle task,
 *    switch to switch, as perf sched timehist -I shows them);
 *  - per task, how often it ran on another CPU than the time before
 *    ("moves": what perf sched map shows as a task changing columns),
 *    and the CPUs it ran on; sched_migrate_task events are counted apart
 *    by the model (tasks[].migrations).
 *
 * Definitions: a sleep starts at a switch-out that leaves the task
 * blocked (prev_state not runnable) and ends when the model makes it
 * runnable again (its waking, or its wakeup without one), or at its next
 * switch-in if the trace showed no wakeup, or at the end of the trace.
 * A run or idle period counts when it ends inside --from/--to, a sleep
 * with its part inside; the tasks' filters (--pid, --comm) select the
 * tasks listed, --cpus the CPUs.
 *
 * Blind spots: a run or sleep that started before the trace (or before a
 * CPU's lost events) is not measured; a task's sleep state is the letter
 * sched_switch printed, so a task killed in D shows as D.
 */
#include <cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/analyzer.h"
#include "schedlint/report.h"
#include "util/top.h"
#include "util/util.h"

#define ACCT_MAX_CPUS	8	/* distinct CPUs kept per task; more are counted */

enum { SLEEP_S, SLEEP_D, SLEEP_OTHER, SLEEP__NR };
static const char *const sleep_json[SLEEP__NR] = { "S", "D", "other" };

/*
 * What a switch touches comes first, in one cache line: the slots of
 * hundreds of tasks do not stay in the cache, and each line a switch
 * touches is a miss (this analyzer cost 15% of analyze's CPU time on a
 * hackbench perf.data before the layout and the work per switch shrank).
 */
struct acct_task {
	uint64_t blocked_since;		/* a sleep in progress began here (when blocked) */
	uint64_t moves;			/* switch-ins on another CPU than its last run's */
	int32_t last_cpu;		/* CPU of its last run */
	uint32_t nr_cpus;		/* CPUs it ran on (may exceed ACCT_MAX_CPUS) */
	bool blocked;			/* asleep since blocked_since */
	uint8_t blocked_state;		/* SLEEP_* of that sleep */
	bool ran;			/* last_cpu is valid */
	int32_t cpus[ACCT_MAX_CPUS];	/* the CPUs it ran on, in order of first run */
	struct sl_hist run_len;		/* its runs that ended in the window */
	uint64_t sleep_ns[SLEEP__NR];	/* time blocked, by state */
};

struct acct_cpu {
	struct sl_hist idle_len;	/* its idle periods that ended in the window */
	uint64_t idle_since;		/* an idle period began here (when idle) */
	bool idle;			/* running its idle task since idle_since */
};

struct acct_priv {
	uint64_t moves;			/* of the listed tasks */
	struct sl_hist folded_run_len;	/* the runs of listed tasks the model folded */
	bool all_in;			/* no --cpus, --from or --to: every switch counts */
};

static uint8_t sleep_state(char letter)
{
	return letter == 'S' ? SLEEP_S : letter == 'D' ? SLEEP_D : SLEEP_OTHER;
}

/* end_sleep - t's sleep ends at ts: add its part inside the window */
static inline __attribute__((always_inline)) void end_sleep(struct sl_model *m, struct acct_task *at,
							     uint64_t ts)
{
	if (!at->blocked)
		return;
	if (ts > at->blocked_since)
		at->sleep_ns[at->blocked_state] += sl_filter_clip(m->cfg, at->blocked_since, ts);
	at->blocked = false;
}

static void note_cpu(struct acct_task *at, int32_t cpu)
{
	uint32_t kept = MIN(at->nr_cpus, (uint32_t)ACCT_MAX_CPUS);

	for (uint32_t i = 0; i < kept; i++)
		if (at->cpus[i] == cpu)
			return;
	if (at->nr_cpus < ACCT_MAX_CPUS)
		at->cpus[at->nr_cpus] = cpu;
	at->nr_cpus++;	/* past the array: counted, not named (may count one twice) */
}

/*
 * woken_at - when t's sleep ended, for a switch-in (or the end) at ts:
 * its latest waking (the model's wake_ts: its sched_waking, or its
 * sched_wakeup without one) when that came during the sleep, else ts
 * (the trace showed no wakeup).  Taken at the switch-in rather than at
 * the wakeup: one visit to the task's slot instead of two.
 */
static uint64_t woken_at(const struct sl_task *t, const struct acct_task *at, uint64_t ts)
{
	return t->wake_ts >= at->blocked_since && t->wake_ts <= ts ? t->wake_ts : ts;
}

/* acct_switch - a run ends (prev), a run starts (next); idle is a run of the idle task */
static void acct_switch(struct sl_analyzer *a, struct sl_model *m, const struct sl_switch_info *sw)
{
	struct acct_priv *p = a->priv;
	struct acct_cpu *ac = sl_cpu_priv(m, a, sw->cpu);
	bool in_time = p->all_in || sl_filter_time(m->cfg, sw->ts);
	bool counted = p->all_in || (in_time && sl_filter_cpu(m->cfg, sw->cpu));	/* a run or idle ending here */

	if (!sw->prev && sw->prev_known && ac->idle && sw->ts >= ac->idle_since && counted)
		sl_hist_add(&ac->idle_len, sw->ts - ac->idle_since);
	ac->idle = !sw->next;
	ac->idle_since = sw->ts;

	if (sw->prev) {
		struct acct_task *at = sl_task_priv(m, a, sw->prev);

		if (sw->prev_ran_since && sw->prev_ran_since <= sw->ts && counted)
			sl_hist_add_held(&at->run_len, sw->ts - sw->prev_ran_since);
		/* its last run: the compact form, as the model's latency histogram */
		if (sw->prev_class == SL_PREV_DEAD)
			sl_hist_compact(&at->run_len);
		if (sw->prev->state == SL_TASK_BLOCKED) {
			at->blocked = true;
			at->blocked_since = sw->ts;
			at->blocked_state = sleep_state(sw->prev->block_letter);
		}
	}
	if (sw->next) {
		struct acct_task *at = sl_task_priv(m, a, sw->next);

		if (at->blocked)
			end_sleep(m, at, woken_at(sw->next, at, sw->ts));
		if (at->ran && at->last_cpu == sw->cpu && at->nr_cpus <= ACCT_MAX_CPUS)
			return;		/* again where it ran last: that CPU is noted */
		if (at->ran && at->last_cpu != sw->cpu && in_time) {
			at->moves++;
			if (sl_filter_task(m->cfg, m->strtab, sw->next))
				p->moves++;
		}
		at->ran = true;
		at->last_cpu = sw->cpu;
		note_cpu(at, sw->cpu);
	}
}

static int acct_init(struct sl_analyzer *a, struct sl_model *m)
{
	struct acct_priv *p = a->priv;

	p->all_in = m->cfg->no_time_filter && !m->cfg->cpus.nr_words;
	return 0;
}
static void acct_cpu_unknown(struct sl_analyzer *a, struct sl_model *m, int cpu,
			     uint64_t gap_start, uint64_t ts)
{
	((struct acct_cpu *)sl_cpu_priv(m, a, cpu))->idle = false;
}

static void acct_finish(struct sl_analyzer *a, struct sl_model *m)
{
	/*
	 * sleeps still going on: until the waking of a task woken but not yet
	 * run, else the end; a task that died asleep (its pid reused by a
	 * fork, no exit seen: the model's since) sleeps no longer than its life
	 */
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		struct sl_task *t = m->tasks[i];
		struct acct_task *at;

		if (t->frozen)
			continue;	/* not blocked: acct_task_in_use() */
		at = sl_task_priv(m, a, t);
		if (at->blocked)
			end_sleep(m, at, t->state == SL_TASK_BLOCKED ? m->last_ts :
				  woken_at(t, at, t->state == SL_TASK_DEAD ? t->since : m->last_ts));
	}
}

/* --- report --- */

static uint64_t sleep_total(const struct acct_task *at)
{
	return at->sleep_ns[SLEEP_S] + at->sleep_ns[SLEEP_D] + at->sleep_ns[SLEEP_OTHER];
}

/*
 * A listed task in one of the text report's top lists: its index (a
 * frozen one is read through sl_kept_task()) and what orders it.
 */
struct acct_listed {
	uint64_t key;		/* the list's measure: run time, or CPU moves */
	uint64_t tie;		/* the CPU moves' list: its run time (the runs' list: 0) */
	uint32_t i;
	int32_t pid;
};

/*
 * by_rank - the largest key first, then the lowest pid, then the largest
 * tie, then the lowest index.  A total order: the lists are what two
 * stable sorts of all listed tasks gave (by run time, then by moves), in
 * memory for --top tasks (sl_top), not for every task.
 */
static int by_rank(const void *x, const void *y)
{
	const struct acct_listed *a = x, *b = y;

	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tie != b->tie)
		return a->tie > b->tie ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static bool listed(const struct sl_model *m, const struct sl_task *t, const struct acct_task *at)
{
	return t->pid > 0 && sl_filter_task(m->cfg, m->strtab, t) &&
	       (at->run_len.count || sleep_total(at) || at->moves);
}

/*
 * top_lists - the listed tasks that ran longest (runs) and those that
 * moved most (moves: only those that moved), n of each at most, in order
 */
static void top_lists(struct sl_analyzer *a, struct sl_model *m, size_t n,
		      struct sl_top *runs, struct sl_top *moves)
{
	sl_top_init(runs, n, sizeof(struct acct_listed), by_rank);
	sl_top_init(moves, n, sizeof(struct acct_listed), by_rank);
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		const struct sl_task *t = sl_kept_task(m, i);
		const struct acct_task *at = sl_task_priv(m, a, t);

		if (!listed(m, t, at))
			continue;
		sl_top_add(runs, &(struct acct_listed){ t->run_ns, 0, i, t->pid });
		if (at->moves)
			sl_top_add(moves, &(struct acct_listed){ at->moves, t->run_ns, i, t->pid });
	}
	sl_top_sort(runs);
	sl_top_sort(moves);
}

/* "comm:pid" in width columns at most: the comm is cut, never the pid */
static void task_name(char *buf, int width, const struct sl_model *m, const struct sl_task *t)
{
	char pid[16];
	int room = width - snprintf(pid, sizeof(pid), ":%d", t->pid);

	snprintf(buf, (size_t)width + 1, "%.*s%s", room > 0 ? room : 0, sl_str(m->strtab, t->comm), pid);
}

/* "0-3,7" of at's CPUs into buf */
static const char *cpu_list(const struct acct_task *at, char *buf, size_t len)
{
	uint32_t kept = MIN(at->nr_cpus, (uint32_t)ACCT_MAX_CPUS);
	int32_t sorted[ACCT_MAX_CPUS];
	size_t pos = 0;

	memcpy(sorted, at->cpus, kept * sizeof(*sorted));
	for (uint32_t i = 1; i < kept; i++)
		for (uint32_t j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			int32_t tmp = sorted[j];

			sorted[j] = sorted[j - 1];
			sorted[j - 1] = tmp;
		}
	buf[0] = '\0';
	for (uint32_t i = 0; i < kept && pos < len; i++) {
		uint32_t j = i;

		while (j + 1 < kept && sorted[j + 1] == sorted[j] + 1)
			j++;
		pos += (size_t)snprintf(buf + pos, len - pos, "%s%d", i ? "," : "", sorted[i]);
		if (j > i && pos < len)
			pos += (size_t)snprintf(buf + pos, len - pos, "-%d", sorted[j]);
		i = j;
	}
	if (at->nr_cpus > ACCT_MAX_CPUS && pos < len)
		snprintf(buf + pos, len - pos, " +%u", at->nr_cpus - ACCT_MAX_CPUS);
	return buf;
}

static void acct_report_text(struct sl_analyzer *a, struct sl_model *m, struct sl_report *r)
{
	struct sl_top runs, moves;
	const struct acct_listed *run_v, *move_v;
	char c[6][16], name[32], cpus[64];
	bool any_idle = false;

	top_lists(a, m, (size_t)r->top, &runs, &moves);
	run_v = (const struct acct_listed *)runs.v;
	move_v = (const struct acct_listed *)moves.v;
	if (runs.nr) {
		sl_report_section(r, "Runs and sleeps (the tasks that ran longest)");
		fprintf(r->out, "  %-16s %6s %8s %8s %8s %8s %8s %8s\n", "task", "runs",
			"run p50", "run p99", "run max", "slept S", "slept D", "waited");
		for (size_t i = 0; i < runs.nr; i++) {
			const struct sl_task *t = sl_kept_task(m, run_v[i].i);
			const struct acct_task *at = sl_task_priv(m, a, t);

			task_name(name, 16, m, t);
			fprintf(r->out, "  %-16s %6" PRIu64 " %8s %8s %8s %8s %8s %8s\n", name,
				at->run_len.count,
				sl_report_cell(c[0], 16, sl_hist_percentile(&at->run_len, 50)),
				sl_report_cell(c[1], 16, sl_hist_percentile(&at->run_len, 99)),
				sl_report_cell(c[2], 16, at->run_len.max),
				sl_report_cell(c[3], 16, at->sleep_ns[SLEEP_S]),
				sl_report_cell(c[4], 16, at->sleep_ns[SLEEP_D]),
				sl_report_cell(c[5], 16, t->wait_ns));
		}
	}
	for (int cpu = 0; cpu < m->nr_cpus; cpu++)
		any_idle |= ((struct acct_cpu *)sl_cpu_priv(m, a, cpu))->idle_len.count > 0;
	if (any_idle) {
		sl_report_section(r, "Idle periods (per CPU)");
		fprintf(r->out, "  %-5s %8s %8s %8s %8s %10s\n", "cpu", "periods", "p50", "p99",
			"max", "idle");
		for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
			const struct sl_hist *h = &((struct acct_cpu *)sl_cpu_priv(m, a, cpu))->idle_len;

			if (!h->count)
				continue;
			fprintf(r->out, "  %-5d %8" PRIu64 " %8s %8s %8s %10s\n", cpu, h->count,
				sl_report_cell(c[0], 16, sl_hist_percentile(h, 50)),
				sl_report_cell(c[1], 16, sl_hist_percentile(h, 99)),
				sl_report_cell(c[2], 16, h->max),
				sl_report_cell(c[3], 16, h->sum));
		}
	}
	if (moves.nr) {
		sl_report_section(r, "CPU moves (a run on another CPU than the one before)");
		fprintf(r->out, "  %-24s %8s %10s  %s\n", "task", "moves", "migrations", "ran on CPUs");
		for (size_t i = 0; i < moves.nr; i++) {
			const struct sl_task *t = sl_kept_task(m, move_v[i].i);
			const struct acct_task *at = sl_task_priv(m, a, t);

			task_name(name, 24, m, t);
			fprintf(r->out, "  %-24s %8" PRIu64 " %10" PRIu64 "  %.30s\n", name, at->moves,
				t->migrations, cpu_list(at, cpus, sizeof(cpus)));
		}
	}
	sl_top_free(&runs);
	sl_top_free(&moves);
}

/* The listed tasks' rows in the order of their index, one at a time (sl_json_add_list()) */
struct acct_rows {
	struct sl_analyzer *a;
	struct sl_model *m;
	uint32_t i;			/* the next index to look at */
};

static cJSON *acct_row_next(void *ctx)
{
	struct acct_rows *rows = ctx;
	struct sl_model *m = rows->m;
	const struct sl_task *t = NULL;
	const struct acct_task *at = NULL;

	while (rows->i < m->nr_tasks) {
		t = sl_kept_task(m, rows->i++);
		at = sl_task_priv(m, rows->a, t);
		if (listed(m, t, at))
			break;
		t = NULL;
	}
	if (!t)
		return NULL;

	cJSON *o = cJSON_CreateObject(), *sleep, *list;
	uint32_t kept = MIN(at->nr_cpus, (uint32_t)ACCT_MAX_CPUS);

	sl_json_add_i64(o, "pid", t->pid);
	cJSON_AddStringToObject(o, "comm", sl_str(m->strtab, t->comm));
	cJSON_AddItemToObject(o, "run_length", sl_hist_json(&at->run_len));
	sleep = cJSON_AddObjectToObject(o, "slept_ns");
	for (int s = 0; s < SLEEP__NR; s++)
		sl_json_add_u64(sleep, sleep_json[s], at->sleep_ns[s]);
	sl_json_add_u64(o, "waited_ns", t->wait_ns);
	sl_json_add_u64(o, "cpu_moves", at->moves);
	list = cJSON_AddArrayToObject(o, "cpus");
	for (uint32_t c = 0; c < kept; c++)
		cJSON_AddItemToArray(list, cJSON_CreateNumber(at->cpus[c]));
	sl_json_add_u64(o, "nr_cpus", at->nr_cpus);
	return o;
}

static void acct_report_json(struct sl_analyzer *a, struct sl_model *m, cJSON *root)
{
	struct acct_priv *p = a->priv;
	cJSON *acct = cJSON_AddObjectToObject(root, "accounting");
	cJSON *cpus;
	struct acct_rows *rows = xcalloc(1, sizeof(*rows));
	struct sl_hist run_all, idle_all;

	*rows = (struct acct_rows){ .a = a, .m = m };
	sl_json_add_list(m, acct, "tasks", &(struct sl_json_list){
		.next = acct_row_next, .free = free, .ctx = rows });

	sl_hist_init(&run_all);
	sl_hist_init(&idle_all);
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		const struct sl_task *t = sl_kept_task(m, i);
		const struct acct_task *at = sl_task_priv(m, a, t);

		if (listed(m, t, at))
			sl_hist_merge(&run_all, &at->run_len);
	}
	sl_hist_merge(&run_all, &p->folded_run_len);
	for (int cpu = 0; cpu < m->nr_cpus; cpu++)
		sl_hist_merge(&idle_all, &((struct acct_cpu *)sl_cpu_priv(m, a, cpu))->idle_len);
	cJSON_AddItemToObject(acct, "run_length", sl_hist_json(&run_all));
	cJSON_AddItemToObject(acct, "idle_period", sl_hist_json(&idle_all));
	sl_hist_free(&run_all);
	sl_hist_free(&idle_all);
	sl_json_add_u64(acct, "cpu_moves", p->moves);
	cpus = cJSON_AddArrayToObject(acct, "cpus");
	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sl_hist *h = &((struct acct_cpu *)sl_cpu_priv(m, a, cpu))->idle_len;
		cJSON *o;

		if (!sl_filter_cpu(m->cfg, cpu))
			continue;
		o = cJSON_CreateObject();
		cJSON_AddItemToArray(cpus, o);
		sl_json_add_i64(o, "cpu", cpu);
		cJSON_AddItemToObject(o, "idle_period", sl_hist_json(h));
	}
}

static void acct_destroy(struct sl_analyzer *a, struct sl_model *m)
{
	for (uint32_t i = 0; i < m->nr_tasks; i++)
		sl_hist_free(&((struct acct_task *)sl_task_priv(m, a, m->tasks[i]))->run_len);
	sl_hist_free(&((struct acct_priv *)a->priv)->folded_run_len);
	for (int cpu = 0; cpu < m->nr_cpus; cpu++)
		sl_hist_free(&((struct acct_cpu *)sl_cpu_priv(m, a, cpu))->idle_len);
}

/*
 * A dead task's sleep is over; its run lengths go with it (the totals have
 * them).  One that died asleep (its pid reused by a fork, no exit seen)
 * slept until its waking or its death (acct_finish()): ended here, once
 * the model asks (only of dead tasks), or it would be kept, never folded.
 */
static bool acct_task_in_use(struct sl_analyzer *a, struct sl_model *m, const struct sl_task *t)
{
	struct acct_task *at = sl_task_priv(m, a, t);

	if (at->blocked && t->state == SL_TASK_DEAD)
		end_sleep(m, at, woken_at(t, at, t->since));
	return at->blocked;
}

static void acct_fold_task(struct sl_analyzer *a, struct sl_model *m, struct sl_task *t)
{
	struct acct_priv *p = a->priv;
	struct acct_task *at = sl_task_priv(m, a, t);

	if (listed(m, t, at))
		sl_hist_merge(&p->folded_run_len, &at->run_len);
	sl_hist_free(&at->run_len);
}

const struct sl_analyzer_ops sl_accounting_analyzer = {
	.name = "accounting",
	.priv_size = sizeof(struct acct_priv),
	.task_priv_size = sizeof(struct acct_task),
	.task_priv_last = true,		/* 160 B: the slots after it on fewer lines */
	.cpu_priv_size = sizeof(struct acct_cpu),
	.init = acct_init,
	.on_switch = acct_switch,
	.on_cpu_unknown = acct_cpu_unknown,
	.task_in_use = acct_task_in_use,
	.fold_task = acct_fold_task,
	.task_hists = { offsetof(struct acct_task, run_len) },
	.nr_task_hists = 1,
	.finish = acct_finish,
	.report_text = acct_report_text,
	.report_json = acct_report_json,
	.destroy = acct_destroy,
};
