/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_write.h - write a trace.dat (version 6) from raw ring-buffer pages
 *
 * schedlint record reads the kernel's ring-buffer pages of its instance
 * (per_cpu/cpuN/trace_pipe_raw) and hands them here as they come; the
 * pages wait in one unlinked spool file per CPU next to the output, and
 * sl_dat_writer_finish() writes the headers (struct sl_dat_meta: what the
 * kernel says about its event formats, symbols and buffers) and then
 * each CPU's pages.  The writer knows nothing of tracefs.
 */
#ifndef SCHEDLINT_DAT_WRITE_H
#define SCHEDLINT_DAT_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "schedlint/reader.h"

/* One event format file ("name: ...\nID: ...\nformat: ..."). */
struct sl_dat_format {
	char *system;
	char *text;
	size_t len;
};

/* Everything a trace.dat says besides the pages; texts are NUL-terminated. */
struct sl_dat_meta {
	int nr_cpus;			/* CPUs of the file (highest CPU + 1) */
	int page_size;			/* ring-buffer sub-buffer size: one page of data */
	int long_size;			/* the kernel's long (the page header's commit word) */
	char *header_page;		/* events/header_page */
	size_t header_page_len;
	char *header_event;		/* events/header_event */
	size_t header_event_len;
	struct sl_dat_format *ftrace;	/* ftrace's own events (print, for trace_marker) */
	size_t nr_ftrace;
	struct sl_dat_format *events;	/* the other formats, systems kept together */
	size_t nr_events;
	char *kallsyms;			/* /proc/kallsyms: IPI callsites to names */
	size_t kallsyms_len;
	char *printk_formats;
	size_t printk_formats_len;
	char *cmdlines;			/* saved_cmdlines, read after tracing stopped */
	size_t cmdlines_len;
	char *trace_clock;		/* the instance's trace_clock file: "[local] global ..." */
	char *uname;			/* "Linux host 6.18.44 #1 SMP ... x86_64" */
	char *version;			/* the writer: "schedlint 0.1.0" */
	char **cpu_stats;		/* nr_cpus per_cpu/cpuN/stats texts (NULL entries allowed) */
};

void sl_dat_meta_free(struct sl_dat_meta *meta);

struct sl_dat_writer;

/*
 * Start a trace.dat for path: a temporary file in its directory, which
 * replaces path only when sl_dat_writer_finish() succeeds.  path must be
 * a regular file or not exist (a symbolic link: the file it names).
 * NULL with err filled when path is something else or nothing can be
 * created there.  Nothing is written to path itself before the end.
 */
struct sl_dat_writer *sl_dat_writer_open(const char *path, struct sl_error *err);
/* The trace's CPUs and page size, before the first sl_dat_writer_pages(). */
void sl_dat_writer_cpus(struct sl_dat_writer *w, int nr_cpus, int page_size);
/* Append len bytes (whole pages) to cpu's data; -errno with err on a write error. */
int sl_dat_writer_pages(struct sl_dat_writer *w, int cpu, const void *pages, size_t len,
			struct sl_error *err);
/*
 * cpu's spool, for pages moved into it by someone else (splice): its fd
 * (writing at its end) and in *size the bytes it holds; -errno with err.
 * sl_dat_writer_spooled() then counts what was added; a part of a page
 * is made a whole one (zeros after it), so the pages after it stay
 * whole: -errno with err when those zeros cannot be written.
 */
int sl_dat_writer_spool(struct sl_dat_writer *w, int cpu, uint64_t *size, struct sl_error *err);
int sl_dat_writer_spooled(struct sl_dat_writer *w, int cpu, uint64_t len, struct sl_error *err);
/* What sl_dat_writer_check() left out. */
struct sl_dat_cut {
	uint64_t pages;			/* pages left out, all CPUs (a torn last one counts) */
	int cpu;			/* the first of them: its CPU, */
	uint64_t page;			/* its number in that CPU's pages, */
	char what[96];			/* and what was wrong */
};
/*
 * Check the pages that came in unlooked at (sl_dat_writer_spooled()) as
 * a trace.dat's readers will (read_live.h's sl_page_check()): a page it
 * refuses, or a last one that is not whole, is left out of the file
 * (the reader would refuse the whole trace, or read every later page
 * askew).  Reads each such CPU's spool once (after the recording: it
 * costs the workload nothing).  0 and *cut, or -errno.
 */
int sl_dat_writer_check(struct sl_dat_writer *w, int long_size, struct sl_dat_cut *cut);
/* Bytes of page data so far. */
uint64_t sl_dat_writer_data_size(const struct sl_dat_writer *w);
/*
 * Write the headers from meta, then every CPU's pages, and rename the
 * result to the output (*file_size: its bytes); close and free w.  On error err is filled and
 * the output is as it was before.
 */
int sl_dat_writer_finish(struct sl_dat_writer *w, const struct sl_dat_meta *meta,
			 uint64_t *file_size, struct sl_error *err);
/* Give up: the temporary file goes, the output stays as it was; free w. */
void sl_dat_writer_abort(struct sl_dat_writer *w);

#endif /* SCHEDLINT_DAT_WRITE_H */
