/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strtab.h - interned strings (comms, event names, callsites)
 *
 * Readers intern every string they hand downstream; the rest of the
 * program compares and stores 32-bit ids.  Id 0 is the empty string.
 * Interned strings live as long as the table and never move.  They are
 * stored printable: control characters (bytes below 0x20, and 0x7f)
 * become '?' (they come from traces and go to terminals and reports).
 *
 * Threads: one thread at a time may intern (sl_intern*, and sl_strtab_find
 * which reads the same hash table); sl_str() and sl_strtab_count() may run
 * on other threads at the same time (a pipelined analysis: the reader
 * thread interns while the main thread's model reads names).  An id a
 * thread got through a synchronized hand-off resolves to its string.
 */
#ifndef SCHEDLINT_STRTAB_H
#define SCHEDLINT_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct sl_strtab;

struct sl_strtab *sl_strtab_new(void);
void sl_strtab_free(struct sl_strtab *st);

/* Returns the id of s[0..len), adding it when new.  Never fails: aborts on OOM. */
uint32_t sl_intern(struct sl_strtab *st, const char *s, size_t len);
uint32_t sl_intern_cstr(struct sl_strtab *st, const char *s);
/* Returns the id of s if interned, else 0 (the empty string's id). */
uint32_t sl_strtab_find(const struct sl_strtab *st, const char *s, size_t len);

const char *sl_str(const struct sl_strtab *st, uint32_t id);
uint32_t sl_strtab_count(const struct sl_strtab *st);

#endif /* SCHEDLINT_STRTAB_H */
