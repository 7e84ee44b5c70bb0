/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pb.h - the protobuf wire format, written by hand (no protobuf library)
 *
 * A message is a growing byte buffer of fields: a tag (field number and
 * wire type), then a varint, 8 bytes, or a length and the bytes of a
 * string or of a nested message.  A nested message is written in place:
 * pb_begin() reserves its length as a 4-byte varint (the redundant form
 * Perfetto's own protozero writes: 0x80-continued bytes, valid protobuf),
 * pb_end() fills it in, so nothing is copied twice.  A nested message is
 * at most 2^28 - 1 bytes.
 */
#ifndef SCHEDLINT_PB_H
#define SCHEDLINT_PB_H

#include <stddef.h>
#include <stdint.h>

struct pb_buf {
	uint8_t *data;
	size_t len, alloc;
};

#define PB_VARINT	0
#define PB_FIXED64	1
#define PB_LEN		2
#define PB_MAX_NESTED	((1u << 28) - 1)

void pb_free(struct pb_buf *b);
static inline void pb_reset(struct pb_buf *b)
{
	b->len = 0;
}
void pb_raw(struct pb_buf *b, const void *p, size_t len);
void pb_varint(struct pb_buf *b, uint64_t v);
/* field as a varint: uint32/uint64/bool/enum */
void pb_uint(struct pb_buf *b, uint32_t field, uint64_t v);
/* int32/int64 (two's complement: a negative value takes 10 bytes) */
void pb_int(struct pb_buf *b, uint32_t field, int64_t v);
void pb_fixed64(struct pb_buf *b, uint32_t field, uint64_t v);
void pb_double(struct pb_buf *b, uint32_t field, double v);
void pb_bytes(struct pb_buf *b, uint32_t field, const void *p, size_t len);
void pb_str(struct pb_buf *b, uint32_t field, const char *s);
/* Open nested message field; returns where its length goes, for pb_end(). */
size_t pb_begin(struct pb_buf *b, uint32_t field);
void pb_end(struct pb_buf *b, size_t at);

#endif /* SCHEDLINT_PB_H */
