// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_export.c - schedlint export: the analysis for Perfetto's UI, or as rows
 *
 * The trace is analyzed as analyze does (the same options); the export is
 * written to a temporary file beside -o FILE and renamed onto it only when
 * everything went well, so a failed export leaves no partial file.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmds.h"
#include "options.h"
#include "output.h"
#include "report/export.h"
#include "schedlint/analysis.h"
#include "schedlint/findings.h"
#include "util/util.h"

static const char export_usage[] =
	"usage: schedlint export -o FILE [options] [TRACE | -i TRACE]\n"
	"\n"
	"Analyze TRACE (default trace.dat; any input analyze reads; '-', stdin,\n"
	"for a Perfetto trace only) as schedlint analyze does and write it for\n"
	"other tools:\n"
	"  FILE.pftrace, FILE.perfetto-trace\n"
	"                        a Perfetto trace: the per-CPU schedule (every\n"
	"                        sched_switch, sched_waking, sched_wakeup_new,\n"
	"                        migration), the tasks, the kernel release; the\n"
	"                        findings as slices on 'schedlint: KIND' tracks with\n"
	"                        their fields and the dump command, flows waker ->\n"
	"                        wakee, the latency over time as counters. Open it\n"
	"                        in https://ui.perfetto.dev (read in the browser,\n"
	"                        not uploaded)\n"
	"  FILE.ndjson, FILE.jsonl\n"
	"                        one JSON object a line: each wakeup-latency sample,\n"
	"                        each finding, a summary; each with trace_id, host,\n"
	"                        kernel, workload (a directory of them is one table:\n"
	"                        duckdb, jq -s)\n"
	"\n"
	"  -o, --output=FILE     where to write (required)\n"
	"  --format=F            pftrace or ndjson (default: from FILE's extension)\n"
	"  --max-findings=N      the findings kept per kind: 1000 for pftrace, every\n"
	"                        one for ndjson\n"
	"  --window=D            latency over time: windows of D, for pftrace only\n"
	"                        (ndjson has none; default: from the span, 100-250\n"
	"                        windows of 1, 2 or 5 x 10^n)\n"
	"\n";

enum { OPT_FORMAT = 1 };
enum export_format { FMT_NONE, FMT_PFTRACE, FMT_NDJSON };

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static enum export_format format_of(const char *name)
{
	if (!strcmp(name, "pftrace") || !strcmp(name, "perfetto") || !strcmp(name, "perfetto-trace"))
		return FMT_PFTRACE;
	if (!strcmp(name, "ndjson") || !strcmp(name, "jsonl"))
		return FMT_NDJSON;
	return FMT_NONE;
}

static enum export_format format_of_file(const char *path)
{
	if (ends_with(path, ".pftrace") || ends_with(path, ".perfetto-trace"))
		return FMT_PFTRACE;
	if (ends_with(path, ".ndjson") || ends_with(path, ".jsonl"))
		return FMT_NDJSON;
	return FMT_NONE;
}

struct export_run {
	enum export_format format;
	FILE *out;
	struct sl_pftrace *pf;
	struct sl_ndjson *nd;
	const char *trace_id;
};

static int on_start(void *data, struct sl_analysis *an, struct sl_error *err)
{
	struct export_run *x = data;

	if (x->format == FMT_PFTRACE) {
		sl_pftrace_start(x->pf, &an->info, an->strtab);
	} else {
		x->nd = sl_ndjson_new(x->out, x->trace_id);
		sl_ndjson_start(x->nd, an->model);
	}
	return 0;
}

static void on_event(void *data, const struct sl_event *ev)
{
	struct export_run *x = data;

	if (x->pf)
		sl_pftrace_event(x->pf, ev);
}

int cmd_export(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help",   no_argument,       NULL, 'h' },
		SL_ANALYSIS_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	struct sl_config cfg;
	struct sl_analysis *an = NULL;
	struct sl_error err = { "" };
	struct export_run x = { 0 };
	const char *path = NULL, *i_path = NULL, *out_path = NULL;
	char trace_id[64] = "";
	struct sl_whole whole = { 0 };
	bool max_given = false, window_given = false;
	int c, status = 2;

	sl_config_init(&cfg);
	optind = 1;
	while ((c = sl_getopt(argc, argv, "hi:o:", long_opts)) != -1) {
		switch (c) {
		case 'o':
			out_path = optarg;
			break;
		case OPT_FORMAT:
			x.format = format_of(optarg);
			if (!x.format) {
				error_msg("export: --format '%s': pftrace or ndjson", optarg);
				goto usage;
			}
			break;
		case 'i':
			if (i_path) {
				error_msg("export: one trace at a time (got '%s' and '%s')", i_path, optarg);
				goto usage;
			}
			i_path = optarg;
			break;
		case 'h':
			fputs(export_usage, stdout);
			/* said above in export's words: its defaults differ by format */
			sl_analysis_options_help_print(stdout,
						       (const char *const[]){ "max-findings", "window", NULL });
			sl_config_free(&cfg);
			return 0;
		default:
			if (c >= SL_OPT_BASE && c < SL_OPT__END) {
				if (sl_config_option(&cfg, c, optarg, "export"))
					goto usage;
				if (c == SL_OPT_MAX_FINDINGS)
					max_given = true;
				if (c == SL_OPT_WINDOW)
					window_given = true;
				break;
			}
			goto usage;
		}
	}
	if (sl_trace_operand("export", argc, argv, i_path, &path))
		goto usage;
	if (!out_path) {
		error_msg("export: -o FILE says where to write (FILE.pftrace or FILE.ndjson)");
		goto usage;
	}
	if (!x.format)
		x.format = format_of_file(out_path);
	if (!x.format) {
		error_msg("export: %s: which format? name it .pftrace or .ndjson, or give --format",
			  out_path);
		goto usage;
	}
	/* another name or a link of the trace itself: the export would replace it */
	if (sl_output_is_input(out_path, &path, 1) == 0) {
		error_msg("export: -o %s is the trace being exported: it would be written over",
			  out_path);
		goto usage;
	}
	if (!strcmp(path, "-") && x.format == FMT_NDJSON) {
		error_msg("export: NDJSON needs the trace in a file, not stdin (its trace_id is a hash "
			  "of the file's bytes)");
		goto usage;
	}
	if (x.format == FMT_NDJSON && window_given) {
		error_msg("export: --window shapes the Perfetto trace's latency counters; NDJSON "
			  "has none");
		goto usage;
	}
	/* rows of every finding (summary counts = rows), unless the user says fewer */
	if (x.format == FMT_NDJSON && !max_given)
		cfg.max_findings = SL_FINDINGS_ALL;

	if (x.format == FMT_NDJSON) {
		if (sl_ndjson_trace_id(path, trace_id, sizeof(trace_id), &err) < 0) {
			error_msg("%s: %s", path, err.msg);
			sl_config_free(&cfg);
			return 2;
		}
		x.trace_id = trace_id;
	}

	/* a temporary file beside FILE, renamed onto it when all went well */
	if (sl_whole_open(&whole, out_path))
		goto out;
	x.out = whole.f;
	if (x.format == FMT_PFTRACE)
		x.pf = sl_pftrace_new(x.out, &cfg);

	if (sl_analysis_run_start(path, &cfg, on_start, on_event, &x, &an, &err) < 0) {
		error_msg("%s: %s", path, err.msg);
		goto out;
	}
	if (x.pf)
		sl_pftrace_finish(x.pf, an->model, path);
	else
		sl_ndjson_finish(x.nd, an->model, path);
	x.out = NULL;
	if (sl_whole_commit(&whole))
		goto out;
	status = 0;
out:
	sl_whole_abort(&whole);
	sl_pftrace_free(x.pf);
	sl_ndjson_free(x.nd);
	sl_analysis_free(an);
	sl_config_free(&cfg);
	return status;

usage:
	fputs("usage: schedlint export -o FILE [options] [TRACE]   (--help for the options)\n", stderr);
	sl_config_free(&cfg);
	return 2;
}
