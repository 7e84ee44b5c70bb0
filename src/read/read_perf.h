/* SPDX-License-Identifier: GPL-2.0 */
/*
 * read_perf.h - the perf.data reader (read_perf.c)
 */
#ifndef SCHEDLINT_READ_PERF_H
#define SCHEDLINT_READ_PERF_H

#include <stddef.h>

#include "schedlint/reader.h"

/* What a perf record --threads directory, or its header file, is told. */
#define SL_PERF_DIR_MSG "a perf.data directory (perf record --threads) or its header file: " \
	"its samples are in the data.N files, which schedlint does not read; record " \
	"without --threads"

/*
 * Open a perf.data on fd (taken over), whose first prefix_len bytes
 * sl_reader_open() already read into prefix: a file, or pipe mode
 * (perf record -o -) from a pipe.  0, or -errno with err set.
 */
int sl_read_perf_open(int fd, const char *prefix, size_t prefix_len, struct sl_strtab *strtab,
		      struct sl_reader **out, struct sl_error *err);

#endif /* SCHEDLINT_READ_PERF_H */
