// SPDX-License-Identifier: GPL-2.0
/*
 * pb.c - the protobuf wire format, written by hand (pb.h)
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util/pb.h"
#include "util/util.h"

void pb_free(struct pb_buf *b)
{
	free(b->data);
	*b = (struct pb_buf){ 0 };
}

static uint8_t *room(struct pb_buf *b, size_t n)
{
	GROW(b->data, b->alloc, b->len + n);
	return b->data + b->len;
}

void pb_raw(struct pb_buf *b, const void *p, size_t len)
{
	if (!len)
		return;
	memcpy(room(b, len), p, len);
	b->len += len;
}

/* v as a varint at p: the byte after it */
static inline uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

void pb_varint(struct pb_buf *b, uint64_t v)
{
	uint8_t *p = room(b, 10);

	b->len += (size_t)(put_varint(p, v) - p);
}

static void tag(struct pb_buf *b, uint32_t field, unsigned type)
{
	pb_varint(b, (uint64_t)field << 3 | type);
}

/* a tag and a varint, the room for both asked once (the schedule's fields: per event) */
static void tag_varint(struct pb_buf *b, uint32_t field, uint64_t v)
{
	uint8_t *p = room(b, 20), *end;

	end = put_varint(p, (uint64_t)field << 3 | PB_VARINT);
	end = put_varint(end, v);
	b->len += (size_t)(end - p);
}

void pb_uint(struct pb_buf *b, uint32_t field, uint64_t v)
{
	tag_varint(b, field, v);
}

void pb_int(struct pb_buf *b, uint32_t field, int64_t v)
{
	tag_varint(b, field, (uint64_t)v);
}

void pb_fixed64(struct pb_buf *b, uint32_t field, uint64_t v)
{
	uint8_t le[8];

	tag(b, field, PB_FIXED64);
	for (int i = 0; i < 8; i++)
		le[i] = (uint8_t)(v >> (8 * i));
	pb_raw(b, le, sizeof(le));
}

void pb_double(struct pb_buf *b, uint32_t field, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	pb_fixed64(b, field, bits);
	/* pb_fixed64 wrote wire type 1: the same for a double */
}

void pb_bytes(struct pb_buf *b, uint32_t field, const void *p, size_t len)
{
	uint8_t *at = room(b, 20 + len), *end;

	end = put_varint(at, (uint64_t)field << 3 | PB_LEN);
	end = put_varint(end, len);
	if (len)
		memcpy(end, p, len);
	b->len += (size_t)(end - at) + len;
}

/*
 * A string field is UTF-8 (protobuf's rule; Perfetto keeps them in SQLite
 * strings): a byte of s that is not is written as U+FFFD, as the JSON
 * writers do (comms are any bytes).
 */
void pb_str(struct pb_buf *b, uint32_t field, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i, n, len = 0, bad = 0;
	uint8_t *at, *end;

	for (i = 0; s[i]; i += n) {
		n = s[i] < 0x80 ? 1 : sl_utf8_seq(s + i);
		if (!n) {
			n = 1;
			bad++;
		}
	}
	if (!bad) {
		pb_bytes(b, field, str, i);
		return;
	}
	len = i + 2 * bad;			/* each bad byte: 3 bytes */
	at = room(b, 20 + len);
	end = put_varint(at, (uint64_t)field << 3 | PB_LEN);
	end = put_varint(end, len);
	end = (uint8_t *)sl_utf8_repair((char *)end, s);
	b->len += (size_t)(end - at);
}

size_t pb_begin(struct pb_buf *b, uint32_t field)
{
	size_t at;

	uint8_t *p = room(b, 14);

	b->len += (size_t)(put_varint(p, (uint64_t)field << 3 | PB_LEN) - p);
	at = b->len;
	b->len += 4;
	return at;
}

void pb_end(struct pb_buf *b, size_t at)
{
	size_t n = b->len - at - 4;

	assert(n <= PB_MAX_NESTED);
	b->data[at] = (uint8_t)(n | 0x80);
	b->data[at + 1] = (uint8_t)(n >> 7 | 0x80);
	b->data[at + 2] = (uint8_t)(n >> 14 | 0x80);
	b->data[at + 3] = (uint8_t)(n >> 21 & 0x7f);
}
