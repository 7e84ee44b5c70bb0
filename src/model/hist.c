// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - log-linear latency histogram (see hist.h)
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <stdlib.h>

#include "schedlint/hist.h"
#include "util/util.h"

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

uint64_t sl_hist_bucket_lo(uint64_t v)
{
	int g, i;
	uint64_t lo, hi;

	bucket_of(v, &g, &i);
	bucket_range(g, i, &lo, &hi);
	return lo;
}

static inline int group_size(int group)
{
	return group == 0 ? GROUP0 : SUB;
}

void sl_hist_init(struct sl_hist *h)
{
	memset(h, 0, sizeof(*h));
}

/*
 * A narrow group (SL_HIST_NARROW in its pointer) counts in 8 bits: a
 * quarter of the memory, for the histograms whose samples come through
 * sl_hist_add_held() (a task's: hundreds of them, rarely in the cache;
 * a bucket increment there was 7% of analyze's CPU time on a hackbench
 * trace).  A bucket that would pass 255 widens its group to 32 bits.
 */
static inline bool is_narrow(const uint32_t *p)
{
	return (uintptr_t)p & SL_HIST_NARROW;
}

static inline uint8_t *narrow_of(const uint32_t *p)
{
	return (uint8_t *)((uintptr_t)p & ~(uintptr_t)SL_HIST_NARROW);
}

void sl_hist_free(struct sl_hist *h)
{
	if (h->groups) {
		for (int g = 0; g < SL_HIST_GROUPS; g++)
			if (h->groups[g])
				free(narrow_of(h->groups[g]));
		free(h->groups);
	}
	free(h->sparse);
	free(h->stage);
	sl_hist_init(h);
}

static inline const uint32_t *group(const struct sl_hist *h, int g)
{
	return h->groups ? h->groups[g] : NULL;
}

/* Group g in 32 bits: made, or widened from 8 */
static uint32_t *group_alloc(struct sl_hist *h, int g)
{
	uint32_t *hg;

	if (!h->groups)
		h->groups = xcalloc(SL_HIST_GROUPS, sizeof(*h->groups));
	hg = h->groups[g];
	if (!hg) {
		hg = h->groups[g] = xcalloc((size_t)group_size(g), sizeof(uint32_t));
	} else if (is_narrow(hg)) {
		uint8_t *n8 = narrow_of(hg);

		hg = xmalloc((size_t)group_size(g) * sizeof(uint32_t));
		for (int i = 0; i < group_size(g); i++)
			hg[i] = n8[i];
		free(n8);
		h->groups[g] = hg;
	}
	return hg;
}

/* group_alloc(), inline when g is there in 32 bits already (most merges' buckets) */
static inline uint32_t *wide_group(struct sl_hist *h, int g)
{
	uint32_t *hg = h->groups ? h->groups[g] : NULL;

	return hg && !is_narrow(hg) ? hg : group_alloc(h, g);
}

/* n more samples in bucket (g, i), in whichever width its group has */
static void bucket_add(struct sl_hist *h, int g, int i, uint32_t n)
{
	const uint32_t *hg = group(h, g);

	if (hg && is_narrow(hg) && narrow_of(hg)[i] <= 255 - MIN(n, 255u)) {
		narrow_of(hg)[i] += (uint8_t)n;
		return;
	}
	uint32_t *b = &group_alloc(h, g)[i];

	*b = *b > UINT32_MAX - n ? UINT32_MAX : *b + n;
}

static void expand(struct sl_hist *h);

_Static_assert(SL_HIST_GROUPS <= 256 >> 2 && SL_HIST_GROUPS << 8 <= UINT16_MAX,
	       "a held bucket (group << 8 | index) fits in 16 bits");

/*
 * Count the held buckets, a new group narrow: one short loop, whose
 * loads overlap instead of one miss each (the increments go to other
 * cells than the next loads, nearly always).  A narrow cell at 255
 * widens its group (bucket_add()).
 */
void sl_hist_settle(struct sl_hist *h)
{
	uint32_t n = h->nr_held;
	const uint16_t *held = h->stage ? h->stage : h->held;
	uint32_t **groups;

	if (h->sparse)
		expand(h);
	if (!h->groups)
		h->groups = xcalloc(SL_HIST_GROUPS, sizeof(*h->groups));
	groups = h->groups;	/* the table stays; a group may be widened (bucket_add()) */
	if (n >= SL_HIST_STAGE) {
		/*
		 * A full stage: the task's groups are out of the cache, and the
		 * loop below met their lines one miss after another (three
		 * quarters of its time on perf.data).  Asked for all at once
		 * first, they come in together.
		 */
		for (int g = 0; g < SL_HIST_GROUPS; g++) {
			const uint32_t *hg = groups[g];

			if (!hg)
				continue;
			if (is_narrow(hg)) {
				__builtin_prefetch(narrow_of(hg), 1);
				if (group_size(g) > 64)
					__builtin_prefetch(narrow_of(hg) + 64, 1);
				if (group_size(g) > 128) {
					__builtin_prefetch(narrow_of(hg) + 128, 1);
					__builtin_prefetch(narrow_of(hg) + 192, 1);
				}
			} else {
				for (int k = 0; k < group_size(g); k += 16)
					__builtin_prefetch(hg + k, 1);
			}
		}
	}
	for (uint32_t k = 0; k < n; k++) {
		unsigned g = held[k] >> 8, i = held[k] & 0xff;
		uint32_t *hg = groups[g];

		if (!hg)
			hg = groups[g] = (uint32_t *)((uintptr_t)xcalloc((size_t)group_size((int)g), 1) |
						      SL_HIST_NARROW);
		if (is_narrow(hg)) {
			uint8_t *c = narrow_of(hg) + i;

			if (*c != 255)
				(*c)++;
			else
				bucket_add(h, (int)g, (int)i, 1);
		} else if (hg[i] != UINT32_MAX) {
			hg[i]++;
		}
	}
	h->nr_held = 0;
}

/*
 * held[] is full, from sl_hist_add_held(): counted, and the second time
 * (it had its table already) the stage is made, so that the next
 * samples are counted SL_HIST_STAGE at a time.  Their buckets are in
 * groups all over the heap, a cache miss each when counted a few at a
 * time (a task's histograms, hundreds of them, two for each task on a
 * hackbench trace: their counting was 4% of analyze's time); a batch of
 * a task's samples touches its few hot lines once.
 */
void sl_hist_settle_held(struct sl_hist *h)
{
	bool again = h->groups != NULL;

	sl_hist_settle(h);
	if (again && !h->stage)
		h->stage = xmalloc(SL_HIST_STAGE * sizeof(*h->stage));
}

/* A walk over the non-empty buckets, in increasing order, of either form. */
struct walk {
	int g, i;		/* groups: the next bucket to look at */
	uint32_t k;		/* sparse: the next entry */
};

/*
 * The first non-empty bucket of hg[k..n) (n: a multiple of 8), n when none.
 * Most buckets of a group are empty: they are tested a word at a time,
 * the buckets before k masked off (the report, the merges and every dead
 * task's compaction walk them all; a bucket at a time up to the next
 * word was most of a walk).
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HIST_LE 1
#else
#define HIST_LE 0
#endif

static inline int next_nonzero(const uint32_t *hg, int k, int n)
{
	uint64_t a;
	int w;

	if (!HIST_LE) {
		for (; k < n; k++)
			if (hg[k])
				return k;
		return n;
	}
	if (k >= n)
		return n;
	w = k & ~1;
	memcpy(&a, hg + w, sizeof(a));
	if (k & 1)
		a &= ~(uint64_t)0 << 32;	/* hg[w] is the low half */
	while (!a) {
		w += 2;
		if (w >= n)
			return n;
		memcpy(&a, hg + w, sizeof(a));
	}
	return w + (int)(__builtin_ctzll(a) >> 5);
}

/* next_nonzero() of a narrow group: eight buckets a word */
static inline int next_nonzero8(const uint8_t *hg, int k, int n)
{
	uint64_t a;
	int w;

	if (!HIST_LE) {
		for (; k < n; k++)
			if (hg[k])
				return k;
		return n;
	}
	if (k >= n)
		return n;
	w = k & ~7;
	memcpy(&a, hg + w, sizeof(a));
	a &= ~(uint64_t)0 << (8 * (k - w));
	while (!a) {
		w += 8;
		if (w >= n)
			return n;
		memcpy(&a, hg + w, sizeof(a));
	}
	return w + (int)(__builtin_ctzll(a) >> 3);
}

/* The non-empty buckets of a narrow group of n (a multiple of 8) */
static inline uint32_t count_nonzero8(const uint8_t *hg, int n)
{
	uint32_t nr = 0;

	for (int k = 0; k < n; k += 8) {
		uint64_t a;

		memcpy(&a, hg + k, sizeof(a));
		if (!a)
			continue;	/* most words of a short-lived task's group */
		a |= a >> 4;
		a |= a >> 2;
		a |= a >> 1;
		a &= 0x0101010101010101ULL;	/* bit 0 of each byte: it is not 0 */
		nr += (uint32_t)((a * 0x0101010101010101ULL) >> 56);
	}
	return nr;
}

/* inlined: a call per bucket was most of a walk's cost */
static inline __attribute__((always_inline))
bool walk_next(const struct sl_hist *h, struct walk *w, int *g, int *i, uint32_t *count)
{
	if (h->nr_held)
		sl_hist_settle((struct sl_hist *)h);	/* not const: every sl_hist is writable */
	if (h->sparse) {
		if (w->k >= h->nr_sparse)
			return false;
		*g = (int)(h->sparse[2 * w->k] >> 8);
		*i = (int)(h->sparse[2 * w->k] & 0xff);
		*count = h->sparse[2 * w->k + 1];
		w->k++;
		return true;
	}
	for (; w->g < SL_HIST_GROUPS; w->g++, w->i = 0) {
		const uint32_t *hg = group(h, w->g);
		int k = w->i, n = group_size(w->g);

		if (!hg)
			continue;
		if (is_narrow(hg)) {
			k = next_nonzero8(narrow_of(hg), k, n);
			if (k < n) {
				*g = w->g;
				*i = k;
				*count = narrow_of(hg)[k];
				w->i = k + 1;
				return true;
			}
			continue;
		}
		k = next_nonzero(hg, k, n);
		if (k < n) {
			*g = w->g;
			*i = k;
			*count = hg[k];
			w->i = k + 1;
			return true;
		}
	}
	return false;
}

static void add_count(uint32_t *bucket, uint32_t n)
{
	*bucket = *bucket > UINT32_MAX - n ? UINT32_MAX : *bucket + n;
}

/* Back from the sparse form, to take samples again. */
static void expand(struct sl_hist *h)
{
	uint32_t *sparse = h->sparse;
	uint32_t nr = h->nr_sparse;

	h->sparse = NULL;
	h->nr_sparse = 0;
	for (uint32_t k = 0; k < nr; k++)
		add_count(&group_alloc(h, (int)(sparse[2 * k] >> 8))[sparse[2 * k] & 0xff],
			  sparse[2 * k + 1]);
	free(sparse);
}

/*
 * The smaller of two forms, counted first: the non-empty buckets, 8
 * bytes each, or the groups with samples, in 8 bits where every count
 * fits (a task with thousands of wakeups has a thousand non-empty
 * buckets: 12 KB as pairs, 2.5 KB as groups).
 */
/*
 * sl_hist_compact() of a histogram of held samples only (fewer than
 * SL_HIST_HELD: no table, no groups yet): their buckets, sorted, are the
 * pairs, where counting them first made a table and a group for each
 * (400 to 2000 instructions, and as many frees) only to walk and free
 * them.  Most dead tasks' histograms on a hackbench trace are so.
 */
static void compact_held(struct sl_hist *h)
{
	uint16_t key[SL_HIST_HELD];
	uint32_t n = h->nr_held, nr = 0, *sparse;

	for (uint32_t k = 0; k < n; k++) {	/* insertion sort: at most 4 */
		uint32_t j = k;

		for (; j > 0 && key[j - 1] > h->held[k]; j--)
			key[j] = key[j - 1];
		key[j] = h->held[k];
	}
	for (uint32_t k = 0; k < n; k++)
		nr += !k || key[k] != key[k - 1];
	sparse = xmalloc((size_t)nr * 2 * sizeof(*sparse));
	nr = 0;
	for (uint32_t k = 0; k < n; k++) {
		if (k && key[k] == key[k - 1]) {
			sparse[2 * nr - 1]++;
		} else {
			sparse[2 * nr] = key[k];
			sparse[2 * nr + 1] = 1;
			nr++;
		}
	}
	h->sparse = sparse;
	h->nr_sparse = nr;
	h->nr_held = 0;
}

void sl_hist_compact(struct sl_hist *h)
{
	size_t as_groups = SL_HIST_GROUPS * sizeof(*h->groups);
	uint64_t fits8 = 0, empty = 0;	/* bit g: group g's counts fit 8 bits / are all 0 */
	uint32_t nr = 0;
	int g, i;

	if (h->nr_held && !h->groups && !h->sparse && !h->stage) {
		compact_held(h);
		return;
	}
	if (h->nr_held)
		sl_hist_settle(h);
	free(h->stage);		/* few or no samples more */
	h->stage = NULL;
	if (!h->groups)
		return;
	for (g = 0; g < SL_HIST_GROUPS; g++) {
		const uint32_t *hg = h->groups[g];
		int n = group_size(g);
		uint32_t in_g = 0, most = 0;

		if (!hg)
			continue;
		if (is_narrow(hg)) {
			in_g = count_nonzero8(narrow_of(hg), n);
		} else {
			for (i = next_nonzero(hg, 0, n); i < n; i = next_nonzero(hg, i + 1, n)) {
				in_g++;
				most = MAX(most, hg[i]);
			}
		}
		nr += in_g;
		if (!in_g) {
			empty |= 1ULL << g;
			continue;
		}
		if (most <= 255)
			fits8 |= 1ULL << g;
		as_groups += (size_t)n * (most <= 255 ? 1 : sizeof(uint32_t)) + 16;	/* + malloc's */
	}
	if ((size_t)nr * 2 * sizeof(uint32_t) + 16 > as_groups) {
		/* the groups with samples, 8 bits where they fit */
		for (g = 0; g < SL_HIST_GROUPS; g++) {
			uint32_t *hg = h->groups[g];
			int n = group_size(g);

			if (!hg)
				continue;
			if (empty >> g & 1) {
				free(narrow_of(hg));
				h->groups[g] = NULL;
			} else if (!is_narrow(hg) && (fits8 >> g & 1)) {
				uint8_t *h8 = xmalloc((size_t)n);

				for (i = 0; i < n; i++)
					h8[i] = (uint8_t)hg[i];
				free(hg);
				h->groups[g] = (uint32_t *)((uintptr_t)h8 | SL_HIST_NARROW);
			}
		}
		return;
	}

	uint32_t *sparse = xmalloc((size_t)MAX(nr, 1) * 2 * sizeof(*sparse));

	nr = 0;
	for (g = 0; g < SL_HIST_GROUPS; g++) {
		const uint32_t *hg = h->groups[g];
		int n = group_size(g);

		if (!hg)
			continue;
		if (is_narrow(hg)) {
			const uint8_t *h8 = narrow_of(hg);

			for (i = next_nonzero8(h8, 0, n); i < n; i = next_nonzero8(h8, i + 1, n)) {
				sparse[2 * nr] = (uint32_t)g << 8 | (uint32_t)i;
				sparse[2 * nr + 1] = h8[i];
				nr++;
			}
		} else {
			for (i = next_nonzero(hg, 0, n); i < n; i = next_nonzero(hg, i + 1, n)) {
				sparse[2 * nr] = (uint32_t)g << 8 | (uint32_t)i;
				sparse[2 * nr + 1] = hg[i];
				nr++;
			}
		}
		free(narrow_of(h->groups[g]));
	}
	free(h->groups);
	h->groups = NULL;
	h->sparse = sparse;
	h->nr_sparse = nr;
}

/*
 * The held buckets of a histogram that had no table (sl_hist_add_alloc()):
 * counted in groups of 32 bits, as sl_hist_add() makes them
 */
static __attribute__((noinline)) void settle_wide(struct sl_hist *h)
{
	for (uint32_t k = 0; k < h->nr_held; k++) {
		uint32_t *b = &group_alloc(h, h->held[k] >> 8)[h->held[k] & 0xff];

		if (*b != UINT32_MAX)
			(*b)++;
	}
	h->nr_held = 0;
}

void sl_hist_add_alloc(struct sl_hist *h, uint64_t v)
{
	int g, i;

	bucket_of(v, &g, &i);
	if (!h->groups && !h->sparse) {
		/*
		 * Its first samples are held, as sl_hist_add_held()'s, and its
		 * table and groups made at the SL_HIST_HELD-th: a histogram of
		 * a few samples allocates nothing (whatif's pairs: 27 k on a
		 * hackbench trace, 3 samples each, were a table and a group of
		 * a KB made, zeroed and freed)
		 */
		h->held[h->nr_held++] = (uint16_t)(g << 8 | i);
		if (h->nr_held == SL_HIST_HELD)
			settle_wide(h);
		sl_hist_count_value(h, v);
		return;
	}
	if (h->sparse)
		expand(h);
	uint32_t *hg = group_alloc(h, g);

	if (hg[i] != UINT32_MAX)
		hg[i]++;
	sl_hist_count_value(h, v);
}

void sl_hist_add_count(struct sl_hist *h, uint64_t v, uint64_t n)
{
	int g, i;

	if (!n)
		return;
	bucket_of(v, &g, &i);
	if (h->sparse)
		expand(h);
	add_count(&group_alloc(h, g)[i], n > UINT32_MAX ? UINT32_MAX : (uint32_t)n);
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count += n;
	h->sum = v && n > (UINT64_MAX - h->sum) / v ? UINT64_MAX : h->sum + v * n;
}

void sl_hist_merge(struct sl_hist *dst, const struct sl_hist *src)
{
	int g, i;

	if (!src->count)
		return;
	if (dst->sparse)
		expand(dst);
	if (src->nr_held)
		sl_hist_settle((struct sl_hist *)src);	/* not const: every sl_hist is writable */
	if (src->sparse) {
		/* a dead task's, compacted: (group << 8 | index, count) pairs in order */
		for (uint32_t k = 0; k < src->nr_sparse; k++)
			add_count(&wide_group(dst, (int)(src->sparse[2 * k] >> 8))[src->sparse[2 * k] & 0xff],
				  src->sparse[2 * k + 1]);
	} else if (src->groups) {
		/* a group at a time: dst's group is looked up once, not for every bucket */
		for (g = 0; g < SL_HIST_GROUPS; g++) {
			const uint32_t *sg = src->groups[g];
			int n = group_size(g);
			uint32_t *dg;

			if (!sg)
				continue;
			if (is_narrow(sg)) {
				const uint8_t *s8 = narrow_of(sg);

				i = next_nonzero8(s8, 0, n);
				if (i == n)
					continue;
				dg = wide_group(dst, g);
				/* a word at a time: its zero buckets add nothing */
				for (i &= ~7; i < n; i += 8) {
					uint64_t a;

					memcpy(&a, s8 + i, sizeof(a));
					if (!a)
						continue;
					for (int k = i; k < i + 8; k++)
						add_count(&dg[k], s8[k]);
				}
			} else {
				i = next_nonzero(sg, 0, n);
				if (i == n)
					continue;
				dg = wide_group(dst, g);
				/* two buckets a word, as above */
				for (i &= ~1; i < n; i += 2) {
					if (!(sg[i] | sg[i + 1]))
						continue;
					add_count(&dg[i], sg[i]);
					add_count(&dg[i + 1], sg[i + 1]);
				}
			}
		}
	}
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum = dst->sum + src->sum < dst->sum ? UINT64_MAX : dst->sum + src->sum;
}

void sl_hist_remove(struct sl_hist *dst, const struct sl_hist *src)
{
	struct walk w = { 0 };
	uint64_t lo, hi, first = UINT64_MAX, last = 0;
	uint32_t c;
	int g, i;

	if (!src->count || !dst->count)
		return;
	if (dst->nr_held || dst->sparse)
		sl_hist_settle(dst);		/* and back from the sparse form */
	while (walk_next(src, &w, &g, &i, &c)) {
		uint32_t *b = dst->groups ? dst->groups[g] : NULL;

		if (b && is_narrow(b))
			narrow_of(b)[i] = narrow_of(b)[i] > c ? (uint8_t)(narrow_of(b)[i] - c) : 0;
		else if (b)
			b[i] = b[i] > c ? b[i] - c : 0;
	}
	dst->count = dst->count > src->count ? dst->count - src->count : 0;
	dst->sum = dst->sum > src->sum ? dst->sum - src->sum : 0;
	/* min and max stay exact while their buckets keep samples */
	w = (struct walk){ 0 };
	while (walk_next(dst, &w, &g, &i, &c)) {
		bucket_range(g, i, &lo, &hi);
		first = MIN(first, lo);
		last = MAX(last, hi);
	}
	if (first == UINT64_MAX) {
		dst->count = dst->sum = dst->min = dst->max = 0;
		return;
	}
	dst->min = MAX(dst->min, first);
	dst->max = MIN(dst->max, last);
}

uint64_t sl_hist_mean(const struct sl_hist *h)
{
	return h->count ? h->sum / h->count : 0;
}

/*
 * The samples in group hg of n buckets (n: a multiple of 8), eight
 * narrow buckets a word: a percentile skips the groups below its rank
 * instead of walking their buckets (a task's p99 walked hundreds).
 */
static uint64_t group_sum(const uint32_t *hg, int n)
{
	uint64_t sum = 0;

	if (is_narrow(hg)) {
		const uint8_t *h8 = narrow_of(hg);

		for (int k = 0; k < n; k += 8) {
			uint64_t a;

			memcpy(&a, h8 + k, sizeof(a));
			a = (a & 0x00ff00ff00ff00ffULL) + (a >> 8 & 0x00ff00ff00ff00ffULL);
			a = (a & 0x0000ffff0000ffffULL) + (a >> 16 & 0x0000ffff0000ffffULL);
			sum += (a & 0xffffffffULL) + (a >> 32);
		}
		return sum;
	}
	for (int k = 0; k < n; k++)
		sum += hg[k];
	return sum;
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
	struct walk w = { 0 };
	uint32_t c;
	int g, i;

	if (h->nr_held)
		sl_hist_settle((struct sl_hist *)h);	/* not const: every sl_hist is writable */
	/* the groups whose buckets all stay below the rank, at once */
	for (; !h->sparse && h->groups && w.g < SL_HIST_GROUPS; w.g++) {
		uint64_t in_g = h->groups[w.g] ? group_sum(h->groups[w.g], group_size(w.g)) : 0;

		if (seen + in_g >= rank)
			break;
		seen += in_g;
	}
	while (walk_next(h, &w, &g, &i, &c)) {
		seen += c;
		if (seen >= rank) {
			uint64_t lo, hi, mid;

			bucket_range(g, i, &lo, &hi);
			mid = lo + (hi - lo) / 2;
			return MIN(MAX(mid, h->min), h->max);
		}
	}
	return h->max;
}

int sl_hist_next(const struct sl_hist *h, struct sl_hist_iter *it,
		 uint64_t *lo, uint64_t *hi, uint64_t *count)
{
	/* groups: it is the next (group, index); sparse: index is the next entry */
	struct walk w = { .g = it->group, .i = it->index, .k = (uint32_t)it->index };
	uint32_t c;
	int g, i;

	if (!walk_next(h, &w, &g, &i, &c))
		return 0;
	bucket_range(g, i, lo, hi);
	*count = c;
	if (h->sparse) {
		it->index = (int)w.k;
	} else {
		it->group = w.g;
		it->index = w.i;
	}
	return 1;
}

/* 1, 2, 5 times each power of ten that fits 64 bits */
static const uint64_t row_lo[SL_HIST_ROWS] = {
	1ULL, 2ULL, 5ULL, 10ULL, 20ULL, 50ULL, 100ULL, 200ULL, 500ULL, 1000ULL, 2000ULL,
	5000ULL, 10000ULL, 20000ULL, 50000ULL, 100000ULL, 200000ULL, 500000ULL, 1000000ULL,
	2000000ULL, 5000000ULL, 10000000ULL, 20000000ULL, 50000000ULL, 100000000ULL,
	200000000ULL, 500000000ULL, 1000000000ULL, 2000000000ULL, 5000000000ULL,
	10000000000ULL, 20000000000ULL, 50000000000ULL, 100000000000ULL, 200000000000ULL,
	500000000000ULL, 1000000000000ULL, 2000000000000ULL, 5000000000000ULL,
	10000000000000ULL, 20000000000000ULL, 50000000000000ULL, 100000000000000ULL,
	200000000000000ULL, 500000000000000ULL, 1000000000000000ULL, 2000000000000000ULL,
	5000000000000000ULL, 10000000000000000ULL, 20000000000000000ULL, 50000000000000000ULL,
	100000000000000000ULL, 200000000000000000ULL, 500000000000000000ULL,
	1000000000000000000ULL, 2000000000000000000ULL, 5000000000000000000ULL,
	10000000000000000000ULL,
};

uint64_t sl_hist_row_lo(int row)
{
	if (row < 0)
		return 0;
	return row_lo[row < SL_HIST_ROWS ? row : SL_HIST_ROWS - 1];
}

int sl_hist_row_of_bucket(uint64_t lo)
{
	int a = 0, b = SL_HIST_ROWS - 1;

	/* the last row whose low end is <= lo (row 0 takes 0 too) */
	while (a < b) {
		int mid = (a + b + 1) / 2;

		if (row_lo[mid] <= lo)
			a = mid;
		else
			b = mid - 1;
	}
	return a;
}

int sl_hist_row_of(uint64_t v)
{
	uint64_t lo, hi;
	int g, i;

	bucket_of(v, &g, &i);
	bucket_range(g, i, &lo, &hi);
	return sl_hist_row_of_bucket(lo);
}
