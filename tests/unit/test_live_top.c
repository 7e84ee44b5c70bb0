// SPDX-License-Identifier: GPL-2.0
/*
 * test_live_top.c - the block schedlint record --live refreshes
 * (src/cmd/live_top.c)
 *
 * Its lines are wrapped and cut by us to the width (80 columns off a
 * terminal, the last one left empty), so that the next refresh knows how
 * many lines to move up.  Columns are display columns: a UTF-8 character
 * is one column however many bytes it has (sl_display_width), and a cut
 * never splits one.  A command named with UTF-8 arguments
 * (`record --live -- sh -c ... été`) was cut by bytes: half the width
 * and a broken character at the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd/live_top.h"
#include "schedlint/report.h"
#include "util/util.h"
#include "model_fixture.h"

#define ROOM 79		/* 80 columns, the last left empty */
#define INDENT 11	/* continuation lines, under the values */

/*
 * The block drawn for a recording of WHAT, off a terminal; with CMD_OUT,
 * as on one (80 columns: a file has no size) with CMD's output CMD_OUT
 * written to its pty before
 */
static char *draw_after(const char *what, const char *cmd_out)
{
	struct fixture f;
	struct sl_live_top top;
	struct sl_live_status st = { .wall_ns = 500000000, .what = what };
	FILE *out = tmpfile();	/* a file: the frame is written to its fd */
	char *buf;
	long len;

	assert_non_null(out);
	fixture_setup(&f, 2);
	sl_live_top_init(&top, out, cmd_out != NULL);
	if (cmd_out) {
		int cmd_fd = sl_live_top_pty(&top);
		struct pollfd pfd = { .fd = top.pty, .events = POLLIN };

		assert_true(cmd_fd >= 0);
		assert_int_equal(write(cmd_fd, cmd_out, strlen(cmd_out)), (ssize_t)strlen(cmd_out));
		assert_int_equal(poll(&pfd, 1, 5000), 1);	/* readable on our side */
		close(cmd_fd);
	}
	assert_int_equal(sl_live_top_draw(&top, f.m, &st), 0);
	sl_live_top_free(&top);
	fixture_teardown(&f);
	assert_int_equal(fflush(out), 0);
	len = ftell(out);
	assert_true(len > 0);
	buf = xmalloc((size_t)len + 1);
	rewind(out);
	assert_int_equal(fread(buf, 1, (size_t)len, out), (size_t)len);
	buf[len] = '\0';
	assert_int_equal(fclose(out), 0);
	return buf;
}

static char *draw(const char *what)
{
	return draw_after(what, NULL);
}

/* "é" n times */
static char *e_acute(int n)
{
	char *s = xmalloc(2 * (size_t)n + 1);

	for (int i = 0; i < n; i++)
		memcpy(s + 2 * i, "\xc3\xa9", 2);
	s[2 * n] = '\0';
	return s;
}

/* the first line of the block and its continuation lines, each checked */
static void check_lines(const char *block, int want_first, int want_next)
{
	const char *p = block;
	int line = 0;

	/* the first line, then those indented under it */
	while (*p && (line == 0 || !strncmp(p, "           ", INDENT))) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *s = xmalloc(n + 1);
		size_t i = 0;

		memcpy(s, p, n);
		s[n] = '\0';
		/* valid UTF-8 throughout: no character split */
		while (i < n) {
			size_t k = (unsigned char)s[i] < 0x80 ? 1 : sl_utf8_seq((unsigned char *)s + i);

			if (!k)
				fail_msg("line %d: invalid UTF-8 at byte %zu: \"%s\"", line, i, s);
			i += k;
		}
		assert_true(sl_display_width(s) <= ROOM);
		if (line == 0 && want_first >= 0)
			assert_int_equal(sl_display_width(s), want_first);
		if (line == 1 && want_next >= 0)
			assert_int_equal(sl_display_width(s), want_next);
		free(s);
		line++;
		p += n + (nl != NULL);
	}
	assert_true(line >= 2);
}

/* a word wider than the screen is cut at the width, between characters */
static void test_long_utf8_word_cut_by_columns(void **state)
{
	char *word = e_acute(100), what[512], *block;

	(void)state;
	snprintf(what, sizeof(what), "sh -c true %s", word);
	block = draw(what);
	/* "schedlint record --live    0.5 s  sh -c true", then the word alone */
	check_lines(block, (int)strlen("schedlint record --live    0.5 s  sh -c true"), ROOM);
	free(block);
	free(word);
}

/* short UTF-8 words wrap where their columns reach the width, not their bytes */
static void test_utf8_words_wrap_by_columns(void **state)
{
	char *word = e_acute(9), what[1024], *block;
	size_t used = 0;

	(void)state;
	for (int i = 0; i < 20; i++)
		used += (size_t)snprintf(what + used, sizeof(what) - used, "%s%s", i ? " " : "", word);
	block = draw(what);
	/*
	 * "schedlint record --live    0.5 s  " is 34 columns, then words of
	 * 9 and a blank: 4 of them fit (74), a fifth would not (84)
	 */
	check_lines(block, 34 + 4 * 9 + 3, INDENT + 6 * 9 + 5);
	free(block);
	free(word);
}

/*
 * CMD's progress line (rewritten with \r) is shown above the block cut
 * to one line: by columns too
 */
static void test_progress_line_cut_by_columns(void **state)
{
	char *word = e_acute(100), out[512], *block, *nl;
	const char *p;
	size_t i = 0;

	(void)state;
	snprintf(out, sizeof(out), "%s\r", word);
	block = draw_after("sh -c progress", out);
	nl = strchr(block, '\n');
	assert_non_null(nl);
	*nl = '\0';
	if (nl > block && nl[-1] == '\r')
		nl[-1] = '\0';
	/* valid UTF-8, the width less its last column */
	for (p = block; p[i];) {
		size_t k = (unsigned char)p[i] < 0x80 ? 1 : sl_utf8_seq((const unsigned char *)p + i);

		if (!k)
			fail_msg("invalid UTF-8 at byte %zu: \"%s\"", i, p);
		i += k;
	}
	assert_int_equal(sl_display_width(block), ROOM);
	free(block);
	free(word);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_utf8_word_cut_by_columns),
		cmocka_unit_test(test_utf8_words_wrap_by_columns),
		cmocka_unit_test(test_progress_line_cut_by_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
