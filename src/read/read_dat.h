/* SPDX-License-Identifier: GPL-2.0 */
/*
 * read_dat.h - the two trace.dat readers and what they share
 *
 * Both are entry points a fuzz harness can call: they take a path, return
 * 0 or -errno with a message in err, and never exit.
 */
#ifndef SCHEDLINT_READ_DAT_H
#define SCHEDLINT_READ_DAT_H

#include "dat_layout.h"
#include "schedlint/reader.h"

#include <event-parse.h>

struct tracecmd_input;

/* libtracecmd reads everything (the reference reader). */
int sl_read_dat_libtracecmd_open(const char *path, const char *buffer, struct sl_strtab *strtab,
				 struct sl_reader **out, struct sl_error *err);
/* Our own streaming reader of the flyrecord CPU data (read_flyrecord.c). */
int sl_read_dat_flyrecord_open(const char *path, const char *buffer, struct sl_strtab *strtab,
			       struct sl_reader **out, struct sl_error *err);
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

/*
 * Check every ring-buffer page of the file's CPU data as the flyrecord
 * reader does, without decoding events: 0, or -errno with err naming the
 * CPU and page.  tep has the file's header page format.
 */
int sl_dat_check_pages(int fd, const struct sl_dat_layout *layout,
		       struct tep_handle *tep, struct sl_error *err);

/* Fill the trace facts both readers report from the layout and the headers. */
void sl_dat_info_fill(struct sl_trace_info *info, const struct sl_dat_layout *layout,
		      struct tep_handle *tep);

#endif /* SCHEDLINT_READ_DAT_H */
