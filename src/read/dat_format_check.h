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

#endif /* SCHEDLINT_DAT_FORMAT_CHECK_H */
