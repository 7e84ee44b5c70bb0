/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - what every CPU and task is doing at the current instant
 *
 * The state model applies the SPEC's rules to the normalized event stream
 * (model.c) and tells the analyzers about every transition that matters
 * through the hooks of struct sl_analyzer_ops (analyzer.h).  Analyzers
 * read the model through the structs below; they never change it.
 *
 * Times are ns in the trace clock.  Per-CPU "local" clocks can disagree by
 * a few us across CPUs, so an event may carry a time slightly before the
 * model's "now": durations are computed with sl_dur(), which never goes
 * negative.
 */
#ifndef SCHEDLINT_MODEL_H
#define SCHEDLINT_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "event.h"
#include "hist.h"
#include "reader.h"
#include "series.h"
#include "strtab.h"

enum sl_task_state {
	SL_TASK_UNKNOWN = 0,	/* not seen yet, or lost with its CPU's events */
	SL_TASK_RUNNING,	/* running on cpu */
	SL_TASK_QUEUED,		/* runnable, waiting in cpu's runqueue */
	SL_TASK_PENDING,	/* woken and placed on cpu, not yet enqueued (ttwu_pending) */
	SL_TASK_WAKING,		/* sched_waking seen, destination not decided: cpu = tentative */
	SL_TASK_BLOCKED,	/* sleeping; block_letter says how */
	SL_TASK_NEW,		/* forked, its sched_wakeup_new not seen yet */
	SL_TASK_DEAD,		/* exited */
};

/* Why a task is runnable (QUEUED or PENDING). */
enum sl_runnable_reason {
	SL_RUNNABLE_WAKEUP = 0,
	SL_RUNNABLE_PREEMPTED,
	SL_RUNNABLE_NEW,
	SL_RUNNABLE_MIGRATED,	/* arrived by load balance or affinity change */
	SL_RUNNABLE_UNKNOWN,	/* the model found it runnable without seeing why */
};

/* What the trace tells about where a task may run (SPEC "Affinity"). */
enum sl_affinity {
	SL_AFFINITY_UNKNOWN = 0,	/* seen on one CPU only */
	SL_AFFINITY_PINNED,		/* a per-CPU kernel thread (comm ends in /N or /N:M) */
	SL_AFFINITY_MIGRATABLE,		/* seen running on two or more CPUs */
};

/*
 * The moment of one wakeup-latency sample: the worst of a task, or of the
 * whole trace (the first of equal ones).  Valid when the histogram it goes
 * with has samples.  perf sched latency's "max start" / "max end".
 */
struct sl_wakeup_moment {
	uint64_t latency;		/* run_ts - wake_ts */
	uint64_t wake_ts;		/* its waking (sched_waking, else sched_wakeup) */
	uint64_t run_ts;		/* its switch-in */
	int32_t cpu;			/* where it ran */
	int32_t waker_cpu;		/* the CPU that logged the waking */
	int32_t pid;
	uint32_t comm;			/* the task's comm at the switch-in */
	bool inferred;			/* the switch-in is inferred: the latency is a lower bound */
};

/* How a task became runnable (its wait's start): perf sched latency counts them all. */
enum sl_wait_kind {
	SL_WAIT_WAKEUP = 0,		/* woken from sleep: from its waking */
	SL_WAIT_PREEMPTED,		/* switched out preempted ("R+"): from the switch-out */
	SL_WAIT_RUNNABLE,		/* switched out "R": schedule() while runnable (a
					 * preemption at return to user, a yield): from then */
	SL_WAIT_NEW,			/* a new task: from its sched_wakeup_new */
	SL_WAIT__NR,
};
extern const char *const sl_wait_kind_names[SL_WAIT__NR];

/*
 * One runnable wait, from the task's becoming runnable (enum sl_wait_kind)
 * to its switch-in: the longest of a task or of the trace (the first of
 * equal ones), perf sched latency's "max delay" with its start and end.
 */
struct sl_wait_moment {
	uint64_t wait;			/* to - from */
	uint64_t from, to;
	int32_t cpu;			/* where it ran */
	int32_t pid;
	uint32_t comm;			/* the task's comm at the switch-in */
	uint64_t serial;		/* the task's (sl_wait_comm()) */
	uint8_t kind;			/* enum sl_wait_kind */
	bool inferred;			/* the switch-in is inferred: at least this long */
};

/*
 * The scheduling class of a task, for the latency rows by class.  Where it
 * comes from: a policy recorded in the trace when there is one
 * (sl_task.policy, sl_task_class()), else inferred from the prio the
 * events give: -1 deadline (every format prints SCHED_DEADLINE's p->prio
 * as it is), 0..99 real-time, 100..139 fair (SCHED_NORMAL, BATCH and IDLE
 * alike; sched_ext's tasks too: only a recorded policy tells them).  A
 * wakeup's class (sl_class_at()) is its prio's first.
 */
enum sl_sched_class {
	SL_CLASS_DL = 0,
	SL_CLASS_RT,
	SL_CLASS_FAIR,
	SL_CLASS_EXT,
	SL_CLASS_UNKNOWN,
	SL_CLASS__NR,
};
extern const char *const sl_sched_class_names[SL_CLASS__NR];	/* "dl", "rt", "fair", ... */

/*
 * struct sl_task.lat_class besides a class: no sample yet; samples of
 * several classes (the model has put each in its row as it came).
 * lat_prio SL_LAT_ASK: the next sample's class is to be decided again
 * (a task without samples, one whose samples are split, a new policy).
 */
#define SL_LAT_NONE 0xff
#define SL_LAT_SPLIT 0xfe
#define SL_LAT_ASK INT32_MIN

enum sl_class_source {
	SL_CLASS_FROM_NONE = 0,		/* unknown */
	SL_CLASS_FROM_PRIO,		/* inferred from the events' prio */
	SL_CLASS_FROM_POLICY,		/* a policy recorded in the trace */
};

/* From `from` on, a task may run on the CPUs of mask (an id of the model's). */
struct sl_aff_span {
	uint64_t from;
	uint32_t mask;
};

struct sl_task {
	int32_t pid;
	uint32_t comm;			/* interned; the latest name seen */
	int32_t prio;			/* kernel prio 0..139 (< 100: RT/DL), -1 unknown */
	bool prio_dl;			/* its events gave its prio as -1: deadline */
	int8_t policy;			/* SCHED_* recorded in the trace, -1 none (sl_task_class()) */
	uint8_t state;			/* enum sl_task_state */
	uint8_t runnable_reason;	/* enum sl_runnable_reason; valid when QUEUED/PENDING */
	char block_letter;		/* 'S', 'D', ... when BLOCKED */
	bool frozen;			/* a dead task in its packed form: only pid and comm
					 * are here (task_freeze.c, sl_kept_task()) */
	bool freeze_queued;		/* on the model's queue of dead tasks to freeze */
	int32_t cpu;			/* RUNNING/QUEUED/PENDING: that CPU; else the last one, -1 unknown */
	uint64_t since;			/* when it entered its state (0 when unknown) */
	uint64_t runnable_since;	/* QUEUED/PENDING/WAKING: start of the current wait */
	uint8_t wait_kind;		/* enum sl_wait_kind of that wait */

	/* the wakeup in flight: from its waking until the task runs */
	bool wake_valid;		/* a latency sample is due at switch-in */
	uint8_t lat_class;		/* the class of every sample in latency, or SL_LAT_* */
	int32_t lat_prio;		/* the prio whose class that is (sl_class_sample()) */
	uint64_t wake_ts;		/* time of sched_waking (or sched_wakeup without one) */
	int32_t waker_pid;		/* common_pid of the waking: 0 = idle/interrupt, -1 unknown */
	int32_t waker_cpu;		/* CPU that logged the waking */
	uint8_t waker_ctx;		/* SL_CTX_* of the waking */
	int32_t wakeup_cpu;		/* CPU that logged sched_wakeup, -1 not yet */
	uint64_t wakeup_ts;		/* time of that sched_wakeup (the enqueue) */
	bool ipi_sent;			/* an IPI went to the destination for this wakeup */
	uint8_t class_seen;		/* 1 << class: the classes of its samples */
	uint8_t class_policy;		/* ... of them, the ones its recorded policy gave */
	int32_t wake_prio;		/* its prio at the waking (its class then) */
	uint64_t ipi_ts;
	uint64_t wake_seq;		/* counts this task's wakeups: (pid, wake_seq) names one */

	/* a waking logged while it still ran on another CPU (see model.c) */
	bool early_waking;
	uint64_t early_waking_ts;
	int32_t early_waker_pid, early_waker_cpu;
	uint8_t early_waker_ctx;
	bool wake_unconfirmed;		/* the wakeup in flight came from an early waking
					 * that no sched_wakeup confirmed (see model.c) */

	/*
	 * affinity evidence: where it ran since its last move by a
	 * migration/N stopper (a possible affinity change), and where it may
	 * run as the trace records it (affinity.c)
	 */
	int32_t first_cpu;		/* first CPU seen running on (switched in or out), -1 none */
	bool multi_cpu;			/* seen running on two or more CPUs */
	uint32_t stopper_moves;		/* moves by a migration/N stopper */
	uint64_t stopper_ts;		/* the last one, 0 none */
	uint32_t execs;			/* execs seen (comm change while alive, sched_process_exec):
					 * where it ran before says nothing of its mask after */
	uint64_t exec_ts;		/* the last one, 0 none */
	struct sl_aff_span *aff;	/* recorded affinity, oldest first (sl_task_allowed_at()) */
	uint32_t nr_aff, aff_alloc;
	bool aff_stale;			/* recorded, then a stopper move, an exec or a fork from
					 * a stale task: record's re-read not seen yet */
	uint32_t sched_kind;		/* its recorded policy, nice, slice and group
					 * (context.c, sl_task_sched()), 0 none */

	/* accounting (clipped to --from/--to) */
	uint64_t run_ns;		/* time running */
	uint64_t wait_ns;		/* time runnable but not running (incl. pending) */
	uint64_t switches;		/* times switched in */
	uint64_t preemptions;		/* times switched out while runnable */
	uint64_t migrations;		/* sched_migrate_task events */
	uint64_t wakeups;		/* wakeups from blocked (latency samples or not) */

	/*
	 * runqueue / pending list links: a task is on at most one list, a
	 * runqueue's newest first (late-preemption reads that order)
	 */
	struct sl_task *q_prev, *q_next;
	uint32_t index;			/* position in sl_model.tasks: stable while the task is
					 * kept (a folded task's goes to a new one) */
	uint64_t serial;		/* 1, 2, ...: no two tasks of a run have the same */
	bool exec_seen;			/* comm changed while alive (exec) */
	bool dead_queued;		/* on the model's queue of dead tasks (to fold) */
	bool in_workload;		/* the workload's root task or forked by one of its tasks */
	bool state_lost;		/* UNKNOWN because its CPU lost events */
	uint32_t latency_inferred;	/* samples (in the filters) that end at an
					 * inferred switch: lower bounds */

	/* last: touched once per sample, after the fields every event uses */
	struct sl_hist latency;		/* wakeup latency samples that pass the filters
					 * (sl_hist_add_held: its buckets are cold) */
	struct sl_wakeup_moment worst;	/* the worst of them (valid when latency.count) */
	/* its longest runnable wait of any kind in the filters, not across lost events (valid: to) */
	struct sl_wait_moment wait_worst;
	uint64_t fork_delay;		/* sched_wakeup_new to its first run (valid: fork_delay_seen) */
	bool fork_delay_seen;
};

/*
 * 256 bytes, a power of two: &m->cpus[cpu] is a shift, and the model
 * takes it several times per event.  The state the model changes at
 * every event comes first (one cache line).
 */
struct sl_cpu {
	int16_t cpu;			/* < SL_MODEL_MAX_CPUS */
	bool known;			/* its running task is known: after its first
					 * sched_switch and its first one after lost events */
	bool idle;			/* known, idle, nothing queued or pending (last reported) */
	uint32_t nr_queued;
	uint32_t nr_pending;
	/* of lost_gaps (below), those whose marker did not say how many: lost_events is a floor */
	uint32_t lost_uncounted;
	struct sl_task *curr;		/* running task; NULL = idle (valid when known) */
	uint64_t curr_since;
	struct sl_task *queued;		/* runnable tasks waiting here (list head) */
	struct sl_task *pending;	/* wakeups placed here, not yet enqueued */
	uint64_t pending_since;		/* the pending list is not empty since (valid: nr_pending) */
	uint64_t last_event_ts;		/* last event its buffer logged */
	uint64_t queue_since;		/* when nr_queued last changed */
	/* the model's own (model.c): the wakee whose destination is not decided yet (rule 2) */
	struct sl_task *open_wake;
	/* and the last wakee it placed, for IPIs sent on its behalf (model.c) */
	struct sl_task *last_placed;
	/*
	 * The last time it entered its wakelist handler: call_function_single_entry
	 * (x86), ipi_entry of a function-call IPI (arm64) or csd_function_entry of
	 * sched_ttwu_pending (6.6+); 0 never.  See sl_cpu_in_ttwu_window().
	 */
	uint64_t wakelist_entry_ts;
	uint64_t gap_ts;		/* the last time its buffer lost events, 0 never */

	/* accounting (clipped to --from/--to) */
	uint64_t busy_ns, idle_ns;	/* known time running a task / idle */
	uint64_t switches;		/* sched_switch events */
	uint64_t wakeups;		/* wakeups enqueued here */
	uint32_t max_queue;		/* most tasks waiting at once (the running one not counted) */
	uint32_t lost_gaps;		/* times it lost events */
	uint64_t queue_area;		/* integral of nr_queued over time, for the mean */
	uint64_t queue_known_ns;	/* the time that integral covers: the mean's divisor */
	struct sl_hist latency;		/* wakeup latency of tasks switched in here */
	uint64_t implied_switches;	/* switches the trace did not show (see model.c) */
	uint64_t latency_inferred;	/* samples here that end at one of them */
	uint64_t lost_events;		/* events its buffer lost */
};
_Static_assert(sizeof(struct sl_cpu) == 256, "struct sl_cpu: 256 bytes");

/* One wakeup placement: the wakee's destination CPU has just been decided. */
struct sl_placement {
	struct sl_task *task;
	uint64_t wake_ts;		/* its waking */
	uint64_t ts;			/* when the destination became known */
	int32_t dest_cpu;
	int32_t prev_cpu;		/* where it ran last (sched_waking.target_cpu), -1 unknown */
	int32_t waker_pid, waker_cpu;
	uint8_t waker_ctx;
};

/* One wakeup-latency sample, delivered when the wakee is switched in. */
struct sl_latency_sample {
	struct sl_task *task;
	uint64_t wake_ts, run_ts;
	uint64_t latency;		/* run_ts - wake_ts */
	int32_t cpu;			/* where it ran */
	int32_t waker_pid, waker_cpu;
	uint8_t waker_ctx;
	int32_t wakeup_cpu;		/* CPU that logged sched_wakeup, -1 none */
	uint64_t wakeup_ts;		/* its time, 0 none */
	bool remote;			/* ran on another CPU than the waker's */
	bool ipi;			/* an IPI was sent to its CPU for this wakeup */
	uint64_t ipi_ts;
	uint64_t wake_seq;
	bool implied_switch;		/* the switch-in was not traced (time is its earliest) */
	bool in_filter;			/* passes --pid/--comm/--cpus/--from/--to */
};

/* One sched_switch, after the model applied it. */
struct sl_switch_info {
	uint64_t ts;
	int32_t cpu;
	struct sl_task *prev;		/* NULL = idle */
	struct sl_task *next;		/* NULL = idle */
	uint8_t prev_class;		/* enum sl_prev_class */
	uint64_t prev_ran_since;	/* prev's switch-in, 0 when unknown */
	bool prev_known;		/* the model knew prev was running here */
	bool implied;			/* not in the trace: inferred from the CPU's next event */
	/*
	 * next left a runqueue at this switch-in: that CPU's (-1: it was on
	 * none, e.g. a wakee still pending), where it had been queued since
	 * next_queued_since (its state was QUEUED until now).  The analyzers
	 * that say so are not called on_runnable(enter = false) for it
	 * (analyzer.h, SL_RUNNABLE_SWITCH_LEAVES): they read it here.
	 */
	int32_t next_left_cpu;
	uint64_t next_queued_since;
};

/*
 * The trace_marker text schedlint record writes before tracing starts:
 * SL_MARKER_LLC followed by the machine's LLC groups in --llc syntax,
 * then SL_MARKER_LLC_FROM and where record found them in sysfs
 * ("schedlint: llc=0-3+8-11,4-7+12-15 from=cache-L3"; from= is one of
 * cache-LN, package, die, all-cpus, and missing in older recordings).
 */
/* CPUs the model keeps at most: events of higher CPUs are dropped with a warning */
#define SL_MODEL_MAX_CPUS	8192
_Static_assert(SL_MODEL_MAX_CPUS <= INT16_MAX, "a CPU number fits sl_cpu.cpu");

#define SL_MARKER_LLC		"schedlint: llc="
#define SL_MARKER_LLC_FROM	"from="
#define SL_LLC_FROM_TRACE	"trace marker (schedlint record)"

/*
 * The command schedlint record ran, written right before it starts it:
 * SL_MARKER_WORKLOAD, its pid, then SL_MARKER_WORKLOAD_CMD and its
 * command line, maybe cut short ("schedlint: workload pid=4242
 * cmd=perf bench sched pipe").  Its tasks are that pid and every task
 * forked (processes and threads) by one of them after the marker.
 */
#define SL_MARKER_WORKLOAD	"schedlint: workload pid="
#define SL_MARKER_WORKLOAD_CMD	" cmd="

/*
 * schedlint record's own task, written after the LLC groups: its pid
 * ("schedlint: recorder pid=4241"), which the report names as the
 * recorder.  Recordings before it name it only as the writer of the
 * workload marker.
 */
#define SL_MARKER_RECORDER	"schedlint: recorder pid="

/*
 * Where tasks may run, as schedlint record reads it from /proc
 * (Cpus_allowed_list): SL_MARKER_AFFINITY, then tokens "PIDS=CPUS" (range
 * lists: "1-45,47=0-3 46=0"), each at most 1 KB, a marker at most about
 * 1000 bytes.  A token applies from the marker's time, and before it for
 * a task nothing was recorded for yet ("schedlint: affinity 1-45,47=0-3":
 * the sweep of every task at the start, and of the survivors at the end).
 * "PIDS=CPUS@NS" says the change happened at trace time NS: record re-reads
 * a task after its exec and after a migration/N stopper moved it, and
 * writes what it read up to a drain round later.  A forked task inherits
 * its parent's.  See affinity.c.
 */
#define SL_MARKER_AFFINITY	"schedlint: affinity "

/*
 * schedlint record stopped recording events here: what follows are its
 * last sweeps (affinity, policies and groups of every task still there),
 * read with the instance's events disabled so that their cost is not in
 * the trace.  The trace's events end at the last one before this marker
 * (last_ts, once the model is finished), and the markers after it apply
 * from then.
 */
#define SL_MARKER_STOPPED	"schedlint: events stopped"

/*
 * Dead tasks the model keeps one by one, by default (analyze
 * --keep-tasks=N).  Past them, the oldest dead task nothing refers to
 * any more (no wakeup, finding or analyzer state open on it) is folded:
 * its numbers are added to its comm's struct sl_folded_comm and its
 * memory is reused for the next new task.  So the analysis memory grows
 * with the tasks alive, this many dead ones and the distinct comms, not
 * with the forks (issue 25: a pid reused a million times).  Totals
 * (overall latency, findings, per-comm rows) do not change; only the
 * per-task listings lose the folded tasks.  Until it is folded, a dead
 * task nothing refers to is kept frozen, in about 150 bytes instead of
 * 1.3 KB (task_freeze.c; sl_kept_task()): 65536 take some 10 MiB.
 */
#define SL_KEEP_DEAD_TASKS	65536

/* The folded tasks of one comm: the sums of their struct sl_task numbers. */
struct sl_folded_comm {
	uint32_t comm;
	uint64_t tasks;			/* folded tasks that ran or waited, in the filters
					 * (0: only others, the comm is in the trace) */
	uint64_t wakeups, run_ns, wait_ns, switches, preemptions, migrations;
	uint64_t latency_inferred;
	struct sl_hist latency;		/* their histograms merged */
	struct sl_wakeup_moment worst;	/* the worst of them (valid when latency.count) */
};

struct sl_analyzer;
struct sl_findings;
struct sl_freeze_layout;
struct sl_aff_state;
struct sl_context;

struct sl_model {
	const struct sl_config *cfg;	/* points at cfg_store */
	struct sl_config cfg_store;	/* the caller's config, relative times resolved */
	struct sl_strtab *strtab;
	const struct sl_trace_info *info;

	struct sl_cpu *cpus;
	int nr_cpus;			/* grows with the highest CPU seen */

	/*
	 * every task kept: alive, or dead and not folded (pid reuse = 2
	 * entries), in the order first seen until folding begins (a folded
	 * task's slot is reused for the next new task)
	 */
	struct sl_task **tasks;
	uint32_t nr_tasks;
	size_t tasks_alloc;
	/* the dead tasks folded (SL_KEEP_DEAD_TASKS): all of them, and by comm */
	uint64_t tasks_folded;
	uint64_t tasks_seen;		/* every task ever: kept + folded (the last serial) */
	struct sl_folded_comm *folded;	/* in the order the comms were first folded */
	uint32_t nr_folded;
	size_t folded_alloc;
	uint32_t *folded_of;		/* by interned comm: index in folded + 1, 0 none */
	size_t folded_of_alloc;
	bool *folded_pids;		/* by cfg->pids index: a task of it was folded */
	/* the folded tasks listed (active, in the filters), by enum sl_class_source */
	uint64_t folded_class_source[3];

	uint64_t first_ts, last_ts;	/* of all events (finished: up to SL_MARKER_STOPPED) */
	uint64_t events_end;		/* the last event before SL_MARKER_STOPPED, 0 none */
	bool stopped_at_to;		/* reading ended at an event past --to: the trace goes on */
	uint64_t now;			/* the latest event time (monotonic) */
	/*
	 * The task a sched_wakeup names (its pid's, NULL for pid 0), valid in
	 * the on_event hooks of that SL_EV_WAKEUP: the model looked it up,
	 * they need not look it up again
	 */
	struct sl_task *wakeup_task;
	uint64_t nr_events;		/* events fed (excluding lost markers) */
	uint64_t *event_counts;		/* by interned event name, in filter */
	size_t event_counts_alloc;
	uint64_t type_counts[SL_EV__COUNT];	/* in filter */
	uint64_t lost_events, lost_gaps;
	uint64_t implied_switches;	/* switches inferred from events' running task */
	uint64_t clock_inversions;	/* events older than "now" by more than 0 */
	uint64_t max_inversion_ns;
	bool seen_waking, seen_wakeup;
	bool seen_wakelist_entry;	/* some CPU's wakelist handler entry was traced */
	bool wakeup_missing;		/* the trace has no sched_wakeup: enqueue at placement */
	uint64_t samples_dropped_gap;	/* wakeups not measured because of lost events */
	uint64_t bad_cpu_refs;		/* CPU numbers the trace does not have (beyond a
					 * trace.dat's CPU count): ignored */
	int hz_inferred;		/* the tick rate the trace shows, 0 unknown (set by
					 * the analyzer that infers it, in its finish) */

	/* affinity: recorded by schedlint record (SL_MARKER_AFFINITY), inferred otherwise */
	struct sl_aff_state *aff;	/* the recorded masks (affinity.c), NULL none */
	bool affinity_recorded;		/* the trace has affinity markers */
	uint32_t exec_name;		/* "sched_process_exec" interned, once met (0: not yet) */
	uint32_t folded_name;		/* the name of an event folded into the next
					 * (sl_event.folded_ago): the reader's fold_name */
	uint64_t affinity_bad_tokens;	/* marker tokens that were not PIDS=CPUS[@NS] */
	uint64_t stopper_moves;		/* moves by a migration/N stopper */

	/* the scheduling context schedlint record wrote (context.h), NULL none */
	struct sl_context *ctx;

	/* the workload the trace names (SL_MARKER_WORKLOAD), pid 0 = none */
	int32_t workload_pid;
	char workload_cmd[256];		/* its command line as the marker gives it */
	uint32_t nr_workload_tasks;	/* tasks that are its (the root and its forks) */

	/*
	 * schedlint record itself (SL_MARKER_RECORDER, else the task that
	 * wrote the workload marker; 0: none), and its runs on a CPU,
	 * whatever the filters (it is never
	 * the workload's, yet a report must say what it cost)
	 */
	int32_t recorder_pid;
	uint64_t recorder_run_ns;	/* time running, from its switches in to out */
	uint64_t recorder_runs;		/* runs ended by a switch out */
	uint64_t recorder_preempted;	/* of them, ended still runnable */
	uint64_t recorder_longest_ns;	/* the longest run */
	uint64_t recorder_longest_ts;	/* when it began */

	struct sl_hist latency;		/* every sample in the filter, at the end (during
					 * the run: sl_model_latency_now()) */
	struct sl_wakeup_moment latency_worst;	/* the worst of them (valid when latency.count) */
	struct sl_hist latency_local, latency_remote;	/* remote: ipi + noipi, at the end */
	struct sl_hist latency_ipi, latency_noipi;	/* remote only */
	/*
	 * The samples in the filter that end at an inferred switch: lower
	 * bounds (the switch-in is placed at the earliest time it can have
	 * happened).  In the others too, but with --exclude-inferred.
	 */
	struct sl_hist latency_inferred;
	/*
	 * Runnable waits of any kind (after a wakeup, a preemption or a fork)
	 * in the filters, not across lost events: the longest, perf sched
	 * latency's max (valid: its to); and the new tasks' first waits, from
	 * sched_wakeup_new to their first run (not wakeup latency samples).
	 */
	struct sl_wait_moment wait_worst;
	struct sl_wait_moment wait_worst_by[SL_WAIT__NR];	/* the same by kind */
	/*
	 * The longest as perf 6.1 (Debian 12's) counts: it reads wakeups from
	 * sched_wakeup only (not sched_waking: a perf sched record has none),
	 * and the preempted state "R+" of kernels since 4.14 as a sleep, so
	 * its delays are the waits after "R", after sched_wakeup_new, and
	 * after a sched_wakeup from that event's time.
	 */
	struct sl_wait_moment wait_worst_perf61;
	struct sl_hist fork_delay;
	/*
	 * Wakeup latency by scheduling class: each sample in the class its
	 * task was in when woken (sl_class_at()).  A task's samples,
	 * all of one class while it keeps it, go to that row from its own
	 * histogram when it is folded and at the end of the trace
	 * (sl_class_take_task()); from its first sample of another class on,
	 * the model puts each in its row as it comes (sched_class.c).
	 */
	struct sl_hist latency_class[SL_CLASS__NR];
	uint64_t class_tasks[SL_CLASS__NR][3];	/* tasks with samples, by enum sl_class_source */
	/* the samples of latency over time (series.h) */
	struct sl_series latency_series;

	/*
	 * last-level-cache domains: llc_of[cpu], -1 = a domain of its own.
	 * From --llc, else from an SL_MARKER_LLC marker in the trace (set when
	 * the model meets it: schedlint record makes it the first event), so
	 * ask sl_same_llc() when deciding rather than caching it in init().
	 */
	int *llc_of;
	int nr_llc_cpus;		/* entries in llc_of; 0 = one domain for all */
	/* "--llc", SL_LLC_FROM_TRACE, "trace marker (schedlint record: L3 cache)" or "default (one domain)" */
	const char *llc_source;
	char llc_source_buf[128];	/* llc_source when it names the marker's from= */

	struct sl_analyzer **analyzers;
	int nr_analyzers;
	struct sl_findings *findings;

	/* private to model.c */
	void *priv;
	/* the analyzers' per-CPU slots, nr_cpus * cpu_priv_size (sl_cpu_priv()) */
	char *cpu_priv;
	size_t cpu_priv_size;

	/*
	 * sl_kept_task()'s copy of a frozen task (task_freeze.c), the frozen
	 * one it is of (NULL none), and how a task is laid out for it (NULL
	 * until a task is frozen)
	 */
	struct sl_task *kept_copy;
	const struct sl_task *kept_copy_of;
	const struct sl_freeze_layout *freeze;

	/* the long lists of a JSON report being made (sl_json_add_list()) */
	struct sl_json_list *json_lists;
	size_t nr_json_lists;

	/* the input, while it is read, where config read_comm asks (sl_model_saved_comm()) */
	struct sl_reader *reader;
};

struct sl_model *sl_model_new(const struct sl_config *cfg, struct sl_strtab *strtab,
			      const struct sl_trace_info *info);
void sl_model_free(struct sl_model *m);
/*
 * Run one more analyzer, not from the registry (a test's probe), after
 * the others; sl_model_free() frees it and its priv like theirs.
 */
void sl_model_add_analyzer(struct sl_model *m, struct sl_analyzer *a);
void sl_model_feed(struct sl_model *m, const struct sl_event *ev);
/* sl_model_feed() of ev[0], ev[1], ... ev[n - 1], in that order */
void sl_model_feed_many(struct sl_model *m, const struct sl_event *ev, size_t n);
/*
 * An SL_EV_COMM event (config read_comm): to the hooks that want it, and
 * nothing else (not an event of the trace: not counted, not timed).
 */
void sl_model_comm(struct sl_model *m, const struct sl_event *ev);
/*
 * The name the input saved for pid apart from its events (a trace.dat's
 * saved cmdlines, sl_reader_saved_comm()), NULL none or not asked for
 * (config read_comm); valid while the trace is read.  For a task no event
 * has named: not a per-event lookup (the first may parse the table).
 */
const char *sl_model_saved_comm(const struct sl_model *m, int32_t pid);
/* End of the trace: close open intervals and let analyzers decide. */
void sl_model_finish(struct sl_model *m);
/*
 * The samples m->latency has at the end, so far (record --live's view,
 * during the run): made into h, which the caller frees (sl_hist_free()).
 */
void sl_model_latency_now(const struct sl_model *m, struct sl_hist *h);

/* The task of pid, NULL none (a frozen one is thawed: it is the task as it was). */
struct sl_task *sl_model_task(const struct sl_model *m, int32_t pid);
/*
 * The kept task m->tasks[i] to read: the task itself, or a frozen dead
 * task (SL_KEEP_DEAD_TASKS: one nothing refers to is packed into a few
 * bytes, task_freeze.c) unpacked into the model's scratch copy, its
 * slots too.  That copy is valid until the next call for another frozen
 * task: read it, never write to it or keep it (keep i).
 */
const struct sl_task *sl_kept_task_unpacked(const struct sl_model *m, uint32_t i);
static inline const struct sl_task *sl_kept_task(const struct sl_model *m, uint32_t i)
{
	const struct sl_task *t = m->tasks[i];

	return t && t->frozen ? sl_kept_task_unpacked(m, i) : t;
}
/* The same for code that writes to the task or keeps it: a frozen one is thawed for good. */
struct sl_task *sl_kept_task_thaw(const struct sl_model *m, uint32_t i);
static inline struct sl_task *sl_kept_task_thawed(const struct sl_model *m, uint32_t i)
{
	struct sl_task *t = m->tasks[i];

	return t && t->frozen ? sl_kept_task_thaw(m, i) : t;
}
static inline struct sl_cpu *sl_model_cpu(const struct sl_model *m, int cpu)
{
	return cpu >= 0 && cpu < m->nr_cpus ? &m->cpus[cpu] : NULL;
}

/* Positive duration b - a, 0 when the clocks disagree. */
static inline uint64_t sl_dur(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

/*
 * Gaps whose marker did not say how many events were lost; returned, and
 * *floor set when m->lost_events is then only a floor (the sum of the
 * counted gaps: the input gave no total of its own, as a tracefs header does).
 */
static inline uint64_t sl_model_lost_uncounted(const struct sl_model *m, bool *floor)
{
	uint64_t uncounted = 0, counted = 0;

	for (int cpu = 0; cpu < m->nr_cpus; cpu++) {
		uncounted += m->cpus[cpu].lost_uncounted;
		counted += m->cpus[cpu].lost_events;
	}
	*floor = uncounted && m->lost_events <= counted;
	return uncounted;
}

/* SPEC: a CPU is idle when it is known, runs nothing and has nobody queued or pending. */
static inline bool sl_cpu_is_idle(const struct sl_cpu *c)
{
	return c->known && !c->curr && !c->nr_queued && !c->nr_pending;
}
/*
 * Is c inside the ttwu_pending race window (seeds/000)?  Its wakelist
 * handler started after wakeups were queued for it (its pending list has
 * not been empty since before that entry) and they are not all enqueued
 * yet: until "sched: Clear ttwu_pending after enqueue_task",
 * sched_ttwu_pending() cleared rq->ttwu_pending first, so idle_cpu() said
 * idle there from the handler's start until the enqueue.  Before the
 * handler starts, the CPU looks busy to the kernel (its wakeup is "in
 * flight").  Only answerable when the trace has the handler's events
 * (m->seen_wakelist_entry).
 */
static inline bool sl_cpu_in_ttwu_window(const struct sl_cpu *c)
{
	return c->nr_pending && c->wakelist_entry_ts && c->wakelist_entry_ts >= c->pending_since;
}

/*
 * What a marker's from= token means, for people: "cache-L3" -> "L3
 * cache" etc.; an unknown token is returned as it is.
 */
const char *sl_llc_from_text(const char *from);

/* Do CPUs a and b share a last-level cache (SPEC: --llc, default one domain)? */
bool sl_same_llc(const struct sl_model *m, int a, int b);
/*
 * What the trace shows of t's affinity without a recorded mask: a per-CPU
 * kernel thread is pinned; seen running on two CPUs since its last move by
 * a migration/N stopper, migratable; else unknown.
 */
enum sl_affinity sl_task_affinity(const struct sl_model *m, const struct sl_task *t);
/* The CPUs t may run on at ts as the trace recorded them; NULL when it recorded none for t. */
const struct sl_cpuset *sl_task_allowed_at(const struct sl_model *m, const struct sl_task *t,
					   uint64_t ts);
uint32_t sl_cpuset_count(const struct sl_cpuset *s);
const char *sl_task_comm(const struct sl_model *m, const struct sl_task *t);
/*
 * The name of the task of a wait as perf sched latency gives it: its last
 * comm (a task named perf until it exec'd sched-pipe is sched-pipe);
 * the comm at the wait when the task is no longer kept.
 */
uint32_t sl_wait_comm(const struct sl_model *m, const struct sl_wait_moment *w);
/*
 * " (schedlint record itself)" when pid is the recorder that wrote the
 * trace (a finding's culprit or victim must say so), else "".
 */
const char *sl_recorder_note(const struct sl_model *m, int32_t pid);
/*
 * sl_task_class - t's scheduling class by its policy, and where that came
 * from: a recorded policy first, then the prio (a wakeup's class, the
 * prio first, is sl_class_at()'s).  Inline: analyzers ask it at every
 * switch of a trace with policies.
 */
static inline enum sl_sched_class sl_class_of_policy(int policy)
{
	switch (policy) {	/* SCHED_* of include/uapi/linux/sched.h */
	case 0:	/* SCHED_NORMAL */
	case 3:	/* SCHED_BATCH */
	case 5:	/* SCHED_IDLE */
		return SL_CLASS_FAIR;
	case 1:	/* SCHED_FIFO */
	case 2:	/* SCHED_RR */
		return SL_CLASS_RT;
	case 6:	/* SCHED_DEADLINE */
		return SL_CLASS_DL;
	case 7:	/* SCHED_EXT */
		return SL_CLASS_EXT;
	default:
		return SL_CLASS_UNKNOWN;
	}
}

static inline enum sl_sched_class sl_task_class(const struct sl_model *m, const struct sl_task *t,
						enum sl_class_source *source)
{
	enum sl_sched_class c = SL_CLASS_UNKNOWN;

	(void)m;
	*source = SL_CLASS_FROM_NONE;
	if (t->policy >= 0 && (c = sl_class_of_policy(t->policy)) != SL_CLASS_UNKNOWN) {
		*source = SL_CLASS_FROM_POLICY;
		return c;
	}
	if (t->prio_dl)
		c = SL_CLASS_DL;
	else if (t->prio >= 0 && t->prio < 100)
		c = SL_CLASS_RT;
	else if (t->prio >= 100 && t->prio <= 139)
		c = SL_CLASS_FAIR;
	if (c != SL_CLASS_UNKNOWN)
		*source = SL_CLASS_FROM_PRIO;
	return c;
}
/*
 * sl_class_at - the class a task is in whose events gave it prio (its
 * prio_dl and recorded policy as in struct sl_task), as far as the
 * events show: their prio decides real-time (0..99), deadline (-1) or
 * fair (100..139), whatever the recorded policy says (a boost by
 * priority inheritance, a chrt record has not re-read yet, a policy a
 * child inherited from such a parent); the recorded policy tells
 * sched_ext from fair, and gives the class of a task whose events gave
 * no prio.  *by_policy: the recorded policy's class is the one returned.
 */
enum sl_sched_class sl_class_at(int32_t prio, bool prio_dl, int policy, bool *by_policy);
/*
 * A sample v of t woken at another prio than the one its samples' class
 * was decided for (t->wake_prio != t->lat_prio: its first sample, a new
 * prio or policy, a task whose samples are split, a deadline one):
 * called before v goes to t's own histogram (sched_class.c).
 */
void sl_class_sample(struct sl_model *m, struct sl_task *t, uint64_t v);
/* t's samples into the rows, and t into their task counts (the model calls it as it folds a task, and at the end). */
void sl_class_take_task(struct sl_model *m, const struct sl_task *t);
/*
 * sl_class_sources (task_fold.c) - how many of the tasks the report lists (active, in
 * the filters, the folded ones too) have their class from a recorded
 * policy, from the prio, or not at all: n[enum sl_class_source].
 */
void sl_class_sources(const struct sl_model *m, uint64_t n[3]);
/* The folded tasks of comm (interned), NULL none (task_fold.c). */
const struct sl_folded_comm *sl_folded_comm(const struct sl_model *m, uint32_t comm);
/* Did t run, wait or wake (the report lists such tasks, in the filters)? */
bool sl_task_active(const struct sl_task *t);

/*
 * Filters (SPEC: --cpus, --pid, --comm, --from/--to; the workload, unless
 * --system, when the trace names one).  Inline: the model
 * and the analyzers ask several times per event, nearly always with no
 * filter given or the workload's alone (a call was 2% of analyze on a
 * workload's trace).
 */
bool sl_filter_task_list(const struct sl_config *cfg, const struct sl_strtab *st,
			 const struct sl_task *t);
/* qsort()/bsearch() order of int32_t pids */
int sl_pid_cmp(const void *a, const void *b);

/*
 * After sl_model_finish(): 0 when every filter given matches something in
 * the trace; else a negative errno with err filled (one line naming the
 * filter, without the path).  Every listed pid and comm must be in the
 * trace, every --cpus CPU within its CPU count, --from/--to in order and
 * overlapping it, and the filters together must leave at least one event.
 */
int sl_filter_check(const struct sl_model *m, struct sl_error *err);

static inline bool sl_filter_cpu(const struct sl_config *cfg, int cpu)
{
	return !cfg->cpus.nr_words || sl_cpuset_test(&cfg->cpus, cpu);
}

/* No --pid, --comm or workload: every task passes */
static inline bool sl_filter_task_none(const struct sl_config *cfg)
{
	return !cfg->nr_pids && !cfg->nr_comms && !cfg->workload_active;
}

static inline bool sl_filter_task(const struct sl_config *cfg, const struct sl_strtab *st,
				  const struct sl_task *t)
{
	if (cfg->no_task_list || (!cfg->nr_pids && !cfg->nr_comms))	/* the workload alone, or none */
		return !cfg->workload_active || (t && t->in_workload);
	return sl_filter_task_list(cfg, st, t);
}

static inline bool sl_filter_time(const struct sl_config *cfg, uint64_t ts)
{
	return cfg->no_time_filter ||
	       ((!cfg->from_set || ts >= cfg->from_ns) && (!cfg->to_set || ts <= cfg->to_ns));
}

/* Length of [a, b) inside --from/--to. */
static inline uint64_t sl_filter_clip(const struct sl_config *cfg, uint64_t a, uint64_t b)
{
	if (!cfg->no_time_filter) {
		if (cfg->from_set && a < cfg->from_ns)
			a = cfg->from_ns;
		if (cfg->to_set && b > cfg->to_ns)
			b = cfg->to_ns;
	}
	return sl_dur(a, b);
}

#endif /* SCHEDLINT_MODEL_H */
