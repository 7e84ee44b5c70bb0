// SPDX-License-Identifier: GPL-2.0
/*
 * test_read_perf_fold.c - the perf.data reader's folded sched_stat_runtime
 *
 * Asked to fold (struct sl_reader's fold), the reader may hand a
 * sched_stat_runtime on inside the next event instead of on its own: the
 * next one handed on, of the same CPU and task (sl_event.folded_ago).
 * Unfolded again, the events must be the ones the reader hands on when
 * not asked, in the same order, to the field (but the folded one's irq
 * context, which is not kept); and on perf sched record's files most of
 * the sched_stat_runtime samples must come folded (else the fold costs a
 * test and saves nothing).  Files: several rounds out of order across
 * CPUs (messaging), lost events (lost), pipe mode without
 * sched_stat_runtime (pipemode: nothing folded), and a plain one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedlint/reader.h"

struct events {
	struct sl_event *v;
	size_t nr, alloc;
};

static void push(struct events *e, const struct sl_event *ev)
{
	if (e->nr == e->alloc) {
		e->alloc = e->alloc ? 2 * e->alloc : 4096;
		e->v = realloc(e->v, e->alloc * sizeof(*e->v));
		assert_non_null(e->v);
	}
	e->v[e->nr++] = *ev;
}

/*
 * Every event of path, each folded one put back before the event it came
 * in; *folded: how many were.  fold_name: the reader's.
 */
static void read_all(const char *path, struct sl_strtab *st, bool fold, struct events *out,
		     size_t *folded, uint32_t *fold_name)
{
	struct sl_error err = { "" };
	struct sl_reader *r;
	struct sl_event ev;
	int ret;

	assert_int_equal(sl_reader_open(path, NULL, st, &r, &err), 0);
	r->fold = fold;
	*fold_name = r->fold_name;
	*folded = 0;
	while ((ret = sl_reader_next(r, &ev)) > 0) {
		if (ev.folded_ago) {
			struct sl_event s = {
				.ts = ev.ts - (ev.folded_ago - 1u), .cpu = ev.cpu, .pid = ev.pid,
				.type = SL_EV_OTHER, .name = r->fold_name,
			};

			assert_true(fold);
			push(out, &s);
			ev.folded_ago = 0;
			(*folded)++;
		}
		push(out, &ev);
	}
	assert_int_equal(ret, 0);
	sl_reader_close(r);
}

/* path read folded equals it read as it is; at least min_folded were */
static void check_file(const char *path, size_t min_folded)
{
	struct sl_strtab *st = sl_strtab_new();
	struct events a = { 0 }, b = { 0 };
	size_t folded, none, runtime = 0;
	uint32_t name, name_b;

	read_all(path, st, false, &a, &none, &name);
	read_all(path, st, true, &b, &folded, &name_b);
	assert_int_equal(none, 0);
	assert_int_equal(name, name_b);
	assert_int_equal(a.nr, b.nr);
	for (size_t i = 0; i < a.nr; i++) {
		struct sl_event *x = &a.v[i], *y = &b.v[i];

		if (name && x->type == SL_EV_OTHER && x->name == name) {
			runtime++;
			x->ctx = y->ctx;	/* a folded one's is not kept */
		}
		if (memcmp(x, y, sizeof(*x))) {
			print_error("%s: event %zu differs: ts %llu/%llu cpu %d/%d pid %d/%d type %u/%u\n",
				    path, i, (unsigned long long)x->ts, (unsigned long long)y->ts,
				    x->cpu, y->cpu, x->pid, y->pid, x->type, y->type);
			fail();
		}
	}
	print_message("%s: %zu events, %zu sched_stat_runtime, %zu folded\n",
		      path, a.nr, runtime, folded);
	assert_true(folded >= min_folded);
	assert_true(folded <= runtime);
	free(a.v);
	free(b.v);
	sl_strtab_free(st);
}

/*
 * The counts: `perf script` of each file, the sched_stat_runtime lines
 * (hackbench 475 of 1,010 samples; messaging 603 of 1,358; lost 1,580
 * of 3,522): most come right before the next event of their task on
 * their CPU, at least half of them.
 */
static void test_hackbench(void **state)
{
	(void)state;
	check_file("testdata/perf/hackbench.data", 475 / 2);
}

static void test_messaging(void **state)
{
	(void)state;
	check_file("testdata/perf/messaging.data", 603 / 2);
}

static void test_lost(void **state)
{
	(void)state;
	check_file("testdata/perf/lost.data", 1580 / 2);
}

/* recorded without sched_stat_runtime: nothing to fold, nothing changes */
static void test_pipemode(void **state)
{
	(void)state;
	check_file("testdata/perf/pipemode.data", 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hackbench),
		cmocka_unit_test(test_messaging),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_pipemode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
