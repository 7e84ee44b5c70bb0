/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallsyms.h - a trace.dat's kallsyms as a sorted table, for libtraceevent
 */
#ifndef SCHEDLINT_KALLSYMS_H
#define SCHEDLINT_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

struct tep_handle;
struct sl_kallsyms;

/*
 * Parse text (len bytes of /proc/kallsyms as trace-cmd saved it, with a
 * writable byte after them) and make it tep's function resolver.  Names
 * are resolved exactly as tep_parse_kallsyms() + tep_find_function()
 * would; a text this parser is not sure of (a line not
 * "ADDR TYPE NAME[\t[MODULE]]") is handed to tep_parse_kallsyms()
 * instead.  The table takes owner, the allocation text lies in, and
 * writes into the text.  Returns the table, to be freed with
 * sl_kallsyms_free() after tep_free(); NULL if tep's parser took the text
 * (owner is freed then).
 */
struct sl_kallsyms *sl_kallsyms_load(struct tep_handle *tep, char *text, size_t len, void *owner);
/* The function containing addr (and its start), as tep_find_function(); NULL if none. */
const char *sl_kallsyms_find(const struct sl_kallsyms *k, uint64_t addr, uint64_t *start);
void sl_kallsyms_free(struct sl_kallsyms *k);

#endif /* SCHEDLINT_KALLSYMS_H */
