// SPDX-License-Identifier: GPL-2.0
/*
 * read_only.c - iterate a trace through schedlint's reader and nothing
 * else: no model, no analyzers.  bench/run uses it to split analyze's
 * time into reading and analysis, for trace.dat and for text.
 *
 *   read_only [--reader=flyrecord|libtracecmd] TRACE   -> "events N"
 */
#include <stdio.h>
#include <string.h>

#include "cmd/options.h"
#include "schedlint/reader.h"

int main(int argc, char **argv)
{
	struct sl_read_opts opts = { 0 };
	struct sl_error err = { "" };
	struct sl_strtab *st;
	struct sl_reader *r;
	struct sl_event ev;
	unsigned long long events = 0;
	int ret, arg = 1;

	if (argc == 3 && !strncmp(argv[1], "--reader=", 9)) {
		if (sl_parse_reader_opt(argv[1] + 9, &opts.dat_reader)) {
			fprintf(stderr, "read_only: unknown reader %s\n", argv[1] + 9);
			return 2;
		}
		arg = 2;
	}
	if (arg != argc - 1) {
		fprintf(stderr, "usage: read_only [--reader=flyrecord|libtracecmd] TRACE\n");
		return 2;
	}
	st = sl_strtab_new();
	if (sl_reader_open(argv[arg], &opts, st, &r, &err) < 0) {
		fprintf(stderr, "%s: %s\n", argv[arg], err.msg);
		sl_strtab_free(st);
		return 2;
	}
	while ((ret = sl_reader_next(r, &ev)) > 0)
		events++;
	if (ret < 0)
		fprintf(stderr, "%s: %s\n", argv[arg], err.msg);
	printf("events %llu\n", events);
	sl_reader_close(r);
	sl_strtab_free(st);
	return ret < 0 ? 2 : 0;
}
