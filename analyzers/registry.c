// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - every analyzer schedlint runs, in report order
 *
 * Adding a finding kind or a measurement: one file in analyzers/ with a
 * struct sl_analyzer_ops, and one line here.
 */
#include "schedlint/analyzer.h"

extern const struct sl_analyzer_ops sl_ipi_analyzer;
extern const struct sl_analyzer_ops sl_wakee_stacking_analyzer;
extern const struct sl_analyzer_ops sl_sync_wake_analyzer;
extern const struct sl_analyzer_ops sl_late_preemption_analyzer;
extern const struct sl_analyzer_ops sl_idle_while_runnable_analyzer;
extern const struct sl_analyzer_ops sl_accounting_analyzer;
extern const struct sl_analyzer_ops sl_idle_time_analyzer;
extern const struct sl_analyzer_ops sl_shares_analyzer;
extern const struct sl_analyzer_ops sl_whatif_analyzer;

const struct sl_analyzer_ops *const sl_analyzer_registry[] = {
	&sl_ipi_analyzer,
	&sl_wakee_stacking_analyzer,
	&sl_sync_wake_analyzer,
	&sl_late_preemption_analyzer,
	&sl_idle_while_runnable_analyzer,
	&sl_accounting_analyzer,
	&sl_idle_time_analyzer,
	&sl_shares_analyzer,
	&sl_whatif_analyzer,		/* last: it reads the others' findings at the end */
};

const int sl_nr_analyzers = sizeof(sl_analyzer_registry) / sizeof(sl_analyzer_registry[0]);
