// SPDX-License-Identifier: GPL-2.0
/*
 * dat_page.c - check a ring-buffer page before it is walked (dat_page.h)
 *
 * The walk (sl_rb_page_next()), like kbuffer's, trusts the commit size
 * and every record's length; a padding record of length -4 would send
 * either round in a loop for ever.  So a page is checked once, when it is
 * loaded, taking the same steps: a corrupt page is refused with what is
 * wrong, and the walk needs no test per record.  (The flyrecord reader
 * checks the header here and the records as it walks them, with
 * sl_rb_page_next_checked(): the same tests in the same order.)
 */
#include "dat_page.h"

#include "util/util.h"

void sl_rb_format_init(struct sl_rb_format *f, int long_size, bool big_endian)
{
	f->long_size = long_size;
	f->hdr_size = 8 + long_size;
	f->big_endian = big_endian;
	f->swap = big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

/*
 * The records of a page whose header sl_rb_page_check() accepted: inlined
 * twice, once for the common file (of our byte order, little-endian) with
 * swap and big_endian constant, once for any other.  The common record,
 * a data record (type_len 1 to 28) whose header lies inside the commit
 * (so inside room), goes round a loop of its own that tests only where
 * it ends: per record a load, a mask and an add on the path from one
 * record to the next (the loop's latency), where the general step also
 * swaps, picks the byte order's bits and tests room.  A record ending
 * past the commit leaves that loop with pos > commit, the error the
 * general step would give; every other record (a header that runs past
 * the commit, type_len 0, padding, time extends) takes the general step,
 * the same tests as ever, in the same order.
 */
static inline __attribute__((always_inline))
const char *check_records(const uint8_t *data, size_t commit, size_t room, bool swap,
			  bool big_endian)
{
	size_t pos = 0;

	while (pos < commit) {
		uint32_t word, type_len;
		uint64_t next;

		while (pos + 4 <= commit) {
			/* the loop waits on its loads: ask for the lines ahead (a hint, never a fault) */
			__builtin_prefetch(data + pos + 256);
			word = sl_rb_read4(swap, data + pos);
			type_len = big_endian ? word >> 27 : word & 31;
			if (type_len - 1 >= RB_TYPE_DATA_MAX)
				break;
			pos += 4 + 4 * (size_t)type_len;
		}
		if (pos >= commit) {
			if (pos > commit)
				return "event runs past the page's commit";
			break;
		}

		if (pos + 4 > room)
			return "event header past the end of the page";
		word = sl_rb_read4(swap, data + pos);
		type_len = big_endian ? word >> 27 : word & 31;
		if (type_len - 1 < RB_TYPE_DATA_MAX) {	/* 1 to 28, its header past the commit */
			pos += 4 + 4 * (size_t)type_len;
			if (pos > commit)
				return "event runs past the page's commit";
			continue;
		}
		switch (type_len) {
		case RB_TYPE_PADDING: {
			/* a discarded event or the page's tail: length in array[0] */
			if (pos + 8 > room)
				return "padding event past the end of the page";
			int32_t len = (int32_t)sl_rb_read4(swap, data + pos + 4);

			if (len < 0)
				return "padding event with a negative length";
			next = pos + 4 + (uint64_t)len;
			break;
		}
		case RB_TYPE_TIME_EXTEND:
		case RB_TYPE_TIME_STAMP:
			if (pos + 8 > commit)
				return "time extend past the page's commit";
			next = pos + 8;
			break;
		default: {
			/* 0, a large event: its length (itself included) in array[0] */
			if (pos + 8 > commit)
				return "event header past the page's commit";
			uint32_t len = sl_rb_read4(swap, data + pos + 4);

			if (len < 4)
				return "event with a length shorter than its header";
			next = pos + 8 + (((uint64_t)len - 4 + 3) & ~3ULL);
			if (next > commit)
				return "event runs past the page's commit";
			break;
		}
		}
		pos = (size_t)MIN(next, (uint64_t)commit);
	}
	return NULL;
}

/* The page's header: room, the commit (in *commit), the lost-event count. */
static inline __attribute__((always_inline))
const char *check_header(const struct sl_rb_format *f, const uint8_t *page, size_t room,
			 int64_t *lost, size_t *commit_out)
{
	const uint8_t *data = page + f->hdr_size;
	uint64_t flags, commit;

	if (room < (size_t)f->hdr_size)
		return "page shorter than its header";
	room -= (size_t)f->hdr_size;
	flags = sl_rb_read_long(f, page + 8);
	commit = flags & RB_COMMIT_MASK;
	if (commit > room)
		return "page commit size larger than the page";
	*lost = 0;
	if (flags & RB_MISSED_EVENTS) {
		*lost = -1;
		if (flags & RB_MISSED_STORED) {
			if (commit + (size_t)f->long_size > room)
				return "lost-event count past the end of the page";
			*lost = (int64_t)sl_rb_read_long(f, data + commit);
			if (*lost <= 0)
				*lost = -1;
		}
	}
	*commit_out = (size_t)commit;
	return NULL;
}

const char *sl_rb_page_check_header(const struct sl_rb_format *f, const uint8_t *page,
				    size_t room, int64_t *lost)
{
	size_t commit;

	return check_header(f, page, room, lost, &commit);
}

const char *sl_rb_page_check(const struct sl_rb_format *f, const uint8_t *page, size_t room,
			     int64_t *lost)
{
	const uint8_t *data = page + f->hdr_size;
	const char *bad;
	size_t commit;

	if ((bad = check_header(f, page, room, lost, &commit)))
		return bad;
	room -= (size_t)f->hdr_size;
	if (!f->swap && !f->big_endian)
		return check_records(data, commit, room, false, false);
	return check_records(data, commit, room, f->swap, f->big_endian);
}
