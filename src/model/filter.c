// SPDX-License-Identifier: GPL-2.0
/*
 * filter.c - the task filters (the workload, --pid, --comm) the reports apply
 *
 * Apart from model.c because findings.c asks it too: model.c creates the
 * findings lists, so findings.c calling into model.c made a circle.
 */
#include <stdlib.h>
#include <string.h>

#include "schedlint/model.h"

int sl_pid_cmp(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* the workload, --pid and --comm, when one applies (sl_filter_task()) */
bool sl_filter_task_list(const struct sl_config *cfg, const struct sl_strtab *st,
			 const struct sl_task *t)
{
	if (cfg->workload_active && !(t && t->in_workload))
		return false;
	if (cfg->nr_pids) {
		bool found = false;

		for (size_t i = 0; i < cfg->nr_pids && !found; i++)
			found = t && cfg->pids[i] == t->pid;
		if (!found)
			return false;
	}
	if (cfg->nr_comms) {
		const char *comm = t ? sl_str(st, t->comm) : "";

		for (size_t i = 0; i < cfg->nr_comms; i++)
			if (!strcmp(cfg->comms[i], comm))
				return true;
		/* a name it had before (or will have after) its exec */
		return t && cfg->nr_comm_pids &&
		       bsearch(&t->pid, cfg->comm_pids, cfg->nr_comm_pids, sizeof(*cfg->comm_pids),
			       sl_pid_cmp);
	}
	return true;
}
