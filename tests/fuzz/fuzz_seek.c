// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_seek.c - a seek gives what a full read gives (explore's windows)
 *
 * The input is a trace (a trace.dat, read by the flyrecord reader, or a
 * text) after 8 bytes that choose four times to seek to.  The trace is
 * read whole once; then one reader seeks to each time in turn (forwards
 * and backwards, as explore's windows do: reopened when it cannot seek
 * from where it is, read from the start when it cannot seek at all) and
 * reads on.  When the full read is in time order (a damaged file may not
 * be: then the seeks must only not crash), the events at or after each
 * time must be exactly the full read's from its first such event, in
 * order (compared by sl_dump_event()'s line, up to COMPARE_MAX): a seek
 * that starts late loses them (it once trusted page header times).  The
 * libtracecmd reader's seek is libtracecmd's (it trusts header times):
 * run only for crashes, with bit 0 of byte 0.
 *
 * Layout: bytes 0-7: four 16-bit fractions of the trace's span (0xffff
 * is past its end, and byte 0's bit 0 picks libtracecmd for a
 * trace.dat); then the trace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

#define MAX_EVENTS	20000
#define COMPARE_MAX	300

/* cmd_dump.c */
void sl_dump_event(FILE *f, const struct sl_strtab *st, const struct sl_event *ev);

struct full {
	char **lines;
	uint64_t *ts;
	size_t nr;
	bool ordered;
};

static char *dump_line(const struct sl_strtab *st, const struct sl_event *ev)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	sl_dump_event(f, st, ev);
	fclose(f);
	return buf;
}

/* The whole trace, or false when it does not read to its end (errors are the readers' business). */
static bool read_full(const char *path, const struct sl_read_opts *opts, struct sl_strtab *st,
		      struct full *d)
{
	struct sl_error err = { "" };
	struct sl_reader *r;
	struct sl_event ev;
	int ret = 0;

	memset(d, 0, sizeof(*d));
	if (sl_reader_open(path, opts, st, &r, &err) < 0)
		return false;
	d->lines = calloc(MAX_EVENTS, sizeof(*d->lines));
	d->ts = calloc(MAX_EVENTS, sizeof(*d->ts));
	if (!d->lines || !d->ts)
		abort();
	d->ordered = true;
	while (d->nr < MAX_EVENTS && (ret = sl_reader_next(r, &ev)) > 0) {
		if (d->nr && ev.ts < d->ts[d->nr - 1])
			d->ordered = false;
		d->lines[d->nr] = dump_line(st, &ev);
		d->ts[d->nr++] = ev.ts;
	}
	sl_reader_close(r);
	return d->nr < MAX_EVENTS && ret == 0 && d->nr > 0;
}

static void free_full(struct full *d)
{
	for (size_t i = 0; i < d->nr; i++)
		free(d->lines[i]);
	free(d->lines);
	free(d->ts);
}

/* Seek *rp to ts as explore does (xp_source_seek()), and compare what follows. */
static void check_seek(const char *path, const struct sl_read_opts *opts, struct sl_strtab *st,
		       struct sl_reader **rp, const struct full *d, uint64_t ts, bool compare)
{
	struct sl_error err = { "" };
	struct sl_event ev;
	size_t i = 0, compared = 0;
	int ret;

	while (i < d->nr && d->ts[i] < ts)
		i++;
	ret = *rp ? sl_reader_seek_time(*rp, ts) : -ENOTSUP;
	if (ret == -ENOTSUP) {
		sl_reader_close(*rp);
		*rp = NULL;
		if (sl_reader_open(path, opts, st, rp, &err) < 0)
			fuzz_fail("the trace opened once, not again: %s", err.msg);
		ret = sl_reader_seek_time(*rp, ts);
		if (ret == -ENOTSUP)
			ret = 0;	/* from the start: the events before ts are skipped */
	}
	if (ret < 0) {
		sl_reader_close(*rp);	/* a damaged file may fail here: reopen next time */
		*rp = NULL;
		if (compare)
			fuzz_fail("seek to %llu failed (%d) on a trace that reads whole: %s",
				  (unsigned long long)ts, ret, err.msg);
		return;
	}
	while (compared < COMPARE_MAX && (ret = sl_reader_next(*rp, &ev)) > 0) {
		char *line;

		if (ev.ts < ts)
			continue;
		if (compare) {
			line = dump_line(st, &ev);
			if (i >= d->nr || strcmp(line, d->lines[i]))
				fuzz_fail("seek to %llu: event %zu after it is\n  %s  expected\n  %s",
					  (unsigned long long)ts, compared, line,
					  i < d->nr ? d->lines[i] : "(end of trace)\n");
			free(line);
		}
		i++;
		compared++;
	}
	if (compare && ret < 0)
		fuzz_fail("reading on after a seek to %llu failed (%d) on a trace that reads whole",
			  (unsigned long long)ts, ret);
	if (compare && compared < COMPARE_MAX && i != d->nr)
		fuzz_fail("seek to %llu: the trace ended %zu events early", (unsigned long long)ts,
			  d->nr - i);
	if (ret <= 0) {	/* at the end, or failed: explore reopens */
		sl_reader_close(*rp);
		*rp = NULL;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct sl_read_opts ltc = { .dat_reader = SL_DAT_READER_LIBTRACECMD };
	const struct sl_read_opts *opts = NULL;
	struct sl_strtab *st;
	struct sl_error err = { "" };
	struct sl_reader *r = NULL;
	struct full d;
	const char *path;
	bool is_dat, compare;
	int fd;

	if (size < 8)
		return -1;
	is_dat = size >= 18 && !memcmp(data + 8, "\027\010\104tracing", 10);
	if (is_dat && (data[0] & 1))
		opts = &ltc;
	path = fuzz_memfile(data + 8, size - 8, &fd);
	st = sl_strtab_new();
	if (read_full(path, opts, st, &d)) {
		uint64_t first = d.ts[0], last = d.ts[d.nr - 1];

		compare = d.ordered && opts != &ltc;
		if (sl_reader_open(path, opts, st, &r, &err) < 0)
			fuzz_fail("the trace opened once, not again: %s", err.msg);
		for (int k = 0; k < 4; k++) {
			unsigned frac = (unsigned)data[2 * k] | (unsigned)data[2 * k + 1] << 8;
			uint64_t ts = frac == 0xffff ? last + 1 :
				      first + (uint64_t)((unsigned __int128)(last - first) * frac / 0xfffe);

			check_seek(path, opts, st, &r, &d, ts, compare);
		}
		sl_reader_close(r);
	}
	free_full(&d);
	sl_strtab_free(st);
	close(fd);
	return 0;
}
