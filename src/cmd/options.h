/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.h - the analysis options every command that analyzes accepts
 *
 * analyze, diff and explore put SL_ANALYSIS_OPTIONS in their getopt_long
 * tables and hand any option id >= SL_OPT_BASE to sl_config_option(), so
 * the same thresholds and filters mean the same thing everywhere.
 */
#ifndef SCHEDLINT_OPTIONS_H
#define SCHEDLINT_OPTIONS_H

#include <getopt.h>

#include "schedlint/config.h"

enum {
	SL_OPT_BASE = 1000,
	SL_OPT_MIN_COST = SL_OPT_BASE,
	SL_OPT_SYNC_WINDOW,
	SL_OPT_TOLERANCE,
	SL_OPT_IDLE_THRESHOLD,
	SL_OPT_BASE_SLICE,
	SL_OPT_SLICE_MODEL,
	SL_OPT_HZ,
	SL_OPT_LLC,
	SL_OPT_ASSUME_MIGRATABLE,
	SL_OPT_EXCLUDE_INFERRED,
	SL_OPT_MAX_FINDINGS,
	SL_OPT_KEEP_TASKS,
	SL_OPT_CPUS,
	SL_OPT_PID,
	SL_OPT_COMM,
	SL_OPT_FROM,
	SL_OPT_TO,
	SL_OPT_READER,
	SL_OPT_BUFFER,
	SL_OPT_WORKLOAD,
	SL_OPT_SYSTEM,
	SL_OPT_NO_PAGER,
	SL_OPT_WINDOW,
	SL_OPT__END,
};

#define SL_ANALYSIS_OPTIONS \
	{ "min-cost",          required_argument, NULL, SL_OPT_MIN_COST }, \
	{ "sync-window",       required_argument, NULL, SL_OPT_SYNC_WINDOW }, \
	{ "tolerance",         required_argument, NULL, SL_OPT_TOLERANCE }, \
	{ "idle-threshold",    required_argument, NULL, SL_OPT_IDLE_THRESHOLD }, \
	{ "base-slice",        required_argument, NULL, SL_OPT_BASE_SLICE }, \
	{ "slice-model",       required_argument, NULL, SL_OPT_SLICE_MODEL }, \
	{ "hz",                required_argument, NULL, SL_OPT_HZ }, \
	{ "llc",               required_argument, NULL, SL_OPT_LLC }, \
	{ "assume-migratable", no_argument,       NULL, SL_OPT_ASSUME_MIGRATABLE }, \
	{ "exclude-inferred",  no_argument,       NULL, SL_OPT_EXCLUDE_INFERRED }, \
	{ "max-findings",      required_argument, NULL, SL_OPT_MAX_FINDINGS }, \
	{ "keep-tasks",        required_argument, NULL, SL_OPT_KEEP_TASKS }, \
	{ "cpus",              required_argument, NULL, SL_OPT_CPUS }, \
	{ "pid",               required_argument, NULL, SL_OPT_PID }, \
	{ "comm",              required_argument, NULL, SL_OPT_COMM }, \
	{ "from",              required_argument, NULL, SL_OPT_FROM }, \
	{ "to",                required_argument, NULL, SL_OPT_TO }, \
	{ "reader",            required_argument, NULL, SL_OPT_READER }, \
	{ "buffer",            required_argument, NULL, SL_OPT_BUFFER }, \
	{ "workload",          no_argument,       NULL, SL_OPT_WORKLOAD }, \
	{ "system",            no_argument,       NULL, SL_OPT_SYSTEM }, \
	{ "no-pager",          no_argument,       NULL, SL_OPT_NO_PAGER }, \
	{ "window",            required_argument, NULL, SL_OPT_WINDOW }

/* The help text of those options, for each command's --help. */
extern const char sl_analysis_options_help[];
/*
 * That help text without the options named in skip (NULL-terminated, no
 * dashes): a command that refuses one, or says it in its own words.
 */
void sl_analysis_options_help_print(FILE *out, const char *const *skip);

/* Apply option id with its argument; -1 with a message printed on a bad value. */
int sl_config_option(struct sl_config *cfg, int id, const char *arg, const char *cmd);
int sl_parse_reader_opt(const char *arg, enum sl_dat_reader *reader);

/*
 * getopt_long() that, on an unknown long option, also prints
 * "schedlint CMD: did you mean '--json'?" (argv[0] is "schedlint CMD",
 * so getopt's own messages name the command too).
 */
int sl_getopt(int argc, char **argv, const char *optstring, const struct option *long_opts);
/*
 * The trace a command reads: its one operand, or -i TRACE (i_path, as
 * trace-cmd and perf take it), else trace.dat.  -1 with a message when
 * there are two.
 */
int sl_trace_operand(const char *cmd, int argc, char **argv, const char *i_path, const char **path);

#endif /* SCHEDLINT_OPTIONS_H */
