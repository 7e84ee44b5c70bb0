// SPDX-License-Identifier: GPL-2.0
/*
 * strtab.c - interned strings
 *
 * Open addressing on a power-of-two table of ids; the bytes live in large
 * arena blocks that are never moved or freed before the table, so the
 * pointers sl_str() returns stay valid.
 *
 * One writer, many readers: the reader thread of a pipelined analysis
 * interns while the main thread calls sl_str() (analysis.c).  So the
 * id -> string map never moves either: block k of it holds
 * STRS_FIRST << k pointers (ids STRS_FIRST * (2^k - 1) on), the blocks are
 * allocated once and never reallocated, and a new id is published by a
 * release store of nr after its pointer (and its bytes) are written.
 * sl_str() and sl_strtab_count() load nr with acquire and are safe against
 * concurrent interning; sl_intern() and sl_strtab_find() are the writer's
 * (the hash table and lens/hashes are reallocated as they grow).
 *
 * Every string comes from a trace (comms, event names, kallsyms, marker
 * text) and ends up on a terminal or in a report, so it is stored
 * printable: a control character (a byte below 0x20, or 0x7f) becomes
 * '?'.  A comm is any bytes but NUL to the kernel; an escape sequence in
 * one must not reach the user's terminal, a newline must not break the
 * report's lines.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/strtab.h"
#include "util.h"

#define ARENA_BLOCK (256 * 1024)
#define STRS_FIRST_SHIFT 10
#define STRS_FIRST (1u << STRS_FIRST_SHIFT)
#define STRS_BLOCKS (32 - STRS_FIRST_SHIFT + 1)	/* enough for every uint32_t id */

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	char data[];
};

struct sl_strtab {
	uint32_t *slots;	/* id + 1, 0 = empty */
	uint32_t *hashes;	/* hash of each id's string, to skip memcmp */
	uint32_t nr_slots;
	const char **strs[STRS_BLOCKS];	/* id -> string, in blocks that never move */
	uint32_t *lens;
	uint32_t nr;		/* ids in use: written with release, read with acquire */
	uint32_t alloc;		/* of lens and hashes; the writer's */
	struct arena_block *arena;
};

/* Where id's string pointer lives: block *blk, index *idx in it. */
static inline void strs_pos(uint32_t id, unsigned int *blk, uint32_t *idx)
{
	uint64_t x = (uint64_t)id + STRS_FIRST;
	unsigned int k = 63 - (unsigned int)__builtin_clzll(x) - STRS_FIRST_SHIFT;

	*blk = k;
	*idx = (uint32_t)(x - ((uint64_t)STRS_FIRST << k));
}

static inline const char *str_of(const struct sl_strtab *st, uint32_t id)
{
	unsigned int blk;
	uint32_t idx;

	strs_pos(id, &blk, &idx);
	return st->strs[blk][idx];
}

static inline bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* FNV-1a of s; *control tells whether s holds a control character. */
static uint32_t hash_bytes(const char *s, size_t len, bool *control)
{
	uint32_t h = 2166136261u;
	bool ctl = false;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		ctl |= is_control(c);
		h = (h ^ c) * 16777619u;
	}
	*control = ctl;
	return h;
}

/* s with its control characters replaced by '?': a copy to free. */
static char *printable_copy(const char *s, size_t len)
{
	char *p = xmalloc(len + 1);

	for (size_t i = 0; i < len; i++)
		p[i] = is_control((unsigned char)s[i]) ? '?' : s[i];
	p[len] = '\0';
	return p;
}

static char *arena_copy(struct sl_strtab *st, const char *s, size_t len)
{
	struct arena_block *b = st->arena;

	if (!b || b->size - b->used < len + 1) {
		size_t size = len + 1 > ARENA_BLOCK ? len + 1 : ARENA_BLOCK;

		b = xmalloc(sizeof(*b) + size);
		b->next = st->arena;
		b->used = 0;
		b->size = size;
		st->arena = b;
	}
	char *p = b->data + b->used;
	memcpy(p, s, len);
	p[len] = '\0';
	b->used += len + 1;
	return p;
}

static void insert_slot(struct sl_strtab *st, uint32_t id, uint32_t h)
{
	uint32_t mask = st->nr_slots - 1;

	for (uint32_t i = h & mask;; i = (i + 1) & mask) {
		if (!st->slots[i]) {
			st->slots[i] = id + 1;
			return;
		}
	}
}

static void grow_slots(struct sl_strtab *st)
{
	uint32_t n = st->nr_slots ? st->nr_slots * 2 : 1024;

	free(st->slots);
	st->slots = xcalloc(n, sizeof(*st->slots));
	st->nr_slots = n;
	for (uint32_t id = 0; id < st->nr; id++)
		insert_slot(st, id, st->hashes[id]);
}

struct sl_strtab *sl_strtab_new(void)
{
	struct sl_strtab *st = xcalloc(1, sizeof(*st));

	grow_slots(st);
	sl_intern(st, "", 0);
	return st;
}

void sl_strtab_free(struct sl_strtab *st)
{
	if (!st)
		return;
	while (st->arena) {
		struct arena_block *next = st->arena->next;

		free(st->arena);
		st->arena = next;
	}
	free(st->slots);
	free(st->hashes);
	for (unsigned int k = 0; k < STRS_BLOCKS; k++)
		free(st->strs[k]);
	free(st->lens);
	free(st);
}

static int64_t lookup(const struct sl_strtab *st, const char *s, size_t len, uint32_t h)
{
	uint32_t mask = st->nr_slots - 1;

	for (uint32_t i = h & mask; st->slots[i]; i = (i + 1) & mask) {
		uint32_t id = st->slots[i] - 1;

		if (st->hashes[id] == h && st->lens[id] == len &&
		    memcmp(str_of(st, id), s, len) == 0)
			return id;
	}
	return -1;
}

uint32_t sl_strtab_find(const struct sl_strtab *st, const char *s, size_t len)
{
	bool control;
	uint32_t h = hash_bytes(s, len, &control);
	int64_t id;

	if (control) {
		char *p = printable_copy(s, len);

		id = sl_strtab_find(st, p, len);
		free(p);
		return (uint32_t)id;
	}
	id = lookup(st, s, len, h);
	return id < 0 ? 0 : (uint32_t)id;
}

uint32_t sl_intern(struct sl_strtab *st, const char *s, size_t len)
{
	bool control;
	uint32_t h = hash_bytes(s, len, &control);
	int64_t found;

	if (control) {
		char *p = printable_copy(s, len);
		uint32_t id = sl_intern(st, p, len);

		free(p);
		return id;
	}
	found = lookup(st, s, len, h);
	if (found >= 0)
		return (uint32_t)found;

	uint32_t id = st->nr;	/* only this thread writes nr */
	unsigned int blk;
	uint32_t idx;

	if (id == UINT32_MAX)
		abort();	/* 4G distinct strings: never from a real trace */
	if (id == st->alloc) {
		st->alloc = st->alloc ? st->alloc * 2 : 1024;
		st->lens = xrealloc(st->lens, st->alloc * sizeof(*st->lens));
		st->hashes = xrealloc(st->hashes, st->alloc * sizeof(*st->hashes));
	}
	strs_pos(id, &blk, &idx);
	if (!st->strs[blk])
		st->strs[blk] = xmalloc(((size_t)STRS_FIRST << blk) * sizeof(*st->strs[blk]));
	st->strs[blk][idx] = arena_copy(st, s, len);
	st->lens[id] = (uint32_t)len;
	st->hashes[id] = h;
	/* publish: sl_str() on another thread sees the pointer and its bytes */
	__atomic_store_n(&st->nr, id + 1, __ATOMIC_RELEASE);
	if (st->nr * 2 > st->nr_slots)
		grow_slots(st);
	else
		insert_slot(st, id, h);
	return id;
}

uint32_t sl_intern_cstr(struct sl_strtab *st, const char *s)
{
	return sl_intern(st, s, strlen(s));
}

const char *sl_str(const struct sl_strtab *st, uint32_t id)
{
	return id < __atomic_load_n(&st->nr, __ATOMIC_ACQUIRE) ? str_of(st, id) : "";
}

uint32_t sl_strtab_count(const struct sl_strtab *st)
{
	return __atomic_load_n(&st->nr, __ATOMIC_ACQUIRE);
}
