// SPDX-License-Identifier: GPL-2.0
/*
 * error.c - the one-line error every reader and writer fills
 *
 * The bottom of src/read/: every reader, dat_layout, dat_write and
 * trace_live report through it, and it calls nothing of theirs.
 */
#include <stdarg.h>
#include <stdio.h>

#include "schedlint/reader.h"

void sl_error_set(struct sl_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}
