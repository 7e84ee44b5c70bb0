/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config.h - what the user asked for: thresholds, models, filters
 *
 * analyze, diff and explore share these options (options.c parses them),
 * so a trace analyzed by diff gives the numbers analyze would.
 */
#ifndef SCHEDLINT_CONFIG_H
#define SCHEDLINT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader.h"

struct sl_analyzer_ops;

enum sl_slice_model {
	SL_SLICE_EEVDF = 0,
	SL_SLICE_CFS,
};

/* Which tasks the report covers when the trace names a workload (SL_MARKER_WORKLOAD). */
enum sl_scope {
	SL_SCOPE_AUTO = 0,	/* the workload when the trace names one, else every task */
	SL_SCOPE_WORKLOAD,	/* --workload: the workload; a trace without one is an error */
	SL_SCOPE_SYSTEM,	/* --system: every task */
};

struct sl_cpuset {
	uint64_t *words;
	uint32_t nr_words;
};

static inline bool sl_cpuset_test(const struct sl_cpuset *s, int cpu)
{
	return cpu >= 0 && (uint32_t)cpu / 64 < s->nr_words &&
	       (s->words[cpu / 64] >> (cpu % 64) & 1);
}

struct sl_config {
	/* finding thresholds (SPEC "Findings"; defaults in sl_config_init) */
	uint64_t min_cost_ns;		/* wakee-stacking: report when latency >= this */
	uint64_t sync_window_ns;	/* sync-wake: waker blocks having run at most this */
	uint64_t tolerance_ns;		/* late-preemption: report when later than this */
	uint64_t idle_threshold_ns;	/* idle-while-runnable: overlap at least this */
	enum sl_slice_model slice_model;
	bool slice_model_set;		/* given by the user (else from the kernel version) */
	uint64_t base_slice_ns;		/* 0 = from the CPU count */
	int hz;				/* 0 = infer from the trace */
	char *llc_spec;			/* "--llc 0-3,4-7", NULL = one domain */
	bool assume_migratable;		/* treat tasks of unknown affinity as migratable */
	bool exclude_inferred;		/* no latency sample ends at an inferred switch */
	size_t max_findings;		/* findings kept in the lists (summaries count all) */
	uint64_t window_ns;		/* latency over time: --window, 0 = from the span */
	size_t keep_tasks;		/* dead tasks kept one by one, 0 = SL_KEEP_DEAD_TASKS */
	/*
	 * The command prints none of the model's wakeup-latency statistics
	 * (timehist): the model adds no sample to its histograms, series and
	 * worst cases (the analyzers' on_latency hooks still get them).
	 */
	bool no_latency_stats;
	/*
	 * Read on past --to (timehist: the run in progress at --to on each
	 * CPU ends at it, as perf counts it, at that CPU's next switch).
	 */
	bool read_past_to;
	/* hand the hooks SL_EV_COMM events, where the reader has them (timehist) */
	bool read_comm;

	/* filters: what the report covers (the model still sees every event) */
	struct sl_cpuset cpus;		/* nr_words == 0: all CPUs */
	int32_t *pids;
	size_t nr_pids;
	char **comms;
	size_t nr_comms;
	/*
	 * The pids that had one of comms' names somewhere in the trace
	 * (sorted, owned by the analysis): --comm matches a task by any name
	 * it had, also before its exec (sl_analysis_run() finds them).
	 */
	bool comm_any_name;		/* the command wants it (analyze, diff): comm_pids */
	const int32_t *comm_pids;
	size_t nr_comm_pids;
	uint64_t comms_seen;		/* bit i: comms[i] is a name some task had */
	uint64_t from_ns, to_ns;	/* to_ns == UINT64_MAX: to the end */
	bool from_set, to_set;
	bool from_rel, to_rel;		/* "+100ms": relative to the first event, until
					 * the model resolves them at that event */
	enum sl_scope scope;
	bool workload_active;		/* only the workload's tasks: set by the model when
					 * it meets the trace's workload marker (not --system) */
	/*
	 * Known unfiltered (the model sets them from the fields above, in
	 * its copy): the filters of model.h, asked for every event, answer
	 * from one byte.  False: look at the fields (a config made by hand).
	 */
	bool no_time_filter;		/* !from_set && !to_set */
	bool no_task_list;		/* !nr_pids && !nr_comms */

	struct sl_read_opts read;

	/*
	 * The analyzers the model runs, in report order: sl_config_init()
	 * sets every one (analyzers/registry.c).  The model gets them here
	 * and never names the registry, so calls run one way: the commands
	 * know the analyzers, the model only their ops struct.
	 */
	const struct sl_analyzer_ops *const *analyzers;
	int nr_analyzers;
};

void sl_config_init(struct sl_config *cfg);
void sl_config_free(struct sl_config *cfg);

#endif /* SCHEDLINT_CONFIG_H */
