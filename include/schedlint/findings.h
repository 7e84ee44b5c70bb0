/* SPDX-License-Identifier: GPL-2.0 */
/*
 * findings.h - bad scheduler decisions, their costs and their summaries
 *
 * Analyzers add findings here; the filters (--cpus/--pid/--comm/--from/
 * --to) are applied once, in sl_finding_add().  Every finding that passes
 * is counted in its kind's summary; the lists keep only the
 * --max-findings most costly (a min-heap evicts the cheapest), so memory
 * does not grow with the trace.
 *
 * Kind-specific fields live in the analyzer's detail struct, printed by
 * its struct sl_finding_ops.
 */
#ifndef SCHEDLINT_FINDINGS_H
#define SCHEDLINT_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cJSON;
struct sl_model;
struct sl_finding;

enum sl_kind {
	SL_KIND_WAKEE_STACKING = 0,
	SL_KIND_SYNC_WAKE_REMOTE,
	SL_KIND_SYNC_WAKE_LOCAL,	/* a measurement: counted, never listed */
	SL_KIND_LATE_PREEMPTION,
	SL_KIND_IDLE_WHILE_RUNNABLE,
	SL_KIND__COUNT
};

struct sl_kind_info {
	const char *name;		/* "wakee-stacking", as in JSON and --fail-on */
	bool listed;			/* a finding (true) or a measurement (false) */
	const char *what;		/* one line for the report */
};
extern const struct sl_kind_info sl_kinds[SL_KIND__COUNT];
int sl_kind_by_name(const char *name);

struct sl_finding_ops {
	/* the one-line message a kernel developer understands */
	void (*message)(const struct sl_finding *f, const struct sl_model *m, char *buf, size_t len);
	/* the kind's own fields */
	void (*json)(const struct sl_finding *f, const struct sl_model *m, struct cJSON *obj);
	void (*free_detail)(void *detail);
};

struct sl_finding {
	uint8_t kind;			/* enum sl_kind */
	uint64_t ts;			/* when it happened (the moment to look at) */
	int32_t cpu;
	int32_t pid;
	uint32_t comm;
	uint64_t cost;			/* ns */
	const struct sl_finding_ops *ops;
	void *detail;			/* owned by the finding once added */
};

struct sl_kind_summary {
	uint64_t count;
	uint64_t cost;			/* total, saturating */
	uint64_t max_cost;
};

struct sl_findings {
	struct sl_kind_summary summary[SL_KIND__COUNT];
	struct sl_finding *heap;	/* min-heap on cost, at most max entries */
	size_t nr, max;
	uint64_t dropped;		/* evicted by the cap */
	bool sorted;			/* heap[] is sorted for a report, not a heap */
};

struct sl_findings *sl_findings_new(size_t max);
void sl_findings_free(struct sl_findings *fs);
/*
 * Add a finding (copied; its detail is owned from now on) if it passes the
 * filters; returns true when it was counted.  task_pid/comm decide --pid/--comm.
 */
bool sl_finding_add(struct sl_model *m, const struct sl_finding *f);
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
/* Count a measurement (sync-wake-local) with the same filters. */
bool sl_measure_add(struct sl_model *m, enum sl_kind kind, uint64_t ts, int cpu,
		    int32_t pid, uint32_t comm, uint64_t cost);
/* The kept findings sorted by cost, most costly first (valid until the next add). */
const struct sl_finding *sl_findings_sorted(struct sl_findings *fs, size_t *nr);
void sl_finding_message(const struct sl_finding *f, const struct sl_model *m, char *buf, size_t len);

#endif /* SCHEDLINT_FINDINGS_H */
