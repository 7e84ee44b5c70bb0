// SPDX-License-Identifier: GPL-2.0
/*
 * read_dat_open.c - choose the trace.dat reader
 */
#include <errno.h>

#include "schedlint/reader.h"

int sl_read_dat_libtracecmd_open(const char *path, struct sl_strtab *strtab,
				 struct sl_reader **out, struct sl_error *err);

int sl_read_dat_open(const char *path, const struct sl_read_opts *opts,
		     struct sl_strtab *strtab, struct sl_reader **out,
		     struct sl_error *err)
{
	switch (opts->dat_reader) {
	case SL_DAT_READER_FLYRECORD:
		sl_error_set(err, "the flyrecord reader is not built yet");
		return -ENOSYS;
	case SL_DAT_READER_DEFAULT:
	case SL_DAT_READER_LIBTRACECMD:
	default:
		return sl_read_dat_libtracecmd_open(path, strtab, out, err);
	}
}
