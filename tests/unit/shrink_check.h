/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shrink_check.h - a file cut while a reader reads it (test_read_dat_shrink.c,
 * test_read_perf_shrink.c).  A child opens the copy at path, reads `before`
 * events, truncates it to `keep` bytes itself (deterministic, no race) and
 * reads on; the parent asks for what `schedlint analyze` must do with such
 * bad input: exit status 2 and one line naming the file, never a SIGBUS.
 * Included after cmocka.h.
 */
#ifndef SCHEDLINT_TEST_SHRINK_CHECK_H
#define SCHEDLINT_TEST_SHRINK_CHECK_H

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "schedlint/reader.h"

static void shrink_copy(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	assert_true(in >= 0 && out >= 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, (size_t)n), n);
	assert_int_equal(n, 0);
	close(in);
	close(out);
}

/*
 * In the child: read `before` events, cut the file to `keep` bytes, read
 * to the end.  Exits 0 if the read ended normally (wrong here: the rest of
 * the data is gone), 2 with the reader's message (in errpath) if it failed.
 */
static void shrink_child(const char *path, const char *errpath, long long before, off_t keep)
{
	struct sl_strtab *st = sl_strtab_new();
	struct sl_error err = { "" };
	struct sl_reader *r;
	struct sl_event ev;
	int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644), ret;

	/* as in schedlint: cmocka's own handler would carry on with its tests */
	signal(SIGBUS, SIG_DFL);
	if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
		_exit(3);
	if (sl_reader_open(path, NULL, st, &r, &err))
		_exit(4);
	for (long long i = 0; i < before; i++)
		if (sl_reader_next(r, &ev) <= 0)
			_exit(5);
	if (truncate(path, keep))
		_exit(6);
	while ((ret = sl_reader_next(r, &ev)) > 0)
		;
	if (!ret)
		_exit(0);
	/* as `schedlint analyze` says it */
	fprintf(stderr, "schedlint: %s: %s\n", path, err.msg);
	_exit(2);
}

/* from copied to path, cut after `before` events to `keep` bytes: exit 2, one line */
static void shrink_check(const char *from, const char *path, const char *errpath,
			 long long before, off_t keep)
{
	char msg[1024], want[128];
	int status, fd, lines = 0;
	ssize_t n;
	pid_t pid;

	shrink_copy(from, path);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		shrink_child(path, errpath, before, keep);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status))
		fail_msg("killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 2)
		fail_msg("exit status %d, not 2 (3-6: the child's own steps failed)",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	fd = open(errpath, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, msg, sizeof(msg) - 1);
	close(fd);
	assert_true(n > 0);
	msg[n] = '\0';
	for (ssize_t i = 0; i < n; i++)
		lines += msg[i] == '\n';
	assert_int_equal(lines, 1);
	snprintf(want, sizeof(want), "schedlint: %s: the file shrank while it was read", path);
	if (strncmp(msg, want, strlen(want)))
		fail_msg("stderr: %s", msg);
}

#endif
