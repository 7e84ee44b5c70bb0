// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_diff.c - schedlint diff: two runs side by side, a CI gate on the change
 *
 * Each side is one or more runs; a run is a trace (analyzed here with the
 * same options for every run) or a saved `analyze --json` report, told
 * apart by content.  Both become the same report object before any number
 * is read from it (metrics.c), so a trace and its saved report compare
 * equal.
 */
#include <cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "options.h"
#include "output.h"
#include "report/diff.h"
#include "report/report.h"
#include "report/rules.h"
#include "schedlint/analysis.h"
#include "schedlint/report.h"
#include "util/util.h"

static const char diff_usage[] =
	"usage: schedlint diff [options] BASE NEW\n"
	"       schedlint diff [options] --base RUN... --new RUN...\n"
	"       schedlint diff [options] --variant NAME RUN... --variant NAME RUN...\n"
	"\n"
	"Compare runs the way scheduler patches are argued: each metric's base\n"
	"and new value, the change and the change in percent; fail (exit 1) when a\n"
	"--fail-on rule is crossed.  A run is a trace (any format analyze reads,\n"
	"analyzed with the options below) or a saved 'schedlint analyze --json'\n"
	"report; '-' reads a saved report from stdin.  With several runs per side\n"
	"the table shows each side's median and min-max and the p-value of the\n"
	"two-sided Mann-Whitney U test; a rule that compares the sides fails only\n"
	"when the threshold is crossed AND the change is significant (otherwise:\n"
	"noise).  --variant names each side: metric rows by variant columns, each\n"
	"against the first.\n"
	"\n"
	"Rules (repeatable):\n"
	"  --fail-on=RULE        METRIC>+N%   the relative change is above N%\n"
	"                        METRIC>+N    the change is above N (the metric's unit)\n"
	"                        METRIC>N     the new value is above N\n"
	"                        and '<' for metrics where lower is worse:\n"
	"                          'switches.per_s<-10%'\n"
	"                        durations take units (500us); from a base of 0 any\n"
	"                        increase is +inf%: it crosses every '>' threshold\n"
	"                        METRIC may be a family: 'wakeup.p*', '*.cost_per_s'\n"
	"                        (fails when a member fails); a relative threshold\n"
	"                        may have a floor: 'wakeup.p*>+20%&+250ns'\n"
	"  --fail-on=default     the default gate (also with no --fail-on):\n"
	"                          'wakeup.p*>+35%&+250ns', for each finding kind\n"
	"                          'KIND.cost_per_s>+20%&+1ms/s', 'switches.per_s<-20%'\n"
	"  --fail-on=none        no rules: the table only, exit 0\n"
	"  --list-metrics        list the metrics rules can name, and exit (alone)\n"
	"  --confidence=P        of the test, in percent (default 95)\n"
	"  --allow-unmeasured    a rule on a metric a side did not measure passes as\n"
	"                        'skip' (default: it fails: it cannot be evaluated);\n"
	"                        not with --fail-on=none\n"
	"\n"
	"Output:\n"
	"  --json                the diff as JSON (schema schedlint.diff/1)\n"
	"  --markdown            a Markdown table, for a pull-request comment\n"
	"  --junit=FILE          also write JUnit XML, one test case per rule\n"
	"  --html=FILE           also write the comparison as one self-contained HTML\n"
	"                        page (the distributions overlaid, the table)\n"
	"  --color[=WHEN]        auto (default: on a terminal, unless NO_COLOR or\n"
	"                        TERM=dumb), always (a bare --color), never; the text\n"
	"                        table's: refused with --json or --markdown\n"
	"  --top=N               per-comm rows shown, busiest first (10)\n"
	"  --metric=NAME         only these rows (repeatable; wildcards: 'wakeup.p9*');\n"
	"                        rows a rule names are always shown\n"
	"  --all                 also the rows 0 or not measured in every run\n"
	"\n"
	"Exit status: 0 every rule passed, 1 a rule failed, 2 usage or input error.\n"
	"\n";

enum {
	OPT_JSON = 256, OPT_MARKDOWN, OPT_JUNIT, OPT_COLOR, OPT_TOP, OPT_FAIL_ON,
	OPT_BASE, OPT_NEW, OPT_LIST_METRICS, OPT_VARIANT, OPT_CONFIDENCE,
	OPT_ALLOW_UNMEASURED, OPT_METRIC, OPT_ALL, OPT_HTML,
};

/* A side as given: its name and its runs' paths. */
struct side_args {
	const char *name;
	const char **paths;
	size_t nr;
};

struct diff_args {
	struct side_args *sides;	/* base and new, or the --variant groups */
	size_t nr_sides;
	bool variants;			/* named with --variant */
	const char **pos;		/* BASE NEW */
	size_t nr_pos;
	const char **metrics;		/* --metric */
	size_t nr_metrics;
	struct sl_rule *rules;
	size_t nr_rules;
	bool json, markdown, options_given, allow_unmeasured, all;
	bool color_given;		/* --color: for the text table only */
	bool no_rules;			/* --fail-on none */
	bool default_rules;		/* --fail-on default, or no --fail-on at all */
	bool implicit_default;		/* ... the latter */
	const char *junit, *color, *html;
	double confidence;
	int top;
};

static void push_path(const char ***arr, size_t *nr, const char *path)
{
	*arr = xrealloc(*arr, (*nr + 1) * sizeof(**arr));
	(*arr)[(*nr)++] = path;
}

/* The side named name, created on first use (--base, --new, --variant NAME). */
static struct side_args *side_named(struct diff_args *a, const char *name)
{
	for (size_t i = 0; i < a->nr_sides; i++)
		if (!strcmp(a->sides[i].name, name))
			return &a->sides[i];
	a->sides = xrealloc(a->sides, (a->nr_sides + 1) * sizeof(*a->sides));
	a->sides[a->nr_sides] = (struct side_args){ .name = name };
	return &a->sides[a->nr_sides++];
}

/* --- loading a run --- */

static char *slurp(FILE *f, size_t *len)
{
	size_t alloc = 1 << 16, n = 0, got;
	char *buf = xmalloc(alloc + 1);

	while ((got = fread(buf + n, 1, alloc - n, f)) > 0) {
		n += got;
		if (n == alloc) {
			alloc *= 2;
			buf = xrealloc(buf, alloc + 1);
		}
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

/* A report is JSON: an object, maybe after a BOM and white space.  No trace starts with '{'. */
static bool looks_like_json(const char *buf, size_t len)
{
	size_t i = 0;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && strchr(" \t\r\n", buf[i]))
		i++;
	return i < len && buf[i] == '{';
}

static int line_of(const char *buf, const char *at)
{
	int line = 1;

	for (const char *p = buf; p < at && *p; p++)
		line += *p == '\n';
	return line;
}

static int load_report(const char *path, const char *buf, size_t len, struct sl_diff_run *run)
{
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(buf, len, &end, false);
	char err[256];
	int ret;

	if (!root) {
		error_msg("%s: not valid JSON (line %d): not a schedlint report", path,
			  line_of(buf, end ? end : buf));
		return -1;
	}
	while (end && end < buf + len && strchr(" \t\r\n", *end))
		end++;
	if (end && end < buf + len) {
		error_msg("%s: not valid JSON (line %d: more after the object): not a schedlint report",
			  path, line_of(buf, end));
		cJSON_Delete(root);
		return -1;
	}
	ret = sl_metrics_from_report(root, &run->metrics, err, sizeof(err));
	cJSON_Delete(root);
	if (ret) {
		error_msg("%s: %s", path, err);
		return -1;
	}
	run->saved = true;
	return 0;
}

/* A trace whose workload filtered its report (the diff says so with the table). */
static const char *workload_trace;
static char workload_what[300];

static int load_trace(const char *path, const struct sl_config *cfg, struct sl_diff_run *run)
{
	struct sl_analysis *an;
	struct sl_error err = { "" };
	char msg[256];
	cJSON *root;
	int ret;
	struct sl_config any_name = *cfg;

	any_name.comm_any_name = true;	/* --comm: any name a task had, as analyze */
	cfg = &any_name;
	if (sl_analysis_run(path, cfg, NULL, NULL, &an, &err) < 0) {
		error_msg("%s: %s", path, err.msg);
		return -1;
	}
	if (an->model->cfg->workload_active && !workload_trace) {
		workload_trace = run->path;
		snprintf(workload_what, sizeof(workload_what), "pid %d (%.60s)",
			 an->model->workload_pid, an->model->workload_cmd);
	}
	/* the very object analyze --json prints: a saved report gives the same metrics */
	root = sl_report_json(an->model, path);
	sl_analysis_free(an);
	ret = sl_metrics_from_report(root, &run->metrics, msg, sizeof(msg));
	cJSON_Delete(root);
	if (ret) {
		error_msg("%s: %s", path, msg);
		return -1;
	}
	return 0;
}

static int load_run(const char *path, const struct sl_config *cfg, struct sl_diff_run *run)
{
	char head[512];
	size_t n, len;
	char *buf;
	FILE *f;
	int ret;

	run->path = xstrdup(path);
	if (!strcmp(path, "-")) {
		buf = slurp(stdin, &len);
		if (!looks_like_json(buf, len)) {
			error_msg("-: standard input holds no saved report; diff reads traces "
				  "from files (or a 'schedlint analyze --json' report from stdin)");
			free(buf);
			return -1;
		}
		ret = load_report(path, buf, len, run);
		free(buf);
		return ret;
	}
	f = fopen(path, "rb");
	if (!f)		/* the reader says why, as analyze would */
		return load_trace(path, cfg, run);
	n = fread(head, 1, sizeof(head), f);
	if (!looks_like_json(head, n)) {
		fclose(f);
		return load_trace(path, cfg, run);
	}
	rewind(f);
	buf = slurp(f, &len);
	fclose(f);
	ret = load_report(path, buf, len, run);
	free(buf);
	return ret;
}

static int load_side(struct sl_diff *d, const struct side_args *sa, const struct sl_config *cfg)
{
	struct sl_diff_side *side = sl_diff_add_side(d, sa->name, sa->nr);

	for (size_t i = 0; i < sa->nr; i++) {
		side->nr = i + 1;	/* what sl_diff_free() frees */
		if (load_run(sa->paths[i], cfg, &side->runs[i]))
			return -1;
	}
	return 0;
}

/* --- options --- */

/*
 * --junit=FILE names the file to write; "--junit base.dat new.dat" reads
 * as a flag and two runs, and would write the JUnit file over the base
 * run.  A name of a trace or report that exists and holds no XML is
 * refused before anything is opened (an XML file is an earlier JUnit
 * file: written over, as every CI run does).
 */
static int junit_path_check(const char *path)
{
	static const char *const input_suffixes[] = { ".dat", ".data", ".json" };
	size_t len = strlen(path);
	bool input_name = false;
	int lead;

	for (size_t i = 0; i < ARRAY_SIZE(input_suffixes); i++) {
		size_t sl = strlen(input_suffixes[i]);

		input_name |= len > sl && !strcmp(path + len - sl, input_suffixes[i]);
	}
	if (!input_name)
		return 0;
	lead = sl_output_lead_byte(path);
	if (!lead || lead == '<')
		return 0;
	error_msg("diff: --junit=%s: %s is %s, not a JUnit file: --junit=FILE names the "
		  "file to write, and it would be written over (give the JUnit file "
		  "another name)", path, path,
		  lead == '{' ? "a saved report" : "a trace");
	return -1;
}

static int parse_args(int argc, char **argv, struct diff_args *a, struct sl_config *cfg)
{
	static const struct option long_opts[] = {
		{ "json",         no_argument,       NULL, OPT_JSON },
		{ "markdown",     no_argument,       NULL, OPT_MARKDOWN },
		{ "junit",        required_argument, NULL, OPT_JUNIT },
		{ "html",         required_argument, NULL, OPT_HTML },
		{ "color",        optional_argument, NULL, OPT_COLOR },
		{ "top",          required_argument, NULL, OPT_TOP },
		{ "fail-on",      required_argument, NULL, OPT_FAIL_ON },
		{ "base",         no_argument,       NULL, OPT_BASE },
		{ "new",          no_argument,       NULL, OPT_NEW },
		{ "list-metrics", no_argument,       NULL, OPT_LIST_METRICS },
		{ "variant",      required_argument, NULL, OPT_VARIANT },
		{ "confidence",   required_argument, NULL, OPT_CONFIDENCE },
		{ "allow-unmeasured", no_argument,   NULL, OPT_ALLOW_UNMEASURED },
		{ "metric",       required_argument, NULL, OPT_METRIC },
		{ "all",          no_argument,       NULL, OPT_ALL },
		{ "help",         no_argument,       NULL, 'h' },
		SL_ANALYSIS_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	/* where the next plain argument goes: after --base, --new or --variant, that side */
	struct side_args *to = NULL;
	bool named = false;	/* --base/--new given */
	bool list_metrics = false;
	char err[512];
	int c;

	optind = 0;
	/* '-' first: plain arguments come back in order, so --base A B --new C D works */
	while ((c = sl_getopt(argc, argv, "-h", long_opts)) != -1) {
		if (c != 1 && c != OPT_BASE && c != OPT_NEW && c != OPT_VARIANT)
			to = NULL;	/* any other option ends a run list */
		switch (c) {
		case 1:
			if (to)
				push_path(&to->paths, &to->nr, optarg);
			else
				push_path(&a->pos, &a->nr_pos, optarg);
			break;
		case OPT_BASE:
		case OPT_NEW:
			to = side_named(a, c == OPT_BASE ? "base" : "new");
			named = true;
			break;
		case OPT_VARIANT:
			if (!*optarg || strpbrk(optarg, " \t\n") || !strcmp(optarg, "-")) {
				error_msg("diff: --variant '%s': a variant's name is one word "
					  "(--variant NAME RUN...)", optarg);
				return -1;
			}
			for (size_t i = 0; i < a->nr_sides; i++) {
				if (!strcmp(a->sides[i].name, optarg)) {
					error_msg("diff: --variant %s given twice: list a variant's runs "
						  "after one --variant", optarg);
					return -1;
				}
			}
			to = side_named(a, optarg);
			a->variants = true;
			break;
		case OPT_CONFIDENCE: {
			char *end;
			double v = strtod(optarg, &end);

			if (end != optarg && *end == '%')
				end++;
			if (end == optarg || *end || !(v >= 50 && v < 100)) {
				error_msg("diff: --confidence '%s': a percentage from 50 to 99.99 "
					  "(e.g. 95)", optarg);
				return -1;
			}
			a->confidence = v / 100;
			break;
		}
		case OPT_ALLOW_UNMEASURED:
			a->allow_unmeasured = true;
			break;
		case OPT_METRIC:
			push_path(&a->metrics, &a->nr_metrics, optarg);
			break;
		case OPT_ALL:
			a->all = true;
			break;
		case OPT_JSON:
			a->json = true;
			break;
		case OPT_MARKDOWN:
			a->markdown = true;
			break;
		case OPT_JUNIT:
			if (!*optarg || !strcmp(optarg, "-")) {
				error_msg("diff: --junit needs a file name");
				return -1;
			}
			if (junit_path_check(optarg))
				return -1;
			a->junit = optarg;
			break;
		case OPT_HTML:
			if (!*optarg || !strcmp(optarg, "-")) {
				error_msg("diff: --html needs a file name");
				return -1;
			}
			if (sl_html_path_check("diff", optarg))
				return -1;
			a->html = optarg;
			break;
		case OPT_COLOR:
			if (sl_parse_color("diff", optarg, &a->color))
				return -1;
			a->color_given = true;
			break;
		case OPT_TOP: {
			char *end;
			long v = strtol(optarg, &end, 10);

			if (end == optarg || *end || v < 0 || v > 1000000) {
				error_msg("diff: --top must be a count");
				return -1;
			}
			a->top = (int)v;
			break;
		}
		case OPT_FAIL_ON:
			if (!strcmp(optarg, "none")) {
				a->no_rules = true;	/* the table only: nothing can fail */
				break;
			}
			if (!strcmp(optarg, "default")) {
				a->default_rules = true;
				break;
			}
			a->rules = xrealloc(a->rules, (a->nr_rules + 1) * sizeof(*a->rules));
			if (sl_rule_parse(optarg, &a->rules[a->nr_rules], err, sizeof(err))) {
				error_msg("diff: %s", err);
				return -1;
			}
			a->nr_rules++;
			break;
		case OPT_LIST_METRICS:
			list_metrics = true;	/* once the rest is known good */
			break;
		case 'h':
			sl_output_begin(stdout);	/* one write: its error is the disk's */
			fputs(diff_usage, stdout);
			/* --window is refused here: its windows are no metric */
			sl_analysis_options_help_print(stdout, (const char *const[]){ "window", NULL });
			fputc('\n', stdout);
			sl_metrics_list(stdout);
			return 1;
		case '?':	/* getopt said why on stderr */
			return -1;
		default:
			if (c >= SL_OPT_BASE && c < SL_OPT__END) {
				/* the windows are no metric: it would change nothing */
				if (c == SL_OPT_WINDOW) {
					error_msg("diff: --window shapes analyze's latency over time; "
						  "diff's metrics have none");
					return -1;
				}
				if (sl_config_option(cfg, c, optarg, "diff"))
					return -1;
				a->options_given = true;
				break;
			}
			return -1;
		}
	}
	/* after "--": the rest are runs, for the side being listed */
	for (; optind < argc; optind++) {
		if (to)
			push_path(&to->paths, &to->nr, argv[optind]);
		else
			push_path(&a->pos, &a->nr_pos, argv[optind]);
	}

	if (list_metrics) {
		/* it reads no run: a run or an option beside it would be ignored */
		for (int i = 1; i < argc; i++) {
			size_t len = strlen(argv[i]);

			/* getopt takes an unambiguous prefix: --list, --no-p */
			if (len < 3 || (strncmp(argv[i], "--list-metrics", len) &&
					strncmp(argv[i], "--no-pager", len))) {
				error_msg("diff: --list-metrics takes no %s (got '%s')",
					  argv[i][0] == '-' && argv[i][1] ? "other options" : "runs",
					  argv[i]);
				return -1;
			}
		}
		sl_metrics_list(stdout);
		return 1;
	}
	if (a->color_given && (a->json || a->markdown)) {
		error_msg("diff: --color shapes the text table, not %s's",
			  a->json ? "--json" : "--markdown");
		return -1;
	}
	if (a->no_rules && (a->nr_rules || a->default_rules)) {
		error_msg("diff: --fail-on none and a rule ('%s'): which is it?",
			  a->nr_rules ? a->rules[0].text : "default");
		return -1;
	}
	if (a->no_rules && a->allow_unmeasured) {
		error_msg("diff: --allow-unmeasured applies to --fail-on rules, and --fail-on none "
			  "gives none");
		return -1;
	}
	if (!a->no_rules && !a->nr_rules && !a->default_rules)
		a->default_rules = a->implicit_default = true;
	if (a->default_rules) {
		/* the default gate, after the rules given with it */
		for (const char *const *t = sl_default_rules(); *t; t++) {
			a->rules = xrealloc(a->rules, (a->nr_rules + 1) * sizeof(*a->rules));
			if (sl_rule_parse(*t, &a->rules[a->nr_rules], err, sizeof(err))) {
				error_msg("diff: the default gate: %s", err);	/* a bug */
				return -1;
			}
			a->rules[a->nr_rules++].from_default = true;
		}
	}
	if (a->json && a->markdown) {
		error_msg("diff: --json or --markdown, not both");
		return -1;
	}
	if (a->variants) {
		if (named) {
			error_msg("diff: --variant or --base/--new, not both");
			return -1;
		}
		if (a->nr_pos) {
			error_msg("diff: '%s': with --variant, every run follows one", a->pos[0]);
			return -1;
		}
		if (a->nr_sides < 2) {
			error_msg("diff: two variants at least are needed (--variant NAME RUN... "
				  "--variant NAME RUN...)");
			return -1;
		}
		for (size_t i = 0; i < a->nr_sides; i++) {
			if (!a->sides[i].nr) {
				error_msg("diff: --variant %s has no runs", a->sides[i].name);
				return -1;
			}
		}
	} else if (named) {
		side_named(a, "base");
		side_named(a, "new");	/* both exist now: no more reallocation */
		if (a->nr_pos) {
			error_msg("diff: '%s': with --base/--new, every run follows one of them", a->pos[0]);
			return -1;
		}
		if (strcmp(a->sides[0].name, "base")) {	/* --new given first */
			struct side_args tmp = a->sides[0];

			a->sides[0] = a->sides[1];
			a->sides[1] = tmp;
		}
		if (!a->sides[0].nr || !a->sides[1].nr) {
			error_msg("diff: runs for both sides are needed (--base RUN... --new RUN...)");
			return -1;
		}
	} else if (a->nr_pos != 2) {
		error_msg("diff: two runs are needed, BASE and NEW (got %zu)", a->nr_pos);
		return -1;
	} else {
		side_named(a, "base");
		side_named(a, "new");
		push_path(&a->sides[0].paths, &a->sides[0].nr, a->pos[0]);
		push_path(&a->sides[1].paths, &a->sides[1].nr, a->pos[1]);
	}
	{
		size_t stdin_runs = 0;

		for (size_t s = 0; s < a->nr_sides; s++)
			for (size_t i = 0; i < a->sides[s].nr; i++)
				stdin_runs += !strcmp(a->sides[s].paths[i], "-");
		if (stdin_runs > 1) {
			error_msg("diff: standard input ('-') can hold one run only");
			return -1;
		}
	}
	for (size_t s = 0; a->html && s < a->nr_sides; s++) {
		long i = sl_output_is_input(a->html, a->sides[s].paths, a->sides[s].nr);

		if (i >= 0) {
			error_msg("diff: --html=%s is the run %s of this diff: it would be "
				  "written over before it is read", a->html,
				  !strcmp(a->sides[s].paths[i], "-") ? "on standard input" :
				  a->sides[s].paths[i]);
			return -1;
		}
	}
	for (size_t s = 0; a->junit && s < a->nr_sides; s++) {
		long i = sl_output_is_input(a->junit, a->sides[s].paths, a->sides[s].nr);

		if (i >= 0) {
			error_msg("diff: --junit=%s is the run %s of this diff: it would be "
				  "written over before it is read", a->junit,
				  !strcmp(a->sides[s].paths[i], "-") ? "on standard input" :
				  a->sides[s].paths[i]);
			return -1;
		}
	}
	return 0;
}

static void free_args(struct diff_args *a)
{
	for (size_t i = 0; i < a->nr_rules; i++)
		sl_rule_free(&a->rules[i]);
	free(a->rules);
	for (size_t s = 0; s < a->nr_sides; s++)
		free(a->sides[s].paths);
	free(a->sides);
	free(a->pos);
	free(a->metrics);
}

/*
 * On exit 2 with --junit, once the arguments were good: the reason in a
 * JUnit <error>, so CI does not show "no tests".  A usage error writes no
 * file: which argument is the file is what may have gone wrong.
 */
static void junit_error(const struct diff_args *a)
{
	char err[512];

	if (a->junit && sl_diff_write_junit_error(a->junit, error_msg_last(), err, sizeof(err)))
		error_msg("diff: --junit: %s", err);
}

static void html_diff(FILE *f, const void *d)
{
	sl_diff_print_html(d, f);
}

static void html_error_page(FILE *f, const void *message)
{
	sl_diff_print_html_error(f, message);
}

/* On exit 2 with --html, as with --junit: the page says why. */
static void html_error(const struct diff_args *a)
{
	char message[1024];

	if (!a->html)
		return;
	snprintf(message, sizeof(message), "%s", error_msg_last() ? error_msg_last() : "");
	sl_write_whole(a->html, html_error_page, message);
}

/*
 * On exit 2 with --markdown: the comment says why, so the pull request
 * shows the error, not an empty comment.  Standard output is the comment
 * (> schedlint.md), never one of the runs, so a usage error writes it too
 * once --markdown was read.
 */
static void markdown_error(const struct diff_args *a, const char *message)
{
	if (!a->markdown || a->json)
		return;
	if (!message || !*message)
		message = "a usage error: see standard error";
	sl_output_begin(stdout);
	sl_diff_print_markdown_error(stdout, message);
	sl_output_end(stdout);
}

int cmd_diff(int argc, char **argv)
{
	struct diff_args a = { .color = "auto", .top = 10, .confidence = 0.95 };
	struct sl_diff d = { 0 };
	struct sl_diff_opts opts;
	struct sl_config cfg;
	char err[512];
	int ret, status = 2;
	bool wrote = false;

	sl_config_init(&cfg);
	ret = parse_args(argc, argv, &a, &cfg);
	if (ret) {
		if (ret < 0) {
			fputs("usage: schedlint diff [options] BASE NEW   (--help for the options)\n", stderr);
			markdown_error(&a, error_msg_last());
		}
		free_args(&a);
		sl_config_free(&cfg);
		return ret > 0 ? 0 : 2;
	}

	for (size_t s = 0; s < a.nr_sides; s++)
		if (load_side(&d, &a.sides[s], &cfg))
			goto out;
	opts = (struct sl_diff_opts){
		.top_comms = a.top, .confidence = a.confidence,
		.allow_unmeasured = a.allow_unmeasured, .variants = a.variants,
		.metrics = a.metrics, .nr_metrics = a.nr_metrics, .all = a.all,
	};
	if (sl_diff_build(&d, &opts, err, sizeof(err))) {
		error_msg("diff: %s", err);
		goto out;
	}
	if (a.implicit_default)
		sl_diff_note(&d, "no --fail-on: the default gate (--fail-on default: every wakeup "
			     "percentile, each finding kind's cost per second, switches per second; "
			     "man schedlint-diff, DEFAULT GATE); --fail-on none for the table alone");
	if (workload_trace)
		sl_diff_note(&d, "workload: the traces' metrics are of the command schedlint "
			     "record ran (%s: %s) and its tasks; --system for every task",
			     workload_trace, workload_what);
	for (size_t i = 0; i < a.nr_rules; i++) {
		if (sl_diff_add_rule(&d, &a.rules[i], err, sizeof(err))) {
			error_msg("diff: %s", err);
			goto out;
		}
	}
	if (a.options_given) {
		for (size_t s = 0; s < d.nr_sides; s++) {
			const struct sl_diff_side *side = &d.sides[s];

			for (size_t i = 0; i < side->nr; i++)
				if (side->runs[i].saved)
					sl_diff_note(&d, "%s is a saved report: the analysis options "
						     "apply to traces only", side->runs[i].path);
		}
	}

	wrote = true;	/* from here on standard output is the table's, whatever happens */
	sl_output_begin(stdout);
	if (a.json) {
		cJSON *root = sl_diff_json(&d);
		char *text = cJSON_Print(root);

		fputs(text, stdout);
		fputc('\n', stdout);
		free(text);
		cJSON_Delete(root);
	} else if (a.markdown) {
		sl_diff_print_markdown(&d, stdout);
	} else {
		sl_diff_print_text(&d, stdout, sl_want_color(a.color));
	}
	if (sl_output_end(stdout) < 0)
		goto out;
	if (a.junit && sl_diff_write_junit(&d, a.junit, err, sizeof(err))) {
		error_msg("diff: --junit: %s", err);
		a.junit = NULL;		/* said once: not again by junit_error() */
		goto out;
	}
	if (a.html && sl_write_whole(a.html, html_diff, &d)) {
		a.html = NULL;		/* said once: not again by html_error() */
		goto out;
	}
	status = d.nr_failed ? 1 : 0;
out:
	if (status == 2) {
		junit_error(&a);
		html_error(&a);
		if (!wrote)
			markdown_error(&a, error_msg_last());
	}
	sl_diff_free(&d);
	free_args(&a);
	sl_config_free(&cfg);
	return status;
}
