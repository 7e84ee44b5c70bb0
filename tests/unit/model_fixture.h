/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model_fixture.h - a model fed by hand, and the marker and fork events
 * the tests of what it makes of record's markers feed it
 * (test_affinity.c, test_context.c, test_marker.c).  Included after
 * cmocka.h.
 */
#ifndef SCHEDLINT_TEST_MODEL_FIXTURE_H
#define SCHEDLINT_TEST_MODEL_FIXTURE_H

#include <stdint.h>
#include <string.h>

#include "schedlint/model.h"
#include "schedlint/reader.h"

struct fixture {
	struct sl_config cfg;
	struct sl_trace_info info;
	struct sl_strtab *st;
	struct sl_model *m;
};

/* fixture_config - the configuration alone, for options set before the model */
static inline void fixture_config(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	sl_config_init(&f->cfg);
}

/* fixture_model - the model of a trace of ncpus CPUs with waking and wakeup */
static inline void fixture_model(struct fixture *f, int ncpus)
{
	f->info.ncpus = ncpus;
	f->info.has_waking = SL_YES;
	f->info.has_wakeup = SL_YES;
	f->st = sl_strtab_new();
	f->m = sl_model_new(&f->cfg, f->st, &f->info);
}

static inline void fixture_setup(struct fixture *f, int ncpus)
{
	fixture_config(f);
	fixture_model(f, ncpus);
}

static inline void fixture_teardown(struct fixture *f)
{
	sl_model_free(f->m);
	sl_strtab_free(f->st);
	sl_config_free(&f->cfg);
}

/* marker - a trace_marker write of TEXT (ftrace's print event) by pid 4242 on CPU 0 */
static inline void marker(struct fixture *f, uint64_t ts, const char *text)
{
	struct sl_event ev = { .ts = ts, .cpu = 0, .pid = 4242, .type = SL_EV_MARKER,
			       .name = sl_intern_cstr(f->st, "print") };

	ev.marker.text = sl_intern_cstr(f->st, text);
	sl_model_feed(f->m, &ev);
}

/* fork_ev - sh PARENT forks sh CHILD, on CPU 1 */
static inline void fork_ev(struct fixture *f, uint64_t ts, int parent, int child)
{
	struct sl_event ev = { .ts = ts, .cpu = 1, .pid = parent, .type = SL_EV_FORK,
			       .name = sl_intern_cstr(f->st, "sched_process_fork") };

	ev.fork.parent_pid = parent;
	ev.fork.child_pid = child;
	ev.fork.parent_comm = sl_intern_cstr(f->st, "sh");
	ev.fork.child_comm = sl_intern_cstr(f->st, "sh");
	sl_model_feed(f->m, &ev);
}

#endif
