// SPDX-License-Identifier: GPL-2.0
/*
 * test_read_perf_shrink.c - a perf.data that shrinks while it is read
 *
 * The perf.data reader maps the file; a file truncated (or rewritten in
 * place) under it makes the next access past its new end fault with
 * SIGBUS.  That is bad input, not a crash: one line naming the file,
 * exit status 2, as for a trace.dat (README, "Bad input").
 *
 * Deterministic, no race: a child opens a copy of a recording, reads a
 * few events, truncates the file itself at that point and reads on; the
 * parent checks how it ended and what it said.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "schedlint/reader.h"
#include "shrink_check.h"

static char dir[] = "/tmp/sl-perf-shrink-XXXXXX";
static char path[64], errpath[64];

static void check_shrink(long long before, off_t keep)
{
	shrink_check("testdata/perf/messaging.data", path, errpath, before, keep);
}

/* cut to nothing after the first event: the next record header faults */
static void test_shrink_to_empty(void **state)
{
	(void)state;
	check_shrink(1, 0);
}

/* cut to its first page after 500 events: the attributes stay, the data goes */
static void test_shrink_to_first_page(void **state)
{
	(void)state;
	check_shrink(500, 4096);
}

/*
 * cut inside a page, halfway: the rest of that page reads as zeros (no
 * fault), a record header of 0 bytes there is the file shrinking too (it
 * said "corrupt perf.data: a record of 0 bytes")
 */
static void test_shrink_inside_a_page(void **state)
{
	(void)state;
	check_shrink(1, 200123);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/shrink.data", dir);
	snprintf(errpath, sizeof(errpath), "%s/err", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	unlink(errpath);
	rmdir(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shrink_to_empty),
		cmocka_unit_test(test_shrink_to_first_page),
		cmocka_unit_test(test_shrink_inside_a_page),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
