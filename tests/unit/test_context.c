// SPDX-License-Identifier: GPL-2.0
/*
 * test_context.c - policies, groups and kernel settings: record's reading
 * of a machine (a fake one) and the model's reading of the markers
 *
 * record_context.c turns a fake root (proc, cgroupfs, config.gz, debugfs
 * present or absent) into "schedlint: kernel/group/sched" markers; the
 * model (context.c) gives tasks their policy, nice and group from them,
 * inherits them at fork, and refuses garbage with one error.  Expected
 * markers are written from the formats in schedlint/context.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "cmd/record_context.h"
#include "model/slice.h"
#include "schedlint/context.h"
#include "schedlint/model.h"
#include "schedlint/reader.h"
#include "model_fixture.h"

/* --- record's side: a fake machine --- */

static char root[64];
static char written[16][1024];
static int nr_written;

static int capture(void *ctx, const char *text)
{
	(void)ctx;
	assert_true(strlen(text) <= 1000);
	if (nr_written < 16)
		snprintf(written[nr_written], sizeof(written[0]), "%s", text);
	nr_written++;
	return 0;
}

static void put(const char *path, const char *text)
{
	char full[512], dir[512], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(dir, sizeof(dir), "%s", full);
	for (slash = strchr(dir + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(full, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void put_config(const char *text)
{
	char path[512];
	gzFile gz;

	snprintf(path, sizeof(path), "%s/proc/config.gz", root);
	gz = gzopen(path, "wb");
	assert_non_null(gz);
	gzputs(gz, text);
	gzclose(gz);
}

/* The fake sched_getattr(): tid 30 is SCHED_FIFO 50, 31 nice 5 with a 0.5 ms slice, 99 gone. */
static int fake_getattr(int32_t tid, struct sl_rec_attr *out)
{
	if (tid == 99)
		return -3;
	*out = (struct sl_rec_attr){ .policy = 0, .nice = 0, .runtime_ns = 2800000 };
	if (tid == 30)
		*out = (struct sl_rec_attr){ .policy = 1, .rt_priority = 50 };
	if (tid == 31)
		out->nice = 5, out->runtime_ns = 500000;
	return 0;
}

/* Before 6.12 a fair task's sched_runtime is 0. */
static int old_getattr(int32_t tid, struct sl_rec_attr *out)
{
	(void)tid;
	*out = (struct sl_rec_attr){ .policy = 0 };
	return 0;
}

static void put_task(int pid, int tid, const char *cgroup, const char *autogroup)
{
	char path[256];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/cgroup", pid, tid);
	put(path, cgroup);
	snprintf(path, sizeof(path), "/proc/%d/autogroup", pid);
	put(path, autogroup);
}

static void make_root(void)
{
	snprintf(root, sizeof(root), "/tmp/schedlint-test-ctx-XXXXXX");
	assert_non_null(mkdtemp(root));
}

static void remove_root(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* cgroup v1 cpu and autogroups; debugfs locked down (absent): config and cmdline decide */
static void test_record_v1_autogroup(void **state)
{
	struct sl_rec_context *rc;
	struct sl_strtab *st = sl_strtab_new();
	struct sl_event ev;

	(void)state;
	make_root();
	put("/proc/self/mounts", "cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0\n"
				 "cgroup /sys/fs/cgroup/cpuacct cgroup rw,cpuacct 0 0\n");
	put("/proc/sys/kernel/sched_autogroup_enabled", "1\n");
	put("/proc/cmdline", "console=ttyS0 preempt=full quiet -- preempt=none\n");
	put_config("CONFIG_HZ_250=y\nCONFIG_HZ=250\nCONFIG_SCHED_HRTICK=y\n"
		   "CONFIG_PREEMPT_NONE=y\nCONFIG_PREEMPT_DYNAMIC=y\n");
	put("/sys/fs/cgroup/cpu/cpu.shares", "1024\n");
	put("/sys/fs/cgroup/cpu/batch/cpu.shares", "512\n");
	put("/sys/fs/cgroup/cpu/batch/low/cpu.shares", "2048\n");
	/* 10 and 11 in one autogroup, 20 alone in another, 30 and 31 in cgroups */
	put_task(10, 10, "2:cpuacct:/\n1:cpu:/\n0::/\n", "/autogroup-7 nice 0\n");
	put_task(10, 11, "2:cpuacct:/\n1:cpu:/\n0::/\n", "/autogroup-7 nice 0\n");
	put_task(20, 20, "1:cpu:/\n", "/autogroup-8 nice 5\n");
	put_task(30, 30, "1:cpu:/batch\n", "/autogroup-9 nice 0\n");
	put_task(31, 31, "1:cpu:/batch/low\n", "/autogroup-9 nice 0\n");
	put_task(99, 99, "1:cpu:/\n", "/autogroup-7 nice 0\n");	/* gone: left out */

	rc = sl_rec_context_new(root, fake_getattr);
	nr_written = 0;
	assert_int_equal(sl_rec_context_kernel(rc, capture, NULL), 0);
	assert_int_equal(nr_written, 1);
	/* no debugfs: HRTICK is the feature's default; preempt= of the kernel's part of the line */
	/* record's own task (tid 0 here) is fair: its sched_runtime is the base slice */
	assert_string_equal(written[0], "schedlint: kernel hz=250@config hrtick=off@default "
			    "preempt=full@cmdline base_slice=2800000@getattr");
	assert_string_equal(sl_rec_context_summary(rc), "HZ 250 (config), HRTICK off (default), "
			    "preempt full (cmdline), base slice 2.80 ms");

	nr_written = 0;
	assert_int_equal(sl_rec_context_sweep(rc, capture, NULL), 0);
	/* groups as first met (readdir order), before the tasks: check them as a set */
	assert_int_equal(nr_written, 5);
	{
		bool ag7 = false, ag8 = false, batch = false, low = false;

		for (int i = 0; i < 4; i++) {
			assert_true(!strncmp(written[i], "schedlint: group ", 17));
			ag7 |= strstr(written[i], " 0 1024 autogroup /autogroup-7 nice 0") != NULL;
			ag8 |= strstr(written[i], " 0 335 autogroup /autogroup-8 nice 5") != NULL;
			batch |= strstr(written[i], " 0 512 cpu /batch") != NULL;
			low |= strstr(written[i], " 2048 cpu /batch/low") != NULL;
		}
		assert_true(ag7 && ag8 && batch && low);
	}
	assert_true(!strncmp(written[4], "schedlint: sched ", 17));
	assert_non_null(strstr(written[4], "30=fifo/50/0/"));
	assert_non_null(strstr(written[4], "31=other/5/500000/"));
	assert_null(strstr(written[4], "99="));
	/* 10 and 11 share a context: one range */
	assert_non_null(strstr(written[4], "10-11=other/0/2800000/"));

	/* an exec asks for a re-read, at its time; other events do not */
	put_task(20, 20, "1:cpu:/\n", "/autogroup-12 nice 0\n");	/* setsid, then exec */
	ev = (struct sl_event){ .ts = 6000, .cpu = 0, .pid = 20, .type = SL_EV_OTHER,
				.name = sl_intern_cstr(st, "sched_process_exec") };
	sl_rec_context_event(rc, &ev, st);
	ev = (struct sl_event){ .ts = 7000, .cpu = 0, .pid = 10, .type = SL_EV_OTHER,
				.name = sl_intern_cstr(st, "sched_process_exit") };
	sl_rec_context_event(rc, &ev, st);
	nr_written = 0;
	assert_int_equal(sl_rec_context_flush(rc, capture, NULL), 0);
	assert_int_equal(nr_written, 2);
	assert_string_equal(written[0], "schedlint: group 5 0 1024 autogroup /autogroup-12 nice 0");
	assert_string_equal(written[1], "schedlint: sched 20=other/0/2800000/5@6000");
	/*
	 * a child forked by 20 (re-read at the last flush) is re-read, at the
	 * fork's time: it copied what reached the trace after it; one forked
	 * by 10 is not
	 */
	put_task(21, 21, "1:cpu:/\n", "/autogroup-12 nice 0\n");
	ev = (struct sl_event){ .ts = 6500, .cpu = 0, .pid = 20, .type = SL_EV_FORK };
	ev.fork.parent_pid = 20;
	ev.fork.child_pid = 21;
	sl_rec_context_event(rc, &ev, st);
	ev = (struct sl_event){ .ts = 6600, .cpu = 0, .pid = 10, .type = SL_EV_FORK };
	ev.fork.parent_pid = 10;
	ev.fork.child_pid = 22;
	sl_rec_context_event(rc, &ev, st);
	nr_written = 0;
	assert_int_equal(sl_rec_context_flush(rc, capture, NULL), 0);
	assert_int_equal(nr_written, 1);
	assert_string_equal(written[0], "schedlint: sched 21=other/0/2800000/5@6500");
	/* a flush with nothing to do in between: 20 is still near */
	nr_written = 0;
	assert_int_equal(sl_rec_context_flush(rc, capture, NULL), 0);
	assert_int_equal(nr_written, 0);
	ev = (struct sl_event){ .ts = 7500, .cpu = 0, .pid = 20, .type = SL_EV_FORK };
	ev.fork.parent_pid = 20;
	ev.fork.child_pid = 21;
	sl_rec_context_event(rc, &ev, st);
	assert_int_equal(sl_rec_context_flush(rc, capture, NULL), 0);
	assert_int_equal(nr_written, 1);
	assert_string_equal(written[0], "schedlint: sched 21=other/0/2800000/5@7500");
	nr_written = 0;
	assert_int_equal(sl_rec_context_flush(rc, capture, NULL), 0);
	assert_int_equal(nr_written, 0);

	/*
	 * execs of 21 before its re-read (taskset -c 1 chrt -f 10 cmd: its
	 * fork, then taskset's, chrt's and cmd's execs in one drain round):
	 * what the read finds holds from the last exec before it (chrt set
	 * the policy, then exec'd cmd), not from the fork, when 21 was still
	 * its parent's fair task
	 */
	ev = (struct sl_event){ .ts = 8000, .cpu = 0, .pid = 20, .type = SL_EV_FORK };
	ev.fork.parent_pid = 20;
	ev.fork.child_pid = 21;
	sl_rec_context_event(rc, &ev, st);
	for (uint64_t ts = 8100; ts <= 8300; ts += 100) {
		ev = (struct sl_event){ .ts = ts, .cpu = 0, .pid = 21, .type = SL_EV_OTHER,
					.name = sl_intern_cstr(st, "sched_process_exec") };
		sl_rec_context_event(rc, &ev, st);
	}
	nr_written = 0;
	assert_int_equal(sl_rec_context_flush(rc, capture, NULL), 0);
	assert_int_equal(nr_written, 1);
	assert_string_equal(written[0], "schedlint: sched 21=other/0/2800000/5@8300");

	sl_rec_context_free(rc);
	sl_strtab_free(st);
	remove_root();
}

/* debugfs readable wins; cgroup v2 with cpu enabled; no config.gz */
static void test_record_v2_debugfs(void **state)
{
	struct sl_rec_context *rc;

	(void)state;
	make_root();
	put("/proc/self/mounts", "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0\n");
	put("/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory\n");
	put("/sys/fs/cgroup/user.slice/cpu.weight", "200\n");
	put("/sys/fs/cgroup/user.slice/u.scope/cpu.weight", "100\n");
	put("/sys/kernel/debug/sched/features", "GENTLE_FAIR_SLEEPERS HRTICK NO_HRTICK_DL\n");
	put("/sys/kernel/debug/sched/preempt", "none (voluntary) full lazy\n");
	put("/proc/cmdline", "preempt=full\n");
	put_task(40, 40, "0::/user.slice/u.scope\n", "/autogroup-3 nice 0\n");

	rc = sl_rec_context_new(root, fake_getattr);
	nr_written = 0;
	assert_int_equal(sl_rec_context_kernel(rc, capture, NULL), 0);
	assert_string_equal(written[0], "schedlint: kernel hrtick=on@debugfs preempt=voluntary@debugfs "
			    "base_slice=2800000@getattr");
	nr_written = 0;
	assert_int_equal(sl_rec_context_sweep(rc, capture, NULL), 0);
	assert_int_equal(nr_written, 3);
	/* cpu.weight 200 = 2048 as nice 0 = 1024; a task in a cgroup is in no autogroup */
	assert_string_equal(written[0], "schedlint: group 1 0 2048 cpu2 /user.slice");
	assert_string_equal(written[1], "schedlint: group 2 1 1024 cpu2 /user.slice/u.scope");
	assert_string_equal(written[2], "schedlint: sched 40=other/0/2800000/2");
	sl_rec_context_free(rc);

	/* nothing readable at all, a kernel before 6.12 (sched_runtime 0): no kernel marker */
	remove_root();
	make_root();
	rc = sl_rec_context_new(root, old_getattr);
	nr_written = 0;
	assert_int_equal(sl_rec_context_kernel(rc, capture, NULL), 0);
	assert_int_equal(nr_written, 0);
	assert_non_null(strstr(sl_rec_context_summary(rc), "unknown"));
	sl_rec_context_free(rc);
	remove_root();
}

/* --- the model's side --- */

static void setup(struct fixture *f)
{
	fixture_setup(f, 2);
}

static void test_model_markers(void **state)
{
	struct fixture f;
	const struct sl_sched_ctx *k;
	struct sl_task *t;

	(void)state;
	setup(&f);
	marker(&f, 1000, "schedlint: kernel hz=250@config hrtick=off@default preempt=none@config "
	       "future=thing@config base_slice=1400000@getattr");
	marker(&f, 1100, "schedlint: group 1 0 1024 autogroup /autogroup-7 nice 0");
	marker(&f, 1200, "schedlint: group 2 0 335 autogroup /autogroup-8 nice 5");
	marker(&f, 1300, "schedlint: group 3 2 512 cpu /a b");
	marker(&f, 1400, "schedlint: sched 10-12=other/0/2800000/1 20=fifo/50/0/0 30=batch/5/0/3");
	fork_ev(&f, 2000, 10, 50);	/* inherits 10's */
	fork_ev(&f, 2100, 77, 78);	/* a parent with nothing recorded: nothing */
	assert_null(f.m->ctx->error[0] ? f.m->ctx->error : NULL);
	assert_string_equal(f.m->ctx->hz.value, "250");
	assert_string_equal(f.m->ctx->hz.from, "config");
	assert_string_equal(f.m->ctx->preempt.value, "none");
	assert_int_equal(f.m->ctx->base_slice_ns, 1400000);
	assert_int_equal(sl_base_slice(f.m), 1400000);	/* the kernel's, not 0.75 ms x 2 */
	assert_true(f.m->ctx->recorded);
	assert_string_equal(sl_model_group(f.m, 3)->name, "/a b");
	assert_int_equal(sl_model_group(f.m, 3)->parent, 2);
	assert_null(sl_model_group(f.m, 4));

	t = sl_model_task(f.m, 50);
	k = sl_task_sched(f.m, t);
	assert_non_null(k);
	assert_int_equal(k->policy, SL_POLICY_OTHER);
	assert_int_equal(k->group, 1);
	assert_int_equal(sl_task_group(f.m, t), 1);
	assert_null(sl_task_sched(f.m, sl_model_task(f.m, 78)));

	/* pids seen after their marker get it when they appear */
	fork_ev(&f, 3000, 10, 20);
	t = sl_model_task(f.m, 20);
	/* the fork's inheritance comes after: what the parent had */
	assert_int_equal(sl_task_sched(f.m, t)->policy, SL_POLICY_OTHER);
	marker(&f, 3100, "schedlint: sched 20=fifo/50/0/0@3050");
	{
		enum sl_class_source source;

		assert_int_equal(sl_task_class(f.m, t, &source), SL_CLASS_RT);
		assert_int_equal(source, SL_CLASS_FROM_POLICY);
		assert_int_equal(t->policy, 1);	/* SCHED_FIFO */
	}
	fork_ev(&f, 3200, 1, 30);
	t = sl_model_task(f.m, 30);
	assert_int_equal(sl_task_sched(f.m, t)->policy, SL_POLICY_BATCH);
	assert_int_equal(sl_task_load_weight(f.m, t), 335);	/* nice 5 */
	assert_int_equal(sl_task_group(f.m, t), 3);
	fixture_teardown(&f);
}

/* Without markers: class from prio, else unknown; weight from prio. */
static void test_model_inferred(void **state)
{
	struct fixture f;
	struct sl_task *t;
	enum sl_class_source rec;

	(void)state;
	setup(&f);
	fork_ev(&f, 1000, 1, 10);
	t = sl_model_task(f.m, 10);
	assert_int_equal(sl_task_class(f.m, t, &rec), SL_CLASS_UNKNOWN);
	assert_int_equal(rec, SL_CLASS_FROM_NONE);
	t->prio = 49;
	assert_int_equal(sl_task_class(f.m, t, &rec), SL_CLASS_RT);
	assert_int_equal(rec, SL_CLASS_FROM_PRIO);
	t->prio = 125;
	assert_int_equal(sl_task_class(f.m, t, &rec), SL_CLASS_FAIR);
	assert_int_equal(sl_task_load_weight(f.m, t), 335);
	assert_int_equal(sl_task_group(f.m, t), 0);
	assert_int_equal(sl_model_nr_groups(f.m), 1);
	assert_null(f.m->ctx);
	fixture_teardown(&f);
}

/* Garbage is an error (the first one named), never a crash or a table as large as a forged id. */
static void test_model_garbage(void **state)
{
	static const char *const bad[] = {
		"schedlint: kernel hz=fast@config",
		"schedlint: kernel hz=250",
		"schedlint: kernel preempt=sometimes@config",
		"schedlint: kernel hrtick=on@rumour",
		"schedlint: kernel base_slice=5@getattr",
		"schedlint: group 5000 0 1024 autogroup /x",		/* id too large */
		"schedlint: group 2 1 1024 autogroup /x",		/* parent undefined */
		"schedlint: group 1 1 1024 autogroup /x",		/* its own parent */
		"schedlint: group 1 0 0 autogroup /x",			/* weight 0 */
		"schedlint: group 1 0 1024 pod /x",
		"schedlint: group 1 0 1024 cpu",			/* no name */
		"schedlint: sched 10=other/0/0/1",			/* group undefined */
		"schedlint: sched 10=other/25/0/0",			/* nice out of range */
		"schedlint: sched 10=fifo/0/0/0",			/* rt priority 0 */
		"schedlint: sched 10=sometimes/0/0/0",
		"schedlint: sched 10=other/0/0",
		"schedlint: sched x=other/0/0/0",
		"schedlint: sched 10=other/0/0/0@soon",
		"schedlint: sched 5-3=other/0/0/0",
		"schedlint: sched =other/0/0/0",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fixture f;

		setup(&f);
		marker(&f, 1500000000, bad[i]);
		marker(&f, 1600000000, "schedlint: sched 7=other/-21/0/0");
		assert_non_null(f.m->ctx);
		if (!strstr(f.m->ctx->error, "1.500000000 s is garbage"))
			fail_msg("%s: %s", bad[i], f.m->ctx->error);
		fixture_teardown(&f);
	}
}

/* A forged range names many pids: no task is made, the table of unseen pids is bounded. */
static void test_model_forged_ranges(void **state)
{
	struct fixture f;
	char text[1024];
	size_t n;

	(void)state;
	setup(&f);
	n = (size_t)snprintf(text, sizeof(text), "schedlint: sched ");
	for (int i = 0; i < 40 && n < 900; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%d-2147483647=other/0/0/0 ",
				      1 + i * 65536);
	text[n - 1] = '\0';
	for (int i = 0; i < 30; i++)
		marker(&f, 1000 + (uint64_t)i, text);
	assert_string_equal(f.m->ctx->error, "");
	assert_int_equal(f.m->nr_tasks, 0);
	assert_true(f.m->ctx->nr_pend <= (1u << 20));
	assert_true(f.m->ctx->pend_dropped > 0);
	fixture_teardown(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_v1_autogroup),
		cmocka_unit_test(test_record_v2_debugfs),
		cmocka_unit_test(test_model_markers),
		cmocka_unit_test(test_model_inferred),
		cmocka_unit_test(test_model_garbage),
		cmocka_unit_test(test_model_forged_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
