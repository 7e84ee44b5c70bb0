/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_header.h - the fixed start of a trace.dat file
 */
#ifndef SCHEDLINT_DAT_HEADER_H
#define SCHEDLINT_DAT_HEADER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "schedlint/reader.h"

#define SL_DAT_MAX_CPUS 8192

struct sl_dat_header {
	int version;		/* 6 or 7 */
	bool big_endian;
	int long_size;		/* 4 or 8 */
	uint32_t page_size;
	off_t file_size;
};

/*
 * Check magic, version, endianness, long and page size of path; fill hdr.
 * -EINVAL / -ENOTSUP with err set when the file is not one we can read.
 */
int sl_dat_header_check(const char *path, struct sl_dat_header *hdr, struct sl_error *err);

#endif /* SCHEDLINT_DAT_HEADER_H */
