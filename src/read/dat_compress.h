/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_compress.h - the decompressors a trace.dat v7 may need
 *
 * A v7 file names its algorithm in the initial header ("zstd", "zlib" or
 * "none"); trace-cmd compresses each metadata section as one block and
 * the CPU data in chunks of a few pages, each block a complete zstd frame
 * or zlib stream with its sizes stored next to it.
 */
#ifndef SCHEDLINT_DAT_COMPRESS_H
#define SCHEDLINT_DAT_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

enum sl_dat_compression {
	SL_DAT_COMPRESS_NONE = 0,
	SL_DAT_COMPRESS_ZSTD,
	SL_DAT_COMPRESS_ZLIB,
};

struct sl_dat_decompressor;

/* Parse an algorithm name; -ENOTSUP for one we cannot read. */
int sl_dat_compression_parse(const char *name, enum sl_dat_compression *out);

/* NULL for SL_DAT_COMPRESS_NONE (nothing to decompress) or out of memory. */
struct sl_dat_decompressor *sl_dat_decompressor_new(enum sl_dat_compression algo);
void sl_dat_decompressor_free(struct sl_dat_decompressor *d);

/*
 * Decompress one block of in_len bytes into out (out_len bytes of room).
 * Returns the number of bytes produced, or -EINVAL when the block is
 * corrupt or does not fit.
 */
long sl_dat_decompress(struct sl_dat_decompressor *d, const void *in, size_t in_len,
		       void *out, size_t out_len);

#endif /* SCHEDLINT_DAT_COMPRESS_H */
