// SPDX-License-Identifier: GPL-2.0
/*
 * test_read_perf_shrink.c - a perf.data that shrinks while it is read
 *
 * The perf.data reader maps the file; a file truncated (or rewritten in
 * place) under it makes the next access past its new end fault with
 * SIGBUS.  That is bad input, not a crash: one line naming the file,
 * exit status 2, as for a trace.dat (README, "Bad input").
 *
 * Deterministic, no race: a child opens a copy of a recording, reads a
 * few events, truncates the file itself at that point and reads on; the
 * parent checks how it ended and what it said.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "schedlint/reader.h"

static char dir[] = "/tmp/sl-perf-shrink-XXXXXX";
static char path[64], errpath[64];

static void copy_file(const char *from, const char *to)
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
 * the data is gone), 2 with the reader's message if it failed.
 */
static void child(int before, off_t keep)
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
	for (int i = 0; i < before; i++)
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

static void check_shrink(int before, off_t keep)
{
	char msg[1024], want[128];
	int status, fd, lines = 0;
	ssize_t n;
	pid_t pid;

	copy_file("testdata/perf/messaging.data", path);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		child(before, keep);
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

/* cut to nothing after the first event: the next record header faults */
static void test_shrink_to_empty(void **state)
{
	(void)state;
	check_shrink(1, 0);
}

/* cut to its first page after 500 events: the attributes stay, the data goes */
static void test_shrink_to_first_page(void **state)
{
	(void)state;
	check_shrink(500, 4096);
}

/*
 * cut inside a page, halfway: the rest of that page reads as zeros (no
 * fault), a record header of 0 bytes there is the file shrinking too (it
 * said "corrupt perf.data: a record of 0 bytes")
 */
static void test_shrink_inside_a_page(void **state)
{
	(void)state;
	check_shrink(1, 200123);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/shrink.data", dir);
	snprintf(errpath, sizeof(errpath), "%s/err", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	unlink(errpath);
	rmdir(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shrink_to_empty),
		cmocka_unit_test(test_shrink_to_first_page),
		cmocka_unit_test(test_shrink_inside_a_page),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
