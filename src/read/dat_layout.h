/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_layout.h - where everything lies in a trace.dat file (v6 and v7)
 *
 * Both trace.dat readers start here.  The layout walk reads the initial
 * header, the sections (v7) or the fixed sequence of headers (v6), the
 * options, and the table of each CPU's ring-buffer data of the top-level
 * flyrecord buffer, and checks that every part lies inside the file:
 * libtracecmd trusts those offsets (it crashes on a truncated v6 file and
 * reads a v7 file that lacks its last bytes), and our own reader must not
 * read past them either.  It reads no CPU data.
 */
#ifndef SCHEDLINT_DAT_LAYOUT_H
#define SCHEDLINT_DAT_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "dat_compress.h"
#include "schedlint/reader.h"

#define SL_DAT_MAX_CPUS 8192
#define SL_DAT_MAX_BUFFERS 16	/* names of instance buffers kept */

/* One CPU's ring-buffer data in the file. */
struct sl_dat_cpu_data {
	int cpu;		/* the CPU's id (v7 lists only CPUs that have data) */
	uint64_t offset;	/* of the data in the file */
	/*
	 * Bytes of data in the file.  Uncompressed: whole ring-buffer pages.
	 * Compressed: the chunks, which follow a 4-byte chunk count that
	 * trace-cmd does not include in this size.
	 */
	uint64_t size;
};

/*
 * The metadata parts of the file, in the format of the v7 sections (v6
 * stores the same bytes one after the other, never compressed).
 */
enum sl_dat_section_id {
	SL_DAT_HEADER_INFO = 0,	/* "header_page", 8-byte size, data, "header_event", ... */
	SL_DAT_FTRACE_EVENTS,	/* 4-byte count, then 8-byte size + format each */
	SL_DAT_EVENT_FORMATS,	/* 4-byte systems; name, 4-byte count, 8-byte size + format */
	SL_DAT_KALLSYMS,	/* 4-byte size + /proc/kallsyms */
	SL_DAT_PRINTK,		/* 4-byte size + printk_formats */
	SL_DAT_CMDLINES,	/* 8-byte size + saved_cmdlines */
	SL_DAT_NR_SECTIONS
};

struct sl_dat_section {
	uint64_t offset;	/* of the contents (after a v7 section header) */
	uint64_t size;		/* bytes in the file; 0 = the file has no such part */
	bool compressed;	/* 4-byte compressed size, 4-byte size, compressed block */
};

struct sl_dat_layout {
	/* the initial header */
	int version;			/* 6 or 7 */
	bool big_endian;
	int long_size;			/* the traced machine's user-space long: 4 or 8 */
	uint32_t page_size;		/* the header's page size */
	uint64_t file_size;
	enum sl_dat_compression compression;	/* v7: of sections and CPU data */
	char compression_name[16];	/* "none" for v6 */

	struct sl_dat_section sections[SL_DAT_NR_SECTIONS];
	char uname[256];		/* the UNAME option, "" when the file does not say */

	/*
	 * Buffers besides the top-level one (instances: trace-cmd record -B,
	 * extract -B), in file order.  nr_buffers counts them all, the names
	 * of the first SL_DAT_MAX_BUFFERS are kept.
	 */
	int nr_buffers;
	char buffers[SL_DAT_MAX_BUFFERS][64];

	/* the flyrecord buffer read: the top-level one unless asked otherwise */
	char buffer[64];		/* its name, "" for the top-level buffer */
	bool buffer_empty;		/* none of its CPUs has data */
	uint32_t subbuf_size;		/* its ring-buffer page size */
	bool cpu_compressed;		/* CPU data in compressed chunks (v7) */
	int nr_cpus;			/* CPUs of the traced system */
	int nr_cpu_data;		/* entries in cpu_data, in file order */
	struct sl_dat_cpu_data *cpu_data;	/* owned */

	/* options that change what the timestamps mean */
	char clock[32];			/* trace clock, "" when the file does not say */
	int64_t ts_offset;		/* ns added to every timestamp (DATE, OFFSET options) */
	uint32_t tsc_mult, tsc_shift;	/* TSC2NSEC: ts = ts * mult >> shift; mult 0 = none */
	bool guest_time_shift;		/* a TIME_SHIFT option (guest-host sync) is present */
};

/*
 * Walk the layout of the trace.dat at path and fill l (free it with
 * sl_dat_layout_free()).  Returns 0, or -errno with err set:
 * -EINVAL for a truncated or corrupt file, -ENOTSUP for one we do not
 * read (other versions, latency traces, unknown compression).
 */
int sl_dat_layout_read(const char *path, struct sl_dat_layout *l, struct sl_error *err);

/*
 * The same for the buffer (instance) named buffer, NULL or "" for the
 * top-level one.  -EINVAL with err naming the buffers there are when the
 * file has no such buffer, or when the top-level buffer is asked for (by
 * default) but holds no data while other buffers do: the events are
 * there, and reading nothing in silence would be a wrong analysis.
 */
int sl_dat_layout_read_buffer(const char *path, const char *buffer, struct sl_dat_layout *l,
			      struct sl_error *err);

/* "a", "b" and "c": the names of l's instance buffers, for messages */
void sl_dat_buffer_names(const struct sl_dat_layout *l, char *buf, size_t len);
void sl_dat_layout_free(struct sl_dat_layout *l);

/*
 * The tracing data of a perf.data (its HEADER_TRACING_DATA feature, or
 * the bytes after a pipe's PERF_RECORD_HEADER_TRACING_DATA): the start of
 * a v6 trace.dat without the CPU data, size bytes at offset of fd.  Fills
 * l's header fields and metadata sections (no CPUs), so sl_dat_tep_load()
 * parses the formats as it does a trace.dat's.  0, or -EINVAL with err set.
 */
int sl_dat_layout_tracing_data(int fd, uint64_t offset, uint64_t size, struct sl_dat_layout *l,
			       struct sl_error *err);

/*
 * Read a metadata section into a new NUL-terminated buffer (*len bytes
 * before the NUL), decompressing it if needed.  -EINVAL / -ENOMEM with
 * err set.
 */
int sl_dat_section_read(int fd, const struct sl_dat_layout *l, enum sl_dat_section_id id,
			uint8_t **buf, uint64_t *len, struct sl_error *err);

#endif /* SCHEDLINT_DAT_LAYOUT_H */
