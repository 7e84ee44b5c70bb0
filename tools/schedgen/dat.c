// SPDX-License-Identifier: GPL-2.0
/*
 * dat.c - write a trace.dat, file version 6, as trace-cmd record does
 *
 * Layout (trace-cmd.dat.v6(5)): the initial format (magic, "6", endianness,
 * long size, page size), header_page and header_event, the ftrace formats
 * (just print, for trace_marker writes), the event formats by system, kallsyms, printk formats (none),
 * saved cmdlines, the CPU count, options, "flyrecord" with one (offset,
 * size) pair per CPU and the trace clock, then each CPU's ring-buffer pages
 * from a page-aligned offset.
 *
 * A page is what the kernel hands out of its ring buffer: an 8-byte
 * timestamp, a commit word of the kernel's long size (bytes of data, and in
 * bits 31 and 30 "events were lost before this page" and "their count is
 * stored after the data"), then events.  Each event starts with a 32-bit
 * word holding a 5-bit type_len and a 27-bit time delta from the previous
 * event; a delta that does not fit in 27 bits is carried by a time-extend
 * event before it.
 *
 * Events arrive one at a time, so that a large trace never sits in memory;
 * but each CPU's pages must be contiguous in the file, and how many there
 * will be is known only at the end.  So pages go to an unlinked temporary
 * file next to the output, a chunk of pages per CPU at a time, and close()
 * writes the headers and then copies every CPU's chunks in order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedgen.h"

#define RB_TYPE_TIME_EXTEND	30
#define RB_MAX_SMALL_DATA	(28 * 4)	/* larger records keep their length in array[0] */
#define RB_MAX_DELTA		((1U << 27) - 1)
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_MISSED_STORED	(1ULL << 30)

/* trace-cmd's option ids (enum tracecmd_option_id) */
enum {
	OPT_DONE = 0,
	OPT_CPUSTAT = 2,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_CPUCOUNT = 8,
	OPT_VERSION = 9,
};

/* Memory for page chunks across all CPUs; more pages per chunk, fewer copies. */
#define CHUNK_BUDGET	(8u << 20)
#define MAX_CHUNK_PAGES	64

struct extent {
	uint64_t offset;	/* in the temporary file */
	uint32_t pages;
};

/* One CPU's ring buffer being written. */
struct cpu_pages {
	uint8_t *chunk;		/* chunk_pages pages; the last one being filled is [cur] */
	int cur;
	size_t used;		/* data bytes in page [cur] */
	bool open;		/* page [cur] has its timestamp */
	uint64_t last_ts;	/* of the last event written (for deltas) */
	uint64_t missed;	/* events lost before page [cur] */
	struct extent *extents;	/* full chunks, in order, in the temporary file */
	size_t nr_extents, alloc_extents;
	uint64_t pages;		/* pages in extents */
	/* for the CPUSTAT option */
	uint64_t events, lost, first_ts;
};

struct sg_dat {
	struct sg_abi abi;
	int ncpus;
	int out_fd;
	int tmp_fd;
	const char *path;
	uint64_t tmp_size;
	int chunk_pages;
	size_t data_size;	/* of a page, after timestamp and commit */
	struct cpu_pages *cpu;
};

/* A growable byte buffer for the headers, numbers in the file's byte order. */
struct hbuf {
	uint8_t *p;
	size_t len, alloc;
	const struct sg_abi *abi;
};

static uint8_t *hbuf_room(struct hbuf *b, size_t n)
{
	GROW(b->p, b->alloc, b->len + n);
	b->len += n;
	return b->p + b->len - n;
}

static void hbuf_bytes(struct hbuf *b, const void *data, size_t n)
{
	memcpy(hbuf_room(b, n), data, n);
}

static void hbuf_str0(struct hbuf *b, const char *s)
{
	hbuf_bytes(b, s, strlen(s) + 1);
}

static void hbuf_u16(struct hbuf *b, uint16_t v)
{
	sg_put16(b->abi, hbuf_room(b, 2), v);
}

static void hbuf_u32(struct hbuf *b, uint32_t v)
{
	sg_put32(b->abi, hbuf_room(b, 4), v);
}

static void hbuf_u64(struct hbuf *b, uint64_t v)
{
	sg_put64(b->abi, hbuf_room(b, 8), v);
}

static int write_all(int fd, const void *buf, size_t len, uint64_t offset)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t r = pwrite(fd, p, len, offset);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		len -= r;
		offset += r;
	}
	return 0;
}

/* An unlinked file in the output's directory: same file system, cheap copies. */
static int open_temp(const char *path)
{
	char *copy = xstrdup(path);
	char *dir = dirname(copy);
	char *tmpl;
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		tmpl = xmalloc(strlen(dir) + 32);
		sprintf(tmpl, "%s/.schedgen-XXXXXX", dir);
		fd = mkstemp(tmpl);
		if (fd >= 0)
			unlink(tmpl);
		free(tmpl);
	}
	free(copy);
	return fd;
}

struct sg_dat *sg_dat_open(const char *path, const struct sg_abi *abi, int ncpus)
{
	struct sg_dat *dat = xcalloc(1, sizeof(*dat));

	dat->abi = *abi;
	dat->ncpus = ncpus;
	dat->path = path;
	dat->data_size = abi->page_size - 8 - abi->long_size;
	dat->chunk_pages = CHUNK_BUDGET / ((size_t)ncpus * abi->page_size);
	if (dat->chunk_pages < 1)
		dat->chunk_pages = 1;
	if (dat->chunk_pages > MAX_CHUNK_PAGES)
		dat->chunk_pages = MAX_CHUNK_PAGES;
	dat->out_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (dat->out_fd < 0) {
		sg_error("%s: %s", path, strerror(errno));
		free(dat);
		return NULL;
	}
	dat->tmp_fd = open_temp(path);
	if (dat->tmp_fd < 0) {
		sg_error("%s: cannot create a temporary file beside it: %s", path,
			 strerror(errno));
		close(dat->out_fd);
		free(dat);
		return NULL;
	}
	dat->cpu = xcalloc(ncpus, sizeof(*dat->cpu));
	for (int i = 0; i < ncpus; i++)
		dat->cpu[i].chunk = xcalloc(dat->chunk_pages, abi->page_size);
	return dat;
}

static uint8_t *page_ptr(struct sg_dat *dat, struct cpu_pages *c)
{
	return c->chunk + (size_t)c->cur * dat->abi.page_size;
}

static int flush_chunk(struct sg_dat *dat, struct cpu_pages *c, int pages)
{
	size_t len = (size_t)pages * dat->abi.page_size;
	int ret;

	if (!pages)
		return 0;
	ret = write_all(dat->tmp_fd, c->chunk, len, dat->tmp_size);
	if (ret) {
		sg_error("%s: writing pages: %s", dat->path, strerror(-ret));
		return ret;
	}
	GROW(c->extents, c->alloc_extents, c->nr_extents + 1);
	c->extents[c->nr_extents].offset = dat->tmp_size;
	c->extents[c->nr_extents].pages = pages;
	c->nr_extents++;
	c->pages += pages;
	dat->tmp_size += len;
	memset(c->chunk, 0, len);
	return 0;
}

/* Seal page [cur]: its commit word, and the lost-event count after the data. */
static int finish_page(struct sg_dat *dat, struct cpu_pages *c)
{
	uint8_t *page = page_ptr(dat, c);
	uint64_t commit = c->used;

	if (c->missed) {
		/* start_page() left room for the count, as the kernel does when it can */
		commit |= RB_MISSED_EVENTS | RB_MISSED_STORED;
		sg_putlong(&dat->abi, page + 8 + dat->abi.long_size + c->used, c->missed);
		c->missed = 0;
	}
	sg_putlong(&dat->abi, page + 8, commit);
	c->open = false;
	c->used = 0;
	if (++c->cur == dat->chunk_pages) {
		c->cur = 0;
		return flush_chunk(dat, c, dat->chunk_pages);
	}
	return 0;
}

static void start_page(struct sg_dat *dat, struct cpu_pages *c, uint64_t ts)
{
	/* The page's timestamp is its first event's; that event's delta is 0. */
	sg_put64(&dat->abi, page_ptr(dat, c), ts);
	c->open = true;
	c->used = 0;
	c->last_ts = ts;
}

static void put_word(struct sg_dat *dat, uint8_t *p, unsigned int type_len, uint32_t delta)
{
	/* struct ring_buffer_event's bitfields: type_len is the low 5 bits on LE, the high 5 on BE */
	uint32_t w = dat->abi.big_endian ? (uint32_t)type_len << 27 | delta
					 : delta << 5 | type_len;

	sg_put32(&dat->abi, p, w);
}

/* The loss is between pages: close the current one, flag the next. */
static int dat_lost(struct sg_dat *dat, struct cpu_pages *c, uint64_t count)
{
	int ret = 0;

	if (c->open && c->used)
		ret = finish_page(dat, c);
	c->missed += count;
	c->lost += count;
	return ret;
}

int sg_dat_event(struct sg_dat *dat, const struct sg_event *ev)
{
	struct cpu_pages *c;
	uint8_t rec[SG_MAX_RECORD];
	size_t len, rlen, hdr, need, reserve;
	uint64_t delta;
	uint8_t *p;
	int ret;

	if (ev->cpu < 0 || ev->cpu >= dat->ncpus)
		return -EINVAL;
	c = &dat->cpu[ev->cpu];
	if (ev->type == SG_LOST)
		return dat_lost(dat, c, ev->addr[0]);

	len = sg_record_encode(&dat->abi, ev, rec);
	if (!len)
		return 0;	/* this kernel has no such event */
	rlen = (len + 3) & ~(size_t)3;
	hdr = rlen <= RB_MAX_SMALL_DATA ? 4 : 8;
	need = hdr + rlen;

	if (c->open && ev->ts < c->last_ts) {
		sg_error("%s: internal error: cpu %d time goes backwards", dat->path, ev->cpu);
		return -EINVAL;
	}
	if (!c->open)
		start_page(dat, c, ev->ts);
	delta = ev->ts - c->last_ts;
	reserve = c->missed ? (size_t)dat->abi.long_size : 0;
	if (c->used + (delta > RB_MAX_DELTA ? 8 : 0) + need + reserve > dat->data_size) {
		ret = finish_page(dat, c);
		if (ret)
			return ret;
		start_page(dat, c, ev->ts);
		delta = 0;
	}

	p = page_ptr(dat, c) + 8 + dat->abi.long_size + c->used;
	if (delta > RB_MAX_DELTA) {
		/* the full delta is in the extend; the event itself has 0 */
		put_word(dat, p, RB_TYPE_TIME_EXTEND, (uint32_t)(delta & RB_MAX_DELTA));
		sg_put32(&dat->abi, p + 4, (uint32_t)(delta >> 27));
		p += 8;
		c->used += 8;
		delta = 0;
	}
	if (hdr == 4) {
		put_word(dat, p, rlen / 4, (uint32_t)delta);
	} else {
		/* type_len 0: array[0] is the length, itself included */
		put_word(dat, p, 0, (uint32_t)delta);
		sg_put32(&dat->abi, p + 4, (uint32_t)(rlen + 4));
	}
	memcpy(p + hdr, rec, len);
	c->used += need;
	c->last_ts = ev->ts;
	if (!c->events++)
		c->first_ts = ev->ts;
	return 0;
}

static void add_option(struct hbuf *b, uint16_t id, const void *data, uint32_t size)
{
	hbuf_u16(b, id);
	hbuf_u32(b, size);
	hbuf_bytes(b, data, size);
}

static void fmt_secs(char *buf, uint64_t ns)
{
	uint64_t us = (ns + 500) / 1000;

	sprintf(buf, "%5llu.%06llu", (unsigned long long)(us / 1000000),
		(unsigned long long)(us % 1000000));
}

static const char trace_clock[] = "[local] global counter uptime perf mono mono_raw boot tai x86-tsc\n";

static const char *machine(const struct sg_abi *abi)
{
	if (abi->big_endian)
		return abi->long_size == 8 ? "ppc64" : "ppc";
	return abi->long_size == 8 ? "x86_64" : "i686";
}

/* The --event-format given for system:name, or NULL. */
static const struct sg_format_file *format_file(const struct sg_abi *abi, const char *system,
						const char *name)
{
	for (int i = 0; i < abi->nr_format_files; i++)
		if (!strcmp(abi->format_files[i].system, system) &&
		    !strcmp(abi->format_files[i].name, name))
			return &abi->format_files[i];
	return NULL;
}

static bool kernel_has_system(const struct sg_abi *abi, const char *system)
{
	for (int t = 0; t < SG_NR_EVENT_TYPES; t++)
		if (sg_kernel_has(abi->kernel, t) && !strcmp(sg_event_system(t), system))
			return true;
	return false;
}

/* Everything before the CPU data; the flyrecord table is filled in later. */
static size_t build_header(struct sg_dat *dat, struct hbuf *b,
			   const struct sg_task_name *tasks, size_t ntasks)
{
	const struct sg_abi *abi = &dat->abi;
	char *text;
	size_t text_len = 64 * 1024, n, table;
	uint32_t count;
	size_t count_at;

	text = xmalloc(text_len);

	hbuf_bytes(b, "\027\010\104tracing", 10);
	hbuf_str0(b, "6");
	*hbuf_room(b, 1) = abi->big_endian;
	*hbuf_room(b, 1) = abi->long_size;
	hbuf_u32(b, abi->page_size);

	hbuf_bytes(b, "header_page", 12);
	n = sg_header_page_text(abi, text, text_len);
	hbuf_u64(b, n);
	hbuf_bytes(b, text, n);
	hbuf_bytes(b, "header_event", 13);
	hbuf_u64(b, strlen(sg_header_event_text()));
	hbuf_bytes(b, sg_header_event_text(), strlen(sg_header_event_text()));

	/* ftrace's own events: only print (trace_marker writes) */
	count_at = b->len;
	hbuf_u32(b, 0);
	count = 0;
	for (int t = 0; t < SG_NR_EVENT_TYPES; t++) {
		int len;

		if (!sg_kernel_has(abi->kernel, t) || strcmp(sg_event_system(t), "ftrace"))
			continue;
		len = sg_format_text(abi, t, text, text_len);
		hbuf_u64(b, len);
		hbuf_bytes(b, text, len);
		count++;
	}
	sg_put32(abi, b->p + count_at, count);

	/* event formats, grouped by system in the order of enum sg_event_type */
	count_at = b->len;
	hbuf_u32(b, 0);
	count = 0;
	for (int t = 0; t < SG_NR_EVENT_TYPES; t++) {
		const char *sys = sg_event_system(t);
		bool seen = false;
		uint32_t nevents = 0;
		size_t nevents_at;

		if (!sg_kernel_has(abi->kernel, t) || !strcmp(sys, "ftrace"))
			continue;
		for (int u = 0; u < t; u++)
			if (sg_kernel_has(abi->kernel, u) && !strcmp(sg_event_system(u), sys))
				seen = true;
		if (seen)
			continue;
		hbuf_str0(b, sys);
		nevents_at = b->len;
		hbuf_u32(b, 0);
		for (int u = t; u < SG_NR_EVENT_TYPES; u++) {
			const struct sg_format_file *ff;
			int len;

			if (!sg_kernel_has(abi->kernel, u) || strcmp(sg_event_system(u), sys))
				continue;
			ff = format_file(abi, sys, sg_event_name(u));
			if (ff) {
				hbuf_u64(b, ff->len);
				hbuf_bytes(b, ff->text, ff->len);
			} else {
				len = sg_format_text(abi, u, text, text_len);
				hbuf_u64(b, len);
				hbuf_bytes(b, text, len);
			}
			nevents++;
		}
		sg_put32(abi, b->p + nevents_at, nevents);
		count++;
	}
	/* --event-format of other systems: one system each, as given */
	for (int i = 0; i < abi->nr_format_files; i++) {
		const struct sg_format_file *ff = &abi->format_files[i];

		if (kernel_has_system(abi, ff->system))
			continue;
		hbuf_str0(b, ff->system);
		hbuf_u32(b, 1);
		hbuf_u64(b, ff->len);
		hbuf_bytes(b, ff->text, ff->len);
		count++;
	}
	sg_put32(abi, b->p + count_at, count);

	n = sg_kallsyms_text(abi, text, text_len);
	hbuf_u32(b, n);
	hbuf_bytes(b, text, n);

	hbuf_u32(b, 0);		/* printk formats: none */

	/* saved cmdlines: "pid comm" lines */
	{
		struct hbuf cl = { .abi = abi };

		for (size_t i = 0; i < ntasks; i++) {
			char line[64];
			int len = snprintf(line, sizeof(line), "%d %s\n", tasks[i].pid,
					   tasks[i].comm);

			hbuf_bytes(&cl, line, len);
		}
		hbuf_u64(b, cl.len);
		if (cl.len)
			hbuf_bytes(b, cl.p, cl.len);
		free(cl.p);
	}

	hbuf_u32(b, dat->ncpus);

	hbuf_bytes(b, "options  ", 10);
	for (int i = 0; i < dat->ncpus; i++) {
		struct cpu_pages *c = &dat->cpu[i];
		char first[32], last[32];
		int len;

		fmt_secs(first, c->first_ts);
		fmt_secs(last, c->last_ts);
		len = snprintf(text, text_len,
			       "CPU: %d\nentries: 0\noverrun: %llu\ncommit overrun: 0\n"
			       "bytes: 0\noldest event ts: %s\nnow ts: %s\n"
			       "dropped events: 0\nread events: %llu\n",
			       i, (unsigned long long)c->lost, first, last,
			       (unsigned long long)c->events);
		add_option(b, OPT_CPUSTAT, text, len + 1);
	}
	add_option(b, OPT_TRACECLOCK, trace_clock, sizeof(trace_clock));
	n = snprintf(text, text_len, "Linux schedgen %s %s", sg_kernel_release(abi->kernel),
		     machine(abi));
	add_option(b, OPT_UNAME, text, n + 1);
	add_option(b, OPT_VERSION, "schedgen", sizeof("schedgen"));
	{
		uint8_t cpus[4];

		sg_put32(abi, cpus, dat->ncpus);
		add_option(b, OPT_CPUCOUNT, cpus, 4);
	}
	hbuf_u16(b, OPT_DONE);

	hbuf_bytes(b, "flyrecord", 10);
	table = b->len;
	for (int i = 0; i < dat->ncpus; i++) {
		hbuf_u64(b, 0);
		hbuf_u64(b, 0);
	}
	/* with a TRACECLOCK option, v6 readers expect the clock after the table */
	hbuf_u64(b, sizeof(trace_clock) - 1);
	hbuf_bytes(b, trace_clock, sizeof(trace_clock) - 1);

	free(text);
	return table;
}

/* Copy a range of the temporary file to the output: in the kernel when it can. */
static int copy_range(struct sg_dat *dat, uint64_t from, uint64_t to, uint64_t len)
{
	static uint8_t buf[1 << 16];
	loff_t in = from, out = to;

	while (len) {
		ssize_t r = copy_file_range(dat->tmp_fd, &in, dat->out_fd, &out, len, 0);

		if (r <= 0)
			break;
		len -= r;
	}
	while (len) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);
		ssize_t r = pread(dat->tmp_fd, buf, n, in);
		int ret;

		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		ret = write_all(dat->out_fd, buf, r, out);
		if (ret)
			return ret;
		in += r;
		out += r;
		len -= r;
	}
	return 0;
}

static void free_dat(struct sg_dat *dat)
{
	for (int i = 0; i < dat->ncpus; i++) {
		free(dat->cpu[i].chunk);
		free(dat->cpu[i].extents);
	}
	free(dat->cpu);
	free(dat);
}

/**
 * sg_dat_close - write the headers and every CPU's pages; free @dat
 * @tasks: the saved cmdlines (pid -> comm), idle not included
 */
int sg_dat_close(struct sg_dat *dat, const struct sg_task_name *tasks, size_t ntasks)
{
	const struct sg_abi *abi = &dat->abi;
	struct hbuf b = { .abi = abi };
	uint64_t offset;
	size_t table;
	int ret = 0;

	for (int i = 0; i < dat->ncpus && !ret; i++) {
		struct cpu_pages *c = &dat->cpu[i];

		if (c->open && c->used)
			ret = finish_page(dat, c);
		if (!ret)
			ret = flush_chunk(dat, c, c->cur);
		c->cur = 0;
	}
	if (ret)
		goto out;

	table = build_header(dat, &b, tasks, ntasks);
	offset = (b.len + abi->page_size - 1) & ~(uint64_t)(abi->page_size - 1);
	for (int i = 0; i < dat->ncpus; i++) {
		uint64_t size = dat->cpu[i].pages * abi->page_size;

		sg_put64(abi, b.p + table + 16 * i, offset);
		sg_put64(abi, b.p + table + 16 * i + 8, size);
		offset += size;
	}
	ret = write_all(dat->out_fd, b.p, b.len, 0);
	offset = (b.len + abi->page_size - 1) & ~(uint64_t)(abi->page_size - 1);
	for (int i = 0; i < dat->ncpus && !ret; i++) {
		struct cpu_pages *c = &dat->cpu[i];

		for (size_t e = 0; e < c->nr_extents && !ret; e++) {
			uint64_t len = (uint64_t)c->extents[e].pages * abi->page_size;

			ret = copy_range(dat, c->extents[e].offset, offset, len);
			offset += len;
		}
	}
	/* a trace without any event still ends where its (empty) data would start */
	if (!ret && ftruncate(dat->out_fd, offset) < 0)
		ret = -errno;
	if (ret)
		sg_error("%s: %s", dat->path, strerror(-ret));
out:
	free(b.p);
	if (close(dat->out_fd) < 0 && !ret) {
		ret = -errno;
		sg_error("%s: %s", dat->path, strerror(errno));
	}
	close(dat->tmp_fd);
	free_dat(dat);
	return ret;
}

void sg_dat_abort(struct sg_dat *dat)
{
	close(dat->out_fd);
	close(dat->tmp_fd);
	unlink(dat->path);
	free_dat(dat);
}
