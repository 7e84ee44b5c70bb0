/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - stdout that notices write errors
 *
 * A report that silently lost its tail (disk full, closed pipe) is worse
 * than none: commands check the stream once at the end and exit 2 with a
 * message.  SIGPIPE keeps its default action, so `schedlint ... | head`
 * ends quietly.
 */
#ifndef SCHEDLINT_OUTPUT_H
#define SCHEDLINT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

void sl_output_begin(FILE *f);
/* Flush f; on a write error print one message and return -1. */
int sl_output_end(FILE *f);
/* --color=WHEN: "always", "never", or "auto" (stdout is a terminal and NO_COLOR unset). */
bool sl_want_color(const char *when);

#endif /* SCHEDLINT_OUTPUT_H */
