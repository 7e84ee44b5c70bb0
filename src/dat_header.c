// SPDX-License-Identifier: GPL-2.0
/*
 * dat_header.c - validate the fixed start of a trace.dat file
 *
 * Layout: "\027\010\104tracing", the version as an ASCII string and a NUL,
 * one byte endianness (0 little, 1 big), one byte long size, a 4-byte page
 * size in file endianness.  Version 7 files then have a compression
 * algorithm name and version (NUL-terminated strings).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dat_header.h"
#include "util.h"

/* A bounds-checked cursor over the file, for walking the v6 sections. */
struct cursor {
	int fd;
	uint64_t pos, size;
	bool big_endian;
	bool bad;		/* read past the end */
};

static bool cur_read(struct cursor *c, void *buf, size_t len)
{
	if (c->bad || c->pos + len > c->size || pread(c->fd, buf, len, (off_t)c->pos) != (ssize_t)len) {
		c->bad = true;
		return false;
	}
	c->pos += len;
	return true;
}

static uint64_t cur_num(struct cursor *c, int size)
{
	uint8_t b[8] = { 0 };
	uint64_t v = 0;

	if (!cur_read(c, b, (size_t)size))
		return 0;
	for (int i = 0; i < size; i++)
		v |= (uint64_t)b[c->big_endian ? size - 1 - i : i] << (8 * i);
	return v;
}

static void cur_skip(struct cursor *c, uint64_t len)
{
	if (c->bad || len > c->size - c->pos)
		c->bad = true;
	else
		c->pos += len;
}

/* Skip a NUL-terminated string of at most max bytes; compare it when want != NULL. */
static bool cur_string(struct cursor *c, const char *want, size_t max)
{
	char buf[256];
	size_t i;

	for (i = 0; i < max && i < sizeof(buf); i++) {
		if (!cur_read(c, &buf[i], 1))
			return false;
		if (!buf[i])
			break;
	}
	if (i >= max || i >= sizeof(buf)) {
		c->bad = true;
		return false;
	}
	return !want || !strcmp(buf, want);
}

/* Version 6: header_page .. cmdlines, cpus, options, "flyrecord" and its table. */
static int walk_v6(int fd, struct sl_dat_header *hdr, uint64_t start, struct sl_error *err)
{
	struct cursor c = { .fd = fd, .pos = start, .size = (uint64_t)hdr->file_size,
			    .big_endian = hdr->big_endian };
	char section[10];

	if (!cur_string(&c, "header_page", 16))
		goto truncated;
	cur_skip(&c, cur_num(&c, 8));
	if (!cur_string(&c, "header_event", 16))
		goto truncated;
	cur_skip(&c, cur_num(&c, 8));
	for (uint32_t n = (uint32_t)cur_num(&c, 4); n && !c.bad; n--)	/* ftrace formats */
		cur_skip(&c, cur_num(&c, 8));
	for (uint32_t sys = (uint32_t)cur_num(&c, 4); sys && !c.bad; sys--) {
		cur_string(&c, NULL, 256);
		for (uint32_t n = (uint32_t)cur_num(&c, 4); n && !c.bad; n--)
			cur_skip(&c, cur_num(&c, 8));
	}
	cur_skip(&c, cur_num(&c, 4));		/* kallsyms */
	cur_skip(&c, cur_num(&c, 4));		/* printk formats */
	cur_skip(&c, cur_num(&c, 8));		/* saved cmdlines */
	hdr->nr_cpus = (int)cur_num(&c, 4);
	if (c.bad)
		goto truncated;
	if (hdr->nr_cpus <= 0 || hdr->nr_cpus > SL_DAT_MAX_CPUS) {
		sl_error_set(err, "corrupt trace.dat: %d CPUs", hdr->nr_cpus);
		return -EINVAL;
	}
	if (!cur_read(&c, section, sizeof(section)))
		goto truncated;
	if (!memcmp(section, "options  ", 10)) {
		for (;;) {
			uint16_t id = (uint16_t)cur_num(&c, 2);

			if (c.bad)
				goto truncated;
			if (!id)
				break;
			cur_skip(&c, cur_num(&c, 4));
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
	hdr->cpu_data = xcalloc((size_t)hdr->nr_cpus, sizeof(*hdr->cpu_data));
	for (int cpu = 0; cpu < hdr->nr_cpus; cpu++) {
		hdr->cpu_data[cpu].offset = cur_num(&c, 8);
		hdr->cpu_data[cpu].size = cur_num(&c, 8);
	}
	if (c.bad)
		goto truncated;
	for (int cpu = 0; cpu < hdr->nr_cpus; cpu++) {
		const struct sl_dat_cpu_data *d = &hdr->cpu_data[cpu];

		if (d->offset > (uint64_t)hdr->file_size ||
		    d->size > (uint64_t)hdr->file_size - d->offset) {
			sl_error_set(err, "truncated trace.dat: CPU %d data ends at byte %llu, "
				     "the file has %llu", cpu,
				     (unsigned long long)(d->offset + d->size),
				     (unsigned long long)hdr->file_size);
			return -EINVAL;
		}
	}
	return 0;
truncated:
	sl_error_set(err, "truncated or corrupt trace.dat header (at byte %llu of %llu)",
		     (unsigned long long)c.pos, (unsigned long long)hdr->file_size);
	return -EINVAL;
}

void sl_dat_header_free(struct sl_dat_header *hdr)
{
	free(hdr->cpu_data);
	hdr->cpu_data = NULL;
}

int sl_dat_header_check(const char *path, struct sl_dat_header *hdr, struct sl_error *err)
{
	unsigned char buf[64];
	struct stat st;
	ssize_t n;
	int fd;

	memset(hdr, 0, sizeof(*hdr));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		sl_error_set(err, "cannot open: %s", strerror(e));
		return -e;
	}
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		sl_error_set(err, "cannot stat: %s", strerror(e));
		return -e;
	}
	n = pread(fd, buf, sizeof(buf), 0);
	hdr->file_size = st.st_size;
	if (n < 10 || memcmp(buf, "\027\010\104tracing", 10)) {
		close(fd);
		sl_error_set(err, "not a trace.dat file (bad magic)");
		return -EINVAL;
	}

	const unsigned char *p = buf + 10;
	const unsigned char *nul = memchr(p, '\0', (size_t)(n - 10));

	int ret = -EINVAL;

	if (!nul || nul - p > 8 || nul + 7 > buf + n) {
		close(fd);
		sl_error_set(err, "truncated trace.dat header");
		return -EINVAL;
	}
	char *end;

	hdr->version = (int)strtol((const char *)p, &end, 10);
	if ((const unsigned char *)end != nul || hdr->version < 6 || hdr->version > 7) {
		sl_error_set(err, "unsupported trace.dat version \"%.*s\" (6 and 7 are supported)",
			     (int)(nul - p), (const char *)p);
		ret = -ENOTSUP;
		goto out;
	}
	p = nul + 1;
	if (p[0] > 1) {
		sl_error_set(err, "corrupt trace.dat header (endianness byte %u)", p[0]);
		goto out;
	}
	hdr->big_endian = p[0] == 1;
	hdr->long_size = p[1];
	if (hdr->long_size != 4 && hdr->long_size != 8) {
		sl_error_set(err, "corrupt trace.dat header (long size %d)", hdr->long_size);
		goto out;
	}
	uint32_t ps;

	memcpy(&ps, p + 2, 4);
	if (hdr->big_endian)
		ps = __builtin_bswap32(ps);
	hdr->page_size = ps;
	if (ps < 512 || ps > (1u << 24) || (ps & (ps - 1))) {
		sl_error_set(err, "corrupt trace.dat header (page size %u)", ps);
		goto out;
	}
	ret = hdr->version == 6 ? walk_v6(fd, hdr, (uint64_t)(p + 6 - buf), err) : 0;
out:
	close(fd);
	if (ret)
		sl_dat_header_free(hdr);
	return ret;
}
