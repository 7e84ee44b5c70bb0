// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_perf.c - perf.data files through the perf.data reader
 *
 * The input is a whole perf.data (a file, or pipe mode written to a
 * file), opened by path like `schedlint analyze FILE`, read to the end
 * through the model, the analyzers and both reports.  Inputs without the
 * "PERFILE2" magic are left to the other harnesses.  Seeds: small
 * recordings cut from testdata/perf by tests/perf_edit.py shrink.
 */
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	int fd;

	if (size < 8 || memcmp(data, "PERFILE2", 8))
		return -1;	/* not for this harness */
	path = fuzz_memfile(data, size, &fd);
	fuzz_read_and_analyze(path, NULL);
	close(fd);
	return 0;
}
