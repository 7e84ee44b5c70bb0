// SPDX-License-Identifier: GPL-2.0
/*
 * pager.c - page the report on a terminal (see pager.h)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pager.h"
#include "util/util.h"

bool sl_no_pager;
static pid_t pager_pid = -1;

int sl_term_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;

	if (env && *env) {
		char *end;
		long v = strtol(env, &end, 10);

		if (!*end && v > 0 && v < 100000)
			return (int)v;
	}
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	return 80;
}

/*
 * Can cmd's program be run?  Its first word looked up as the shell would
 * (a path, else $PATH); a command the shell must work out (quotes,
 * variables, pipes) is taken as it is.  A PAGER that cannot be run left
 * only the shell's "not found", the report lost and exit 0 (issue 32, 08).
 */
static bool pager_runnable(const char *cmd)
{
	size_t len = strcspn(cmd, " \t");
	char prog[4096], path[8192];
	const char *dirs = getenv("PATH");

	if (len >= sizeof(prog) || cmd[strcspn(cmd, "|&;<>()$`\\\"'*?[#~=%{}")])
		return true;
	memcpy(prog, cmd, len);
	prog[len] = '\0';
	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	for (const char *d = dirs ? dirs : "/usr/bin:/bin"; ; d += strcspn(d, ":") + 1) {
		size_t n = strcspn(d, ":");

		if (snprintf(path, sizeof(path), "%.*s/%s", (int)n, n ? d : ".", prog) <
		    (int)sizeof(path) && !access(path, X_OK))
			return true;
		if (!d[n])
			return false;
	}
}

/* The pager command, or NULL for none. */
static const char *pager_command(void)
{
	const char *term = getenv("TERM");
	const char *cmd = getenv("SCHEDLINT_PAGER");

	if (!cmd)
		cmd = getenv("PAGER");
	if (!cmd) {
		/* a dumb terminal cannot run less; a pager named for it can run */
		if (term && !strcmp(term, "dumb"))
			return NULL;
		cmd = "less -FRX";
	}
	if (!*cmd || !strcmp(cmd, "cat"))
		return NULL;
	if (!pager_runnable(cmd)) {
		/* as man does: the report to the terminal, and a word why */
		fprintf(stderr, "schedlint: cannot run the pager '%s' (not found): the report "
			"is written to the terminal\n", cmd);
		return NULL;
	}
	return cmd;
}

void sl_pager_start(void)
{
	const char *cmd;
	int fds[2];
	pid_t pid;

	if (sl_no_pager || pager_pid >= 0 || !isatty(STDOUT_FILENO))
		return;
	cmd = pager_command();
	if (!cmd || pipe(fds))
		return;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (!pid) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		/* lv, like git: keep the colors */
		setenv("LV", "-c", 0);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		fprintf(stderr, "schedlint: cannot run the pager '%s': %s\n", cmd, strerror(errno));
		_exit(127);
	}
	dup2(fds[1], STDOUT_FILENO);
	close(fds[0]);
	close(fds[1]);
	pager_pid = pid;
	/*
	 * ^C is for the pager (less keeps running on it): were we to die on
	 * it, the shell would take the terminal back under the pager's feet.
	 * Quitting the pager closes the pipe: the writes fail, and the
	 * command ends.
	 */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	/* quitting the pager early is reading less, not an error: EPIPE, not death */
	signal(SIGPIPE, SIG_IGN);
}

bool sl_pager_active(void)
{
	return pager_pid >= 0;
}

void sl_pager_finish(void)
{
	int status;

	if (pager_pid < 0)
		return;
	fflush(stdout);
	close(STDOUT_FILENO);
	while (waitpid(pager_pid, &status, 0) < 0 && errno == EINTR)
		;
	pager_pid = -1;
}
