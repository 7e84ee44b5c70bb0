// SPDX-License-Identifier: GPL-2.0
/*
 * dat_compress.c - zstd and zlib blocks of trace.dat v7, through the
 * libraries directly (one reusable zstd context, no temporary files)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "dat_compress.h"
#include "util/util.h"

struct sl_dat_decompressor {
	enum sl_dat_compression algo;
	ZSTD_DCtx *zstd;
};

int sl_dat_compression_parse(const char *name, enum sl_dat_compression *out)
{
	if (!strcmp(name, "none"))
		*out = SL_DAT_COMPRESS_NONE;
	else if (!strcmp(name, "zstd"))
		*out = SL_DAT_COMPRESS_ZSTD;
	else if (!strcmp(name, "zlib"))
		*out = SL_DAT_COMPRESS_ZLIB;
	else
		return -ENOTSUP;
	return 0;
}

struct sl_dat_decompressor *sl_dat_decompressor_new(enum sl_dat_compression algo)
{
	struct sl_dat_decompressor *d;

	if (algo == SL_DAT_COMPRESS_NONE)
		return NULL;
	d = xcalloc(1, sizeof(*d));
	d->algo = algo;
	if (algo == SL_DAT_COMPRESS_ZSTD) {
		d->zstd = ZSTD_createDCtx();
		if (!d->zstd) {
			free(d);
			return NULL;
		}
	}
	return d;
}

void sl_dat_decompressor_free(struct sl_dat_decompressor *d)
{
	if (!d)
		return;
	ZSTD_freeDCtx(d->zstd);
	free(d);
}

long sl_dat_decompress(struct sl_dat_decompressor *d, const void *in, size_t in_len,
		       void *out, size_t out_len)
{
	if (!d)
		return -EINVAL;
	if (d->algo == SL_DAT_COMPRESS_ZSTD) {
		size_t n = ZSTD_decompressDCtx(d->zstd, out, out_len, in, in_len);

		return ZSTD_isError(n) ? -EINVAL : (long)n;
	}
	uLongf n = out_len;

	if (uncompress(out, &n, in, in_len) != Z_OK)
		return -EINVAL;
	return (long)n;
}
