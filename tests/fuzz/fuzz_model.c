// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_model.c - the state model and every analyzer, fed arbitrary events
 *
 * The input is decoded into a configuration and a sequence of struct
 * sl_event with small pid and CPU ranges (so tasks meet again and again),
 * any event type, times that mostly go forward and sometimes back, out of
 * range CPUs and pids, and timestamps near 0 and near 2^64 (readers pass
 * on whatever a corrupt file says).  After every event the model must be
 * consistent (fuzz_check_model() in fuzz_common.c):
 *
 *  - every queue and pending list is well linked, as long as its count
 *    (so never negative), and holds tasks in that state on that CPU;
 *  - every task is in at most one place: running on one CPU, or on one
 *    CPU's queue or pending list; a running/queued/pending task is there;
 *  - a CPU's idle flag (what analyzers were told) is sl_cpu_is_idle();
 *  - no time after "now", no duration longer than the trace (a negative
 *    duration wraps to a huge one).
 * At the end, the findings' costs and times lie within the trace, and the
 * terminal and JSON reports are written (the JSON must parse back).
 *
 * Layout: 4 header bytes, then 8 bytes per event (see decode_event()).
 * FUZZ_MODEL_PRINT=1 prints the events (as schedlint dump does) to stderr,
 * to read what a crashing input does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/options.h"
#include "fuzz.h"
#include "schedlint/analyzer.h"

#define MAX_EVENTS 1024

/* cmd_dump.c */
void sl_dump_event(FILE *f, const struct sl_strtab *st, const struct sl_event *ev);

static const int32_t cpu_table[16] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 4, 5, 63, 100, -1, 9000 };
static const int32_t pid_table[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 0, -1, 100, 1, 2 };
static const int32_t prio_table[16] = { 120, 120, 120, 120, 100, 139, 0, 99,
					120, 110, 130, -1, 120, 140, 98, 120 };
static const char *const comm_table[8] = {
	"", "a", "b", "kworker/0:1", "ksoftirqd/1", "migration/2", "c d", "kworker/u8:2",
};
static const char *const marker_table[16] = {
	"hello", "schedlint: llc=0-1,2-3", "schedlint: llc=0+2,1+3", "schedlint: llc=3",
	"schedlint: llc=", "schedlint: llc=0-65535", "schedlint: llc=5-2", "schedlint: llc=0,0",
	/* the scheduling context (context.h): groups, tasks in them, re-reads, garbage */
	"schedlint: kernel hz=250@config base_slice=1400000@getattr",
	"schedlint: group 1 0 2048 autogroup /a nice -4",
	"schedlint: group 2 1 512 cpu /a/b",
	"schedlint: sched 1-3=other/0/0/1 4=fifo/50/0/0 5=other/5/0/2",
	"schedlint: sched 2=other/0/0/2@5 3=idle/0/0/0@1 1=batch/-5/700000/1",
	"schedlint: sched 6-7=deadline/0/0/0 100=other/0/0/1",
	"schedlint: group 3 9 1024 cpu /x",
	"schedlint: sched 1=other/0/0/7",
};
/* weighted towards the events the model acts on */
static const uint8_t type_table[32] = {
	SL_EV_SWITCH, SL_EV_SWITCH, SL_EV_SWITCH, SL_EV_SWITCH, SL_EV_SWITCH, SL_EV_SWITCH,
	SL_EV_WAKING, SL_EV_WAKING, SL_EV_WAKING, SL_EV_WAKING,
	SL_EV_WAKEUP, SL_EV_WAKEUP, SL_EV_WAKEUP, SL_EV_WAKEUP,
	SL_EV_MIGRATE, SL_EV_MIGRATE, SL_EV_MIGRATE,
	SL_EV_WAKEUP_NEW, SL_EV_FORK, SL_EV_EXIT, SL_EV_LOST, SL_EV_LOST,
	SL_EV_IPI_SEND_CPU, SL_EV_IPI_SEND_CPUMASK, SL_EV_IPI_RAISE, SL_EV_IPI_ENTRY,
	SL_EV_IRQ_VECTOR, SL_EV_TIMER_TICK, SL_EV_TIMER_TICK, SL_EV_WAKE_IDLE_NO_IPI,
	SL_EV_MARKER, SL_EV_OTHER,
};

struct fuzz_state {
	struct sl_strtab *st;
	uint32_t comm[8], marker[16], stopped, type_name[SL_EV__COUNT], callsite;
	uint64_t ts;
	uint64_t mask_words[2];
};

static void set(struct sl_config *cfg, int id, const char *arg)
{
	if (sl_config_option(cfg, id, arg, "fuzz"))
		fuzz_fail("option %d '%s' refused", id, arg ? arg : "");
}

/* Header bytes h[0..3] -> the configuration and what the "reader" knows. */
static void decode_config(const uint8_t *h, struct sl_config *cfg, struct sl_trace_info *info,
			  uint64_t *ts)
{
	static const enum sl_tristate tri[4] = { SL_UNKNOWN, SL_NO, SL_YES, SL_YES };
	static const char *const hz[4] = { NULL, "100", "250", "1000" };
	static const uint64_t base_ts[4] = { 1000000000ull, 0, UINT64_MAX - (1ull << 40), 1ull << 63 };

	sl_config_init(cfg);
	memset(info, 0, sizeof(*info));
	info->format = SL_FMT_DAT6;
	info->has_waking = tri[h[0] & 3];
	info->has_wakeup = tri[(h[0] >> 2) & 3];
	if (h[0] & 0x10)
		set(cfg, SL_OPT_LLC, "0-1,2-3");
	if (h[0] & 0x20)
		set(cfg, SL_OPT_CPUS, "0-1");
	if (h[0] & 0x40)
		set(cfg, SL_OPT_PID, "1,2");
	if (h[0] & 0x80) {
		set(cfg, SL_OPT_FROM, "+1ms");
		set(cfg, SL_OPT_TO, "+50ms");
	}
	cfg->max_findings = 1 + (h[1] & 7);
	if (h[1] & 0x08)
		set(cfg, SL_OPT_ASSUME_MIGRATABLE, NULL);
	if (h[1] & 0x10)
		set(cfg, SL_OPT_SLICE_MODEL, "cfs");
	if (hz[(h[1] >> 5) & 3])
		set(cfg, SL_OPT_HZ, hz[(h[1] >> 5) & 3]);
	if (h[1] & 0x80)
		set(cfg, SL_OPT_COMM, "a");
	info->ncpus = h[2] % 9;
	*ts = base_ts[(h[2] >> 4) & 3];
	if (h[3] & 0x01)
		set(cfg, SL_OPT_MIN_COST, "0");
	if (h[3] & 0x02)
		set(cfg, SL_OPT_TOLERANCE, "0");
	if (h[3] & 0x04)
		set(cfg, SL_OPT_IDLE_THRESHOLD, "0");
	if (h[3] & 0x08)
		set(cfg, SL_OPT_SYNC_WINDOW, "10s");
	if (h[3] & 0x10)
		set(cfg, SL_OPT_BASE_SLICE, "10us");
	if (h[3] & 0x20) {
		/* fold dead tasks at once: a pointer kept to one is a use after free */
		static const char *const keep[4] = { "1", "2", "3", "8" };

		set(cfg, SL_OPT_KEEP_TASKS, keep[h[3] >> 6]);
	}
}

/* The next event time: mostly forward by ns..tens of ms, sometimes back. */
static uint64_t next_ts(uint64_t ts, uint8_t b)
{
	static const uint64_t unit[4] = { 1000, 100000, 10000000, 1 };
	uint64_t v = b & 63, step = v * unit[b >> 6];

	if (b == 0xff)
		return ts >= 1000000 ? ts - 1000000 : 0;	/* 1 ms back: a skewed CPU */
	if (b == 0xfe)
		return ts >= 10000 ? ts - 10000 : 0;
	return ts + step < ts ? UINT64_MAX : ts + step;	/* saturate: readers do not wrap */
}

/*
 * One event from 8 bytes: e[0] type (low 5 bits) and context (high 3),
 * e[1] CPU, e[2] common_pid, e[3] time step, e[4] pid A + prio A,
 * e[5] pid B + prio B, e[6] CPU fields (low: target/orig, high: dest),
 * e[7] prev_state class, success, comms.
 */
static void decode_event(struct fuzz_state *s, const uint8_t *e, struct sl_event *ev)
{
	int32_t pid_a = pid_table[e[4] & 15], pid_b = pid_table[e[5] & 15];
	int32_t prio_a = prio_table[e[4] >> 4], prio_b = prio_table[e[5] >> 4];
	int32_t cpu_lo = cpu_table[e[6] & 15], cpu_hi = cpu_table[e[6] >> 4];
	uint32_t comm_a = s->comm[(e[7] >> 3) & 7], comm_b = s->comm[(e[7] >> 5) & 7];
	static const char letters[4] = { 'R', 'R', 'S', 'X' };

	memset(ev, 0, sizeof(*ev));
	s->ts = next_ts(s->ts, e[3]);
	ev->ts = s->ts;
	ev->type = type_table[e[0] & 31];
	ev->ctx = e[0] >> 5;
	ev->ctx = ev->ctx ? (uint8_t)(SL_CTX_KNOWN | ((ev->ctx & 3) << 1)) : 0;
	ev->cpu = cpu_table[e[1] & 15];
	ev->pid = pid_table[e[2] & 15];
	ev->name = s->type_name[ev->type];

	switch (ev->type) {
	case SL_EV_SWITCH:
		ev->sw.prev_pid = pid_a;
		ev->sw.next_pid = pid_b;
		ev->sw.prev_prio = prio_a;
		ev->sw.next_prio = prio_b;
		ev->sw.prev_comm = comm_a;
		ev->sw.next_comm = comm_b;
		ev->sw.prev_class = e[7] & 3;
		ev->sw.prev_letter = letters[e[7] & 3];
		/* a switch is logged by the task leaving: common_pid = prev, mostly */
		if (!(e[2] & 0x80))
			ev->pid = pid_a;
		break;
	case SL_EV_WAKING:
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		ev->wake.pid = pid_a;
		ev->wake.prio = prio_a;
		ev->wake.comm = comm_a;
		ev->wake.target_cpu = cpu_lo;
		ev->wake.success = !(e[7] & 4);
		break;
	case SL_EV_MIGRATE:
		ev->migrate.pid = pid_a;
		ev->migrate.prio = prio_a;
		ev->migrate.comm = comm_a;
		ev->migrate.orig_cpu = cpu_lo;
		ev->migrate.dest_cpu = cpu_hi;
		break;
	case SL_EV_FORK:
		ev->fork.parent_pid = pid_a;
		ev->fork.child_pid = pid_b;
		ev->fork.parent_comm = comm_a;
		ev->fork.child_comm = comm_b;
		break;
	case SL_EV_EXIT:
		ev->exit.pid = pid_a;
		ev->exit.prio = prio_a;
		ev->exit.comm = comm_a;
		break;
	case SL_EV_IPI_SEND_CPU:
	case SL_EV_IPI_SEND_CPUMASK:
	case SL_EV_IPI_RAISE:
	case SL_EV_IPI_ENTRY:
	case SL_EV_CSD_QUEUE:
	case SL_EV_CSD_FUNC_ENTRY:
		s->mask_words[0] = e[5] | (uint64_t)(e[4] & 1) << 63;
		s->mask_words[1] = e[4] >> 1;
		ev->ipi.target_cpu = ev->type == SL_EV_IPI_SEND_CPUMASK || ev->type == SL_EV_IPI_RAISE ?
				     -1 : cpu_lo;
		ev->ipi.mask.words = s->mask_words;
		ev->ipi.mask.nr_words = 1 + (e[7] & 1);
		ev->ipi.callsite = s->callsite;
		break;
	case SL_EV_IRQ_VECTOR:
	case SL_EV_TIMER_TICK:
		ev->irq.vector = e[4];
		break;
	case SL_EV_WAKE_IDLE_NO_IPI:
		ev->idle_no_ipi.target_cpu = cpu_lo;
		break;
	case SL_EV_LOST:
		ev->pid = -1;
		ev->lost.count = e[4];
		break;
	case SL_EV_MARKER:
		/* record's end: the markers after it are its last sweeps */
		ev->marker.text = (e[7] & 0xf0) == 0xf0 ? s->stopped : s->marker[e[7] & 15];
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_state s = { 0 };
	struct sl_config cfg;
	struct sl_trace_info info;
	struct sl_model *m;
	struct sl_event ev;
	size_t nr;

	if (size < 4)
		return -1;
	decode_config(data, &cfg, &info, &s.ts);
	data += 4;
	size -= 4;
	nr = size / 8 < MAX_EVENTS ? size / 8 : MAX_EVENTS;

	s.st = sl_strtab_new();
	for (int i = 0; i < 8; i++)
		s.comm[i] = sl_intern_cstr(s.st, comm_table[i]);
	for (int i = 0; i < 16; i++)
		s.marker[i] = sl_intern_cstr(s.st, marker_table[i]);
	s.stopped = sl_intern_cstr(s.st, SL_MARKER_STOPPED);
	for (int t = 0; t < SL_EV__COUNT; t++)
		s.type_name[t] = sl_intern_cstr(s.st, sl_event_type_name(t));
	s.callsite = sl_intern_cstr(s.st, "ttwu_queue_wakelist");

	m = sl_model_new(&cfg, s.st, &info);
	fuzz_check_model(m);
	bool print = getenv("FUZZ_MODEL_PRINT");

	for (size_t i = 0; i < nr; i++) {
		decode_event(&s, data + 8 * i, &ev);
		if (print)
			sl_dump_event(stderr, s.st, &ev);
		sl_model_feed(m, &ev);
		if (m->nr_events || m->lost_gaps)
			fuzz_check_model(m);
	}
	sl_model_finish(m);
	if (m->nr_events || m->lost_gaps)
		fuzz_check_finished(m);
	fuzz_reports(m);
	sl_model_free(m);
	sl_strtab_free(s.st);
	sl_config_free(&cfg);
	return 0;
}
