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
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cmds.h"
#include "options.h"
#include "output.h"
#include "tui/tui.h"
#include "util/util.h"

static const char explore_usage[] =
	"usage: schedlint explore [options] [TRACE | -i TRACE]\n"
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
	"  --color[=WHEN]        auto (default: colours unless NO_COLOR is set and\n"
	"                        not empty), always (a bare --color), never\n"
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
 * A trace on stdin is kept in an unlinked temporary file (explore reads
 * the windows it shows again, and a pipe cannot be read twice), but never
 * blindly: its first block must look like text (not a trace.dat, no NUL
 * byte, a newline), and the rest is copied only as fast as the analysis
 * accepts it.  A thread copies stdin to the file and into a pipe the
 * analysis reads: when the analysis refuses the input it stops reading,
 * and the copy stops with it.  The copy also stops at a NUL byte (text
 * traces have none) and before the file system of $TMPDIR is down to a
 * tenth of its size.
 */
#define SPOOL_CHUNK	(1 << 16)

struct spool {
	int in_fd;			/* stdin */
	int file_fd;			/* the unlinked file: what explore reads again */
	int pipe_fd;			/* the analysis reads the other end */
	const char *dir;
	char head[SPOOL_CHUNK];		/* the first block, read before the thread starts */
	size_t head_len;
	uint64_t written, limit;	/* bytes in the file; the most it may hold */
	char err[160];			/* why the copy stopped early, "" when it did not */
};

/* One block of stdin: into the file, then to the analysis.  false: stop. */
static bool spool_block(struct spool *sp, const char *buf, size_t len)
{
	const char *nul = memchr(buf, '\0', len);

	if (nul) {
		snprintf(sp->err, sizeof(sp->err), "binary data (a NUL byte at offset %" PRIu64
			 "), not a text trace", sp->written + (uint64_t)(nul - buf));
		return false;
	}
	if (sp->written + len > sp->limit) {
		snprintf(sp->err, sizeof(sp->err), "%s would be nearly full after %" PRIu64
			 " MiB of stdin: give explore the trace as a file", sp->dir, sp->written >> 20);
		return false;
	}
	if (write_all(sp->file_fd, buf, len)) {
		snprintf(sp->err, sizeof(sp->err), "cannot keep stdin in %s: %s", sp->dir, strerror(errno));
		return false;
	}
	sp->written += len;
	/* the analysis stopped reading (it refused the input): EPIPE, nothing more to copy */
	return write_all(sp->pipe_fd, buf, len) == 0;
}

static void spool_free(struct spool *sp)
{
	if (!sp)
		return;
	close(sp->file_fd);
	free(sp);
}

static void *spool_thread(void *data)
{
	struct spool *sp = data;
	char *buf = xmalloc(SPOOL_CHUNK);
	sigset_t set;
	ssize_t n;

	/* a closed pipe is EPIPE here, not a SIGPIPE for the whole process */
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (spool_block(sp, sp->head, sp->head_len)) {
		while ((n = read(sp->in_fd, buf, SPOOL_CHUNK)) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				snprintf(sp->err, sizeof(sp->err), "cannot read stdin: %s", strerror(errno));
				break;
			}
			if (!spool_block(sp, buf, (size_t)n))
				break;
		}
	}
	close(sp->pipe_fd);
	free(buf);
	return NULL;
}

/* Read the first block and look at it: 0, or -1 with the reason in sp->err. */
static int spool_check_head(struct spool *sp)
{
	static const char dat_magic[] = "\027\010\104tracing";
	const char *nul;
	ssize_t n;

	while (sp->head_len < sizeof(sp->head)) {
		n = read(sp->in_fd, sp->head + sp->head_len, sizeof(sp->head) - sp->head_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(sp->err, sizeof(sp->err), "cannot read stdin: %s", strerror(errno));
			return -1;
		}
		if (n == 0)
			break;
		sp->head_len += (size_t)n;
	}
	nul = memchr(sp->head, '\0', sp->head_len);
	if (!sp->head_len)
		snprintf(sp->err, sizeof(sp->err), "empty file, not a trace");
	else if (sp->head_len >= 3 && !memcmp(sp->head, dat_magic, 3))
		snprintf(sp->err, sizeof(sp->err), "a trace.dat cannot be read from a pipe: give its file name");
	else if (nul)
		snprintf(sp->err, sizeof(sp->err), "binary data (a NUL byte at offset %zu), not a text trace",
			 (size_t)(nul - sp->head));
	else if (sp->head_len == sizeof(sp->head) && !memchr(sp->head, '\n', sp->head_len))
		snprintf(sp->err, sizeof(sp->err), "no line in the first %d KiB, not a text trace",
			 SPOOL_CHUNK >> 10);
	return sp->err[0] ? -1 : 0;
}

/*
 * Look at stdin, then start copying it: 0 with *analysis_fd (the pipe to
 * analyze), or -1 with the reason in sp->err and nothing started.
 */
static int spool_start(struct spool *sp, int in_fd, pthread_t *thread, int *analysis_fd)
{
	char path[4096];
	struct statvfs fs;
	int fds[2];

	sp->in_fd = in_fd;
	sp->dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	if (spool_check_head(sp))
		return -1;
	snprintf(path, sizeof(path), "%s/schedlint-explore-XXXXXX", sp->dir);
	sp->file_fd = mkstemp(path);
	if (sp->file_fd < 0) {
		snprintf(sp->err, sizeof(sp->err), "cannot keep stdin in %s: %s", sp->dir, strerror(errno));
		return -1;
	}
	unlink(path);
	sp->limit = UINT64_MAX;
	if (fstatvfs(sp->file_fd, &fs) == 0 && fs.f_blocks) {
		uint64_t avail = (uint64_t)fs.f_bavail * fs.f_frsize;
		uint64_t reserve = (uint64_t)fs.f_blocks * fs.f_frsize / 10;

		sp->limit = avail > reserve ? avail - reserve : 0;
	}
	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(sp->err, sizeof(sp->err), "cannot read stdin: %s", strerror(errno));
		close(sp->file_fd);
		return -1;
	}
	sp->pipe_fd = fds[1];
	*analysis_fd = fds[0];
	errno = pthread_create(thread, NULL, spool_thread, sp);
	if (errno) {
		snprintf(sp->err, sizeof(sp->err), "cannot read stdin: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		close(sp->file_fd);
		return -1;
	}
	return 0;
}

int cmd_explore(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "color", optional_argument, NULL, OPT_COLOR },
		{ "help",  no_argument,       NULL, 'h' },
		SL_ANALYSIS_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	struct sl_config cfg;
	struct sl_error err = { "" };
	struct sl_analysis *an = NULL;
	struct xp x;
	struct progress pr = { 0 };
	struct spool *sp = NULL;
	pthread_t spool_tid;
	const char *path = NULL, *i_path = NULL, *color = "auto";
	char spooled[64], analyzed[64];
	int c, ret, analysis_fd = -1, in_fd = -1, status;
	struct stat st;

	memset(&x, 0, sizeof(x));
	sl_config_init(&cfg);
	optind = 1;
	while ((c = sl_getopt(argc, argv, "hi:", long_opts)) != -1) {
		switch (c) {
		case 'i':
			i_path = optarg;
			break;
		case OPT_COLOR:
			if (sl_parse_color("explore", optarg, &color))
				goto usage;
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
	if (sl_trace_operand("explore", argc, argv, i_path, &path))
		goto usage;
	x.name = path;
	/*
	 * stdin, and a FIFO or <(...) named: what cannot be opened and read
	 * again is kept as stdin is (explore opened a FIFO a second time,
	 * its writer gone: blocked for ever; issue 32, 24)
	 */
	if (!strcmp(path, "-"))
		in_fd = STDIN_FILENO;
	else if (!stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		in_fd = -2;
	if (in_fd != -1) {
		/* look before copying: a terminal to show it on, then what comes */
		if (!isatty(STDOUT_FILENO)) {
			error_msg("explore: stdout is not a terminal (schedlint analyze writes the report as text)");
			sl_config_free(&cfg);
			return 2;
		}
		if (in_fd == -2 && (in_fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
			error_msg("%s: cannot open: %s", path, strerror(errno));
			sl_config_free(&cfg);
			return 2;
		}
		sp = xcalloc(1, sizeof(*sp));
		ret = spool_start(sp, in_fd, &spool_tid, &analysis_fd);
		if (ret) {
			error_msg("%s: %s", path, sp->err);
			free(sp);
			if (in_fd != STDIN_FILENO)
				close(in_fd);
			sl_config_free(&cfg);
			return 2;
		}
		snprintf(spooled, sizeof(spooled), "/dev/fd/%d", sp->file_fd);
		snprintf(analyzed, sizeof(analyzed), "/dev/fd/%d", analysis_fd);
		x.name = in_fd == STDIN_FILENO ? "stdin" : path;
		path = spooled;
	}

	xp_config(&cfg);	/* explore's own sample keeper, for the histogram and the tasks */
	xp_index_init(&x.idx);
	pr.idx = &x.idx;
	pr.name = x.name;
	pr.show = isatty(STDERR_FILENO);
	pr.next = 1 << 20;
	ret = sl_analysis_run(sp ? analyzed : path, &cfg, on_event, &pr, &an, &err);
	if (pr.show && pr.next > (1 << 20))
		fputs("\r\033[K", stderr);
	if (sp) {
		/* the copy ends with the analysis: at the end of stdin, or when it stopped reading */
		close(analysis_fd);
		pthread_join(spool_tid, NULL);
		if (in_fd != STDIN_FILENO)
			close(in_fd);
		if (sp->err[0]) {
			error_msg("%s: %s", in_fd == STDIN_FILENO ? "-" : x.name, sp->err);
			goto fail;
		}
	}
	if (ret < 0) {
		error_msg("%s: %s", sp && in_fd == STDIN_FILENO ? "-" : x.name, err.msg);
		goto fail;
	}
	if (!isatty(STDOUT_FILENO)) {
		error_msg("explore: stdout is not a terminal (schedlint analyze writes the report as text)");
		goto fail;
	}
	ret = xp_source_open(&x.src, path, &cfg.read, an->strtab);
	if (ret < 0) {
		error_msg("%s: %s", x.name, x.src.err.msg);
		goto fail;
	}
	xp_init(&x, an);
	x.color = !strcmp(color, "always") || (!strcmp(color, "auto") && sl_color_env_allows());

	status = xp_run(&x);

	xp_source_close(&x.src);
	xp_index_free(&x.idx);
	sl_analysis_free(an);
	sl_config_free(&cfg);
	spool_free(sp);
	return status;

fail:
	xp_source_close(&x.src);
	xp_index_free(&x.idx);
	sl_analysis_free(an);
	sl_config_free(&cfg);
	spool_free(sp);
	return 2;
usage:
	fputs("usage: schedlint explore [options] [TRACE]   (--help for the options)\n", stderr);
	sl_config_free(&cfg);
	return 2;
}
