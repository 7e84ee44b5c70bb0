// SPDX-License-Identifier: GPL-2.0
/*
 * reader.c - pick the reader for an input from its content
 *
 * trace.dat starts with the magic "\027\010\104tracing", perf.data with
 * "PERFILE2" (read_perf.c; a file or perf record -o -); anything else is
 * handed to the text reader, which detects its dialect from the lines.  A
 * trace.dat goes to the reader --reader chose.  The top of src/read/: it
 * calls the readers, none of them calls it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read_dat.h"
#include "read_perf.h"
#include "schedlint/reader.h"

static const char dat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

const char *sl_format_name(enum sl_format fmt)
{
	switch (fmt) {
	case SL_FMT_DAT6:		return "trace.dat/6";
	case SL_FMT_DAT7:		return "trace.dat/7";
	case SL_FMT_FTRACE_TEXT:	return "ftrace-text";
	case SL_FMT_TRACECMD_REPORT:	return "trace-cmd-report";
	case SL_FMT_PERF_SCRIPT:	return "perf-script";
	case SL_FMT_PERF_DATA:		return "perf.data";
	default:			return "unknown";
	}
}

/* Read up to len bytes, retrying short reads (pipes); returns bytes or -errno. */
static ssize_t read_full(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static int read_dat_open(const char *path, const struct sl_read_opts *opts,
			 struct sl_strtab *strtab, struct sl_reader **out,
			 struct sl_error *err)
{
	switch (opts->dat_reader) {
	case SL_DAT_READER_LIBTRACECMD:
		return sl_read_dat_libtracecmd_open(path, opts->dat_buffer, strtab, out, err);
	case SL_DAT_READER_DEFAULT:
	case SL_DAT_READER_FLYRECORD:
	default:
		return sl_read_dat_flyrecord_open(path, opts->dat_buffer, strtab, out, err);
	}
}

/*
 * A whole file compressed (trace.txt.gz, trace.dat.zst): its kind and the
 * tools that undo it, or NULL.  (A trace.dat v7 compresses inside, behind
 * its own magic.)
 */
static const struct compressed {
	const char *name, *cat, *unpack;
	unsigned char magic[6];
	size_t len;
} *compressed_kind(const char *head, size_t n)
{
	static const struct compressed kinds[] = {
		{ "gzip", "zcat", "gunzip -k", { 0x1f, 0x8b, 0x08 }, 3 },
		{ "zstd", "zstdcat", "unzstd", { 0x28, 0xb5, 0x2f, 0xfd }, 4 },
		{ "xz", "xzcat", "unxz -k", { 0xfd, '7', 'z', 'X', 'Z', 0 }, 6 },
		{ "bzip2", "bzcat", "bunzip2 -k", { 'B', 'Z', 'h' }, 3 },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (n < kinds[i].len || memcmp(head, kinds[i].magic, kinds[i].len))
			continue;
		/* "BZh" and a block size 1-9: not a line of text that starts so */
		if (kinds[i].magic[0] == 'B' && (n < 4 || head[3] < '1' || head[3] > '9'))
			continue;
		return &kinds[i];
	}
	return NULL;
}

int sl_reader_open(const char *path, const struct sl_read_opts *opts,
		   struct sl_strtab *strtab, struct sl_reader **out,
		   struct sl_error *err)
{
	static const struct sl_read_opts default_opts;
	char head[sizeof(dat_magic)];
	struct stat stbuf;
	bool is_stdin = !strcmp(path, "-");
	int fd, ret;
	ssize_t n;

	if (!opts)
		opts = &default_opts;
	*out = NULL;
	fd = is_stdin ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		sl_error_set(err, "cannot open: %s", strerror(errno));
		return ret;
	}
	if (fstat(fd, &stbuf) < 0)
		memset(&stbuf, 0, sizeof(stbuf));
	if (S_ISDIR(stbuf.st_mode)) {
		int data = openat(fd, "data", O_RDONLY | O_CLOEXEC);

		n = data >= 0 ? read_full(data, head, 8) : -1;
		if (data >= 0)
			close(data);
		close(fd);
		if (n == 8 && !memcmp(head, "PERFILE2", 8))
			sl_error_set(err, "%s", SL_PERF_DIR_MSG);
		else
			sl_error_set(err, "is a directory, not a trace");
		return -EISDIR;
	}
	n = read_full(fd, head, sizeof(head));
	if (n < 0) {
		sl_error_set(err, "cannot read: %s", strerror((int)-n));
		close(fd);
		return (int)n;
	}
	if (n == 0) {
		sl_error_set(err, "empty file, not a trace");
		close(fd);
		return -ENODATA;
	}
	if (compressed_kind(head, (size_t)n)) {
		const struct compressed *c = compressed_kind(head, (size_t)n);

		if (is_stdin)
			sl_error_set(err, "%s-compressed input: decompress it on the way (%s FILE | "
				     "schedlint analyze -)", c->name, c->cat);
		else
			sl_error_set(err, "%s-compressed: decompress it first (%s %s; a text "
				     "trace can also be piped: %s %s | schedlint analyze -)",
				     c->name, c->unpack, path, c->cat, path);
		close(fd);
		return -EINVAL;
	}
	if ((size_t)n >= 3 && !memcmp(head, dat_magic, 3)) {
		if ((size_t)n < sizeof(dat_magic) || memcmp(head, dat_magic, sizeof(dat_magic))) {
			sl_error_set(err, "truncated or corrupt trace.dat header");
			close(fd);
			return -EINVAL;
		}
		close(fd);
		if (is_stdin) {
			sl_error_set(err, "a trace.dat cannot be read from stdin: give its file name");
			return -EINVAL;
		}
		/*
		 * The trace.dat readers open the file again and seek in it: a
		 * FIFO (or <(...)) would block in that open, or give the rest
		 * of the stream as a file that starts after the magic.
		 */
		if (!S_ISREG(stbuf.st_mode)) {
			sl_error_set(err, "a trace.dat cannot be read from a pipe or device: "
				     "give the name of a file");
			return -EINVAL;
		}
		ret = read_dat_open(path, opts, strtab, out, err);
	} else {
		bool perf = (size_t)n >= 8 && (!memcmp(head, "PERFILE2", 8) ||
						 !memcmp(head, "2ELIFREP", 8));

		/* a trace.dat's options, where they mean nothing: said, not ignored (issue 32, 16) */
		if (opts->dat_buffer || opts->dat_reader != SL_DAT_READER_DEFAULT) {
			sl_error_set(err, "%s applies to a trace.dat; a %s has %s", opts->dat_buffer ?
				     "--buffer" : "--reader", perf ? "perf.data" : "text trace",
				     opts->dat_buffer ? "no instance buffers" : "one reader");
			close(fd);
			return -EINVAL;
		}
		if (perf)
			ret = sl_read_perf_open(fd, head, (size_t)n, strtab, out, err);
		else
			ret = sl_read_text_open(fd, head, (size_t)n, strtab, out, err);
	}
	if (ret < 0)
		return ret;
	(*out)->path = strdup(path);
	(*out)->strtab = strtab;
	(*out)->err = err;
	return 0;
}

int sl_reader_next(struct sl_reader *r, struct sl_event *ev)
{
	return r->ops->next(r, ev);
}

int sl_reader_seek_time(struct sl_reader *r, uint64_t ts)
{
	if (!r->ops->seek_time)
		return -ENOTSUP;
	return r->ops->seek_time(r, ts);
}

const char *sl_reader_saved_comm(struct sl_reader *r, int32_t pid)
{
	return r->ops->saved_comm ? r->ops->saved_comm(r, pid) : NULL;
}

void sl_reader_close(struct sl_reader *r)
{
	if (!r)
		return;
	free(r->path);
	r->ops->close(r);
}
