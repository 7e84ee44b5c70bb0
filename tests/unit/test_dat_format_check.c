// SPDX-License-Identifier: GPL-2.0
/*
 * test_dat_format_check.c - event formats libtraceevent would crash on
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "read/dat_format_check.h"

static const char switch_fmt[] =
	"name: sched_switch\n"
	"ID: 372\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:long %s;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:__data_loc char[] name;\toffset:40;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long mask[2] ;\toffset:44;\tsize:16;\tsigned:0;\n"
	"\n"
	"print fmt: \"prev_comm=%%s prev_state=%%s\", REC->prev_comm, "
	"__print_flags(REC->prev_state & 0xff, \"|\", { 0x01, \"S\" }), __get_str(name), REC->mask, REC->common_pid\n";

static int check(const char *state_field)
{
	char text[2048];
	struct sl_error err = { "" };
	int ret;

	snprintf(text, sizeof(text), switch_fmt, state_field);
	ret = sl_dat_format_check(text, strlen(text), &err);
	if (ret)
		assert_non_null(strstr(err.msg, "sched_switch"));
	return ret;
}

static void test_declared_fields_pass(void **state)
{
	assert_int_equal(check("prev_state"), 0);
}

static void test_undeclared_field_fails(void **state)
{
	struct sl_error err = { "" };
	char text[2048];

	assert_int_not_equal(check("prev_stat_"), 0);
	snprintf(text, sizeof(text), switch_fmt, "prev_stat_");
	sl_dat_format_check(text, strlen(text), &err);
	assert_string_equal(err.msg, "corrupt event format sched_switch: it prints "
			    "REC->prev_state, which it does not declare");
}

static void test_edge_cases(void **state)
{
	struct sl_error err = { "" };
	static const char no_print[] = "name: x\nID: 1\nformat:\n\tfield:int a;\n";
	static const char cut[] = "name: x\nformat:\n\tfield:int a;\n\nprint fmt: \"%d\", REC->";
	static const char no_semi[] = "name: x\nformat:\n\tfield:int a\nprint fmt: \"%d\", REC->a";

	assert_int_equal(sl_dat_format_check(no_print, strlen(no_print), &err), 0);
	/* "REC->" with no name at the end: not a declared field */
	assert_int_not_equal(sl_dat_format_check(cut, strlen(cut), &err), 0);
	assert_int_not_equal(sl_dat_format_check(no_semi, strlen(no_semi), &err), 0);
	assert_int_equal(sl_dat_format_check("", 0, &err), 0);
}

/*
 * A byte libtraceevent cannot tokenize in a field declaration: right
 * after a '[' it strcmp()s NULL.  Refused, with or without a print fmt.
 */
static void test_unreadable_byte_in_field(void **state)
{
	struct sl_error err = { "" };
	static const char high[] = "name: sched_wakeup\nformat:\n\tfield:char comm[\x94" "6];\t"
				   "offset:8;\n\nprint fmt: \"%s\", REC->comm\n";
	static const char nul[] = "name: x\nformat:\n\tfield:char comm[\0];\n\nprint fmt: \"\"\n";
	static const char no_print[] = "name: sched_process_exit\nformat:\n\tfield:char comm[\xfe}}";

	assert_int_not_equal(sl_dat_format_check(high, strlen(high), &err), 0);
	assert_string_equal(err.msg, "corrupt event format sched_wakeup: a field declaration "
			    "holds the byte 0x94");
	assert_int_not_equal(sl_dat_format_check(nul, sizeof(nul) - 1, &err), 0);
	assert_non_null(strstr(err.msg, "the byte 0x00"));
	assert_int_not_equal(sl_dat_format_check(no_print, strlen(no_print), &err), 0);
	assert_string_equal(err.msg, "corrupt event format sched_process_exit: a field "
			    "declaration holds the byte 0xfe");
}

/*
 * What may follow a string in the print arguments: the kernel's own
 * ternaries, flag lists and adjacent strings pass; `"". REC->x` (a fuzzed
 * sched_switch on which libtraceevent dereferenced NULL) does not.
 */
static void test_after_a_string(void **state)
{
	struct sl_error err = { "" };
	static const char ok[] = "name: x\nformat:\n\tfield:int a;\n\tfield:int b;\n\n"
		"print fmt: \"%s%s %d\" \"!\", REC->a ? \"R\" : (\"S\"), REC->b ? \"+\"\n : \"\", "
		"__print_flags(REC->a, \"|\", { 1, \"S\" } ), REC->b\n";
	static const char dot[] = "name: x\nformat:\n\tfield:int a;\n\tfield:int b;\n\n"
		"print fmt: \"%s %d\", REC->a ? \"+\" : \"\". REC->b, REC->a\n";
	static const char semi[] = "name: x\nformat:\n\tfield:int a;\n\n"
		"print fmt: \"%s\", \"x\" ; REC->a\n";

	assert_int_equal(sl_dat_format_check(ok, strlen(ok), &err), 0);
	assert_int_not_equal(sl_dat_format_check(dot, strlen(dot), &err), 0);
	assert_string_equal(err.msg, "corrupt event format x: its print fmt has a string "
			    "followed by something else than , ) } : ? or a string");
	assert_int_not_equal(sl_dat_format_check(semi, strlen(semi), &err), 0);
}

/*
 * GNU statement expressions, as xhci-hcd's xhci_urb_giveback prints its
 * transfer type: inside one a string may end a statement or open or close
 * a block; outside, ';' after a string is still refused.
 */
static void test_statement_expression(void **state)
{
	struct sl_error err = { "" };
	static const char xhci[] = "name: x\nformat:\n\tfield:int a;\n\tfield:int type;\n\n"
		"print fmt: \"%d %s %s\", REC->a, ({ char *s; switch (REC->type) { case 0: "
		"s = \"control\"; break; case 3: { s = \"intr\"; break; } default: "
		"s = \"UNKNOWN\"; } s; }), REC->a ? \"in\" : \"out\"\n";
	static const char nested[] = "name: x\nformat:\n\tfield:int a;\n\n"
		"print fmt: \"%s\", ({ const char *k = ({ \"a\"; }); if (REC->a) { k = \"b\"; }"
		" k; })\n";
	static const char after[] = "name: x\nformat:\n\tfield:int a;\n\n"
		"print fmt: \"%s %s\", ({ \"a\"; }), \"b\" ; REC->a\n";
	static const char dot_inside[] = "name: x\nformat:\n\tfield:int a;\n\n"
		"print fmt: \"%s\", ({ char *s; s = \"a\". REC->a; s; })\n";
	char deep[1024] = "name: x\nformat:\n\tfield:int a;\n\nprint fmt: \"%d\", ";

	assert_int_equal(sl_dat_format_check(xhci, strlen(xhci), &err), 0);
	assert_int_equal(sl_dat_format_check(nested, strlen(nested), &err), 0);
	/* the statement expression closed: "b" ; is outside it */
	assert_int_not_equal(sl_dat_format_check(after, strlen(after), &err), 0);
	assert_string_equal(err.msg, "corrupt event format x: its print fmt has a string "
			    "followed by something else than , ) } : ? or a string");
	assert_int_not_equal(sl_dat_format_check(dot_inside, strlen(dot_inside), &err), 0);
	assert_string_equal(err.msg, "corrupt event format x: its print fmt has a string "
			    "followed by something else than , ) } : ? ; { or a string");
	/* more open statement expressions than any kernel writes: refused, not overrun */
	for (int i = 0; i < 20; i++)
		strcat(deep, "({ ");
	strcat(deep, "REC->a");
	for (int i = 0; i < 20; i++)
		strcat(deep, "; })");
	strcat(deep, "\n");
	assert_int_not_equal(sl_dat_format_check(deep, strlen(deep), &err), 0);
	assert_string_equal(err.msg, "corrupt event format x: its print fmt has statement "
			    "expressions nested too deep");
}

/* libtraceevent folds constants with strtoull(base 0): "008" is octal 0 */
static void test_division_by_zero(void **state)
{
	struct sl_error err = { "" };
	char text[256];
	static const char *const zero[] = { "/ 0", "/0x0000", "/008", "% (0)", "/ 00UL" };
	static const char *const fine[] = { "/ 1000", "% 8", "/ 0x10", "/ REC->b" };

	for (size_t i = 0; i < sizeof(zero) / sizeof(zero[0]); i++) {
		snprintf(text, sizeof(text), "name: x\nformat:\n\tfield:int a;\n\tfield:int b;\n\n"
			 "print fmt: \"%%d %%%%\", (REC->a & (0x10 %s | 0x1))\n", zero[i]);
		assert_int_not_equal(sl_dat_format_check(text, strlen(text), &err), 0);
		assert_string_equal(err.msg, "corrupt event format x: its print fmt has a division by zero");
	}
	for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++) {
		snprintf(text, sizeof(text), "name: x\nformat:\n\tfield:int a;\n\tfield:int b;\n\n"
			 "print fmt: \"%%d %%%%\", (REC->a & (0x10 %s | 0x1))\n", fine[i]);
		assert_int_equal(sl_dat_format_check(text, strlen(text), &err), 0);
	}
}

/*
 * The stub of an event counted by name (dat_meta.c's parse_stub(), parsed
 * outside the sandbox): name, ID and the common fields, never the print
 * format.  A format with no blank line after its fields was handed to
 * libtraceevent whole, print format included.
 */
static size_t stub(const char *text)
{
	return sl_dat_format_stub_len(text, strlen(text));
}

static void test_stub_without_print_format(void **state)
{
	static const char head[] =
		"name: foo_entry\n"
		"ID: 1802 \n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;";
	static const char blank[] =
		"name: foo_entry\n"
		"ID: 1802 \n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:int vector;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"vector=%d\", REC->vector\n";
	static const char no_blank[] =
		"name: foo_entry\n"
		"ID: 1802 \n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\tfield:int vector;\toffset:8;\tsize:4;\tsigned:1;\n"
		"print fmt: \"vector=%d\", ((REC->vector))\n"
		"\n";
	/* "field" with blanks before its colon is a field line to libtraceevent too */
	static const char spaced[] =
		"name: foo_entry\nID: 1\nformat:\n field :int a;\toffset:0;\tsize:4;\tsigned:1;\n"
		"print fmt: \"%d\", REC->a";
	(void)state;
	/* as the kernel writes it: up to the blank line after the common fields */
	assert_int_equal(stub(blank), strlen(head));
	/* no blank line: every field line, and not one byte of the print format */
	assert_int_equal(stub(no_blank), (size_t)(strstr(no_blank, "\nprint fmt") - no_blank));
	assert_int_equal(stub(spaced), (size_t)(strstr(spaced, "\nprint fmt") - spaced));
	/* fields to the end of the text (no newline after the last), or none */
	assert_int_equal(stub(head), strlen(head));
	assert_int_equal(stub("name: x\nID: 1\nformat:"), strlen("name: x\nID: 1\nformat:"));
	assert_int_equal(stub("name: x\nID: 1\nformat:\nprint fmt: \"\""),
			 strlen("name: x\nID: 1\nformat:"));
	/* no "format:" line: nothing to give libtraceevent */
	assert_int_equal(stub("name: x\nID: 1\nprint fmt: \"\"\n"), 0);
	assert_int_equal(stub(""), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_declared_fields_pass),
		cmocka_unit_test(test_undeclared_field_fails),
		cmocka_unit_test(test_edge_cases),
		cmocka_unit_test(test_unreadable_byte_in_field),
		cmocka_unit_test(test_after_a_string),
		cmocka_unit_test(test_division_by_zero),
		cmocka_unit_test(test_statement_expression),
		cmocka_unit_test(test_stub_without_print_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
