// SPDX-License-Identifier: GPL-2.0
/*
 * test_findings_whatif.c - every view of the kept findings carries the
 * what-if estimates
 *
 * analyzers/whatif.c estimates each kept finding at the end of the trace.
 * It wrote the estimates into the sorted copies of the findings
 * (sl_findings_sorted()), so the per-kind lists (sl_findings_of_kind(),
 * what the text and HTML reports read) had none, and a later add, which
 * drops the copies, lost them.  On testdata/real/pipe.dat every listed
 * finding of wakee-stacking, sync-wake-remote and idle-while-runnable has
 * one (analyze --json shows 1005 of 1005): the same in both views.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedlint/analysis.h"
#include "schedlint/findings.h"

static void test_estimates_in_every_view(void **state)
{
	static const enum sl_kind kinds[] = {
		SL_KIND_WAKEE_STACKING, SL_KIND_SYNC_WAKE_REMOTE, SL_KIND_IDLE_WHILE_RUNNABLE,
	};
	struct sl_config cfg;
	struct sl_analysis *an = NULL;
	struct sl_error err = { 0 };
	size_t nr_sorted, with_sorted = 0, with_lists = 0, listed = 0;
	const struct sl_finding *all;

	(void)state;
	sl_config_init(&cfg);
	assert_int_equal(sl_analysis_run("testdata/real/pipe.dat", &cfg, NULL, NULL, &an, &err), 0);

	all = sl_findings_sorted(an->model->findings, &nr_sorted);
	for (size_t i = 0; i < nr_sorted; i++)
		with_sorted += all[i].whatif.est != 0;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t nr;
		const struct sl_finding *f = sl_findings_of_kind(an->model->findings, kinds[k], &nr);

		assert_true(nr > 0);
		listed += nr;
		for (size_t i = 0; i < nr; i++)
			with_lists += f[i].whatif.est != 0;
	}
	assert_int_equal(listed, nr_sorted);
	assert_int_equal(with_sorted, nr_sorted);	/* as analyze --json shows */
	assert_int_equal(with_lists, nr_sorted);	/* it was 0 */

	/* the sorted copies made again (as after an add): still there */
	free(an->model->findings->sorted);
	an->model->findings->sorted = NULL;
	all = sl_findings_sorted(an->model->findings, &nr_sorted);
	with_sorted = 0;
	for (size_t i = 0; i < nr_sorted; i++)
		with_sorted += all[i].whatif.est != 0;
	assert_int_equal(with_sorted, nr_sorted);

	sl_analysis_free(an);
	sl_config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_estimates_in_every_view),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
