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
	close(fd);
	hdr->file_size = st.st_size;
	if (n < 10 || memcmp(buf, "\027\010\104tracing", 10)) {
		sl_error_set(err, "not a trace.dat file (bad magic)");
		return -EINVAL;
	}

	const unsigned char *p = buf + 10;
	const unsigned char *nul = memchr(p, '\0', (size_t)(n - 10));

	if (!nul || nul - p > 8 || nul + 7 > buf + n) {
		sl_error_set(err, "truncated trace.dat header");
		return -EINVAL;
	}
	char *end;

	hdr->version = (int)strtol((const char *)p, &end, 10);
	if ((const unsigned char *)end != nul || hdr->version < 6 || hdr->version > 7) {
		sl_error_set(err, "unsupported trace.dat version \"%.*s\" (6 and 7 are supported)",
			     (int)(nul - p), (const char *)p);
		return -ENOTSUP;
	}
	p = nul + 1;
	if (p[0] > 1) {
		sl_error_set(err, "corrupt trace.dat header (endianness byte %u)", p[0]);
		return -EINVAL;
	}
	hdr->big_endian = p[0] == 1;
	hdr->long_size = p[1];
	if (hdr->long_size != 4 && hdr->long_size != 8) {
		sl_error_set(err, "corrupt trace.dat header (long size %d)", hdr->long_size);
		return -EINVAL;
	}
	uint32_t ps;

	memcpy(&ps, p + 2, 4);
	if (hdr->big_endian)
		ps = __builtin_bswap32(ps);
	hdr->page_size = ps;
	if (ps < 512 || ps > (1u << 24) || (ps & (ps - 1))) {
		sl_error_set(err, "corrupt trace.dat header (page size %u)", ps);
		return -EINVAL;
	}
	return 0;
}
