// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_explore.c - schedlint explore: the analysis, browsed in the terminal
 *
 * The trace is analyzed once, as analyze does, while a sparse index of it
 * is built (src/tui/trace_window.h); then the screen comes up (src/tui/)
 * and re-reads only the windows it shows.  Everything that can go wrong
 * with the input is found before the terminal is touched: a bad trace
 * gets analyze's one error line and exit status 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "options.h"
#include "tui/tui.h"
#include "util/util.h"

static const char explore_usage[] =
	"usage: schedlint explore [options] [TRACE]\n"
	"\n"
	"Analyze TRACE (default trace.dat: a trace.dat v6/v7, a tracefs trace file,\n"
	"trace-cmd report or perf script output; '-' reads it from stdin) and browse\n"
	"the result in the terminal: an overview, the findings, each finding with a\n"
	"per-CPU timeline around it and its raw events, a timeline of the whole\n"
	"trace and the tasks.  Keyboard only; ? lists the keys, q quits.  Only the\n"
	"windows shown are read again from the trace, so large traces do not have\n"
	"to fit in memory.\n"
	"\n"
	"Display:\n"
	"  --color=WHEN          auto (default: colours unless NO_COLOR is set),\n"
	"                        always, never\n"
	"\n";

enum { OPT_COLOR = 1 };

struct progress {
	struct xp_index *idx;
	const char *name;
	bool show;			/* stderr is a terminal */
	uint64_t next;
};

/* Every event of the analysis: into the index, and a count on stderr for big traces. */
static void on_event(void *data, const struct sl_event *ev)
{
	struct progress *pr = data;

	xp_index_add(pr->idx, ev);
	if (pr->show && pr->idx->events >= pr->next) {
		fprintf(stderr, "\rschedlint: reading %s: %" PRIu64 " events", pr->name, pr->idx->events);
		pr->next += 1 << 20;
	}
}

/*
 * Spool stdin to an unlinked temporary file: explore reads the windows
 * it shows again, and a pipe cannot be read twice.  Returns its fd.
 */
static int spool_stdin(void)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[4096], buf[1 << 16];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/schedlint-explore-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	unlink(path);
	while ((n = read(STDIN_FILENO, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(fd, buf + done, (size_t)(n - done));

			if (w < 0 && errno != EINTR)
				goto fail;
			done += w > 0 ? w : 0;
		}
	}
	return fd;
fail:
	n = -errno;
	close(fd);
	return (int)n;
}

int cmd_explore(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "help",  no_argument,       NULL, 'h' },
		SL_ANALYSIS_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	static const struct xp_panel_ops *const panels[XP_NR_PANELS] = {
		[XP_OVERVIEW] = &xp_overview_ops, [XP_FINDINGS] = &xp_findings_ops,
		[XP_TIMELINE] = &xp_timeline_ops, [XP_TASKS] = &xp_tasks_ops,
		[XP_DETAIL] = &xp_detail_ops, [XP_HELP] = &xp_help_ops,
	};
	struct sl_config cfg;
	struct sl_error err = { "" };
	struct xp x;
	struct progress pr = { 0 };
	const char *path = "trace.dat", *color = "auto";
	char spooled[64];
	int c, ret, spool_fd = -1, status;

	memset(&x, 0, sizeof(x));
	sl_config_init(&cfg);
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_COLOR:
			if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never")) {
				error_msg("explore: --color must be auto, always or never");
				goto usage;
			}
			color = optarg;
			break;
		case 'h':
			fputs(explore_usage, stdout);
			fputs(sl_analysis_options_help, stdout);
			sl_config_free(&cfg);
			return 0;
		default:
			if (c >= SL_OPT_BASE && c < SL_OPT__END) {
				if (sl_config_option(&cfg, c, optarg, "explore"))
					goto usage;
				break;
			}
			goto usage;
		}
	}
	if (optind < argc)
		path = argv[optind++];
	if (optind < argc) {
		error_msg("explore: one trace at a time (got '%s' too)", argv[optind]);
		goto usage;
	}
	x.name = path;
	if (!strcmp(path, "-")) {
		spool_fd = spool_stdin();
		if (spool_fd < 0) {
			error_msg("-: cannot keep stdin in a temporary file: %s", strerror(-spool_fd));
			sl_config_free(&cfg);
			return 2;
		}
		snprintf(spooled, sizeof(spooled), "/dev/fd/%d", spool_fd);
		path = spooled;
		x.name = "stdin";
	}

	xp_index_init(&x.idx);
	pr.idx = &x.idx;
	pr.name = x.name;
	pr.show = isatty(STDERR_FILENO);
	pr.next = 1 << 20;
	ret = sl_analysis_run(path, &cfg, on_event, &pr, &x.an, &err);
	if (pr.show && pr.next > (1 << 20))
		fputs("\r\033[K", stderr);
	if (ret < 0) {
		error_msg("%s: %s", x.name, err.msg);
		goto fail;
	}
	if (!isatty(STDOUT_FILENO)) {
		error_msg("explore: stdout is not a terminal (schedlint analyze writes the report as text)");
		goto fail;
	}
	ret = xp_source_open(&x.src, path, &cfg.read, x.an->strtab);
	if (ret < 0) {
		error_msg("%s: %s", x.name, x.src.err.msg);
		goto fail;
	}

	x.m = x.an->model;
	x.findings = sl_findings_sorted(x.m->findings, &x.nr_findings);
	x.nr_cpus = MAX(x.m->nr_cpus, MAX(x.an->info.ncpus, x.idx.nr_cpus));
	x.nr_cpus = MAX(x.nr_cpus, 1);
	x.first_ts = x.idx.events ? x.idx.first_ts : x.m->first_ts;
	x.last_ts = x.idx.events ? x.idx.last_ts : x.m->last_ts;
	x.color = !strcmp(color, "always") || (!strcmp(color, "auto") && !getenv("NO_COLOR"));
	for (int i = 0; i < XP_NR_PANELS; i++)
		x.panels[i].ops = panels[i];

	status = xp_run(&x);

	xp_source_close(&x.src);
	xp_index_free(&x.idx);
	sl_analysis_free(x.an);
	sl_config_free(&cfg);
	if (spool_fd >= 0)
		close(spool_fd);
	return status;

fail:
	xp_source_close(&x.src);
	xp_index_free(&x.idx);
	sl_analysis_free(x.an);
	sl_config_free(&cfg);
	if (spool_fd >= 0)
		close(spool_fd);
	return 2;
usage:
	fputs("usage: schedlint explore [options] [TRACE]   (--help for the options)\n", stderr);
	sl_config_free(&cfg);
	return 2;
}
