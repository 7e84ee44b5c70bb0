// SPDX-License-Identifier: GPL-2.0
/*
 * options.c - parse the analysis options and hold their defaults
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/topology.h"
#include "options.h"
#include "pager.h"
#include "schedlint/analyzer.h"
#include "util/util.h"

const char sl_analysis_options_help[] =
	"Finding thresholds and models:\n"
	"  --min-cost=D          wakee-stacking: report when the wakee waited >= D (50us)\n"
	"  --sync-window=D       sync wakeup: waker blocks having run <= D (100us)\n"
	"  --tolerance=D         late-preemption: report when later than D (1ms)\n"
	"  --idle-threshold=D    idle-while-runnable: idle overlap >= D (1ms)\n"
	"  --slice-model=M       eevdf or cfs (default: from the kernel version,\n"
	"                        else eevdf)\n"
	"  --base-slice=D        EEVDF base slice, CFS min_granularity\n"
	"                        (default 0.75ms x (1 + ilog2(min(ncpus, 8))))\n"
	"  --hz=N                the kernel's HZ (default: from a schedlint record trace,\n"
	"                        else inferred from the spacing of local_timer_entry,\n"
	"                        else from the preemption times)\n"
	"  --llc=LIST            last-level-cache domains, e.g. 0-3,4-7 (default: from a\n"
	"                        schedlint record trace, else one)\n"
	"  --assume-migratable   treat tasks seen on one CPU only as migratable\n"
	"  --exclude-inferred    leave out the wakeups whose switch-in the trace does not\n"
	"                        show (their latency is a lower bound)\n"
	"  --max-findings=N      keep each kind's N most costly findings in its list\n"
	"                        (1000)\n"
	"  --window=D            latency over time: windows of D (default: from the span,\n"
	"                        100-250 windows of 1, 2 or 5 x 10^n)\n"
	"  --keep-tasks=N        keep the last N dead tasks one by one; older ones are\n"
	"                        folded into per-comm rows (65536)\n"
	"Filters (the model still reads every event):\n"
	"  --workload            only the tasks of the command schedlint record ran (the\n"
	"                        default when the trace names one; an error when not)\n"
	"  --system              every task, even when the trace names a workload\n"
	"  --cpus=LIST           only these CPUs, e.g. 0-3,8\n"
	"  --pid=PID[,PID...]    only these tasks\n"
	"  --comm=COMM           only tasks with this name (repeatable)\n"
	"  --from=T, --to=T      only this time window: trace seconds (913.5; to the\n"
	"                        microsecond: the whole microsecond, as printed) or\n"
	"                        +DURATION from the first event (+100ms)\n"
	"  --reader=R            trace.dat reader: flyrecord (default: our own streaming\n"
	"                        reader) or libtracecmd (the reference, slow on zstd)\n"
	"  --buffer=NAME         trace.dat: read this instance buffer (trace-cmd -B NAME)\n"
	"                        instead of the top-level one\n"
	"  --no-pager            never page (as schedlint --no-pager CMD)\n"
	"Durations: 250000 (ns), 250us, 1.5ms, 2s.\n";

void sl_analysis_options_help_print(FILE *out, const char *const *skip)
{
	const char *p = sl_analysis_options_help;
	bool skipping = false;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);

		/* an option's first line ("  --NAME" then '=' or ' '), else a continuation or a heading */
		if (!strncmp(p, "  --", 4)) {
			skipping = false;
			for (size_t i = 0; skip && skip[i]; i++) {
				size_t n = strlen(skip[i]);

				if (!strncmp(p + 4, skip[i], n) && (p[4 + n] == '=' || p[4 + n] == ' '))
					skipping = true;
			}
		} else if (strncmp(p, "        ", 8)) {
			skipping = false;
		}
		if (!skipping)
			fwrite(p, 1, len, out);
		p += len;
	}
}

void sl_config_init(struct sl_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->min_cost_ns = 50000;
	cfg->sync_window_ns = 100000;
	cfg->tolerance_ns = 1000000;
	cfg->idle_threshold_ns = 1000000;
	cfg->slice_model = SL_SLICE_EEVDF;
	cfg->max_findings = 1000;
	cfg->keep_tasks = SL_KEEP_DEAD_TASKS;
	cfg->to_ns = UINT64_MAX;
	cfg->analyzers = sl_analyzer_registry;
	cfg->nr_analyzers = sl_nr_analyzers;
}

void sl_config_free(struct sl_config *cfg)
{
	free(cfg->llc_spec);
	free(cfg->cpus.words);
	free(cfg->pids);
	for (size_t i = 0; i < cfg->nr_comms; i++)
		free(cfg->comms[i]);
	free(cfg->comms);
	memset(cfg, 0, sizeof(*cfg));
}

int sl_parse_reader_opt(const char *arg, enum sl_dat_reader *reader)
{
	if (!strcmp(arg, "libtracecmd"))
		*reader = SL_DAT_READER_LIBTRACECMD;
	else if (!strcmp(arg, "flyrecord"))
		*reader = SL_DAT_READER_FLYRECORD;
	else
		return -EINVAL;
	return 0;
}

static int duration_opt(const char *cmd, const char *name, const char *arg, uint64_t *out)
{
	if (parse_duration(arg, out)) {
		error_msg("%s: --%s: '%s' is not a duration (e.g. 100us, 1.5ms)", cmd, name, arg);
		return -1;
	}
	return 0;
}

static int time_opt(const char *cmd, const char *name, const char *arg, uint64_t *out, bool *rel)
{
	*rel = arg[0] == '+';
	if ((*rel ? parse_duration(arg + 1, out) : parse_timestamp(arg, out))) {
		error_msg("%s: --%s: '%s' is not a time (trace seconds like 913.5, or +100ms)",
			  cmd, name, arg);
		return -1;
	}
	/* a relative time without a unit is seconds, like an absolute one */
	if (*rel && !strpbrk(arg + 1, "nmus"))
		return parse_timestamp(arg + 1, out);
	/*
	 * A trace time to the microsecond, as the reports print it (rounded,
	 * like trace-cmd report): every time that prints so.  The report's
	 * first time copied into --to was "no event at or before it".
	 */
	if (!*rel) {
		uint64_t lo, hi;

		ts_as_printed(*out, &lo, &hi);
		*out = strcmp(name, "from") ? hi : lo;
	}
	return 0;
}

int sl_config_option(struct sl_config *cfg, int id, const char *arg, const char *cmd)
{
	char *end;
	long v;

	switch (id) {
	case SL_OPT_MIN_COST:
		return duration_opt(cmd, "min-cost", arg, &cfg->min_cost_ns);
	case SL_OPT_WINDOW:
		if (duration_opt(cmd, "window", arg, &cfg->window_ns))
			return -1;
		if (!cfg->window_ns) {
			error_msg("%s: --window must be positive", cmd);
			return -1;
		}
		return 0;
	case SL_OPT_SYNC_WINDOW:
		return duration_opt(cmd, "sync-window", arg, &cfg->sync_window_ns);
	case SL_OPT_TOLERANCE:
		return duration_opt(cmd, "tolerance", arg, &cfg->tolerance_ns);
	case SL_OPT_IDLE_THRESHOLD:
		return duration_opt(cmd, "idle-threshold", arg, &cfg->idle_threshold_ns);
	case SL_OPT_BASE_SLICE:
		if (duration_opt(cmd, "base-slice", arg, &cfg->base_slice_ns))
			return -1;
		if (!cfg->base_slice_ns) {
			error_msg("%s: --base-slice must be positive", cmd);
			return -1;
		}
		return 0;
	case SL_OPT_SLICE_MODEL:
		if (!strcmp(arg, "eevdf"))
			cfg->slice_model = SL_SLICE_EEVDF;
		else if (!strcmp(arg, "cfs"))
			cfg->slice_model = SL_SLICE_CFS;
		else {
			error_msg("%s: --slice-model must be eevdf or cfs", cmd);
			return -1;
		}
		cfg->slice_model_set = true;
		return 0;
	case SL_OPT_HZ:
		v = strtol(arg, &end, 10);
		if (end == arg || *end || v < 10 || v > 100000) {
			error_msg("%s: --hz: '%s' is not a tick rate (e.g. 250)", cmd, arg);
			return -1;
		}
		cfg->hz = (int)v;
		return 0;
	case SL_OPT_LLC: {
		int *dom, n, nd;

		if (sl_parse_llc(arg, &dom, &n, &nd)) {
			error_msg("%s: --llc: '%s' is not a list of CPU domains (e.g. 0-3,4-7)", cmd, arg);
			return -1;
		}
		free(dom);
		free(cfg->llc_spec);
		cfg->llc_spec = xstrdup(arg);
		return 0;
	}
	case SL_OPT_ASSUME_MIGRATABLE:
		cfg->assume_migratable = true;
		return 0;
	case SL_OPT_EXCLUDE_INFERRED:
		cfg->exclude_inferred = true;
		return 0;
	case SL_OPT_MAX_FINDINGS:
		v = strtol(arg, &end, 10);
		if (end == arg || *end || v < 0 || v > 10000000) {
			error_msg("%s: --max-findings: '%s' is not a count", cmd, arg);
			return -1;
		}
		cfg->max_findings = (size_t)v;
		return 0;
	case SL_OPT_KEEP_TASKS:
		v = strtol(arg, &end, 10);
		if (end == arg || *end || v < 1 || v > 100000000) {
			error_msg("%s: --keep-tasks: '%s' is not a count from 1", cmd, arg);
			return -1;
		}
		cfg->keep_tasks = (size_t)v;
		return 0;
	case SL_OPT_CPUS:
		free(cfg->cpus.words);
		cfg->cpus.words = NULL;
		if (parse_cpulist(arg, &cfg->cpus.words, &cfg->cpus.nr_words)) {
			error_msg("%s: --cpus: '%s' is not a CPU list (e.g. 0-3,8)", cmd, arg);
			return -1;
		}
		return 0;
	case SL_OPT_PID: {
		const char *p = arg;

		if (!*arg) {	/* --pid= of an unset variable: not "no filter" */
			error_msg("%s: --pid: '' is not a list of pids", cmd);
			return -1;
		}
		while (*p) {
			v = strtol(p, &end, 10);
			if (end == p || v < 0 || v > INT32_MAX || (*end && *end != ',')) {
				error_msg("%s: --pid: '%s' is not a list of pids", cmd, arg);
				return -1;
			}
			cfg->pids = xrealloc(cfg->pids, (cfg->nr_pids + 1) * sizeof(*cfg->pids));
			cfg->pids[cfg->nr_pids++] = (int32_t)v;
			p = *end ? end + 1 : end;
		}
		return 0;
	}
	case SL_OPT_COMM:
		if (!*arg) {
			error_msg("%s: --comm: an empty name", cmd);
			return -1;
		}
		cfg->comms = xrealloc(cfg->comms, (cfg->nr_comms + 1) * sizeof(*cfg->comms));
		cfg->comms[cfg->nr_comms++] = xstrdup(arg);
		return 0;
	case SL_OPT_FROM:
		cfg->from_set = true;
		return time_opt(cmd, "from", arg, &cfg->from_ns, &cfg->from_rel);
	case SL_OPT_TO:
		cfg->to_set = true;
		return time_opt(cmd, "to", arg, &cfg->to_ns, &cfg->to_rel);
	case SL_OPT_READER:
		if (sl_parse_reader_opt(arg, &cfg->read.dat_reader)) {
			error_msg("%s: --reader must be libtracecmd or flyrecord", cmd);
			return -1;
		}
		return 0;
	case SL_OPT_BUFFER:
		cfg->read.dat_buffer = arg;
		return 0;
	case SL_OPT_NO_PAGER:
		sl_no_pager = true;
		return 0;
	case SL_OPT_WORKLOAD:
	case SL_OPT_SYSTEM:
		if (cfg->scope && cfg->scope != (id == SL_OPT_WORKLOAD ? SL_SCOPE_WORKLOAD : SL_SCOPE_SYSTEM)) {
			error_msg("%s: --workload and --system exclude each other", cmd);
			return -1;
		}
		cfg->scope = id == SL_OPT_WORKLOAD ? SL_SCOPE_WORKLOAD : SL_SCOPE_SYSTEM;
		return 0;
	default:
		return -1;
	}
}

/* After getopt rejected argv[optind - 1]: name the option it was probably meant to be. */
static void suggest_option(char **argv, const struct option *long_opts)
{
	const char *arg = argv[optind - 1], *eq;
	const char *names[128];
	char word[128];
	size_t nr = 0, len;

	if (!arg || strncmp(arg, "--", 2) || !arg[2])
		return;
	eq = strchr(arg, '=');
	len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
	if (len >= sizeof(word))
		return;
	memcpy(word, arg + 2, len);
	word[len] = '\0';
	for (const struct option *o = long_opts; o->name && nr < ARRAY_SIZE(names); o++) {
		/* a known option (a missing argument) or an ambiguous prefix: getopt said it all */
		if (!strncmp(o->name, word, len))
			return;
		names[nr++] = o->name;
	}
	const char *best = sl_closest(word, names, nr);

	if (best)
		fprintf(stderr, "%s: did you mean '--%s'?\n", argv[0], best);
}

int sl_getopt(int argc, char **argv, const char *optstring, const struct option *long_opts)
{
	int c = getopt_long(argc, argv, optstring, long_opts, NULL);

	if (c == '?' && optind > 0 && optind <= argc)
		suggest_option(argv, long_opts);
	return c;
}

int sl_trace_operand(const char *cmd, int argc, char **argv, const char *i_path, const char **path)
{
	if (optind < argc && i_path) {
		error_msg("%s: one trace at a time (got '%s' and '%s')", cmd, i_path, argv[optind]);
		return -1;
	}
	*path = optind < argc ? argv[optind++] : i_path ? i_path : "trace.dat";
	if (optind < argc) {
		error_msg("%s: one trace at a time (got '%s' too)", cmd, argv[optind]);
		return -1;
	}
	return 0;
}
