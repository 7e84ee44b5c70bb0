/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_shared.h - what both trace.dat readers share (dat_shared.c)
 *
 * Below both readers: read_dat.c and read_flyrecord.c call these, and
 * these call neither.
 */
#ifndef SCHEDLINT_DAT_SHARED_H
#define SCHEDLINT_DAT_SHARED_H

#include "dat_layout.h"
#include "schedlint/reader.h"

#include <event-parse.h>

struct tracecmd_input;

/*
 * Both readers take buffer, NULL for the top-level one, and after the
 * layout walk call this: a warning naming the other buffers when the
 * top-level one is read and the file has more (their events are not read).
 */
void sl_dat_warn_buffers(const char *path, const struct sl_dat_layout *l);

/*
 * Open the headers of a file whose layout was checked: libtracecmd parses
 * the header page, event formats, kallsyms, printk formats, cmdlines and
 * options, and reads no CPU data.  NULL with err set on failure.
 */
struct tracecmd_input *sl_dat_open_head(const char *path, const struct sl_dat_layout *l,
					struct sl_error *err);

/* Fill the trace facts both readers report from the layout and the headers. */
void sl_dat_info_fill(struct sl_trace_info *info, const struct sl_dat_layout *layout,
		      struct tep_handle *tep);

#endif /* SCHEDLINT_DAT_SHARED_H */
