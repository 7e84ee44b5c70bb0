/* SPDX-License-Identifier: GPL-2.0 */
/*
 * findings.h - bad scheduler decisions, their costs and their summaries
 *
 * Analyzers add findings here; the filters (--cpus/--pid/--comm/--from/
 * --to) are applied once, in sl_finding_add().  Every finding that passes
 * is counted in its kind's summary; each kind's list keeps only its
 * --max-findings most costly (a min-heap per kind evicts the cheapest), so
 * memory does not grow with the trace and thousands of one kind never
 * crowd another kind out of the lists.
 *
 * Kind-specific fields live in the analyzer's detail struct, printed by
 * its struct sl_finding_ops.
 */
#ifndef SCHEDLINT_FINDINGS_H
#define SCHEDLINT_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sl_fields;
struct sl_model;
struct sl_finding;
struct sl_task;

enum sl_kind {
	SL_KIND_WAKEE_STACKING = 0,
	SL_KIND_SYNC_WAKE_REMOTE,
	SL_KIND_SYNC_WAKE_LOCAL,	/* a measurement: counted, never listed */
	SL_KIND_LATE_PREEMPTION,
	SL_KIND_IDLE_WHILE_RUNNABLE,
	/*
	 * late-preemption's runs that ended at the first tick after their
	 * slice with HRTICK off: the kernel's design, a configuration
	 * finding (one line on the first screen), apart so that
	 * late-preemption keeps the runs later than that
	 */
	SL_KIND_LATE_PREEMPTION_AT_TICK,
	SL_KIND__COUNT
};

struct sl_kind_info {
	const char *name;		/* "wakee-stacking", as in JSON and --fail-on */
	bool listed;			/* a finding (true) or a measurement (false) */
	/*
	 * A finding of the machine's configuration, not of a decision: the
	 * first screen gives it one line of its own (the analyzer's
	 * report_summary) instead of a row of the findings table.
	 */
	bool configuration;
	/*
	 * Decided at the end of the trace (its findings are held until the
	 * tasks' affinity and the ring buffers' gaps are known): a count
	 * before the end, as record --live's summary would print, is none.
	 */
	bool at_end;
	const char *what;		/* one line for the report */
	/*
	 * What to do next, for the kind's report section (NULL: nothing to
	 * say): the kernel path that made the decision, the knobs that change
	 * it and how to read them on the running kernel (one per line), the
	 * upstream patch that fixed the mechanism (the one the man page cites)
	 * and its address.
	 */
	const char *kernel, *knobs, *patch, *patch_url;
};
extern const struct sl_kind_info sl_kinds[SL_KIND__COUNT];
int sl_kind_by_name(const char *name);

/* The moment a finding is seen in the trace: the events from .. to on these CPUs. */
#define SL_MOMENT_CPUS 4
struct sl_moment {
	uint64_t from, to;		/* times of events the trace has (from its waking, ...) */
	int32_t cpus[SL_MOMENT_CPUS];
	int nr_cpus;
};

struct sl_finding_ops {
	/* the one-line message a kernel developer understands */
	void (*message)(const struct sl_finding *f, const struct sl_model *m, char *buf, size_t len);
	/* its moment (optional; else ts .. ts + cost on cpu) */
	void (*moment)(const struct sl_finding *f, const struct sl_model *m, struct sl_moment *out);
	/* the kind's own fields (schedlint/report.h: to a report, a row, a slice) */
	void (*fields)(const struct sl_finding *f, const struct sl_model *m, struct sl_fields *o);
	void (*free_detail)(void *detail);
};

/*
 * What the other decision would have given (analyzers/whatif.c fills it
 * at the end of the trace for the findings kept in the list): the wait of
 * the task that waited, now and estimated.  est == 0: no estimate.
 */
struct sl_finding_whatif {
	uint64_t fact;			/* the analyzer's input: sync-wake-remote's sleep_after */
	uint64_t now;			/* the wait now */
	uint64_t est, lo, hi;		/* the estimate and its range (from the basis' p25..p75) */
	uint64_t basis;			/* measurements it comes from */
	int32_t cpu;			/* where the other decision runs the task, -1 the same CPU */
	int32_t pid;			/* whose wait (late-preemption: the waiter that ran next) */
	uint32_t comm;
	bool weak;			/* basis below SL_WHATIF_WEAK_BELOW */
};

#define SL_WHATIF_WEAK_BELOW 20

struct sl_finding {
	uint8_t kind;			/* enum sl_kind */
	uint64_t ts;			/* when it happened (the moment to look at) */
	int32_t cpu;
	int32_t pid;
	uint32_t comm;
	uint64_t cost;			/* ns */
	bool victim_in_workload;	/* the task that waited (late-preemption: one of
					 * the waiters) is the workload's: the workload
					 * filter keeps the finding */
	const struct sl_finding_ops *ops;
	void *detail;			/* owned by the finding once added */
	struct sl_finding_whatif whatif;
};

struct sl_kind_summary {
	uint64_t count;
	uint64_t cost;			/* total, saturating */
	uint64_t max_cost;
	/* the what-if of the kind's findings (analyzers/whatif.c, at the end) */
	bool whatif;			/* estimated: the fields below are set */
	int64_t whatif_saved;		/* total wait saved (ns), < 0: fixing would cost */
	uint64_t whatif_p99;		/* wakeup-latency p99 with them fixed */
};

/* One kind's kept findings: a min-heap on cost, at most max entries. */
struct sl_finding_list {
	struct sl_finding *heap;	/* grown as it fills, up to max */
	size_t nr, alloc;
	uint64_t dropped;		/* evicted by the cap (or counted unlisted) */
	bool sorted;			/* heap[] is sorted for a report, not a heap */
};

struct sl_findings {
	struct sl_kind_summary summary[SL_KIND__COUNT];
	struct sl_finding_list lists[SL_KIND__COUNT];
	size_t max;			/* per kind (--max-findings) */
	size_t nr;			/* kept, all kinds */
	uint64_t dropped;		/* evicted by the caps, all kinds */
	struct sl_finding *sorted;	/* every kept finding by cost (shallow copies), or NULL */
};

/*
 * A cap that means every finding (export's NDJSON): the lists grow as
 * they fill.  Below it, a list (and an analyzer's held list) is allocated
 * at its cap at once, as a cap the machine cannot hold fails at the start.
 */
#define SL_FINDINGS_ALL ((size_t)1 << 40)

struct sl_findings *sl_findings_new(size_t max);
void sl_findings_free(struct sl_findings *fs);
/*
 * Add a finding (copied; its detail is owned from now on) if it passes the
 * filters; returns true when it was counted.  pid/comm decide --pid/--comm,
 * victim_in_workload the workload filter.
 */
bool sl_finding_add(struct sl_model *m, const struct sl_finding *f);
/*
 * The same for a finding whose detail (size bytes, no pointer the
 * finding owns) is the caller's, on its stack: copied only when the
 * finding is kept, so that one the cap drops at once costs no allocation
 * (late-preemption adds thousands on hackbench, most of them dropped).
 */
bool sl_finding_add_copy(struct sl_model *m, const struct sl_finding *f, size_t size);
/* Would f pass the filters (--cpus/--pid/--comm/--from/--to)? */
bool sl_finding_passes(const struct sl_model *m, const struct sl_finding *f);
/*
 * Count findings that passed the filters but are not listed: an analyzer
 * that held candidates until the end and, to bound its memory, kept only
 * the most costly of them in full (held.h).  They go to kind's summary
 * and make the list say it was capped.
 */
void sl_findings_add_unlisted(struct sl_model *m, enum sl_kind kind, uint64_t count,
			      uint64_t cost, uint64_t max_cost);
/* Count a measurement (sync-wake-local) of task t with the same filters. */
bool sl_measure_add(struct sl_model *m, enum sl_kind kind, uint64_t ts, int cpu,
		    const struct sl_task *t, uint64_t cost);
/*
 * The kept findings of every kind sorted by cost, most costly first
 * (valid until the next add).
 */
const struct sl_finding *sl_findings_sorted(struct sl_findings *fs, size_t *nr);
/*
 * Move the kept findings of kind from that pick() chooses to kind to,
 * at the end of the trace (an analyzer that learns only then which of
 * two kinds its findings are).  The summaries become rest (from) and
 * moved (to): the analyzer counted both, listed or not; each list's
 * dropped count follows.
 */
void sl_findings_move(struct sl_findings *fs, enum sl_kind from, enum sl_kind to,
		      bool (*pick)(const struct sl_finding *f, void *arg), void *arg,
		      const struct sl_kind_summary *rest, const struct sl_kind_summary *moved);
/* The kept findings of one kind, most costly first (valid until the next add). */
const struct sl_finding *sl_findings_of_kind(struct sl_findings *fs, enum sl_kind kind, size_t *nr);
/*
 * The kept findings of kind themselves, to change in place (what
 * whatif.c estimates; never the cost, which orders them): every view
 * shows the change, as the sorted copies are made anew at the next
 * sl_findings_sorted().  The views are read-only: what-if estimates
 * written into sl_findings_sorted()'s copies were missing from the lists
 * (the text and HTML reports read), and lost at the copies' next making.
 */
struct sl_finding *sl_findings_edit(struct sl_findings *fs, enum sl_kind kind, size_t *nr);
void sl_finding_message(const struct sl_finding *f, const struct sl_model *m, char *buf, size_t len);
/* The finding's moment, its CPUs ascending and each once. */
void sl_finding_moment(const struct sl_finding *f, const struct sl_model *m, struct sl_moment *out);
/* Add cpu to the moment's CPUs (ignored: negative, already there, no room). */
void sl_moment_add_cpu(struct sl_moment *mo, int32_t cpu);
/*
 * Its what-if in one line: "if placed on cpu1: ~4.02 us instead of 38.0 us
 * (3.10 us..5.20 us, from 412)"; false when it has none.
 */
bool sl_finding_whatif_text(const struct sl_finding *f, const struct sl_model *m, char *buf,
			    size_t len);

#endif /* SCHEDLINT_FINDINGS_H */
