// SPDX-License-Identifier: GPL-2.0
/*
 * test_strings.c - trace strings reach terminals and JSON safely
 *
 * A comm is any bytes but NUL to the kernel: the string table stores
 * them without control characters, the JSON report as valid UTF-8.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "schedlint/report.h"
#include "schedlint/strtab.h"

static void test_intern_control_characters(void **state)
{
	struct sl_strtab *st = sl_strtab_new();
	uint32_t esc = sl_intern(st, "e\033[31mvil", 9);
	uint32_t nl = sl_intern(st, "a\nb\x7f\tc", 6);
	uint32_t nul = sl_intern(st, "x\0y", 3);

	assert_string_equal(sl_str(st, esc), "e?[31mvil");
	assert_string_equal(sl_str(st, nl), "a?b??c");
	assert_string_equal(sl_str(st, nul), "x?y");
	/* the raw and the printable spelling are one string */
	assert_int_equal(sl_intern_cstr(st, "e?[31mvil"), esc);
	assert_int_equal(sl_strtab_find(st, "e\033[31mvil", 9), esc);
	/* other bytes are kept as they are: UTF-8 or not */
	assert_string_equal(sl_str(st, sl_intern_cstr(st, "\xc3\xa9t\xc3\xa9")), "\xc3\xa9t\xc3\xa9");
	assert_string_equal(sl_str(st, sl_intern_cstr(st, "pi\xff\xfe")), "pi\xff\xfe");
	sl_strtab_free(st);
}

static void expect_utf8(const char *in, const char *want)
{
	cJSON *root = cJSON_CreateObject();

	cJSON_AddStringToObject(root, in, in);
	sl_json_utf8(root);
	assert_string_equal(root->child->string, want);
	assert_string_equal(root->child->valuestring, want);
	cJSON_Delete(root);
}

#define FFFD "\xef\xbf\xbd"

static void test_json_utf8(void **state)
{
	expect_utf8("pipe-a", "pipe-a");
	expect_utf8("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	expect_utf8("pi\xff\xfe-a", "pi" FFFD FFFD "-a");
	expect_utf8("\xc0\xaf", FFFD FFFD);		/* overlong '/' */
	expect_utf8("\xed\xa0\x80", FFFD FFFD FFFD);	/* a surrogate */
	expect_utf8("\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD);	/* above U+10FFFF */
	expect_utf8("ab\xe2\x82", "ab" FFFD FFFD);	/* cut short */

	/* nested, and printed it parses back */
	cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "tasks");
	cJSON *t = cJSON_CreateObject();

	cJSON_AddStringToObject(t, "comm", "\x80x");
	cJSON_AddItemToArray(arr, t);
	sl_json_utf8(root);
	char *text = cJSON_PrintUnformatted(root);

	assert_string_equal(text, "{\"tasks\":[{\"comm\":\"" FFFD "x\"}]}");
	free(text);
	cJSON_Delete(root);
}

/* sl_fit_line's output for line at width 40, hang 4 */
static char *fitted(const char *line)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	assert_non_null(f);
	sl_fit_line(f, line, 40, 4);
	fclose(f);
	return text;
}

/*
 * SL_GLUE is a space the wrap never breaks at, printed as a space; a comm
 * cannot carry one (the string table makes it '?').
 */
static void test_fit_line_glue(void **state)
{
	struct sl_strtab *st = sl_strtab_new();
	char *out;

	(void)state;
	/* 36 + " on cpu1" = 44 columns: plain, the break falls before cpu1 */
	out = fitted("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx on cpu1");
	assert_string_equal(out, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx on\n    cpu1\n");
	free(out);
	out = fitted("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx on" SL_GLUE "cpu1");
	assert_string_equal(out, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n    on cpu1\n");
	free(out);
	/* a line that fits: the glue is a space all the same */
	out = fitted("max" SL_GLUE "1.33" SL_GLUE "ms");
	assert_string_equal(out, "max 1.33 ms\n");
	free(out);
	assert_string_equal(sl_str(st, sl_intern(st, "a" SL_GLUE "b", 3)), "a?b");
	sl_strtab_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intern_control_characters),
		cmocka_unit_test(test_json_utf8),
		cmocka_unit_test(test_fit_line_glue),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
