/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - stdout that notices write errors
 *
 * A report that silently lost its tail (disk full, closed pipe) is worse
 * than none: commands check the stream once at the end and exit 2 with a
 * message (once: main() checks stdout again after every command, for
 * the ones that print help or versions).  SIGPIPE keeps its default
 * action, so `schedlint ... | head` ends quietly, and so it does when
 * SIGPIPE was ignored by whoever started us.
 */
#ifndef SCHEDLINT_OUTPUT_H
#define SCHEDLINT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

void sl_output_begin(FILE *f);
/*
 * Flush f; on a write error print one message (the first time) and
 * return -1.  A closed pipe ends the process by SIGPIPE, without a message.
 */
int sl_output_end(FILE *f);
/*
 * A write to stdout failed with errno e where the caller saw it: the
 * message of sl_output_end() names it (stdio's error flag keeps no errno,
 * and a later flush may fail without one: "Input/output error").
 */
void sl_output_failed(int e);
/*
 * --color[=WHEN]: "always" (also a bare --color, when NULL), "never", or
 * "auto": stdout is a terminal and the environment allows colors.
 */
bool sl_want_color(const char *when);
/* The environment allows colors: NO_COLOR unset or empty, TERM not "dumb". */
bool sl_color_env_allows(void);
/*
 * An output file named on the command line (diff --junit) is opened only
 * once the arguments are parsed and checked, and never when it is one of
 * the run's inputs (the same device and inode: another name, a link, "-"
 * for stdin): writing it would destroy what is then read.  Returns the
 * index of the input it is, or -1.
 */
long sl_output_is_input(const char *path, const char *const *inputs, size_t nr);
/*
 * The first byte of path that is not white space, among its first 64: '<'
 * for an HTML page or an XML file, '{' for a saved report; 0 when path
 * cannot be read or has none (an empty file).  What a file about to be
 * written over holds.
 */
int sl_output_lead_byte(const char *path);
/*
 * --html=FILE (analyze, diff): FILE is written over only when it is absent
 * or an HTML page, so "--html a.dat b.dat" never replaces a trace or a
 * saved report; -1 with a message naming cmd and FILE.
 */
int sl_html_path_check(const char *cmd, const char *path);
/*
 * Write path whole or not at all: fn writes into a temporary file beside
 * it, renamed over path once written and flushed (an error never leaves
 * half a page, nor takes away the one there was).  -1 with one message
 * naming path.
 */
int sl_write_whole(const char *path, void (*fn)(FILE *f, const void *arg), const void *arg);
/*
 * The same for a file written as it goes (export): sl_whole_open() opens
 * the temporary file (w->f) with the mode a new file gets; sl_whole_commit()
 * flushes it and renames it over path; sl_whole_abort() removes it (a
 * no-op once committed or aborted).  Each -1 comes with one message.
 */
struct sl_whole {
	FILE *f;
	char *tmp;
	const char *path;
};
int sl_whole_open(struct sl_whole *w, const char *path);
int sl_whole_commit(struct sl_whole *w);
void sl_whole_abort(struct sl_whole *w);
/* Check --color's argument (NULL: a bare --color, "always"); -1 with a message. */
int sl_parse_color(const char *cmd, const char *arg, const char **when);

#endif /* SCHEDLINT_OUTPUT_H */
