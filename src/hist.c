// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - log-linear latency histogram (see hist.h)
 */
#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "schedlint/hist.h"
#include "util.h"

#define SUB_BITS 7
#define SUB (1 << SUB_BITS)		/* buckets per power of two */
#define GROUP0 (2 * SUB)		/* exact buckets below 256 */

const double sl_pcts[SL_NR_PCTS] = { 50, 75, 90, 95, 99, 99.5, 99.9 };
const char *const sl_pct_names[SL_NR_PCTS] = { "p50", "p75", "p90", "p95", "p99", "p99.5", "p99.9" };
const char *const sl_pct_json[SL_NR_PCTS] = {
	"p50_ns", "p75_ns", "p90_ns", "p95_ns", "p99_ns", "p99_5_ns", "p99_9_ns"
};

static inline void bucket_of(uint64_t v, int *group, int *index)
{
	if (v < GROUP0) {
		*group = 0;
		*index = (int)v;
		return;
	}
	int e = 63 - __builtin_clzll(v);	/* >= 8 */
	int shift = e - SUB_BITS;

	*group = e - SUB_BITS;			/* >= 1 */
	*index = (int)((v >> shift) & (SUB - 1));
}

static inline void bucket_range(int group, int index, uint64_t *lo, uint64_t *hi)
{
	if (group == 0) {
		*lo = (uint64_t)index;
		*hi = (uint64_t)index;
		return;
	}
	int shift = group;	/* e - SUB_BITS, with e = group + SUB_BITS */
	uint64_t base = (uint64_t)(SUB + index) << shift;

	*lo = base;
	*hi = base + (1ULL << shift) - 1;
}

static inline int group_size(int group)
{
	return group == 0 ? GROUP0 : SUB;
}

void sl_hist_init(struct sl_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void sl_hist_free(struct sl_hist *h)
{
	if (h->groups) {
		for (int g = 0; g < SL_HIST_GROUPS; g++)
			free(h->groups[g]);
		free(h->groups);
	}
	sl_hist_init(h);
}

static inline const uint32_t *group(const struct sl_hist *h, int g)
{
	return h->groups ? h->groups[g] : NULL;
}

static uint32_t *group_alloc(struct sl_hist *h, int g)
{
	if (!h->groups)
		h->groups = xcalloc(SL_HIST_GROUPS, sizeof(*h->groups));
	if (!h->groups[g])
		h->groups[g] = xcalloc((size_t)group_size(g), sizeof(uint32_t));
	return h->groups[g];
}

void sl_hist_add(struct sl_hist *h, uint64_t v)
{
	int g, i;

	bucket_of(v, &g, &i);
	uint32_t *hg = h->groups && h->groups[g] ? h->groups[g] : group_alloc(h, g);

	if (hg[i] != UINT32_MAX)
		hg[i]++;
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum = h->sum + v < h->sum ? UINT64_MAX : h->sum + v;
}

void sl_hist_merge(struct sl_hist *dst, const struct sl_hist *src)
{
	if (!src->count)
		return;
	for (int g = 0; g < SL_HIST_GROUPS; g++) {
		const uint32_t *sg = group(src, g);
		uint32_t *dg;

		if (!sg)
			continue;
		dg = group_alloc(dst, g);
		for (int i = 0; i < group_size(g); i++)
			dg[i] = dg[i] > UINT32_MAX - sg[i] ? UINT32_MAX : dg[i] + sg[i];
	}
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum = dst->sum + src->sum < dst->sum ? UINT64_MAX : dst->sum + src->sum;
}

uint64_t sl_hist_mean(const struct sl_hist *h)
{
	return h->count ? h->sum / h->count : 0;
}

uint64_t sl_hist_percentile(const struct sl_hist *h, double p)
{
	if (!h->count)
		return 0;
	/* nearest rank: the smallest value with at least p% of samples <= it */
	uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)h->count);

	if (rank < 1)
		rank = 1;
	if (rank >= h->count)
		return h->max;

	uint64_t seen = 0;

	for (int g = 0; g < SL_HIST_GROUPS; g++) {
		const uint32_t *hg = group(h, g);

		if (!hg)
			continue;
		for (int i = 0; i < group_size(g); i++) {
			seen += hg[i];
			if (seen >= rank) {
				uint64_t lo, hi, mid;

				bucket_range(g, i, &lo, &hi);
				mid = lo + (hi - lo) / 2;
				return MIN(MAX(mid, h->min), h->max);
			}
		}
	}
	return h->max;
}

int sl_hist_next(const struct sl_hist *h, struct sl_hist_iter *it,
		 uint64_t *lo, uint64_t *hi, uint64_t *count)
{
	for (; it->group < SL_HIST_GROUPS; it->group++, it->index = 0) {
		const uint32_t *hg = group(h, it->group);

		if (!hg)
			continue;
		for (; it->index < group_size(it->group); it->index++) {
			uint64_t c = hg[it->index];

			if (c) {
				bucket_range(it->group, it->index, lo, hi);
				*count = c;
				it->index++;
				return 1;
			}
		}
	}
	return 0;
}
