/* SPDX-License-Identifier: GPL-2.0 */
/*
 * read_dat.h - the two trace.dat readers
 *
 * reader.c chooses one (--reader); what both share is in dat_shared.h,
 * below them.  Both are entry points a fuzz harness can call: they take a
 * path, return 0 or -errno with a message in err, and never exit.
 */
#ifndef SCHEDLINT_READ_DAT_H
#define SCHEDLINT_READ_DAT_H

#include "dat_layout.h"
#include "schedlint/reader.h"

#include <event-parse.h>

/* libtracecmd reads everything (the reference reader). */
int sl_read_dat_libtracecmd_open(const char *path, const char *buffer, struct sl_strtab *strtab,
				 struct sl_reader **out, struct sl_error *err);
/* Our own streaming reader of the flyrecord CPU data (read_flyrecord.c). */
int sl_read_dat_flyrecord_open(const char *path, const char *buffer, struct sl_strtab *strtab,
			       struct sl_reader **out, struct sl_error *err);
/*
 * Check every ring-buffer page of the file's CPU data as the flyrecord
 * reader does, without decoding events, and hand each page that passed
 * (its header up to its lost-event count: len bytes) to fn, when not
 * NULL, which returns 0 to go on.  0, or -errno with err naming the CPU
 * and page, or fn's non-zero value.  tep has the file's header page
 * format.  In read_flyrecord.c (it is that reader's page walk); the
 * libtracecmd reader calls it (the check), as does the test that holds
 * our page walk to kbuffer's; the flyrecord reader calls nothing of
 * read_dat.c.
 */
typedef int sl_dat_page_fn(int cpu, const uint8_t *page, size_t len, void *arg);
int sl_dat_walk_pages(int fd, const struct sl_dat_layout *layout, struct tep_handle *tep,
		      sl_dat_page_fn *fn, void *arg, struct sl_error *err);

static inline int sl_dat_check_pages(int fd, const struct sl_dat_layout *layout,
				     struct tep_handle *tep, struct sl_error *err)
{
	return sl_dat_walk_pages(fd, layout, tep, NULL, NULL, err);
}

#endif /* SCHEDLINT_READ_DAT_H */
