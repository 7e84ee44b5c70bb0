// SPDX-License-Identifier: GPL-2.0
/*
 * task_fold.c - the folded dead tasks, summed by comm (SL_KEEP_DEAD_TASKS)
 *
 * The model decides when a dead task is folded (model.c); here its
 * numbers join its comm's row, which the report shows in place of the
 * task's own, so every total the report gives stays the same.
 */
#include <stdlib.h>
#include <string.h>

#include "schedlint/model.h"
#include "task_fold.h"
#include "util/util.h"

bool sl_task_active(const struct sl_task *t)
{
	return t->switches || t->wakeups || t->run_ns || t->wait_ns || t->preemptions ||
	       t->migrations || t->latency.count;
}

const struct sl_folded_comm *sl_folded_comm(const struct sl_model *m, uint32_t comm)
{
	if (comm >= m->folded_of_alloc || !m->folded_of[comm])
		return NULL;
	return &m->folded[m->folded_of[comm] - 1];
}

static struct sl_folded_comm *folded_row(struct sl_model *m, uint32_t comm)
{
	struct sl_folded_comm *f;

	if (comm >= m->folded_of_alloc) {
		size_t old = m->folded_of_alloc;

		GROW(m->folded_of, m->folded_of_alloc, (size_t)comm + 1);
		memset(m->folded_of + old, 0, (m->folded_of_alloc - old) * sizeof(*m->folded_of));
	}
	if (m->folded_of[comm])
		return &m->folded[m->folded_of[comm] - 1];
	GROW(m->folded, m->folded_alloc, (size_t)m->nr_folded + 1);
	f = &m->folded[m->nr_folded++];
	memset(f, 0, sizeof(*f));
	f->comm = comm;
	sl_hist_init(&f->latency);
	m->folded_of[comm] = m->nr_folded;
	return f;
}

/* Called by the model as it folds t: the report's rows of t go to its comm's. */
void sl_fold_task_numbers(struct sl_model *m, const struct sl_task *t)
{
	struct sl_folded_comm *f;
	enum sl_class_source source;

	m->tasks_folded++;
	for (size_t i = 0; i < m->cfg->nr_pids; i++) {
		if (m->cfg->pids[i] != t->pid)
			continue;
		if (!m->folded_pids)
			m->folded_pids = xcalloc(m->cfg->nr_pids, sizeof(*m->folded_pids));
		m->folded_pids[i] = true;
	}
	sl_class_take_task(m, t);
	f = folded_row(m, t->comm);
	if (!sl_task_active(t) || !sl_filter_task(m->cfg, m->strtab, t))
		return;
	f->tasks++;
	sl_task_class(m, t, &source);
	m->folded_class_source[source]++;
	f->wakeups += t->wakeups;
	f->run_ns += t->run_ns;
	f->wait_ns += t->wait_ns;
	f->switches += t->switches;
	f->preemptions += t->preemptions;
	f->migrations += t->migrations;
	f->latency_inferred += t->latency_inferred;
	if (t->latency.count && (!f->latency.count || t->worst.latency > f->worst.latency ||
				 (t->worst.latency == f->worst.latency && t->worst.run_ts < f->worst.run_ts)))
		f->worst = t->worst;
	sl_hist_merge(&f->latency, &t->latency);
}

/* the folded tasks counted as they were folded, the kept ones now */
void sl_class_sources(const struct sl_model *m, uint64_t n[3])
{
	for (int s = 0; s < 3; s++)
		n[s] = m->folded_class_source[s];
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		const struct sl_task *t = sl_kept_task(m, i);
		enum sl_class_source source;

		if (!t || !sl_task_active(t) || !sl_filter_task(m->cfg, m->strtab, t))
			continue;
		sl_task_class(m, t, &source);
		n[source]++;
	}
}

void sl_fold_free(struct sl_model *m)
{
	for (uint32_t i = 0; i < m->nr_folded; i++)
		sl_hist_free(&m->folded[i].latency);
	free(m->folded);
	free(m->folded_of);
	free(m->folded_pids);
}
