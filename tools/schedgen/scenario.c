// SPDX-License-Identifier: GPL-2.0
/*
 * scenario.c - the scenario language: a readable timeline of scheduler
 * actions, turned into the events a kernel would log for them
 *
 * A scenario is read line by line and acted out at once: settings, task
 * declarations, then steps, each at a time given by its prefix:
 *
 *   @1ms   wake server from client to cpu 2
 *          sleep client                   # right after the previous step
 *   +50us  preempt cpu 2                   # 50 us after the previous step began
 *
 * Steps change the state kept by kernel.c, which logs the events; things
 * that happen later on their own (an IPI landing, the end of "run ... for",
 * the next hog slice, periodic ticks, the next ping-pong half) are timers,
 * fired in time order before the step that comes after them.  Step times
 * may not go back, and no CPU's events may either, so what the scenario
 * says is what the trace holds, to the nanosecond.  man/schedgen.1 is the
 * reference of the language.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

#define MAX_TOKENS 64

enum {
	TM_RUN_END = SG_TIMER_DRIVER,	/* "run ... for": the task's run is over */
	TM_HOG_SLICE,			/* "hogs": the next task's turn */
	TM_TICK,			/* "tick ... every" */
	TM_PINGPONG,			/* "pingpong": the running side wakes the other */
};

enum run_then { THEN_SLEEP, THEN_EXIT, THEN_YIELD, THEN_STAY };

struct pingpong {
	struct sg_task *side[2];
	long long rounds_left;		/* wakeups still to do */
	uint64_t think;			/* from switch-in to the next wakeup */
	enum sg_wake_method method;
	struct sg_task *expect;		/* whose switch-in continues it */
	bool active;
};

/* "hogs" and "tick ... every": something that happens every period until end */
struct periodic {
	int cpu;
	uint64_t period;
	uint64_t end;			/* trace time; nothing at or after it */
	bool hog;			/* a hog slice (else a plain tick) */
	bool ticks;			/* hogs: a local_timer_entry before each switch */
};

struct scenario {
	const char *path;
	int line;
	struct sg_common_opts *opts;

	/* settings, fixed once the first task or step is read */
	int ncpus;
	const char *kernel;
	int long_size;
	int big_endian;
	uint64_t start;			/* trace time of scenario time 0 */

	struct sg_abi abi;
	struct sg_output *out;
	struct sg_sched sched;
	bool started;

	struct sg_task **tasks;
	size_t nr_tasks, alloc_tasks;

	uint64_t step_start;		/* when the previous step began */
	uint64_t step_end;		/* its last event on its CPU */
	bool any_step;

	struct pingpong *pp;
	size_t nr_pp, alloc_pp;
	struct periodic *per;
	size_t nr_per, alloc_per;

	/* comms given in event lines: events keep pointers until the output closes */
	char **strings;
	size_t nr_strings, alloc_strings;

	/* the tokens of the line being read */
	char *tok[MAX_TOKENS];
	int ntok, pos;
};

static int fail(struct scenario *sc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct scenario *sc, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "schedgen: %s:%d: ", sc->path, sc->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static int fail_sched(struct scenario *sc)
{
	return fail(sc, "%s", sc->sched.err);
}

/* ------------------------------------------------------------------ */
/* Tokens */

static int tokenize(struct scenario *sc, char *line)
{
	char *p = line;

	sc->ntok = 0;
	sc->pos = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			break;
		if (sc->ntok == MAX_TOKENS)
			return fail(sc, "too many words on one line");
		sc->tok[sc->ntok++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return 0;
}

static const char *peek(struct scenario *sc)
{
	return sc->pos < sc->ntok ? sc->tok[sc->pos] : NULL;
}

static const char *next(struct scenario *sc)
{
	return sc->pos < sc->ntok ? sc->tok[sc->pos++] : NULL;
}

static bool accept(struct scenario *sc, const char *word)
{
	if (peek(sc) && !strcmp(peek(sc), word)) {
		sc->pos++;
		return true;
	}
	return false;
}

static const char *keep(struct scenario *sc, const char *s)
{
	GROW(sc->strings, sc->alloc_strings, sc->nr_strings + 1);
	sc->strings[sc->nr_strings] = xstrdup(s);
	return sc->strings[sc->nr_strings++];
}

static int want_int(struct scenario *sc, const char *what, long long min, long long max,
		    long long *v)
{
	const char *t = next(sc);

	if (!t)
		return fail(sc, "%s: a number is missing", what);
	if (parse_int(t, min, max, v))
		return fail(sc, "%s: '%s' is not a number in [%lld, %lld]", what, t, min, max);
	return 0;
}

static int want_time(struct scenario *sc, const char *what, uint64_t *ns)
{
	const char *t = next(sc);

	if (!t)
		return fail(sc, "%s: a time is missing", what);
	if (parse_time_ns(t, ns))
		return fail(sc, "%s: '%s' is not a time (like 10us, 1.5ms, 2s)", what, t);
	return 0;
}

static int want_cpu(struct scenario *sc, int *cpu)
{
	long long v;

	if (!sc->ncpus)
		return fail(sc, "say how many CPUs first ('cpus N')");
	if (want_int(sc, "cpu", 0, sc->ncpus - 1, &v))
		return -1;
	*cpu = v;
	return 0;
}

/* "cpu N" */
static int want_cpu_kw(struct scenario *sc, int *cpu)
{
	if (!accept(sc, "cpu"))
		return fail(sc, "expected 'cpu N' at '%s'", peek(sc) ? peek(sc) : "end of line");
	return want_cpu(sc, cpu);
}

static int no_more(struct scenario *sc)
{
	if (peek(sc))
		return fail(sc, "unexpected '%s'", peek(sc));
	return 0;
}

/* ------------------------------------------------------------------ */
/* Tasks */

static struct sg_task *find_pid(struct scenario *sc, int pid)
{
	for (size_t i = 0; i < sc->nr_tasks; i++)
		if (sc->tasks[i]->pid == pid)
			return sc->tasks[i];
	return NULL;
}

/* A task named by pid, or by comm when that is unique. */
static int want_task(struct scenario *sc, struct sg_task **task)
{
	const char *t = next(sc);
	struct sg_task *found = NULL;
	long long pid;

	if (!t)
		return fail(sc, "a task (pid or comm) is missing");
	if (parse_int(t, 1, 0x7fffffff, &pid) == 0) {
		found = find_pid(sc, pid);
		if (!found)
			return fail(sc, "no task with pid %lld", pid);
		*task = found;
		return 0;
	}
	for (size_t i = 0; i < sc->nr_tasks; i++) {
		if (strcmp(sc->tasks[i]->comm, t))
			continue;
		if (found)
			return fail(sc, "two tasks are called '%s': name it by pid", t);
		found = sc->tasks[i];
	}
	if (!found)
		return fail(sc, "no task called '%s'", t);
	*task = found;
	return 0;
}

static struct sg_task *add_task(struct scenario *sc, int pid, const char *comm, int prio)
{
	struct sg_task *t = xmalloc(sizeof(*t));

	sg_task_init(t, pid, comm, prio);
	t->index = sc->nr_tasks;
	GROW(sc->tasks, sc->alloc_tasks, sc->nr_tasks + 1);
	sc->tasks[sc->nr_tasks++] = t;
	sg_output_task(sc->out, pid, t->comm);
	return t;
}

/* ------------------------------------------------------------------ */
/* What happens later on its own: driver timers */

static int run_then(struct scenario *sc, struct sg_task *t, enum run_then then, uint64_t *ts)
{
	struct sg_sched *s = &sc->sched;

	switch (then) {
	case THEN_SLEEP:
		return sg_block(s, t, sg_state_blocked(s, 'S'), ts);
	case THEN_EXIT:
		return sg_exit(s, t, ts);
	case THEN_YIELD:
		return sg_preempt(s, t->cpu, NULL, ts);
	case THEN_STAY:
		break;
	}
	return 0;
}

/* One half of a ping-pong: the running side wakes the other and sleeps. */
static int pingpong_half(struct scenario *sc, struct pingpong *pp, struct sg_task *self,
			 uint64_t *ts)
{
	struct sg_sched *s = &sc->sched;
	struct sg_task *other = pp->side[pp->side[0] == self];
	struct sg_wake_args wa = {
		.waker_cpu = self->cpu, .ctx = CTX_TASK, .dest = -1, .method = pp->method,
	};
	int ret;

	ret = sg_wake(s, other, &wa, ts);
	if (ret)
		return ret;
	pp->rounds_left--;
	pp->active = pp->rounds_left > 0;
	pp->expect = pp->active ? other : NULL;
	/* synchronous: the waker sleeps right after, as a pipe reader does */
	*ts += s->gap;
	return sg_block(s, self, sg_state_blocked(s, 'S'), ts);
}

static int fire(struct sg_sched *s, const struct sg_timer *tm)
{
	struct scenario *sc = s->driver;
	uint64_t ts = tm->ts;

	switch (tm->kind) {
	case TM_RUN_END:
		if (tm->task->state != TS_RUNNING || tm->task->gen != tm->gen)
			return 0;	/* it left the CPU before its time was up */
		return run_then(sc, tm->task, tm->arg, &ts);
	case TM_HOG_SLICE:
	case TM_TICK: {
		struct periodic *per = &sc->per[tm->arg];
		struct sg_cpu *c = &s->cpu[per->cpu];
		struct sg_timer again = *tm;
		int ret = 0;

		if (!per->hog) {
			ret = sg_tick(s, per->cpu, &ts);
		} else if (!sg_cpu_idle(c) && c->rq_head) {
			if (per->ticks) {
				/* the tick is what preempts: it comes first */
				ret = sg_tick(s, per->cpu, &ts);
				ts += s->gap;
			}
			if (!ret)
				ret = sg_preempt(s, per->cpu, NULL, &ts);
		}
		again.ts = tm->ts + per->period;
		if (!ret && again.ts < per->end)
			sg_timer_add(s, &again);
		return ret;
	}
	case TM_PINGPONG: {
		struct pingpong *pp = &sc->pp[tm->arg];

		if (!pp->active || tm->task->state != TS_RUNNING)
			return 0;
		return pingpong_half(sc, pp, tm->task, &ts);
	}
	}
	return 0;
}

/* A ping-pong goes on when the side it waits for gets the CPU. */
static void switched_in(struct sg_sched *s, int cpu, struct sg_task *t, uint64_t ts)
{
	struct scenario *sc = s->driver;

	for (size_t i = 0; i < sc->nr_pp; i++) {
		struct pingpong *pp = &sc->pp[i];
		struct sg_timer tm = { .kind = TM_PINGPONG, .cpu = cpu, .task = t, .arg = i };

		if (!pp->active || pp->expect != t)
			continue;
		pp->expect = NULL;
		tm.ts = ts + pp->think;
		sg_timer_add(s, &tm);
	}
}

static const struct sg_sched_ops scenario_ops = {
	.fire = fire,
	.switched_in = switched_in,
};

/* ------------------------------------------------------------------ */
/* Settings and tasks */

static int start(struct scenario *sc)
{
	struct sg_output_opts oo = { 0 };

	if (sc->started)
		return 0;
	if (!sc->ncpus)
		return fail(sc, "say how many CPUs first ('cpus N')");
	if (sg_abi_init(&sc->abi, sc->opts, sc->kernel, sc->long_size, sc->big_endian))
		return -1;
	oo.dat_path = sc->opts->dat_path;
	oo.text_path = sc->opts->text_path;
	oo.abi = sc->abi;
	oo.ncpus = sc->ncpus;
	oo.buffer_all = true;
	sc->out = sg_output_open(&oo);
	if (!sc->out)
		return -1;
	sg_sched_init(&sc->sched, &sc->abi, sc->ncpus, sc->out);
	sc->sched.strict = true;
	sc->sched.ops = &scenario_ops;
	sc->sched.driver = sc;
	sc->started = true;
	return 0;
}

static int setting(struct scenario *sc, const char *key)
{
	long long v;
	uint64_t ns;
	const char *w;

	if (!strcmp(key, "gap") || !strcmp(key, "ipi-delay")) {
		if (want_time(sc, key, &ns) || no_more(sc))
			return -1;
		if (start(sc))
			return -1;
		if (!strcmp(key, "gap"))
			sc->sched.gap = ns;
		else
			sc->sched.ipi_delay = ns;
		return 0;
	}
	if (strcmp(key, "cpus") && strcmp(key, "kernel") && strcmp(key, "endian") &&
	    strcmp(key, "long-size") && strcmp(key, "start"))
		return 1;	/* not a setting */
	if (sc->started)
		return fail(sc, "'%s' must come before the first task or step", key);
	if (!strcmp(key, "cpus")) {
		if (want_int(sc, "cpus", 1, 8192, &v) || no_more(sc))
			return -1;
		sc->ncpus = v;
	} else if (!strcmp(key, "kernel")) {
		w = next(sc);
		if (!w || no_more(sc))
			return fail(sc, "kernel: which one? (%s)", sg_kernel_names());
		if (!sg_kernel_find(w))
			return fail(sc, "unknown kernel '%s' (known: %s)", w, sg_kernel_names());
		sc->kernel = sg_kernel_name(sg_kernel_find(w));	/* w is the line buffer */
	} else if (!strcmp(key, "endian")) {
		w = next(sc);
		if (!w || (strcmp(w, "big") && strcmp(w, "little")) || no_more(sc))
			return fail(sc, "endian: big or little");
		sc->big_endian = !strcmp(w, "big");
	} else if (!strcmp(key, "long-size")) {
		if (want_int(sc, "long-size", 4, 8, &v) || (v != 4 && v != 8) || no_more(sc))
			return fail(sc, "long-size: 4 or 8");
		sc->long_size = v;
	} else if (!strcmp(key, "start")) {
		if (want_time(sc, key, &ns) || no_more(sc))
			return -1;
		sc->start = ns;
	}
	return 0;
}

/* task PID COMM [prio N] [cpu C] [running|runnable|blocked|unborn] */
static int declare_task(struct scenario *sc)
{
	long long pid, prio = 120;
	const char *comm;
	int cpu = 0;
	enum sg_task_state st = TS_BLOCKED;
	struct sg_task *t;

	if (want_int(sc, "task pid", 1, 0x3fffffff, &pid))
		return -1;
	if (find_pid(sc, pid))
		return fail(sc, "pid %lld is declared twice", pid);
	comm = next(sc);
	if (!comm)
		return fail(sc, "task %lld: its comm is missing", pid);
	if (strlen(comm) >= SG_COMM_LEN)
		return fail(sc, "comm '%s' is longer than %d characters", comm, SG_COMM_LEN - 1);
	while (peek(sc)) {
		if (accept(sc, "prio")) {
			/* -1: a SCHED_DEADLINE task's p->prio, as the kernel prints it */
			if (want_int(sc, "prio", -1, 139, &prio))
				return -1;
		} else if (accept(sc, "cpu")) {
			if (want_cpu(sc, &cpu))
				return -1;
		} else if (accept(sc, "running")) {
			st = TS_RUNNING;
		} else if (accept(sc, "runnable")) {
			st = TS_RUNNABLE;
		} else if (accept(sc, "blocked")) {
			st = TS_BLOCKED;
		} else if (accept(sc, "unborn")) {
			st = TS_UNBORN;
		} else {
			return fail(sc, "task: unexpected '%s'", peek(sc));
		}
	}
	t = add_task(sc, pid, comm, prio);
	t->cpu = cpu;
	t->state = st;
	if (st == TS_RUNNING && sg_place_running(&sc->sched, t, cpu))
		return fail_sched(sc);
	if (st == TS_RUNNABLE)
		sg_place_runnable(&sc->sched, t, cpu);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Steps */

static int parse_state(struct scenario *sc, const char *w, long long *state)
{
	if (sg_state_parse(sc->abi.kernel, w, state))
		return fail(sc, "'%s' is not a task state of kernel %s", w,
			    sg_kernel_name(sc->abi.kernel));
	return 0;
}

static int parse_method(const char *w, enum sg_wake_method *m)
{
	if (!strcmp(w, "wakelist"))
		*m = WAKE_WAKELIST;
	else if (!strcmp(w, "direct"))
		*m = WAKE_DIRECT;
	else if (!strcmp(w, "poll"))
		*m = WAKE_POLL;
	else
		return -1;
	return 0;
}

/* wake T [from W | on cpu C] [in task|softirq|hardirq] [to cpu D] [wakelist|direct|poll] [preempt] [ipi-delay T] */
static int step_wake(struct scenario *sc, uint64_t *ts)
{
	struct sg_wake_args wa = { .waker_cpu = -1, .ctx = CTX_TASK, .dest = -1 };
	struct sg_task *t, *waker = NULL;
	bool ctx_given = false;
	const char *w;

	if (want_task(sc, &t))
		return -1;
	while ((w = peek(sc))) {
		if (accept(sc, "from")) {
			if (want_task(sc, &waker))
				return -1;
		} else if (accept(sc, "on")) {
			if (want_cpu_kw(sc, &wa.waker_cpu))
				return -1;
		} else if (accept(sc, "in")) {
			w = next(sc);
			if (w && !strcmp(w, "task"))
				wa.ctx = CTX_TASK;
			else if (w && !strcmp(w, "softirq"))
				wa.ctx = CTX_SOFTIRQ;
			else if (w && !strcmp(w, "hardirq"))
				wa.ctx = CTX_HARDIRQ;
			else
				return fail(sc, "in: task, softirq or hardirq");
			ctx_given = true;
		} else if (accept(sc, "to")) {
			if (want_cpu_kw(sc, &wa.dest))
				return -1;
		} else if (parse_method(w, &wa.method) == 0) {
			sc->pos++;
		} else if (accept(sc, "preempt")) {
			wa.preempt = true;
		} else if (accept(sc, "ipi-delay")) {
			if (want_time(sc, "ipi-delay", &wa.ipi_delay))
				return -1;
		} else {
			return fail(sc, "wake: unexpected '%s'", w);
		}
	}
	if (waker) {
		if (waker->state != TS_RUNNING)
			return fail(sc, "the waker %s-%d is not running (it is %s)", waker->comm,
				    waker->pid, sg_task_state_name(waker->state));
		if (wa.waker_cpu >= 0 && wa.waker_cpu != waker->cpu)
			return fail(sc, "%s-%d runs on cpu %d, not %d", waker->comm, waker->pid,
				    waker->cpu, wa.waker_cpu);
		wa.waker_cpu = waker->cpu;
	} else if (wa.waker_cpu < 0) {
		return fail(sc, "wake: say who wakes %s: 'from TASK' or 'on cpu N'", t->comm);
	} else if (!ctx_given) {
		wa.ctx = CTX_HARDIRQ;	/* an interrupt on that CPU: a timer, a device */
	}
	if (t == waker)
		return fail(sc, "a task cannot wake itself");
	return sg_wake(&sc->sched, t, &wa, ts) ? fail_sched(sc) : 0;
}

/* sleep T [STATE] */
static int step_sleep(struct scenario *sc, uint64_t *ts)
{
	long long state = sg_state_blocked(&sc->sched, 'S');
	struct sg_task *t;

	if (want_task(sc, &t))
		return -1;
	if (peek(sc) && parse_state(sc, next(sc), &state))
		return -1;
	if (no_more(sc))
		return -1;
	return sg_block(&sc->sched, t, state, ts) ? fail_sched(sc) : 0;
}

/* exit T */
static int step_exit(struct scenario *sc, uint64_t *ts)
{
	struct sg_task *t;

	if (want_task(sc, &t) || no_more(sc))
		return -1;
	return sg_exit(&sc->sched, t, ts) ? fail_sched(sc) : 0;
}

/* preempt cpu C [by T] | preempt T [by T2] */
static int step_preempt(struct scenario *sc, uint64_t *ts)
{
	struct sg_task *t, *by = NULL;
	int cpu = 0;

	if (accept(sc, "cpu")) {
		if (want_cpu(sc, &cpu))
			return -1;
	} else {
		if (want_task(sc, &t))
			return -1;
		if (t->state != TS_RUNNING)
			return fail(sc, "%s-%d is not running", t->comm, t->pid);
		cpu = t->cpu;
	}
	if (accept(sc, "by") && want_task(sc, &by))
		return -1;
	if (no_more(sc))
		return -1;
	return sg_preempt(&sc->sched, cpu, by, ts) ? fail_sched(sc) : 0;
}

/* switch cpu C to T|idle [prev STATE] */
static int step_switch(struct scenario *sc, uint64_t *ts)
{
	struct sg_task *to = NULL;
	long long state;
	int cpu = 0;

	if (want_cpu_kw(sc, &cpu))
		return -1;
	if (!accept(sc, "to"))
		return fail(sc, "switch: 'to TASK' or 'to idle' is missing");
	if (!accept(sc, "idle") && want_task(sc, &to))
		return -1;
	state = to ? sg_state_preempted(sc->abi.kernel) : sg_state_blocked(&sc->sched, 'S');
	if (accept(sc, "prev")) {
		const char *w = next(sc);

		if (!w)
			return fail(sc, "prev: which state?");
		if (parse_state(sc, w, &state))
			return -1;
	}
	if (no_more(sc))
		return -1;
	return sg_switch_to(&sc->sched, cpu, to, state, ts) ? fail_sched(sc) : 0;
}

/* run T on cpu C [for TIME] [then sleep|exit|yield|stay] */
static int step_run(struct scenario *sc, uint64_t *ts)
{
	struct sg_sched *s = &sc->sched;
	enum run_then then = THEN_SLEEP;
	uint64_t dur = 0;
	struct sg_task *t;
	const char *w;
	int cpu = 0, ret = 0;

	if (want_task(sc, &t))
		return -1;
	if (!accept(sc, "on"))
		return fail(sc, "run: 'on cpu N' is missing");
	if (want_cpu_kw(sc, &cpu))
		return -1;
	while ((w = peek(sc))) {
		if (accept(sc, "for")) {
			if (want_time(sc, "for", &dur))
				return -1;
		} else if (accept(sc, "then")) {
			w = next(sc);
			if (w && !strcmp(w, "sleep"))
				then = THEN_SLEEP;
			else if (w && !strcmp(w, "exit"))
				then = THEN_EXIT;
			else if (w && !strcmp(w, "yield"))
				then = THEN_YIELD;
			else if (w && !strcmp(w, "stay"))
				then = THEN_STAY;
			else
				return fail(sc, "then: sleep, exit, yield or stay");
		} else {
			return fail(sc, "run: unexpected '%s'", w);
		}
	}

	switch (t->state) {
	case TS_RUNNING:
		if (t->cpu != cpu)
			return fail(sc, "%s-%d runs on cpu %d", t->comm, t->pid, t->cpu);
		break;
	case TS_BLOCKED: {
		/* a timer interrupt on that CPU wakes it, and it takes the CPU */
		struct sg_wake_args wa = {
			.waker_cpu = cpu, .ctx = CTX_HARDIRQ, .dest = cpu, .preempt = true,
		};

		ret = sg_wake(s, t, &wa, ts);
		break;
	}
	case TS_RUNNABLE:
		if (t->cpu != cpu)
			return fail(sc, "%s-%d waits on cpu %d: migrate it first", t->comm, t->pid,
				    t->cpu);
		if (sg_cpu_idle(&s->cpu[cpu]))
			ret = sg_switch_to(s, cpu, t, 0, ts);
		else
			ret = sg_preempt(s, cpu, t, ts);
		break;
	default:
		return fail(sc, "%s-%d cannot run: it is %s", t->comm, t->pid,
			    sg_task_state_name(t->state));
	}
	if (ret)
		return fail_sched(sc);
	if (t->state != TS_RUNNING)
		return fail(sc, "%s-%d did not get cpu %d", t->comm, t->pid, cpu);
	if (dur && then != THEN_STAY) {
		struct sg_timer tm = {
			.ts = t->since + dur, .kind = TM_RUN_END, .cpu = cpu, .task = t,
			.arg = then, .gen = t->gen,
		};
		sg_timer_add(s, &tm);
	}
	return 0;
}

/* fork PARENT PID [COMM] [prio N] [to cpu C] */
static int step_fork(struct scenario *sc, uint64_t *ts)
{
	struct sg_task *parent, *child;
	long long pid, prio = -1;
	const char *comm = NULL;
	int dest = -1;

	if (want_task(sc, &parent))
		return -1;
	if (want_int(sc, "child pid", 1, 0x3fffffff, &pid))
		return -1;
	if (peek(sc) && strcmp(peek(sc), "prio") && strcmp(peek(sc), "to"))
		comm = next(sc);
	while (peek(sc)) {
		if (accept(sc, "prio")) {
			if (want_int(sc, "prio", 0, 139, &prio))
				return -1;
		} else if (accept(sc, "to")) {
			if (want_cpu_kw(sc, &dest))
				return -1;
		} else {
			return fail(sc, "fork: unexpected '%s'", peek(sc));
		}
	}
	child = find_pid(sc, pid);
	if (!child) {
		if (comm && strlen(comm) >= SG_COMM_LEN)
			return fail(sc, "comm '%s' is too long", comm);
		child = add_task(sc, pid, comm ? comm : parent->comm,
				 prio >= 0 ? prio : parent->prio);
		child->state = TS_UNBORN;
	} else if (comm || prio >= 0) {
		return fail(sc, "pid %lld is declared already: name and prio come from there", pid);
	}
	return sg_fork(&sc->sched, parent, child, dest, ts) ? fail_sched(sc) : 0;
}

/* migrate T to cpu C [on cpu X] */
static int step_migrate(struct scenario *sc, uint64_t *ts)
{
	struct sg_task *t;
	int dest = 0, on = -1;

	if (want_task(sc, &t))
		return -1;
	if (!accept(sc, "to"))
		return fail(sc, "migrate: 'to cpu N' is missing");
	if (want_cpu_kw(sc, &dest))
		return -1;
	if (accept(sc, "on") && want_cpu_kw(sc, &on))
		return -1;
	if (no_more(sc))
		return -1;
	return sg_migrate(&sc->sched, t, dest, on, ts) ? fail_sched(sc) : 0;
}

static struct periodic *add_periodic(struct scenario *sc, size_t *index)
{
	GROW(sc->per, sc->alloc_per, sc->nr_per + 1);
	*index = sc->nr_per;
	memset(&sc->per[sc->nr_per], 0, sizeof(sc->per[0]));
	return &sc->per[sc->nr_per++];
}

/* tick cpu C|all [every TIME until TIME] */
static int step_tick(struct scenario *sc, uint64_t *ts)
{
	uint64_t every = 0, until = 0;
	int cpu = -1, first, last;

	if (!accept(sc, "all") && want_cpu_kw(sc, &cpu))
		return -1;
	while (peek(sc)) {
		if (accept(sc, "every")) {
			if (want_time(sc, "every", &every))
				return -1;
			if (!every)
				return fail(sc, "every: the period cannot be 0");
		} else if (accept(sc, "until")) {
			if (want_time(sc, "until", &until))
				return -1;
			until += sc->start;
		} else {
			return fail(sc, "tick: unexpected '%s'", peek(sc));
		}
	}
	if (every && !until)
		return fail(sc, "tick every: say until when");
	first = cpu < 0 ? 0 : cpu;
	last = cpu < 0 ? sc->ncpus - 1 : cpu;
	for (int c = first; c <= last; c++) {
		uint64_t t = *ts;

		if (sg_tick(&sc->sched, c, &t))
			return fail_sched(sc);
		if (every && *ts + every < until) {
			size_t idx;
			struct periodic *per = add_periodic(sc, &idx);
			struct sg_timer tm = { .ts = *ts + every, .kind = TM_TICK, .cpu = c, .arg = idx };

			per->cpu = c;
			per->period = every;
			per->end = until;
			sg_timer_add(&sc->sched, &tm);
		}
	}
	return 0;
}

/* lose N [events] on cpu C */
static int step_lose(struct scenario *sc, uint64_t *ts)
{
	long long n;
	int cpu = 0;

	if (want_int(sc, "lose", 1, 1LL << 40, &n))
		return -1;
	accept(sc, "events");
	if (!accept(sc, "on"))
		return fail(sc, "lose: 'on cpu N' is missing");
	if (want_cpu_kw(sc, &cpu) || no_more(sc))
		return -1;
	return sg_lose(&sc->sched, cpu, n, ts) ? fail_sched(sc) : 0;
}

/* mark [cpu C] TEXT...: a trace_marker write, such as "schedlint: llc=0-3,4-7" */
static int step_mark(struct scenario *sc, uint64_t *ts)
{
	char text[SG_MAX_MARK + 1];
	size_t n = 0;
	int cpu = 0;

	if (accept(sc, "cpu") && want_cpu(sc, &cpu))
		return -1;
	if (!peek(sc))
		return fail(sc, "mark: the text is missing");
	/* the words of the line, one blank between them */
	while (peek(sc)) {
		const char *w = next(sc);
		size_t len = strlen(w);

		if (n + !!n + len > SG_MAX_MARK)
			return fail(sc, "mark: longer than %d characters", SG_MAX_MARK);
		if (n)
			text[n++] = ' ';
		memcpy(text + n, w, len);
		n += len;
	}
	text[n] = '\0';
	return sg_mark(&sc->sched, cpu, keep(sc, text), ts) ? fail_sched(sc) : 0;
}

/* hogs T1 T2... on cpu C slice TIME for TIME [ticks] */
static int step_hogs(struct scenario *sc, uint64_t *ts)
{
	uint64_t slice = 4 * NSEC_PER_MSEC, dur = 0;
	struct sg_task *hog[MAX_TOKENS];
	struct periodic *per;
	struct sg_timer tm;
	bool ticks = false;
	int cpu = 0, n = 0;
	size_t idx;

	while (peek(sc) && strcmp(peek(sc), "on"))
		if (want_task(sc, &hog[n++]))
			return -1;
	if (n < 2)
		return fail(sc, "hogs: name at least two tasks");
	if (!accept(sc, "on") || want_cpu_kw(sc, &cpu))
		return fail(sc, "hogs: 'on cpu N' is missing");
	while (peek(sc)) {
		if (accept(sc, "slice")) {
			if (want_time(sc, "slice", &slice))
				return -1;
			if (!slice)
				return fail(sc, "slice: cannot be 0");
		} else if (accept(sc, "for")) {
			if (want_time(sc, "for", &dur))
				return -1;
		} else if (accept(sc, "ticks")) {
			ticks = true;
		} else {
			return fail(sc, "hogs: unexpected '%s'", peek(sc));
		}
	}
	if (!dur)
		return fail(sc, "hogs: say for how long ('for 100ms')");
	/* every hog must already be there, running or queued */
	for (int i = 0; i < n; i++) {
		struct sg_task *t = hog[i];

		if ((t->state != TS_RUNNING && t->state != TS_RUNNABLE) || t->cpu != cpu)
			return fail(sc, "hog %s-%d must be running or runnable on cpu %d (it is %s on cpu %d)",
				    t->comm, t->pid, cpu, sg_task_state_name(t->state), t->cpu);
	}
	if (sg_cpu_idle(&sc->sched.cpu[cpu]) &&
	    sg_switch_to(&sc->sched, cpu, sc->sched.cpu[cpu].rq_head, 0, ts))
		return fail_sched(sc);
	per = add_periodic(sc, &idx);
	per->cpu = cpu;
	per->period = slice;
	per->end = *ts + dur;
	per->hog = true;
	per->ticks = ticks;
	memset(&tm, 0, sizeof(tm));
	tm.ts = *ts + slice;
	tm.kind = TM_HOG_SLICE;
	tm.cpu = cpu;
	tm.arg = idx;
	if (tm.ts < per->end)
		sg_timer_add(&sc->sched, &tm);
	return 0;
}

/* pingpong A B [rounds N] [think TIME] [wakelist|direct|poll] */
static int step_pingpong(struct scenario *sc, uint64_t *ts)
{
	struct pingpong pp = { .rounds_left = 10, .think = 10 * NSEC_PER_USEC };
	const char *w;
	int ret;

	if (want_task(sc, &pp.side[0]) || want_task(sc, &pp.side[1]))
		return -1;
	while ((w = peek(sc))) {
		if (accept(sc, "rounds")) {
			if (want_int(sc, "rounds", 1, 1LL << 40, &pp.rounds_left))
				return -1;
		} else if (accept(sc, "think")) {
			if (want_time(sc, "think", &pp.think))
				return -1;
		} else if (parse_method(w, &pp.method) == 0) {
			sc->pos++;
		} else {
			return fail(sc, "pingpong: unexpected '%s'", w);
		}
	}
	if (pp.side[0] == pp.side[1])
		return fail(sc, "pingpong: two different tasks");
	if (pp.side[0]->state != TS_RUNNING)
		return fail(sc, "pingpong: %s-%d must be running", pp.side[0]->comm, pp.side[0]->pid);
	if (pp.side[1]->state != TS_BLOCKED)
		return fail(sc, "pingpong: %s-%d must be blocked", pp.side[1]->comm, pp.side[1]->pid);
	GROW(sc->pp, sc->alloc_pp, sc->nr_pp + 1);
	sc->pp[sc->nr_pp] = pp;
	ret = pingpong_half(sc, &sc->pp[sc->nr_pp++], pp.side[0], ts);
	return ret ? fail_sched(sc) : 0;
}

/* ------------------------------------------------------------------ */
/* event cpu C NAME key=value...: one event, exactly as given */

static int raw_task(struct scenario *sc, long long pid, struct sg_task **t)
{
	*t = NULL;
	if (pid == 0)
		return 0;
	*t = find_pid(sc, pid);
	if (!*t)
		return fail(sc, "no task with pid %lld (declare it with 'task')", pid);
	return 0;
}

static int raw_addr(struct scenario *sc, const char *v, uint64_t *addr)
{
	char name[64];
	const char *plus = strchr(v, '+');
	long long off = 0;
	int sym;

	if (v[0] == '0' && v[1] == 'x')
		return parse_int(v, 0, 0x7fffffffffffffffLL, &off) ? -1 : (*addr = off, 0);
	snprintf(name, sizeof(name), "%.*s", plus ? (int)(plus - v) : (int)strlen(v), v);
	sym = sg_sym_lookup(name);
	if (sym < 0)
		return fail(sc, "unknown symbol '%s'", name);
	if (plus && parse_int(plus + 1, 0, 0xffff, &off))
		return fail(sc, "bad offset in '%s'", v);
	*addr = sg_sym_addr(&sc->abi, sym, off);
	return 0;
}

static int step_event(struct scenario *sc, uint64_t ts)
{
	struct sg_sched *s = &sc->sched;
	struct sg_task *t0 = NULL, *t1 = NULL;
	struct sg_event ev;
	const char *name, *flags = NULL;
	long long v, pid0 = -1, pid1 = -1;
	int cpu = 0, type = -1;
	bool have_state = false, have_target = false, have_arg1 = false, have_addr0 = false;
	bool have_addr1 = false, have_vector = false;

	if (want_cpu_kw(sc, &cpu))
		return -1;
	name = next(sc);
	if (!name)
		return fail(sc, "event: the event name is missing");
	for (int i = 0; i < SG_NR_EVENT_TYPES; i++)
		if (!strcmp(sg_event_name(i), name))
			type = i;
	if (type < 0)
		return fail(sc, "unknown event '%s'", name);
	if (!sg_kernel_has(sc->abi.kernel, type))
		return fail(sc, "kernel %s has no %s", sg_kernel_name(sc->abi.kernel), name);

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.cpu = cpu;
	ev.ts = ts;
	ev.common_pid = s->cpu[cpu].curr->pid;

	/* first pass: the pids, so that comm and prio can default from them */
	for (int i = sc->pos; i < sc->ntok; i++) {
		char *eq = strchr(sc->tok[i], '=');

		if (!eq)
			return fail(sc, "event: '%s' is not key=value", sc->tok[i]);
		*eq = '\0';
		if (!strcmp(sc->tok[i], "pid") || !strcmp(sc->tok[i], "prev_pid") ||
		    !strcmp(sc->tok[i], "parent_pid")) {
			if (parse_int(eq + 1, 0, 0x7fffffff, &pid0))
				return fail(sc, "%s: bad pid '%s'", sc->tok[i], eq + 1);
		} else if (!strcmp(sc->tok[i], "next_pid") || !strcmp(sc->tok[i], "child_pid")) {
			if (parse_int(eq + 1, 0, 0x7fffffff, &pid1))
				return fail(sc, "%s: bad pid '%s'", sc->tok[i], eq + 1);
		}
	}
	if (pid0 < 0 && (type == SG_SCHED_SWITCH || type == SG_SCHED_PROCESS_FORK ||
			 type == SG_SCHED_PROCESS_EXIT))
		pid0 = ev.common_pid;	/* the task that logs it */
	if (pid0 >= 0 && raw_task(sc, pid0, &t0))
		return -1;
	if (pid1 >= 0 && raw_task(sc, pid1, &t1))
		return -1;
	if (pid0 >= 0) {
		const struct sg_task *t = t0 ? t0 : &s->cpu[cpu].idle;

		ev.pid[0] = pid0;
		ev.comm[0] = t->comm;
		ev.prio[0] = t->prio;
		ev.arg[0] = t->cpu;
	}
	if (pid1 >= 0) {
		const struct sg_task *t = t1 ? t1 : &s->cpu[cpu].idle;

		ev.pid[1] = pid1;
		ev.comm[1] = t->comm;
		ev.prio[1] = t->prio;
	}

	for (int i = sc->pos; i < sc->ntok; i++) {
		const char *k = sc->tok[i], *val = k + strlen(k) + 1;
		bool ok = true;

		if (!strcmp(k, "pid") || !strcmp(k, "prev_pid") || !strcmp(k, "parent_pid") ||
		    !strcmp(k, "next_pid") || !strcmp(k, "child_pid"))
			continue;
		if (!strcmp(k, "common_pid")) {
			ok = !parse_int(val, 0, 0x7fffffff, &v);
			ev.common_pid = v;
		} else if (!strcmp(k, "flags")) {
			flags = val;
		} else if (!strcmp(k, "comm") || !strcmp(k, "prev_comm") || !strcmp(k, "parent_comm")) {
			ev.comm[0] = keep(sc, val);
		} else if (!strcmp(k, "next_comm") || !strcmp(k, "child_comm")) {
			ev.comm[1] = keep(sc, val);
		} else if (!strcmp(k, "prio") || !strcmp(k, "prev_prio")) {
			ok = !parse_int(val, -1000, 1000, &v);
			ev.prio[0] = v;
		} else if (!strcmp(k, "next_prio")) {
			ok = !parse_int(val, -1000, 1000, &v);
			ev.prio[1] = v;
		} else if (!strcmp(k, "prev_state")) {
			if (parse_state(sc, val, &ev.state))
				return -1;
			have_state = true;
		} else if (!strcmp(k, "target_cpu") || !strcmp(k, "orig_cpu") ||
			   (!strcmp(k, "cpu") && type != SG_IPI_SEND_CPU) ||
			   !strcmp(k, "group_dead")) {
			ok = !parse_int(val, 0, 1 << 20, &v);
			ev.arg[0] = v;
			have_target = true;
		} else if (!strcmp(k, "cpu")) {
			ok = !parse_int(val, 0, 1 << 20, &v);
			ev.arg[0] = v;
			have_target = true;
		} else if (!strcmp(k, "dest_cpu")) {
			ok = !parse_int(val, 0, 1 << 20, &v);
			ev.arg[1] = v;
			have_arg1 = true;
		} else if (!strcmp(k, "vector")) {
			ok = !parse_int(val, 0, 255, &v);
			ev.arg[0] = v;
			have_vector = true;
		} else if (!strcmp(k, "callsite")) {
			if (raw_addr(sc, val, &ev.addr[0]))
				return -1;
			have_addr0 = true;
		} else if (!strcmp(k, "callback")) {
			if (raw_addr(sc, val, &ev.addr[1]))
				return -1;
			have_addr1 = true;
		} else {
			return fail(sc, "%s: unknown field '%s'", name, k);
		}
		if (!ok)
			return fail(sc, "%s: bad value '%s' for %s", name, val, k);
		if (strlen(ev.comm[0] ? ev.comm[0] : "") >= SG_COMM_LEN ||
		    strlen(ev.comm[1] ? ev.comm[1] : "") >= SG_COMM_LEN)
			return fail(sc, "a comm is longer than %d characters", SG_COMM_LEN - 1);
	}

	/* what each event needs, and the kernel's usual flags */
	switch (type) {
	case SG_SCHED_SWITCH:
		if (pid1 < 0)
			return fail(sc, "sched_switch: next_pid is missing");
		if (!have_state)
			ev.state = t0 ? sg_state_preempted(sc->abi.kernel) : 0;
		ev.flags = TRACE_FLAG_IRQS_OFF;
		ev.preempt_count = 2;
		break;
	case SG_SCHED_WAKING:
	case SG_SCHED_WAKEUP:
	case SG_SCHED_WAKEUP_NEW:
		if (pid0 < 0)
			return fail(sc, "%s: pid is missing", name);
		ev.flags = TRACE_FLAG_IRQS_OFF;
		ev.preempt_count = type == SG_SCHED_WAKING ? 3 : 4;
		break;
	case SG_SCHED_MIGRATE_TASK:
		if (pid0 < 0 || !have_arg1)
			return fail(sc, "sched_migrate_task: pid and dest_cpu are needed");
		ev.flags = TRACE_FLAG_IRQS_OFF;
		ev.preempt_count = 3;
		break;
	case SG_SCHED_PROCESS_FORK:
		if (pid1 < 0)
			return fail(sc, "sched_process_fork: child_pid is missing");
		break;
	case SG_SCHED_PROCESS_EXIT:
		if (!have_target)
			ev.arg[0] = 1;
		break;
	case SG_SCHED_WAKE_IDLE_WITHOUT_IPI:
	case SG_IPI_SEND_CPU:
		if (!have_target)
			return fail(sc, "%s: cpu is missing", name);
		ev.flags = TRACE_FLAG_IRQS_OFF;
		ev.preempt_count = 3;
		if (type == SG_IPI_SEND_CPU) {
			if (!have_addr0)
				ev.addr[0] = sg_sym_addr(&sc->abi, SYM_TTWU_QUEUE_WAKELIST, 0x11d);
			if (!have_addr1)
				ev.addr[1] = sg_sym_addr(&sc->abi,
							 SYM_GENERIC_SMP_CALL_FUNCTION_SINGLE_INTERRUPT, 0);
		}
		break;
	case SG_LOCAL_TIMER_ENTRY:
	case SG_RESCHEDULE_ENTRY:
	case SG_CALL_FUNCTION_SINGLE_ENTRY:
		if (!have_vector)
			ev.arg[0] = type == SG_LOCAL_TIMER_ENTRY ? 236 :
				    type == SG_RESCHEDULE_ENTRY ? 253 : 251;
		ev.flags = TRACE_FLAG_IRQS_OFF | TRACE_FLAG_HARDIRQ;
		ev.preempt_count = ev.common_pid ? 0 : 1;
		break;
	}
	if (!ev.comm[0])
		ev.comm[0] = "";
	if (!ev.comm[1])
		ev.comm[1] = "";
	if (flags && sg_irq_info_parse(flags, &ev.flags, &ev.preempt_count))
		return fail(sc, "flags: '%s' is not an irq-info column like d..2.", flags);
	return sg_raw_event(s, &ev, t0, t1) ? fail_sched(sc) : 0;
}

/* ------------------------------------------------------------------ */
/* Lines */

static const struct {
	const char *name;
	int (*fn)(struct scenario *sc, uint64_t *ts);
} steps[] = {
	{ "wake", step_wake },
	{ "sleep", step_sleep },
	{ "block", step_sleep },
	{ "exit", step_exit },
	{ "preempt", step_preempt },
	{ "switch", step_switch },
	{ "run", step_run },
	{ "fork", step_fork },
	{ "migrate", step_migrate },
	{ "tick", step_tick },
	{ "lose", step_lose },
	{ "mark", step_mark },
	{ "hogs", step_hogs },
	{ "pingpong", step_pingpong },
};

static int do_step(struct scenario *sc)
{
	const char *w = peek(sc);
	uint64_t when, t;
	int ret = 1;

	if (w[0] == '@' || w[0] == '+') {
		if (parse_time_ns(w + 1, &t))
			return fail(sc, "'%s': a time like @1ms or +20us", w);
		when = w[0] == '@' ? sc->start + t : (sc->any_step ? sc->step_start : sc->start) + t;
		sc->pos++;
		if (!peek(sc))
			return fail(sc, "a time, but no step");
	} else {
		when = sc->any_step ? sc->step_end + sc->sched.gap : sc->start;
	}
	if (start(sc))
		return -1;
	if (sc->any_step && when < sc->step_start) {
		char a[32], b[32];

		return fail(sc, "this step (at %s) comes before the previous one (at %s)",
			    fmt_time(when, a, sizeof(a)), fmt_time(sc->step_start, b, sizeof(b)));
	}
	/* what was due before this step (IPIs landing, runs ending) happens first */
	if (sg_run_timers(&sc->sched, when))
		return fail_sched(sc);
	sc->sched.now = when;
	t = when;
	w = next(sc);
	if (!strcmp(w, "event")) {
		ret = step_event(sc, t);
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(steps); i++)
			if (!strcmp(w, steps[i].name))
				ret = steps[i].fn(sc, &t);
		if (ret == 1)
			return fail(sc, "unknown step '%s'", w);
	}
	if (ret)
		return -1;
	sc->step_start = when;
	sc->step_end = t;
	sc->any_step = true;
	return 0;
}

static int read_line(struct scenario *sc, char *line)
{
	const char *w;
	int ret;

	if (tokenize(sc, line) || !sc->ntok)
		return sc->ntok ? -1 : 0;
	w = next(sc);
	ret = setting(sc, w);
	if (ret <= 0)
		return ret;
	if (!strcmp(w, "task")) {
		if (start(sc))
			return -1;
		return declare_task(sc);
	}
	sc->pos = 0;
	return do_step(sc);
}

static void free_scenario(struct scenario *sc)
{
	for (size_t i = 0; i < sc->nr_tasks; i++)
		free(sc->tasks[i]);
	free(sc->tasks);
	free(sc->pp);
	free(sc->per);
	for (size_t i = 0; i < sc->nr_strings; i++)
		free(sc->strings[i]);
	free(sc->strings);
	if (sc->started)
		sg_sched_free(&sc->sched);
}

int cmd_scenario(int argc, char **argv)
{
	struct sg_common_opts opts = { .big_endian = -1 };
	struct scenario sc = { .big_endian = -1 };
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int ret = 0;

	for (int i = 1; i < argc; i++) {
		int r = sg_common_opt(&opts, argc, argv, &i);

		if (r < 0)
			return 2;
		if (r)
			continue;
		if (argv[i][0] == '-' || sc.path) {
			sg_error("scenario: unexpected '%s'", argv[i]);
			return 2;
		}
		sc.path = argv[i];
	}
	if (!sc.path) {
		sg_error("scenario: which file?");
		return 2;
	}
	f = fopen(sc.path, "r");
	if (!f) {
		sg_error("%s: %s", sc.path, strerror(errno));
		return 2;
	}
	sc.opts = &opts;
	while (!ret && getline(&line, &cap, f) > 0) {
		sc.line++;
		ret = read_line(&sc, line);
	}
	free(line);
	fclose(f);
	if (!ret && !sc.started)
		ret = start(&sc);
	/* the end: let everything under way finish (IPIs in flight, runs, hogs) */
	if (!ret && sg_run_timers(&sc.sched, UINT64_MAX))
		ret = fail_sched(&sc);
	if (sc.out) {
		if (ret)
			sg_output_abort(sc.out);
		else
			ret = sg_output_close(sc.out);
	}
	free_scenario(&sc);
	return ret ? 1 : 0;
}
