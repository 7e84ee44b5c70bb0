// SPDX-License-Identifier: GPL-2.0
/*
 * test_affinity.c - where tasks may run: record's /proc sweep and markers,
 * the model's reading of them, the stopper heuristic
 *
 * record_affinity.c turns a /proc tree (a fake one here) into
 * "schedlint: affinity PIDS=CPUS" markers and re-reads "PID=CPUS@NS"; the
 * model (affinity.c) gives the tasks their allowed CPUs from them, from
 * the time they say, inheriting them at fork.  Expected values are written
 * from the format in model.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd/record_affinity.h"
#include "schedlint/model.h"
#include "schedlint/reader.h"
#include "model_fixture.h"

/* --- the model's side --- */

/* A model of 4 CPUs. */
static void setup(struct fixture *f)
{
	fixture_setup(f, 4);
}

static void switch_ev(struct fixture *f, uint64_t ts, int cpu, int prev, const char *prev_comm,
		      int prev_class, int next, const char *next_comm)
{
	struct sl_event ev = { .ts = ts, .cpu = cpu, .pid = prev, .type = SL_EV_SWITCH,
			       .name = sl_intern_cstr(f->st, "sched_switch") };

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	ev.sw.prev_class = (uint8_t)prev_class;
	ev.sw.prev_letter = prev_class == SL_PREV_BLOCKED ? 'S' : 'R';
	ev.sw.prev_comm = sl_intern_cstr(f->st, prev_comm);
	ev.sw.next_comm = sl_intern_cstr(f->st, next_comm);
	sl_model_feed(f->m, &ev);
}

static void migrate_ev(struct fixture *f, uint64_t ts, int cpu, int by, int pid, int from, int to)
{
	struct sl_event ev = { .ts = ts, .cpu = cpu, .pid = by, .type = SL_EV_MIGRATE,
			       .name = sl_intern_cstr(f->st, "sched_migrate_task") };

	ev.migrate.pid = pid;
	ev.migrate.prio = 120;
	ev.migrate.orig_cpu = from;
	ev.migrate.dest_cpu = to;
	/* the comm the task has (a new one would be an exec: its affinity judged afresh) */
	ev.migrate.comm = sl_model_task(f->m, pid) ? sl_model_task(f->m, pid)->comm
						   : sl_intern_cstr(f->st, "task");
	sl_model_feed(f->m, &ev);
}

/* The CPUs pid may run on at ts as a list "0-3", or "-" for none recorded. */
static const char *allowed(struct fixture *f, int pid, uint64_t ts, char *buf, size_t len)
{
	const struct sl_cpuset *s = sl_task_allowed_at(f->m, sl_model_task(f->m, pid), ts);
	size_t n = 0;

	if (!s)
		return "-";
	buf[0] = '\0';
	for (int cpu = 0; cpu < 64 * (int)s->nr_words; cpu++)
		if (sl_cpuset_test(s, cpu))
			n += (size_t)snprintf(buf + n, len - n, "%s%d", n ? "," : "", cpu);
	return buf;
}

/* A sweep at the start names tasks before they are seen; a fork inherits. */
static void test_markers_and_fork(void **state)
{
	struct fixture f;
	char b[64];

	setup(&f);
	marker(&f, 1000, "schedlint: affinity 100-102,105=0-3 103=1 104=0,2");
	/* seen later: they get what the sweep said, from the start */
	switch_ev(&f, 2000, 0, 0, "swapper/0", SL_PREV_RUNNABLE, 100, "sh");
	switch_ev(&f, 2100, 1, 0, "swapper/1", SL_PREV_RUNNABLE, 103, "pinned");
	switch_ev(&f, 2200, 2, 0, "swapper/2", SL_PREV_RUNNABLE, 104, "two");
	assert_string_equal(allowed(&f, 100, 1500, b, sizeof(b)), "0,1,2,3");
	assert_string_equal(allowed(&f, 103, 0, b, sizeof(b)), "1");
	assert_string_equal(allowed(&f, 104, 5000, b, sizeof(b)), "0,2");
	/* 103 forks 200: what 103 had at the fork */
	fork_ev(&f, 3000, 103, 200);
	assert_string_equal(allowed(&f, 200, 3000, b, sizeof(b)), "1");
	/* never named: nothing recorded */
	switch_ev(&f, 3100, 3, 0, "swapper/3", SL_PREV_RUNNABLE, 300, "other");
	assert_string_equal(allowed(&f, 300, 3100, b, sizeof(b)), "-");
	assert_true(f.m->affinity_recorded);
	assert_int_equal(f.m->affinity_bad_tokens, 0);
	fixture_teardown(&f);
}

/*
 * A recorded mask is out of date from a stopper move or an exec until
 * record's re-read arrives, and so is a child's copied from such a parent.
 */
static void test_stale_until_reread(void **state)
{
	struct fixture f;
	struct sl_event ev;

	setup(&f);
	/* before any marker: nothing recorded, nothing stale */
	switch_ev(&f, 500, 1, 0, "swapper/1", SL_PREV_RUNNABLE, 100, "sh");
	switch_ev(&f, 600, 1, 100, "sh", SL_PREV_PREEMPTED, 21, "migration/1");
	migrate_ev(&f, 700, 1, 21, 100, 1, 0);
	assert_false(sl_model_task(f.m, 100)->aff_stale);
	marker(&f, 1000, "schedlint: affinity 100-101=0-1");
	/* the stopper moves 100: stale; it forks 200: stale too */
	migrate_ev(&f, 2000, 1, 21, 100, 1, 0);
	assert_true(sl_model_task(f.m, 100)->aff_stale);
	fork_ev(&f, 2100, 100, 200);
	assert_true(sl_model_task(f.m, 200)->aff_stale);
	/* 101 execs: stale; another event of another name is nothing */
	ev = (struct sl_event){ .ts = 2200, .cpu = 0, .pid = 101, .type = SL_EV_OTHER,
				.name = sl_intern_cstr(f.st, "sched_process_exec") };
	switch_ev(&f, 2150, 0, 0, "swapper/0", SL_PREV_RUNNABLE, 101, "sh");
	sl_model_feed(f.m, &ev);
	assert_true(sl_model_task(f.m, 101)->aff_stale);
	/* a fork from a task that is not stale is not */
	fork_ev(&f, 2300, 21, 300);
	assert_false(sl_model_task(f.m, 300)->aff_stale);
	/* the re-reads: each clears its own task only */
	marker(&f, 9000, "schedlint: affinity 100=0@2000 101=0-1@2200");
	assert_false(sl_model_task(f.m, 100)->aff_stale);
	assert_false(sl_model_task(f.m, 101)->aff_stale);
	assert_true(sl_model_task(f.m, 200)->aff_stale);
	marker(&f, 9500, "schedlint: affinity 200=0@2100");
	assert_false(sl_model_task(f.m, 200)->aff_stale);
	fixture_teardown(&f);
}

/* A re-read says when the change happened: before it, the old mask holds. */
static void test_reread_applies_from_its_time(void **state)
{
	struct fixture f;
	char b[64];

	setup(&f);
	marker(&f, 1000, "schedlint: affinity 100=0-3");
	switch_ev(&f, 2000, 0, 0, "swapper/0", SL_PREV_RUNNABLE, 100, "taskset");
	/* written at 90000 about an exec at 5000 */
	marker(&f, 90000, "schedlint: affinity 100=0@5000");
	assert_string_equal(allowed(&f, 100, 4999, b, sizeof(b)), "0,1,2,3");
	assert_string_equal(allowed(&f, 100, 5000, b, sizeof(b)), "0");
	assert_string_equal(allowed(&f, 100, 80000, b, sizeof(b)), "0");
	/* the same mask again changes nothing; a plain token (the end sweep) applies from then */
	marker(&f, 95000, "schedlint: affinity 100=0");
	marker(&f, 99000, "schedlint: affinity 100=2-3");
	assert_string_equal(allowed(&f, 100, 98999, b, sizeof(b)), "0");
	assert_string_equal(allowed(&f, 100, 99000, b, sizeof(b)), "2,3");
	fixture_teardown(&f);
}

/* Malformed tokens are counted and skipped; a huge pid range is bounded, not walked. */
static void test_bad_tokens(void **state)
{
	struct fixture f;
	char b[64];

	setup(&f);
	marker(&f, 1000, "schedlint: affinity 100=0-1 =3 x=1 101=a 102 103=1@x "
			 "1-2147483647=2 104=0-1");
	switch_ev(&f, 2000, 0, 0, "swapper/0", SL_PREV_RUNNABLE, 104, "t");
	assert_string_equal(allowed(&f, 104, 2000, b, sizeof(b)), "0,1");
	assert_int_equal(f.m->affinity_bad_tokens, 5);
	/* a range past SL_AFF_MAX_RANGE (65536) stops there: pid 70000 got nothing */
	switch_ev(&f, 2100, 1, 0, "swapper/1", SL_PREV_RUNNABLE, 70000, "t");
	assert_string_equal(allowed(&f, 70000, 2100, b, sizeof(b)), "-");
	switch_ev(&f, 2200, 2, 0, "swapper/2", SL_PREV_RUNNABLE, 5, "t");
	assert_string_equal(allowed(&f, 5, 2200, b, sizeof(b)), "2");
	fixture_teardown(&f);
}

/* Without masks: where a task ran after its last migration/N move decides. */
static void test_stopper_heuristic(void **state)
{
	struct fixture f;

	setup(&f);
	/* t ran on cpus 1 and 0: migratable */
	switch_ev(&f, 1000, 1, 0, "swapper/1", SL_PREV_RUNNABLE, 100, "dd");
	switch_ev(&f, 2000, 1, 100, "dd", SL_PREV_BLOCKED, 0, "swapper/1");
	switch_ev(&f, 3000, 0, 0, "swapper/0", SL_PREV_RUNNABLE, 100, "dd");
	assert_int_equal(sl_task_affinity(f.m, sl_model_task(f.m, 100)), SL_AFFINITY_MIGRATABLE);
	/* the stopper of cpu 0 preempts it and moves it to cpu 1 */
	switch_ev(&f, 4000, 0, 100, "dd", SL_PREV_PREEMPTED, 21, "migration/0");
	migrate_ev(&f, 4100, 0, 21, 100, 0, 1);
	assert_int_equal(sl_task_affinity(f.m, sl_model_task(f.m, 100)), SL_AFFINITY_UNKNOWN);
	assert_int_equal(sl_model_task(f.m, 100)->stopper_moves, 1);
	/* from then on it runs on cpu 1 only: unknown (not migratable) */
	switch_ev(&f, 5000, 1, 0, "swapper/1", SL_PREV_RUNNABLE, 100, "dd");
	switch_ev(&f, 6000, 1, 100, "dd", SL_PREV_PREEMPTED, 0, "swapper/1");
	assert_int_equal(sl_task_affinity(f.m, sl_model_task(f.m, 100)), SL_AFFINITY_UNKNOWN);
	/* a move by another task (load balance in softirq) is no affinity change */
	migrate_ev(&f, 7000, 2, 0, 100, 1, 2);
	switch_ev(&f, 8000, 2, 0, "swapper/2", SL_PREV_RUNNABLE, 100, "dd");
	assert_int_equal(sl_task_affinity(f.m, sl_model_task(f.m, 100)), SL_AFFINITY_MIGRATABLE);
	assert_int_equal(f.m->stopper_moves, 1);
	/* an exec (its comm changes while it lives): judged afresh from there (issue 29) */
	switch_ev(&f, 9000, 2, 100, "taskset", SL_PREV_PREEMPTED, 0, "swapper/2");
	assert_int_equal(sl_task_affinity(f.m, sl_model_task(f.m, 100)), SL_AFFINITY_UNKNOWN);
	assert_int_equal(sl_model_task(f.m, 100)->execs, 1);
	switch_ev(&f, 10000, 1, 0, "swapper/1", SL_PREV_RUNNABLE, 100, "taskset");
	assert_int_equal(sl_task_affinity(f.m, sl_model_task(f.m, 100)), SL_AFFINITY_MIGRATABLE);
	fixture_teardown(&f);
}

/* --- record's side: a fake /proc --- */

static char proc[256];

static void put_task(int pid, int tid, const char *name, const char *list)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%d", proc, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/task", proc, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/task/%d", proc, pid, tid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/task/%d/status", proc, pid, tid);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "Name:\t%s\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t%d\nPid:\t%d\n"
		"Cpus_allowed:\tf\nCpus_allowed_list:\t%s\nMems_allowed_list:\t0\n",
		name, pid, tid, list);
	fclose(fp);
	if (pid == tid) {	/* /proc/PID/status, what a re-read opens */
		char link[512];

		snprintf(link, sizeof(link), "%s/%d/status", proc, pid);
		snprintf(path, sizeof(path), "task/%d/status", tid);
		unlink(link);
		assert_int_equal(symlink(path, link), 0);
	}
}

static char written[8][1024];
static int nr_written;

static int capture(void *ctx, const char *text)
{
	assert_true(strlen(text) <= 1000);
	if (nr_written < 8)
		snprintf(written[nr_written], sizeof(written[0]), "%s", text);
	nr_written++;
	return 0;
}

static void test_sweep_and_rereads(void **state)
{
	struct sl_rec_affinity *ra;
	struct sl_strtab *st = sl_strtab_new();
	struct sl_event ev;
	char cmd[512];

	snprintf(proc, sizeof(proc), "/tmp/schedlint-test-proc-XXXXXX");
	assert_non_null(mkdtemp(proc));
	put_task(1, 1, "init", "0-3");
	put_task(2, 2, "kthreadd", "0-3");
	put_task(3, 3, "migration/0", "0");
	put_task(4, 4, "migration/1", "1");
	put_task(10, 10, "bash", "0-3");
	put_task(10, 12, "bash", "0-3");	/* a thread */
	put_task(20, 20, "dd", "1");
	mkdir(strcat(strcpy(cmd, proc), "/self"), 0755);	/* not a pid: skipped */

	ra = sl_rec_affinity_new(proc, NULL);
	nr_written = 0;
	assert_int_equal(sl_rec_affinity_sweep(ra, capture, NULL), 0);
	/* grouped by list, pids as ranges, lists in byte order */
	assert_int_equal(nr_written, 1);
	assert_string_equal(written[0], "schedlint: affinity 3=0 1-2,10,12=0-3 4,20=1");

	/* a move by a stopper (pid 4) and an exec ask for re-reads, at their times */
	put_task(20, 20, "dd", "0");
	put_task(10, 10, "bash", "2");
	ev = (struct sl_event){ .ts = 5000, .cpu = 1, .pid = 4, .type = SL_EV_MIGRATE };
	ev.migrate.pid = 20;
	sl_rec_affinity_event(ra, &ev, st);
	ev = (struct sl_event){ .ts = 6000, .cpu = 0, .pid = 10, .type = SL_EV_OTHER,
				.name = sl_intern_cstr(st, "sched_process_exec") };
	sl_rec_affinity_event(ra, &ev, st);
	/* a move by anyone else asks for nothing */
	ev = (struct sl_event){ .ts = 7000, .cpu = 1, .pid = 10, .type = SL_EV_MIGRATE };
	ev.migrate.pid = 1;
	sl_rec_affinity_event(ra, &ev, st);
	nr_written = 0;
	assert_int_equal(sl_rec_affinity_flush(ra, capture, NULL), 0);
	assert_int_equal(nr_written, 1);
	assert_string_equal(written[0], "schedlint: affinity 20=0@5000 10=2@6000");
	/*
	 * a child forked by 10 (re-read at the last flush) and one forked by
	 * 20 after its stopper move in this round are re-read, at the fork's
	 * time; one forked by 1 is not
	 */
	put_task(30, 30, "bash", "2");
	put_task(31, 31, "dd", "0");
	put_task(32, 32, "init", "0-3");
	ev = (struct sl_event){ .ts = 8000, .cpu = 0, .pid = 10, .type = SL_EV_FORK };
	ev.fork.parent_pid = 10;
	ev.fork.child_pid = 30;
	sl_rec_affinity_event(ra, &ev, st);
	ev = (struct sl_event){ .ts = 8100, .cpu = 1, .pid = 4, .type = SL_EV_MIGRATE };
	ev.migrate.pid = 20;
	sl_rec_affinity_event(ra, &ev, st);
	ev = (struct sl_event){ .ts = 8200, .cpu = 0, .pid = 20, .type = SL_EV_FORK };
	ev.fork.parent_pid = 20;
	ev.fork.child_pid = 31;
	sl_rec_affinity_event(ra, &ev, st);
	ev = (struct sl_event){ .ts = 8300, .cpu = 0, .pid = 1, .type = SL_EV_FORK };
	ev.fork.parent_pid = 1;
	ev.fork.child_pid = 32;
	sl_rec_affinity_event(ra, &ev, st);
	nr_written = 0;
	assert_int_equal(sl_rec_affinity_flush(ra, capture, NULL), 0);
	assert_int_equal(nr_written, 1);
	assert_string_equal(written[0], "schedlint: affinity 30=2@8000 20=0@8100 31=0@8200");
	/* two flushes later 10 is no longer near: its child is not re-read */
	nr_written = 0;
	assert_int_equal(sl_rec_affinity_flush(ra, capture, NULL), 0);
	ev = (struct sl_event){ .ts = 9000, .cpu = 0, .pid = 10, .type = SL_EV_FORK };
	ev.fork.parent_pid = 10;
	ev.fork.child_pid = 33;
	sl_rec_affinity_event(ra, &ev, st);
	assert_int_equal(sl_rec_affinity_flush(ra, capture, NULL), 0);
	assert_int_equal(nr_written, 0);
	/* nothing asked: nothing written */
	nr_written = 0;
	assert_int_equal(sl_rec_affinity_flush(ra, capture, NULL), 0);
	assert_int_equal(nr_written, 0);
	sl_rec_affinity_free(ra);
	sl_strtab_free(st);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", proc);
	assert_int_equal(system(cmd), 0);
}

/* Many tasks: every marker under the size limit, every pid in one of them. */
static void test_sweep_splits_markers(void **state)
{
	struct sl_rec_affinity *ra;
	char cmd[512];
	int seen = 0;

	snprintf(proc, sizeof(proc), "/tmp/schedlint-test-proc-XXXXXX");
	assert_non_null(mkdtemp(proc));
	for (int pid = 100; pid < 700; pid += 2)	/* 300 tasks, no two consecutive */
		put_task(pid, pid, "t", pid % 4 ? "0-1" : "2-3");
	ra = sl_rec_affinity_new(proc, NULL);
	nr_written = 0;
	assert_int_equal(sl_rec_affinity_sweep(ra, capture, NULL), 0);
	assert_true(nr_written >= 2 && nr_written <= 8);
	for (int i = 0; i < nr_written; i++) {
		assert_int_equal(strncmp(written[i], SL_MARKER_AFFINITY, strlen(SL_MARKER_AFFINITY)), 0);
		for (char *p = written[i]; (p = strpbrk(p, ", ")); p++)
			seen++;
	}
	/* separators: each pid but the last of each token has a ',' after it, each token a ' ' before */
	assert_true(seen >= 300 - 16);
	sl_rec_affinity_free(ra);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", proc);
	assert_int_equal(system(cmd), 0);
}

/*
 * record's last sweeps come after "schedlint: events stopped", with its
 * events disabled: the trace ends at the last event before that marker
 * (not at the sweeps' markers, milliseconds later), and what the sweeps
 * say holds from then.
 */
static void test_sweep_after_events_stopped(void **state)
{
	struct fixture f;
	char b[64];

	setup(&f);
	marker(&f, 1000, "schedlint: affinity 100=0-3");
	switch_ev(&f, 2000, 0, 0, "swapper/0", SL_PREV_RUNNABLE, 100, "sh");
	switch_ev(&f, 2500, 1, 0, "swapper/1", SL_PREV_RUNNABLE, 101, "dd");
	marker(&f, 9000, SL_MARKER_STOPPED);
	marker(&f, 12000, "schedlint: affinity 100=2");
	sl_model_finish(f.m);
	/* the events' end: cpu1's switch, the last event before the marker */
	assert_int_equal(f.m->events_end, 2500);
	assert_int_equal(f.m->last_ts, 2500);
	/* the sweep's mask holds at that end, the one before just before it */
	assert_string_equal(allowed(&f, 100, 2500, b, sizeof(b)), "2");
	assert_string_equal(allowed(&f, 100, 2499, b, sizeof(b)), "0,1,2,3");
	fixture_teardown(&f);
}

/*
 * The recorder writes "schedlint: events stopped" and its sweeps' markers
 * from any CPU, with the events disabled: they are no task's event.  Not a
 * switch to the recorder where another task ran (the recorder moved to
 * another CPU for its sweeps), not the placement of a wakee at their time,
 * milliseconds past the events' end (its wait, then, ended before it
 * began); and a scheduling event after the marker (record writes none) is
 * not applied.  The fuzz_model harness found the times past the end.
 */
static void test_nothing_after_events_stopped(void **state)
{
	struct fixture f;
	struct sl_event wake = { .ts = 2600, .cpu = 0, .pid = 100, .type = SL_EV_WAKING };
	const struct sl_task *sh, *dd, *kw;

	setup(&f);
	switch_ev(&f, 2000, 0, 0, "swapper/0", SL_PREV_RUNNABLE, 100, "sh");
	switch_ev(&f, 2500, 1, 0, "swapper/1", SL_PREV_RUNNABLE, 101, "dd");
	/* sh wakes kworker 300 for CPU 0: placed at sh's next event on CPU 0 */
	wake.name = sl_intern_cstr(f.st, "sched_waking");
	wake.wake.pid = 300;
	wake.wake.comm = sl_intern_cstr(f.st, "kworker/0:1");
	wake.wake.prio = 120;
	wake.wake.target_cpu = 0;
	wake.wake.success = true;
	sl_model_feed(f.m, &wake);
	/* the marker's pid (4242, the recorder) runs on neither CPU */
	marker(&f, 9000, SL_MARKER_STOPPED);
	switch_ev(&f, 10000, 1, 101, "dd", SL_PREV_BLOCKED, 0, "swapper/1");
	marker(&f, 12000, "schedlint: affinity 100=2");
	sl_model_finish(f.m);
	sh = sl_model_task(f.m, 100);
	dd = sl_model_task(f.m, 101);
	kw = sl_model_task(f.m, 300);
	assert_int_equal(f.m->last_ts, 2600);
	assert_int_equal(f.m->implied_switches, 0);
	/* sh and dd ran to the events' end, not switched out by a marker or a later switch */
	assert_int_equal(sh->run_ns, 600);
	assert_int_equal(dd->run_ns, 100);
	assert_int_equal(sh->state, SL_TASK_RUNNING);
	assert_int_equal(dd->state, SL_TASK_RUNNING);
	/* the kworker placed at the end at the latest: no time of it past the end */
	assert_non_null(kw);
	assert_true(kw->since <= f.m->now);
	assert_true(kw->wait_ns <= 2600 - 2000);
	fixture_teardown(&f);
}

/* A CPU list from a mask: runs as ranges, single CPUs alone, a word's edge crossed. */
static void test_cpulist(void **state)
{
	unsigned long mask[128 / (8 * sizeof(unsigned long))];
	const size_t lb = 8 * sizeof(unsigned long);
	char buf[64];

	memset(mask, 0, sizeof(mask));
	for (size_t cpu = 0; cpu < 128; cpu++)
		if (cpu <= 3 || cpu == 5 || (cpu >= 63 && cpu <= 65) || cpu == 127)
			mask[cpu / lb] |= 1UL << (cpu % lb);
	assert_int_equal(sl_rec_cpulist(mask, 128, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0-3,5,63-65,127");
	/* too long for the buffer: an error, never a cut list */
	assert_int_equal(sl_rec_cpulist(mask, 128, buf, 8), -ENOSPC);
	memset(mask, 0, sizeof(mask));
	assert_int_equal(sl_rec_cpulist(mask, 128, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

/* the fake sched_getaffinity: CPU tid % 4, and CPUs 0-3 for tid 1; pid 99 is gone */
static int calls;
static int fake_getaffinity(int32_t tid, unsigned long *mask, size_t setsize)
{
	calls++;
	assert_true(setsize >= sizeof(unsigned long));
	if (tid == 99)
		return -ESRCH;
	mask[0] = tid == 1 ? 0xfUL : 1UL << (tid % 4);
	return 0;
}

static void put_comm(int pid, int tid, const char *name)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%d/task/%d/comm", proc, pid, tid);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "%s\n", name);
	fclose(fp);
}

/*
 * With a getaffinity function: the sweep's lists come from it (the
 * status files' lists are stale on purpose and must not be read), the
 * stoppers' names from the comm files of the first sweep, and a re-read
 * asks it too.
 */
static void test_sweep_getaffinity(void **state)
{
	struct sl_rec_affinity *ra;
	struct sl_strtab *st = sl_strtab_new();
	struct sl_event ev;
	char cmd[512];

	snprintf(proc, sizeof(proc), "/tmp/schedlint-test-proc-XXXXXX");
	assert_non_null(mkdtemp(proc));
	put_task(1, 1, "init", "9");
	put_task(5, 5, "migration/1", "9");
	put_task(6, 6, "bash", "9");
	put_task(6, 7, "bash", "9");
	put_comm(1, 1, "init");
	put_comm(5, 5, "migration/1");
	put_comm(6, 6, "bash");
	put_comm(6, 7, "bash");
	ra = sl_rec_affinity_new(proc, fake_getaffinity);
	nr_written = 0;
	calls = 0;
	assert_int_equal(sl_rec_affinity_sweep(ra, capture, NULL), 0);
	assert_int_equal(calls, 4);
	assert_int_equal(nr_written, 1);
	assert_string_equal(written[0], "schedlint: affinity 1=0-3 5=1 6=2 7=3");
	/* 5 is a stopper: its move of 6 asks for a re-read */
	ev = (struct sl_event){ .ts = 5000, .cpu = 1, .pid = 5, .type = SL_EV_MIGRATE };
	ev.migrate.pid = 6;
	sl_rec_affinity_event(ra, &ev, st);
	nr_written = 0;
	assert_int_equal(sl_rec_affinity_flush(ra, capture, NULL), 0);
	assert_int_equal(nr_written, 1);
	assert_string_equal(written[0], "schedlint: affinity 6=2@5000");
	/* the second sweep reads no names, and still knows the stopper */
	snprintf(cmd, sizeof(cmd), "rm -f '%s'/*/task/*/comm", proc);
	assert_int_equal(system(cmd), 0);
	nr_written = 0;
	assert_int_equal(sl_rec_affinity_sweep(ra, capture, NULL), 0);
	assert_string_equal(written[0], "schedlint: affinity 1=0-3 5=1 6=2 7=3");
	ev.ts = 6000;
	sl_rec_affinity_event(ra, &ev, st);
	assert_int_equal(sl_rec_affinity_pending(ra), 1);
	sl_rec_affinity_free(ra);
	sl_strtab_free(st);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", proc);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markers_and_fork),
		cmocka_unit_test(test_stale_until_reread),
		cmocka_unit_test(test_reread_applies_from_its_time),
		cmocka_unit_test(test_bad_tokens),
		cmocka_unit_test(test_stopper_heuristic),
		cmocka_unit_test(test_sweep_and_rereads),
		cmocka_unit_test(test_sweep_splits_markers),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_sweep_after_events_stopped),
		cmocka_unit_test(test_nothing_after_events_stopped),
		cmocka_unit_test(test_sweep_getaffinity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
