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
#include "util/util.h"

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

/* one set of fields, as a finding's are written (schedlint/report.h) */
static void some_fields(struct sl_fields *o, const char *str)
{
	static const int32_t ints[] = { 3, -1, INT32_MIN, INT32_MAX, 0 };

	sl_fields_str(o, "kind", "late-preemption");
	sl_fields_u64(o, "max", UINT64_MAX);
	sl_fields_i64(o, "min", INT64_MIN);
	sl_fields_str(o, "comm", str);
	sl_fields_str(o, "none", NULL);		/* no member, as cJSON */
	sl_fields_ints(o, "cpus", ints, 5);
	sl_fields_ints(o, "empty", ints, 0);
	sl_fields_bool(o, "yes", true);
	sl_fields_object(o, "whatif");
	sl_fields_i64(o, "pid", -7);
	sl_fields_str(o, "s", str);
	sl_fields_object(o, "inner");
	sl_fields_end(o);
	sl_fields_null(o, "n");
	sl_fields_end(o);
	sl_fields_u64_or_null(o, "later", false, 1);
	sl_fields_bool(o, "no", false);
}

/* The text sink writes what cJSON prints of the same fields after sl_json_utf8, byte for byte. */
static void test_fields_text_is_cjson(void **state)
{
	static const char *const strs[] = {
		"", "pipe-a", "q\"b\\s/\b\f\n\r\t\x01\x1f\x7f end", "\xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80",
		"pi\xff\xfe-a", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "ab\xe2\x82", "\x80\"\x80",
	};
	struct sl_fields_text t;

	sl_fields_text_init(&t);
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		cJSON *obj = cJSON_CreateObject();
		struct sl_fields_tree tree;
		char *want;

		sl_fields_tree_init(&tree, obj);
		some_fields(&tree.base, strs[i]);
		sl_json_utf8(obj);
		want = cJSON_PrintUnformatted(obj);

		sl_fields_text_reset(&t, false);
		sl_fields_text_raw(&t, "{", 1);
		some_fields(&t.base, strs[i]);
		sl_fields_text_raw(&t, "}", 1);
		assert_string_equal(t.s, want);
		assert_int_equal(t.len, strlen(want));

		/* after a comma: a row's members after its first ones */
		sl_fields_text_reset(&t, true);
		sl_fields_bool(&t.base, "b", true);
		assert_string_equal(t.s, ",\"b\":true");
		free(want);
		cJSON_Delete(obj);
	}
	sl_fields_text_free(&t);
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

/*
 * A wrapped line never breaks between a number and its unit: "record
 * --live" at 60 columns printed "p99 26.6" and "us" on the next line, the
 * report at 60 "ran 5.12" and "ms," (the unit's punctuation goes with it).
 */
static void test_fit_line_units(void **state)
{
	char *out;

	(void)state;
	/* 33 + " 5.12" = 38 columns fit, " ms," does not: both go down */
	out = fitted("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 5.12 ms, more");
	assert_string_equal(out, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n    5.12 ms, more\n");
	free(out);
	out = fitted("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 200.3 MB");
	assert_string_equal(out, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n    200.3 MB\n");
	free(out);
	/* a word after a number that is not a unit: a break as before */
	out = fitted("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 5 tasks");
	assert_string_equal(out, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 5\n    tasks\n");
	free(out);
	/* "us" after a word that is no number, "usage" after one: no glue */
	out = fitted("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx to us");
	assert_string_equal(out, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx to\n    us\n");
	free(out);
	out = fitted("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 12 usage");
	assert_string_equal(out, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 12\n    usage\n");
	free(out);

	/* the rule itself: where the word at pos ends */
	const char *t = "p99 26.6 us  max 1.3 ms) 4 s. 7 KiB/x 8 MB";

	assert_int_equal(text_word_end(t, 0, strlen(t)), 3);		/* "p99" */
	assert_int_equal(text_word_end(t, 4, strlen(t)), 11);		/* "26.6 us" */
	assert_int_equal(text_word_end(t, 13, strlen(t)), 16);		/* "max" */
	assert_int_equal(text_word_end(t, 17, strlen(t)), 24);		/* "1.3 ms)" */
	assert_int_equal(text_word_end(t, 25, strlen(t)), 29);		/* "4 s." */
	assert_int_equal(text_word_end(t, 30, strlen(t)), 31);		/* "7": "KiB/x" is no unit */
	assert_int_equal(text_word_end(t, 38, strlen(t)), strlen(t));	/* "8 MB" at the end */
	assert_int_equal(text_word_end(t, 38, strlen(t) - 1), strlen(t) - 3);	/* "8 M" is cut: "8" */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intern_control_characters),
		cmocka_unit_test(test_json_utf8),
		cmocka_unit_test(test_fields_text_is_cjson),
		cmocka_unit_test(test_fit_line_glue),
		cmocka_unit_test(test_fit_line_units),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
