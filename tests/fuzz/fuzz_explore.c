// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_explore.c - explore's keys, replayed on a screen nobody sees
 *
 * The input is a key sequence played against one of four small traces:
 * three the harness writes itself (tracefs text) - an ordinary one with
 * findings, exec'd comms, migrations and lost events; one of two events;
 * one of 70 CPUs - and tests/fuzz/explore-far.dat, whose times end 0.38 ms
 * before 2^64 ns (schedgen wrote it from explore-far.scn; text cannot
 * carry times that large).
 * explore runs as it does on a terminal (the same panels, the same key
 * dispatch, every window read again from the trace), drawn by ncurses
 * onto /dev/null through newterm() with the xterm-256color description,
 * at sizes the keys choose (KEY_RESIZE cycles through 80x24, 40x8, a size
 * too small, 300x100...).  After every key and draw, every panel's
 * promises must hold (xp_check(): the timeline's span within [2 us, the
 * trace], its cursor on the trace and in the window, no window end past
 * 2^64 - 1, ...); a hang is a libFuzzer timeout, a crash or sanitizer
 * report a failure.
 *
 * Layout: byte 0 chooses the trace (bits 0-1) and colours (bit 2); byte 1
 * the first size (bits 0-2); then one key per byte: printable ASCII, Tab,
 * Enter, Esc and Backspace as themselves, any other byte one of the
 * special keys below (byte % their number: 0x1a is KEY_RESIZE).  'q' does not end
 * the replay (it would end most of them early); the end of the input
 * answers any question with Esc and stops.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "schedlint/analysis.h"
#include "tui/tui.h"
#include "util/util.h"

#define MAX_KEYS	400	/* each key draws, and may read a window of the trace again */

/* --- the traces --- */

struct gen {
	char *buf;
	size_t len, cap;
	uint64_t ts_us;			/* microseconds, as tracefs prints them */
	uint32_t rnd;
};

static uint32_t gen_rand(struct gen *g, uint32_t n)
{
	g->rnd = g->rnd * 1103515245u + 12345u;
	return (g->rnd >> 8) % n;
}

static void gen_printf(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void gen_printf(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(g->buf + g->len, g->cap - g->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < g->cap - g->len)
			break;
		g->cap = g->cap * 2 + 4096;
		g->buf = realloc(g->buf, g->cap);
		if (!g->buf)
			abort();
	}
	g->len += (size_t)n;
}

/* One event line: "comm-pid [cpu] flags seconds: name: fields" */
static void gen_event(struct gen *g, const char *comm, int pid, int cpu, const char *event)
{
	gen_printf(g, "%16s-%-7d [%03d] d..2. %llu.%06llu: %s\n", comm, pid, cpu,
		   (unsigned long long)(g->ts_us / 1000000), (unsigned long long)(g->ts_us % 1000000), event);
	g->ts_us += 1 + gen_rand(g, 400);
}

enum { SLEEPING, QUEUED, RUNNING };

struct sim_task {
	char comm[32];
	int state, cpu;
};

/*
 * A scheduler in miniature: tasks woken onto some CPU (often not the
 * waker's), switched in there, preempted (R) or going to sleep (S),
 * migrated while queued, exec'd under a new name, and now and then a
 * CPU losing events.
 */
static char *make_trace(int cpus, int tasks, int events, uint64_t base_us, uint32_t seed, size_t *len)
{
	struct gen g = { .ts_us = base_us, .rnd = seed, .cap = 1 << 16 };
	struct sim_task *t = calloc((size_t)tasks + 1, sizeof(*t));
	int *curr = calloc((size_t)cpus, sizeof(*curr));
	char ev[256];

	g.buf = malloc(g.cap);
	if (!t || !curr || !g.buf)
		abort();
	snprintf(t[0].comm, sizeof(t[0].comm), "<idle>");
	for (int i = 1; i <= tasks; i++)
		snprintf(t[i].comm, sizeof(t[i].comm), "task%d", i);
	gen_printf(&g, "# tracer: nop\n#\n# entries-in-buffer/entries-written: %d/%d   #P:%d\n#\n",
		   events, events, cpus);
	for (int n = 0; n < events; n++) {
		int r = (int)gen_rand(&g, 20), cpu = (int)gen_rand(&g, (uint32_t)cpus), p = 1 + (int)gen_rand(&g, (uint32_t)tasks);
		int c = curr[cpu];

		if (r < 8 && t[p].state == SLEEPING) {
			int target = gen_rand(&g, 3) ? cpu : (int)gen_rand(&g, (uint32_t)cpus);

			snprintf(ev, sizeof(ev), "sched_waking: comm=%s pid=%d prio=120 target_cpu=%03d", t[p].comm, p, target);
			gen_event(&g, t[c].comm, c, cpu, ev);
			snprintf(ev, sizeof(ev), "sched_wakeup: comm=%s pid=%d prio=120 target_cpu=%03d", t[p].comm, p, target);
			gen_event(&g, t[c].comm, c, target, ev);
			t[p].state = QUEUED;
			t[p].cpu = target;
		} else if (r < 16) {
			int next = 0;
			bool preempt = c && gen_rand(&g, 3) == 0;

			for (int i = 1; i <= tasks && !next; i++)
				if (t[i].state == QUEUED && t[i].cpu == cpu)
					next = i;
			if (next == c)
				continue;
			snprintf(ev, sizeof(ev), "sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> "
				 "next_comm=%s next_pid=%d next_prio=120", c ? t[c].comm : "swapper", c,
				 preempt ? "R+" : c ? "S" : "R", next ? t[next].comm : "swapper", next);
			gen_event(&g, t[c].comm, c, cpu, ev);
			if (c) {
				t[c].state = preempt ? QUEUED : SLEEPING;
				t[c].cpu = cpu;
			}
			if (next) {
				t[next].state = RUNNING;
				t[next].cpu = cpu;
			}
			curr[cpu] = next;
		} else if (r < 18 && t[p].state == QUEUED && cpus > 1) {
			int dest = (t[p].cpu + 1 + (int)gen_rand(&g, (uint32_t)cpus - 1)) % cpus;

			snprintf(ev, sizeof(ev), "sched_migrate_task: comm=%s pid=%d prio=120 orig_cpu=%d dest_cpu=%d",
				 t[p].comm, p, t[p].cpu, dest);
			gen_event(&g, t[c].comm, c, cpu, ev);
			t[p].cpu = dest;
		} else if (r == 18 && t[p].state == RUNNING) {
			/* exec: the same pid under another name from now on */
			snprintf(t[p].comm, sizeof(t[p].comm), "exec%d-%d", p % 1000, n % 100000);
		} else if (r == 19 && gen_rand(&g, 8) == 0) {
			gen_printf(&g, "CPU:%d [LOST %u EVENTS]\n", cpu, 1 + gen_rand(&g, 50));
			curr[cpu] = 0;
			for (int i = 1; i <= tasks; i++)
				if (t[i].state == RUNNING && t[i].cpu == cpu)
					t[i].state = SLEEPING;
		}
	}
	free(t);
	free(curr);
	*len = g.len;
	return g.buf;
}

struct trace_case {
	const char *name;
	int cpus, tasks, events;
	uint64_t base_us;
	const char *text;		/* written out instead of simulated */
	const char *file;		/* or read from this file (the replay runs at the top of the tree) */
	/* built on first use, kept for every input (x.src's reader points into x) */
	bool ready;
	int fd;
	char path[64];
	struct sl_config cfg;
	struct xp x;
};

static struct trace_case cases[4] = {
	{ .name = "small", .cpus = 4, .tasks = 12, .events = 3000, .base_us = 100000000ull },
	/* a trace.dat (text has at most 10 digits of seconds) ending 0.38 ms before 2^64 ns */
	{ .name = "near 2^64", .file = "tests/fuzz/explore-far.dat" },
	{ .name = "two events", .text =
		"          <idle>-0       [000] d..2.     0.000001: sched_waking: comm=a pid=1 prio=120 target_cpu=000\n"
		"          <idle>-0       [000] d..2.     0.000002: sched_switch: prev_comm=swapper prev_pid=0 "
		"prev_prio=120 prev_state=R ==> next_comm=a next_pid=1 next_prio=120\n" },
	{ .name = "70 CPUs", .cpus = 70, .tasks = 40, .events = 3000, .base_us = 5000000ull },
};

static struct trace_case *trace_case(int i)
{
	struct trace_case *tc = &cases[i];
	struct sl_analysis *an;
	struct sl_error err = { "" };
	char *text = NULL;
	size_t len = 0;

	if (tc->ready)
		return tc;
	if (tc->file) {
		snprintf(tc->path, sizeof(tc->path), "%s", tc->file);
		tc->fd = -1;
	} else if (tc->text) {
		text = strdup(tc->text);
		len = strlen(tc->text);
	} else {
		text = make_trace(tc->cpus, tc->tasks, tc->events, tc->base_us, 7 + (uint32_t)i, &len);
	}
	if (!tc->file) {
		snprintf(tc->path, sizeof(tc->path), "%s", fuzz_memfile((const uint8_t *)text, len, &tc->fd));
		free(text);
	}
	sl_config_init(&tc->cfg);
	xp_config(&tc->cfg);
	xp_index_init(&tc->x.idx);
	if (sl_analysis_run(tc->path, &tc->cfg, xp_index_add, &tc->x.idx, &an, &err) < 0)
		fuzz_fail("trace '%s': %s", tc->name, err.msg);
	if (xp_source_open(&tc->x.src, tc->path, &tc->cfg.read, an->strtab) < 0)
		fuzz_fail("trace '%s': %s", tc->name, tc->x.src.err.msg);
	tc->x.name = tc->name;
	xp_init(&tc->x, an);
	tc->ready = true;
	return tc;
}

/* --- the keys --- */

static const int special_keys[] = {
	KEY_LEFT, KEY_RIGHT, KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END,
	KEY_ENTER, '\n', '\r', 27, 127, KEY_BACKSPACE, 8, '\t', KEY_BTAB, KEY_F(1),
	'l' & 0x1f, 'u' & 0x1f, 'g' & 0x1f, 'c' & 0x1f, 'b' & 0x1f, 'f' & 0x1f,
	KEY_SLEFT, KEY_SRIGHT, KEY_RESIZE, ERR, 0x7f00, -5,
};

static const int sizes[][2] = {	/* columns, lines */
	{ 80, 24 }, { 40, 8 }, { 39, 7 }, { 120, 40 }, { 200, 60 }, { 20, 5 }, { 300, 100 }, { 100, 30 },
};

struct replay {
	const uint8_t *keys;
	size_t nr, next;
	int size;
	bool done;			/* the input is used up */
};

static int key_of(uint8_t b)
{
	if ((b >= 0x20 && b < 0x7f) || b == '\n' || b == '\r' || b == '\t' || b == 8 || b == 27 || b == 127)
		return b;
	return special_keys[b % (sizeof(special_keys) / sizeof(special_keys[0]))];
}

static int next_key(struct xp *x)
{
	struct replay *rp = x->read_key_data;
	int ch;

	if (rp->next >= rp->nr) {
		/* the end of the input: any question is cancelled, the session ends */
		rp->done = true;
		x->quit = true;
		return 27;
	}
	ch = key_of(rp->keys[rp->next++]);
	if (ch == KEY_RESIZE) {
		rp->size = (rp->size + 1) % (int)(sizeof(sizes) / sizeof(sizes[0]));
		resize_term(sizes[rp->size][1], sizes[rp->size][0]);
	}
	return ch;
}

static void check(const struct xp *x, const struct trace_case *tc, size_t key_nr)
{
	const char *broken = xp_check(x);

	if (broken)
		fuzz_fail("trace '%s', after key %zu: %s", tc->name, key_nr, broken);
}

/* FUZZ_EXPLORE_PRINT=1: the last screen, to see what an input did */
static void print_screen(struct xp *x, const struct trace_case *tc, size_t keys)
{
	char line[512];

	fprintf(stderr, "trace '%s': %" PRIu64 " events, %zu findings, %d CPUs; %zu keys; %dx%d:\n",
		tc->name, x->idx.events, x->nr_findings, x->nr_cpus, keys, COLS, LINES);
	for (int y = 0; y < LINES; y++) {
		mvinnstr(y, 0, line, (int)MIN(sizeof(line) - 1, (size_t)COLS));
		fprintf(stderr, "|%s\n", line);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static volatile sig_atomic_t no_signal;
	static FILE *out, *in;
	static bool screen;
	struct trace_case *tc;
	struct replay rp = { 0 };
	struct xp *x;

	if (size < 2)
		return -1;
	tc = trace_case(data[0] & 3);
	x = &tc->x;
	/* a session from its start: what the screen shows, not what it shows it from */
	x->panel = XP_OVERVIEW;
	memset(x->back, 0, sizeof(x->back));
	x->status[0] = '\0';
	x->quit = false;
	x->stop = &no_signal;
	x->src.stop = &no_signal;
	if (!screen) {
		/* one screen for every input: curses keeps its terminal descriptions for good */
		out = fopen("/dev/null", "w");
		in = fopen("/dev/null", "r");
		x->color = true;
		if (!out || !in || !xp_screen_open(x, "xterm-256color", out, in))
			fuzz_fail("no headless screen (is the xterm-256color terminfo installed?)");
		screen = true;
	}
	x->color = data[0] & 4;
	xp_init_attrs(x);
	rp.keys = data + 2;
	rp.nr = size - 2 < MAX_KEYS ? size - 2 : MAX_KEYS;
	rp.size = data[1] & 7;
	resize_term(sizes[rp.size][1], sizes[rp.size][0]);
	x->read_key = next_key;
	x->read_key_data = &rp;

	xp_panels_init(x);
	xp_draw(x);
	check(x, tc, 0);
	while (!rp.done) {
		int ch = next_key(x);

		if (rp.done)
			break;
		x->quit = false;	/* q: keep going, the rest of the keys may find more */
		xp_key(x, ch);
		if (rp.done)
			break;
		xp_draw(x);
		check(x, tc, rp.next);
	}
	check(x, tc, rp.next);
	if (getenv("FUZZ_EXPLORE_PRINT"))
		print_screen(x, tc, rp.next);
	xp_panels_destroy(x);
	return 0;
}
