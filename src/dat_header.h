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

struct sl_dat_cpu_data {
	uint64_t offset;	/* of the CPU's ring-buffer pages in the file */
	uint64_t size;
};

struct sl_dat_header {
	int version;		/* 6 or 7 */
	bool big_endian;
	int long_size;		/* 4 or 8 */
	uint32_t page_size;
	off_t file_size;
	/* version 6 only: the flyrecord section */
	int nr_cpus;
	struct sl_dat_cpu_data *cpu_data;	/* nr_cpus entries, owned */
};

void sl_dat_header_free(struct sl_dat_header *hdr);

/*
 * Check magic, version, endianness, long and page size of path; fill hdr.
 * For version 6 also walk the header sections to the flyrecord table and
 * check that every CPU's data lies inside the file (libtracecmd maps it
 * without checking and crashes on a truncated file).
 * -EINVAL / -ENOTSUP with err set when the file is not one we can read.
 */
int sl_dat_header_check(const char *path, struct sl_dat_header *hdr, struct sl_error *err);

#endif /* SCHEDLINT_DAT_HEADER_H */
