/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map_guard.h - a mapped file that shrinks while it is read: an error, not SIGBUS
 *
 * A file truncated or rewritten in place while it is mapped makes the
 * next access past its new end fault with SIGBUS.  That is bad input, not
 * a crash: the handler puts a page of zeros where the file was, so that
 * the access completes, and marks the map's guard; the reader looks at
 * the mark before it hands on what it read, and fails instead (one line,
 * exit 2, as any bad input).  Faults anywhere else go to the handler that
 * was there before (explore's, the sanitizers') or to the default action:
 * the handler puts it back and returns, the access faults again.  A
 * reader calls sl_map_guard_arm() again every so often (a system call per
 * thousands of events), so that the handler is there after explore has
 * set up its own.  Used by read_perf.c and read_flyrecord.c.
 */
#ifndef SL_MAP_GUARD_H
#define SL_MAP_GUARD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

struct sl_map_guard {
	uint8_t *map;			/* NULL: a free entry */
	size_t len;
	volatile sig_atomic_t shrank;	/* the map faulted past the file's end */
};

/* Watch [map, map + len) for faults: NULL when every entry is taken (then do not map). */
struct sl_map_guard *sl_map_guard_add(uint8_t *map, size_t len);
/* Install the handler (again): once at the start, then every so often. */
void sl_map_guard_arm(void);
/* The map is about to go away (NULL: nothing). */
void sl_map_guard_release(struct sl_map_guard *g);
/* The system's page size, as the handler uses it. */
size_t sl_map_page_size(void);

#endif
