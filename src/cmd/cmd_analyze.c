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
#include "pager.h"
#include "report/metrics.h"
#include "report/report.h"
#include "report/rules.h"
#include "../../analyzers/timeline.h"
#include "schedlint/analysis.h"
#include "schedlint/report.h"
#include "util/util.h"

static const char analyze_usage[] =
	"usage: schedlint analyze [options] [TRACE | -i TRACE]\n"
	"\n"
	"Reconstruct what every CPU and task did in TRACE (default trace.dat: a\n"
	"trace.dat v6/v7, a perf.data, a tracefs trace file, trace-cmd report or\n"
	"perf script output; '-' reads text, or perf record -o - , from stdin) and\n"
	"report wakeup latency, per-CPU and per-task time, IPIs and the bad\n"
	"scheduler decisions found.\n"
	"\n"
	"Output (a summary screen, then the detail sections; on a terminal\n"
	"through $SCHEDLINT_PAGER, $PAGER or less -FRX, as wide as the terminal):\n"
	"  --brief               the summary screen only\n"
	"  --full                list every task and kept finding, not the --top\n"
	"  --top=N               findings of each kind and tasks listed (10)\n"
	"  --json                the report as JSON (schema schedlint.report/1)\n"
	"  --html=FILE           also the report as one self-contained HTML page with\n"
	"                        plots, written to FILE ('-': stdout, instead of the\n"
	"                        text report)\n"
	"  --color[=WHEN]        auto (default: on a terminal, unless NO_COLOR or\n"
	"                        TERM=dumb), always (a bare --color), never\n"
	"  (--brief, --full, --top and --color are the text report's: refused with\n"
	"  --json or --html=-)\n"
	"\n"
	"CI gate (repeatable; exit 1 when one fails):\n"
	"  --fail-on=RULE        an absolute limit on a metric, e.g. 'wakeup.p99>500us',\n"
	"                        'late-preemption.count>0'; schedlint diff\n"
	"                        --list-metrics lists the metrics (rules on a change\n"
	"                        need schedlint diff)\n"
	"  --allow-unmeasured    a rule on a metric the trace did not measure passes as\n"
	"                        'skip' (default: it fails: it cannot be evaluated);\n"
	"                        only with a --fail-on rule\n"
	"\n";

enum { OPT_JSON = 1, OPT_COLOR, OPT_TOP, OPT_FAIL_ON, OPT_ALLOW_UNMEASURED, OPT_BRIEF, OPT_FULL,
       OPT_HTML };

/*
 * Evaluate the absolute rules on the report object; the results go in
 * res[].  0, or -1 with a message when a rule names a comm the trace
 * does not have (a typo must not pass silently).
 */
static int eval_rules(const char *path, cJSON *root, const struct sl_rule *rules, size_t nr,
		      bool allow_unmeasured, struct sl_rule_result *res, size_t *failed)
{
	struct sl_metrics ms;
	char err[256];

	*failed = 0;
	if (sl_metrics_from_report(root, &ms, err, sizeof(err))) {
		error_msg("%s: %s", path, err);
		return -1;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct sl_metric_value *v = sl_metrics_get(&ms, rules[i].metric);
		struct sl_range range;
		struct sl_compare cmp = { .new = &range, .allow_unmeasured = allow_unmeasured };

		if (!v) {
			error_msg("analyze: --fail-on '%s': no task named '%.*s' with wakeup-latency "
				  "samples in %s", rules[i].text,
				  (int)(strlen(rules[i].metric) - strlen(SL_METRIC_COMM_PREFIX) -
					strlen(SL_METRIC_COMM_SUFFIX)),
				  rules[i].metric + strlen(SL_METRIC_COMM_PREFIX), path);
			sl_metrics_free(&ms);
			return -1;
		}
		sl_range_of(&range, &v->value, &v->valid, 1);
		if (!v->valid)
			range.unmeasured = v->unmeasured;
		sl_rule_eval(&rules[i], &cmp, &res[i]);
		*failed += sl_verdict_failed(res[i].verdict);
	}
	sl_metrics_free(&ms);
	return 0;
}

static void rules_text(struct sl_report *r, const struct sl_rule *rules, size_t nr,
		       const struct sl_rule_result *res, size_t failed)
{
	sl_report_section(r, "Rules");
	for (size_t i = 0; i < nr; i++) {
		bool fail = sl_verdict_failed(res[i].verdict);

		fprintf(r->out, "  %s%-5s%s  %-28s  %s\n",
			sl_color(r, fail ? SL_C_RED : res[i].verdict == SL_VERDICT_SKIP ?
				 SL_C_DIM : SL_C_GREEN),
			fail ? "FAIL" : res[i].verdict == SL_VERDICT_SKIP ? "skip" : "ok",
			sl_color(r, SL_C_RESET), rules[i].text, res[i].why);
	}
	fprintf(r->out, "  %s%zu of %zu rule%s failed%s\n", sl_color(r, failed ? SL_C_RED : SL_C_GREEN),
		failed, nr, nr == 1 ? "" : "s", sl_color(r, SL_C_RESET));
}

struct html_args {
	struct sl_model *m;
	const char *trace;
};

static void html_page(FILE *f, const void *arg)
{
	const struct html_args *h = arg;

	sl_report_html(f, h->m, h->trace);
}

static void free_rules(struct sl_rule *rules, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		sl_rule_free(&rules[i]);
	free(rules);
}

int cmd_analyze(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "json",  no_argument,       NULL, OPT_JSON },
		{ "html",  required_argument, NULL, OPT_HTML },
		{ "color", optional_argument, NULL, OPT_COLOR },
		{ "top",   required_argument, NULL, OPT_TOP },
		{ "brief", no_argument,       NULL, OPT_BRIEF },
		{ "full",  no_argument,       NULL, OPT_FULL },
		{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
		{ "allow-unmeasured", no_argument, NULL, OPT_ALLOW_UNMEASURED },
		{ "help",  no_argument,       NULL, 'h' },
		SL_ANALYSIS_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	struct sl_config cfg;
	struct sl_analysis *an = NULL;
	struct sl_error err = { "" };
	const char *path = NULL, *color = "auto", *html = NULL;
	const struct sl_analyzer_ops **with_timeline = NULL;
	enum sl_report_detail detail = SL_DETAIL_DEFAULT;
	bool json = false;
	int c, top = 10, status = 0;
	const char *text_only = NULL;	/* the last text-report option given */
	struct sl_rule *rules = NULL;
	struct sl_rule_result *results = NULL;
	size_t nr_rules = 0, failed = 0;
	bool allow_unmeasured = false;
	cJSON *root = NULL;
	char err_rule[512];
	struct sl_report report = { 0 };

	sl_config_init(&cfg);
	optind = 1;
	while ((c = sl_getopt(argc, argv, "hi:", long_opts)) != -1) {
		switch (c) {
		case OPT_JSON:
			json = true;
			break;
		case OPT_HTML:
			if (!*optarg) {
				error_msg("analyze: --html needs a file name ('-' for stdout)");
				goto usage;
			}
			html = optarg;
			break;
		case OPT_COLOR:
			if (sl_parse_color("analyze", optarg, &color))
				goto usage;
			text_only = "--color";
			break;
		case OPT_BRIEF:
		case OPT_FULL:
			if (detail != SL_DETAIL_DEFAULT &&
			    detail != (c == OPT_BRIEF ? SL_DETAIL_BRIEF : SL_DETAIL_FULL)) {
				error_msg("analyze: --brief and --full exclude each other");
				goto usage;
			}
			detail = c == OPT_BRIEF ? SL_DETAIL_BRIEF : SL_DETAIL_FULL;
			text_only = c == OPT_BRIEF ? "--brief" : "--full";
			break;
		case 'i':
			/* as trace-cmd report -i and perf report -i take it */
			if (path) {
				error_msg("analyze: one trace at a time (got '%s' and '%s')", path, optarg);
				goto usage;
			}
			path = optarg;
			break;
		case OPT_TOP:
			top = atoi(optarg);
			if (top <= 0) {
				error_msg("analyze: --top must be a positive count");
				goto usage;
			}
			text_only = "--top";
			break;
		case OPT_FAIL_ON:
			rules = xrealloc(rules, (nr_rules + 1) * sizeof(*rules));
			if (sl_rule_parse(optarg, &rules[nr_rules], err_rule, sizeof(err_rule))) {
				error_msg("analyze: %s", err_rule);
				goto usage;
			}
			if (rules[nr_rules].family) {
				error_msg("analyze: --fail-on '%s': a family of metrics is for schedlint "
					  "diff; name one metric here ('wakeup.p99>500us')", optarg);
				nr_rules++;
				goto usage;
			}
			if (sl_rule_needs_base(&rules[nr_rules++])) {
				error_msg("analyze: --fail-on '%s': a change (+N, +N%%) needs two runs: "
					  "use schedlint diff, or an absolute limit here "
					  "('wakeup.p99>500us')", optarg);
				goto usage;
			}
			break;
		case OPT_ALLOW_UNMEASURED:
			allow_unmeasured = true;
			break;
		case 'h':
			sl_output_begin(stdout);	/* one write (> 4 KB): its error is the disk's */
			fputs(analyze_usage, stdout);
			fputs(sl_analysis_options_help, stdout);
			sl_config_free(&cfg);
			free_rules(rules, nr_rules);
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
	if (optind < argc && path) {
		error_msg("analyze: one trace at a time (got '%s' and '%s')", path, argv[optind]);
		goto usage;
	}
	if (optind < argc)
		path = argv[optind++];
	if (optind < argc) {
		error_msg("analyze: one trace at a time (got '%s' too); see schedlint diff", argv[optind]);
		goto usage;
	}
	if (!path)
		path = "trace.dat";
	if (html && json && !strcmp(html, "-")) {
		error_msg("analyze: --json and --html=- both want stdout");
		goto usage;
	}
	if (allow_unmeasured && !nr_rules) {
		error_msg("analyze: --allow-unmeasured applies to --fail-on rules, and none is given");
		goto usage;
	}
	/* the JSON and the HTML page hold everything, uncolored: not silently ignored */
	if (text_only && (json || (html && !strcmp(html, "-")))) {
		error_msg("analyze: %s shapes the text report, not %s's", text_only,
			  json ? "--json" : "--html=-");
		goto usage;
	}
	if (html && strcmp(html, "-") && sl_output_is_input(html, &path, 1) == 0) {
		error_msg("analyze: --html=%s is the trace being analyzed: it would be written over",
			  html);
		goto usage;
	}
	if (html && strcmp(html, "-") && sl_html_path_check("analyze", html))
		goto usage;
	if (html) {
		/* the time plots' windows: an analyzer of their own, only when asked */
		with_timeline = xcalloc((size_t)cfg.nr_analyzers + 1, sizeof(*with_timeline));
		memcpy(with_timeline, cfg.analyzers, (size_t)cfg.nr_analyzers * sizeof(*with_timeline));
		with_timeline[cfg.nr_analyzers] = &sl_timeline_analyzer;
		cfg.analyzers = with_timeline;
		cfg.nr_analyzers++;
	}

	cfg.comm_any_name = true;	/* --comm: any name a task had in the trace */
	if (sl_analysis_run(path, &cfg, NULL, NULL, &an, &err) < 0) {
		error_msg("%s: %s", path, err.msg);
		sl_config_free(&cfg);
		free_rules(rules, nr_rules);
		free(with_timeline);
		return 2;
	}

	/* a tree of the whole report for the rules; else written as it is made */
	if (nr_rules)
		root = sl_report_json(an->model, path);
	if (nr_rules) {
		results = xcalloc(nr_rules, sizeof(*results));
		if (eval_rules(path, root, rules, nr_rules, allow_unmeasured, results, &failed)) {
			status = 2;
			goto out;
		}
	}

	if (html && strcmp(html, "-") &&
	    sl_write_whole(html, html_page, &(struct html_args){ an->model, path })) {
		status = 2;
		goto out;
	}
	if (html && !strcmp(html, "-")) {
		sl_output_begin(stdout);
		sl_report_html(stdout, an->model, path);
		if (sl_output_end(stdout) < 0)
			status = 2;
		else if (failed)
			status = 1;
		goto out;
	}
	if (!json) {
		/* both decided on the terminal itself, before a pager takes stdout */
		report.width = sl_term_width();
		report.color = sl_want_color(color);
		sl_pager_start();
	}
	sl_output_begin(stdout);
	if (json) {
		char *text;

		if (nr_rules) {
			cJSON *arr = cJSON_AddArrayToObject(root, "rules");

			for (size_t i = 0; i < nr_rules; i++)
				cJSON_AddItemToArray(arr, sl_rule_json(&rules[i], &results[i]));
		}
		if (root) {
			text = cJSON_PrintBuffered(root, 1 << 20, 1);
			fputs(text, stdout);
			free(text);
		} else {
			sl_report_json_write(an->model, path, stdout);
		}
		fputc('\n', stdout);
		/* stdout may go to a file: say on stderr what failed the job */
		for (size_t i = 0; i < nr_rules; i++)
			if (sl_verdict_failed(results[i].verdict))
				error_msg("%s: --fail-on '%s' failed: %s", path, rules[i].text,
					  results[i].why);
	} else {
		report.out = stdout;
		report.path = path;
		report.top = top;
		report.detail = detail;
		sl_report_text(&report, an->model);
		if (nr_rules)
			rules_text(&report, rules, nr_rules, results, failed);
	}
	if (sl_output_end(stdout) < 0)
		status = 2;
	else if (failed)
		status = 1;
out:
	cJSON_Delete(root);
	free(results);
	free_rules(rules, nr_rules);
	sl_analysis_free(an);
	sl_config_free(&cfg);
	free(with_timeline);
	return status;

usage:
	fputs("usage: schedlint analyze [options] [TRACE]   (--help for the options)\n", stderr);
	sl_config_free(&cfg);
	free(with_timeline);
	free_rules(rules, nr_rules);
	return 2;
}
