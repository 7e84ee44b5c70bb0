// SPDX-License-Identifier: GPL-2.0
/*
 * task_freeze.c - a dead task kept in a few bytes (issue 31)
 *
 * A dead task nothing refers to any more (the test of folding, model.c)
 * takes no event and changes no more: once more than 1024 dead tasks are
 * kept, the model freezes it, packing its struct sl_task and its
 * analyzers' slots (about 1.3 KB, mostly zeroes) into the record below,
 * and frees the full one.  A frozen task is thawed back, exactly as it
 * was, when the trace names its pid again (sl_model_task()) or the model
 * folds it; the reports read it through sl_kept_task(), which unpacks it
 * into the model's scratch copy.  The packing is exact, so nothing any
 * report says depends on it, and no analyzer needs code of its own to
 * hand its part over: what a dead task's slot no longer needs is zero
 * or nearly (its live state), and costs a byte or nothing.
 *
 * The packed form: the 64-bit words of the task and its slots, the zero
 * ones skipped, each other one as the smallest of four varint codings:
 * as it is (counts, ids), from the task's death time (timestamps), from
 * the word before it (a pair of timestamps, pointers), or as two 32-bit
 * signed halves (a pair of int32 fields, -1 for none).  A header byte
 * per word says how many zero words came before it and which coding.
 * What the owned memory of the task holds (a compacted histogram, its
 * recorded affinity) stays where it is: the pointers are packed with the
 * rest and freed when the task is folded or the model freed.  Its
 * histograms are compacted first, whichever way it died: a frozen one
 * holds no sample not yet counted (hist.c), nor a stage.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "task_freeze.h"
#include "util/util.h"

/*
 * What the model keeps of a frozen task: pid, comm and frozen where a
 * struct sl_task has them; its pid as ~pid, so that no lookup of the
 * events' finds it by chance (sl_model_task() thaws it).
 */
struct sl_frozen_task {
	int32_t pid;			/* ~pid */
	uint32_t comm;
	uint32_t index;			/* its position in m->tasks */
	uint16_t len;			/* bytes of data */
	uint16_t words;			/* of them, the packed words; then, 4-byte
					 * aligned, the inlined buckets (INLINED) */
	uint8_t spare;
	bool frozen;			/* true */
	uint8_t data[];
};

_Static_assert(offsetof(struct sl_frozen_task, pid) == offsetof(struct sl_task, pid), "pid");
_Static_assert(offsetof(struct sl_frozen_task, comm) == offsetof(struct sl_task, comm), "comm");
_Static_assert(offsetof(struct sl_frozen_task, frozen) == offsetof(struct sl_task, frozen), "frozen");

enum { AS_IS, FROM_BASE, FROM_PREV, HALVES };

static size_t varint_len(uint64_t v)
{
	return (size_t)(70 - __builtin_clzll(v | 1)) / 7;	/* 7 bits a byte */
}

static uint8_t *put_varint(uint8_t *o, uint64_t v)
{
	while (v >= 0x80) {
		*o++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*o++ = (uint8_t)v;
	return o;
}

static uint64_t get_varint(const uint8_t **in)
{
	const uint8_t *i = *in;
	uint64_t v = 0;
	unsigned shift = 0;

	do {
		v |= (uint64_t)(*i & 0x7f) << shift;
		shift += 7;
	} while (*i++ & 0x80);
	*in = i;
	return v;
}

static uint64_t zz(uint64_t d)
{
	return (d << 1) ^ (uint64_t)((int64_t)d >> 63);
}

static uint64_t unzz(uint64_t z)
{
	return (z >> 1) ^ -(z & 1);
}

static uint64_t zz32(uint32_t d)
{
	return (uint32_t)((d << 1) ^ (uint32_t)((int32_t)d >> 31));
}

static uint32_t unzz32(uint64_t z)
{
	return (uint32_t)((z >> 1) ^ -(z & 1));
}

/* The packed form of nw words into out (room for nw * 20 + 10 bytes): its length. */
static size_t pack(const uint64_t *w, size_t nw, uint64_t base, uint8_t *out)
{
	uint8_t *o = put_varint(out, base);
	uint64_t prev = base, skip = 0;

	for (size_t k = 0; k < nw; k++) {
		uint64_t v = w[k], c[3];
		size_t len[4];
		int mode = AS_IS;

		if (!v) {
			skip++;
			continue;
		}
		c[AS_IS] = v;
		c[FROM_BASE] = zz(v - base);
		c[FROM_PREV] = zz(v - prev);
		len[AS_IS] = varint_len(c[AS_IS]);
		len[FROM_BASE] = varint_len(c[FROM_BASE]);
		len[FROM_PREV] = varint_len(c[FROM_PREV]);
		len[HALVES] = varint_len(zz32((uint32_t)v)) + varint_len(zz32((uint32_t)(v >> 32)));
		for (int i = 1; i < 4; i++)
			if (len[i] < len[mode])
				mode = i;
		o = put_varint(o, skip << 2 | (uint64_t)mode);
		if (mode == HALVES) {
			o = put_varint(o, zz32((uint32_t)v));
			o = put_varint(o, zz32((uint32_t)(v >> 32)));
		} else {
			o = put_varint(o, c[mode]);
		}
		skip = 0;
		prev = v;
	}
	return (size_t)(o - out);
}

static void unpack(const uint8_t *in, size_t len, uint64_t *w, size_t nw)
{
	const uint8_t *end = in + len;
	uint64_t base, prev;
	size_t k = 0;

	memset(w, 0, nw * sizeof(*w));
	base = prev = get_varint(&in);
	while (in < end) {
		uint64_t h = get_varint(&in), v;

		k += h >> 2;
		switch (h & 3) {
		case AS_IS:
			v = get_varint(&in);
			break;
		case FROM_BASE:
			v = base + unzz(get_varint(&in));
			break;
		case FROM_PREV:
			v = prev + unzz(get_varint(&in));
			break;
		default: {
			uint64_t lo = unzz32(get_varint(&in));

			v = lo | (uint64_t)unzz32(get_varint(&in)) << 32;
			break;
		}
		}
		w[k++] = v;
		prev = v;
	}
}

/*
 * A compacted histogram's buckets (its sparse pairs) go into the record,
 * its pointer says so: a one-sample run-length histogram of a fork's
 * child was a block of 8 bytes, 32 with the allocator's.  Not more than
 * this many bytes of them.
 */
#define INLINED		((uint32_t *)(uintptr_t)1)
#define INLINE_MAX	1024

static struct sl_hist *hist_at(void *t, size_t off)
{
	return (struct sl_hist *)((char *)t + off);
}

/* where the inlined buckets start in a record's data, after words bytes */
static size_t pairs_at(size_t words)
{
	return (offsetof(struct sl_frozen_task, data) + words + 3) / 4 * 4 -
	       offsetof(struct sl_frozen_task, data);
}

struct sl_task *sl_task_freeze(struct sl_task *t, const struct sl_freeze_layout *l)
{
	struct sl_frozen_task *f;
	size_t words, len, pairs = 0, at;

	/*
	 * Its samples all counted, its stage freed, its buckets in the least
	 * room: a histogram in the record is read in place (sl_kept_task()),
	 * where counting held samples would write into groups the record
	 * keeps and count them again at the next unpack (a task whose pid
	 * was reused died with them: no exit, no last switch-out compacted it)
	 */
	for (int k = 0; k < l->nr_hist; k++)
		sl_hist_compact(hist_at(t, l->hist[k]));
	memcpy(l->image, t, l->size);
	for (int k = 0; k < l->nr_hist; k++) {
		struct sl_hist *h = hist_at(l->image, l->hist[k]);

		if (h->sparse && !h->groups && h->nr_sparse &&
		    pairs + (size_t)h->nr_sparse * 8 <= INLINE_MAX) {
			pairs += (size_t)h->nr_sparse * 8;
			h->sparse = INLINED;
		}
	}
	words = pack((const uint64_t *)l->image, l->size / 8, t->since, l->buf);
	at = pairs_at(words);
	len = pairs ? at + pairs : words;
	f = xmalloc(offsetof(struct sl_frozen_task, data) + len);
	f->pid = ~t->pid;
	f->comm = t->comm;
	f->index = t->index;
	f->len = (uint16_t)len;
	f->words = (uint16_t)words;
	f->spare = 0;
	f->frozen = true;
	memcpy(f->data, l->buf, words);
	memset(f->data + words, 0, len - words - pairs);
	for (int k = 0; k < l->nr_hist; k++) {
		struct sl_hist *h = hist_at(t, l->hist[k]);

		if (hist_at(l->image, l->hist[k])->sparse != INLINED)
			continue;
		memcpy(f->data + at, h->sparse, (size_t)h->nr_sparse * 8);
		at += (size_t)h->nr_sparse * 8;
		free(h->sparse);
		h->sparse = NULL;
	}
	return (struct sl_task *)f;
}

void sl_task_unpack(const struct sl_task *frozen, struct sl_task *t,
		    const struct sl_freeze_layout *l, bool copy)
{
	const struct sl_frozen_task *f = (const struct sl_frozen_task *)frozen;
	size_t at = pairs_at(f->words);

	unpack(f->data, f->words, (uint64_t *)t, l->size / 8);
	for (int k = 0; k < l->nr_hist; k++) {
		struct sl_hist *h = hist_at(t, l->hist[k]);
		const uint32_t *pairs = (const uint32_t *)(const void *)(f->data + at);

		if (h->sparse != INLINED)
			continue;
		if (copy) {
			h->sparse = xmalloc((size_t)h->nr_sparse * 8);
			memcpy(h->sparse, pairs, (size_t)h->nr_sparse * 8);
		} else {
			h->sparse = (uint32_t *)pairs;	/* read only (sl_kept_task()) */
		}
		at += (size_t)h->nr_sparse * 8;
	}
}

uint32_t sl_frozen_index(const struct sl_task *frozen)
{
	return ((const struct sl_frozen_task *)frozen)->index;
}

size_t sl_frozen_size(const struct sl_task *frozen)
{
	return offsetof(struct sl_frozen_task, data) + ((const struct sl_frozen_task *)frozen)->len;
}

const struct sl_task *sl_kept_task_unpacked(const struct sl_model *m, uint32_t i)
{
	struct sl_model *mm = (struct sl_model *)m;	/* its copy only */
	const struct sl_task *t = m->tasks[i];

	if (m->kept_copy_of != t) {
		sl_task_unpack(t, mm->kept_copy, m->freeze, false);
		mm->kept_copy_of = t;
	}
	return m->kept_copy;
}
