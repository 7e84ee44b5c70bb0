// SPDX-License-Identifier: GPL-2.0
/*
 * dat_layout.c - walk a trace.dat file's layout and check it (v6 and v7)
 *
 * Initial header (both versions): "\027\010\104tracing", the version as
 * an ASCII string and a NUL, one byte endianness (0 little, 1 big), one
 * byte long size, a 4-byte page size in file endianness.  Version 7 then
 * has the compression algorithm name and version (NUL-terminated) and the
 * offset of the first options section.  (trace-cmd.dat.v6(5), v7(5).)
 *
 * v6: header_page, header_event, ftrace and event formats, kallsyms,
 * printk formats, saved cmdlines, the CPU count, "options  " with its
 * options, then "flyrecord" with an (offset, size) pair per CPU, the
 * trace clock, and the CPU data.
 *
 * v7: sections anywhere in the file, each with a 16-byte header (id,
 * flags, description string id, size).  Options sections form a chain
 * (the DONE option holds the next one's offset); options point to the
 * metadata sections and, in the BUFFER option, give each CPU's data of
 * the flyrecord buffer.  Sections and the CPU data may be compressed.
 *
 * Every offset read from the file is checked against the file size
 * before anything relies on it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dat_layout.h"
#include "util/util.h"

/* v7 section / option ids (trace-cmd.dat.v7(5)) */
enum {
	OPT_DONE = 0,
	OPT_DATE = 1,
	OPT_BUFFER = 3,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_HOOK = 6,
	OPT_OFFSET = 7,
	OPT_CPUCOUNT = 8,
	OPT_VERSION = 9,
	OPT_PROCMAPS = 10,
	OPT_TIME_SHIFT = 12,
	OPT_TSC2NSEC = 14,
	OPT_STRINGS = 15,
	OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS = 17,
	OPT_EVENT_FORMATS = 18,
	OPT_KALLSYMS = 19,
	OPT_PRINTK = 20,
	OPT_CMDLINES = 21,
	OPT_BUFFER_TEXT = 22,
};

#define SEC_FL_COMPRESS		1
#define SECTION_HEADER_SIZE	16
#define SECTION_NO_DESC		0xffffffffu	/* a section header without a description */
#define MAX_OPTIONS_SECTIONS	4096
#define MAX_OPTIONS_BYTES	(64u << 20)	/* one options section, uncompressed */
#define MAX_SECTION_BYTES	(1ull << 30)	/* a metadata section, uncompressed */

/*
 * A bounds-checked cursor over the file (fd >= 0) or over a buffer.
 * A read past the end sets bad and returns zeros; callers check bad once
 * after a run of reads.
 */
struct cursor {
	int fd;
	const uint8_t *mem;
	uint64_t pos, size;
	bool big_endian;
	bool bad;
};

static bool cur_read(struct cursor *c, void *buf, size_t len)
{
	if (c->bad || len > c->size || c->pos > c->size - len) {
		c->bad = true;
		memset(buf, 0, len);
		return false;
	}
	if (c->mem) {
		memcpy(buf, c->mem + c->pos, len);
	} else if (pread(c->fd, buf, len, (off_t)c->pos) != (ssize_t)len) {
		c->bad = true;
		memset(buf, 0, len);
		return false;
	}
	c->pos += len;
	return true;
}

static uint64_t get_num(const uint8_t *b, int size, bool big_endian)
{
	uint64_t v = 0;

	for (int i = 0; i < size; i++)
		v |= (uint64_t)b[big_endian ? size - 1 - i : i] << (8 * i);
	return v;
}

static uint64_t cur_num(struct cursor *c, int size)
{
	uint8_t b[8];

	cur_read(c, b, (size_t)size);
	return get_num(b, size, c->big_endian);
}

static void cur_skip(struct cursor *c, uint64_t len)
{
	if (c->bad || len > c->size - c->pos)
		c->bad = true;
	else
		c->pos += len;
}

/* Read a NUL-terminated string of fewer than len bytes into buf. */
static bool cur_string(struct cursor *c, char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (!cur_read(c, &buf[i], 1))
			return false;
		if (!buf[i])
			return true;
	}
	c->bad = true;
	buf[len - 1] = '\0';
	return false;
}

static void set_truncated(struct sl_error *err, const struct sl_dat_layout *l,
			  const char *what, uint64_t end)
{
	sl_error_set(err, "truncated trace.dat: %s ends at byte %llu, the file has %llu",
		     what, (unsigned long long)end, (unsigned long long)l->file_size);
}

/* "[local] global counter" (the trace_clock file): the name in brackets. */
static void parse_trace_clock(struct sl_dat_layout *l, const char *s, size_t len)
{
	const char *b = memchr(s, '[', len);
	const char *e = b ? memchr(b, ']', len - (size_t)(b - s)) : NULL;

	if (b && e)
		snprintf(l->clock, sizeof(l->clock), "%.*s", (int)(e - b - 1), b + 1);
}

static void parse_buffer_cpus(struct sl_dat_layout *l, struct cursor *c, uint32_t cpus)
{
	free(l->cpu_data);
	l->cpu_data = NULL;
	l->nr_cpu_data = 0;
	if (cpus > SL_DAT_MAX_CPUS || (uint64_t)cpus * 20 > c->size - c->pos) {
		c->bad = true;
		return;
	}
	l->cpu_data = xcalloc(cpus ? cpus : 1, sizeof(*l->cpu_data));
	for (uint32_t i = 0; i < cpus; i++) {
		l->cpu_data[i].cpu = (int)(uint32_t)cur_num(c, 4);
		l->cpu_data[i].offset = cur_num(c, 8);
		l->cpu_data[i].size = cur_num(c, 8);
	}
	l->nr_cpu_data = (int)cpus;
}

/* What the walk collects from the options beyond the layout struct. */
struct walk {
	struct sl_dat_layout *l;
	int fd;
	struct sl_dat_decompressor *dec;
	bool have_cpucount;
	uint32_t cpucount;
	bool have_traceclock;		/* v6: the clock follows the flyrecord table */
	bool latency;			/* a latency (text) buffer, not flyrecord */
	const char *want;		/* the buffer asked for, NULL for the top one */
	bool have_top_buffer;		/* the buffer read was found (v6: always the top) */
	uint64_t top_buffer_offset;	/* v7: of the flyrecord section */
	bool have_want;			/* v6: the instance asked for was found */
	uint64_t want_offset;		/* v6: of its flyrecord table */
	uint64_t section_offset[OPT_CMDLINES + 1];	/* v7 metadata sections, 0 = none */
	uint64_t next_options;		/* v7: from the DONE option */
};

/* One option of either version; data is size bytes. */
static int handle_option(struct walk *w, uint16_t id, const uint8_t *data, uint32_t size,
			 struct sl_error *err)
{
	struct sl_dat_layout *l = w->l;
	struct cursor c = { .fd = -1, .mem = data, .size = size, .big_endian = l->big_endian };
	char str[64];

	switch (id) {
	case OPT_DATE:
	case OPT_UNAME:
	case OPT_HOOK:
	case OPT_OFFSET:
	case OPT_VERSION:
	case OPT_PROCMAPS:
		/*
		 * Strings libtracecmd strdup()s or parses up to their NUL
		 * (trace-cmd writes them with it).  TRACECLOCK is read with
		 * its size, and older trace-cmd wrote it without.
		 */
		if (!memchr(data, '\0', size)) {
			sl_error_set(err, "corrupt trace.dat: option %u is a string without its end", id);
			return -EINVAL;
		}
		break;
	default:
		break;
	}

	switch (id) {
	case OPT_DATE:
	case OPT_OFFSET:
		/* an ASCII number ("0x..." for DATE, in us; OFFSET in ns) */
		snprintf(str, sizeof(str), "%.*s", (int)MIN(size, sizeof(str) - 1), (const char *)data);
		l->ts_offset += (id == OPT_DATE ? 1000 : 1) * strtoll(str, NULL, 0);
		break;
	case OPT_TRACECLOCK:
		w->have_traceclock = true;
		parse_trace_clock(l, (const char *)data, size);
		break;
	case OPT_UNAME:
		snprintf(l->uname, sizeof(l->uname), "%.*s", (int)strnlen((const char *)data, size),
			 (const char *)data);
		break;
	case OPT_CPUCOUNT:
		w->cpucount = (uint32_t)cur_num(&c, 4);
		w->have_cpucount = !c.bad;
		break;
	case OPT_TIME_SHIFT:
		l->guest_time_shift = true;
		break;
	case OPT_TSC2NSEC:
		if (size >= 16) {
			l->tsc_mult = (uint32_t)cur_num(&c, 4);
			l->tsc_shift = (uint32_t)cur_num(&c, 4);
		}
		break;
	case OPT_BUFFER:
	case OPT_BUFFER_TEXT: {
		char name[256], clock[64];
		uint64_t offset = cur_num(&c, 8);

		if (!cur_string(&c, name, sizeof(name)))
			break;
		if (name[0] && id == OPT_BUFFER) {
			if (l->nr_buffers < SL_DAT_MAX_BUFFERS)
				snprintf(l->buffers[l->nr_buffers], sizeof(l->buffers[0]), "%.63s", name);
			l->nr_buffers++;
		}
		if (w->want ? strcmp(name, w->want) != 0 : name[0] != '\0')
			break;		/* not the buffer we read */
		if (l->version < 7) {
			/* v6: options name instances only; the table is elsewhere */
			w->have_want = true;
			w->want_offset = offset;
			break;
		}
		if (!cur_string(&c, clock, sizeof(clock)))
			goto bad;
		if (id == OPT_BUFFER_TEXT) {
			w->latency = true;
			break;
		}
		w->have_top_buffer = true;
		w->top_buffer_offset = offset;
		if (!l->clock[0])
			snprintf(l->clock, sizeof(l->clock), "%.*s", (int)sizeof(l->clock) - 1, clock);
		l->subbuf_size = (uint32_t)cur_num(&c, 4);
		parse_buffer_cpus(l, &c, (uint32_t)cur_num(&c, 4));
		if (c.bad)
			goto bad;
		break;
	}
	case OPT_HEADER_INFO:
	case OPT_FTRACE_EVENTS:
	case OPT_EVENT_FORMATS:
	case OPT_KALLSYMS:
	case OPT_PRINTK:
	case OPT_CMDLINES:
		if (l->version >= 7)
			w->section_offset[id] = cur_num(&c, 8);
		break;
	default:
		break;
	}
	return 0;
bad:
	sl_error_set(err, "corrupt trace.dat: option %u is malformed", id);
	return -EINVAL;
}

void sl_dat_buffer_names(const struct sl_dat_layout *l, char *buf, size_t len)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (int i = 0; i < l->nr_buffers && pos < len; i++) {
		const char *sep = !i ? "" : i + 1 < l->nr_buffers ? ", " : " and ";

		if (i == SL_DAT_MAX_BUFFERS) {
			snprintf(buf + pos, len - pos, " and %d more", l->nr_buffers - i);
			return;
		}
		pos += (size_t)snprintf(buf + pos, len - pos, "%s\"%s\"", sep, l->buffers[i]);
	}
}

static int no_such_buffer(const struct walk *w, struct sl_error *err)
{
	char names[256];

	sl_dat_buffer_names(w->l, names, sizeof(names));
	sl_error_set(err, "no buffer \"%s\" in this trace.dat (%s%s)", w->want,
		     w->l->nr_buffers ? "its buffers besides the top-level one: " :
		     "it has the top-level buffer only", names);
	return -EINVAL;
}

/* --- version 6 --- */

/*
 * The metadata parts that follow the initial header in a v6 file, and in
 * the tracing data perf.data carries (without saved cmdlines before its
 * version 0.6): note where each lies.  false when they run past c's end.
 */
static bool walk_meta(struct cursor *c, struct sl_dat_section *sec, bool cmdlines)
{
	char name[256];

	sec[SL_DAT_HEADER_INFO].offset = c->pos;
	if (!cur_string(c, name, 16) || strcmp(name, "header_page"))
		return false;
	cur_skip(c, cur_num(c, 8));
	if (!cur_string(c, name, 16) || strcmp(name, "header_event"))
		return false;
	cur_skip(c, cur_num(c, 8));
	sec[SL_DAT_FTRACE_EVENTS].offset = c->pos;
	for (uint32_t n = (uint32_t)cur_num(c, 4); n && !c->bad; n--)
		cur_skip(c, cur_num(c, 8));
	sec[SL_DAT_EVENT_FORMATS].offset = c->pos;
	for (uint32_t sys = (uint32_t)cur_num(c, 4); sys && !c->bad; sys--) {
		cur_string(c, name, sizeof(name));
		for (uint32_t n = (uint32_t)cur_num(c, 4); n && !c->bad; n--)
			cur_skip(c, cur_num(c, 8));
	}
	sec[SL_DAT_KALLSYMS].offset = c->pos;
	cur_skip(c, cur_num(c, 4));
	sec[SL_DAT_PRINTK].offset = c->pos;
	cur_skip(c, cur_num(c, 4));
	sec[SL_DAT_CMDLINES].offset = c->pos;
	if (cmdlines)
		cur_skip(c, cur_num(c, 8));
	for (int i = 0; i < SL_DAT_NR_SECTIONS; i++)
		sec[i].size = (i + 1 < SL_DAT_NR_SECTIONS ? sec[i + 1].offset : c->pos) - sec[i].offset;
	return !c->bad;
}

static int walk_v6(struct walk *w, uint64_t start, struct sl_error *err)
{
	struct sl_dat_layout *l = w->l;
	struct cursor c = { .fd = w->fd, .pos = start, .size = l->file_size,
			    .big_endian = l->big_endian };
	char section[10];
	uint32_t header_cpus, table_cpus;

	if (!walk_meta(&c, l->sections, true))
		goto truncated;
	header_cpus = (uint32_t)cur_num(&c, 4);
	if (!cur_read(&c, section, sizeof(section)))
		goto truncated;
	if (!memcmp(section, "options  ", 10)) {
		for (;;) {
			uint16_t id = (uint16_t)cur_num(&c, 2);
			uint32_t size;

			if (c.bad)
				goto truncated;
			if (id == OPT_DONE)
				break;
			size = (uint32_t)cur_num(&c, 4);
			if (c.bad || size > c.size - c.pos)
				goto truncated;
			if (size > MAX_OPTIONS_BYTES) {
				sl_error_set(err, "corrupt trace.dat: option %u of %u bytes", id, size);
				return -EINVAL;
			}
			uint8_t *data = xmalloc(size + 1);
			int ret;

			cur_read(&c, data, size);
			data[size] = '\0';
			ret = handle_option(w, id, data, size, err);
			free(data);
			if (ret)
				return ret;
		}
		if (!cur_read(&c, section, sizeof(section)))
			goto truncated;
	}
	if (!memcmp(section, "latency  ", 10)) {
		sl_error_set(err, "a latency-tracer trace.dat, not a recording of events");
		return -ENOTSUP;
	}
	if (memcmp(section, "flyrecord", 10)) {
		sl_error_set(err, "corrupt trace.dat: no flyrecord section");
		return -EINVAL;
	}
	/* libtracecmd takes the CPU count of the CPUCOUNT option when there is one */
	table_cpus = w->have_cpucount ? w->cpucount : header_cpus;
	if (table_cpus == 0 || table_cpus > SL_DAT_MAX_CPUS) {
		sl_error_set(err, "corrupt trace.dat: %u CPUs", table_cpus);
		return -EINVAL;
	}
	l->cpu_data = xcalloc(table_cpus, sizeof(*l->cpu_data));
	l->nr_cpu_data = (int)table_cpus;
	l->nr_cpus = (int)table_cpus;
	for (uint32_t cpu = 0; cpu < table_cpus; cpu++) {
		l->cpu_data[cpu].cpu = (int)cpu;
		l->cpu_data[cpu].offset = cur_num(&c, 8);
		l->cpu_data[cpu].size = cur_num(&c, 8);
	}
	if (c.bad)
		goto truncated;
	if (w->have_traceclock) {
		/* the trace_clock file, as 8-byte size + text */
		uint64_t len = cur_num(&c, 8);
		char clock[256];

		if (c.bad || len > c.size - c.pos)
			goto truncated;
		cur_read(&c, clock, MIN(len, sizeof(clock)));
		parse_trace_clock(l, clock, MIN(len, sizeof(clock)));
	}
	l->subbuf_size = l->page_size;
	if (w->want) {
		/* an instance: "flyrecord" and the same table where its option points */
		if (!w->have_want)
			return no_such_buffer(w, err);
		c.pos = w->want_offset;
		if (!cur_read(&c, section, sizeof(section)))
			goto truncated;
		if (memcmp(section, "flyrecord", 10)) {
			sl_error_set(err, "corrupt trace.dat: buffer \"%s\" has no flyrecord table",
				     w->want);
			return -EINVAL;
		}
		for (uint32_t cpu = 0; cpu < table_cpus; cpu++) {
			l->cpu_data[cpu].offset = cur_num(&c, 8);
			l->cpu_data[cpu].size = cur_num(&c, 8);
		}
		if (c.bad)
			goto truncated;
	}
	return 0;
truncated:
	sl_error_set(err, "truncated or corrupt trace.dat header (at byte %llu of %llu)",
		     (unsigned long long)c.pos, (unsigned long long)l->file_size);
	return -EINVAL;
}

/* --- version 7 --- */

struct section_header {
	uint16_t id, flags;
	uint64_t size;			/* bytes after the header */
	uint64_t data;			/* file offset of those bytes */
};

static int read_section_header(struct walk *w, uint64_t offset, uint16_t want_id,
			       const char *what, struct section_header *sh,
			       struct sl_error *err)
{
	struct sl_dat_layout *l = w->l;
	struct cursor c = { .fd = w->fd, .pos = offset, .size = l->file_size,
			    .big_endian = l->big_endian };

	sh->id = (uint16_t)cur_num(&c, 2);
	sh->flags = (uint16_t)cur_num(&c, 2);
	cur_num(&c, 4);				/* description: an id in the strings section */
	sh->size = cur_num(&c, 8);
	sh->data = c.pos;
	if (c.bad) {
		set_truncated(err, l, what, offset + SECTION_HEADER_SIZE);
		return -EINVAL;
	}
	if (sh->id != want_id) {
		sl_error_set(err, "corrupt trace.dat: the %s at byte %llu is not one (section id %u)",
			     what, (unsigned long long)offset, sh->id);
		return -EINVAL;
	}
	if (sh->size > l->file_size - sh->data) {
		set_truncated(err, l, what, sh->data + sh->size);
		return -EINVAL;
	}
	if ((sh->flags & SEC_FL_COMPRESS) && l->compression == SL_DAT_COMPRESS_NONE) {
		sl_error_set(err, "corrupt trace.dat: the %s is compressed in a file without compression",
			     what);
		return -EINVAL;
	}
	return 0;
}

/*
 * Read a section's contents into a new buffer, decompressing them: a
 * compressed section holds a 4-byte compressed size, a 4-byte
 * uncompressed size, and the compressed block.
 */
static int load_section(struct walk *w, const struct section_header *sh, const char *what,
			uint8_t **out, uint32_t *out_len, struct sl_error *err)
{
	struct sl_dat_layout *l = w->l;
	struct cursor c = { .fd = w->fd, .pos = sh->data, .size = sh->data + sh->size,
			    .big_endian = l->big_endian };
	uint32_t csize = (uint32_t)MIN(sh->size, UINT32_MAX), usize = csize;
	uint8_t *raw, *buf;

	if (sh->flags & SEC_FL_COMPRESS) {
		csize = (uint32_t)cur_num(&c, 4);
		usize = (uint32_t)cur_num(&c, 4);
		if (c.bad || csize > sh->size - 8) {
			sl_error_set(err, "corrupt trace.dat: the compressed %s overruns its section", what);
			return -EINVAL;
		}
	}
	if (usize > MAX_OPTIONS_BYTES) {
		sl_error_set(err, "corrupt trace.dat: the %s claims %u bytes", what, usize);
		return -EINVAL;
	}
	raw = xmalloc(csize ? csize : 1);
	cur_read(&c, raw, csize);
	if (c.bad) {
		free(raw);
		set_truncated(err, l, what, sh->data + sh->size);
		return -EINVAL;
	}
	if (!(sh->flags & SEC_FL_COMPRESS)) {
		*out = raw;
		*out_len = csize;
		return 0;
	}
	buf = xmalloc(usize ? usize : 1);
	long n = sl_dat_decompress(w->dec, raw, csize, buf, usize);

	free(raw);
	if (n != (long)usize) {
		free(buf);
		sl_error_set(err, "corrupt trace.dat: the compressed %s does not decompress", what);
		return -EINVAL;
	}
	*out = buf;
	*out_len = usize;
	return 0;
}

/* One options section: options up to DONE, which names the next section. */
static int walk_options_section(struct walk *w, uint64_t offset, struct sl_error *err)
{
	struct section_header sh;
	uint8_t *buf;
	uint32_t len;
	int ret;

	ret = read_section_header(w, offset, OPT_DONE, "options section", &sh, err);
	if (ret)
		return ret;
	ret = load_section(w, &sh, "options section", &buf, &len, err);
	if (ret)
		return ret;

	struct cursor c = { .fd = -1, .mem = buf, .size = len, .big_endian = w->l->big_endian };

	w->next_options = 0;
	for (;;) {
		uint16_t id = (uint16_t)cur_num(&c, 2);
		uint32_t size = (uint32_t)cur_num(&c, 4);

		if (c.bad || size > c.size - c.pos) {
			sl_error_set(err, "corrupt trace.dat: options section at byte %llu "
				     "ends inside an option", (unsigned long long)offset);
			ret = -EINVAL;
			break;
		}
		if (id == OPT_DONE) {
			struct cursor d = { .fd = -1, .mem = buf + c.pos, .size = size,
					    .big_endian = w->l->big_endian };

			w->next_options = cur_num(&d, 8);
			ret = d.bad ? -EINVAL : 0;
			if (ret)
				sl_error_set(err, "corrupt trace.dat: short DONE option");
			break;
		}
		ret = handle_option(w, id, buf + c.pos, size, err);
		if (ret)
			break;
		c.pos += size;
	}
	free(buf);
	return ret;
}

static const char *section_name(int id)
{
	switch (id) {
	case OPT_HEADER_INFO:	return "header info section";
	case OPT_FTRACE_EVENTS:	return "ftrace formats section";
	case OPT_EVENT_FORMATS:	return "event formats section";
	case OPT_KALLSYMS:	return "kallsyms section";
	case OPT_PRINTK:	return "printk formats section";
	case OPT_CMDLINES:	return "saved cmdlines section";
	default:		return "section";
	}
}

/*
 * The sections tile the file from the end of the initial header to its
 * end (libtracecmd finds the strings sections that way).  Walking them all
 * catches a file cut anywhere inside a section.  A cut exactly between
 * two sections leaves a tiling too: trace-cmd writes a strings section
 * last, which nothing points to.  But every section header names its
 * description by an offset into the strings sections (concatenated, as
 * libtracecmd reads them), so a description past the strings we found
 * means strings are missing: the file was cut.  (Writers that give no
 * descriptions, -1, leave that cut undetectable; trace-cmd always gives
 * them.)
 */
static int walk_all_sections(struct walk *w, uint64_t pos, struct sl_error *err)
{
	struct sl_dat_layout *l = w->l;
	uint64_t strings = 0, desc_end = 0, desc_at = 0;
	char what[64];

	for (int n = 0; pos < l->file_size; n++) {
		struct cursor c = { .fd = w->fd, .pos = pos, .size = l->file_size,
				    .big_endian = l->big_endian };
		uint16_t id = (uint16_t)cur_num(&c, 2);
		uint16_t flags = (uint16_t)cur_num(&c, 2);
		uint32_t desc = (uint32_t)cur_num(&c, 4);
		uint64_t size = cur_num(&c, 8);

		snprintf(what, sizeof(what), "the section at byte %llu", (unsigned long long)pos);
		if (c.bad) {
			set_truncated(err, l, what, pos + SECTION_HEADER_SIZE);
			return -EINVAL;
		}
		if (size > l->file_size - c.pos) {
			set_truncated(err, l, what, c.pos + size);
			return -EINVAL;
		}
		if (desc != SECTION_NO_DESC && (uint64_t)desc + 1 > desc_end) {
			desc_end = (uint64_t)desc + 1;
			desc_at = pos;
		}
		if ((flags & SEC_FL_COMPRESS) && id != OPT_BUFFER) {
			uint32_t csize = (uint32_t)cur_num(&c, 4);
			uint32_t usize = (uint32_t)cur_num(&c, 4);

			if (c.bad || size < 8 || csize > size - 8) {
				sl_error_set(err, "corrupt trace.dat: the compressed data of %s "
					     "overruns it", what);
				return -EINVAL;
			}
			if (id == OPT_STRINGS)
				strings += usize;
		} else if (id == OPT_STRINGS) {
			strings += size;
		}
		if (n == 1 << 20) {
			sl_error_set(err, "corrupt trace.dat: more than a million sections");
			return -EINVAL;
		}
		pos += SECTION_HEADER_SIZE + size;
	}
	if (desc_end > strings) {
		sl_error_set(err, "truncated trace.dat: the file (%llu bytes) ends without the strings "
			     "section that describes the section at byte %llu",
			     (unsigned long long)l->file_size, (unsigned long long)desc_at);
		return -EINVAL;
	}
	return 0;
}

static int walk_v7(struct walk *w, uint64_t start, struct sl_error *err)
{
	struct sl_dat_layout *l = w->l;
	struct cursor c = { .fd = w->fd, .pos = start, .size = l->file_size,
			    .big_endian = l->big_endian };
	char name[16], version[64];
	struct section_header sh;
	uint64_t options;
	int ret, n;

	if (!cur_string(&c, name, sizeof(name)) || !cur_string(&c, version, sizeof(version))) {
		sl_error_set(err, "truncated or corrupt trace.dat header (compression)");
		return -EINVAL;
	}
	if (sl_dat_compression_parse(name, &l->compression)) {
		sl_error_set(err, "unsupported trace.dat compression \"%s\" (zstd, zlib, none)", name);
		return -ENOTSUP;
	}
	snprintf(l->compression_name, sizeof(l->compression_name), "%s", name);
	if (l->compression != SL_DAT_COMPRESS_NONE) {
		w->dec = sl_dat_decompressor_new(l->compression);
		if (!w->dec) {
			sl_error_set(err, "cannot set up %s decompression", name);
			return -ENOMEM;
		}
	}
	options = cur_num(&c, 8);
	if (c.bad) {
		sl_error_set(err, "truncated trace.dat header");
		return -EINVAL;
	}
	for (n = 0; options; n++) {
		if (n == MAX_OPTIONS_SECTIONS) {
			sl_error_set(err, "corrupt trace.dat: more than %d options sections", n);
			return -EINVAL;
		}
		ret = walk_options_section(w, options, err);
		if (ret)
			return ret;
		options = w->next_options;
	}
	if (!n) {
		sl_error_set(err, "corrupt trace.dat: no options section");
		return -EINVAL;
	}
	for (int id = OPT_HEADER_INFO; id <= OPT_CMDLINES; id++) {
		if (!w->section_offset[id])
			continue;
		ret = read_section_header(w, w->section_offset[id], (uint16_t)id,
					  section_name(id), &sh, err);
		if (ret)
			return ret;
		l->sections[id - OPT_HEADER_INFO] = (struct sl_dat_section) {
			.offset = sh.data, .size = sh.size,
			.compressed = sh.flags & SEC_FL_COMPRESS,
		};
		if (sh.flags & SEC_FL_COMPRESS) {
			struct cursor z = { .fd = w->fd, .pos = sh.data, .size = sh.data + sh.size,
					    .big_endian = l->big_endian };
			uint32_t csize = (uint32_t)cur_num(&z, 4);

			if (z.bad || csize > sh.size - 8) {
				sl_error_set(err, "corrupt trace.dat: the compressed %s overruns it",
					     section_name(id));
				return -EINVAL;
			}
		}
	}
	ret = walk_all_sections(w, c.pos, err);
	if (ret)
		return ret;
	if (!w->section_offset[OPT_HEADER_INFO] || !w->section_offset[OPT_EVENT_FORMATS]) {
		sl_error_set(err, "corrupt trace.dat: no %s",
			     section_name(w->section_offset[OPT_HEADER_INFO] ?
					  OPT_EVENT_FORMATS : OPT_HEADER_INFO));
		return -EINVAL;
	}
	if (!w->have_top_buffer && w->want)
		return no_such_buffer(w, err);
	if (!w->have_top_buffer) {
		if (w->latency) {
			sl_error_set(err, "a latency-tracer trace.dat, not a recording of events");
			return -ENOTSUP;
		}
		sl_error_set(err, "the trace.dat has no top-level flyrecord buffer");
		return -EINVAL;
	}
	ret = read_section_header(w, w->top_buffer_offset, OPT_BUFFER, "flyrecord section", &sh, err);
	if (ret)
		return ret;
	l->cpu_compressed = sh.flags & SEC_FL_COMPRESS;
	if (!l->subbuf_size)
		l->subbuf_size = l->page_size;

	int max_id = -1;

	for (int i = 0; i < l->nr_cpu_data; i++) {
		int id = l->cpu_data[i].cpu;

		if (id < 0 || id >= SL_DAT_MAX_CPUS) {
			sl_error_set(err, "corrupt trace.dat: CPU id %d", id);
			return -EINVAL;
		}
		for (int j = 0; j < i; j++)
			if (l->cpu_data[j].cpu == id) {
				sl_error_set(err, "corrupt trace.dat: CPU %d has data twice", id);
				return -EINVAL;
			}
		max_id = MAX(max_id, id);
	}
	l->nr_cpus = w->have_cpucount && w->cpucount <= SL_DAT_MAX_CPUS ? (int)w->cpucount : 0;
	l->nr_cpus = MAX(l->nr_cpus, max_id + 1);
	if (!l->nr_cpus) {
		sl_error_set(err, "corrupt trace.dat: no CPUs");
		return -EINVAL;
	}
	return 0;
}

int sl_dat_section_read(int fd, const struct sl_dat_layout *l, enum sl_dat_section_id id,
			uint8_t **out, uint64_t *out_len, struct sl_error *err)
{
	static const char *const names[] = {
		"header info", "ftrace formats", "event formats", "kallsyms",
		"printk formats", "saved cmdlines",
	};
	const struct sl_dat_section *sec = &l->sections[id];
	struct cursor c = { .fd = fd, .pos = sec->offset, .size = sec->offset + sec->size,
			    .big_endian = l->big_endian };
	uint64_t csize = sec->size, usize = sec->size;
	uint8_t *raw, *buf;

	*out = NULL;
	*out_len = 0;
	if (sec->compressed) {
		csize = cur_num(&c, 4);
		usize = cur_num(&c, 4);
		if (c.bad || csize > sec->size - 8) {
			sl_error_set(err, "corrupt trace.dat: the compressed %s overruns its section",
				     names[id]);
			return -EINVAL;
		}
		/* no real section inflates 1000-fold: do not allocate what a corrupt size says */
		if (usize > MAX_SECTION_BYTES || usize > MAX(csize * 1024, 1u << 20)) {
			sl_error_set(err, "corrupt trace.dat: the compressed %s claims %llu bytes",
				     names[id], (unsigned long long)usize);
			return -EINVAL;
		}
	}
	raw = malloc(csize + 1);
	buf = sec->compressed ? malloc(usize + 1) : raw;
	if (!raw || !buf) {
		free(raw);
		if (buf != raw)
			free(buf);
		sl_error_set(err, "out of memory for the %s (%llu bytes)", names[id],
			     (unsigned long long)usize);
		return -ENOMEM;
	}
	cur_read(&c, raw, csize);
	if (c.bad) {
		free(raw);
		if (buf != raw)
			free(buf);
		sl_error_set(err, "cannot read the %s", names[id]);
		return -EIO;
	}
	if (sec->compressed) {
		struct sl_dat_decompressor *dec = sl_dat_decompressor_new(l->compression);
		long n = dec ? sl_dat_decompress(dec, raw, csize, buf, usize) : -ENOMEM;

		sl_dat_decompressor_free(dec);
		free(raw);
		if (n != (long)usize) {
			free(buf);
			sl_error_set(err, "corrupt trace.dat: the compressed %s does not decompress",
				     names[id]);
			return -EINVAL;
		}
	}
	buf[usize] = '\0';
	*out = buf;
	*out_len = usize;
	return 0;
}

void sl_dat_layout_free(struct sl_dat_layout *l)
{
	free(l->cpu_data);
	l->cpu_data = NULL;
	l->nr_cpu_data = 0;
}

static int check_page_size(uint32_t ps, const char *what, struct sl_error *err)
{
	if (ps < 512 || ps > (1u << 24) || (ps & (ps - 1))) {
		sl_error_set(err, "corrupt trace.dat: %s %u", what, ps);
		return -EINVAL;
	}
	return 0;
}

static int walk(int fd, const char *buffer, struct sl_dat_layout *l, struct sl_error *err)
{
	struct walk w = { .l = l, .fd = fd, .want = buffer && buffer[0] ? buffer : NULL };
	struct cursor c = { .fd = fd, .size = l->file_size };
	char magic[10], version[9];
	uint8_t b[6];
	char *end;
	int ret;

	if (!cur_read(&c, magic, sizeof(magic)) || memcmp(magic, "\027\010\104tracing", 10)) {
		sl_error_set(err, "not a trace.dat file (bad magic)");
		return -EINVAL;
	}
	if (!cur_string(&c, version, sizeof(version))) {
		sl_error_set(err, c.pos >= l->file_size ? "truncated trace.dat header"
						       : "corrupt trace.dat header (version)");
		return -EINVAL;
	}
	l->version = (int)strtol(version, &end, 10);
	if (*end || end == version || l->version < 6 || l->version > 7) {
		sl_error_set(err, "unsupported trace.dat version \"%s\" (6 and 7 are supported)",
			     version);
		return -ENOTSUP;
	}
	if (!cur_read(&c, b, sizeof(b))) {
		sl_error_set(err, "truncated trace.dat header");
		return -EINVAL;
	}
	if (b[0] > 1) {
		sl_error_set(err, "corrupt trace.dat header (endianness byte %u)", b[0]);
		return -EINVAL;
	}
	l->big_endian = b[0] == 1;
	l->long_size = b[1];
	if (l->long_size != 4 && l->long_size != 8) {
		sl_error_set(err, "corrupt trace.dat header (long size %d)", l->long_size);
		return -EINVAL;
	}
	l->page_size = (uint32_t)get_num(b + 2, 4, l->big_endian);
	if (w.want)
		snprintf(l->buffer, sizeof(l->buffer), "%s", w.want);
	if (check_page_size(l->page_size, "page size", err))
		return -EINVAL;
	snprintf(l->compression_name, sizeof(l->compression_name), "none");

	ret = l->version == 6 ? walk_v6(&w, c.pos, err) : walk_v7(&w, c.pos, err);
	sl_dat_decompressor_free(w.dec);
	if (ret)
		return ret;
	if (check_page_size(l->subbuf_size, "ring-buffer page size", err))
		return -EINVAL;

	l->buffer_empty = true;
	for (int i = 0; i < l->nr_cpu_data; i++) {
		const struct sl_dat_cpu_data *d = &l->cpu_data[i];
		uint64_t need = d->size + (l->cpu_compressed && d->size ? 4 : 0);
		char what[64];

		if (!d->size)
			continue;
		l->buffer_empty = false;
		if (d->offset > l->file_size || need > l->file_size - d->offset) {
			snprintf(what, sizeof(what), "CPU %d data", d->cpu);
			set_truncated(err, l, what, d->offset + need);
			return -EINVAL;
		}
		/*
		 * trace-cmd writes ring-buffer pages at page boundaries of the
		 * file; libtracecmd mmaps them from there and, when it cannot,
		 * gives up half-way and crashes in tracecmd_close().
		 */
		if (!l->cpu_compressed && l->page_size && !(l->page_size & (l->page_size - 1)) &&
		    d->offset % l->page_size) {
			sl_error_set(err, "corrupt trace.dat: CPU %d data starts at byte %llu, "
				     "not at a page boundary", d->cpu, (unsigned long long)d->offset);
			return -EINVAL;
		}
	}
	if (!w.want && l->buffer_empty && l->nr_buffers) {
		char names[256];

		sl_dat_buffer_names(l, names, sizeof(names));
		sl_error_set(err, "the top-level buffer holds no events; the trace.dat has them in "
			     "buffer%s %s (trace-cmd -B): choose one with --buffer=NAME",
			     l->nr_buffers > 1 ? "s" : "", names);
		return -EINVAL;
	}
	return 0;
}

int sl_dat_layout_read(const char *path, struct sl_dat_layout *l, struct sl_error *err)
{
	return sl_dat_layout_read_buffer(path, NULL, l, err);
}

int sl_dat_layout_read_buffer(const char *path, const char *buffer, struct sl_dat_layout *l,
			      struct sl_error *err)
{
	struct stat st;
	int fd, ret;

	memset(l, 0, sizeof(*l));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		sl_error_set(err, "cannot open: %s", strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		close(fd);
		sl_error_set(err, "cannot stat: %s", strerror(-ret));
		return ret;
	}
	l->file_size = (uint64_t)st.st_size;
	ret = walk(fd, buffer, l, err);
	close(fd);
	if (ret)
		sl_dat_layout_free(l);
	return ret;
}

int sl_dat_layout_tracing_data(int fd, uint64_t offset, uint64_t size, struct sl_dat_layout *l,
			       struct sl_error *err)
{
	struct cursor c = { .fd = fd, .pos = offset, .size = offset + size };
	char magic[10], version[16];
	uint8_t b[6];

	memset(l, 0, sizeof(*l));
	l->file_size = offset + size;
	if (offset + size < offset || !cur_read(&c, magic, sizeof(magic)) ||
	    memcmp(magic, "\027\010\104tracing", 10)) {
		sl_error_set(err, "corrupt perf.data: the tracing data does not start "
			     "with the tracing magic");
		return -EINVAL;
	}
	if (!cur_string(&c, version, sizeof(version)) || !cur_read(&c, b, sizeof(b)))
		goto truncated;
	if (b[0] > 1 || (b[1] != 4 && b[1] != 8)) {
		sl_error_set(err, "corrupt perf.data: tracing data header (endianness %u, "
			     "long size %u)", b[0], b[1]);
		return -EINVAL;
	}
	l->version = 6;
	l->big_endian = b[0] == 1;
	c.big_endian = l->big_endian;
	l->long_size = b[1];
	l->page_size = (uint32_t)get_num(b + 2, 4, l->big_endian);
	l->subbuf_size = l->page_size;
	if (l->page_size < 512 || l->page_size > (1u << 24) || (l->page_size & (l->page_size - 1))) {
		sl_error_set(err, "corrupt perf.data: tracing data page size %u", l->page_size);
		return -EINVAL;
	}
	snprintf(l->compression_name, sizeof(l->compression_name), "none");
	/* perf writes "0.6"; "0.5" had no saved cmdlines */
	if (!walk_meta(&c, l->sections, strcmp(version, "0.5") != 0))
		goto truncated;
	return 0;
truncated:
	sl_error_set(err, "corrupt perf.data: the tracing data runs past its %llu bytes",
		     (unsigned long long)size);
	return -EINVAL;
}
