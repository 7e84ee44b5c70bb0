// SPDX-License-Identifier: GPL-2.0
/*
 * read_text_input.c - the text readers' read buffer
 *
 * read_text.c's next_line() hands lines out in place, in a buffer read()
 * fills.  It starts at TEXT_BUF_START and grows, to text_buf_size (1 MB),
 * only for a line that does not fit: the longest line a text trace may
 * have, as when the buffer was 1 MB from the start (all of it written, so
 * resident, on any file of that size, for lines of a few hundred bytes).
 * The prev_state look-ahead (read_text_fields.c) reads up to
 * text_buf_size past the line in hand, in a buffer of its own, while that
 * line stays where it is.
 *
 * Below read_text.c and read_text_fields.c: it calls neither.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read_text.h"
#include "util/util.h"

#define TEXT_BUF_SIZE		(1024 * 1024)
size_t text_buf_size = TEXT_BUF_SIZE;
/* What the read buffer starts with: 16 times what a pipe gives at once, 64 times a long line. */
#define TEXT_BUF_START		(64 * 1024)

void text_input_init(struct text_reader *r, const char *prefix, size_t prefix_len)
{
	r->buf_max = MAX(text_buf_size, prefix_len);
	r->buf_size = MAX(MIN((size_t)TEXT_BUF_START, r->buf_max), prefix_len);
	r->buf = xmalloc(r->buf_size);
	if (prefix_len)
		memcpy(r->buf, prefix, prefix_len);
	r->len = prefix_len;
}

void text_input_free(struct text_reader *r)
{
	free(r->buf);
	free(r->retired);
}

void text_read_ahead(struct text_reader *r)
{
	size_t avail = r->len - r->pos;
	char *buf;

	if (r->retired || r->eof)
		return;		/* done already, or all the rest is in buf[pos..len) */
	/* a new buffer: the line in hand is before pos in this one */
	buf = xmalloc(r->buf_max);
	memcpy(buf, r->buf + r->pos, avail);
	r->retired = r->buf;
	r->buf = buf;
	r->buf_size = r->buf_max;
	r->pos = 0;
	r->len = avail;
	while (!r->eof && !r->ahead_errno && r->len < r->buf_size) {
		ssize_t n = read(r->fd, r->buf + r->len, r->buf_size - r->len);

		if (n < 0 && errno != EINTR)
			r->ahead_errno = errno;
		else if (n == 0)
			r->eof = true;
		else if (n > 0)
			r->len += (size_t)n;
	}
}
