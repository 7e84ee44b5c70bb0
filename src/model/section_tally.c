// SPDX-License-Identifier: GPL-2.0
/*
 * section_tally.c - findings tallied by CPU or task, for the summary lines
 * of an analyzer's terminal section
 */
#include <inttypes.h>
#include <stdlib.h>

#include "schedlint/report.h"
#include "schedlint/strtab.h"
#include "util/util.h"

#define TALLY_SHOWN	4

void sl_tally_add(struct sl_tally_row *rows, size_t *nr, int32_t key, uint32_t comm, uint64_t cost)
{
	for (size_t i = 0; i < *nr; i++) {
		if (rows[i].key == key) {
			rows[i].count++;
			rows[i].cost += cost;
			return;
		}
	}
	rows[(*nr)++] = (struct sl_tally_row){ .key = key, .comm = comm, .count = 1, .cost = cost };
}

static int by_cost_desc(const void *a, const void *b)
{
	const struct sl_tally_row *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost < y->cost ? 1 : -1;
	return x->key - y->key;
}

void sl_tally_sort(struct sl_tally_row *rows, size_t nr)
{
	if (nr)
		qsort(rows, nr, sizeof(*rows), by_cost_desc);
}

void sl_tally_print(struct sl_report *r, const struct sl_model *m, const char *label,
		    const struct sl_tally_row *rows, size_t nr, bool tasks)
{
	char b[32];

	fprintf(r->out, "  %s:", label);
	for (size_t i = 0; i < nr && i < TALLY_SHOWN; i++) {
		if (tasks)
			fprintf(r->out, "%s %s:%d", i ? "," : "", sl_str(m->strtab, rows[i].comm), rows[i].key);
		else
			fprintf(r->out, "%s cpu%d", i ? "," : "", rows[i].key);
		fprintf(r->out, " %" PRIu64 "x (%s)", rows[i].count, fmt_duration(b, sizeof(b), rows[i].cost));
	}
	fputs(nr > TALLY_SHOWN ? ", ...\n" : "\n", r->out);
}
