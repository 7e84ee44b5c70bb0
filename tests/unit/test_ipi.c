// SPDX-License-Identifier: GPL-2.0
/*
 * test_ipi.c - the IPI measurements (SPEC "Measurements": IPIs by
 * callsite/reason, remote wakeups via the wakelist vs direct, IPI-send to
 * sched_wakeup delay, sched_wake_idle_without_ipi) and the JSON "ipi"
 * object that carries them
 *
 * Hand-written event sequences (times in us) for each architecture's
 * events: x86 >= 6.6 (ipi_send_cpu/_cpumask + irq_vectors entries), x86
 * before 6.6 (irq_vectors only), arm64 (ipi_raise/ipi_entry), csd_*.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cJSON.h>

#include "report/report.h"
#include "schedlint/analyzer.h"
#include "schedlint/model.h"
#include "schedlint/report.h"

#define US 1000ULL
#define TASK	(SL_CTX_KNOWN)
#define HARDIRQ	(SL_CTX_KNOWN | SL_CTX_HARDIRQ)

struct fixture {
	struct sl_config cfg;
	struct sl_trace_info info;
	struct sl_strtab *st;
	struct sl_model *m;
	cJSON *json;
	uint64_t mask[1];	/* the cpumask of the event being fed */
};

static struct fixture fx;

static struct fixture *setup(void)
{
	memset(&fx, 0, sizeof(fx));
	sl_config_init(&fx.cfg);
	fx.info.ncpus = 4;
	fx.info.has_waking = SL_YES;
	fx.info.has_wakeup = SL_YES;
	fx.st = sl_strtab_new();
	return &fx;
}

static void start(struct fixture *f)
{
	f->m = sl_model_new(&f->cfg, f->st, &f->info);
}

static void teardown(struct fixture *f)
{
	cJSON_Delete(f->json);
	sl_model_free(f->m);
	sl_strtab_free(f->st);
	sl_config_free(&f->cfg);
}

static uint32_t str(struct fixture *f, const char *s)
{
	return sl_intern_cstr(f->st, s);
}

static void feed(struct fixture *f, struct sl_event *ev, const char *name)
{
	ev->name = str(f, name);
	sl_model_feed(f->m, ev);
}

static void ev_switch(struct fixture *f, uint64_t us, int cpu, int prev, int prev_class, int next)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = prev, .type = SL_EV_SWITCH,
			       .ctx = TASK };

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	ev.sw.prev_class = (uint8_t)prev_class;
	ev.sw.prev_letter = prev_class == SL_PREV_BLOCKED ? 'S' : 'R';
	ev.sw.prev_comm = str(f, prev ? "task" : "swapper");
	ev.sw.next_comm = str(f, next ? "task" : "swapper");
	feed(f, &ev, "sched_switch");
}

static void ev_wake(struct fixture *f, int type, uint64_t us, int cpu, int running, int pid, int target)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = running, .type = (uint16_t)type,
			       .ctx = running ? TASK : HARDIRQ };

	ev.wake.pid = pid;
	ev.wake.prio = 120;
	ev.wake.target_cpu = target;
	ev.wake.comm = str(f, "task");
	ev.wake.success = true;
	feed(f, &ev, type == SL_EV_WAKING ? "sched_waking" : "sched_wakeup");
}

/* x86 >= 6.6: ipi_send_cpu(cpu, callsite, callback) */
static void send_cpu(struct fixture *f, uint64_t us, int cpu, int running, int target,
		     const char *callsite, const char *callback)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = running,
			       .type = SL_EV_IPI_SEND_CPU, .ctx = TASK };

	ev.ipi.target_cpu = target;
	ev.ipi.callsite = str(f, callsite);
	ev.ipi.callback = callback ? str(f, callback) : 0;
	feed(f, &ev, "ipi_send_cpu");
}

/* ipi_send_cpumask or arm64's ipi_raise (reason in callsite) to the CPUs in mask */
static void send_mask(struct fixture *f, int type, uint64_t us, int cpu, int running,
		      uint64_t mask, const char *callsite, const char *callback)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = running, .type = (uint16_t)type,
			       .ctx = TASK };

	f->mask[0] = mask;
	ev.ipi.target_cpu = -1;
	ev.ipi.mask.words = f->mask;
	ev.ipi.mask.nr_words = 1;
	ev.ipi.callsite = str(f, callsite);
	ev.ipi.callback = callback ? str(f, callback) : 0;
	feed(f, &ev, type == SL_EV_IPI_RAISE ? "ipi_raise" : "ipi_send_cpumask");
}

/* x86 irq_vectors:NAME (a received IPI) */
static void vector(struct fixture *f, uint64_t us, int cpu, int running, const char *name, int vec)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = running,
			       .type = SL_EV_IRQ_VECTOR, .ctx = HARDIRQ };

	ev.irq.vector = vec;
	feed(f, &ev, name);
}

/* arm64 ipi_entry(reason) */
static void ipi_entry(struct fixture *f, uint64_t us, int cpu, int running, const char *reason)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = running,
			       .type = SL_EV_IPI_ENTRY, .ctx = HARDIRQ };

	ev.ipi.target_cpu = cpu;
	ev.ipi.callsite = str(f, reason);
	feed(f, &ev, "ipi_entry");
}

static void wake_idle_no_ipi(struct fixture *f, uint64_t us, int cpu, int running, int target)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = running,
			       .type = SL_EV_WAKE_IDLE_NO_IPI, .ctx = TASK };

	ev.idle_no_ipi.target_cpu = target;
	feed(f, &ev, "sched_wake_idle_without_ipi");
}

static void csd_queue(struct fixture *f, uint64_t us, int cpu, int running, int target,
		      const char *callsite, const char *func)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = running,
			       .type = SL_EV_CSD_QUEUE, .ctx = TASK };

	ev.ipi.target_cpu = target;
	ev.ipi.callsite = str(f, callsite);
	ev.ipi.callback = str(f, func);
	feed(f, &ev, "csd_queue_cpu");
}

static void csd_entry(struct fixture *f, uint64_t us, int cpu, int running, const char *func)
{
	struct sl_event ev = { .ts = us * US, .cpu = cpu, .pid = running,
			       .type = SL_EV_CSD_FUNC_ENTRY, .ctx = HARDIRQ };

	ev.ipi.target_cpu = cpu;
	ev.ipi.callback = str(f, func);
	feed(f, &ev, "csd_function_entry");
}

static void sleeper(struct fixture *f, uint64_t us, int cpu, int pid)
{
	ev_switch(f, us, cpu, 0, SL_PREV_RUNNABLE, pid);
	ev_switch(f, us + 1, cpu, pid, SL_PREV_BLOCKED, 0);
}

static cJSON *finish(struct fixture *f)
{
	sl_model_finish(f->m);
	f->json = sl_report_json(f->m, "test");
	return cJSON_GetObjectItem(f->json, "ipi");
}

static long long num(cJSON *obj, const char *name)
{
	cJSON *it = cJSON_GetObjectItem(obj, name);

	if (!it)
		fail_msg("no \"%s\" in the ipi object", name);
	if (cJSON_IsRaw(it))
		return strtoll(it->valuestring, NULL, 10);
	assert_true(cJSON_IsNumber(it));
	return (long long)it->valuedouble;
}

/* obj.name.key, 0 when the key is not there (maps list non-zero counts only) */
static long long in_map(cJSON *obj, const char *name, const char *key)
{
	cJSON *map = cJSON_GetObjectItem(obj, name);

	if (!map)
		fail_msg("no \"%s\" map in the ipi object", name);
	return cJSON_GetObjectItem(map, key) ? num(map, key) : 0;
}

static long long hist(cJSON *obj, const char *name, const char *key)
{
	cJSON *h = cJSON_GetObjectItem(obj, name);

	assert_non_null(h);
	return num(h, key);
}

/* x86 >= 6.6, the pipe trace's pattern: the wakelist and its IPI */
static void test_wakelist_x86(void **state)
{
	struct fixture *f = setup();
	cJSON *ipi;

	start(f);
	sleeper(f, 10, 1, 200);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 100);
	ev_wake(f, SL_EV_WAKING, 30, 0, 100, 200, 1);
	send_cpu(f, 31, 0, 100, 1, "ttwu_queue_wakelist",
		 "generic_smp_call_function_single_interrupt");
	vector(f, 40, 1, 0, "call_function_single_entry", 251);
	ev_wake(f, SL_EV_WAKEUP, 42, 1, 0, 200, 1);		/* on the target, in the IPI */
	ev_switch(f, 45, 1, 0, SL_PREV_RUNNABLE, 200);
	ipi = finish(f);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(ipi, "events_present")));
	assert_int_equal(num(ipi, "sent"), 1);
	assert_int_equal(num(ipi, "sent_targets"), 1);
	assert_int_equal(in_map(ipi, "by_callsite", "ttwu_queue_wakelist"), 1);
	assert_int_equal(in_map(ipi, "by_callback", "generic_smp_call_function_single_interrupt"), 1);
	assert_int_equal(num(ipi, "received_total"), 1);
	assert_int_equal(in_map(ipi, "received", "call_function_single_entry"), 1);
	assert_int_equal(num(ipi, "remote_wakeups"), 1);
	assert_int_equal(num(ipi, "wakelist_wakeups"), 1);
	assert_int_equal(num(ipi, "direct_remote_wakeups"), 0);
	assert_int_equal(num(ipi, "remote_wakeups_with_ipi"), 1);
	assert_int_equal(num(ipi, "wakelist_without_ipi"), 0);
	assert_int_equal(hist(ipi, "send_to_wakeup", "count"), 1);
	assert_int_equal(hist(ipi, "send_to_wakeup", "max_ns"), 11 * US);	/* 42 - 31 */
	teardown(f);
}

/* The direct path: the waker enqueues remotely and sends a reschedule IPI after */
static void test_direct_with_resched_ipi(void **state)
{
	struct fixture *f = setup();
	cJSON *ipi;

	start(f);
	sleeper(f, 10, 1, 200);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 100);
	ev_wake(f, SL_EV_WAKING, 30, 0, 100, 200, 1);
	ev_wake(f, SL_EV_WAKEUP, 31, 0, 100, 200, 1);		/* logged by the waker */
	send_cpu(f, 32, 0, 100, 1, "wakeup_preempt", NULL);	/* resched_curr() */
	vector(f, 40, 1, 0, "reschedule_entry", 253);
	ev_switch(f, 41, 1, 0, SL_PREV_RUNNABLE, 200);
	ipi = finish(f);
	assert_int_equal(num(ipi, "remote_wakeups"), 1);
	assert_int_equal(num(ipi, "wakelist_wakeups"), 0);
	assert_int_equal(num(ipi, "direct_remote_wakeups"), 1);
	assert_int_equal(num(ipi, "remote_wakeups_with_ipi"), 1);	/* the IPI came after sched_wakeup */
	assert_int_equal(hist(ipi, "send_to_wakeup", "count"), 0);
	assert_int_equal(in_map(ipi, "by_callsite", "wakeup_preempt"), 1);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(ipi, "by_callback")), 0);
	assert_int_equal(in_map(ipi, "received", "reschedule_entry"), 1);
	teardown(f);
}

/* A remote wakeup without any IPI: direct to a busy CPU that need not reschedule */
static void test_direct_without_ipi(void **state)
{
	struct fixture *f = setup();
	cJSON *ipi;

	start(f);
	sleeper(f, 10, 1, 200);
	ev_switch(f, 15, 1, 0, SL_PREV_RUNNABLE, 300);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 100);
	ev_wake(f, SL_EV_WAKING, 30, 0, 100, 200, 1);
	ev_wake(f, SL_EV_WAKEUP, 31, 0, 100, 200, 1);
	send_cpu(f, 32, 0, 100, 2, "generic_exec_single", NULL);	/* to another CPU */
	ev_switch(f, 60, 1, 300, SL_PREV_BLOCKED, 200);
	ipi = finish(f);
	assert_int_equal(num(ipi, "direct_remote_wakeups"), 1);
	assert_int_equal(num(ipi, "remote_wakeups_with_ipi"), 0);
	teardown(f);
}

/* ipi_send_cpumask: one event, several targets */
static void test_cpumask(void **state)
{
	struct fixture *f = setup();
	cJSON *ipi;

	start(f);
	send_mask(f, SL_EV_IPI_SEND_CPUMASK, 10, 0, 100, 0xe, "smp_call_function_many_cond",
		  "flush_tlb_func");
	vector(f, 12, 1, 0, "call_function_entry", 252);
	vector(f, 12, 2, 0, "call_function_entry", 252);
	vector(f, 13, 3, 0, "call_function_entry", 252);
	ipi = finish(f);
	assert_int_equal(num(ipi, "sent"), 1);
	assert_int_equal(num(ipi, "sent_targets"), 3);
	assert_int_equal(in_map(ipi, "by_callsite", "smp_call_function_many_cond"), 1);
	assert_int_equal(in_map(ipi, "by_callback", "flush_tlb_func"), 1);
	assert_int_equal(in_map(ipi, "received", "call_function_entry"), 3);
	assert_int_equal(num(ipi, "received_total"), 3);
	assert_int_equal(num(ipi, "remote_wakeups"), 0);
	teardown(f);
}

/* arm64: ipi_raise carries the targets and the reason, ipi_entry the reason */
static void test_arm64(void **state)
{
	struct fixture *f = setup();
	cJSON *ipi;

	start(f);
	sleeper(f, 10, 1, 200);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 100);
	ev_wake(f, SL_EV_WAKING, 30, 0, 100, 200, 1);
	send_mask(f, SL_EV_IPI_RAISE, 31, 0, 100, 0x2, "Function call interrupts", NULL);
	ipi_entry(f, 35, 1, 0, "Function call interrupts");
	ev_wake(f, SL_EV_WAKEUP, 36, 1, 0, 200, 1);
	ev_switch(f, 38, 1, 0, SL_PREV_RUNNABLE, 200);
	send_mask(f, SL_EV_IPI_RAISE, 50, 1, 200, 0x5, "Rescheduling interrupts", NULL);
	ipi = finish(f);
	assert_int_equal(num(ipi, "sent"), 2);
	assert_int_equal(num(ipi, "sent_targets"), 3);
	assert_int_equal(in_map(ipi, "by_callsite", "Function call interrupts"), 1);
	assert_int_equal(in_map(ipi, "by_callsite", "Rescheduling interrupts"), 1);
	assert_int_equal(in_map(ipi, "received", "Function call interrupts"), 1);
	assert_int_equal(num(ipi, "wakelist_wakeups"), 1);
	assert_int_equal(num(ipi, "remote_wakeups_with_ipi"), 1);
	assert_int_equal(hist(ipi, "send_to_wakeup", "max_ns"), 5 * US);
	teardown(f);
}

/*
 * x86 before 6.6: no ipi_send_* events.  The wakelist is still told by
 * where sched_wakeup is logged, and the received vector is counted, but
 * whether an IPI was sent for a wakeup is not known: null.
 */
static void test_x86_without_send_events(void **state)
{
	struct fixture *f = setup();
	cJSON *ipi;

	start(f);
	sleeper(f, 10, 1, 200);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 100);
	ev_wake(f, SL_EV_WAKING, 30, 0, 100, 200, 1);
	vector(f, 40, 1, 0, "reschedule_entry", 253);
	ev_wake(f, SL_EV_WAKEUP, 41, 1, 0, 200, 1);
	ev_switch(f, 42, 1, 0, SL_PREV_RUNNABLE, 200);
	ipi = finish(f);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(ipi, "events_present")));
	assert_int_equal(num(ipi, "sent"), 0);
	assert_int_equal(in_map(ipi, "received", "reschedule_entry"), 1);
	assert_int_equal(num(ipi, "wakelist_wakeups"), 1);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(ipi, "remote_wakeups_with_ipi")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(ipi, "wakelist_without_ipi")));
	teardown(f);
}

/* No IPI events at all: the object is complete, with zeros and events_present false */
static void test_no_ipi_events(void **state)
{
	struct fixture *f = setup();
	cJSON *ipi;

	start(f);
	sleeper(f, 10, 1, 200);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 100);
	ev_wake(f, SL_EV_WAKING, 30, 0, 100, 200, 0);		/* local */
	ev_wake(f, SL_EV_WAKEUP, 31, 0, 100, 200, 0);
	ev_switch(f, 40, 0, 100, SL_PREV_BLOCKED, 200);
	ipi = finish(f);
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(ipi, "events_present")));
	assert_int_equal(num(ipi, "sent"), 0);
	assert_int_equal(num(ipi, "received_total"), 0);
	assert_int_equal(num(ipi, "remote_wakeups"), 0);
	assert_int_equal(num(ipi, "wake_idle_without_ipi"), 0);
	assert_non_null(cJSON_GetObjectItem(ipi, "by_callsite"));
	assert_non_null(cJSON_GetObjectItem(ipi, "csd"));
	teardown(f);
}

/* A polling idle CPU is woken by setting TIF_NEED_RESCHED: no IPI */
static void test_wake_idle_without_ipi(void **state)
{
	struct fixture *f = setup();
	cJSON *ipi;

	start(f);
	sleeper(f, 10, 1, 200);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 100);
	send_cpu(f, 25, 0, 100, 3, "generic_exec_single", NULL);	/* an unrelated IPI */
	ev_wake(f, SL_EV_WAKING, 30, 0, 100, 200, 1);
	wake_idle_no_ipi(f, 31, 0, 100, 1);
	ev_wake(f, SL_EV_WAKEUP, 33, 1, 0, 200, 1);
	ev_switch(f, 34, 1, 0, SL_PREV_RUNNABLE, 200);
	ipi = finish(f);
	assert_int_equal(num(ipi, "wake_idle_without_ipi"), 1);
	assert_int_equal(num(ipi, "wakelist_wakeups"), 1);
	assert_int_equal(num(ipi, "remote_wakeups_with_ipi"), 0);
	assert_int_equal(num(ipi, "wakelist_without_ipi"), 1);
	assert_int_equal(hist(ipi, "send_to_wakeup", "count"), 0);
	teardown(f);
}

static void test_csd(void **state)
{
	struct fixture *f = setup();
	cJSON *ipi, *csd;

	start(f);
	csd_queue(f, 10, 0, 100, 1, "smp_call_function_single", "do_sync_core");
	send_cpu(f, 11, 0, 100, 1, "smp_call_function_single", "do_sync_core");
	csd_entry(f, 15, 1, 0, "do_sync_core");
	csd_queue(f, 20, 0, 100, 2, "smp_call_function_single", "nohz_csd_func");
	ipi = finish(f);
	csd = cJSON_GetObjectItem(ipi, "csd");
	assert_non_null(csd);
	assert_int_equal(num(csd, "queued"), 2);
	assert_int_equal(num(csd, "run"), 1);
	assert_int_equal(in_map(csd, "queued_by_func", "do_sync_core"), 1);
	assert_int_equal(in_map(csd, "queued_by_func", "nohz_csd_func"), 1);
	assert_int_equal(in_map(csd, "run_by_func", "do_sync_core"), 1);
	assert_int_equal(num(ipi, "sent"), 1);		/* a csd is not an IPI by itself */
	teardown(f);
}

/* Waking a task that is running (rule 4) is not a remote wakeup */
static void test_wakeup_of_running_task(void **state)
{
	struct fixture *f = setup();
	cJSON *ipi;

	start(f);
	ev_switch(f, 10, 1, 0, SL_PREV_RUNNABLE, 200);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 100);
	ev_wake(f, SL_EV_WAKING, 30, 0, 100, 200, 1);
	ev_wake(f, SL_EV_WAKEUP, 31, 0, 100, 200, 1);
	ipi = finish(f);
	assert_int_equal(num(ipi, "remote_wakeups"), 0);
	assert_int_equal(num(ipi, "direct_remote_wakeups"), 0);
	teardown(f);
}

/* Still queued at the end: counted, its IPI known at the end */
static void test_wakee_still_waiting_at_end(void **state)
{
	struct fixture *f = setup();
	cJSON *ipi;

	start(f);
	sleeper(f, 10, 1, 200);
	ev_switch(f, 15, 1, 0, SL_PREV_RUNNABLE, 300);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 100);
	ev_wake(f, SL_EV_WAKING, 30, 0, 100, 200, 1);
	ev_wake(f, SL_EV_WAKEUP, 31, 0, 100, 200, 1);
	send_cpu(f, 32, 0, 100, 1, "wakeup_preempt", NULL);
	ipi = finish(f);
	assert_int_equal(num(ipi, "direct_remote_wakeups"), 1);
	assert_int_equal(num(ipi, "remote_wakeups_with_ipi"), 1);
	teardown(f);
}

/* --cpus: remote wakeups count by destination CPU, IPIs by the logging CPU */
static void test_cpu_filter(void **state)
{
	struct fixture *f = setup();
	cJSON *ipi;

	f->cfg.cpus.words = calloc(1, sizeof(uint64_t));
	f->cfg.cpus.words[0] = 0x1;				/* --cpus 0 */
	f->cfg.cpus.nr_words = 1;
	start(f);
	sleeper(f, 10, 1, 200);
	ev_switch(f, 20, 0, 0, SL_PREV_RUNNABLE, 100);
	ev_wake(f, SL_EV_WAKING, 30, 0, 100, 200, 1);
	send_cpu(f, 31, 0, 100, 1, "ttwu_queue_wakelist", NULL);
	vector(f, 40, 1, 0, "call_function_single_entry", 251);
	ev_wake(f, SL_EV_WAKEUP, 42, 1, 0, 200, 1);
	ev_switch(f, 45, 1, 0, SL_PREV_RUNNABLE, 200);
	ipi = finish(f);
	assert_int_equal(num(ipi, "sent"), 1);			/* sent from CPU 0 */
	assert_int_equal(num(ipi, "received_total"), 0);	/* received on CPU 1 */
	assert_int_equal(num(ipi, "remote_wakeups"), 0);	/* to CPU 1 */
	teardown(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wakelist_x86),
		cmocka_unit_test(test_direct_with_resched_ipi),
		cmocka_unit_test(test_direct_without_ipi),
		cmocka_unit_test(test_cpumask),
		cmocka_unit_test(test_arm64),
		cmocka_unit_test(test_x86_without_send_events),
		cmocka_unit_test(test_no_ipi_events),
		cmocka_unit_test(test_wake_idle_without_ipi),
		cmocka_unit_test(test_csd),
		cmocka_unit_test(test_wakeup_of_running_task),
		cmocka_unit_test(test_wakee_still_waiting_at_end),
		cmocka_unit_test(test_cpu_filter),
	};
	return cmocka_run_group_tests_name("ipi", tests, NULL, NULL);
}
