// SPDX-License-Identifier: GPL-2.0
/*
 * test_read_dat_shrink.c - an uncompressed trace.dat that shrinks while
 * our reader (read_flyrecord.c) reads it
 *
 * The reader maps a file whose CPU data is not compressed (a v6 file);
 * a file truncated (or rewritten in place) under it makes the next access
 * past its new end fault with SIGBUS.  That is bad input, not a crash: one
 * line naming the file, exit status 2 (README, "Bad input"), as for a
 * perf.data (test_read_perf_shrink.c) and through libtracecmd
 * (tests/e2e/hardening.sh).
 *
 * Deterministic, no race: a child opens a v6 copy of a recording (trace-cmd
 * convert of testdata/bench/hackbench-g4.dat: 179,308 events, 16 MB, the
 * CPU data from 46% of the file to its end), reads some events, truncates the file itself at that point
 * and reads on; the parent checks how it ended and what it said.
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "schedlint/reader.h"
#include "shrink_check.h"

static char dir[] = "/tmp/sl-dat-shrink-XXXXXX";
static char v6[64], path[64], errpath[64];
static long long events_total;
static off_t v6_size;

/* The events of a file, read to its end by our reader (-1: it failed). */
static long long count_events(const char *file)
{
	struct sl_strtab *st = sl_strtab_new();
	struct sl_error err = { "" };
	struct sl_reader *r;
	struct sl_event ev;
	long long n = 0;
	int ret;

	if (sl_reader_open(file, NULL, st, &r, &err)) {
		sl_strtab_free(st);
		return -1;
	}
	while ((ret = sl_reader_next(r, &ev)) > 0)
		n++;
	sl_reader_close(r);
	sl_strtab_free(st);
	return ret < 0 ? -1 : n;
}

static void check_shrink(long long before, off_t keep)
{
	shrink_check(v6, path, errpath, before, keep);
}

/* the whole file reads to its end: the cuts below are what fails */
static void test_whole(void **state)
{
	(void)state;
	assert_int_equal(events_total, 179308);
}

/* cut to nothing after the first event: the page being walked faults */
static void test_shrink_to_empty(void **state)
{
	(void)state;
	check_shrink(1, 0);
}

/* cut to its first 4 KiB after 500 events: the headers stay, the data goes */
static void test_shrink_to_first_page(void **state)
{
	(void)state;
	check_shrink(500, 4096);
}

/*
 * cut inside a page, at three quarters of the file (CPU 0's data, ahead
 * of its walk; CPU 1's all gone), after a third of the events: the rest
 * of that page reads as zeros (no fault), which the walk or the decoder
 * takes for a corrupt page: the file shrinking too
 */
static void test_shrink_inside_a_page(void **state)
{
	(void)state;
	check_shrink(events_total / 3, v6_size / 4 * 3 + 123);
}

/* cut near the end, after most of the events */
static void test_shrink_near_the_end(void **state)
{
	(void)state;
	check_shrink(events_total - 100, v6_size - 4096 * 3);
}

static int setup(void **state)
{
	char cmd[256];
	struct stat st;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(v6, sizeof(v6), "%s/v6.dat", dir);
	snprintf(path, sizeof(path), "%s/shrink.dat", dir);
	snprintf(errpath, sizeof(errpath), "%s/err", dir);
	/* a real recording's CPU data, uncompressed: the reader maps it */
	snprintf(cmd, sizeof(cmd), "trace-cmd convert --file-version 6 -i testdata/bench/hackbench-g4.dat "
		 "-o %s >/dev/null 2>&1", v6);
	if (system(cmd) || stat(v6, &st))
		return -1;
	v6_size = st.st_size;
	events_total = count_events(v6);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(v6);
	unlink(path);
	unlink(errpath);
	rmdir(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_shrink_to_empty),
		cmocka_unit_test(test_shrink_to_first_page),
		cmocka_unit_test(test_shrink_inside_a_page),
		cmocka_unit_test(test_shrink_near_the_end),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
