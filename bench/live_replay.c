// SPDX-License-Identifier: GPL-2.0
/*
 * live_replay.c - a trace.dat's pages through the live reader, as
 * `schedlint record --live` reads them: record's own work per page and
 * event (queueing a page, the merge, the walk, the decoding), without
 * the kernel, the file or the model, and so countable by valgrind:
 *
 *   valgrind --tool=callgrind --toggle-collect=replay bench/live_replay TRACE
 *
 * counts the instructions of replay() alone (loading the file, its
 * formats and pages stays out).  Each round adds up to 3 pages of every
 * CPU and takes the events up to the newest time of the round before
 * (record's limit), as tests/unit/test_read_live.c's replay does.
 * Prints "events N pages P".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/dat_meta.h"
#include "read/read_dat.h"
#include "read/read_live.h"
#include "util/util.h"

#include "dat_pages.h"

static __attribute__((noinline)) unsigned long replay(struct sl_live *l, const struct dat_pages *fp)
{
	unsigned long events = 0;
	struct sl_error err = { "" };
	struct sl_event ev;
	uint64_t limit = 0;
	bool more;
	int ret;

	for (size_t round = 0;; round++) {
		more = false;
		for (int cpu = 0; cpu < fp->nr_cpus; cpu++)
			for (size_t i = 3 * round; i < 3 * round + 3 && i < fp->cpu[cpu].nr; i++) {
				const char *bad = sl_live_add_page(l, cpu, fp->cpu[cpu].v[i], NULL);

				if (bad)
					fprintf(stderr, "CPU %d: %s\n", cpu, bad);
				more = true;
			}
		while ((ret = sl_live_next(l, more ? limit : UINT64_MAX, &ev, &err)) != 0)
			events += ret > 0;
		if (!more)
			return events;
		limit = sl_live_newest(l);
	}
}

int main(int argc, char **argv)
{
	struct sl_error err = { "" };
	struct sl_dat_layout layout;
	struct tep_handle *tep = NULL;
	struct dat_pages fp = { 0 };
	struct sl_strtab *st;
	struct sl_live *l;
	size_t pages = 0;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: live_replay TRACE.dat\n");
		return 2;
	}
	if (sl_dat_layout_read_buffer(argv[1], NULL, &layout, &err) < 0)
		goto fail;
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || sl_dat_tep_load(fd, &layout, &tep, NULL, NULL, &err) < 0)
		goto fail;
	if (layout.sections[SL_DAT_KALLSYMS].size) {
		uint8_t *ksyms;
		uint64_t len;

		if (sl_dat_section_read(fd, &layout, SL_DAT_KALLSYMS, &ksyms, &len, &err) < 0)
			goto fail;
		if (len > 4)
			tep_parse_kallsyms(tep, (char *)ksyms + 4);
		free(ksyms);
		tep_find_function(tep, 0);	/* sorts them now, as record does before tracing */
	}
	fp.page_size = layout.subbuf_size ? layout.subbuf_size : layout.page_size;
	fp.nr_cpus = layout.nr_cpus;
	fp.cpu = xcalloc((size_t)fp.nr_cpus, sizeof(*fp.cpu));
	if (sl_dat_walk_pages(fd, &layout, tep, dat_pages_collect, &fp, &err) < 0)
		goto fail;
	close(fd);
	st = sl_strtab_new();
	l = sl_live_new_tep(tep, fp.nr_cpus, (int)fp.page_size, tep_get_header_page_size(tep), st,
			    &err);
	if (!l)
		goto fail;
	for (int cpu = 0; cpu < fp.nr_cpus; cpu++)
		pages += fp.cpu[cpu].nr;
	printf("events %lu pages %zu\n", replay(l, &fp), pages);
	sl_live_free(l);
	sl_strtab_free(st);
	return 0;
fail:
	fprintf(stderr, "%s: %s\n", argv[1], err.msg);
	return 2;
}
