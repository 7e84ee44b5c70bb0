// SPDX-License-Identifier: GPL-2.0
/*
 * test_reader_seek.c - sl_reader_seek_time() gives what a full read gives
 *
 * For each input format with a seek: read the whole trace once, then for
 * times before, inside and after it seek a fresh reader there and check
 * that the events at or after that time, in order, are exactly those of
 * the full read.  Events are compared through their dump line (every
 * field schedlint uses).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "schedlint/reader.h"

/* cmd_dump.c */
void sl_dump_event(FILE *f, const struct sl_strtab *st, const struct sl_event *ev);

/* The reader under test: NULL is the default (flyrecord for trace.dat). */
static const struct sl_read_opts *reader_opts;

/* Events compared after each seek: enough to cross pages and CPUs. */
#define COMPARE_MAX 3000

struct dumped {
	char **lines;
	uint64_t *ts;
	size_t nr, alloc;
};

static char *dump_line(const struct sl_strtab *st, const struct sl_event *ev)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sl_dump_event(f, st, ev);
	fclose(f);
	return buf;
}

static void read_all(const char *path, struct sl_strtab *st, struct dumped *d)
{
	struct sl_error err = { "" };
	struct sl_reader *r;
	struct sl_event ev;
	int ret;

	assert_int_equal(sl_reader_open(path, reader_opts, st, &r, &err), 0);
	memset(d, 0, sizeof(*d));
	while ((ret = sl_reader_next(r, &ev)) > 0) {
		if (d->nr == d->alloc) {
			d->alloc = d->alloc ? d->alloc * 2 : 4096;
			d->lines = realloc(d->lines, d->alloc * sizeof(*d->lines));
			d->ts = realloc(d->ts, d->alloc * sizeof(*d->ts));
		}
		d->lines[d->nr] = dump_line(st, &ev);
		d->ts[d->nr++] = ev.ts;
	}
	assert_int_equal(ret, 0);
	sl_reader_close(r);
	assert_true(d->nr > 100);
}

static void free_dumped(struct dumped *d)
{
	for (size_t i = 0; i < d->nr; i++)
		free(d->lines[i]);
	free(d->lines);
	free(d->ts);
}

/*
 * Seek *rp to ts as explore does (a reader that cannot seek from where it
 * is gets reopened first) and compare what follows with the full read.
 */
static size_t check_seek(const char *path, struct sl_reader **rp, struct sl_strtab *st,
		       const struct dumped *d, uint64_t ts)
{
	struct sl_error err = { "" };
	struct sl_reader *r = *rp;
	struct sl_event ev;
	size_t i = 0, compared = 0, skipped = 0;
	int ret;

	/* the full read's first event at or after ts (the stream is in time order) */
	while (i < d->nr && d->ts[i] < ts)
		i++;
	ret = sl_reader_seek_time(r, ts);
	if (ret == -ENOTSUP) {
		sl_reader_close(r);
		assert_int_equal(sl_reader_open(path, reader_opts, st, rp, &err), 0);
		r = *rp;
		ret = sl_reader_seek_time(r, ts);
	}
	assert_int_equal(ret, 0);
	while (compared < COMPARE_MAX && (ret = sl_reader_next(r, &ev)) > 0) {
		char *line;

		if (ev.ts < ts) {
			skipped++;
			continue;
		}
		line = dump_line(st, &ev);
		if (i >= d->nr || strcmp(line, d->lines[i]))
			fail_msg("seek to %llu: event %zu after it is\n  %s  expected\n  %s",
				 (unsigned long long)ts, compared, line,
				 i < d->nr ? d->lines[i] : "(end of trace)\n");
		free(line);
		i++;
		compared++;
	}
	if (compared < COMPARE_MAX)	/* reached the end: so must the full read */
		assert_int_equal(i, d->nr);
	return skipped;
}

static void seek_everywhere(const char *path)
{
	struct sl_strtab *st = sl_strtab_new();
	struct sl_error err = { "" };
	struct sl_reader *r;
	struct dumped d;
	uint64_t first, last;

	read_all(path, st, &d);
	first = d.ts[0];
	last = d.ts[d.nr - 1];
	assert_int_equal(sl_reader_open(path, reader_opts, st, &r, &err), 0);
	/* out of order on purpose: backwards seeks as well as forwards */
	check_seek(path, &r, st, &d, last - (last - first) / 3);
	check_seek(path, &r, st, &d, first + (last - first) / 7);
	check_seek(path, &r, st, &d, 0);
	check_seek(path, &r, st, &d, first);
	check_seek(path, &r, st, &d, d.ts[d.nr / 2]);		/* exactly an event's time */
	check_seek(path, &r, st, &d, d.ts[d.nr / 2] + 1);
	check_seek(path, &r, st, &d, last);
	check_seek(path, &r, st, &d, last + 1);
	/* and it went there, rather than to the start: a page or so before */
	if (d.nr > 4000)
		assert_true(check_seek(path, &r, st, &d, first + (last - first) / 2) < d.nr / 4);
	sl_reader_close(r);
	free_dumped(&d);
	sl_strtab_free(st);
}

static void test_dat_v7_zstd(void **state)
{
	seek_everywhere("testdata/real/hogs.dat");
	seek_everywhere("testdata/real/pipe.dat");
}

/* v6 and uncompressed v7: converted by trace-cmd (too large to keep in testdata) */
static void test_dat_converted(void **state)
{
	char dir[] = "/tmp/schedlint-seek-XXXXXX", cmd[512], path[300];
	static const char *const variants[] = {
		"--file-version 6", "--file-version 7 --compression none",
	};

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.dat", dir);
	for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		snprintf(cmd, sizeof(cmd), "trace-cmd convert %s -i testdata/real/pipe.dat -o %s "
			 ">/dev/null 2>&1", variants[i], path);
		assert_int_equal(system(cmd), 0);
		seek_everywhere(path);
		unlink(path);
	}
	rmdir(dir);
}

/*
 * The same with the reference reader (libtracecmd's own seek), on v6 and
 * uncompressed v7: its seek takes the same path for zstd, where
 * libtracecmd 3.1.6 is quadratic and allocates per page -- minutes under
 * ASan for no more coverage of ours.  dat_readers.sh compares its full
 * read of the zstd files.
 */
static void test_dat_libtracecmd(void **state)
{
	static const struct sl_read_opts ltc = { .dat_reader = SL_DAT_READER_LIBTRACECMD };

	reader_opts = &ltc;
	test_dat_converted(state);
	reader_opts = NULL;
}

/*
 * zlib with chunks of 3.5 pages (tests/dat_v7.py): a seek can land only
 * on a chunk that starts at a page boundary.
 */
static void test_dat_zlib(void **state)
{
	char dir[] = "/tmp/schedlint-seek-XXXXXX", cmd[1024], v6[64], v7[64];

	assert_non_null(mkdtemp(dir));
	snprintf(v6, sizeof(v6), "%s/t6.dat", dir);
	snprintf(v7, sizeof(v7), "%s/t7.dat", dir);
	snprintf(cmd, sizeof(cmd), "trace-cmd convert --file-version 6 -i testdata/real/pipe.dat "
		 "-o %s >/dev/null 2>&1 && python3 tests/dat_v7.py %s %s --compression zlib "
		 "--chunk-bytes 14336", v6, v6, v7);
	assert_int_equal(system(cmd), 0);
	seek_everywhere(v7);
	unlink(v6);
	unlink(v7);
	rmdir(dir);
}

/*
 * Pages whose header time is not their events' (dat_edit.py): headers of
 * time 0 on pages that start with an absolute time stamp (the same events
 * at the same times), and trailing pages of zeros.  A seek that trusted
 * header times started at the CPU's last page, past the events sought.
 * Uncompressed v6, and zlib v7 in chunks of 3.5 pages (tests/dat_v7.py).
 */
static void test_dat_header_times(void **state)
{
	static const char *const kinds[] = { "seek-stamps", "empty-tail" };
	char dir[] = "/tmp/schedlint-seek-XXXXXX", cmd[1024], v6[64], ed[64], v7[64];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(v6, sizeof(v6), "%s/t6.dat", dir);
	snprintf(ed, sizeof(ed), "%s/e6.dat", dir);
	snprintf(v7, sizeof(v7), "%s/e7.dat", dir);
	snprintf(cmd, sizeof(cmd), "trace-cmd convert --file-version 6 -i testdata/real/pipe.dat "
		 "-o %s >/dev/null 2>&1", v6);
	assert_int_equal(system(cmd), 0);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		snprintf(cmd, sizeof(cmd), "python3 tests/dat_edit.py edit %s %s %s && "
			 "python3 tests/dat_v7.py %s %s --compression zlib --chunk-bytes 14336",
			 v6, ed, kinds[i], ed, v7);
		assert_int_equal(system(cmd), 0);
		seek_everywhere(ed);
		seek_everywhere(v7);
		unlink(ed);
		unlink(v7);
	}
	unlink(v6);
	rmdir(dir);
}

static void test_tracefs_text(void **state)
{
	seek_everywhere("testdata/real/pipe.txt");
	seek_everywhere("testdata/real/hogs.txt");
}

static void test_other_dialects(void **state)
{
	seek_everywhere("testdata/real/perf-sched.txt");
	seek_everywhere("testdata/text/tracecmd-dropped.txt");
	seek_everywhere("testdata/text/tracefs-pipe-lost.txt");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dat_v7_zstd),
		cmocka_unit_test(test_dat_converted),
		cmocka_unit_test(test_dat_libtracecmd),
		cmocka_unit_test(test_dat_zlib),
		cmocka_unit_test(test_dat_header_times),
		cmocka_unit_test(test_tracefs_text),
		cmocka_unit_test(test_other_dialects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
