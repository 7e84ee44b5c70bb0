// SPDX-License-Identifier: GPL-2.0
/*
 * trace_window.c - fold one time window of a trace into per-CPU lanes
 *
 * A lane cell is one screen column of one CPU.  When a CPU's running
 * task changes, the run that ends is spread over the cells it covers;
 * each cell keeps its busy, idle and unknown time and the task with the
 * longest single run in it, which is what gets drawn.  Markers are set
 * on the lane of the CPU they concern: a waking on the waker's CPU, a
 * wakeup and a migration on the destination, an IPI on its target.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace_window.h"
#include "util/util.h"

/* Raw events wanted on each side of the center: kept in a ring before it. */
struct raw_ring {
	struct xp_raw_event *buf;
	size_t cap, head, nr;		/* before the center: the last cap events */
	size_t after;			/* kept at or after the center */
};

struct fold {
	struct xp_window *w;
	const struct xp_window_req *req;
	uint64_t end;			/* req->start + req->span */
	struct xp_lane *lanes;		/* per CPU: who runs it, from the checkpoint on */
	uint64_t *since;		/* per CPU: when that run started */
	struct raw_ring ring;
	struct xp_comms comms;		/* each pid's comm at the event reached */
	struct xp_waiters waiting;	/* who waits on which CPU, from the checkpoint on */
};

static uint32_t pid_hash(int32_t pid)
{
	return (uint32_t)pid * 2654435761u;
}

/* The legend entry of pid, made on first use. */
static struct xp_window_task *task_of(struct xp_window *w, int32_t pid)
{
	uint32_t mask, i;

	if (w->nr_tasks * 2 >= w->nr_slots) {
		uint32_t nr = w->nr_slots ? w->nr_slots * 2 : 256;

		free(w->task_slots);
		w->task_slots = xcalloc(nr, sizeof(*w->task_slots));
		w->nr_slots = nr;
		for (size_t t = 0; t < w->nr_tasks; t++) {
			for (i = pid_hash(w->tasks[t].pid) & (nr - 1); w->task_slots[i]; i = (i + 1) & (nr - 1))
				;
			w->task_slots[i] = (uint32_t)t + 1;
		}
	}
	mask = w->nr_slots - 1;
	for (i = pid_hash(pid) & mask; w->task_slots[i]; i = (i + 1) & mask)
		if (w->tasks[w->task_slots[i] - 1].pid == pid)
			return &w->tasks[w->task_slots[i] - 1];
	GROW(w->tasks, w->tasks_alloc, w->nr_tasks + 1);
	memset(&w->tasks[w->nr_tasks], 0, sizeof(w->tasks[0]));
	w->tasks[w->nr_tasks].pid = pid;
	w->task_slots[i] = (uint32_t)++w->nr_tasks;
	return &w->tasks[w->nr_tasks - 1];
}

const struct xp_window_task *xp_window_task(const struct xp_window *w, int32_t pid)
{
	uint32_t mask = w->nr_slots - 1, i;

	if (!w->nr_slots)
		return NULL;
	for (i = pid_hash(pid) & mask; w->task_slots[i]; i = (i + 1) & mask)
		if (w->tasks[w->task_slots[i] - 1].pid == pid)
			return &w->tasks[w->task_slots[i] - 1];
	return NULL;
}

char xp_window_letter(const struct xp_window *w, int32_t pid)
{
	const struct xp_window_task *t;

	if (pid == 0)
		return '.';
	if (pid < 0)
		return '?';
	t = xp_window_task(w, pid);
	return t && t->letter ? t->letter : '+';
}

/* A task's names in the window: its first and its last (an exec between them). */
static void note_comm(struct xp_window_task *t, uint32_t comm)
{
	if (!comm)
		return;
	if (!t->first_comm)
		t->first_comm = comm;
	t->comm = comm;
}

/* The run of pid on cpu over [a, b) ended: spread it over the cells. */
static void close_run(struct fold *f, int cpu, int32_t pid, uint64_t a, uint64_t b)
{
	const struct xp_window_req *req = f->req;
	struct xp_cell *lane = f->w->cells + (size_t)cpu * (size_t)req->cols;

	a = MAX(a, req->start);
	b = MIN(b, f->end);
	if (a >= b)
		return;
	bool kept = true;
	uint32_t comm = pid > 0 ? xp_comms_get(&f->comms, pid) : 0;

	if (pid > 0) {
		struct xp_window_task *t;

		kept = !req->keep_task || req->keep_task(req->keep_data, pid, comm);
		if (kept) {
			t = task_of(f->w, pid);
			t->run_ns += b - a;
			note_comm(t, comm);
		}
	}
	for (int col = xp_window_col(req, a); col < req->cols; col++) {
		uint64_t c0 = xp_window_col_ts(req, col);
		uint64_t c1 = col + 1 < req->cols ? xp_window_col_ts(req, col + 1) : f->end;
		uint64_t piece;
		struct xp_cell *cell = &lane[col];

		if (c0 >= b)
			break;
		piece = MIN(b, c1) - MAX(a, c0);
		if (pid > 0 && !kept) {
			cell->busy_ns += piece;
			cell->other_ns += piece;
		} else if (pid > 0) {
			cell->busy_ns += piece;
			if (piece > cell->best_ns) {
				cell->best_ns = piece;
				cell->best_pid = pid;
				cell->best_comm = comm;
			}
		} else if (pid == 0) {
			cell->idle_ns += piece;
		} else {
			cell->unknown_ns += piece;
		}
	}
}

/* A wait on a CPU's queue over [w->since, b) ended: spread it over the cells. */
static void close_wait(void *data, const struct xp_waiter *w, uint64_t b)
{
	struct fold *f = data;
	const struct xp_window_req *req = f->req;
	struct xp_cell *lane;
	uint64_t a = MAX(w->since, req->start);
	uint32_t comm;

	if (w->cpu < 0 || w->cpu >= req->nr_cpus)
		return;
	b = MIN(b, f->end);
	if (a >= b)
		return;
	comm = xp_comms_get(&f->comms, w->pid);
	if (req->keep_task && !req->keep_task(req->keep_data, w->pid, comm))
		return;
	/* a task that only waited in the window gets a letter too, after those that ran */
	note_comm(task_of(f->w, w->pid), comm);
	lane = f->w->cells + (size_t)w->cpu * (size_t)req->cols;
	for (int col = xp_window_col(req, a); col < req->cols; col++) {
		uint64_t c0 = xp_window_col_ts(req, col);
		uint64_t c1 = col + 1 < req->cols ? xp_window_col_ts(req, col + 1) : f->end;
		uint64_t piece;

		if (c0 >= b)
			break;
		piece = MIN(b, c1) - MAX(a, c0);
		if (piece > lane[col].wait_ns) {
			lane[col].wait_ns = piece;
			lane[col].wait_pid = w->pid;
		}
	}
}

static void mark(struct fold *f, int cpu, uint64_t ts, uint16_t bits)
{
	if (cpu < 0 || cpu >= f->req->nr_cpus || ts < f->req->start || ts >= f->end)
		return;
	f->w->cells[(size_t)cpu * (size_t)f->req->cols + (size_t)xp_window_col(f->req, ts)].marks |= bits;
}

static void mark_event(struct fold *f, const struct sl_event *ev)
{
	switch (ev->type) {
	case SL_EV_WAKING:
		mark(f, ev->cpu, ev->ts, XP_MARK_WAKING);
		break;
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		mark(f, ev->wake.target_cpu, ev->ts, XP_MARK_WAKEUP);
		break;
	case SL_EV_MIGRATE:
		mark(f, ev->migrate.dest_cpu, ev->ts, XP_MARK_MIGRATE);
		break;
	case SL_EV_IPI_SEND_CPU:
	case SL_EV_IPI_SEND_CPUMASK:
	case SL_EV_IPI_RAISE:
		if (ev->ipi.target_cpu >= 0) {
			mark(f, ev->ipi.target_cpu, ev->ts, XP_MARK_IPI);
			break;
		}
		for (uint32_t w = 0; w < ev->ipi.mask.nr_words; w++)
			for (int b = 0; b < 64; b++)
				if (ev->ipi.mask.words[w] >> b & 1)
					mark(f, (int)(w * 64 + (uint32_t)b), ev->ts, XP_MARK_IPI);
		break;
	case SL_EV_IPI_ENTRY:
	case SL_EV_IRQ_VECTOR:
		mark(f, ev->cpu, ev->ts, XP_MARK_IPI);
		break;
	case SL_EV_LOST:
		mark(f, ev->cpu, ev->ts, XP_MARK_LOST);
		break;
	case SL_EV_SWITCH:
		if (f->req->highlight_pid > 0 && ev->sw.next_pid == f->req->highlight_pid)
			mark(f, ev->cpu, ev->ts, XP_MARK_FOLLOW);
		break;
	default:
		break;
	}
}

static uint32_t comm_slot(const struct xp_comms *c, int32_t pid)
{
	uint32_t mask = c->nr_slots - 1, i;

	for (i = pid_hash(pid) & mask; c->slots[i].comm && c->slots[i].pid != pid; i = (i + 1) & mask)
		;
	return i;
}

static void set_comm(struct xp_comms *c, int32_t pid, uint32_t comm)
{
	uint32_t i;

	if (pid <= 0 || !comm)
		return;
	if ((c->used + 1) * 2 > c->nr_slots) {
		struct xp_comms old = *c;

		c->nr_slots = old.nr_slots ? old.nr_slots * 2 : 64;
		c->slots = xcalloc(c->nr_slots, sizeof(*c->slots));
		for (uint32_t j = 0; j < old.nr_slots; j++)
			if (old.slots[j].comm)
				c->slots[comm_slot(c, old.slots[j].pid)] = old.slots[j];
		free(old.slots);
	}
	i = comm_slot(c, pid);
	if (!c->slots[i].comm)
		c->used++;
	c->slots[i].pid = pid;
	c->slots[i].comm = comm;
}

void xp_comms_note(struct xp_comms *c, const struct sl_event *ev)
{
	switch (ev->type) {
	case SL_EV_SWITCH:
		set_comm(c, ev->sw.prev_pid, ev->sw.prev_comm);
		set_comm(c, ev->sw.next_pid, ev->sw.next_comm);
		break;
	case SL_EV_WAKING:
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		set_comm(c, ev->wake.pid, ev->wake.comm);
		break;
	case SL_EV_MIGRATE:
		set_comm(c, ev->migrate.pid, ev->migrate.comm);
		break;
	case SL_EV_FORK:
		set_comm(c, ev->fork.parent_pid, ev->fork.parent_comm);
		set_comm(c, ev->fork.child_pid, ev->fork.child_comm);
		break;
	case SL_EV_EXIT:
		set_comm(c, ev->exit.pid, ev->exit.comm);
		break;
	default:
		break;
	}
}

uint32_t xp_comms_get(const struct xp_comms *c, int32_t pid)
{
	return c->nr_slots && pid > 0 ? c->slots[comm_slot(c, pid)].comm : 0;
}

void xp_comms_free(struct xp_comms *c)
{
	free(c->slots);
	memset(c, 0, sizeof(*c));
}

void xp_raw_keep(struct xp_raw_event *r, const struct sl_event *ev, uint32_t comm)
{
	r->ev = *ev;
	r->comm = comm;
	r->mask_nr_words = 0;
	if (sl_event_has_ipi(ev)) {
		/* the reader reuses the mask's words: keep a copy */
		r->mask_nr_words = MIN(ev->ipi.mask.nr_words, (uint32_t)ARRAY_SIZE(r->mask_words));
		if (ev->ipi.mask.words)
			memcpy(r->mask_words, ev->ipi.mask.words, r->mask_nr_words * sizeof(uint64_t));
		else
			r->mask_nr_words = 0;
		r->ev.ipi.mask.words = NULL;
		r->ev.ipi.mask.nr_words = 0;
	}
}

/* The filter keeps ev when it keeps a task ev is about. */
static bool event_kept(const struct fold *f, const struct sl_event *ev)
{
	const struct xp_window_req *req = f->req;
	int32_t pids[3] = { ev->pid, 0, 0 };

	if (!req->keep_task)
		return true;
	switch (ev->type) {
	case SL_EV_SWITCH:
		pids[1] = ev->sw.prev_pid;
		pids[2] = ev->sw.next_pid;
		break;
	case SL_EV_WAKING:
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		pids[1] = ev->wake.pid;
		break;
	case SL_EV_MIGRATE:
		pids[1] = ev->migrate.pid;
		break;
	case SL_EV_FORK:
		pids[1] = ev->fork.parent_pid;
		pids[2] = ev->fork.child_pid;
		break;
	default:
		break;
	}
	for (int i = 0; i < 3; i++)
		if (pids[i] > 0 && req->keep_task(req->keep_data, pids[i], xp_comms_get(&f->comms, pids[i])))
			return true;
	return false;
}

static bool raw_wanted(const struct fold *f, const struct sl_event *ev)
{
	const uint64_t *cpus = f->req->event_cpus;

	if (!f->req->max_events || ev->ts < f->req->start)
		return false;
	if (cpus && !(ev->cpu >= 0 && (cpus[ev->cpu / 64] >> (ev->cpu % 64) & 1)))
		return false;
	return event_kept(f, ev);
}

static void collect_raw(struct fold *f, const struct sl_event *ev)
{
	struct raw_ring *ring = &f->ring;

	if (!raw_wanted(f, ev))
		return;
	if (ev->ts < f->req->center) {
		xp_raw_keep(&ring->buf[(ring->head + ring->nr) % ring->cap], ev, xp_comms_get(&f->comms, ev->pid));
		if (ring->nr < ring->cap)
			ring->nr++;
		else
			ring->head = (ring->head + 1) % ring->cap;
	} else if (ring->after < (size_t)f->req->max_events) {
		xp_raw_keep(&ring->buf[ring->cap + ring->after++], ev, xp_comms_get(&f->comms, ev->pid));
	}
}

/* Letters by run time in the window, the highlighted task first as 'A'. */
static int by_run_desc(const void *a, const void *b)
{
	const struct xp_window_task *x = a, *y = b;

	if (x->run_ns != y->run_ns)
		return x->run_ns < y->run_ns ? 1 : -1;
	return x->pid - y->pid;
}

static void assign_letters(struct xp_window *w)
{
	static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	int32_t hl = w->req.highlight_pid;
	size_t next = 0;

	if (hl > 0)
		task_of(w, hl);
	if (!w->nr_tasks)
		return;		/* nothing ran: all idle, unknown or before the trace */
	qsort(w->tasks, w->nr_tasks, sizeof(*w->tasks), by_run_desc);
	for (size_t i = 0; i < w->nr_tasks; i++)
		if (w->tasks[i].pid == hl && i) {
			struct xp_window_task t = w->tasks[i];

			memmove(w->tasks + 1, w->tasks, i * sizeof(*w->tasks));
			w->tasks[0] = t;
		}
	for (size_t i = 0; i < w->nr_tasks; i++)
		w->tasks[i].letter = next < sizeof(letters) - 1 ? letters[next++] : 0;
	/* the order changed: rebuild the hash */
	memset(w->task_slots, 0, w->nr_slots * sizeof(*w->task_slots));
	for (size_t t = 0; t < w->nr_tasks; t++) {
		uint32_t mask = w->nr_slots - 1, i;

		for (i = pid_hash(w->tasks[t].pid) & mask; w->task_slots[i]; i = (i + 1) & mask)
			;
		w->task_slots[i] = (uint32_t)t + 1;
	}
}

void xp_window_free(struct xp_window *w)
{
	free(w->cells);
	free(w->tasks);
	free(w->task_slots);
	free(w->events);
	memset(w, 0, sizeof(*w));
}

static void fold_event(struct fold *f, const struct sl_event *ev)
{
	struct xp_lane_change chg[2];
	int32_t old = ev->cpu >= 0 && ev->cpu < f->req->nr_cpus ? f->lanes[ev->cpu].curr : 0;
	int n = xp_lanes_apply(f->lanes, f->req->nr_cpus, ev, chg);

	xp_comms_note(&f->comms, ev);	/* a switch names prev as it was: its run closes with that name */
	for (int i = 0; i < n; i++)
		xp_waiters_end(&f->waiting, chg[i].pid, chg[i].ts, close_wait, f);
	xp_waiters_apply(&f->waiting, ev, close_wait, f);

	for (int i = 0; i < n; i++) {
		int cpu = chg[i].cpu;

		close_run(f, cpu, old, f->since[cpu], chg[i].ts);
		f->since[cpu] = chg[i].ts;
		old = chg[i].pid;
	}
	if (ev->ts >= f->req->start)
		mark_event(f, ev);
	collect_raw(f, ev);
}

static void fold_free(struct fold *f)
{
	xp_comms_free(&f->comms);
	xp_waiters_free(&f->waiting);
	free(f->lanes);
	free(f->since);
	free(f->ring.buf);
}

int xp_window_read(struct xp_window *w, const struct xp_window_req *req,
		   const struct xp_index *idx, struct xp_source *src)
{
	const struct xp_checkpoint *cp = xp_index_find(idx, req->start);
	uint64_t from = cp ? cp->ts : 0;
	struct fold f = { .w = w };
	struct sl_event ev;
	int ret;

	xp_window_free(w);
	w->req = *req;
	req = &w->req;
	if (req->cols <= 0 || req->nr_cpus <= 0 || !req->span)
		return 0;
	/* the window ends by 2^64 - 1: its end is computed everywhere as start + span */
	if (w->req.span > UINT64_MAX - w->req.start)
		w->req.span = UINT64_MAX - w->req.start;
	if (!w->req.span)
		return 0;
	f.req = req;
	f.end = req->start + req->span;
	w->cells = xcalloc((size_t)req->nr_cpus * (size_t)req->cols, sizeof(*w->cells));
	f.lanes = xmalloc((size_t)req->nr_cpus * sizeof(*f.lanes));
	f.since = xmalloc((size_t)req->nr_cpus * sizeof(*f.since));
	for (int cpu = 0; cpu < req->nr_cpus; cpu++) {
		f.lanes[cpu] = xp_checkpoint_lane(idx, cp, cpu);
		/* before the trace's first event: no data, drawn blank */
		f.since[cpu] = MAX(req->start, idx->first_ts);
	}
	for (uint32_t i = 0; cp && i < cp->nr_wait; i++)
		xp_waiters_start(&f.waiting, idx->wait_pool[cp->wait_off + i].pid,
				 idx->wait_pool[cp->wait_off + i].cpu, idx->wait_pool[cp->wait_off + i].since);
	if (req->max_events) {
		f.ring.cap = (size_t)req->max_events;
		f.ring.buf = xcalloc(2 * f.ring.cap, sizeof(*f.ring.buf));
	}

	ret = xp_source_seek(src, from);
	while (ret >= 0 && (ret = xp_source_next(src, &ev)) > 0) {
		if (ev.ts < from)
			continue;
		w->events_read++;
		if (ev.ts >= f.end) {
			/* past the window: only the raw list may want more */
			if (!req->max_events || f.ring.after >= (size_t)req->max_events)
				break;
			xp_comms_note(&f.comms, &ev);
			collect_raw(&f, &ev);
			continue;
		}
		fold_event(&f, &ev);
	}
	if (ret < 0) {
		fold_free(&f);
		xp_window_free(w);
		return ret;
	}
	/* runs still open end with the window, or where the trace ends */
	w->trace_end = ret == 0 ? MAX(idx->last_ts, src->last_ts) : f.end;
	for (int cpu = 0; cpu < req->nr_cpus; cpu++)
		close_run(&f, cpu, f.lanes[cpu].curr, f.since[cpu], MIN(f.end, w->trace_end));
	xp_waiters_end_all(&f.waiting, MIN(f.end, w->trace_end), close_wait, &f);

	if (req->max_events) {
		w->events = xcalloc(f.ring.nr + f.ring.after + 1, sizeof(*w->events));
		for (size_t i = 0; i < f.ring.nr; i++)
			w->events[i] = f.ring.buf[(f.ring.head + i) % f.ring.cap];
		memcpy(w->events + f.ring.nr, f.ring.buf + f.ring.cap,
		       f.ring.after * sizeof(*w->events));
		w->nr_events = f.ring.nr + f.ring.after;
		w->center_idx = f.ring.nr;
	}
	assign_letters(w);
	fold_free(&f);
	return 0;
}

/* A switch-in of a pid, for xp_find_switch_in() */
static bool switch_in_of(const void *data, const struct sl_event *ev)
{
	return ev->sw.next_pid == *(const int32_t *)data;
}

int xp_find_switch_in(struct xp_source *src, const struct xp_index *idx, int32_t pid,
		      uint64_t ts, bool forward, uint64_t *found)
{
	struct sl_event ev;
	int ret = xp_find_switch_in_match(src, idx, switch_in_of, &pid, ts, forward, &ev);

	if (ret > 0)
		*found = ev.ts;
	return ret;
}

int xp_find_switch_in_match(struct xp_source *src, const struct xp_index *idx,
			    bool (*match)(const void *data, const struct sl_event *ev), const void *data,
			    uint64_t ts, bool forward, struct sl_event *found)
{
	struct sl_event ev;
	int ret;

	if (forward) {
		if (ts == UINT64_MAX)
			return 0;
		ret = xp_source_seek(src, ts + 1);
		while (ret >= 0 && (ret = xp_source_next(src, &ev)) > 0)
			if (ev.ts > ts && ev.type == SL_EV_SWITCH && match(data, &ev)) {
				*found = ev;
				return 1;
			}
		return ret;
	}
	/* backwards: one checkpoint interval at a time, the last match in it */
	for (const struct xp_checkpoint *cp = xp_index_find(idx, ts); cp; cp--) {
		bool hit = false;

		ret = xp_source_seek(src, cp->ts);
		while (ret >= 0 && (ret = xp_source_next(src, &ev)) > 0) {
			if (ev.ts >= ts)
				break;
			if (ev.ts >= cp->ts && ev.type == SL_EV_SWITCH && match(data, &ev)) {
				*found = ev;
				hit = true;
			}
		}
		if (ret < 0)
			return ret;
		if (hit)
			return 1;
		ts = cp->ts;
		if (cp == idx->cps)
			break;
	}
	return 0;
}
