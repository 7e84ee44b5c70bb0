/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event.h - the one normalized event every reader produces
 *
 * A reader (trace.dat through libtracecmd or our own flyrecord reader, the
 * text dialects, a live tracefs instance) turns whatever it parses into a
 * stream of struct sl_event in timestamp order.  Everything downstream of the
 * readers (state model, analyzers, reports) sees only this struct and cannot
 * tell which file format an event came from.
 *
 * Strings (comms, event names, IPI callsites) are interned in a struct
 * sl_strtab and carried as 32-bit ids, so events are fixed-size and the
 * per-event path never allocates.
 */
#ifndef SCHEDLINT_EVENT_H
#define SCHEDLINT_EVENT_H

#include <stdbool.h>
#include <stdint.h>

enum sl_event_type {
	SL_EV_OTHER = 0,	/* an event we do not model: counted by name, ignored */
	SL_EV_SWITCH,		/* sched:sched_switch */
	SL_EV_WAKING,		/* sched:sched_waking (logged by the waker) */
	SL_EV_WAKEUP,		/* sched:sched_wakeup (the enqueue) */
	SL_EV_WAKEUP_NEW,	/* sched:sched_wakeup_new */
	SL_EV_MIGRATE,		/* sched:sched_migrate_task */
	SL_EV_FORK,		/* sched:sched_process_fork */
	SL_EV_EXIT,		/* sched:sched_process_exit */
	SL_EV_IPI_SEND_CPU,	/* ipi:ipi_send_cpu (x86 and others, >= 6.6) */
	SL_EV_IPI_SEND_CPUMASK,	/* ipi:ipi_send_cpumask */
	SL_EV_IPI_RAISE,	/* ipi:ipi_raise (arm64): target mask and reason */
	SL_EV_IPI_ENTRY,	/* ipi:ipi_entry (arm64): reason */
	SL_EV_IRQ_VECTOR,	/* irq_vectors:{reschedule,call_function,call_function_single}_entry */
	SL_EV_TIMER_TICK,	/* irq_vectors:local_timer_entry */
	SL_EV_WAKE_IDLE_NO_IPI,	/* sched:sched_wake_idle_without_ipi */
	SL_EV_CSD_QUEUE,	/* csd:csd_queue_cpu */
	SL_EV_CSD_FUNC_ENTRY,	/* csd:csd_function_entry */
	SL_EV_LOST,		/* pseudo event: the ring buffer of cpu lost events before ts */
	SL_EV_MARKER,		/* ftrace:print, a write to trace_marker: its text */
	/*
	 * pseudo event: a task's name from outside the tracepoints (perf.data's
	 * PERF_RECORD_COMM: each task's at the start, a new one at exec).  Only
	 * a reader asked for them makes them (struct sl_reader's comm), and the
	 * model only hands them to the hooks (sl_model_comm())
	 */
	SL_EV_COMM,
	SL_EV__COUNT
};
#define SL_EV_BIT(type)	(1u << (type))
_Static_assert(SL_EV__COUNT <= 32, "SL_EV_BIT() masks are 32 bits");

/* How the task left the CPU in a sched_switch (prev_state, normalized). */
enum sl_prev_class {
	SL_PREV_RUNNABLE = 0,	/* "R": still runnable (yield, or preemption on old formats) */
	SL_PREV_PREEMPTED,	/* "R+": preempted (TASK_REPORT_MAX / TASK_STATE_MAX bit) */
	SL_PREV_BLOCKED,	/* S D T t P I W K N ...: sleeps until woken */
	SL_PREV_DEAD,		/* X Z x: exited */
};

/* Context bits, from common_flags (trace.dat) or the irq-info column (text). */
#define SL_CTX_KNOWN	0x01	/* the input told us; otherwise the others mean nothing */
#define SL_CTX_HARDIRQ	0x02
#define SL_CTX_SOFTIRQ	0x04
#define SL_CTX_NMI	0x08

/* A cpumask carried by an event: words owned by the reader, valid until its next event. */
struct sl_cpumask_ref {
	const uint64_t *words;
	uint32_t nr_words;
};

/*
 * An event's prio when its record or line gave none (a text's "comm:pid"
 * without "[prio]", an exit without prio): -1 is a prio, SCHED_DEADLINE's
 * p->prio, which every format prints as it is.
 */
#define SL_PRIO_NONE	INT32_MIN

/* A prio as the displays print it: -1 for none, as the readers gave it before SL_PRIO_NONE. */
static inline int32_t sl_prio_shown(int32_t prio)
{
	return prio == SL_PRIO_NONE ? -1 : prio;
}

struct sl_event {
	uint64_t ts;		/* ns, in the trace clock */
	int32_t cpu;		/* the CPU whose ring buffer logged the event */
	int32_t pid;		/* common_pid: the task running on cpu (0 = idle), -1 unknown */
	uint8_t type;		/* enum sl_event_type */
	uint8_t ctx;		/* SL_CTX_* */
	/*
	 * Not 0: an event of the reader's fold_name (sched_stat_runtime) that
	 * this event's task logged on this CPU folded_ago - 1 ns before this
	 * one came right before it, folded into it (struct sl_reader's fold):
	 * the model applies it first, as it was (but its ctx, which the model
	 * reads of wake events only).
	 */
	uint16_t folded_ago;
	uint32_t name;		/* interned event name ("sched_switch", "bprint", ...) */
	union {
		struct {	/* SL_EV_SWITCH */
			int32_t prev_pid, next_pid;
			int32_t prev_prio, next_prio;
			uint32_t prev_comm, next_comm;
			uint8_t prev_class;	/* enum sl_prev_class */
			char prev_letter;	/* the kernel's state letter, 'R' when runnable */
		} sw;
		struct {	/* SL_EV_WAKING, SL_EV_WAKEUP, SL_EV_WAKEUP_NEW */
			int32_t pid, prio;
			int32_t target_cpu;	/* waking: previous CPU; wakeup: destination */
			uint32_t comm;
			bool success;		/* old kernels' success=0 wakeups changed nothing */
		} wake;
		struct {	/* SL_EV_MIGRATE */
			int32_t pid, prio;
			int32_t orig_cpu, dest_cpu;
			uint32_t comm;
		} migrate;
		struct {	/* SL_EV_FORK */
			int32_t parent_pid, child_pid;
			uint32_t parent_comm, child_comm;
		} fork;
		struct {	/* SL_EV_EXIT */
			int32_t pid, prio;
			uint32_t comm;
		} exit;
		struct {	/* SL_EV_IPI_SEND_CPU, _CPUMASK, _RAISE, _ENTRY, SL_EV_CSD_* */
			int32_t target_cpu;	/* one target, or -1 when the mask says */
			struct sl_cpumask_ref mask;	/* SEND_CPUMASK / RAISE targets */
			uint32_t callsite;	/* interned function name without offset, or reason */
			uint32_t callback;	/* interned callback/func name, 0 if none */
		} ipi;
		struct {	/* SL_EV_IRQ_VECTOR, SL_EV_TIMER_TICK */
			int32_t vector;
		} irq;
		struct {	/* SL_EV_WAKE_IDLE_NO_IPI */
			int32_t target_cpu;
		} idle_no_ipi;
		struct {	/* SL_EV_LOST */
			uint64_t count;		/* 0 when the input does not say how many */
		} lost;
		struct {	/* SL_EV_MARKER */
			uint32_t text;		/* interned, without the trailing newline */
		} marker;
		struct {	/* SL_EV_COMM */
			int32_t pid;		/* the task's (a thread's id) */
			uint32_t comm;		/* interned */
		} comm;
	};
};

/* Does ev carry its fields in ev->ipi (and so, maybe, a cpumask owned by the reader)? */
static inline bool sl_event_has_ipi(const struct sl_event *ev)
{
	switch (ev->type) {
	case SL_EV_IPI_SEND_CPU:
	case SL_EV_IPI_SEND_CPUMASK:
	case SL_EV_IPI_RAISE:
	case SL_EV_IPI_ENTRY:
	case SL_EV_CSD_QUEUE:
	case SL_EV_CSD_FUNC_ENTRY:
		return true;
	default:
		return false;
	}
}

static inline bool sl_cpumask_test(const struct sl_cpumask_ref *m, int cpu)
{
	if (cpu < 0 || (uint32_t)cpu / 64 >= m->nr_words)
		return false;
	return (m->words[cpu / 64] >> (cpu % 64)) & 1;
}

const char *sl_event_type_name(enum sl_event_type type);

#endif /* SCHEDLINT_EVENT_H */
