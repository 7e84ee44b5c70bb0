// SPDX-License-Identifier: GPL-2.0
/*
 * filter_check.c - fail closed: a filter that matches nothing is an error
 *
 * A typo in --comm, a pid of another boot, CPUs the machine did not have,
 * a window outside the trace: each would give an empty report that passes
 * every gate.  After the analysis, sl_filter_check() makes it an error
 * naming the filter.  Apart from filter.c, which model.c calls per event:
 * this file calls into model.c, and the two together would be a circle.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "schedlint/model.h"
#include "util/util.h"


/* Edit distance of a and b, capped: enough to suggest "sched-pipe" for "sched_pipe". */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), prev[65], cur[65];

	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, (lb + 1) * sizeof(*prev));
	}
	return prev[lb];
}

static bool has_comm(const struct sl_model *m, const char *comm, const char **closest)
{
	size_t best = 3;	/* suggest only a near miss: at most 2 edits */

	*closest = NULL;
	for (uint32_t i = 0; i < m->nr_tasks + m->nr_folded; i++) {
		const char *c = sl_str(m->strtab, i < m->nr_tasks ? m->tasks[i]->comm :
					   m->folded[i - m->nr_tasks].comm);
		size_t d;

		if (!strcmp(c, comm))
			return true;
		d = edit_distance(c, comm);
		if (d < best) {
			best = d;
			*closest = c;
		}
	}
	return false;
}

static uint64_t events_in_filter(const struct sl_model *m)
{
	uint64_t n = 0;

	for (int i = 0; i < SL_EV__COUNT; i++)
		if (i != SL_EV_LOST)
			n += m->type_counts[i];
	return n;
}

int sl_filter_check(const struct sl_model *m, struct sl_error *err)
{
	const struct sl_config *cfg = m->cfg;
	int ncpus = m->info && m->info->ncpus > m->nr_cpus ? m->info->ncpus : m->nr_cpus;
	char a[32], b[32];

	for (size_t i = 0; i < cfg->nr_pids; i++) {
		if (!sl_model_task(m, cfg->pids[i]) && !(m->folded_pids && m->folded_pids[i])) {
			snprintf(err->msg, sizeof(err->msg), "--pid %d: no task with this pid in the trace",
				 cfg->pids[i]);
			return -ENOENT;
		}
	}
	for (size_t i = 0; i < cfg->nr_comms; i++) {
		const char *closest;

		/* a name some task had before its exec (the pass that found comm_pids) */
		if (i < 64 && (cfg->comms_seen >> i & 1))
			continue;
		if (!has_comm(m, cfg->comms[i], &closest)) {
			snprintf(err->msg, sizeof(err->msg), "--comm '%s': no task of this name in the "
				 "trace%s%s%s", cfg->comms[i], closest ? " (did you mean '" : "",
				 closest ? closest : "", closest ? "'?)" : "");
			return -ENOENT;
		}
	}
	for (uint32_t w = 0; w < cfg->cpus.nr_words; w++) {
		for (int bit = 0; bit < 64; bit++) {
			int cpu = (int)(w * 64) + bit;

			if (!(cfg->cpus.words[w] >> bit & 1) || cpu < ncpus)
				continue;
			if (ncpus > 1)
				snprintf(err->msg, sizeof(err->msg), "--cpus: CPU %d is not in the trace "
					 "(it has CPUs 0-%d)", cpu, ncpus - 1);
			else
				snprintf(err->msg, sizeof(err->msg), "--cpus: CPU %d is not in the trace "
					 "(it has %s)", cpu, ncpus ? "CPU 0 only" : "no CPU");
			return -ENOENT;
		}
	}
	/*
	 * --llc names CPUs of the trace (one it leaves out is a domain of its
	 * own): --llc=5-6 on a 2-CPU trace was taken silently, wakee-stacking
	 * 4 -> 0 (issue 32, 22)
	 */
	for (int cpu = ncpus; cfg->llc_spec && cpu < m->nr_llc_cpus; cpu++) {
		if (m->llc_of[cpu] < 0)
			continue;
		snprintf(err->msg, sizeof(err->msg), "--llc %s: CPU %d is not in the trace "
			 "(it has %d CPU%s)", cfg->llc_spec, cpu, ncpus, ncpus == 1 ? "" : "s");
		return -ENOENT;
	}
	if (cfg->from_set && cfg->to_set && !cfg->from_rel && !cfg->to_rel &&
	    cfg->from_ns > cfg->to_ns) {
		snprintf(err->msg, sizeof(err->msg), "--from %s is after --to %s",
			 fmt_ts(a, sizeof(a), cfg->from_ns), fmt_ts(b, sizeof(b), cfg->to_ns));
		return -EINVAL;
	}
	if (cfg->from_set && m->nr_events && cfg->from_ns > m->last_ts) {
		/* with --to the reading stopped there: last_ts need not be the trace's end */
		if (cfg->to_set)
			snprintf(err->msg, sizeof(err->msg), "--from %s --to %s: no event of the "
				 "trace in this window", fmt_ts(a, sizeof(a), cfg->from_ns),
				 fmt_ts(b, sizeof(b), cfg->to_ns));
		else
			snprintf(err->msg, sizeof(err->msg), "--from %s: after the trace's last "
				 "event (%s)", fmt_ts(a, sizeof(a), cfg->from_ns),
				 fmt_ts(b, sizeof(b), m->last_ts));
		return -ERANGE;
	}
	if (cfg->to_set && (!m->nr_events || cfg->to_ns < m->first_ts)) {
		if (m->nr_events)
			snprintf(err->msg, sizeof(err->msg), "--to %s: before the trace's first "
				 "event (%s)", fmt_ts(a, sizeof(a), cfg->to_ns),
				 fmt_ts(b, sizeof(b), m->first_ts));
		else
			snprintf(err->msg, sizeof(err->msg), "--to %s: no event of the trace at or "
				 "before it", fmt_ts(a, sizeof(a), cfg->to_ns));
		return -ERANGE;
	}
	/* each filter matches something, yet together they may leave nothing */
	if ((cfg->from_set || cfg->to_set || cfg->cpus.nr_words) && m->nr_events &&
	    !events_in_filter(m)) {
		snprintf(err->msg, sizeof(err->msg), "%s%s%s: no event of the trace in them",
			 cfg->cpus.nr_words ? "--cpus" : "",
			 cfg->cpus.nr_words && (cfg->from_set || cfg->to_set) ? " with " : "",
			 cfg->from_set && cfg->to_set ? "--from/--to" :
			 cfg->from_set ? "--from" : cfg->to_set ? "--to" : "");
		return -ENOENT;
	}
	return 0;
}
