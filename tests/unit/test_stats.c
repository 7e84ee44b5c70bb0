// SPDX-License-Identifier: GPL-2.0
/*
 * test_stats.c - the Mann-Whitney U test (expected p-values counted by
 * hand from the definition), and diff's metric lookups costing O(1) each
 * (40,000 comms made it quadratic: repro 06 of issue 25).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cJSON.h>
#include <cmocka.h>
#include "report/diff.h"
#include "report/metrics.h"
#include "report/stats.h"

#define close_to(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* The smallest p of na against nb runs is 2 / C(na + nb, na). */
static void test_min_p(void **state)
{
	close_to(sl_mann_whitney_min_p(5, 5), 2.0 / 252);
	close_to(sl_mann_whitney_min_p(4, 4), 2.0 / 70);
	close_to(sl_mann_whitney_min_p(3, 3), 2.0 / 20);
	close_to(sl_mann_whitney_min_p(1, 5), 2.0 / 6);
	close_to(sl_mann_whitney_min_p(1, 1), 1);
	close_to(sl_mann_whitney_min_p(0, 5), 1);
	/* at 95%: 3 against 3 cannot be significant, 4 against 4 can */
	assert_true(sl_mann_whitney_min_p(3, 3) >= 0.05 && sl_mann_whitney_min_p(4, 4) < 0.05);
	/* the least runs per side of the README's and the man page's table:
	 * C(2n, n) / 2 must pass 1 / alpha (3 v 3: 2/20 = 0.1 is not < 0.1) */
	assert_int_equal(sl_mann_whitney_least_runs(0.90), 4);
	assert_int_equal(sl_mann_whitney_least_runs(0.95), 4);	/* 2/70 = 0.0286 */
	assert_int_equal(sl_mann_whitney_least_runs(0.99), 5);	/* 2/252 = 0.0079 */
	assert_int_equal(sl_mann_whitney_least_runs(0.995), 6);	/* 2/924 = 0.0022 */
	assert_int_equal(sl_mann_whitney_least_runs(0.999), 7);	/* 2/3432 = 0.00058 */
}

static void test_exact(void **state)
{
	const double base[] = { 100, 110, 105, 102, 108 };
	const double apart[] = { 130, 140, 135, 132, 138 };
	const double overlap[] = { 104, 112, 107, 109, 115 };
	const double same[] = { 7, 7, 7 };

	/* apart: the extreme of 252 orderings, on either side */
	close_to(sl_mann_whitney_p(base, 5, apart, 5), 2.0 / 252);
	close_to(sl_mann_whitney_p(apart, 5, base, 5), 2.0 / 252);
	/* U = 6: 28 of the 252 orderings give U <= 6 (partitions of 0..6 in a 5x5 box) */
	close_to(sl_mann_whitney_p(base, 5, overlap, 5), 56.0 / 252);
	/* every value tied: no evidence at all */
	close_to(sl_mann_whitney_p(same, 3, same, 3), 1);
	/*
	 * ties: {1,1,2} vs {2,3,3}: doubled mid-ranks 3 3 7 | 7 11 11, rank
	 * sum 13 against a mean of 21; of the 20 ways to pick 3 of the six
	 * ranks, 2 sum to 13 and 2 to 29: p = 4/20
	 */
	close_to(sl_mann_whitney_p((double[]){ 1, 1, 2 }, 3, (double[]){ 2, 3, 3 }, 3), 0.2);
	close_to(sl_mann_whitney_p((double[]){ 1 }, 1, (double[]){ 2 }, 1), 1);
	close_to(sl_mann_whitney_p(base, 0, apart, 5), 1);
}

/* Above 60 runs the normal approximation: symmetric, and tiny for a clear shift. */
static void test_normal(void **state)
{
	double a[40], b[40], c[40];

	for (int i = 0; i < 40; i++) {
		a[i] = i;
		b[i] = i + 100;
		c[i] = i + 0.5;
	}
	assert_true(sl_mann_whitney_p(a, 40, b, 40) < 1e-9);
	close_to(sl_mann_whitney_p(a, 40, b, 40), sl_mann_whitney_p(b, 40, a, 40));
	assert_true(sl_mann_whitney_p(a, 40, c, 40) > 0.5);
}

/* A report with n comms, each with wakeup-latency samples. */
static cJSON *report_with_comms(int n)
{
	static const char head[] =
		"{\"schema\": \"schedlint.report/1\","
		" \"trace\": {\"duration_ns\": 2000000000, \"first_ns\": 1, \"last_ns\": 2000000001},"
		" \"config\": {},"
		" \"wakeup_latency\": {\"count\": 4, \"mean_ns\": 10, \"p50_ns\": 5, \"p75_ns\": 6,"
		"   \"p90_ns\": 7, \"p95_ns\": 8, \"p99_ns\": 9, \"p99_5_ns\": 10, \"p99_9_ns\": 11,"
		"   \"max_ns\": 12, \"remote\": {\"count\": 1}},"
		" \"tasks\": [], \"cpus\": [], \"ipi\": {\"sent\": 6},"
		" \"summary\": {\"wakee-stacking\": {\"count\": 1, \"cost_ns\": 100, \"max_cost_ns\": 100},"
		"   \"sync-wake-remote\": {\"count\": 3, \"cost_ns\": 0, \"max_cost_ns\": 0},"
		"   \"sync-wake-local\": {\"count\": 1, \"cost_ns\": 0, \"max_cost_ns\": 0},"
		"   \"late-preemption\": {\"count\": 0, \"cost_ns\": 0, \"max_cost_ns\": 0},"
		"   \"idle-while-runnable\": {\"count\": 2, \"cost_ns\": 5000, \"max_cost_ns\": 3000}}}";
	cJSON *root = cJSON_Parse(head), *comms = cJSON_AddArrayToObject(root, "comms");

	for (int i = 0; i < n; i++) {
		cJSON *c = cJSON_CreateObject(), *lat;
		char name[32];

		snprintf(name, sizeof(name), "t%d", i);
		cJSON_AddStringToObject(c, "comm", name);
		lat = cJSON_AddObjectToObject(c, "wakeup_latency");
		cJSON_AddNumberToObject(lat, "count", 1 + i % 5);
		cJSON_AddNumberToObject(lat, "p99_ns", 1000 + i);
		cJSON_AddItemToArray(comms, c);
	}
	return root;
}

/*
 * 20,000 comms on two sides of two runs each: extracting them and lining
 * them up costs a few name comparisons per comm and run.  The linear scan
 * this replaced made 2 x 10^8 for the extraction alone.
 */
static void test_lookups_are_hashed(void **state)
{
	const int n = 20000;
	cJSON *root = report_with_comms(n);
	struct sl_diff d = { 0 };
	struct sl_diff_opts opts = { .top_comms = 10, .confidence = 0.95 };
	char err[256];

	sl_metrics_compares = 0;
	for (int s = 0; s < 2; s++) {
		struct sl_diff_side *side = sl_diff_add_side(&d, s ? "new" : "base", 2);

		for (int i = 0; i < 2; i++) {
			side->runs[i].path = strdup("r.json");
			if (sl_metrics_from_report(root, &side->runs[i].metrics, err, sizeof(err)))
				fail_msg("%s", err);
		}
	}
	/* 4 extractions: one lookup per metric (is the comm listed twice?) */
	if (sl_metrics_compares > 4ul * 2 * n)
		fail_msg("extraction: %lu name comparisons for %d comms", sl_metrics_compares, n);
	sl_metrics_compares = 0;
	assert_int_equal(sl_diff_build(&d, &opts, err, sizeof(err)), 0);
	assert_int_equal(d.nr_rows, d.sides[0].runs[0].metrics.nr_static + (size_t)n);
	assert_int_equal(d.comms_hidden, (size_t)n - 10);
	/* per comm: is it in each of the 4 runs, then its value in each */
	if (sl_metrics_compares > 8ul * 2 * n)
		fail_msg("diff: %lu name comparisons for %d comms", sl_metrics_compares, n);
	sl_diff_free(&d);
	cJSON_Delete(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_min_p),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_normal),
		cmocka_unit_test(test_lookups_are_hashed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
