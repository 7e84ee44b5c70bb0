/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_page.h - walk the records of one ring-buffer page (sub-buffer)
 *
 * The page the kernel writes (kernel/trace/ring_buffer.c): an 8-byte
 * timestamp, a commit word (a kernel long, 4 or 8 bytes, whose low 27
 * bits are the bytes of records and bit 31/30 "events were lost before
 * this page" / "their count follows the records"), then the records.
 * Each record starts with a 32-bit word: a 5-bit type_len (the low bits
 * of a little-endian word, the high bits of a big-endian one) and a
 * 27-bit time delta from the record before.  type_len 1-28 is a data
 * record of 4 * type_len bytes; 0 a data record whose length (itself
 * included) is in the next word; 29 padding (a discarded event, its
 * length in the next word); 30 a time extend (the next word holds bits
 * 27-58 of a delta too large for 27 bits); 31 an absolute timestamp
 * (the same 59 bits; the top 5 bits stay those of the running time).
 *
 * libtraceevent's kbuffer walks this too, and is what this walk is
 * measured against (tests/unit/test_dat_page.c compares every record of
 * every page of the trace.dat files in testdata/, the fuzz corpora, and
 * generated pages of both byte orders and long sizes, record by record:
 * timestamp, size, bytes).  We walk it ourselves because kbuffer costs
 * about 230 instructions a record where this costs about 20: each record
 * goes through three function pointers (next_event, read_4, read_long)
 * and two out-of-line helpers, and the caller asks for the size in one
 * more call (bench/README.md, "The page walk").  The result is the same:
 * the same timestamps (kbuffer's, which also adds a padding record's
 * delta, which the kernel's own reader does not), the same record
 * boundaries and sizes (a type_len 0 record's length rounded up to 4).
 *
 * Like kbuffer, the walk trusts the page: sl_rb_page_check() must have
 * accepted it first (every record inside the commit, every step forward).
 * Or the page's header only (sl_rb_page_check_header()), and then it is
 * walked by sl_rb_page_next_checked(), which makes the check's tests
 * record by record as it goes: the flyrecord reader's walk, one pass over
 * a page instead of two.  record --live checks a page whole before it
 * takes any of it (read_live.c).
 */
#ifndef SCHEDLINT_DAT_PAGE_H
#define SCHEDLINT_DAT_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define RB_TYPE_DATA_MAX	28
#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31
#define RB_TS_SHIFT		27
#define RB_DELTA_MASK		((1u << RB_TS_SHIFT) - 1)
/* an absolute timestamp has 59 bits: the top 5 come from the running time */
#define RB_TS_MSB		(0xf8ULL << 56)
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_MISSED_STORED	(1ULL << 30)
#define RB_COMMIT_MASK		((1ULL << 27) - 1)

/* How the pages of one file are written. */
struct sl_rb_format {
	int long_size;		/* of the commit word and the lost count: 4 or 8 */
	int hdr_size;		/* page header: 8 + long_size */
	bool big_endian;	/* the file's byte order */
	bool swap;		/* ... differs from ours */
};

/* One page being walked. */
struct sl_rb_page {
	const uint8_t *data;	/* its records: right after the header */
	uint32_t commit;	/* bytes of records */
	uint32_t next;		/* offset in data of the next record's header */
	uint64_t ts;		/* time of the last record walked; the page's at first */
	uint8_t type_shift;	/* where type_len is in the record's word: 0, or 27 big-endian */
	uint8_t delta_shift;	/* where the time delta is: 5, or 0 big-endian */
	bool swap;
	bool native;		/* of our byte order, little-endian: swap false, shifts 0 and 5 */
	uint32_t room;		/* bytes after the header: sl_rb_page_load_checked() only */
};

static inline uint32_t sl_rb_read4(bool swap, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t sl_rb_read8(bool swap, const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

/* A kernel long of the file (the commit word, the lost count). */
static inline uint64_t sl_rb_read_long(const struct sl_rb_format *f, const uint8_t *p)
{
	return f->long_size == 8 ? sl_rb_read8(f->swap, p) : sl_rb_read4(f->swap, p);
}

void sl_rb_format_init(struct sl_rb_format *f, int long_size, bool big_endian);

/*
 * Check a page before it is walked, taking the steps the walk takes:
 * every record must lie inside the commit, every step must move forward,
 * and nothing may be read past room (the bytes there are of the page).
 * Returns NULL when the page is fine, else what is wrong.  *lost gets the
 * page's lost-event count (0, > 0, or -1 when the kernel could not store
 * it).
 */
const char *sl_rb_page_check(const struct sl_rb_format *f, const uint8_t *page, size_t room,
			     int64_t *lost);

/*
 * The page header's part of sl_rb_page_check(): room, the commit, the
 * lost-event count, with the same answers.  A page it accepts may be
 * walked only by sl_rb_page_next_checked(), which checks the records.
 */
const char *sl_rb_page_check_header(const struct sl_rb_format *f, const uint8_t *page,
				    size_t room, int64_t *lost);

/* Start walking a page sl_rb_page_check() accepted. */
static inline void sl_rb_page_load(struct sl_rb_page *pg, const struct sl_rb_format *f,
				   const uint8_t *page)
{
	pg->data = page + f->hdr_size;
	pg->commit = (uint32_t)(sl_rb_read_long(f, page + 8) & RB_COMMIT_MASK);
	pg->next = 0;
	pg->ts = sl_rb_read8(f->swap, page);
	pg->type_shift = f->big_endian ? 27 : 0;
	pg->delta_shift = f->big_endian ? 0 : 5;
	pg->swap = f->swap;
	pg->native = !f->swap && !f->big_endian;
}

/* Start walking a page sl_rb_page_check_header() accepted, room bytes of it there. */
static inline void sl_rb_page_load_checked(struct sl_rb_page *pg, const struct sl_rb_format *f,
					   const uint8_t *page, size_t room)
{
	sl_rb_page_load(pg, f, page);
	pg->room = (uint32_t)(room - (size_t)f->hdr_size);
}

/*
 * The walk, both ways: check false for a page sl_rb_page_check() accepted
 * whole, check true for one whose header only sl_rb_page_check_header()
 * accepted (and then the tests of sl_rb_page_check(), in its order, are
 * made record by record).  check is a constant at every call: each of the
 * two functions below inlines this once, and with check false every test
 * of a record's bounds and every *bad store compiles away - the same
 * instructions as a walk written without them.
 */
static inline __attribute__((always_inline))
const uint8_t *sl_rb_page_step(struct sl_rb_page *pg, uint64_t *ts, uint32_t *size,
			       const char **bad, bool check, bool native)
{
	const bool swap = native ? false : pg->swap;
	const unsigned int type_shift = native ? 0 : pg->type_shift;
	const unsigned int delta_shift = native ? 5 : pg->delta_shift;

	while (pg->next < pg->commit) {
		const uint8_t *p = pg->data + pg->next;
		uint32_t word, type_len, delta, end;

		/* a header cut by the commit: no record fits there */
		if (check && __builtin_expect(pg->next + 4 > pg->commit, 0) &&
		    pg->next + 4 > pg->room) {
			*bad = "event header past the end of the page";
			return NULL;
		}
		word = sl_rb_read4(swap, p);
		type_len = (word >> type_shift) & 31;
		delta = (word >> delta_shift) & RB_DELTA_MASK;
		if (type_len - 1 < RB_TYPE_DATA_MAX) {	/* 1 to 28: the common case */
			end = pg->next + 4 + 4 * type_len;
			if (check && __builtin_expect(end > pg->commit, 0)) {
				*bad = "event runs past the page's commit";
				return NULL;
			}
			pg->ts += delta;
			pg->next = end;
			*ts = pg->ts;
			*size = 4 * type_len;
			return p + 4;
		}
		switch (type_len) {
		case 0: {
			/* array[0]: the length, itself included */
			uint32_t len;

			if (check && pg->next + 8 > pg->commit) {
				*bad = "event header past the page's commit";
				return NULL;
			}
			len = sl_rb_read4(swap, p + 4);
			if (check && len < 4) {
				*bad = "event with a length shorter than its header";
				return NULL;
			}
			if (check && (uint64_t)pg->next + 8 + (((uint64_t)len - 4 + 3) & ~3ULL) > pg->commit) {
				*bad = "event runs past the page's commit";
				return NULL;
			}
			len = (len - 4 + 3) & ~3u;
			pg->ts += delta;
			pg->next += 8 + len;
			*ts = pg->ts;
			*size = len;
			return p + 8;
		}
		case RB_TYPE_PADDING: {
			/* as kbuffer: the delta counts, the length is array[0] after the word */
			uint32_t len;

			if (check && pg->next + 8 > pg->room) {
				*bad = "padding event past the end of the page";
				return NULL;
			}
			len = sl_rb_read4(swap, p + 4);
			if (check && (int32_t)len < 0) {
				*bad = "padding event with a negative length";
				return NULL;
			}
			pg->ts += delta;
			if (!check)
				pg->next += 4 + len;
			else	/* len < 2^31, next < 2^27: no wrap */
				pg->next = pg->next + 4 + len < pg->commit ? pg->next + 4 + len : pg->commit;
			break;
		}
		case RB_TYPE_TIME_EXTEND:
			if (check && pg->next + 8 > pg->commit) {
				*bad = "time extend past the page's commit";
				return NULL;
			}
			pg->ts += ((uint64_t)sl_rb_read4(swap, p + 4) << RB_TS_SHIFT) + delta;
			pg->next += 8;
			break;
		default:	/* RB_TYPE_TIME_STAMP */
			if (check && pg->next + 8 > pg->commit) {
				*bad = "time extend past the page's commit";
				return NULL;
			}
			pg->ts = (((uint64_t)sl_rb_read4(swap, p + 4) << RB_TS_SHIFT) + delta) |
				 (pg->ts & RB_TS_MSB);
			pg->next += 8;
			break;
		}
	}
	return NULL;
}

/*
 * The page's next data record: its payload, with its time in *ts and its
 * size in *size; NULL at the end of the page.  Time extends, absolute
 * timestamps and padding are taken in passing.
 */
static inline __attribute__((always_inline))
const uint8_t *sl_rb_page_next(struct sl_rb_page *pg, uint64_t *ts, uint32_t *size)
{
	if (__builtin_expect(pg->native, 1))
		return sl_rb_page_step(pg, ts, size, NULL, false, true);
	return sl_rb_page_step(pg, ts, size, NULL, false, false);
}

/*
 * sl_rb_page_next() of a page sl_rb_page_check_header() accepted (loaded
 * by sl_rb_page_load_checked()), checking each record as it goes: the
 * steps, the tests and their order of sl_rb_page_check(), so a page is
 * refused with the same words, at its first bad record.  NULL with *bad
 * NULL at the end of the page; NULL with *bad set (and the page not to
 * be walked further) when the record there is bad; the records before it
 * were good.  The common record, a data record whose header lies inside
 * the commit, costs one test more than in sl_rb_page_next(): that it
 * ends inside the commit.
 */
static inline __attribute__((always_inline))
const uint8_t *sl_rb_page_next_checked(struct sl_rb_page *pg, uint64_t *ts, uint32_t *size,
				       const char **bad)
{
	if (__builtin_expect(pg->native, 1))
		return sl_rb_page_step(pg, ts, size, bad, true, true);
	return sl_rb_page_step(pg, ts, size, bad, true, false);
}

#endif /* SCHEDLINT_DAT_PAGE_H */
