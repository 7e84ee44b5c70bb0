/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_pages.h - a trace.dat's ring-buffer pages, CPU by CPU, as
 * `schedlint record` reads them from the kernel (whole, zero-filled past
 * their data): what bench/live_replay.c counts and what
 * tests/unit/test_read_live.c checks replay through the live reader.
 * Fill with sl_dat_walk_pages(fd, layout, tep, dat_pages_collect, &fp, err)
 * after setting page_size and nr_cpus and allocating cpu[nr_cpus].
 */
#ifndef SCHEDLINT_BENCH_DAT_PAGES_H
#define SCHEDLINT_BENCH_DAT_PAGES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct dat_cpu_pages {
	uint8_t **v;
	size_t nr, alloc;
};

struct dat_pages {
	size_t page_size;
	int nr_cpus;
	struct dat_cpu_pages *cpu;
};

/* sl_dat_walk_pages()'s callback: one page, up to its lost count */
static inline int dat_pages_collect(int cpu, const uint8_t *page, size_t len, void *arg)
{
	struct dat_pages *fp = arg;
	struct dat_cpu_pages *c;

	if (cpu < 0 || cpu >= fp->nr_cpus || len > fp->page_size)
		return -1;
	c = &fp->cpu[cpu];
	if (c->nr == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 16;
		c->v = xrealloc(c->v, c->alloc * sizeof(*c->v));
	}
	c->v[c->nr] = xcalloc(1, fp->page_size);	/* whole and zero-filled, as record reads it */
	memcpy(c->v[c->nr++], page, len);
	return 0;
}

static inline void dat_pages_free(struct dat_pages *fp)
{
	for (int cpu = 0; cpu < fp->nr_cpus; cpu++) {
		for (size_t i = 0; i < fp->cpu[cpu].nr; i++)
			free(fp->cpu[cpu].v[i]);
		free(fp->cpu[cpu].v);
	}
	free(fp->cpu);
	fp->cpu = NULL;
}

#endif /* SCHEDLINT_BENCH_DAT_PAGES_H */
