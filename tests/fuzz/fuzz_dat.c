// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_dat.c - trace.dat files through one of the trace.dat readers
 *
 * The input is a whole trace.dat (v6 or v7), opened by path like
 * `schedlint analyze FILE --reader=R`, read to the end through the model,
 * the analyzers and both reports.  FUZZ_DAT_READER picks R at build time
 * (fuzz_dat_libtracecmd, fuzz_dat_flyrecord).  Inputs without the
 * trace.dat magic are left to fuzz_text.
 */
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

#ifndef FUZZ_DAT_READER
#define FUZZ_DAT_READER SL_DAT_READER_DEFAULT
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct sl_read_opts opts = { .dat_reader = FUZZ_DAT_READER };
	const char *path;
	int fd;

	if (size < 10 || memcmp(data, "\027\010\104tracing", 10))
		return -1;	/* not for this harness */
	path = fuzz_memfile(data, size, &fd);
	fuzz_read_and_analyze(path, &opts);
	close(fd);
	return 0;
}
