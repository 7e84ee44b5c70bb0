// SPDX-License-Identifier: GPL-2.0
/*
 * moments.c - the wakeup-latency samples kept by their moment
 *
 * The histograms count samples; a user who sees a row "1ms .. 3" wants
 * to open it and see those wakeups.  For each 1-2-5 row of the trace's
 * histogram the model keeps the SL_ROW_SAMPLES longest samples (a
 * min-heap: a sample no longer than the row's shortest kept one costs a
 * compare), so memory is fixed (SL_HIST_ROWS x SL_ROW_SAMPLES moments,
 * allocated at the first sample) whatever the trace's length.
 */
#include <stdlib.h>
#include <string.h>

#include "moments.h"
#include "schedlint/model.h"
#include "util/util.h"

/* heap order: the shortest on top; among equal ones the later (kept: the first) */
static bool row_less(const struct sl_wakeup_moment *a, const struct sl_wakeup_moment *b)
{
	return a->latency < b->latency || (a->latency == b->latency && a->run_ts > b->run_ts);
}

static void sift_down(struct sl_latency_row *r, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, rt = l + 1, m = i;

		if (l < r->nr && row_less(&r->worst[l], &r->worst[m]))
			m = l;
		if (rt < r->nr && row_less(&r->worst[rt], &r->worst[m]))
			m = rt;
		if (m == i)
			return;
		struct sl_wakeup_moment tmp = r->worst[i];

		r->worst[i] = r->worst[m];
		r->worst[m] = tmp;
		i = m;
	}
}

void sl_moments_add(struct sl_model *m, const struct sl_wakeup_moment *w)
{
	struct sl_latency_row *r;

	if (!m->latency_rows)
		m->latency_rows = xcalloc(SL_HIST_ROWS, sizeof(*m->latency_rows));
	r = &m->latency_rows[sl_hist_row_of(w->latency)];
	if (r->nr < SL_ROW_SAMPLES) {
		uint32_t i = r->nr++;

		r->worst[i] = *w;
		while (i > 0 && row_less(&r->worst[i], &r->worst[(i - 1) / 2])) {
			struct sl_wakeup_moment tmp = r->worst[i];

			r->worst[i] = r->worst[(i - 1) / 2];
			r->worst[(i - 1) / 2] = tmp;
			i = (i - 1) / 2;
		}
		return;
	}
	if (row_less(&r->worst[0], w)) {
		r->worst[0] = *w;
		sift_down(r, 0);
	}
}

void sl_moments_free(struct sl_model *m)
{
	free(m->latency_rows);
	m->latency_rows = NULL;
}

static int longest_first(const void *a, const void *b)
{
	const struct sl_wakeup_moment *x = a, *y = b;

	if (x->latency != y->latency)
		return x->latency < y->latency ? 1 : -1;
	return x->run_ts < y->run_ts ? -1 : x->run_ts > y->run_ts;
}

uint32_t sl_latency_row_samples(const struct sl_model *m, int row, struct sl_wakeup_moment *out)
{
	const struct sl_latency_row *r;

	if (!m->latency_rows || row < 0 || row >= SL_HIST_ROWS)
		return 0;
	r = &m->latency_rows[row];
	memcpy(out, r->worst, r->nr * sizeof(*out));
	qsort(out, r->nr, sizeof(*out), longest_first);
	return r->nr;
}
