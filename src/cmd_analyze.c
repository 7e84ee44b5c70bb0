// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_analyze.c - schedlint analyze: the report of one trace
 */
#include <cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "options.h"
#include "output.h"
#include "schedlint/analysis.h"
#include "schedlint/report.h"
#include "util.h"

static const char analyze_usage[] =
	"usage: schedlint analyze [options] [TRACE]\n"
	"\n"
	"Reconstruct what every CPU and task did in TRACE (default trace.dat: a\n"
	"trace.dat v6/v7, a tracefs trace file, trace-cmd report or perf script\n"
	"output; '-' reads text from stdin) and report wakeup latency, per-CPU\n"
	"and per-task time, IPIs and the bad scheduler decisions found.\n"
	"\n"
	"Output:\n"
	"  --json                the report as JSON (schema schedlint.report/1)\n"
	"  --color=WHEN          auto (default: on a terminal, unless NO_COLOR), always, never\n"
	"  --top=N               findings and tasks listed in the terminal report (10)\n"
	"\n";

enum { OPT_JSON = 1, OPT_COLOR, OPT_TOP };

static bool want_color(const char *when)
{
	if (!strcmp(when, "always"))
		return true;
	if (!strcmp(when, "never"))
		return false;
	return isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
}

int cmd_analyze(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "json",  no_argument,       NULL, OPT_JSON },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "top",   required_argument, NULL, OPT_TOP },
		{ "help",  no_argument,       NULL, 'h' },
		SL_ANALYSIS_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	struct sl_config cfg;
	struct sl_analysis *an = NULL;
	struct sl_error err = { "" };
	const char *path = "trace.dat", *color = "auto";
	bool json = false;
	int c, top = 10, status = 0;

	sl_config_init(&cfg);
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON:
			json = true;
			break;
		case OPT_COLOR:
			if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never")) {
				error_msg("analyze: --color must be auto, always or never");
				goto usage;
			}
			color = optarg;
			break;
		case OPT_TOP:
			top = atoi(optarg);
			if (top <= 0) {
				error_msg("analyze: --top must be a positive count");
				goto usage;
			}
			break;
		case 'h':
			fputs(analyze_usage, stdout);
			fputs(sl_analysis_options_help, stdout);
			sl_config_free(&cfg);
			return 0;
		default:
			if (c >= SL_OPT_BASE && c < SL_OPT__END) {
				if (sl_config_option(&cfg, c, optarg, "analyze"))
					goto usage;
				break;
			}
			goto usage;
		}
	}
	if (optind < argc)
		path = argv[optind++];
	if (optind < argc) {
		error_msg("analyze: one trace at a time (got '%s' too); see schedlint diff", argv[optind]);
		goto usage;
	}

	if (sl_analysis_run(path, &cfg, NULL, NULL, &an, &err) < 0) {
		error_msg("%s: %s", path, err.msg);
		sl_config_free(&cfg);
		return 2;
	}

	sl_output_begin(stdout);
	if (json) {
		cJSON *root = sl_report_json(an->model, path);
		char *text = cJSON_PrintBuffered(root, 1 << 20, 1);

		fputs(text, stdout);
		fputc('\n', stdout);
		free(text);
		cJSON_Delete(root);
	} else {
		struct sl_report r = {
			.out = stdout, .color = want_color(color), .path = path, .top = top,
		};
		sl_report_text(&r, an->model);
	}
	if (sl_output_end(stdout) < 0)
		status = 2;
	sl_analysis_free(an);
	sl_config_free(&cfg);
	return status;

usage:
	fputs("usage: schedlint analyze [options] [TRACE]   (--help for the options)\n", stderr);
	sl_config_free(&cfg);
	return 2;
}
