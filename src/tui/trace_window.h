/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_window.h - re-read one time window of a trace, for explore
 *
 * explore analyzes the trace once (sl_analysis_run()) and keeps no
 * events.  During that pass xp_index_add() sees every event and keeps a
 * sparse index: every few thousand events a checkpoint with its time and,
 * per CPU, the task running there.  To show a window, xp_window_read()
 * seeks a second reader to the last checkpoint before the window
 * (sl_reader_seek_time()), replays the few events between them from the
 * checkpoint's state and folds the window's events into lanes: per CPU,
 * one cell per screen column saying who ran there, and markers for
 * wakeups, migrations, IPIs and lost events.  Memory: the checkpoints
 * (at most XP_MAX_CHECKPOINTS) and the cells of one screen, whatever the
 * size of the trace.
 *
 * Who runs a CPU follows the events, as the model does: a sched_switch
 * sets next, and any event whose common_pid differs from the task we
 * think runs there means a switch the trace did not show (this kernel
 * never logs CPU 1's switches away from idle).  After lost events the
 * CPU is unknown until its next event.
 */
#ifndef SCHEDLINT_TUI_TRACE_WINDOW_H
#define SCHEDLINT_TUI_TRACE_WINDOW_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedlint/reader.h"

/* Checkpoints kept; when full, every other one goes and the spacing doubles. */
#define XP_MAX_CHECKPOINTS	1024
#define XP_FIRST_SPACING	4096	/* events between checkpoints at first */

/* A pid in the lanes: the idle task is 0; -1 means not known. */
#define XP_PID_UNKNOWN		(-1)

/* What the lanes know of one CPU at an instant. */
struct xp_lane {
	int32_t curr;			/* running pid: 0 idle, XP_PID_UNKNOWN */
	int32_t enq_pid;		/* the last task a wakeup or migration put here, 0 none */
	uint64_t enq_ts;		/* when */
	uint64_t last_ts;		/* this CPU's last event, 0 none yet */
};

/* The running task of cpu became pid at ts. */
struct xp_lane_change {
	int cpu;
	int32_t pid;
	uint64_t ts;
};

/*
 * Apply ev to lanes[0..nr): fills the changes of running task it implies,
 * in time order, and returns how many (0 to 2: a switch the trace did not
 * show, then the one it did).  As the model does (implied_switch()), a
 * switch the trace lacks is placed at the earliest time it can have
 * happened: the CPU's previous event, or the new task's enqueue there if
 * later.
 */
int xp_lanes_apply(struct xp_lane *lanes, int nr, const struct sl_event *ev,
		   struct xp_lane_change chg[2]);

/* A task waiting on a CPU's runqueue (waiting.c): runnable, not running. */
struct xp_waiter {
	int32_t pid;			/* 0: an empty slot */
	int32_t cpu;
	uint64_t since;
};

/* The waiting tasks, by pid (open addressing). */
struct xp_waiters {
	struct xp_waiter *slots;
	uint32_t nr_slots, used;
};

/* A wait ended at ts (w is still filled in). */
typedef void (*xp_wait_end_fn)(void *data, const struct xp_waiter *w, uint64_t ts);
/* Apply ev's effect on who waits where; end is told of each wait that ends. */
void xp_waiters_apply(struct xp_waiters *ws, const struct sl_event *ev, xp_wait_end_fn end, void *data);
void xp_waiters_start(struct xp_waiters *ws, int32_t pid, int32_t cpu, uint64_t since);
void xp_waiters_end(struct xp_waiters *ws, int32_t pid, uint64_t ts, xp_wait_end_fn end, void *data);
/* End every wait at ts, and free. */
void xp_waiters_end_all(struct xp_waiters *ws, uint64_t ts, xp_wait_end_fn end, void *data);
const struct xp_waiter *xp_waiter_of(const struct xp_waiters *ws, int32_t pid);
void xp_waiters_free(struct xp_waiters *ws);

/* Waiting tasks kept with a checkpoint at most (the others start waiting unseen). */
#define XP_CP_WAITERS		1024

struct xp_checkpoint {
	uint64_t ts;			/* events before ts are applied, none at or after */
	uint64_t event_nr;		/* events before it */
	size_t pool_off;		/* its lanes: xp_index.pool[pool_off..] */
	int nr_cpus;			/* CPUs known then (the others: unknown) */
	size_t wait_off;		/* its waiting tasks: xp_index.wait_pool[wait_off..] */
	uint32_t nr_wait;
};

#define XP_INDEX_MARKERS	64

struct xp_index {
	/* the state after the last event added */
	struct xp_lane *lanes;
	int nr_cpus;
	size_t lanes_alloc;
	uint64_t events;		/* events added */
	uint64_t first_ts, last_ts;	/* of them (last_ts: the latest) */

	struct xp_checkpoint *cps;	/* in time order; cps[0] at the first event */
	size_t nr_cps, cps_alloc;
	uint64_t spacing;		/* events between checkpoints */
	uint64_t since_cp;		/* events since the last checkpoint */
	struct xp_lane *pool;
	size_t pool_len, pool_alloc;
	struct xp_waiters waiting;	/* after the last event added */
	struct xp_waiter *wait_pool;	/* the checkpoints' waiting tasks */
	size_t wait_len, wait_alloc;
	/*
	 * The trace's first markers (trace_marker writes: schedlint record's
	 * LLC, affinity and workload markers come first), their text interned
	 * in the analysis' strtab: where the workload starts
	 */
	struct { uint64_t ts; uint32_t text; } markers[XP_INDEX_MARKERS];
	int nr_markers;
};

void xp_index_init(struct xp_index *idx);
void xp_index_free(struct xp_index *idx);
/* Every event of the analysis pass, in order (an sl_event_cb). */
void xp_index_add(void *idx, const struct sl_event *ev);
/* The last checkpoint at or before ts (the first one when ts is earlier). */
const struct xp_checkpoint *xp_index_find(const struct xp_index *idx, uint64_t ts);
/* The lane of cpu at checkpoint cp (unknown when cp does not know the CPU). */
struct xp_lane xp_checkpoint_lane(const struct xp_index *idx, const struct xp_checkpoint *cp, int cpu);
/* Bytes the index holds (for the report's numbers). */
size_t xp_index_bytes(const struct xp_index *idx);

/*
 * The second reader, positioned by time.  A reader that cannot seek
 * (-ENOTSUP) is reopened, and read from the start when even a fresh one
 * cannot: slower, still correct and bounded in memory.
 */
struct xp_source {
	char *path;
	struct sl_read_opts opts;
	struct sl_strtab *strtab;	/* the analysis's: ids match the model's */
	struct sl_reader *reader;
	struct sl_error err;
	uint64_t last_ts;		/* of the last event returned */
	bool returned_any;		/* since the last seek or open */
	volatile sig_atomic_t *stop;	/* set by a signal: reads end with -EINTR */
	uint64_t seeks, reopens;	/* statistics */
};

int xp_source_open(struct xp_source *src, const char *path, const struct sl_read_opts *opts,
		   struct sl_strtab *strtab);
void xp_source_close(struct xp_source *src);
/* Position src so that its next events include every event at or after ts. */
int xp_source_seek(struct xp_source *src, uint64_t ts);
/* 1 = *ev, 0 = end, < 0 = -errno (src->err says why), -EINTR on a stop signal */
int xp_source_next(struct xp_source *src, struct sl_event *ev);

/* Markers in a lane cell */
enum {
	XP_MARK_WAKING	= 1 << 0,	/* a task woke another from this CPU */
	XP_MARK_WAKEUP	= 1 << 1,	/* a woken task was enqueued here (sched_wakeup[_new]) */
	XP_MARK_MIGRATE	= 1 << 2,	/* a task migrated to this CPU */
	XP_MARK_IPI	= 1 << 3,	/* an IPI was sent to this CPU, or arrived */
	XP_MARK_LOST	= 1 << 4,	/* this CPU's buffer lost events */
	XP_MARK_FOLLOW	= 1 << 5,	/* the highlighted task was switched in here */
};

/* One column of one CPU's lane. */
struct xp_cell {
	uint64_t busy_ns, idle_ns, unknown_ns;	/* of the column's time */
	uint64_t other_ns;		/* of busy_ns: tasks the window's filter hides */
	uint64_t wait_ns;		/* the longest single wait of a task on this CPU in it */
	int32_t wait_pid;		/* that task (valid when wait_ns > 0) */
	uint64_t best_ns;		/* the longest single run of a task in it (one the filter keeps) */
	int32_t best_pid;		/* that task (valid when best_ns > 0) */
	uint32_t best_comm;		/* its comm during that run; 0 not named (ask the model) */
	uint16_t marks;			/* XP_MARK_* */
};

/* A task that ran in the window: the legend. */
struct xp_window_task {
	int32_t pid;
	uint32_t comm;			/* its name at its last run in the window; 0 = not named
					 * there (ask the model) */
	uint32_t first_comm;		/* at its first: differs when it exec'd in the window */
	uint64_t run_ns;		/* time it ran in the window */
	char letter;			/* what its runs are drawn with */
};

/* An event kept for the text list (the cpumask is copied: the reader reuses it). */
struct xp_raw_event {
	struct sl_event ev;
	uint64_t mask_words[4];		/* the first 256 CPUs of an IPI mask */
	uint32_t mask_nr_words;
	uint32_t comm;			/* common_pid's comm at that moment; 0: not named since
					 * the read began (ask the model) */
};

/* Keep a copy of ev in r, its comm (0: not known) with it. */
void xp_raw_keep(struct xp_raw_event *r, const struct sl_event *ev, uint32_t comm);

/*
 * The comm of each pid at the moment reached, as the events of a read
 * name it (a switch's prev_comm and next_comm, a wakeup's or migration's
 * comm, a fork's): a task that exec'd shows the name it had then, as
 * trace-cmd report prints those fields, not the last one.
 */
struct xp_comms {
	struct xp_comm_slot {
		int32_t pid;
		uint32_t comm;
	} *slots;			/* open addressing; comm 0 = empty */
	uint32_t nr_slots, used;
};
void xp_comms_note(struct xp_comms *c, const struct sl_event *ev);
uint32_t xp_comms_get(const struct xp_comms *c, int32_t pid);
void xp_comms_free(struct xp_comms *c);

struct xp_window_req {
	uint64_t start, span;		/* the window [start, start + span) */
	int cols;			/* cells per lane */
	int nr_cpus;			/* lanes */
	int32_t highlight_pid;		/* drawn as 'A' and marked where switched in; -1 none */
	uint64_t center;		/* keep the raw events nearest to this time... */
	int max_events;			/* ...at most this many on each side (0: none) */
	const uint64_t *event_cpus;	/* raw events only of these CPUs (bitmap), NULL all */
	/* a filter: only the tasks it keeps get letters and raw events; NULL keeps all */
	bool (*keep_task)(const void *data, int32_t pid, uint32_t comm);
	const void *keep_data;
	uint32_t keep_gen;		/* changes when what keep_task keeps changes */
};

struct xp_window {
	struct xp_window_req req;
	struct xp_cell *cells;		/* nr_cpus x cols: cells[cpu * cols + col] */
	struct xp_window_task *tasks;	/* by run time, most first; the highlighted one first */
	size_t nr_tasks, tasks_alloc;
	uint32_t *task_slots;		/* pid hash: index + 1 into tasks, 0 empty */
	uint32_t nr_slots;
	struct xp_raw_event *events;	/* in time order */
	size_t nr_events;
	size_t center_idx;		/* first event at or after req.center */
	uint64_t events_read;		/* including the replay before the window */
	uint64_t trace_end;		/* where the data ended (runs are drawn up to it) */
};

/*
 * Fill w for req from src, starting at idx's checkpoint before req.start.
 * 0, or -errno (src->err) with w left empty.
 */
int xp_window_read(struct xp_window *w, const struct xp_window_req *req,
		   const struct xp_index *idx, struct xp_source *src);
void xp_window_free(struct xp_window *w);
/* Letter of pid in w ('.' idle, '?' unknown, '+' a task without a letter). */
char xp_window_letter(const struct xp_window *w, int32_t pid);
const struct xp_window_task *xp_window_task(const struct xp_window *w, int32_t pid);
/*
 * Time at the start of column col, and the column of ts (clamped to the
 * window's columns).  Exact in 128 bits: a span near 2^64 (a trace whose
 * times are that large) neither wraps nor rounds past the window.
 */
static inline uint64_t xp_window_col_ts(const struct xp_window_req *req, int col)
{
	return req->start + (uint64_t)((unsigned __int128)req->span * (unsigned)col / (unsigned)req->cols);
}

static inline int xp_window_col(const struct xp_window_req *req, uint64_t ts)
{
	uint64_t col;

	if (ts <= req->start || !req->span)
		return 0;
	col = (uint64_t)((unsigned __int128)(ts - req->start) * (unsigned)req->cols / req->span);
	return col < (uint64_t)req->cols ? (int)col : req->cols - 1;
}

/*
 * Search the trace from ts for the next (forward) or previous switch-in
 * of pid: 1 with *found, 0 none, < 0 error.
 */
int xp_find_switch_in(struct xp_source *src, const struct xp_index *idx, int32_t pid,
		      uint64_t ts, bool forward, uint64_t *found);
/* The same for the switch-ins match() takes (a sched_switch; the comm of next_pid then); *ev the one found. */
int xp_find_switch_in_match(struct xp_source *src, const struct xp_index *idx,
			    bool (*match)(const void *data, const struct sl_event *ev), const void *data,
			    uint64_t ts, bool forward, struct sl_event *found);

#endif /* SCHEDLINT_TUI_TRACE_WINDOW_H */
