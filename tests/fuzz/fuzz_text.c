// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_text.c - the text readers (tracefs, trace-cmd report, perf script)
 *
 * The input is a text trace in any dialect; it goes through
 * sl_reader_open() as a file, like `schedlint analyze FILE` (which picks
 * the text reader for anything that is not a trace.dat), then the model,
 * every analyzer and both reports.  Inputs that start like a trace.dat are
 * left to fuzz_dat.  The read buffer is made small, so that lines
 * straddle its refills and exceed it (both rare with the real 1 MB).
 */
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "read/read_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	int fd;

	if (size >= 3 && !memcmp(data, "\027\010\104", 3))
		return -1;	/* not for this harness: keep it out of the corpus */
	text_buf_size = 512;
	path = fuzz_memfile(data, size, &fd);
	fuzz_read_and_analyze(path, NULL);
	close(fd);
	return 0;
}
