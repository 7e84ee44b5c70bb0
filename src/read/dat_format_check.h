/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_format_check.h - event format text that libtraceevent cannot parse safely
 */
#ifndef SCHEDLINT_DAT_FORMAT_CHECK_H
#define SCHEDLINT_DAT_FORMAT_CHECK_H

#include <stddef.h>

#include "schedlint/reader.h"

/*
 * Check one event format of a trace.dat (the text of a tracefs "format"
 * file) before libtraceevent parses it.  libtraceevent 1.7 dereferences a
 * NULL field when the print format names a field the format does not
 * declare inside __print_flags() or __print_symbolic() (trace-cmd report
 * crashes the same way), so every REC->name of the print format must be
 * a declared field.  Returns 0, or -EINVAL with err set ("event format
 * sched:sched_switch prints REC->prev_state, which it does not declare").
 */
int sl_dat_format_check(const char *text, size_t len, struct sl_error *err);

/*
 * The length of the part of a format that declares its name, ID and
 * common fields, without its print format: the field lines after the
 * "format:" line up to the first line that declares none (the kernel
 * ends the common fields with a blank line; a corrupt file may have
 * none, or the print format right after the fields).  0 when there is no
 * "format:" line.  For an event counted by name only
 * (dat_meta.c's parse_stub()): libtraceevent must never parse that
 * print format outside the sandbox.
 */
size_t sl_dat_format_stub_len(const char *text, size_t len);

#endif /* SCHEDLINT_DAT_FORMAT_CHECK_H */
