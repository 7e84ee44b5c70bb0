// SPDX-License-Identifier: GPL-2.0
/*
 * test_marker.c - the LLC topology marker schedlint record writes
 *
 * record writes "schedlint: llc=<--llc spec>" to trace_marker before it
 * enables any event; the readers turn ftrace's print event into an
 * SL_EV_MARKER, and the model takes its LLC domains from it unless --llc
 * was given.  These tests feed the marker to the model directly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd/options.h"
#include "schedlint/model.h"
#include "schedlint/reader.h"
#include "model_fixture.h"

/* A model of 4 CPUs, with --llc LLC_OPT when given. */
static void setup(struct fixture *f, const char *llc_opt)
{
	fixture_config(f);
	if (llc_opt)
		assert_int_equal(sl_config_option(&f->cfg, SL_OPT_LLC, llc_opt, "test"), 0);
	fixture_model(f, 4);
}

/* Without --llc the marker decides: CPUs 0,2 and 1,3 share their caches. */
static void test_marker_sets_llc(void **state)
{
	struct fixture f;

	setup(&f, NULL);
	assert_true(sl_same_llc(f.m, 0, 1));		/* default: one domain */
	marker(&f, 1000, "schedlint: llc=0+2,1+3");
	assert_true(sl_same_llc(f.m, 0, 2));
	assert_true(sl_same_llc(f.m, 1, 3));
	assert_false(sl_same_llc(f.m, 0, 1));
	assert_false(sl_same_llc(f.m, 2, 3));
	assert_string_equal(f.m->llc_source, SL_LLC_FROM_TRACE);
	assert_int_equal(f.m->type_counts[SL_EV_MARKER], 1);
	fixture_teardown(&f);
}

/* A marker that says where record found the groups: the source names it. */
static void test_marker_names_its_source(void **state)
{
	static const struct { const char *marker, *source; } cases[] = {
		{ "schedlint: llc=0+2,1+3 from=cache-L3",
		  "trace marker (schedlint record: L3 cache)" },
		{ "schedlint: llc=0-3 from=package",
		  "trace marker (schedlint record: packages, no cache information in sysfs)" },
		{ "schedlint: llc=0-3 from=all-cpus",
		  "trace marker (schedlint record: all CPUs, no cache or package information in sysfs)" },
		{ "schedlint: llc=0-3 from=numa-9", "trace marker (schedlint record: numa-9)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture f;

		setup(&f, NULL);
		marker(&f, 1000, cases[i].marker);
		assert_int_equal(f.m->nr_llc_cpus, 4);
		assert_string_equal(f.m->llc_source, cases[i].source);
		fixture_teardown(&f);
	}
}

/* --llc wins over the marker. */
static void test_llc_option_overrides_marker(void **state)
{
	struct fixture f;

	setup(&f, "0-1,2-3");
	marker(&f, 1000, "schedlint: llc=0+2,1+3");
	assert_true(sl_same_llc(f.m, 0, 1));
	assert_false(sl_same_llc(f.m, 0, 2));
	assert_string_equal(f.m->llc_source, "--llc");
	fixture_teardown(&f);
}

/* Other markers, a malformed one, and a second topology marker change nothing. */
static void test_other_markers_ignored(void **state)
{
	struct fixture f;

	setup(&f, NULL);
	marker(&f, 1000, "hello from the benchmark");
	marker(&f, 1001, "schedlint: llc=banana");
	marker(&f, 1001, "schedlint: llc=0-1,2-3 and more");
	marker(&f, 1001, "schedlint: llc=0-1,2-3 from");
	assert_int_equal(f.m->nr_llc_cpus, 0);
	assert_true(sl_same_llc(f.m, 0, 3));
	marker(&f, 1002, "schedlint: llc=0-1,2-3");
	marker(&f, 1003, "schedlint: llc=0-3");
	assert_false(sl_same_llc(f.m, 1, 2));
	assert_int_equal(f.m->type_counts[SL_EV_MARKER], 6);
	fixture_teardown(&f);
}

/* The text readers give the same marker event for every way text shows it. */
static void test_text_marker_lines(void **state)
{
	static const char *const lines[] = {
		/* the tracefs trace file */
		"# tracer: nop\n"
		"       schedlint-1570    [000] ..... 2486.999132: tracing_mark_write: "
		"schedlint: llc=0-1+4-5,2-3 from=cache-L3\n",
		/* trace-cmd report, default and -R */
		"cpus=2\n"
		"       schedlint-14634 [001]  3401.933553: print:                "
		"tracing_mark_write: schedlint: llc=0-1+4-5,2-3 from=cache-L3\n",
		"cpus=2\n"
		"       schedlint-14634 [001]  3401.933553: print:                 "
		"ip=tracing_mark_write buf=schedlint: llc=0-1+4-5,2-3 from=cache-L3\n",
	};

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct sl_strtab *st = sl_strtab_new();
		struct sl_error err = { "" };
		struct sl_reader *r;
		struct sl_event ev;
		FILE *f = tmpfile();
		int fd;

		assert_non_null(f);
		fputs(lines[i], f);
		fflush(f);
		fd = dup(fileno(f));
		fclose(f);
		lseek(fd, 0, SEEK_SET);
		assert_int_equal(sl_read_text_open(fd, "", 0, st, &r, &err), 0);
		r->err = &err;
		assert_int_equal(sl_reader_next(r, &ev), 1);
		assert_int_equal(ev.type, SL_EV_MARKER);
		assert_string_equal(sl_str(st, ev.name), "print");
		assert_string_equal(sl_str(st, ev.marker.text),
				    "schedlint: llc=0-1+4-5,2-3 from=cache-L3");
		sl_reader_close(r);
		sl_strtab_free(st);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_marker_lines),
		cmocka_unit_test(test_marker_sets_llc),
		cmocka_unit_test(test_marker_names_its_source),
		cmocka_unit_test(test_llc_option_overrides_marker),
		cmocka_unit_test(test_other_markers_ignored),
	};
	return cmocka_run_group_tests_name("marker", tests, NULL, NULL);
}
