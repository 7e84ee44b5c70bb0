// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - stdout that notices write errors
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "pager.h"
#include "util/util.h"

void sl_output_begin(FILE *f)
{
	/* a large buffer: reports and dumps are written in one go */
	static char buf[1 << 16];

	if (f == stdout)
		setvbuf(f, buf, _IOFBF, sizeof(buf));
}

static int first_errno;		/* sl_output_failed() */

void sl_output_failed(int e)
{
	if (!first_errno)
		first_errno = e;
}

int sl_output_end(FILE *f)
{
	static bool reported;
	int e;

	errno = 0;
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	e = errno ? errno : first_errno ? first_errno : EIO;
	if (f == stdout && sl_pager_active()) {
		/* the user quit the pager (EPIPE): what is left unread is not lost */
		clearerr(f);
		return 0;
	}
	if (e == EPIPE) {
		/*
		 * The reader went away (`| head`) while SIGPIPE was ignored
		 * (inherited): end as the default action would have, quietly.
		 */
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
		return -1;
	}
	if (!reported)
		error_msg("write error on output: %s", strerror(e));
	reported = true;
	return -1;
}

long sl_output_is_input(const char *path, const char *const *inputs, size_t nr)
{
	struct stat out, in;

	if (stat(path, &out))
		return -1;	/* not there: created, no input is it */
	for (size_t i = 0; i < nr; i++) {
		int ret = strcmp(inputs[i], "-") ? stat(inputs[i], &in) : fstat(STDIN_FILENO, &in);

		if (!ret && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
			return (long)i;
	}
	return -1;
}

bool sl_color_env_allows(void)
{
	const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");

	/* no-color.org: set and not empty */
	if (no_color && *no_color)
		return false;
	return !term || strcmp(term, "dumb");
}

bool sl_want_color(const char *when)
{
	if (!when || !strcmp(when, "always"))
		return true;
	if (!strcmp(when, "never"))
		return false;
	return isatty(STDOUT_FILENO) && sl_color_env_allows();
}

int sl_parse_color(const char *cmd, const char *arg, const char **when)
{
	if (arg && strcmp(arg, "auto") && strcmp(arg, "always") && strcmp(arg, "never")) {
		error_msg("%s: --color must be auto, always or never", cmd);
		return -1;
	}
	*when = arg ? arg : "always";
	return 0;
}

int sl_output_lead_byte(const char *path)
{
	char head[64];
	size_t n, at = 0;
	FILE *f = fopen(path, "rb");

	if (!f)
		return 0;
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	while (at < n && strchr(" \t\r\n", head[at]))
		at++;
	return at < n ? (unsigned char)head[at] : 0;
}

int sl_html_path_check(const char *cmd, const char *path)
{
	int lead = sl_output_lead_byte(path);

	if (!lead || lead == '<')
		return 0;
	error_msg("%s: --html=%s: the file exists and is no HTML page: not written over "
		  "(--html=FILE names the page to write)", cmd, path);
	return -1;
}

int sl_whole_open(struct sl_whole *w, const char *path)
{
	size_t len = strlen(path) + 16;
	mode_t mask = umask(0);
	int fd;

	umask(mask);
	w->path = path;
	w->f = NULL;
	w->tmp = xmalloc(len);
	snprintf(w->tmp, len, "%s.tmp.XXXXXX", path);
	fd = mkstemp(w->tmp);
	if (fd < 0 || !(w->f = fdopen(fd, "wb"))) {
		error_msg("%s: cannot write: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(w->tmp);
		}
		free(w->tmp);
		w->tmp = NULL;
		return -1;
	}
	/* mkstemp makes it 0600: give it what a new file gets */
	fchmod(fd, 0666 & ~mask);
	return 0;
}

int sl_whole_commit(struct sl_whole *w)
{
	struct stat st;
	FILE *f = w->f;

	w->f = NULL;
	if (fflush(f) || ferror(f)) {
		error_msg("%s: write error: %s", w->path, strerror(errno ? errno : EIO));
		fclose(f);
		goto fail;
	}
	if (fclose(f)) {
		error_msg("%s: write error: %s", w->path, strerror(errno));
		goto fail;
	}
	if (stat(w->path, &st) == 0 && S_ISDIR(st.st_mode)) {
		error_msg("%s: is a directory", w->path);
		goto fail;
	}
	if (rename(w->tmp, w->path) < 0) {
		error_msg("%s: %s", w->path, strerror(errno));
		goto fail;
	}
	free(w->tmp);
	w->tmp = NULL;
	return 0;
fail:
	sl_whole_abort(w);
	return -1;
}

void sl_whole_abort(struct sl_whole *w)
{
	if (w->f)
		fclose(w->f);
	w->f = NULL;
	if (w->tmp) {
		unlink(w->tmp);
		free(w->tmp);
		w->tmp = NULL;
	}
}

int sl_write_whole(const char *path, void (*fn)(FILE *f, const void *arg), const void *arg)
{
	struct sl_whole w;

	if (sl_whole_open(&w, path))
		return -1;
	fn(w.f, arg);
	return sl_whole_commit(&w);
}
