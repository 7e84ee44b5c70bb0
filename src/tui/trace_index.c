// SPDX-License-Identifier: GPL-2.0
/*
 * trace_index.c - explore's sparse index of a trace, and its second reader
 *
 * The index is built during the one analysis pass: every `spacing`
 * events a checkpoint remembers the time and each CPU's lane state (who
 * was running, its last event, its last enqueue).  When
 * XP_MAX_CHECKPOINTS are taken, every other one is dropped and the
 * spacing doubles, so memory stays bounded (checkpoints x CPUs x 24
 * bytes) while a window never needs more than `spacing` events of replay.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace_window.h"
#include "util/util.h"

void xp_index_init(struct xp_index *idx)
{
	memset(idx, 0, sizeof(*idx));
	idx->spacing = XP_FIRST_SPACING;
}

void xp_index_free(struct xp_index *idx)
{
	xp_waiters_free(&idx->waiting);
	free(idx->wait_pool);
	free(idx->lanes);
	free(idx->cps);
	free(idx->pool);
	memset(idx, 0, sizeof(*idx));
}

size_t xp_index_bytes(const struct xp_index *idx)
{
	return idx->lanes_alloc * sizeof(*idx->lanes) + idx->cps_alloc * sizeof(*idx->cps) +
	       idx->pool_alloc * sizeof(*idx->pool) + idx->wait_alloc * sizeof(*idx->wait_pool) +
	       idx->waiting.nr_slots * sizeof(*idx->waiting.slots);
}

static void grow_cpus(struct xp_index *idx, int cpu)
{
	if (cpu < idx->nr_cpus)
		return;
	GROW(idx->lanes, idx->lanes_alloc, (size_t)cpu + 1);
	for (int c = idx->nr_cpus; c <= cpu; c++)
		idx->lanes[c] = (struct xp_lane){ .curr = XP_PID_UNKNOWN };
	idx->nr_cpus = cpu + 1;
}

/* Keep every other checkpoint: the spacing doubles. */
static void thin_checkpoints(struct xp_index *idx)
{
	size_t kept = 0, pool_len = 0, wait_len = 0;

	for (size_t i = 0; i < idx->nr_cps; i += 2) {
		struct xp_checkpoint cp = idx->cps[i];

		/* (the pools are NULL until something was kept in them: no memmove of NULL) */
		if (cp.nr_cpus)
			memmove(idx->pool + pool_len, idx->pool + cp.pool_off,
				(size_t)cp.nr_cpus * sizeof(*idx->pool));
		cp.pool_off = pool_len;
		pool_len += (size_t)cp.nr_cpus;
		if (cp.nr_wait)
			memmove(idx->wait_pool + wait_len, idx->wait_pool + cp.wait_off,
				cp.nr_wait * sizeof(*idx->wait_pool));
		cp.wait_off = wait_len;
		wait_len += cp.nr_wait;
		idx->cps[kept++] = cp;
	}
	idx->nr_cps = kept;
	idx->pool_len = pool_len;
	idx->wait_len = wait_len;
	idx->spacing *= 2;
}

static void add_checkpoint(struct xp_index *idx, uint64_t ts)
{
	struct xp_checkpoint *cp;

	if (idx->nr_cps == XP_MAX_CHECKPOINTS)
		thin_checkpoints(idx);
	GROW(idx->cps, idx->cps_alloc, idx->nr_cps + 1);
	GROW(idx->pool, idx->pool_alloc, idx->pool_len + (size_t)idx->nr_cpus);
	cp = &idx->cps[idx->nr_cps++];
	cp->ts = ts;
	cp->event_nr = idx->events;
	cp->pool_off = idx->pool_len;
	cp->nr_cpus = idx->nr_cpus;
	if (idx->nr_cpus)
		memcpy(idx->pool + idx->pool_len, idx->lanes, (size_t)idx->nr_cpus * sizeof(*idx->lanes));
	idx->pool_len += (size_t)idx->nr_cpus;
	cp->wait_off = idx->wait_len;
	cp->nr_wait = 0;
	GROW(idx->wait_pool, idx->wait_alloc, idx->wait_len + MIN(idx->waiting.used, XP_CP_WAITERS));
	for (uint32_t i = 0; i < idx->waiting.nr_slots && cp->nr_wait < XP_CP_WAITERS; i++)
		if (idx->waiting.slots[i].pid)
			idx->wait_pool[idx->wait_len + cp->nr_wait++] = idx->waiting.slots[i];
	idx->wait_len += cp->nr_wait;
	idx->since_cp = 0;
}

static void lane_change(struct xp_lane_change *chg, int *n, int cpu, int32_t pid, uint64_t ts)
{
	chg[*n].cpu = cpu;
	chg[*n].pid = pid;
	chg[*n].ts = ts;
	(*n)++;
}

/* The window replay (trace_window.c) applies the same rules. */
int xp_lanes_apply(struct xp_lane *lanes, int nr, const struct sl_event *ev,
		   struct xp_lane_change chg[2])
{
	struct xp_lane *l;
	int32_t running;
	int n = 0;

	if (ev->cpu < 0 || ev->cpu >= nr)
		return 0;
	l = &lanes[ev->cpu];
	if (ev->type == SL_EV_LOST) {
		if (l->curr != XP_PID_UNKNOWN)
			lane_change(chg, &n, ev->cpu, XP_PID_UNKNOWN, ev->ts);
		l->curr = XP_PID_UNKNOWN;
		l->last_ts = ev->ts;
		return n;
	}
	/* the task this event says runs there */
	running = ev->type == SL_EV_SWITCH ? ev->sw.prev_pid : ev->pid;
	if (running >= 0 && running != l->curr) {
		uint64_t when = ev->ts;

		if (l->curr != XP_PID_UNKNOWN && l->last_ts) {
			when = l->last_ts;
			if (l->enq_pid == running && l->enq_ts > when)
				when = l->enq_ts;
			if (when > ev->ts)
				when = ev->ts;
		}
		lane_change(chg, &n, ev->cpu, running, when);
		l->curr = running;
	}
	switch (ev->type) {
	case SL_EV_SWITCH:
		if (ev->sw.next_pid != l->curr)
			lane_change(chg, &n, ev->cpu, ev->sw.next_pid, ev->ts);
		l->curr = ev->sw.next_pid;
		break;
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		if (ev->wake.target_cpu >= 0 && ev->wake.target_cpu < nr) {
			lanes[ev->wake.target_cpu].enq_pid = ev->wake.pid;
			lanes[ev->wake.target_cpu].enq_ts = ev->ts;
		}
		break;
	case SL_EV_MIGRATE:
		if (ev->migrate.dest_cpu >= 0 && ev->migrate.dest_cpu < nr) {
			lanes[ev->migrate.dest_cpu].enq_pid = ev->migrate.pid;
			lanes[ev->migrate.dest_cpu].enq_ts = ev->ts;
		}
		break;
	default:
		break;
	}
	l->last_ts = ev->ts;
	return n;
}

void xp_index_add(void *data, const struct sl_event *ev)
{
	struct xp_index *idx = data;
	struct xp_lane_change chg[2];
	int cpu = ev->cpu, n;

	if (cpu < 0)
		return;
	/* a wakeup or migration may name a CPU that has logged nothing yet */
	if (ev->type == SL_EV_WAKEUP || ev->type == SL_EV_WAKEUP_NEW)
		cpu = MAX(cpu, ev->wake.target_cpu);
	else if (ev->type == SL_EV_MIGRATE)
		cpu = MAX(cpu, ev->migrate.dest_cpu);
	grow_cpus(idx, cpu);
	/*
	 * A checkpoint sits between two times, so that "every event before
	 * ts" is exact: never between events of the same timestamp.
	 */
	if (!idx->events || (idx->since_cp >= idx->spacing && ev->ts > idx->last_ts))
		add_checkpoint(idx, ev->ts);
	if (!idx->events)
		idx->first_ts = ev->ts;
	if (ev->type == SL_EV_MARKER && idx->nr_markers < XP_INDEX_MARKERS) {
		idx->markers[idx->nr_markers].ts = ev->ts;
		idx->markers[idx->nr_markers++].text = ev->marker.text;
	}
	n = xp_lanes_apply(idx->lanes, idx->nr_cpus, ev, chg);
	for (int i = 0; i < n; i++)	/* a switch-in the trace did not show ends a wait too */
		xp_waiters_end(&idx->waiting, chg[i].pid, chg[i].ts, NULL, NULL);
	xp_waiters_apply(&idx->waiting, ev, NULL, NULL);
	if (ev->ts > idx->last_ts)
		idx->last_ts = ev->ts;
	idx->events++;
	idx->since_cp++;
}

const struct xp_checkpoint *xp_index_find(const struct xp_index *idx, uint64_t ts)
{
	size_t lo = 0, hi = idx->nr_cps;

	if (!idx->nr_cps)
		return NULL;
	/* the last checkpoint with cp.ts <= ts */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (idx->cps[mid].ts <= ts)
			lo = mid;
		else
			hi = mid;
	}
	return &idx->cps[lo];
}

struct xp_lane xp_checkpoint_lane(const struct xp_index *idx, const struct xp_checkpoint *cp, int cpu)
{
	if (!cp || cpu < 0 || cpu >= cp->nr_cpus)
		return (struct xp_lane){ .curr = XP_PID_UNKNOWN };
	return idx->pool[cp->pool_off + (size_t)cpu];
}

/* --- the second reader --- */

int xp_source_open(struct xp_source *src, const char *path, const struct sl_read_opts *opts,
		   struct sl_strtab *strtab)
{
	memset(src, 0, sizeof(*src));
	src->path = xstrdup(path);
	if (opts)
		src->opts = *opts;
	src->strtab = strtab;
	return sl_reader_open(path, &src->opts, strtab, &src->reader, &src->err);
}

void xp_source_close(struct xp_source *src)
{
	sl_reader_close(src->reader);
	free(src->path);
	src->reader = NULL;
	src->path = NULL;
}

static int reopen(struct xp_source *src)
{
	sl_reader_close(src->reader);
	src->reader = NULL;
	src->reopens++;
	src->returned_any = false;
	return sl_reader_open(src->path, &src->opts, src->strtab, &src->reader, &src->err);
}

int xp_source_seek(struct xp_source *src, uint64_t ts)
{
	int ret;

	src->seeks++;
	if (!src->reader && (ret = reopen(src)) < 0)
		return ret;
	ret = sl_reader_seek_time(src->reader, ts);
	if (ret != -ENOTSUP)
		goto out;
	/*
	 * No seek from here.  At the start, or going forward, the events
	 * still to come are all we need; else start again, and seek the
	 * fresh reader if it can.
	 */
	if (!src->returned_any || src->last_ts < ts)
		return 0;
	ret = reopen(src);
	if (ret < 0)
		return ret;
	ret = sl_reader_seek_time(src->reader, ts);
	if (ret == -ENOTSUP)
		return 0;	/* read from the start: the caller skips */
out:
	if (ret == 0)
		src->returned_any = false;
	return ret;
}

int xp_source_next(struct xp_source *src, struct sl_event *ev)
{
	int ret;

	if (src->stop && *src->stop)
		return -EINTR;
	if (!src->reader)
		return 0;
	ret = sl_reader_next(src->reader, ev);
	if (ret > 0) {
		src->last_ts = ev->ts;
		src->returned_any = true;
	}
	return ret;
}
